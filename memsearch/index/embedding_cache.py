"""A persistent cache of embedding vectors, so unchanged text is never embedded twice.

Entries are keyed by ``(embedder fingerprint, sha256 of the exact text handed to the
embedder)``: a vector is reused only for byte-identical text under an embedder whose
fingerprint (model, prefixes, pooling, truncation...) is the same. Everything lives in
one SQLite file (WAL mode, one writer at a time, readers never blocked), readable only
by its owner. It is only a cache: deleting the file costs re-embedding, nothing else.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

import numpy as np

from memsearch.embedders.base import EmbedderUnavailableError
from memsearch.errors import EmbedderError, IndexCorruptError, MemsearchError
from memsearch.paths import private_dir

if TYPE_CHECKING:  # pragma: no cover
    from memsearch.embedders.base import Embedder

SCHEMA_VERSION = 1
#: Keys per ``IN (...)`` query: well under SQLite's smallest variable limit (999).
_QUERY_CHUNK = 500
#: Texts embedded (and committed to the cache) per embedder call in :func:`embed_with_cache`,
#: so an interrupted build keeps what it has already paid for.
EMBED_CHUNK = 256

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS vectors (
    fingerprint TEXT NOT NULL,
    key TEXT NOT NULL,
    dim INTEGER NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (fingerprint, key)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS origins (
    key TEXT NOT NULL,
    origin TEXT NOT NULL,
    PRIMARY KEY (key, origin)
) WITHOUT ROWID;
"""
#: Which file each text was embedded for, by a hash of its path (``memsearch.forget.path_hash``,
#: never the path): a forget deletes the vectors of every text ever embedded for that file, also
#: those no commit holds (an index run killed after embedding, the file rewritten since). Added
#: without a schema version change: a cache of before simply has no origins for its old rows.
ORIGINS_TABLE = "origins"


def text_key(text: str) -> str:
    """The cache key of a text: sha256 hex of its UTF-8 bytes."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class EmbeddingCache:
    """Vectors by ``(fingerprint, key)`` in one SQLite file at ``path``.

    The parent folder is created with mode 0o700 if missing, the file is 0o600.
    Vectors are stored as little-endian float32 bytes with their dimension and come
    back as float32 ``(dim,)`` arrays. One connection, serialised by a lock, so an
    instance may be shared between threads; other processes may read concurrently.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        parent = self.path.parent
        if not parent.exists():
            private_dir(parent)
        if not self.path.exists():
            os.close(os.open(self.path, os.O_CREAT | os.O_RDWR, 0o600))
        self.path.chmod(0o600)
        self._conn: sqlite3.Connection | None = None
        try:
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=30)
            self._conn = conn
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.executescript(_SCHEMA)
            row = conn.execute("SELECT value FROM meta WHERE name = 'schema_version'").fetchone()
            if row is None:
                conn.execute(
                    "INSERT INTO meta (name, value) VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),)
                )
            elif row[0] != str(SCHEMA_VERSION):
                raise IndexCorruptError(
                    f"embedding cache {self.path} has schema version {row[0]}, this memsearch expects "
                    f"{SCHEMA_VERSION}; delete the file (it is only a cache, rebuilt on the next index)"
                )
        except sqlite3.DatabaseError as exc:
            self.close()
            raise self._corrupt(exc) from exc
        except BaseException:
            self.close()
            raise

    def _corrupt(self, exc: Exception) -> IndexCorruptError:
        return IndexCorruptError(
            f"embedding cache {self.path} cannot be read ({exc}); delete the file "
            "(it is only a cache, rebuilt on the next index)"
        )

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            raise ValueError(f"embedding cache {self.path} is closed")
        return self._conn

    # -- reading -----------------------------------------------------------------------------------

    def get_many(self, fingerprint: str, keys: Sequence[str]) -> dict[str, np.ndarray]:
        """The cached vectors of those ``keys`` that are present (missing keys are absent)."""
        if isinstance(keys, str):
            raise TypeError("get_many takes a sequence of keys, not one str")
        wanted = list(dict.fromkeys(keys))
        found: dict[str, np.ndarray] = {}
        with self._lock:
            conn = self._connection()
            try:
                for start in range(0, len(wanted), _QUERY_CHUNK):
                    part = wanted[start : start + _QUERY_CHUNK]
                    marks = ",".join("?" * len(part))
                    rows = conn.execute(
                        f"SELECT key, dim, vector FROM vectors WHERE fingerprint = ? AND key IN ({marks})",
                        (fingerprint, *part),
                    )
                    for key, dim, blob in rows:
                        if dim > 0 and len(blob) == 4 * dim:  # a torn entry is a miss, not a crash
                            found[key] = np.frombuffer(blob, dtype="<f4").astype(np.float32)
            except sqlite3.DatabaseError as exc:
                raise self._corrupt(exc) from exc
        return found

    def __len__(self) -> int:
        with self._lock:
            conn = self._connection()
            try:
                return int(conn.execute("SELECT COUNT(*) FROM vectors").fetchone()[0])
            except sqlite3.DatabaseError as exc:
                raise self._corrupt(exc) from exc

    def count(self, fingerprint: str) -> int:
        """Entries stored under one fingerprint."""
        with self._lock:
            conn = self._connection()
            try:
                row = conn.execute("SELECT COUNT(*) FROM vectors WHERE fingerprint = ?", (fingerprint,))
                return int(row.fetchone()[0])
            except sqlite3.DatabaseError as exc:
                raise self._corrupt(exc) from exc

    # -- writing -----------------------------------------------------------------------------------

    def put_many(
        self,
        fingerprint: str,
        items: Mapping[str, np.ndarray],
        origins: Mapping[str, Sequence[str]] | None = None,
    ) -> None:
        """Store (or replace) vectors, all in one transaction.

        Each vector must be 1-D, non-empty and finite; all must have the same length.
        ``origins``: key -> the path hashes of the files the text was embedded for.
        """
        if not fingerprint:
            raise ValueError("put_many needs a non-empty fingerprint")
        rows = []
        dims = set()
        for key, vector in items.items():
            array = np.asarray(vector)
            if array.ndim != 1 or array.size == 0:
                raise ValueError(f"vector for key {key!r} must be 1-D and non-empty, got shape {array.shape}")
            if not np.isfinite(array).all():
                raise ValueError(f"vector for key {key!r} has non-finite values")
            dims.add(array.size)
            rows.append((fingerprint, str(key), int(array.size), array.astype("<f4").tobytes()))
        if len(dims) > 1:
            raise ValueError(f"vectors under one fingerprint must share one dimension, got {sorted(dims)}")
        origin_rows = [(str(k), str(o)) for k, os_ in (origins or {}).items() for o in os_]
        if not rows and not origin_rows:
            return
        with self._lock:
            conn = self._connection()
            try:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    conn.executemany(
                        "INSERT OR REPLACE INTO vectors (fingerprint, key, dim, vector) VALUES (?, ?, ?, ?)",
                        rows,
                    )
                    conn.executemany("INSERT OR IGNORE INTO origins (key, origin) VALUES (?, ?)", origin_rows)
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
                conn.execute("COMMIT")
            except sqlite3.DatabaseError as exc:
                raise self._corrupt(exc) from exc

    # -- lifetime ----------------------------------------------------------------------------------

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self) -> EmbeddingCache:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"EmbeddingCache({str(self.path)!r})"


def _chunks(items: list[int], size: int) -> Iterator[list[int]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


#: After a batch is refused, its texts are tried one at a time; if this many in a row fail
#: alone too, the embedder is failing everything, not one text: stop and record gaps.
MAX_SINGLE_FAILURES = 3


@dataclass
class EmbedOutcome:
    """What :func:`embed_texts_with_cache` got: vectors where it could, and why not elsewhere.

    ``vectors`` is float32 ``(len(texts), dim)`` with zero rows where ``ok`` is False;
    ``failed`` lists the indices of those texts (gaps), ``error`` says why.
    """

    vectors: np.ndarray
    ok: np.ndarray
    embedded: int = 0  # texts embedded by this call (cache misses that succeeded)
    reused: int = 0  # texts whose vector came from the cache
    failed: list[int] = field(default_factory=list)
    error: str | None = None


def _format_error(exc: BaseException) -> str:
    return str(exc) if isinstance(exc, EmbedderError) else f"{type(exc).__name__}: {exc}"


def embed_texts_with_cache(
    embedder: Embedder,
    cache: EmbeddingCache | None,
    texts: Sequence[str],
    progress: Callable[[int, int], None] | None = None,
    *,
    reembed: bool = False,
    allow_embed: bool = True,
    origins: Sequence[str] | None = None,
) -> EmbedOutcome:
    """Vectors for ``texts`` in input order, embedding only what the cache lacks; never raises
    for the embedder's sake.

    Texts are keyed by :func:`text_key` under ``embedder.fingerprint``; each distinct missing
    text is embedded once, in calls of ``embedder.call_size`` texts (else :data:`EMBED_CHUNK`),
    and each call's vectors are stored in the cache as soon as it returns, so a failure
    part-way keeps everything computed before it. Failures are soft:

    - :class:`~memsearch.embedders.base.EmbedderUnavailableError` (server down, hung, model
      missing, wrong model) or any unexpected exception: stop; everything not yet embedded
      is a gap (one timeout is paid once, not once per batch);
    - any other :class:`EmbedderError` (this batch was refused): its texts are tried one at
      a time, and those refused alone are gaps; if :data:`MAX_SINGLE_FAILURES` fail in a row,
      stop as above.

    ``reembed=True`` ignores cached vectors of this fingerprint (and overwrites them);
    ``allow_embed=False`` only reads the cache (misses become gaps, nothing is embedded).
    ``progress(done, total)`` counts the texts to embed, embedded or given up.
    ``origins`` (parallel to ``texts``): the path hash of the file each text is for, recorded in
    the cache with every vector stored or reused (see :data:`ORIGINS_TABLE`).
    """
    if isinstance(texts, str):
        raise TypeError("embed_texts_with_cache takes a sequence of texts, not one str")
    dim = int(embedder.dim)
    out = np.zeros((len(texts), dim), dtype=np.float32)
    ok = np.zeros(len(texts), dtype=bool)
    if not texts:
        return EmbedOutcome(out, ok)
    fingerprint = embedder.fingerprint
    keys = [text_key(t) for t in texts]
    first: dict[str, int] = {}  # key -> index of its first text
    for i, key in enumerate(keys):
        first.setdefault(key, i)
    unique = list(first)
    by_key: dict[str, list[str]] = {}
    if origins is not None:
        for key, origin in zip(keys, origins, strict=True):
            if origin:
                by_key.setdefault(key, []).append(origin)
    found = cache.get_many(fingerprint, unique) if cache is not None and not reembed else {}
    vectors = {k: v for k, v in found.items() if v.shape == (dim,)}
    reused_keys = set(vectors)
    missing = [first[k] for k in unique if k not in vectors]
    if cache is not None and by_key and reused_keys:  # a reused text is this file's text too
        with contextlib.suppress(IndexCorruptError, OSError, ValueError):
            cache.put_many(fingerprint, {}, {k: by_key[k] for k in reused_keys if k in by_key})
    # Shortest first across runs too, so the embedder's own length sort pads little.
    missing.sort(key=lambda i: len(texts[i]))
    given_up: list[int] = []
    error: str | None = None
    if not allow_embed and missing:
        error = "embedding was skipped (--no-embed); run `memsearch index VAULT` to embed them"
    done, embedded = 0, 0
    step_size = int(getattr(embedder, "call_size", 0) or EMBED_CHUNK)

    def store(part: list[int], matrix: np.ndarray) -> None:
        nonlocal cache
        fresh = {keys[i]: matrix[row] for row, i in enumerate(part)}
        if cache is not None:
            try:
                cache.put_many(fingerprint, fresh, {k: by_key[k] for k in fresh if k in by_key})
            except (IndexCorruptError, OSError, ValueError):
                cache = None  # the vectors still serve this run; the cache is only a cache
        vectors.update(fresh)

    def call(part: list[int], offset: int) -> np.ndarray:
        def step(n: int, _total: int) -> None:
            if progress is not None:
                progress(offset + n, len(missing))

        matrix = embedder.embed_documents([texts[i] for i in part], step)
        if getattr(matrix, "shape", None) != (len(part), dim):
            raise EmbedderUnavailableError(
                f"embedder {embedder.name!r} returned shape {getattr(matrix, 'shape', None)},"
                f" expected {(len(part), dim)}"
            )
        return matrix

    parts = list(_chunks(missing, step_size)) if allow_embed else []
    for part in parts:
        try:
            store(part, call(part, done))
            embedded += len(part)
        except EmbedderUnavailableError as exc:
            error = _format_error(exc)
            break
        except EmbedderError as exc:
            error = _format_error(exc)
            in_a_row = 0
            for i in part:
                try:
                    store([i], call([i], done))
                    embedded += 1
                    in_a_row = 0
                except EmbedderUnavailableError as single:
                    error = _format_error(single)
                    in_a_row = MAX_SINGLE_FAILURES
                except Exception as single:
                    error = _format_error(single)
                    in_a_row += 1
                if in_a_row >= MAX_SINGLE_FAILURES:
                    break
            if in_a_row >= MAX_SINGLE_FAILURES:
                break
        except Exception as exc:  # a backend bug must not fail an index: gaps, with the reason
            error = _format_error(exc)
            break
        done += len(part)
        if progress is not None:
            progress(done, len(missing))
    # Every text without a vector now is a gap, wherever the loop stopped.
    for i, key in enumerate(keys):
        vector = vectors.get(key)
        if vector is None:
            given_up.append(i)
        else:
            out[i] = vector
            ok[i] = True
    reused = sum(1 for k in keys if k in reused_keys)
    return EmbedOutcome(out, ok, embedded, reused, given_up, error if given_up else None)


def embed_with_cache(
    embedder: Embedder,
    cache: EmbeddingCache | None,
    texts: Sequence[str],
    progress: Callable[[int, int], None] | None = None,
) -> tuple[np.ndarray, int]:
    """Vectors for ``texts`` in input order, embedding only what the cache lacks, or EmbedderError.

    The strict form of :func:`embed_texts_with_cache` (each call's vectors are still cached
    as soon as they are computed). Returns ``(float32 (len(texts), embedder.dim), number of
    texts embedded)``.
    """
    if isinstance(texts, str):
        raise TypeError("embed_with_cache takes a sequence of texts, not one str")
    outcome = embed_texts_with_cache(embedder, cache, texts, progress)
    if outcome.failed:
        raise EmbedderError(
            f"{len(outcome.failed)} of {len(texts)} texts could not be embedded: {outcome.error}"
        )
    return outcome.vectors, outcome.embedded


def purge(path: Path, keys: set[str], paths: set[str] = frozenset()) -> int:  # type: ignore[assignment]
    """Delete the cached vectors of ``keys`` (text hashes) and of every text embedded for a
    forgotten path (``paths``: path hashes, from the cache's origins table: a vector embedded by
    a run that never committed is in no commit), then compact the file so the bytes leave it."""
    if not path.exists():
        return 0
    deleted = 0
    conn = sqlite3.connect(path, isolation_level=None, timeout=30)
    try:
        wanted = set(keys)
        has_origins = conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (ORIGINS_TABLE,)
        ).fetchone()
        ordered_paths = sorted(paths)
        if has_origins:
            for start in range(0, len(ordered_paths), 500):
                part = ordered_paths[start : start + 500]
                marks = ",".join("?" * len(part))
                rows = conn.execute(f"SELECT key FROM {ORIGINS_TABLE} WHERE origin IN ({marks})", part)
                wanted |= {row[0] for row in rows}
        ordered = sorted(wanted)
        for start in range(0, len(ordered), 500):
            part = ordered[start : start + 500]
            marks = ",".join("?" * len(part))
            deleted += conn.execute(f"DELETE FROM vectors WHERE key IN ({marks})", part).rowcount
            if has_origins:
                conn.execute(f"DELETE FROM {ORIGINS_TABLE} WHERE key IN ({marks})", part)
        conn.execute("PRAGMA secure_delete=ON")
        for attempt in range(20):  # a reader in another process may hold the file for a moment
            try:
                conn.execute("VACUUM")
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                break
            except sqlite3.OperationalError:
                if attempt == 19:
                    raise MemsearchError(
                        f"the embedding cache {path} is busy: its rows of the forgotten memories are"
                        " deleted but the file was not compacted; run `memsearch forget` again"
                        " when no other memsearch process is running"
                    ) from None
                time.sleep(0.25)
    finally:
        conn.close()
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(OSError):
            os.chmod(f"{path}{suffix}", 0o600)
    return deleted
