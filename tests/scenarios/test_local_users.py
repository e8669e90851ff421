"""Another local user cannot interfere (issue 15, item 4): an index home others can write is
refused with the remedy, and the CLI sends its token only to the server of serve.json."""

from __future__ import annotations

import json
import os
import shutil
import socket
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

import memsearch
from memsearch.cli import main
from memsearch.client import ServerClient, ServerUnavailable, read_discovery

DISCOVERY_FILE = "serve.json"  # the on-disk name, as a script that looks for a server reads it
NOW = "2025-04-01T00:00:00+00:00"
PLANTED = {"query": "x", "results": [{"path": "planted/evil.md", "ref": "planted/evil.md:1-1", "score": 1.0}]}


@pytest.fixture
def vault(indexed_vault, tmp_path) -> Path:
    copy = tmp_path / "vault"
    shutil.copytree(indexed_vault, copy, ignore=shutil.ignore_patterns(DISCOVERY_FILE))
    return copy


def test_an_index_home_others_can_write_is_refused_with_the_remedy(vault):
    home = vault / ".memsearch"
    args = ["search", "Mara Lin", "--vault", str(vault), "--now", NOW, "--no-server"]
    assert CliRunner().invoke(main, args).exit_code == 0
    for mode in (0o777, 0o770, 0o722):
        os.chmod(home, mode)
        for command in (args, ["index", str(vault)], ["status", "--vault", str(vault)]):
            result = CliRunner().invoke(main, command)
            assert result.exit_code == 1, (oct(mode), command, result.output)
            assert str(home) in result.output and "chmod" in result.output, result.output
    os.chmod(home, 0o700)
    assert CliRunner().invoke(main, args).exit_code == 0
    # a folder above it that others can write (and rename in: no sticky bit) is refused too
    os.chmod(vault, 0o777)
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1 and str(vault) in result.output, result.output
    os.chmod(vault, 0o1777)  # the sticky bit: others cannot rename what they do not own
    assert CliRunner().invoke(main, args).exit_code == 0
    os.chmod(vault, 0o755)


class _Impostor:
    """A loopback listener that is not memsearch: it records every byte and plants an answer."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.port = self.sock.getsockname()[1]
        self.received = b""
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        body = json.dumps(PLANTED).encode()
        answer = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (
            len(body),
            body,
        )
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn:
                conn.settimeout(2)
                try:
                    while True:
                        data = conn.recv(65536)
                        if not data:
                            break
                        self.received += data
                        if b"\r\n\r\n" in data or b"}" in data:
                            conn.sendall(answer)
                except OSError:
                    pass

    def close(self) -> None:
        self.sock.close()


def test_a_stale_serve_json_naming_another_listener_never_gets_the_token(vault):
    impostor = _Impostor()
    try:
        token = "the-secret-bearer-token-of-this-user"
        discovery = vault / ".memsearch" / DISCOVERY_FILE
        data = {"host": "127.0.0.1", "port": impostor.port, "pid": os.getpid(), "token": token}
        data.update(vault=str(vault.resolve()), started=0, version=memsearch.__version__)
        discovery.write_text(json.dumps(data))
        os.chmod(discovery, 0o600)
        args = ["search", "Mara Lin", "--vault", str(vault), "--now", NOW, "--format", "files"]
        local = CliRunner().invoke(main, [*args, "--no-server"])
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, result.output
        assert "planted" not in result.output
        assert result.stdout == local.stdout
        assert impostor.received, "the client never tried the listener (the test proves nothing)"
        assert token.encode() not in impostor.received
        assert b"Mara Lin" not in impostor.received  # nor the query
        # the client itself says why
        client = ServerClient(read_discovery(vault / ".memsearch"))
        with pytest.raises(ServerUnavailable, match="not the memsearch server"):
            client.search({"query": "Mara Lin"})
        assert token.encode() not in impostor.received
    finally:
        impostor.close()


def test_the_peer_uid_of_a_loopback_connection_is_read():
    from memsearch.client import peer_uid

    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        with socket.create_connection(listener.getsockname()) as conn:
            accepted, _ = listener.accept()
            with accepted:
                uid = peer_uid(conn)
                assert uid is None or uid == os.getuid()
                if Path("/proc/net/tcp").exists():
                    assert uid == os.getuid()
