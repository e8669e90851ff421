"""Load an index's query embedder on a thread, from the moment a process knows it will search.

A cold ``memsearch search`` spends ~0.5 s making the model's session (onnxruntime's import, then
graph optimisation in native code, which releases the GIL) and ~0.4 s importing the engine and
loading the index. Started first, the model is ready about when the index is. This module
imports nothing heavy, so the CLI can start the thread before it imports numpy.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from memsearch.paths import read_manifest_head

_THREAD_NAME = "memsearch-embedder-preload"


def loading() -> bool:
    """Whether a preload thread is still making its model. Its native code (onnxruntime) must
    not be under a process's interpreter teardown: C++ aborts it ("terminate called without an
    active exception", exit 134 or 139), so the CLI exits with ``os._exit`` while this is true."""
    return any(t.name == _THREAD_NAME and t.is_alive() for t in threading.enumerate())


class EmbedderPreload:
    """The embedder named by the index at ``index_home`` (its ``manifest.json``), loading."""

    def __init__(self, index_home: Path, vault: Path | None = None) -> None:
        self.vault = vault
        self.spec: str | None = None
        self._embedder: Any = None
        self._thread: threading.Thread | None = None
        try:
            self.spec = (read_manifest_head(index_home).get("embedder") or {}).get("spec") or None
        except AttributeError:
            return  # an index whose manifest is not readable: the search says why
        if self.spec:
            self._thread = threading.Thread(target=self._load, name=_THREAD_NAME, daemon=True)
            self._thread.start()

    def _load(self) -> None:
        try:
            # Imported here, on the thread: memsearch.embedders imports numpy, and the CLI starts
            # this thread before it imports anything heavy (tests/test_serve.py checks that a
            # search through `memsearch serve` imports no numpy at all).
            from memsearch.embedders.choice import embedder_for

            embedder = embedder_for(str(self.spec), self.vault)
            if hasattr(embedder, "load"):
                embedder.load()
            self._embedder = embedder
        except Exception:  # the first search makes its own embedder, and says why it fails
            self._embedder = None

    @property
    def started(self) -> bool:
        return self._thread is not None

    def take(self, fingerprint: str) -> Any:
        """The loaded embedder if it is the one ``fingerprint`` names (waits for the load), else None."""
        if self._thread is not None:
            self._thread.join()
        embedder, self._embedder = self._embedder, None
        if embedder is not None and getattr(embedder, "fingerprint", None) == fingerprint:
            return embedder
        return None
