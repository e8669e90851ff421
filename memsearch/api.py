"""The public Python API: the same verbs as the CLI.

>>> from memsearch.api import index_vault, open_index
>>> index_vault("~/vault")
>>> engine = open_index("~/vault")
>>> engine.search("signing keys", k=5).to_dict()
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from memsearch import opening, privacy
from memsearch.client import WarmSearch, warm_client
from memsearch.config import Settings
from memsearch.embedders import doctor as embedders_doctor
from memsearch.errors import MemsearchError
from memsearch.index import store
from memsearch.lock import DEFAULT_LOCK_TIMEOUT
from memsearch.models import SearchResponse
from memsearch.paths import check_home
from memsearch.preload import EmbedderPreload
from memsearch.query import Filters, as_datetime, parse_query
from memsearch.scan import check_vault
from memsearch.search import STRATEGIES, QueryEmbedding, search_index

if TYPE_CHECKING:  # the indexer (chunkers, markdown, yaml) is imported by what writes, not by search
    from memsearch.forget import Forgotten
    from memsearch.indexer import IndexReport, LivePreview, Progress
    from memsearch.watch import Watcher


def index_vault(
    vault: str | Path,
    settings: Settings | None = None,
    progress: Progress | None = None,
    index_dir: str | Path | None = None,
    embed: bool = True,
    embedder: str | None = None,
    reembed: bool = False,
    *,
    paths: Sequence[str | Path] | None = None,
    lock_timeout: float | None = DEFAULT_LOCK_TIMEOUT,
) -> IndexReport:
    """Bring a vault's index up to date: only what changed is indexed again, as one commit.

    ``embedder``: a spec (``minilm``, ``ollama``, ``ollama:nomic-embed-text:256``), else
    ``$MEMSEARCH_EMBEDDER``, the vault config, or the embedder the index was built with.
    ``reembed``: embed every chunk again, ignoring the cache. ``paths``: only these files
    (a missing one is removed). ``lock_timeout``: seconds to wait for another writer.
    """
    from memsearch.indexer import index_vault as _index_vault

    home = Path(index_dir) if index_dir else None
    return _index_vault(
        Path(vault),
        settings,
        progress,
        home,
        embed=embed,
        embedder=embedder,
        reembed=reembed,
        paths=paths,
        lock_timeout=lock_timeout,
    )


_log = logging.getLogger("memsearch")


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


def log(vault: str | Path, index_dir: str | Path | None = None, limit: int | None = None) -> list[dict]:
    """The index's commits, newest first: ``{"commit", "time", "subject", "body"}`` each."""
    from memsearch.index.versioning import IndexRepo

    vault = check_vault(Path(vault))
    home = Path(index_dir) if index_dir else store.default_home(vault)
    check_home(home)
    return [c.to_dict() for c in IndexRepo(home).log(limit)]


def rollback(
    vault: str | Path,
    rev: str,
    index_dir: str | Path | None = None,
    lock_timeout: float | None = DEFAULT_LOCK_TIMEOUT,
) -> str | None:
    """Make the index as ``rev`` had it current again, as a new commit; None if it already is."""
    from memsearch.indexer import rollback as _rollback

    return _rollback(Path(vault), rev, Path(index_dir) if index_dir else None, lock_timeout)


def forget(
    vault: str | Path,
    paths: Sequence[str | Path] = (),
    entity: str | None = None,
    *,
    index_dir: str | Path | None = None,
    purge_history: bool = False,
    lock_timeout: float | None = DEFAULT_LOCK_TIMEOUT,
    force: bool = False,
) -> Any:
    """Forget files and/or every chunk naming ``entity`` from every index (one commit); with
    ``purge_history`` from every older commit too. Returns a :class:`~memsearch.forget.ForgetReport`.
    A path naming nothing indexed or in the vault raises unless ``force``."""
    from memsearch.forget import forget as _forget

    return _forget(
        Path(vault),
        list(paths),
        entity,
        index_home=index_dir,
        purge_history=purge_history,
        lock_timeout=lock_timeout,
        force=force,
    )


def _check_territory(territory: str | None) -> None:
    """Refuse a territory outside the vault (``../..``, ``/etc``, ``~/x``): it was read as no filter."""
    if not territory:
        return
    from pathlib import PurePosixPath

    from memsearch.errors import QueryError

    text = str(territory).replace("\\", "/")
    if text.startswith(("/", "~")) or ".." in PurePosixPath(text).parts:
        raise QueryError(
            f"territory {territory!r} is outside the vault: give a folder of the vault such as"
            " 'journal/', or a territory name from memsearch.toml; nothing was searched"
        )


class Memsearch:
    """A loaded index: load once, search many times; ``update_file`` when a memory was written.

    ``at`` (a revision: ``HEAD~2``, a commit id) loads the index as that commit had it, read-only.
    """

    def __init__(
        self,
        vault: str | Path,
        settings: Settings | None = None,
        index_dir: str | Path | None = None,
        at: str | None = None,
        *,
        preload_embedder: bool | EmbedderPreload = False,
    ):
        self.vault = check_vault(Path(vault))
        self.settings = (settings or Settings()).with_vault_config(self.vault)
        self.index_home = Path(index_dir) if index_dir else store.default_home(self.vault)
        self._embedder = None
        self._preload: EmbedderPreload | None = None
        if at is None and isinstance(preload_embedder, EmbedderPreload):
            self._preload = preload_embedder
        elif at is None and preload_embedder:
            # The model's session is built in native code while the index loads here (~0.2 s).
            self._preload = EmbedderPreload(self.index_home, self.vault)
        self.index = store.load(self.index_home, at)
        self.at = at
        self._embedder_down: tuple[float, str] | None = None  # (when, why) the embedder last failed
        # The live index: searches and changes of it take turns on this lock (both are short).
        self._guard = threading.RLock()
        self._live: dict[str, LivePreview] = {}  # files changed in memory, ahead of the repository
        self._next_id = int(self.index.manifest.get("next_id", self.index.n_ids) or 0)
        self._pending: dict[str, None] = {}  # paths whose commit is still to be made, in order
        self._cond = threading.Condition()
        self._busy = False
        self._closing = False
        self._worker: threading.Thread | None = None
        #: The last failure of the background writer (it retries with the next update).
        self.last_error: str | None = None
        #: Reports of the background commits, oldest first (the last 100).
        self.reports: list[IndexReport] = []

    def _take_preloaded(self, fingerprint: str) -> None:
        """Use the preloaded embedder if it is the index's (a reindex may have changed it since)."""
        with self._guard:
            preload, self._preload = self._preload, None
            if preload is not None and self._embedder is None:
                self._embedder = preload.take(fingerprint)

    #: After the embedder failed to answer, searches skip it for this many seconds instead of
    #: each waiting out its timeout again (an agent searching ten times must not wait ten times).
    EMBEDDER_RETRY_SECONDS = 30.0

    def _embed_query(self, text: str, wanted: Sequence[str]) -> QueryEmbedding:
        """The query's vector from the embedder the index was built with, or why there is none.

        Never the vector of another embedder: a fingerprint that differs from the index's is an
        error (semantic search fails, the others answer), never a comparison of two spaces.
        """
        if "semantic" not in wanted:
            return QueryEmbedding(None, skipped="not requested")
        info = self.index.manifest.get("embedder", {})
        if self.index.vectors is None or not info.get("fingerprint"):
            return QueryEmbedding(None)
        now = time.monotonic()
        if self._embedder_down is not None and now - self._embedder_down[0] < self.EMBEDDER_RETRY_SECONDS:
            since, why = self._embedder_down
            return QueryEmbedding(
                None,
                error=f"{why} (skipped for {self.EMBEDDER_RETRY_SECONDS - (now - since):.0f} s more)",
            )
        started = time.perf_counter()
        try:
            if self._preload is not None:
                self._take_preloaded(info["fingerprint"])
            if self._embedder is None:
                from memsearch.embedders import embedder_for

                self._embedder = embedder_for(info.get("spec") or self.settings.embedder, self.vault)
            if self._embedder.fingerprint != info["fingerprint"]:
                return QueryEmbedding(
                    None,
                    error=(
                        f"the index was built with embedder {info.get('spec')} ({info['fingerprint']}),"
                        f" not {self._embedder.fingerprint}; run `memsearch index VAULT`"
                    ),
                )
            vector = self._embedder.embed_query(text)
        except Exception as exc:  # the embedder is a soft seam: the other strategies still answer
            from memsearch.embedding import EmbedderUnavailableError
            from memsearch.errors import EmbedderError

            why = str(exc) if isinstance(exc, EmbedderError) else f"{type(exc).__name__}: {exc}"
            why = f"the embedder did not answer ({why})"
            if isinstance(exc, EmbedderUnavailableError):
                self._embedder_down = (time.monotonic(), why)
            return QueryEmbedding(None, error=why)
        self._embedder_down = None
        vector = np.asarray(vector, dtype=np.float32)
        dim = self.index.vectors.dim
        if vector.shape != (dim,):
            return QueryEmbedding(
                None,
                error=f"the embedder returned a {vector.shape} query vector for a {dim}-dim index;"
                " run `memsearch index VAULT --reembed`",
            )
        return QueryEmbedding(vector, ms=(time.perf_counter() - started) * 1000.0)

    def search(
        self,
        query: str,
        k: int = 10,
        *,
        chunks: bool = False,
        explain: bool = False,
        now: datetime | str | None = None,
        strategies: Sequence[str] | None = None,
        territory: str | None = None,
        fact_type: str | None = None,
        entities: Sequence[str] | str | None = None,
        since: datetime | str | None = None,
        until: datetime | str | None = None,
        all_results: bool = False,
    ) -> SearchResponse:
        """Ranked pointers (path, lines, score, ...) to where the memory lives; never the content.

        Every response carries a signal (``response.signal``: strong, thin or none, with its
        reason); when nothing resonates (none) it has no results unless ``all_results``.
        """
        if isinstance(entities, str):
            entities = [entities]
        if not isinstance(k, int) or k < 1:
            raise MemsearchError(f"k must be a positive whole number (got {k!r})")
        _check_territory(territory)
        filters = Filters(
            territory=territory or None,
            fact_type=fact_type or None,
            entities=tuple(entities or ()),
            since=as_datetime(since, "since"),
            until=as_datetime(until, "until"),
        )
        with self._guard:
            parsed = parse_query(query, self.index.graph, now=now, filters=filters)
        wanted = tuple(strategies) if strategies else STRATEGIES
        embedding = self._embed_query(parsed.text, wanted)
        with self._guard:
            response = search_index(
                self.index,
                parsed,
                self.settings,
                embedding,
                k,
                chunks=chunks,
                explain=explain,
                strategies=wanted,
                all_results=all_results,
            )
            why = None if response.results or filters.is_empty() else self._filter_reason(filters)
        if why:  # say which filter left nothing, not only that nothing matched
            signal = replace(response.signal, reason=why) if response.signal is not None else None
            health = replace(response.health, notes=(*response.health.notes, why))
            response = replace(response, signal=signal, health=health)
        return response

    def _filter_reason(self, filters: Filters) -> str | None:
        """Why the filters alone leave nothing to find (since after until, a territory or an entity
        the index does not have), or None."""
        if filters.since and filters.until and filters.since > filters.until:
            return (
                f"no results: since ({filters.since.isoformat()}) is later than until"
                f" ({filters.until.isoformat()}), so no memory can be in between; swap them"
            )
        if filters.territory:
            prefix = filters.territory.lstrip("./")
            name = prefix.rstrip("/")
            if not any(c.path.startswith(prefix) or c.territory == name for c in self.index.chunks.values()):
                return (
                    f"no results: no indexed file is under territory {filters.territory!r} (give a folder"
                    " of the vault such as 'journal/', or a territory name; `memsearch status` lists them)"
                )
        graph = self.index.graph
        for entity in filters.entities:
            if not graph.known(graph.resolve(entity)):
                return f"no results: no memory names the entity {entity!r}"
        return None

    # -- keeping the index fresh -----------------------------------------------------------------

    @property
    def commit(self) -> str | None:
        """The index commit this engine reflects (plus whatever ``update_file`` holds in memory)."""
        return self.index.commit

    def update_file(self, path: str | Path) -> FileUpdate:
        """``path`` (vault-relative or absolute) was just written, moved away or deleted.

        Keyword, graph and time search see the change when this returns (milliseconds: the file
        is chunked and indexed in memory, nothing waits for a lock or the embedder). In the
        background, the change is committed to the index repository (under its write lock), then
        embedded; its vectors join the live index, and a second commit records them. Call
        :meth:`wait_for_embeddings` to wait for both.
        """
        if self.at is not None:
            raise MemsearchError(f"this index was opened at {self.at}, read-only; open it without `at`")
        started = time.perf_counter()
        rel = self._relative(path)
        update = self._preview(rel, started)
        with self._cond:
            self._pending[rel] = None
            self._cond.notify_all()
        self._start_worker()
        return update

    def forget(
        self,
        paths: Sequence[str | Path] = (),
        entity: str | None = None,
        *,
        purge_history: bool = False,
        lock_timeout: float | None = DEFAULT_LOCK_TIMEOUT,
        force: bool = False,
    ) -> Any:
        """Forget files and/or every chunk naming ``entity`` (see :mod:`memsearch.forget`), then reload.

        Pending ``update_file`` commits are made first; returns a :class:`~memsearch.forget.ForgetReport`.
        """
        from memsearch.forget import forget as _forget

        if self.at is not None:
            raise MemsearchError(f"this index was opened at {self.at}, read-only; open it without `at`")
        self.wait_for_embeddings()
        report = _forget(
            self.vault,
            list(paths),
            entity,
            index_home=self.index_home,
            purge_history=purge_history,
            lock_timeout=lock_timeout,
            force=force,
        )
        self.refresh()
        return report

    def wait_for_embeddings(self, timeout: float | None = None) -> bool:
        """Wait until every ``update_file`` so far is committed with its vectors; False on timeout."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while self._pending or self._busy:
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return False
                self._cond.wait(left if left is not None else 1.0)
        return True

    def refresh(self) -> bool:
        """Load the index's newest commit if another writer made one (changes in memory are kept)."""
        if self.at is not None:
            return False
        head = store.head_commit(self.index_home)
        if head is None or head == self.index.commit:
            return False
        fresh = store.load_commit(self.index_home, head, cache_small=False)
        with self._guard:
            self.index = fresh
            self._next_id = max(self._next_id, int(fresh.manifest.get("next_id", fresh.n_ids) or 0))
            again, self._live = list(self._live), {}
        for rel in again:
            self._preview(rel, time.perf_counter())
        return True

    def close(self, timeout: float | None = None) -> None:
        """Finish the background commits (waiting up to ``timeout``) and stop the writer thread."""
        self.wait_for_embeddings(timeout)
        with self._cond:
            self._closing = True
            self._cond.notify_all()
        if self._worker is not None:
            self._worker.join(timeout)
        if self.index.commit and not self._live:
            with self._guard, _suppress():
                store.save_snapshot(self.index_home, self.index)

    def __enter__(self) -> Memsearch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _relative(self, path: str | Path) -> str:
        p = Path(path).expanduser()
        if p.is_absolute():
            try:
                p = p.relative_to(self.vault) if not p.exists() else p.resolve().relative_to(self.vault)
            except ValueError as exc:
                raise MemsearchError(
                    f"{path} is not inside the vault {self.vault}; nothing to index"
                ) from exc
        rel = p.as_posix()
        from memsearch.indexer import _indexable

        if not _indexable(self.vault, rel):
            raise MemsearchError(
                f"{rel} is not a memory memsearch indexes (a .md file outside hidden folders of the vault)"
            )
        return rel

    def _allocate(self, n: int) -> int:
        with self._guard:
            start = self._next_id
            self._next_id += n
            return start

    def _preview(self, rel: str, started: float) -> FileUpdate:
        """Index ``rel`` in memory at once (keyword, graph, time), ahead of the repository."""
        from memsearch.chunkers import chunk_file
        from memsearch.forget import FORGOTTEN_REASON, load_forget_list
        from memsearch.indexer import LivePreview, _fallback, _stamp
        from memsearch.scan import Skipped, git_commit_times, read_file

        full = self.vault / rel
        got = read_file(self.vault, full) if (full.is_file() or full.is_symlink()) else None
        forgotten = load_forget_list(self.index_home, self.vault)
        if got is not None and forgotten.has_path(rel):
            got = Skipped(rel, FORGOTTEN_REASON)  # `memsearch forget`: never indexed again
        parsed = chunks = None
        reason = None
        if got is None:
            reason = "the file is gone"
        elif isinstance(got, Skipped):
            reason = got.reason
        else:
            try:
                parsed = chunk_file(rel, got.text, self.settings)
                times = (
                    git_commit_times(self.vault, [rel]) if not all(c.timestamp for c in parsed.chunks) else {}
                )
                chunks, _ = _stamp(parsed.chunks, _fallback(got, times))
                if forgotten.entities:
                    chunks = [c for c in chunks if not forgotten.names_entity(c.entities)]
            except Exception as exc:  # one file must never break the caller
                reason = f"could not be chunked ({type(exc).__name__}: {exc})"
        shape = store.shape_of(self.index.manifest)
        shape = replace(self.settings, **{k: getattr(shape, k) for k in store.SHAPE_FIELDS})
        with self._guard:
            files = self.index.manifest.get("files", {})
            committed = files.get(rel)
            preview = self._live.get(rel)
            if chunks is not None and preview is None and committed and committed["sha256"] == got.sha256:
                return FileUpdate(rel, "unchanged", len(committed["chunks"]), _ms(started))
            # The alias map depends on each file's aliases only: the graph is rebuilt when these change.
            had_aliases = dict(preview.aliases if preview else (committed or {}).get("aliases", {}))
            old_ids = preview.ids if preview is not None else (committed or {}).get("chunks", [])
            store.remove_chunks(self.index, old_ids)
            if chunks is None:
                self._live[rel] = LivePreview("", [], [], {})
                action = "removed" if committed or preview else "skipped"
                n = 0
            else:
                ids = list(range(self._next_id, self._next_id + len(chunks)))
                self._next_id += len(chunks)
                store.add_file_chunks(self.index, ids, chunks, shape)
                self._live[rel] = LivePreview(got.sha256, ids, chunks, dict(parsed.aliases))
                action = "changed" if committed else "added"
                n = len(chunks)
            if had_aliases != (dict(parsed.aliases) if chunks is not None else {}):
                self._rebuild_graph_live()
        return FileUpdate(rel, action, n, _ms(started), reason)

    def _rebuild_graph_live(self) -> None:
        files = {p: dict(e) for p, e in self.index.manifest.get("files", {}).items()}
        for rel, preview in self._live.items():
            if preview.aliases:
                files[rel] = {**files.get(rel, {}), "aliases": preview.aliases}
            elif rel in files:
                files[rel] = {k: v for k, v in files[rel].items() if k != "aliases"}
        store.rebuild_graph(self.index, files)

    def _start_worker(self) -> None:
        with self._cond:
            if self._worker is None or not self._worker.is_alive():
                self._closing = False
                self._worker = threading.Thread(target=self._work, name="memsearch-update", daemon=True)
                self._worker.start()

    def _work(self) -> None:
        while True:
            with self._cond:
                while not self._pending and not self._closing:
                    self._cond.wait()
                if not self._pending:
                    return
                batch = list(self._pending)
                self._pending.clear()
                self._busy = True
            try:
                self._persist(batch)
                self.last_error = None
            except Exception as exc:  # the next update or reindex redoes it from the vault
                self.last_error = f"{type(exc).__name__}: {exc}"
                _log.warning("memsearch: committing %s failed (%s); a reindex catches up", batch, exc)
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()

    def _persist(self, batch: list[str]) -> None:
        """Commit the batch (vectors from the cache only), embed what is missing, commit the vectors."""
        from memsearch.indexer import Update, open_for_write
        from memsearch.lock import index_lock

        for phase in ("commit", "vectors"):
            with self._lock_while_open(index_lock):
                self._refresh_locked()
                base = open_for_write(self.index_home, live=self.index)
                with self._guard:
                    live = {p: self._live[p] for p in batch if p in self._live}
                run = Update(
                    self.vault,
                    self.settings,
                    self.index_home,
                    base,
                    guard=self._guard,
                    live=live,
                    allocate=self._allocate,
                    snapshot=False,
                )
                report = run.apply(
                    batch,
                    embed=False,
                    pending_note="embedding in progress (update_file); the vectors follow in a moment",
                )
                with self._guard:
                    self.index = run.data
                    self._next_id = max(self._next_id, int(run.data.manifest.get("next_id", 0) or 0))
                    for rel, preview in live.items():
                        if self._live.get(rel) is preview:
                            del self._live[rel]
                self._record(report)
            if phase == "vectors" or not report.gaps:
                break
            self._embed_gaps(batch)
        from memsearch.signals import after_index

        after_index(self.vault, self.index_home, self.settings, dict(self.index.chunks))

    def _lock_while_open(self, index_lock: Any) -> Any:
        return index_lock(self.index_home, timeout=None, what="memsearch update_file")

    def _refresh_locked(self) -> None:
        """Another writer committed since this engine loaded: load its commit, redo the previews."""
        head = store.head_commit(self.index_home)
        if head is not None and head != self.index.commit:
            self.refresh()

    def _embed_gaps(self, batch: list[str]) -> None:
        """Embed the batch's gap chunks into the embedding cache (no lock held: it may take long)."""
        from memsearch.indexer import _embed_texts, embed_text

        with self._guard:
            manifest = self.index.manifest
            shape = store.shape_of(manifest)
            texts = []
            for rel in batch:
                entry = manifest.get("files", {}).get(rel)
                if not entry or not entry.get("gaps"):
                    continue
                chunks = [self.index.chunks[cid] for cid in entry["chunks"] if cid in self.index.chunks]
                if len(chunks) != len(entry["chunks"]):
                    continue
                gaps = set(entry["gaps"])
                texts += [
                    embed_text(chunks, i, shape) for i, cid in enumerate(entry["chunks"]) if cid in gaps
                ]
        if texts:
            _embed_texts(
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

    def status(self) -> dict[str, Any]:
        manifest = self.index.manifest
        size = _folder_bytes(self.index_home / "repo")
        mode = oct(os.stat(self.index_home).st_mode & 0o777)
        return {
            "vault": str(self.vault),
            "index": str(self.index_home),
            "index_mode": mode,
            "built_at": manifest.get("built_at"),
            "files": len(manifest.get("files", {})),
            "chunks": len(self.index.chunks),
            "vectors": len(self.index.vectors) if self.index.vectors is not None else 0,
            "gaps": len(manifest.get("gaps", [])),
            "embedder": manifest.get("embedder"),
            "embedder_error": manifest.get("embedder_error"),
            "skipped": manifest.get("skipped", {}),
            "index_bytes": size,
            "commit": self.index.commit,
        }


def open_index(
    vault: str | Path,
    settings: Settings | None = None,
    index_dir: str | Path | None = None,
    at: str | None = None,
    *,
    preload_embedder: bool | EmbedderPreload = False,
) -> Memsearch:
    """The vault's index, loaded; ``at`` (a revision: ``HEAD~2``, a commit id) loads it as it was then.

    ``preload_embedder``: load the query embedder in the background meanwhile (for a process
    that will search semantically at once, such as the CLI), or an :class:`EmbedderPreload`
    already started.
    """
    return Memsearch(vault, settings, index_dir, at, preload_embedder=preload_embedder)


def search(vault: str | Path, query: str, k: int = 10, **options: Any) -> SearchResponse:
    """One-shot search (loads the index each call; keep a ``Memsearch`` to search often)."""
    return open_index(vault).search(query, k, **options)


def _folder_bytes(folder: Path) -> int:
    total = 0
    for root, _dirs, files in os.walk(folder):
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_size
            except OSError:
                continue
    return total


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000.0


def _suppress() -> Any:
    import contextlib

    return contextlib.suppress(OSError, MemsearchError)


# -- the other verbs of the CLI, for every caller ----------------------------------------------------
#
# What writes imports the indexer, the forget machinery or the watcher when it runs, not with this
# module: a cold local search imports memsearch.api, and those cost it ~48 ms (indexer), ~46 ms
# (watch, with the indexer), ~21 ms (forget) and ~14 ms (signals) more (medians of `python -X
# importtime -c "import memsearch.api; import memsearch.X"`). Every import below the first line of a
# function here is one of those.


def reindex(
    vault: str | Path,
    index_dir: str | Path | None = None,
    *,
    embed: bool = True,
    lock_timeout: float | None = DEFAULT_LOCK_TIMEOUT,
    settings: Settings | None = None,
) -> IndexReport:
    """The cron job: bring the index up to date (incremental, idempotent; fills embedding gaps).

    As :func:`index_vault` with the embedder the index has; the commit names ``memsearch reindex``.
    ``lock_timeout``: seconds to wait for another writer (0: give up at once, LockBusyError).
    """
    from memsearch.indexer import index_vault as run_index  # measured start-up cost (see above)

    return run_index(
        Path(vault),
        settings,
        index_home=Path(index_dir) if index_dir else None,
        embed=embed,
        lock_timeout=lock_timeout,
        what="memsearch reindex",
    )


def watch(
    vault: str | Path,
    index_dir: str | Path | None = None,
    *,
    settings: Settings | None = None,
    embed: bool = True,
    interval: float | None = None,
    debounce: float | None = None,
    on_report: Callable[[IndexReport], None] | None = None,
    on_error: Callable[[Exception], None] | None = None,
    ready: Callable[[Watcher], None] | None = None,
    max_seconds: float | None = None,
) -> Watcher:
    """Follow the vault's changes and keep its index current (debounced batches, one commit each)
    until SIGINT/SIGTERM, the watcher's ``stop()``, or ``max_seconds``; returns the watcher.

    ``ready(watcher)`` is called before it catches up with what changed while it was not running;
    ``on_report`` gets each batch's report, ``on_error`` each failed batch's error (it goes on).
    ``interval``/``debounce`` default to :data:`memsearch.watch.POLL_INTERVAL`/``DEBOUNCE_SECONDS``.
    """
    from memsearch import watch as watching  # measured start-up cost (see above)

    timing = {"interval": interval, "debounce": debounce}
    watcher = watching.Watcher(
        vault,
        settings,
        index_dir,
        embed=embed,
        on_report=on_report,
        on_error=on_error,
        **{name: value for name, value in timing.items() if value is not None},
    )
    if ready is not None:
        ready(watcher)
    watcher.run(max_seconds=max_seconds)
    return watcher


def status(vault: str | Path, index_dir: str | Path | None = None) -> dict[str, Any]:
    """Where the index lives, what it holds, what was skipped, and who can read it (``access``)."""
    info = open_index(vault, index_dir=index_dir).status()
    info["access"] = privacy.access(Path(info["index"]))
    return info


def forgotten(vault: str | Path, index_dir: str | Path | None = None) -> tuple[list[Forgotten], int]:
    """What is forgotten: the paths (by name where one can be given, never by content) and how
    many entity names and aliases (kept by hash only)."""
    from memsearch.forget import list_forgotten  # measured start-up cost (see above)

    return list_forgotten(vault, index_dir)


def unforget(
    vault: str | Path,
    paths: Sequence[str | Path],
    *,
    index_dir: str | Path | None = None,
    force: bool = False,
    lock_timeout: float | None = DEFAULT_LOCK_TIMEOUT,
) -> list[str]:
    """Undo :func:`forget` for ``paths``: the next index run indexes them again; returns them.

    A path forgotten with ``purge_history`` is refused unless ``force`` (its history stays gone)."""
    from memsearch.forget import unforget as run_unforget  # measured start-up cost (see above)

    return run_unforget(vault, list(paths), index_home=index_dir, force=force, lock_timeout=lock_timeout)


def open_memory(
    vault: str | Path,
    ref: str,
    start_line: int | None = None,
    end_line: int | None = None,
    *,
    manifest: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The lines ``ref`` names (``PATH``, ``PATH:LINE``, ``PATH:START-END``), bounded, as the agent's
    ``memory_open`` answers: ``ok``, ``text``, ``next``, ``warnings``...; a refusal is an answer with
    ``ok`` false, ``code`` and ``error``. Never raises. See :mod:`memsearch.opening`."""
    return opening.open_memory(vault, ref, start_line, end_line, manifest=manifest)


def interests(
    vault: str | Path, index_dir: str | Path | None = None, *, check: bool = False
) -> dict[str, Any]:
    """The vault's standing interests, where their signals go and what the last index run fired;
    ``check``: also each interest's best memories in the whole vault now (to tune thresholds)."""
    from memsearch.signals import describe  # measured start-up cost (see above)

    return describe(vault, index_dir, check=check)


def doctor(
    vault: str | Path, index_dir: str | Path | None = None, embedder: str | None = None
) -> dict[str, Any]:
    """Check the embedders: does Ollama answer, is the model pulled, which embedder built the index,
    and does the one a reindex would use (or ``embedder``) match it; ``ok`` false when something
    needs doing (``problems`` says what)."""
    return embedders_doctor.diagnose(Path(vault), Path(index_dir) if index_dir else None, embedder)


def refreshed(engine: Memsearch, settings: Settings | None = None) -> Memsearch:
    """``engine`` with its index's newest commit, for a caller that keeps one engine open.

    A new commit is loaded into the engine (:meth:`Memsearch.refresh`: the embedder and what else is
    loaded are kept) and the vault's ``memsearch.toml`` read again, as opening it would; a commit made
    with another embedder opens the index anew. Nothing changed (or no index right now, while a
    rebuild swaps it in): ``engine`` as it was.
    """
    before = (engine.index.manifest.get("embedder") or {}).get("fingerprint")
    if not engine.refresh():
        return engine
    if (engine.index.manifest.get("embedder") or {}).get("fingerprint") != before:
        return open_index(engine.vault, settings, engine.index_home)
    engine.settings = (settings or Settings()).with_vault_config(engine.vault)
    return engine


def search_warm(
    vault: str | Path, query: str, k: int = 10, *, index_dir: str | Path | None = None, **options: Any
) -> dict[str, Any]:
    """One search through the vault's running ``memsearch serve`` if it answers (the same answer,
    without loading the index here), else through the index loaded here: the
    :class:`~memsearch.models.SearchResponse` as ``to_dict()`` gives it, either way.

    ``options``: those of :meth:`Memsearch.search`, as JSON values (times as ISO strings).
    """
    search = WarmSearch(warm_client(vault, index_dir), lambda: open_index(vault, index_dir=index_dir))
    try:
        return search(query, k, options)
    finally:
        search.close()
