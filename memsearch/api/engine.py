"""The engine: an index loaded once and searched many times; ``update_file`` when a memory was written.

>>> from memsearch.api import open_index
>>> engine = open_index("~/vault")
>>> engine.search("signing keys", k=5).to_dict()
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

import numpy as np

from memsearch.config import Settings
from memsearch.embedders.base import Embedder, EmbedderUnavailableError
from memsearch.embedders.choice import embedder_for
from memsearch.errors import EmbedderError, MemsearchError, QueryError
from memsearch.index import loading, snapshots
from memsearch.index.backend import read_backend
from memsearch.lock import DEFAULT_LOCK_TIMEOUT
from memsearch.models import FACT_TYPES, SearchResponse
from memsearch.paths import default_home
from memsearch.preload import EmbedderPreload
from memsearch.query import (
    Filters,
    ParsedQuery,
    as_datetime,
    as_until,
    on_vault_clock,
    parse_query,
    query_now,
)
from memsearch.retrieval import Retrieval, open_retrieval
from memsearch.scan import check_vault
from memsearch.search import STRATEGIES, QueryEmbedding, dated_span, search_index
from memsearch.sidecars import MODALITY_NAME, query_vector

# The write side (the indexer, signals, forget: chunkers, YAML, ...) is imported by the methods that
# write, on first use: a process that only searches never pays for it (~80 ms measured on 2 cores:
# `python -X importtime -c "import memsearch.indexer, memsearch.signals, memsearch.forget"` after
# the search side). Every import inside a function below is one of those.
if TYPE_CHECKING:
    from memsearch.index.in_memory import IndexData
    from memsearch.indexer import IndexReport
from memsearch.api.writes import FileUpdate, Writes


def _check_types(query: Any, territory: Any, fact_type: Any, strategies: Any, entities: Any) -> None:
    """Arguments of another type than text (a list of texts for ``strategies`` and ``entities``)
    are refused, named: ``territory=5`` raised AttributeError, ``search(5)`` said "the query is
    empty"."""
    for name, value in (("query", query), ("territory", territory), ("fact_type", fact_type)):
        if value is not None and not isinstance(value, str):
            raise QueryError(f"{name} must be text, got {type(value).__name__} {value!r}")
    for name, value in (("strategies", strategies), ("entities", entities)):
        if value is None or isinstance(value, str):
            continue
        if not isinstance(value, Iterable) or isinstance(value, Mapping | bytes):
            raise QueryError(f"{name} must be a list of names, got {value!r}")
        if not all(isinstance(item, str) for item in value):
            raise QueryError(f"{name} must be a list of names, got {value!r}")


def _names(value: Iterable[str] | str | None) -> list[str] | None:
    """One name (text, not its letters) or a collection of names as a list; a set in sorted order."""
    if value is None or isinstance(value, str):
        return None if value is None else [value]
    return sorted(value) if isinstance(value, set | frozenset) else list(value)


def search_filters(
    territory: str | None = None,
    fact_type: str | None = None,
    entities: Sequence[str] | None = None,
    since: datetime | str | None = None,
    until: datetime | str | None = None,
) -> Filters:
    """A search's filters, each checked (a QueryError naming it): what ``Memsearch.search`` filters
    by, and what a batch's command line is checked against before its first line."""
    _check_territory(territory)
    if any(isinstance(name, str) and not name.strip() for name in entities or ()):
        # it filtered for chunks naming "", which none does: no results, and no word of why
        raise QueryError(
            "an entity filter with no name names nothing: give a name (--entity 'Ed Kowalski'),"
            " or leave the filter out"
        )
    if fact_type and fact_type not in FACT_TYPES:
        raise QueryError(f"fact_type {fact_type!r} must be world or experience")
    return Filters(
        territory=territory or None,
        fact_type=fact_type or None,
        entities=tuple(entities or ()),
        since=on_vault_clock(as_datetime(since, "since")),
        until=on_vault_clock(as_until(until)),
    )


def _check_territory(territory: str | None) -> None:
    """Refuse a territory outside the vault (``../..``, ``/etc``, ``~/x``): it was read as no filter."""
    if not territory:
        return
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
        self.index_home = Path(index_dir) if index_dir else default_home(self.vault)
        self._embedder: Embedder | None = None
        self._preload: EmbedderPreload | None = None
        if at is None and isinstance(preload_embedder, EmbedderPreload):
            self._preload = preload_embedder
        elif at is None and preload_embedder:
            # The model's session is built in native code while the index loads here (~0.2 s).
            self._preload = EmbedderPreload(self.index_home, self.vault)
        self.index = loading.load(self.index_home, at)
        self.at = at
        #: The keyword and vector backend recorded in the index (None: the built-in indexes); a
        #: past revision is searched in the built-in indexes, which hold it as it was.
        self.retrieval = open_retrieval(self.index_home) if at is None else None
        self._backend_holds: str | None = None  # the commit the backend was last seen to hold
        self._embedder_down: tuple[float, str] | None = None  # (when, why) the embedder last failed
        #: What update_file changed ahead of the repository, and the thread that commits it.
        self.writes = Writes(self)

    @property
    def last_error(self) -> str | None:
        """The last failure of the background writer (it retries with the next update)."""
        return self.writes.last_error

    @property
    def reports(self) -> list[IndexReport]:
        """Reports of the background commits, oldest first (the last 100)."""
        return self.writes.reports

    def _take_preloaded(self, fingerprint: str) -> None:
        """Use the preloaded embedder if it is the index's (a reindex may have changed it since)."""
        with self.writes.guard:
            preload, self._preload = self._preload, None
            if preload is not None and self._embedder is None:
                self._embedder = preload.take(fingerprint)

    #: After the embedder failed to answer, searches skip it for this many seconds instead of
    #: each waiting out its timeout again (an agent searching ten times must not wait ten times).
    EMBEDDER_RETRY_SECONDS = 30.0

    def query_vector(self, text: str) -> tuple[np.ndarray | None, str | None]:
        """The query's vector from the index's embedder, or None and why there is none."""
        got = self._embed_query(text, ("semantic",))
        return got.vector, None if got.vector is not None else (got.error or got.skipped or "no query vector")

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

    def query_vectors(self, vectors: Mapping[str, Any] | None) -> dict[str, np.ndarray]:
        """A query's vectors (``{modality: numbers}``) checked against the index's modalities and
        scaled to length 1; QueryError naming the modality (and both dimensions) otherwise."""
        if not vectors:
            return {}
        if not isinstance(vectors, Mapping):
            raise QueryError("vectors must be a mapping of modality name to a list of numbers")
        with self.writes.guard:
            dims = {m: index.dim for m, index in self.index.modal.items()}
        out: dict[str, np.ndarray] = {}
        for modality, values in vectors.items():
            if not isinstance(modality, str) or not MODALITY_NAME.fullmatch(modality):
                raise QueryError(
                    f"{modality!r} is not a modality name (lower-case letters, digits and _; e.g. audio)"
                )
            got = query_vector(modality, values, dims.get(modality))
            if isinstance(got, str):
                if modality not in dims:
                    size = np.size(values) if isinstance(values, list | tuple | np.ndarray) else "?"
                    held = ", ".join(f"{m} ({d} values)" for m, d in sorted(dims.items())) or "none"
                    got = (
                        f"{got} (the query's {modality} vector has {size} values;"
                        f" the index's modalities: {held})"
                    )
                raise QueryError(got + "; nothing was searched")
            out[modality] = got
        return out

    def search(
        self,
        query: str | None = None,
        k: int = 10,
        *,
        text: str | None = None,
        vectors: Mapping[str, Any] | None = None,
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

        ``text`` is the query under another name (``search(text=..., vectors=...)``); ``vectors``
        (``{"audio": [...], "image": [...]}``) finds notebook moments by their sidecar vectors,
        each modality one more ranked list beside the text strategies, or alone when no text is
        given. A modality the index has no vector of, or a vector of another dimension, is a
        QueryError naming it.
        """
        if query is not None and text is not None:
            raise QueryError("give the query once: as `query` or as `text`, not both")
        query = text if query is None else query
        _check_types(query, territory, fact_type, strategies, entities)
        entities = _names(entities)
        strategies = None if strategies == "" else _names(strategies)  # "" is all of them, as None is
        if not isinstance(k, int) or isinstance(k, bool) or k < 1:
            raise QueryError(f"k must be a positive whole number (got {k!r})")
        filters = search_filters(territory, fact_type, entities, since, until)
        checked = self.query_vectors(vectors)
        if checked and (query is None or not str(query).strip()):
            # Vectors alone: no words to parse (the filters, checked above, still apply).
            parsed = ParsedQuery("", "", query_now(now), None, (), filters)
        else:
            with self.writes.guard:
                parsed = parse_query(query or "", self.index.graph, now=now, filters=filters)
        wanted = tuple(strategies) if strategies else STRATEGIES
        embedding = self._embed_query(parsed.text, wanted) if parsed.text else QueryEmbedding(None)
        with self.writes.guard:
            retrieval, behind = self._current_backend()
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
                retrieval=retrieval,
                vectors=checked,
            )
            why = None if response.results or filters.is_empty() else self._filter_reason(filters)
        if behind:
            health = replace(
                response.health,
                notes=(*response.health.notes, behind),
                fallbacks=(*response.health.fallbacks, behind),
                degraded=True,
            )
            response = replace(response, health=health)
        if why:  # say which filter left nothing, not only that nothing matched
            signal = replace(response.signal, reason=why) if response.signal is not None else None
            health = replace(response.health, notes=(*response.health.notes, why))
            response = replace(response, signal=signal, health=health)
        if gone := self._gone(response):
            health = replace(response.health, notes=(*response.health.notes, gone))
            response = replace(response, health=health)
        return response

    def _gone(self, response: SearchResponse) -> str | None:
        """A note naming the results whose file is no longer in the vault (deleted or moved since
        the index was built, and not reported): the agent would open a path that is not there."""
        if self.at is not None:  # an earlier state of the vault, asked for as such
            return None
        missing = list(
            dict.fromkeys(r.path for r in response.results if not os.path.lexists(self.vault / r.path))
        )
        if not missing:
            return None
        return (
            f"{', '.join(missing)}: no longer in the vault (deleted or moved since the index was built);"
            " `update_file` of the path, or the next `memsearch index`, drops it"
        )

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
        span = dated_span(self.index, filters) if filters.since or filters.until else None
        if span is not None and not span[2]:
            window = " and ".join(
                f"{word} {when.isoformat()}"
                for word, when in (("from", filters.since), ("until", filters.until))
                if when is not None
            )
            return (
                f"no results: no memory is dated {window} (the vault's memories run from"
                f" {span[0].date().isoformat()} to {span[1].date().isoformat()})"
            )
        graph = self.index.graph
        for entity in filters.entities:
            if not graph.known(graph.resolve(entity)):
                return f"no results: no memory names the entity {entity!r}"
        return None

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
        rel = self.writes.relative(path)
        update = self.writes.preview(rel, started)
        self.writes.enqueue(rel)
        return update

    def add_vectors(self, moment_id: str, modality: str, vector: Any) -> FileUpdate:
        """Give the notebook moment ``moment_id`` a ``modality`` vector: it is saved beside the
        moment's YAML as ``<moment_id>.<modality>.npy`` (the vault stays the source of truth), then
        the moment is indexed again as :meth:`update_file` does. MemsearchError when no indexed
        moment has that id, the modality is not a name the vault reads, or the vector fails the
        sidecar checks (or has another dimension than the index's vectors of that modality)."""
        if self.at is not None:
            raise MemsearchError(f"this index was opened at {self.at}, read-only; open it without `at`")
        from memsearch.indexer.sidecar_writes import write_sidecar  # the write side: see above

        with self.writes.guard:
            dims = {m: index.dim for m, index in self.index.modal.items()}
            chunks = list(self.index.chunks.values())
        rel = write_sidecar(self.vault, chunks, moment_id, modality, vector, self.settings.modalities, dims)
        return self.update_file(rel)

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
        from memsearch.forget import forget as _forget  # the write side: see memsearch.api.writes

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
        return self.writes.wait(timeout)

    def refresh(self, force: bool = False) -> bool:
        """Load the index's newest commit if another writer made one (changes in memory are kept);
        ``force``: load it even if this engine holds it (a failed background commit may have left
        the engine's index half changed)."""
        if self.at is not None:
            return False
        head = loading.head_commit(self.index_home)
        if head is None or (head == self.index.commit and not force):
            return False
        if force:  # the writer thread's own call (or a caller's that knows it is idle)
            return self._load(head)
        with self.writes.between_commits() as idle:
            # A commit this engine's writer is making: it sets the index itself when made.
            return idle and self._load(head)

    def _load(self, head: str) -> bool:
        fresh = loading.load_commit(self.index_home, head, cache_small=False)
        with self.writes.guard:
            self.index = fresh
            held = int(fresh.manifest.get("next_id", fresh.n_ids) or 0)
            self.writes.next_id = max(self.writes.next_id, held)
            again, self.writes.previews = list(self.writes.previews), {}
        for rel in again:
            self.writes.preview(rel, time.perf_counter())
        return True

    def close(self, timeout: float | None = None) -> None:
        """Finish the background commits (waiting up to ``timeout``) and stop the writer thread."""
        self.writes.stop(timeout)
        if self.index.commit and not self.writes.previews and _holds_its_commit(self.index):
            with self.writes.guard, _suppress():
                snapshots.save_snapshot(self.index_home, self.index)

    def __enter__(self) -> Memsearch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

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
            "modalities": {m: {"dim": i.dim, "vectors": len(i)} for m, i in sorted(self.index.modal.items())},
            "gaps": len(manifest.get("gaps", [])),
            "embedder": manifest.get("embedder"),
            "embedder_error": manifest.get("embedder_error"),
            "skipped": manifest.get("skipped", {}),
            "index_bytes": size,
            "commit": self.index.commit,
            "backend": self._backend_status(),
        }

    def _current_backend(self) -> tuple[Retrieval | None, str | None]:
        """The backend to ask, else None (the built-in indexes) and why: one whose collection does
        not hold this engine's commit (its push is pending, or a write ran since) answered from an
        older state, or nothing at all for a vault it had not been given yet."""
        if self.retrieval is None:
            return None, None
        if self._backend_holds == self.index.commit:  # nothing to read again until the index moves
            return self.retrieval, None
        try:
            spec = read_backend(self.index_home)
        except MemsearchError as exc:
            return None, f"{exc}; the built-in indexes answered"
        if spec is None:
            return None, None
        if (why := spec.behind(self.index.commit)) is not None:
            return None, (
                f"{spec.uri} is behind the index ({why}); the built-in indexes answered, and the next"
                " index run brings it up to date"
            )
        self._backend_holds = self.index.commit
        return self.retrieval, None

    def _backend_status(self) -> dict[str, Any]:
        """Where keyword and vector search run, and whether its collection is behind the index."""
        spec = getattr(self.retrieval, "spec", None)
        if spec is None:
            return {"name": "builtin"}
        try:
            recorded = read_backend(self.index_home)
            why = recorded.behind(self.index.commit) if recorded is not None else None
        except MemsearchError as exc:
            why = str(exc)
        return {
            "name": "milvus",
            "uri": spec.uri,
            "collection": spec.collection_name,
            "vault_id": spec.vault_id,
            "pending": why,
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


def _suppress() -> Any:
    import contextlib

    return contextlib.suppress(OSError, MemsearchError)


def _holds_its_commit(index: IndexData) -> bool:
    """Whether a live index holds exactly the chunks its commit lists: the snapshot saved from it
    is what every later load reads, so one that drifted (a race in its updates) is not saved."""
    listed = {cid for entry in index.manifest.get("files", {}).values() for cid in entry.get("chunks", ())}
    return listed == set(index.chunks)
