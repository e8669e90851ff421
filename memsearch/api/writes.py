"""The changes ``update_file`` makes to a live engine: each file is prepared and indexed in memory
at once (a *preview*: keyword, graph and time see it in milliseconds), then one background thread
commits the batch through the indexer's own :class:`~memsearch.indexer.Update` and embeds it.

The write side (the indexer, signals: chunkers, YAML, ...) is imported by these methods on first
use, not with this module: a process that only searches never pays for it (~80 ms on 2 cores,
measured with ``python -X importtime -c "import memsearch.indexer, memsearch.signals"`` after the
search side). Every import inside a function here is one of those.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from memsearch.config import Settings
from memsearch.errors import MemsearchError
from memsearch.index import in_memory, loading
from memsearch.index.format import SHAPE_FIELDS, shape_of
from memsearch.index.in_memory import IndexData
from memsearch.lock import index_lock
from memsearch.scan import Skipped

if TYPE_CHECKING:
    from memsearch.indexer import IndexReport, LivePreview

_log = logging.getLogger("memsearch")

#: Tries of one file's background commit before it is left to the next update or a reindex.
COMMIT_ATTEMPTS = 3
#: Pause before a failed batch is tried again.
RETRY_PAUSE_SECONDS = 0.05


@dataclass(frozen=True)
class FileUpdate:
    """What :meth:`Memsearch.update_file` did, at once (the commit and the vectors follow)."""

    path: str
    action: str  # added | changed | removed | unchanged | skipped
    chunks: int
    ms: float
    reason: str | None = None  # why a file was skipped or removed

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "action": self.action,
            "chunks": self.chunks,
            "ms": round(self.ms, 2),
            "reason": self.reason,
        }


class Engine(Protocol):
    """What the writer needs of the engine it serves (:class:`memsearch.api.Memsearch`)."""

    vault: Path
    settings: Settings
    index_home: Path
    index: IndexData

    def refresh(self, force: bool = False) -> bool: ...

    def query_vector(self, text: str) -> tuple[np.ndarray | None, str | None]: ...


class Writes:
    """One engine's changes ahead of the repository, and the thread that commits them.

    ``guard`` is held around every change of the engine's index and every search of it (both are
    short), so a search never sees half a change; ``previews`` are the files changed in memory
    and not committed yet.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.vault, self.settings, self.index_home = engine.vault, engine.settings, engine.index_home
        self.guard = threading.RLock()
        self.previews: dict[str, LivePreview] = {}
        self._committing: set[str] = set()  # the files the running commit writes
        self._outdated: list[int] = []  # their chunks a newer preview replaced: out once committed
        self.next_id = int(engine.index.manifest.get("next_id", engine.index.n_ids) or 0)
        self._pending: dict[str, None] = {}  # paths whose commit is still to be made, in order
        self._cond = threading.Condition()
        self._busy = False
        self._closing = False
        self._held = 0  # callers of between_commits() holding the writer back
        self._worker: threading.Thread | None = None
        #: The last failure of the background writer; kept while a file it gave up on is uncommitted.
        self.last_error: str | None = None
        self._given_up: set[str] = set()  # paths whose commit failed COMMIT_ATTEMPTS times
        #: Reports of the background commits, oldest first (the last 100).
        self.reports: list[IndexReport] = []

    def enqueue(self, rel: str) -> None:
        """Commit ``rel`` in the background (with whatever else is pending)."""
        with self._cond:
            self._pending[rel] = None
            self._cond.notify_all()
        self._start_worker()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until every change so far is committed with its vectors; False on timeout."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while self._pending or self._busy:
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return False
                self._cond.wait(left if left is not None else 1.0)
        return True

    def stop(self, timeout: float | None = None) -> None:
        """Finish the pending commits (waiting up to ``timeout``) and stop the writer thread."""
        self.wait(timeout)
        with self._cond:
            self._closing = True
            self._cond.notify_all()
        if self._worker is not None:
            self._worker.join(timeout)

    @contextlib.contextmanager
    def between_commits(self) -> Iterator[bool]:
        """Hold the writer thread back from its next batch; yields whether no batch is running
        (False: leave the index to it, which sets it when its commit is made). An engine loading a
        commit under a running batch swapped the index that batch worked on: the preview ids it
        took were then in neither (KeyError, the batch failed and was tried again)."""
        with self._cond:
            if self._busy:
                yield False
                return
            self._held += 1
        try:
            yield True
        finally:
            with self._cond:
                self._held -= 1
                self._cond.notify_all()

    def allocate(self, n: int) -> int:
        with self.guard:
            start = self.next_id
            self.next_id += n
            return start

    def preview(self, rel: str, started: float) -> FileUpdate:
        """Index ``rel`` in memory at once (keyword, graph, time), ahead of the repository."""
        from memsearch.index.forget_list import load_forget_list
        from memsearch.indexer import LivePreview
        from memsearch.indexer.prepare import prepare_file

        # The same preparation as an index run's: what update_file holds, a reindex would commit.
        with self.guard:
            dims = {m: index.dim for m, index in self.engine.index.modal.items()}
        forget = load_forget_list(self.index_home, self.vault)
        prepared = prepare_file(self.vault, rel, self.settings, forget, dims)
        parsed = chunks = got = None
        vectors = {} if isinstance(prepared, Skipped) else prepared.vectors
        reason = None
        if isinstance(prepared, Skipped):
            reason = prepared.reason
        else:
            got, parsed, chunks = prepared.file, prepared.parsed, prepared.chunks
        shape = shape_of(self.engine.index.manifest)
        shape = replace(self.settings, **{k: getattr(shape, k) for k in SHAPE_FIELDS})
        with self.guard:
            files = self.engine.index.manifest.get("files", {})
            committed = files.get(rel)
            preview = self.previews.get(rel)
            # (got, parsed and chunks are None together: testing got is testing chunks)
            if got is not None and preview is None and committed and committed["sha256"] == got.sha256:
                return FileUpdate(rel, "unchanged", len(committed["chunks"]), _ms(started))
            # The alias map depends on each file's aliases only: the graph is rebuilt when these change.
            had_aliases = dict(preview.aliases if preview else (committed or {}).get("aliases", {}))
            old_ids = preview.ids if preview is not None else (committed or {}).get("chunks", [])
            if self._committing:
                # The commit running now writes chunks from the live index: this file's (a preview's,
                # or its committed ones with their vectors), or any file's vectors whose gaps it
                # filled. Taken out now, their vectors were gone when it read them (KeyError: the
                # batch failed and was tried again). They go once it has committed.
                self._outdated.extend(old_ids)
            else:
                in_memory.remove_chunks(self.engine.index, old_ids)
            if chunks is None:
                self.previews[rel] = LivePreview("", [], [], {})
                action = "removed" if committed or preview else "skipped"
                n = 0
            else:
                assert got is not None and parsed is not None  # prepared with the chunks
                ids = list(range(self.next_id, self.next_id + len(chunks)))
                self.next_id += len(chunks)
                in_memory.add_file_chunks(self.engine.index, ids, chunks, shape)
                if vectors and ids:  # a moment's sidecar vectors: searchable at once too
                    in_memory.add_modal(self.engine.index, ids[0], vectors)
                self.previews[rel] = LivePreview(got.sha256, ids, chunks, dict(parsed.aliases))
                action = "changed" if committed else "added"
                n = len(chunks)
            if had_aliases != (dict(parsed.aliases) if parsed is not None else {}):
                self._rebuild_graph()
        return FileUpdate(rel, action, n, _ms(started), reason)

    def _rebuild_graph(self) -> None:
        files = {p: dict(e) for p, e in self.engine.index.manifest.get("files", {}).items()}
        for rel, preview in self.previews.items():
            if preview.aliases:
                files[rel] = {**files.get(rel, {}), "aliases": preview.aliases}
            elif rel in files:
                files[rel] = {k: v for k, v in files[rel].items() if k != "aliases"}
        in_memory.rebuild_graph(self.engine.index, files)

    def _start_worker(self) -> None:
        with self._cond:
            if self._worker is None or not self._worker.is_alive():
                self._closing = False
                self._worker = threading.Thread(target=self._work, name="memsearch-update", daemon=True)
                self._worker.start()

    def _work(self) -> None:
        attempts: dict[str, int] = {}
        while True:
            with self._cond:
                while (not self._pending or self._held) and not self._closing:
                    self._cond.wait()
                if not self._pending:
                    return
                batch = list(self._pending)
                self._pending.clear()
                self._busy = True
            try:
                self._persist(batch)
                for rel in batch:
                    attempts.pop(rel, None)
                    self._given_up.discard(rel)
                if not self._given_up:  # a file given up on stays said until it is committed
                    self.last_error = None
            except Exception as exc:
                self.last_error = f"{type(exc).__name__}: {exc}"
                # The failed run worked on the engine's own index and may have left it half changed:
                # it is loaded again as committed, with every file changed since previewed again, and
                # the batch is tried again (a preview that raced the commit is the usual cause). A
                # batch that keeps failing is left to the next update or a reindex, and said so.
                for rel in batch:
                    attempts[rel] = attempts.get(rel, 0) + 1
                retry = [rel for rel in batch if attempts[rel] < COMMIT_ATTEMPTS]
                self._given_up.update(rel for rel in batch if rel not in retry)
                _log.warning(
                    "memsearch: committing %s failed (%s); %s",
                    batch,
                    exc,
                    "trying again" if retry else "a reindex catches up",
                )
                with contextlib.suppress(Exception):
                    self.engine.refresh(force=True)
                if retry:
                    time.sleep(RETRY_PAUSE_SECONDS)
                    with self._cond:
                        for rel in retry:
                            self._pending.setdefault(rel, None)
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()

    def _persist(self, batch: list[str]) -> None:
        """Commit the batch (vectors from the cache only), embed what is missing, commit the vectors."""
        from memsearch.indexer import Update, open_for_write

        for phase in ("commit", "vectors"):
            with index_lock(self.index_home, timeout=None, what="memsearch update_file"):
                self._refresh_locked()
                base = open_for_write(self.index_home, live=self.engine.index)
                with self.guard:
                    live = {p: self.previews[p] for p in batch if p in self.previews}
                    self._committing = set(batch)
                run = Update(
                    self.vault,
                    self.settings,
                    self.index_home,
                    base,
                    guard=self.guard,
                    live=live,
                    allocate=self.allocate,
                    snapshot=False,
                )
                try:
                    report = run.apply(
                        batch,
                        embed=False,
                        pending_note="embedding in progress (update_file); the vectors follow in a moment",
                    )
                    with self.guard:
                        self.engine.index = run.data
                        self.next_id = max(self.next_id, int(run.data.manifest.get("next_id", 0) or 0))
                        for rel, preview in live.items():
                            if self.previews.get(rel) is preview:
                                del self.previews[rel]
                        self._outdated.extend(self._superseded(batch, live, run.data.manifest))
                finally:
                    with self.guard:  # a newer preview of a file of the batch replaced what it committed
                        in_memory.remove_chunks(self.engine.index, self._outdated)
                        self._committing, self._outdated = set(), []
                self._record(report)
            if phase == "vectors" or not report.gaps:
                break
            self._embed_gaps(batch)
        from memsearch.signals import after_index

        after_index(
            self.vault,
            self.index_home,
            self.settings,
            self.engine.index,
            embed_query=self.engine.query_vector,
        )
        from memsearch.retrieval import push

        with index_lock(self.index_home, timeout=None, what="memsearch update_file"):
            behind = push(self.index_home, self.engine.index, self.engine.index.commit)
        if behind:
            _log.warning("memsearch: %s; the next commit or index run pushes it", behind)

    def _superseded(self, batch: list[str], live: dict[str, LivePreview], manifest: dict) -> list[int]:
        """The chunks this commit put in the live index for files a newer preview replaced while it
        ran: that preview holds the file now. (The commit reads the file from the disk, often in a
        newer text than the preview it took, and gives that text fresh ids: left in, they were
        ghosts, searched, and written into the snapshot saved at close.)"""
        files = manifest.get("files", {})
        stale: list[int] = []
        for rel in batch:
            newer = self.previews.get(rel)
            if newer is not None and newer is not live.get(rel):
                keep = set(newer.ids)
                stale += [cid for cid in files.get(rel, {}).get("chunks", ()) if cid not in keep]
        return stale

    def _refresh_locked(self) -> None:
        """Another writer committed since this engine loaded: load its commit, redo the previews."""
        head = loading.head_commit(self.index_home)
        if head is not None and head != self.engine.index.commit:
            self.engine.refresh(force=True)  # this thread's own call: not held back by its own batch

    def _embed_gaps(self, batch: list[str]) -> None:
        """Embed the batch's gap chunks into the embedding cache (no lock held: it may take long)."""
        from memsearch.indexer import embed_text, embed_texts

        with self.guard:
            manifest = self.engine.index.manifest
            shape = shape_of(manifest)
            texts = []
            for rel in batch:
                entry = manifest.get("files", {}).get(rel)
                if not entry or not entry.get("gaps"):
                    continue
                held = self.engine.index.chunks
                chunks = [held[cid] for cid in entry["chunks"] if cid in held]
                if len(chunks) != len(entry["chunks"]):
                    continue
                gaps = set(entry["gaps"])
                texts += [
                    embed_text(chunks, i, shape) for i, cid in enumerate(entry["chunks"]) if cid in gaps
                ]
        if texts:
            embed_texts(
                self.vault,
                self.settings,
                self.index_home,
                texts,
                lambda *a: None,
                None,
                embed=True,
                reembed=False,
            )

    def _record(self, report: IndexReport) -> None:
        self.reports.append(report)
        del self.reports[:-100]

    def relative(self, path: str | Path) -> str:
        p = Path(path).expanduser()
        if p.is_absolute():
            try:
                p = p.relative_to(self.vault) if not p.exists() else p.resolve().relative_to(self.vault)
            except ValueError as exc:
                raise MemsearchError(
                    f"{path} is not inside the vault {self.vault}; nothing to index"
                ) from exc
        rel = p.as_posix()
        from memsearch.indexer import indexable

        if not indexable(self.vault, rel):
            raise MemsearchError(
                f"{rel} is not a memory memsearch indexes (a .md file outside hidden folders of the "
                "vault, or a notebook's session or moment file)"
            )
        return rel


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000.0
