"""Where each chunk stands in the vault: the order every ranked list breaks its ties by."""

from __future__ import annotations

import numpy as np

from memsearch.index.in_memory import IndexData


class Places:
    """Where each chunk stands in the vault, as columns indexed by chunk id: the index of its path
    in :attr:`paths`, that path's rank among them (sorted), and its first line. Every ranked list
    breaks its ties by a chunk's place (path, then line), so that an index built file by file
    answers as a rebuild does; a tuple built per chunk on each query cost 0.3 ms a query at 100k
    chunks (``eval/bench.py``'s queries), and a ranking's files are found through these columns too.

    Kept on the index and brought up to date when its chunk table changes (:meth:`refresh`): a chunk
    id is never given to another chunk (``indexer/update.py``), so only the ids not seen before are
    read. Reading every chunk takes ~110 ms at 100k chunks; after a one-file update, ~1.2 ms (the
    table's keys).
    """

    @classmethod
    def of(cls, index: IndexData) -> Places:
        """The index's places, kept on it and brought up to date."""
        return index.kept("chunk places", cls, refresh=cls.refresh)

    def __init__(self, index: IndexData) -> None:
        self.paths: list[str] = []
        self._path_index: dict[str, int] = {}
        self.path_rank = np.zeros(0, dtype=np.int64)  # by path index
        self.path_of = np.zeros(0, dtype=np.int64)  # by chunk id: a path index, -1 for no chunk seen
        self.line_of = np.zeros(0, dtype=np.int64)
        self.refresh(index)

    def refresh(self, index: IndexData) -> Places:
        chunks = index.chunks
        ids = np.fromiter(chunks.keys(), dtype=np.int64, count=len(chunks))
        bound = int(ids.max()) + 1 if len(ids) else 0
        if bound > len(self.path_of):
            grow = bound - len(self.path_of)
            self.path_of = np.concatenate((self.path_of, np.full(grow, -1, dtype=np.int64)))
            self.line_of = np.concatenate((self.line_of, np.zeros(grow, dtype=np.int64)))
        unseen = ids[self.path_of[ids] < 0].tolist()
        if not unseen:
            return self
        known = len(self.paths)
        index_of = self._path_index
        new_paths = []
        for chunk_id in unseen:
            chunk = chunks[chunk_id]
            at = index_of.get(chunk.path)
            if at is None:
                at = index_of[chunk.path] = len(self.paths)
                self.paths.append(chunk.path)
            new_paths.append(at)
            self.line_of[chunk_id] = chunk.start_line
        self.path_of[unseen] = new_paths
        if len(self.paths) > known:
            order = sorted(range(len(self.paths)), key=self.paths.__getitem__)
            self.path_rank = np.empty(len(self.paths), dtype=np.int64)
            self.path_rank[order] = np.arange(len(self.paths))
        return self

    def order(self, ids: np.ndarray) -> np.ndarray:
        """Each of ``ids``'s rank among them by place (path, line, then id)."""
        ids = np.asarray(ids, dtype=np.int64)
        ranks = np.empty(len(ids), dtype=np.int64)
        ranks[np.lexsort((ids, self.line_of[ids], self.path_rank[self.path_of[ids]]))] = np.arange(len(ids))
        return ranks

    def place(self, chunk_id: int) -> tuple[int, int, int]:
        return int(self.path_rank[self.path_of[chunk_id]]), int(self.line_of[chunk_id]), chunk_id
