"""BM25 over an inverted index held in numpy arrays, updatable one chunk at a time.

Why not rank-bm25: it scores every document in Python on every query (191 ms per query at
100k chunks, measured) and cannot add or remove a document. Here each query term touches only
its postings (a vectorised slice), and adding or removing a chunk touches only its own terms.
Term frequencies are floats so that a chunk's neighbours can be indexed with it at a lower
weight (a field weight, as in BM25F), which is how short turns get their context.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from pathlib import Path

import numpy as np

from memsearch.models import Hit

#: Robertson/Lucene defaults; k1 bounds what repetition can earn, b normalises for length.
BM25_K1 = 1.2
BM25_B = 0.75


def lucene_idf(n_docs: int, df: int) -> float:
    """Lucene's BM25 idf: always positive, so a common term never subtracts."""
    return math.log(1.0 + (n_docs - df + 0.5) / (df + 0.5))


class KeywordIndex:
    """An inverted index scored with BM25. Chunk ids are small non-negative ints."""

    name = "keyword"

    def __init__(self, k1: float = BM25_K1, b: float = BM25_B, idf=lucene_idf) -> None:
        self.k1, self.b, self.idf = k1, b, idf
        self._postings: dict[str, dict[int, float]] = {}
        self._doc_terms: dict[int, tuple[str, ...]] = {}
        self._doc_len = np.zeros(0, dtype=np.float32)
        self._total_len = 0.0
        self._cache: dict[str, tuple[np.ndarray, np.ndarray]] = {}

    def __len__(self) -> int:
        return len(self._doc_terms)

    # -- updates ---------------------------------------------------------------------------
    def add(self, chunk_id: int, term_weights: Mapping[str, float]) -> None:
        """Index one chunk from its term -> (weighted) frequency map; replaces an earlier version."""
        if chunk_id in self._doc_terms:
            self.remove(chunk_id)
        if chunk_id >= len(self._doc_len):
            grown = np.zeros(max(chunk_id + 1, 2 * len(self._doc_len), 64), dtype=np.float32)
            grown[: len(self._doc_len)] = self._doc_len
            self._doc_len = grown
        length = float(sum(term_weights.values()))
        self._doc_len[chunk_id] = length
        self._total_len += length
        self._doc_terms[chunk_id] = tuple(term_weights)
        for term, tf in term_weights.items():
            self._postings.setdefault(term, {})[chunk_id] = float(tf)
            self._cache.pop(term, None)

    def remove(self, chunk_id: int) -> None:
        terms = self._doc_terms.pop(chunk_id, None)
        if terms is None:
            return
        self._total_len -= float(self._doc_len[chunk_id])
        self._doc_len[chunk_id] = 0.0
        for term in terms:
            posting = self._postings.get(term)
            if posting is not None:
                posting.pop(chunk_id, None)
                if not posting:
                    del self._postings[term]
            self._cache.pop(term, None)

    # -- queries ---------------------------------------------------------------------------
    def _posting_arrays(self, term: str) -> tuple[np.ndarray, np.ndarray] | None:
        cached = self._cache.get(term)
        if cached is None:
            posting = self._postings.get(term)
            if not posting:
                return None
            ids = np.fromiter(posting.keys(), dtype=np.int64, count=len(posting))
            tfs = np.fromiter(posting.values(), dtype=np.float32, count=len(posting))
            cached = self._cache[term] = (ids, tfs)
        return cached

    def scores(self, query_terms: Iterable[str]) -> np.ndarray:
        """BM25 score of every chunk id (0 where no term matched)."""
        n_docs = len(self._doc_terms)
        out = np.zeros(len(self._doc_len), dtype=np.float32)
        if n_docs == 0:
            return out
        avgdl = max(self._total_len / n_docs, 1e-9)
        k1, b = self.k1, self.b
        for term, qtf in _counts(query_terms).items():
            arrays = self._posting_arrays(term)
            if arrays is None:
                continue
            ids, tfs = arrays
            idf = self.idf(n_docs, len(ids))
            norm = k1 * (1.0 - b + b * self._doc_len[ids] / avgdl)
            out[ids] += qtf * idf * tfs * (k1 + 1.0) / (tfs + norm)
        return out

    def search(self, query_terms: list[str], k: int, allowed: np.ndarray | None = None) -> list[Hit]:
        """Top-k chunks by BM25; ``allowed`` is a boolean mask over chunk ids (filters)."""
        scores = self.scores(query_terms)
        if allowed is not None:
            scores = np.where(fit_mask(allowed, len(scores)), scores, 0.0)
        return top_hits(scores, k)

    # -- persistence -----------------------------------------------------------------------
    def save(self, path: Path) -> None:
        terms = sorted(self._postings)
        offsets = np.zeros(len(terms) + 1, dtype=np.int64)
        ids_list, tfs_list = [], []
        for i, term in enumerate(terms):
            posting = self._postings[term]
            offsets[i + 1] = offsets[i] + len(posting)
            ids_list.append(np.fromiter(posting.keys(), dtype=np.int64, count=len(posting)))
            tfs_list.append(np.fromiter(posting.values(), dtype=np.float32, count=len(posting)))
        with open(path, "wb") as fh:
            np.savez(
                fh,
                terms=np.array(terms, dtype=object).astype(str) if terms else np.zeros(0, dtype="<U1"),
                offsets=offsets,
                ids=np.concatenate(ids_list) if ids_list else np.zeros(0, dtype=np.int64),
                tfs=np.concatenate(tfs_list) if tfs_list else np.zeros(0, dtype=np.float32),
                doc_ids=np.fromiter(self._doc_terms.keys(), dtype=np.int64, count=len(self._doc_terms)),
                doc_len=self._doc_len,
                params=np.array([self.k1, self.b], dtype=np.float64),
            )

    @classmethod
    def load(cls, path: Path) -> KeywordIndex:
        with np.load(path, allow_pickle=False) as data:
            k1, b = (float(x) for x in data["params"])
            index = cls(k1=k1, b=b)
            terms = data["terms"].tolist()
            offsets, ids, tfs = data["offsets"], data["ids"], data["tfs"]
            index._doc_len = data["doc_len"].astype(np.float32)
            doc_terms: dict[int, list[str]] = {int(d): [] for d in data["doc_ids"]}
        for i, term in enumerate(terms):
            lo, hi = int(offsets[i]), int(offsets[i + 1])
            t_ids, t_tfs = ids[lo:hi], tfs[lo:hi]
            index._postings[term] = dict(zip(t_ids.tolist(), t_tfs.tolist(), strict=True))
            index._cache[term] = (t_ids.copy(), t_tfs.copy())
            for d in t_ids.tolist():
                doc_terms[d].append(term)
        index._doc_terms = {d: tuple(t) for d, t in doc_terms.items()}
        index._total_len = float(sum(float(index._doc_len[d]) for d in index._doc_terms))
        return index


def _counts(terms: Iterable[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for term in terms:
        counts[term] = counts.get(term, 0) + 1
    return counts


def fit_mask(mask: np.ndarray, n: int) -> np.ndarray:
    """A boolean mask cut or padded (with False) to length n."""
    if len(mask) >= n:
        return mask[:n]
    out = np.zeros(n, dtype=bool)
    out[: len(mask)] = mask
    return out


def top_hits(scores: np.ndarray, k: int) -> list[Hit]:
    """The k best positive scores as hits, best first, ties broken by chunk id for stability."""
    positive = np.flatnonzero(scores > 0)
    if len(positive) == 0 or k <= 0:
        return []
    if len(positive) > k:
        part = np.argpartition(-scores[positive], k - 1)[:k]
        positive = positive[part]
    order = np.lexsort((positive, -scores[positive]))
    return [Hit(int(i), float(scores[i])) for i in positive[order]]
