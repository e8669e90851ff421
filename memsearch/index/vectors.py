"""Dense vectors in an HNSW graph (hnswlib), keyed by chunk id.

The vectors themselves (``vectors.npy`` + ``vector_ids.npy``) are the record; the HNSW graph file
is a cache rebuilt from them when it is missing or does not match (multi-threaded builds are not
byte-stable, so it is never the thing to version). Chunk ids are never reused, which sidesteps
hnswlib's ``replace_deleted`` bug with reused labels (upstream PR #541): delete, then add fresh.

The vectors are one float32 matrix (row per vector; a chunk id -> row table beside it). A loaded
matrix is memory-mapped read-only: queries go to the HNSW graph, which holds its own copy, so the
record costs no memory until something reads it (a save, a rebuild, a filtered query). A query
over at most :data:`EXACT_MAX_ROWS` vectors (the whole index, or what its filters leave) is answered
exactly, by a dot product over those rows: an index that small has no graph at all (its answers then
depend on the vectors alone), and a narrow filter avoids a filtered walk of the graph (which visits
many refused nodes, one Python callback each: ~20 ms at 1% of 100k vectors, against ~0.2 ms exactly).

Above that size, the graph an HNSW index answers from depends on the order its vectors went in.
A graph built from scratch (a clean build, a snapshot rebuilt at ``--at``) is built in one thread,
rows in the order of a hash of their bytes (not of their chunk ids, which depend on the order files
were indexed in), so the same vectors always give the same graph. An index run patches the graph it
loaded instead (rebuilding it costs ~80 s at 100k vectors, on every run); the reindex job settles a
patched graph (:meth:`VectorIndex.settle`: built from scratch again, and saved marked so). Either
graph is asked for a few more candidates than the list holds (:data:`GRAPH_MARGIN`), and the list is
cut from them by score, then by ``tie_key`` (the chunks' places in the vault), as the exact answer
is: two graphs then differ only where one of them misses a member of the list, which a patched graph
still may for a few queries until it is settled (docs/versioning.md).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from memsearch.models import Hit

if TYPE_CHECKING:  # hnswlib is imported where a graph is first built or loaded
    import hnswlib

#: HNSW build parameters: M=16 / ef_construction=200 measured recall 1.0 at 100k x 768 here.
HNSW_M = 16
HNSW_EF_CONSTRUCTION = 200
#: Search breadth; raised to k when k is larger.
HNSW_EF_SEARCH = 64
#: A query over at most this many vectors (an index this small, or a filter this narrow) is scored
#: exactly: exact answers depend on nothing but the vectors, and it is as fast. Measured at 100k x 384
#: (eval/bench.py's vault, 60 queries, p50): exact 0.2 ms at 2k rows, 3.7 ms at 17k, 8.3 ms at 26k;
#: the graph's filtered walk (a Python callback per visited node) 13.7 ms for a 17k-row fact-type
#: filter, 3.1 ms for a 26k-row territory (its rows cluster in the graph), ~10 ms for 29k by date.
EXACT_MAX_ROWS = 20_000
#: Candidates the graph is asked for beyond k (at least; a quarter of k when that is more), so the
#: list's cut is made by score and tie key over candidates rather than by the walk's order.
GRAPH_MARGIN = 16
#: The second line of ``hnsw.key`` when the saved graph was built from scratch (a key of one line,
#: as older indexes saved it, is a graph that updates may have patched).
SETTLED_MARK = "built from scratch"
#: Rows sampled to read a query's background similarity (a dot product each: ~0.1 ms at 384 dims).
BACKGROUND_SAMPLE = 1024
#: Two passages this close in meaning are one passage of the background. A log of near-identical
#: lines (a sensor's readings) would otherwise be most of "the vault at large", and its narrow
#: spread would make any other passage stand out for any query. MiniLM puts such lines at 0.97 and
#: above; distinct passages' nearest neighbours in two agent vaults are 0.62-0.86 (50th-99th pct).
DUPLICATE_COSINE = 0.95


def distinct_rows(matrix: np.ndarray) -> np.ndarray:
    """The rows of ``matrix`` (unit vectors) without any within :data:`DUPLICATE_COSINE` of an
    earlier one: each passage once, however often the vault repeats it (a few ms for 1024 rows)."""
    if len(matrix) < 2:
        return matrix
    close = (matrix @ matrix.T) >= DUPLICATE_COSINE
    keep = np.ones(len(matrix), dtype=bool)
    for i in range(len(matrix)):
        if keep[i]:
            keep[i + 1 :] &= ~close[i, i + 1 :]
    return matrix if keep.all() else np.ascontiguousarray(matrix[keep])


class _Rows(Mapping):
    """``chunk id -> vector`` over the matrix, read-only (what a ``dict`` of rows used to be)."""

    def __init__(self, index: VectorIndex) -> None:
        self._index = index

    def __getitem__(self, chunk_id: int) -> np.ndarray:
        row = self._index._row(int(chunk_id))
        if row < 0:
            raise KeyError(chunk_id)
        return self._index._matrix[row]

    def __contains__(self, chunk_id: object) -> bool:
        return isinstance(chunk_id, int | np.integer) and self._index._row(int(chunk_id)) >= 0

    def __iter__(self) -> Iterator[int]:
        return iter(self._index._live_ids().tolist())

    def __len__(self) -> int:
        return self._index._n_live


class VectorIndex:
    name = "semantic"

    def __init__(self, dim: int) -> None:
        self.dim = dim
        self._matrix = np.zeros((0, dim), dtype=np.float32)  # rows; may be a read-only memmap
        self._ids = np.zeros(0, dtype=np.int64)  # chunk id of each row
        self._alive = np.zeros(0, dtype=bool)  # rows not removed or replaced
        self._n_rows = 0  # rows in use (the arrays may hold spare capacity)
        self._n_live = 0
        self._row_of = np.full(0, -1, dtype=np.int64)  # chunk id -> row, -1 = no vector
        self._hnsw: hnswlib.Index | None = None  # built lazily
        self._dirty = True
        self._settled = False  # the graph was built from scratch and never patched since
        self._background: tuple[int, np.ndarray] | None = None  # (rows when sampled, sample)

    def __len__(self) -> int:
        return self._n_live

    def __contains__(self, chunk_id: int) -> bool:
        return self._row(int(chunk_id)) >= 0

    @property
    def by_id(self) -> Mapping[int, np.ndarray]:
        """The vectors by chunk id, read-only (a view over the matrix, not a copy)."""
        return _Rows(self)

    def _row(self, chunk_id: int) -> int:
        return int(self._row_of[chunk_id]) if 0 <= chunk_id < len(self._row_of) else -1

    def _live_ids(self) -> np.ndarray:
        return self._ids[: self._n_rows][self._alive[: self._n_rows]]

    def _live_matrix(self) -> tuple[np.ndarray, np.ndarray]:
        """(ids, vectors) of the live rows, in row order (= the order they were added)."""
        live = self._alive[: self._n_rows]
        if self._n_live == self._n_rows:
            return self._ids[: self._n_rows], self._matrix[: self._n_rows]
        return self._ids[: self._n_rows][live], self._matrix[: self._n_rows][live]

    # -- updates ---------------------------------------------------------------------------
    def add(self, chunk_ids: list[int], vectors: np.ndarray) -> None:
        vectors = np.asarray(vectors, dtype=np.float32).reshape(len(chunk_ids), self.dim)
        ids = np.asarray(chunk_ids, dtype=np.int64).reshape(-1)
        if not len(ids):
            return
        # The last vector of an id given twice wins, as a dict assignment would.
        _, last = np.unique(ids[::-1], return_index=True)
        keep = np.sort(len(ids) - 1 - last)
        new_ids, new_vectors = ids[keep], vectors[keep]
        self._grow(self._n_rows + len(new_ids), int(new_ids.max()) + 1)
        old_rows = self._row_of[new_ids]
        replaced = old_rows[old_rows >= 0]
        self._alive[replaced] = False
        self._n_live -= len(replaced)
        rows = np.arange(self._n_rows, self._n_rows + len(new_ids))
        self._matrix[rows] = new_vectors
        self._ids[rows] = new_ids
        self._alive[rows] = True
        self._row_of[new_ids] = rows
        self._n_rows += len(new_ids)
        self._n_live += len(new_ids)
        if self._hnsw is not None and not self._dirty:
            self._ensure_capacity(len(chunk_ids))
            self._hnsw.add_items(vectors, np.asarray(chunk_ids, dtype=np.int64))
            self._settled = False

    def _grow(self, rows: int, ids: int) -> None:
        if rows > len(self._matrix) or not self._matrix.flags.writeable:
            # A loaded (mapped, read-only) matrix moves into memory with a quarter to spare.
            spare = len(self._matrix) if self._matrix.flags.writeable else self._n_rows // 4
            size = max(rows, len(self._matrix) + spare, 64)
            matrix = np.zeros((size, self.dim), dtype=np.float32)
            matrix[: self._n_rows] = self._matrix[: self._n_rows]
            row_ids = np.zeros(size, dtype=np.int64)
            row_ids[: self._n_rows] = self._ids[: self._n_rows]
            alive = np.zeros(size, dtype=bool)
            alive[: self._n_rows] = self._alive[: self._n_rows]
            self._matrix, self._ids, self._alive = matrix, row_ids, alive
        if ids > len(self._row_of):
            row_of = np.full(max(ids, 2 * len(self._row_of), 64), -1, dtype=np.int64)
            row_of[: len(self._row_of)] = self._row_of
            self._row_of = row_of

    def remove(self, chunk_ids: list[int]) -> None:
        for chunk_id in chunk_ids:
            row = self._row(int(chunk_id))
            if row < 0:
                continue
            self._alive[row] = False
            self._row_of[int(chunk_id)] = -1
            self._n_live -= 1
            if self._hnsw is not None:
                self._settled = False
                try:
                    self._hnsw.mark_deleted(int(chunk_id))
                except RuntimeError:
                    self._dirty = True

    def _ensure_capacity(self, extra: int) -> None:
        assert self._hnsw is not None  # called only to add to a graph that exists
        needed = self._hnsw.get_current_count() + extra
        if needed > self._hnsw.get_max_elements():
            self._hnsw.resize_index(max(needed, 2 * self._hnsw.get_max_elements()))

    def _build(self) -> None:
        import hnswlib

        index = hnswlib.Index(space="ip", dim=self.dim)
        index.init_index(max_elements=max(self._n_live, 16), ef_construction=HNSW_EF_CONSTRUCTION, M=HNSW_M)
        if self._n_live:
            ids, matrix = self._live_matrix()
            order = canonical_order(ids, matrix)
            # One thread (multi-threaded builds differ run to run): the same vectors then always
            # give the same graph, whatever path the index took and at `--at` an old commit.
            index.add_items(np.ascontiguousarray(matrix[order]), ids[order], num_threads=1)
        self._hnsw, self._dirty, self._settled = index, False, True

    def needs_graph(self) -> bool:
        """Whether queries go to the HNSW graph: above :data:`EXACT_MAX_ROWS` vectors (below, every
        query is answered exactly, as fast, and no graph is built or saved)."""
        return self._n_live > EXACT_MAX_ROWS

    @property
    def settled(self) -> bool:
        """Whether the answers depend on the vectors alone: no graph is needed, or the graph is (or
        will be, on first use) built from scratch, not patched by updates since it was built."""
        return not self.needs_graph() or self._hnsw is None or self._dirty or self._settled

    def settle(self) -> bool:
        """Build the graph from scratch if updates patched it (the reindex job's work: ~80 s at
        100k vectors, one thread); whether it was rebuilt."""
        if self.settled:
            return False
        self._build()
        return True

    def ready(self) -> None:
        """Build the HNSW graph now if one is needed and it is missing or stale (else the first
        search or the save does)."""
        if self.needs_graph() and (self._hnsw is None or self._dirty):
            self._build()

    # -- queries ---------------------------------------------------------------------------
    def search(
        self,
        query: np.ndarray,
        k: int,
        allowed: np.ndarray | None = None,
        tie_key: Callable[[np.ndarray], np.ndarray] | None = None,
    ) -> list[Hit]:
        """Nearest chunks by cosine similarity (vectors are normalised), best first. Answered
        exactly, ``tie_key`` (chunk ids -> sortable keys, such as their places in the vault)
        decides among equal cosines (two chunks of the same text) which make the list and in
        what order; else chunk ids do."""
        if not self._n_live or k <= 0:
            return []
        query = np.asarray(query, dtype=np.float32)
        if allowed is not None:
            rows = self._allowed_rows(allowed)
            if len(rows) <= EXACT_MAX_ROWS:
                return self._exact(query, k, rows, tie_key)
        elif self._n_live <= EXACT_MAX_ROWS:
            return self._exact(query, k, None, tie_key)
        if self._hnsw is None or self._dirty:
            self._build()
        n = self._n_live
        wanted = min(k, n)
        # A few more than asked: the list is then cut by score and ``tie_key`` here, not by the
        # graph's walk, so two graphs of the same vectors (one patched run by run, one built from
        # scratch) give the same list wherever both find its members.
        k = min(wanted + max(GRAPH_MARGIN, wanted // 4), n)
        assert self._hnsw is not None  # built above
        self._hnsw.set_ef(max(HNSW_EF_SEARCH, k))
        flt = None
        if allowed is not None:
            # One byte per chunk id, padded past the largest label: indexing bytes is the cheapest
            # call hnswlib can make back into Python for every node it visits.
            flt = (
                np.concatenate(
                    (allowed[: len(self._row_of)], np.zeros(max(0, len(self._row_of) - len(allowed)), bool))
                )
                .tobytes()
                .__getitem__
            )

        try:
            labels, distances = self._hnsw.knn_query(query, k=k, filter=flt)
        except RuntimeError:
            # hnswlib raises when fewer than k items pass the filter; ask again for what exists.
            allowed_n = len(self._allowed_rows(allowed)) if allowed is not None else n
            if allowed_n == 0:
                return []
            labels, distances = self._hnsw.knn_query(query, k=min(k, allowed_n), filter=flt)
        ids, scores = labels[0].astype(np.int64), 1.0 - distances[0]
        keys = tie_key(ids) if tie_key is not None else ids
        order = np.lexsort((keys, -scores))[:wanted]
        return list(map(Hit, ids[order].tolist(), scores[order].astype(np.float64).tolist()))

    def background(self, query: np.ndarray) -> tuple[float, float]:
        """(mean, standard deviation) of the query's cosine to the vault's vectors at large.

        Read from an evenly strided sample of at most :data:`BACKGROUND_SAMPLE` live rows (kept
        until the vectors change): how similar "anything" in this vault is to this query, so a
        hit's cosine can be judged against it whatever the embedder's own scale.
        """
        sample = self._background
        if sample is None or sample[0] != self._n_rows:
            _, matrix = self._live_matrix()
            step = max(1, len(matrix) // BACKGROUND_SAMPLE)
            if self.needs_graph():
                # Hashing every row would read the whole mapped record on a query (1.5 GB at 1M);
                # a graph this large answers by its path anyway (docs/versioning.md).
                rows = np.arange(0, len(matrix), step)[:BACKGROUND_SAMPLE]
            else:
                # Strided in the order of a hash of their bytes, not of their ids: the same sample
                # (so the same standout, the same signal) whatever order the index was built in,
                # and kept in that order (a mean summed in another order may differ in its last bit).
                rows = np.argsort(content_keys(matrix), kind="stable")[::step][:BACKGROUND_SAMPLE]
            sample = self._background = (self._n_rows, distinct_rows(np.ascontiguousarray(matrix[rows])))
        rows = sample[1]
        if not len(rows):
            return 0.0, 0.0
        cosines = np.einsum("ij,j->i", rows, np.asarray(query, dtype=np.float32))
        return float(cosines.mean()), float(cosines.std())

    def background_size(self) -> int:
        """How many vectors :meth:`background` measures a query against."""
        sample = self._background
        if sample is None or sample[0] != self._n_rows:
            return min(len(self), BACKGROUND_SAMPLE)  # not sampled yet: at most this many
        return len(sample[1])

    def _allowed_rows(self, allowed: np.ndarray) -> np.ndarray:
        ids = np.flatnonzero(allowed[: len(self._row_of)])
        rows = self._row_of[ids]
        return rows[rows >= 0]

    def _exact(
        self,
        query: np.ndarray,
        k: int,
        rows: np.ndarray | None,
        tie_key: Callable[[np.ndarray], np.ndarray] | None = None,
    ) -> list[Hit]:
        """Top-k by inner product over the given rows (None: every live row), best first, ties by
        ``tie_key`` where given, else by chunk id."""
        if rows is None:
            ids, matrix = self._live_matrix()  # no copy unless rows were removed since the load
        elif not len(rows):
            return []
        else:
            ids, matrix = self._ids[rows], self._matrix[rows]
        # einsum, not BLAS: a few thousand rows are faster single-threaded than through a
        # BLAS pool's wake-up (measured ~8 ms with OpenBLAS's 2 threads at 3k rows, 1 ms here).
        scores = np.einsum("ij,j->i", matrix, query)
        if len(ids) > k:
            part = np.argpartition(-scores, k - 1)[:k]
            if tie_key is not None:
                kth = scores[part].min()
                tied = np.flatnonzero(scores == kth)
                if len(tied) > np.count_nonzero(scores[part] == kth):  # the cut runs through a tie
                    above = np.flatnonzero(scores > kth)
                    tied = tied[np.argsort(tie_key(ids[tied]), kind="stable")]
                    part = np.concatenate((above, tied[: k - len(above)]))
            scores, ids = scores[part], ids[part]
        if tie_key is not None and len(np.unique(scores)) < len(scores):
            order = np.lexsort((tie_key(ids), -scores))
        else:
            order = np.lexsort((ids, -scores))
        return list(map(Hit, ids[order].tolist(), scores[order].astype(np.float64).tolist()))

    # -- persistence -----------------------------------------------------------------------
    def save(self, folder: Path, prefix: str = "") -> None:
        """Write the vectors (and the graph, if one is needed) in ``folder``; ``prefix`` begins each
        file's name (a notebook modality's index beside the text vectors: ``modal.audio.``)."""
        ids, matrix = self._live_matrix()
        order = np.argsort(ids, kind="stable")
        ids = ids[order]
        matrix = np.ascontiguousarray(matrix[order], dtype=np.float32)
        np.save(folder / f"{prefix}vector_ids.npy", ids)
        np.save(folder / f"{prefix}vectors.npy", matrix if len(ids) else np.zeros((0, self.dim), np.float32))
        if not self.needs_graph():
            return
        self.ready()
        assert self._hnsw is not None  # ready() built it: a graph is needed
        # As bytes: hnswlib takes the path as UTF-8 text, which a folder name that is not UTF-8
        # (a surrogate escape in Python) cannot be.
        self._hnsw.save_index(os.fsencode(folder / f"{prefix}hnsw.bin"))
        key = _fingerprint(ids, matrix)
        (folder / f"{prefix}hnsw.key").write_text(f"{key}\n{SETTLED_MARK}" if self._settled else key)

    @classmethod
    def load(cls, folder: Path, dim: int, prefix: str = "") -> VectorIndex:
        index = cls(dim)
        ids = np.load(folder / f"{prefix}vector_ids.npy")
        # Read-only and mapped: the HNSW graph answers queries; these pages load only when read.
        matrix = np.load(folder / f"{prefix}vectors.npy", mmap_mode="r")
        if len(ids) and matrix.shape != (len(ids), dim):
            raise ValueError(f"vectors.npy has shape {matrix.shape}, expected ({len(ids)}, {dim})")
        if matrix.dtype != np.float32:
            matrix = np.asarray(matrix, dtype=np.float32)
        ids = np.asarray(ids, dtype=np.int64)
        n = len(ids)
        index._matrix = matrix if n else np.zeros((0, dim), dtype=np.float32)
        index._ids = ids
        index._alive = np.ones(n, dtype=bool)
        index._n_rows = index._n_live = n
        index._row_of = np.full(int(ids.max()) + 1 if n else 0, -1, dtype=np.int64)
        index._row_of[ids] = np.arange(n)
        if n and len(np.unique(ids)) != n:
            raise ValueError("vector_ids.npy repeats a chunk id")
        key_file, graph_file = folder / f"{prefix}hnsw.key", folder / f"{prefix}hnsw.bin"
        key = key_file.read_text().split("\n") if graph_file.exists() and key_file.exists() else [""]
        if key[0] == _fingerprint(ids, matrix):
            import hnswlib

            try:
                hnsw = hnswlib.Index(space="ip", dim=dim)
                hnsw.load_index(os.fsencode(graph_file), max_elements=max(n, 16))
                index._hnsw, index._dirty, index._settled = hnsw, False, SETTLED_MARK in key[1:]
            except RuntimeError:
                index._dirty = True  # a corrupt cache is rebuilt from the vectors on first search
        return index


def saved_graph_settled(folder: Path, prefix: str = "") -> bool:
    """Whether the graph saved in ``folder`` (if any) was built from scratch, without loading it."""
    key = folder / f"{prefix}hnsw.key"
    return not key.exists() or SETTLED_MARK in key.read_text().split("\n")[1:]


def content_keys(matrix: np.ndarray) -> np.ndarray:
    """A 64-bit hash of each row's bytes: a key that depends on the vector alone, in no order of
    its own (rows sorted by it come in a random-looking order, as HNSW wants its insertions;
    sorted by the bytes themselves they would come sorted by their first coordinate)."""
    rows = np.ascontiguousarray(matrix, dtype=np.float32)
    if rows.shape[1] % 2:  # an odd width: one zero column so each row is whole 64-bit words
        rows = np.concatenate((rows, np.zeros((len(rows), 1), np.float32)), axis=1)
    words = rows.view(np.uint64)
    multipliers = np.random.default_rng(15).integers(1, 2**63, words.shape[1], dtype=np.uint64) | 1
    with np.errstate(over="ignore"):  # wrapping uint64 arithmetic is the point
        keys = (words * multipliers).sum(axis=1, dtype=np.uint64)
        keys ^= keys >> np.uint64(31)
        keys *= np.uint64(0x9E3779B97F4A7C15)
        keys ^= keys >> np.uint64(29)
    return keys


def canonical_order(ids: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """The rows in the order a graph is built in: by a hash of the vector, equal vectors by chunk id.

    Chunk ids are not a canonical key (an incremental run gives a rewritten file fresh ids; a clean
    build numbers files in scan order), the vectors are. Equal vectors (the same text twice) take the
    same places either way, so the two graphs differ only in which of the equal labels sits where.
    """
    return np.lexsort((ids, content_keys(matrix)))


def _fingerprint(ids: np.ndarray, matrix: np.ndarray) -> str:
    digest = hashlib.sha256(np.ascontiguousarray(ids, dtype=np.int64).tobytes())
    matrix = np.ascontiguousarray(matrix)
    # Hashed in place (a memoryview, no copy): the same digest as hashing its bytes. (numpy's stubs
    # make an array a buffer only from Python 3.12.)
    digest.update(memoryview(matrix).cast("B") if matrix.size else b"")  # type: ignore[arg-type]
    return digest.hexdigest()
