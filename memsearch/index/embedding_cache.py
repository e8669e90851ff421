"""A persistent cache of embedding vectors, so unchanged text is never embedded twice.

Entries are keyed by ``(embedder fingerprint, sha256 of the exact text handed to the
embedder)``: a vector is reused only for byte-identical text under an embedder whose
fingerprint (model, prefixes, pooling, truncation...) is the same. Everything lives in
one SQLite file (WAL mode, one writer at a time, readers never blocked), readable only
by its owner. It is only a cache: deleting the file costs re-embedding, nothing else.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

import numpy as np

from memsearch.errors import EmbedderError, IndexCorruptError

if TYPE_CHECKING:  # pragma: no cover
    from memsearch.embedding import Embedder

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
"""


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
            parent.mkdir(parents=True, mode=0o700)
            parent.chmod(0o700)  # mkdir's mode is filtered by the umask
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

    def put_many(self, fingerprint: str, items: Mapping[str, np.ndarray]) -> None:
        """Store (or replace) vectors, all in one transaction.

        Each vector must be 1-D, non-empty and finite; all must have the same length.
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
        if not rows:
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


def embed_with_cache(
    embedder: Embedder,
    cache: EmbeddingCache | None,
    texts: Sequence[str],
    progress: Callable[[int, int], None] | None = None,
) -> tuple[np.ndarray, int]:
    """Vectors for ``texts`` in input order, embedding only what the cache lacks.

    Texts are keyed by :func:`text_key` under ``embedder.fingerprint``; each distinct
    missing text is embedded once and stored (in runs of :data:`EMBED_CHUNK`, each
    committed as soon as it is embedded). ``progress(done, total)`` counts the texts
    being embedded (the misses) and is never called when everything was cached.
    Returns ``(float32 (len(texts), embedder.dim), number of texts embedded)``.
    """
    if isinstance(texts, str):
        raise TypeError("embed_with_cache takes a sequence of texts, not one str")
    dim = int(embedder.dim)
    out = np.zeros((len(texts), dim), dtype=np.float32)
    if not texts:
        return out, 0
    fingerprint = embedder.fingerprint
    keys = [text_key(t) for t in texts]
    first: dict[str, int] = {}  # key -> index of its first text
    for i, key in enumerate(keys):
        first.setdefault(key, i)
    unique = list(first)
    found = cache.get_many(fingerprint, unique) if cache is not None else {}
    vectors = {k: v for k, v in found.items() if v.shape == (dim,)}
    missing = [first[k] for k in unique if k not in vectors]
    # Shortest first across runs too, so the embedder's own length sort pads little.
    missing.sort(key=lambda i: len(texts[i]))
    done = 0
    for part in _chunks(missing, EMBED_CHUNK):

        def step(n: int, _total: int, offset: int = done) -> None:
            if progress is not None:
                progress(offset + n, len(missing))

        embedded = embedder.embed_documents([texts[i] for i in part], step)
        if embedded.shape != (len(part), dim):
            raise EmbedderError(
                f"embedder {embedder.name!r} returned shape {embedded.shape}, expected {(len(part), dim)}"
            )
        fresh = {keys[i]: embedded[row] for row, i in enumerate(part)}
        if cache is not None:
            cache.put_many(fingerprint, fresh)
        vectors.update(fresh)
        done += len(part)
    for i, key in enumerate(keys):
        out[i] = vectors[key]
    return out, len(missing)
