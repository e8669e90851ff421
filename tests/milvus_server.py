"""A real Milvus (Milvus Lite 2.5.1: Milvus's own C++ core) for the tests, on loopback only.

Milvus Lite serves gRPC on an address when given one; the tests start it on 127.0.0.1 and a free
port, so it is reached as a Milvus Standalone would be (``milvus://127.0.0.1:PORT``) and can be
killed as one would die. Skips cleanly when the ``milvus`` extra is not installed.
"""

from __future__ import annotations

import contextlib
import signal
import socket
import time
from pathlib import Path

import pytest


def require_milvus() -> None:
    pytest.importorskip("pymilvus", reason="the milvus extra is not installed (pip install '.[milvus]')")
    pytest.importorskip("milvus_lite", reason="the milvus extra is not installed (pip install '.[milvus]')")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class MilvusProcess:
    """One Milvus Lite server process on a data file, started and killed by the test."""

    def __init__(self, data_file: Path) -> None:
        self.data_file = Path(data_file)
        self.port = _free_port()
        self.server = None

    @property
    def uri(self) -> str:
        return f"milvus://127.0.0.1:{self.port}"

    def start(self) -> MilvusProcess:
        from milvus_lite.server import Server

        self.server = Server(str(self.data_file), f"127.0.0.1:{self.port}")
        assert self.server.init() and self.server.start(), "Milvus Lite did not start"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), 0.2):
                return self
            time.sleep(0.1)
        raise AssertionError("Milvus Lite did not listen")

    def start_again(self) -> MilvusProcess:
        """The same data file on the same address, as a restarted deployment."""
        self.server = None
        return self.start()

    def kill(self) -> None:
        """SIGKILL: no goodbye to the clients (what a crash or an OOM kill looks like)."""
        proc = self.server._p
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        self.server._p = None
        self.server.stop()  # releases the data file's lock

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()
