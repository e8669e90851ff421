"""The keyword and vector strategies through the vault's backend, with the built-in indexes behind it.

A search asks :class:`BackendCall` for its keyword and vector top-N lists. With a Milvus backend
that does not answer (down, killed, slow past its timeout), the list comes from the built-in indexes
(always built) and the search's health says so: a soft seam, as the embedder is one.

:func:`push` brings the backend's collection level with the index after a run (an index run, a
forget, a background commit); what it could not push is recorded in ``backend.json`` and pushed by
the next run, as embedding gaps are filled.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from memsearch.errors import MemsearchError
from memsearch.index.backend import (
    BUILTIN_RETRIEVAL,
    BackendSpec,
    BackendUnavailableError,
    Retrieval,
    TieKey,
    read_backend,
    write_backend,
)
from memsearch.index.format import shape_of
from memsearch.index.in_memory import IndexData
from memsearch.models import Hit
from memsearch.paths import IndexLayout

_log = logging.getLogger("memsearch")


def open_retrieval(home: Path) -> Retrieval | None:
    """The backend recorded in the index home (None: the built-in indexes). A record that cannot
    be read is logged and the built-in indexes answer: a search never fails for it."""
    try:
        spec = read_backend(home)
    except MemsearchError as exc:
        _log.warning("memsearch: %s", exc)
        return None
    if spec is None:
        return None
    from memsearch.index.milvus import MilvusRetrieval

    return MilvusRetrieval(spec)


class BackendCall:
    """One search's calls to the backend: each list from the backend, or from the built-in indexes
    when it fails (``notes`` says which and why)."""

    def __init__(self, retrieval: Retrieval | None, index: IndexData) -> None:
        self.retrieval = retrieval or BUILTIN_RETRIEVAL
        self.index = index
        self.notes: list[str] = []

    @property
    def degraded(self) -> bool:
        return bool(self.notes)

    def keyword_top(
        self,
        weights: Mapping[str, float],
        k: int,
        allowed: np.ndarray | None,
        filters: Any,
        tie_key: TieKey | None = None,
    ) -> list[Hit]:
        return self._call(
            "keyword", lambda r: r.keyword_top(self.index, weights, k, allowed, filters, tie_key)
        )

    def vector_top(
        self,
        vector: np.ndarray,
        k: int,
        allowed: np.ndarray | None,
        filters: Any,
        tie_key: TieKey | None = None,
    ) -> list[Hit]:
        return self._call(
            "semantic", lambda r: r.vector_top(self.index, vector, k, allowed, filters, tie_key)
        )

    def _call(self, strategy: str, ask: Callable[[Retrieval], list[Hit]]) -> list[Hit]:
        if self.retrieval is BUILTIN_RETRIEVAL:
            return ask(BUILTIN_RETRIEVAL)
        try:
            return ask(self.retrieval)
        except BackendUnavailableError as exc:
            self.notes.append(f"{strategy}: {exc}; answered from the built-in index")
            return ask(BUILTIN_RETRIEVAL)


def push(
    home: Path,
    data: IndexData | Callable[[], IndexData],
    commit: str | None = None,
    *,
    compact: bool = False,
) -> str | None:
    """Bring the recorded backend level with the index ``data`` (or the loader of it, called only
    when something is to push). Never raises: what failed is recorded as pending and returned.
    ``compact``: have the backend compact away what it deleted (after a forget)."""
    try:
        spec = read_backend(home)
    except MemsearchError as exc:
        return str(exc)
    if spec is None:
        return None
    gone = spec.file_gone  # its file deleted: the rows with it
    if spec.pending is None and commit is not None and spec.pushed_commit == commit and not gone:
        return None  # the collection already holds this commit
    if gone:
        pushed_record(home).unlink(missing_ok=True)  # what it held is no longer there
    return push_spec(home, spec, data, compact=compact)


def push_spec(
    home: Path, spec: BackendSpec, data: IndexData | Callable[[], IndexData], *, compact: bool = False
) -> str | None:
    """:func:`push` for a given spec (recorded in the index home, with its outcome)."""
    from memsearch.index.milvus import forget_client
    from memsearch.index.milvus_push import sync

    try:
        index = data() if callable(data) else data
        sync(spec, index, shape_of(index.manifest or {}), compact=compact, record=pushed_record(home))
    except Exception as exc:  # a soft seam: the index run itself succeeded
        why = str(exc) if isinstance(exc, BackendUnavailableError) else f"{type(exc).__name__}: {exc}"
        spec.pending = f"Milvus at {spec.uri}: {why.splitlines()[0][:300] if why else 'failed'}"
        forget_client(spec)
        write_backend(home, spec)
        return spec.pending
    spec.pending = None
    spec.pushed_commit = index.commit
    write_backend(home, spec)
    return None


def pushed_record(home: Path) -> Path:
    """The signatures of the rows the last push sent (memsearch.index.milvus_push.sync)."""
    return IndexLayout(home).cache / "milvus-pushed.json"


def record_backend(home: Path, spec: BackendSpec | None) -> str | None:
    """Choose ``spec`` as the index home's backend (None: back to the built-in indexes). The next
    push compares the whole collection with the index (chosen again after a collection was dropped,
    it is rebuilt from the index, nothing embedded again); a push still pending stays recorded.

    The backend left behind loses the vault's rows: left there, no later forget would reach them
    (a forgotten note's text and vector outlived ``forget --purge-history``). Returns what could not
    be done of that, or None."""
    from memsearch.index.milvus import drop, forget_client

    old = read_backend(home)
    place = (spec.uri, spec.collection_name, spec.vault_id) if spec is not None else None
    left = old is not None and (old.uri, old.collection_name, old.vault_id) != place
    if spec is not None and old is not None and not left:
        spec.pending = old.pending
    # chosen again (perhaps after the collection was dropped and made anew): compare it all once
    pushed_record(home).unlink(missing_ok=True)
    write_backend(home, spec)
    if not left or old is None:
        return None
    try:
        drop(old)
    except Exception as exc:  # a soft seam: the new choice stands, and the user is told what is left
        why = str(exc).splitlines()[0][:300] if str(exc) else type(exc).__name__
        return (
            f"this vault's rows are still in Milvus at {old.uri} (collection {old.collection_name}: {why});"
            f" to remove them, choose it again (`--backend {old.uri}`) and then leave it once it answers"
        )
    finally:
        forget_client(old)
    return None
