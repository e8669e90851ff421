"""BM25 over an inverted index held in numpy arrays, updatable one chunk at a time.

Why not rank-bm25: it scores every document in Python on every query (191 ms per query at
100k chunks, measured) and cannot add or remove a document. Here each query term touches only
its postings (a vectorised slice), and adding or removing a chunk touches only its own terms.
Term frequencies are floats so that a chunk's neighbours can be indexed with it at a lower
weight (a field weight, as in BM25F), which is how short turns get their context.

Postings live in two places. What was loaded (or last compacted) is one CSR block of numpy arrays,
``offsets`` / ``ids`` / ``tfs`` by term: loading is a few array reads, never a Python loop over
millions of postings, and it costs 8 bytes a posting in memory (a dict of dicts cost ~100). What
was added since lives in small per-term dicts. A removed chunk is a tombstone over the block (its
postings stop counting, including in document frequency) until the next save compacts both into
one block. Scores are the same, bit for bit, whichever side a posting is on.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Callable, Iterable, Mapping
from itertools import chain
from pathlib import Path

import numpy as np

from memsearch.models import Hit
from memsearch.query_terms import TermWeights
from memsearch.tokenize import fold_spelling, is_character_bigram, is_hiragana, is_unspaced_character

#: Robertson/Lucene defaults; k1 bounds what repetition can earn, b normalises for length.
BM25_K1 = 1.2
BM25_B = 0.75
#: Term posting arrays kept ready for queries (merged block + additions - tombstones).
MAX_CACHED_TERMS = 50_000


def lucene_idf(n_docs: int, df: int) -> float:
    """Lucene's BM25 idf: always positive, so a common term never subtracts."""
    return math.log(1.0 + (n_docs - df + 0.5) / (df + 0.5))


#: One chunk's terms as the index keeps them: (terms, their weights as float32, the chunk's length).
PackedTerms = tuple[tuple[str, ...], array, float]


def pack_terms(term_weights: Mapping[str, float]) -> PackedTerms:
    """A term -> weight map as :meth:`KeywordIndex.add_packed` takes it: a third of the bytes of the
    map when pickled, and half the time to pickle and unpickle (chunking processes send these)."""
    return tuple(term_weights), array("f", term_weights.values()), float(sum(term_weights.values()))


_EMPTY_IDS = np.zeros(0, dtype=np.int64)
_EMPTY_TFS = np.zeros(0, dtype=np.float32)


def _respellable(term: str) -> bool:
    """Whether ``term`` may be another spelling of a plain word (accented, Greek, or hyphenated):
    the terms :meth:`KeywordIndex.spellings` keeps by their folded form."""
    return not term.isascii() or "-" in term


class KeywordIndex:
    """An inverted index scored with BM25. Chunk ids are small non-negative ints."""

    name = "keyword"

    def __init__(self, k1: float = BM25_K1, b: float = BM25_B, idf=lucene_idf) -> None:
        self.k1, self.b, self.idf = k1, b, idf
        # The block: term -> row, and CSR arrays by row.
        self._rows: dict[str, int] = {}
        self._offsets = np.zeros(1, dtype=np.int64)
        self._ids = _EMPTY_IDS
        self._tfs = _EMPTY_TFS
        self._block_docs = np.zeros(0, dtype=bool)  # chunk id -> its postings are in the block, alive
        self._tombstones = 0  # block chunks removed since the block was made
        # Additions since the block: chunk id -> its terms; the newest as pending rows (chunk id ->
        # tfs in the order of its terms: 4 bytes a posting), turned into term -> {chunk id: tf}
        # only when a query needs them. A bulk build never does: save() sorts the pending rows
        # straight into the block, and a dict of dicts (~100 bytes a posting) is never built.
        self._postings: dict[str, dict[int, float]] = {}
        self._pending: dict[int, array] = {}
        self._doc_terms: dict[int, tuple[str, ...]] = {}
        self._n_block = 0  # live chunks in the block
        self._doc_len = np.zeros(0, dtype=np.float32)
        self._total_len = 0.0
        self._cache: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        # Every term, one a line, for finding a lone character's bigrams (:meth:`_bigrams_of`): made
        # when a query first holds one; terms that arrive later wait in the list until the next.
        self._term_lines: str | None = None
        self._unlined_terms: list[str] = []
        # The accented and hyphenated terms by their folded form (:meth:`spellings`): made when a
        # query first asks, dropped when a new such term arrives.
        self._folded: dict[str, list[str]] | None = None

    def __len__(self) -> int:
        return self._n_block + len(self._doc_terms)

    def __contains__(self, chunk_id: int) -> bool:
        return chunk_id in self._doc_terms or self._in_block(chunk_id)

    def _in_block(self, chunk_id: int) -> bool:
        return 0 <= chunk_id < len(self._block_docs) and bool(self._block_docs[chunk_id])

    # -- updates ---------------------------------------------------------------------------
    def add(self, chunk_id: int, term_weights: Mapping[str, float]) -> None:
        """Index one chunk from its term -> (weighted) frequency map; replaces an earlier version."""
        self.add_packed(chunk_id, pack_terms(term_weights))

    def add_packed(self, chunk_id: int, packed: PackedTerms) -> None:
        """:meth:`add` from :func:`pack_terms` (what a chunking process sends back)."""
        terms, tfs, length = packed
        if chunk_id in self._doc_terms or self._in_block(chunk_id):
            self.remove(chunk_id)
        if chunk_id >= len(self._doc_len):
            grown = np.zeros(max(chunk_id + 1, 2 * len(self._doc_len), 64), dtype=np.float32)
            grown[: len(self._doc_len)] = self._doc_len
            self._doc_len = grown
        self._doc_len[chunk_id] = length
        self._total_len += length
        self._doc_terms[chunk_id] = terms
        self._pending[chunk_id] = tfs

    def _flush(self) -> None:
        """Pending rows into the per-term additions, oldest first (a query is about to read them)."""
        postings, cache = self._postings, self._cache
        lining = self._term_lines is not None
        for chunk_id, tfs in self._pending.items():
            for term, tf in zip(self._doc_terms[chunk_id], tfs, strict=True):
                posting = postings.get(term)
                if posting is None:
                    posting = postings[term] = {}
                    if lining:
                        self._unlined_terms.append(term)
                    if _respellable(term):
                        self._folded = None
                posting[chunk_id] = tf
                if cache:
                    self._uncache(term)
        self._pending.clear()

    def _uncache(self, term: str) -> None:
        cache = self._cache
        cache.pop(term, None)
        if len(term) == 2:  # a lone character's postings are made of its bigrams'
            cache.pop(term[0], None)
            cache.pop(term[1], None)

    def remove(self, chunk_id: int) -> None:
        if self._pending.pop(chunk_id, None) is not None:
            # Never flushed, so in no posting and no cached array: its terms simply go.
            del self._doc_terms[chunk_id]
            self._total_len -= float(self._doc_len[chunk_id])
            self._doc_len[chunk_id] = 0.0
            return
        terms = self._doc_terms.pop(chunk_id, None)
        if terms is None:
            if not self._in_block(chunk_id):
                return
            # A tombstone: the block's postings of this chunk stop counting; every cached term
            # array may hold it, so the cache goes (the next save compacts the block).
            self._block_docs[chunk_id] = False
            self._n_block -= 1
            self._tombstones += 1
            self._cache.clear()
        else:
            for term in terms:
                posting = self._postings.get(term)
                if posting is not None:
                    posting.pop(chunk_id, None)
                    if not posting:
                        del self._postings[term]
                self._uncache(term)
        self._total_len -= float(self._doc_len[chunk_id])
        self._doc_len[chunk_id] = 0.0

    # -- queries ---------------------------------------------------------------------------
    def _posting_arrays(self, term: str) -> tuple[np.ndarray, np.ndarray] | None:
        """(chunk ids, term frequencies) of the chunks holding ``term``; a lone character of unspaced
        script stands for the bigrams that hold it (:meth:`_character_postings`)."""
        if self._pending:
            self._flush()
        cached = self._cache.get(term)
        if cached is None:
            found = (
                self._character_postings(term)
                if len(term) == 1 and is_unspaced_character(term)
                else self._term_postings(term)
            )
            if found is None:
                return None
            if len(self._cache) >= MAX_CACHED_TERMS:
                self._cache.clear()
            cached = self._cache[term] = found
        return cached

    def _term_postings(self, term: str) -> tuple[np.ndarray, np.ndarray] | None:
        """The postings the index holds under ``term`` itself, block and additions together."""
        row = self._rows.get(term)
        posting = self._postings.get(term)
        if row is None and not posting:
            return None
        ids, tfs = _EMPTY_IDS, _EMPTY_TFS
        if row is not None:
            lo, hi = int(self._offsets[row]), int(self._offsets[row + 1])
            ids, tfs = self._ids[lo:hi], self._tfs[lo:hi]
            if self._tombstones:
                alive = self._block_docs[ids]
                ids, tfs = ids[alive], tfs[alive]
        if posting:
            ids = np.concatenate((ids, np.fromiter(posting.keys(), dtype=np.int64, count=len(posting))))
            tfs = np.concatenate((tfs, np.fromiter(posting.values(), dtype=np.float32, count=len(posting))))
        if not len(ids):
            return None
        return ids, tfs

    def _character_postings(self, char: str) -> tuple[np.ndarray, np.ndarray] | None:
        """A lone character of unspaced script (a query of 猫, 駅) as one term: every chunk holding
        a bigram of it, or the character as a run by itself.

        Documents hold such scripts as bigrams only (a unigram index would double their postings),
        so a query of one character would meet nothing. Read as one word, its idf is that of the
        chunks holding it and its frequency in a chunk is counted from its bigrams: each occurrence
        begins a bigram or ends one (a run's last character only ends one, its first only begins
        one), so the larger of the two counts is the character's, but for a run's edge.
        """
        parts = [
            (found, term[0] == char, term[-1] == char)
            for term in (char, *self._bigrams_of(char))
            if (found := self._term_postings(term)) is not None
        ]
        if not parts:
            return None
        ids = np.concatenate([found[0] for found, _, _ in parts])
        tfs = np.concatenate([found[1] for found, _, _ in parts]).astype(np.float64)
        lengths = [len(found[0]) for found, _, _ in parts]
        begins = np.repeat([first for _, first, _ in parts], lengths)
        ends = np.repeat([last for _, _, last in parts], lengths)
        began = np.bincount(ids, weights=tfs * begins, minlength=len(self._doc_len))
        ended = np.bincount(ids, weights=tfs * ends, minlength=len(self._doc_len))
        chunk_ids = np.flatnonzero(np.bincount(ids, minlength=len(self._doc_len))).astype(np.int64)
        return chunk_ids, np.maximum(began[chunk_ids], ended[chunk_ids]).astype(np.float32)

    def _bigrams_of(self, char: str) -> list[str]:
        """The index's bigrams of unspaced script that hold ``char``, in sorted order.

        Found by ``str.find`` over all terms one a line (a C scan; a Python loop over a vault's
        hundreds of thousands of terms costs a second), read only where ``char`` occurs: such a
        character stands in no term but its bigrams and itself (identifiers end where it begins).
        """
        if self._term_lines is None:
            # Two line breaks at each end: a character's neighbours two places off are always there.
            self._term_lines = "\n\n" + "\n".join(chain(self._rows, self._postings)) + "\n\n"
            self._unlined_terms = []
        elif self._unlined_terms:
            self._term_lines += "\n".join(self._unlined_terms) + "\n\n"
            self._unlined_terms = []
        lines = self._term_lines
        found: set[str] = set()
        at = lines.find(char)
        while at >= 0:
            if lines[at - 1] == "\n" and lines[at + 2] == "\n":  # the bigram it begins
                found.add(lines[at : at + 2])
            if lines[at + 1] == "\n" and lines[at - 2] == "\n":  # the bigram it ends
                found.add(lines[at - 1 : at + 1])
            at = lines.find(char, at + 1)
        return sorted(
            term for term in found if is_unspaced_character(term[0]) and is_unspaced_character(term[1])
        )

    def scores(self, query_terms: Iterable[str] | Mapping[str, float]) -> np.ndarray:
        """BM25 score of every chunk id (0 where no term matched).

        ``query_terms`` is the query's terms (a repeat counts again) or a term -> weight map
        (:func:`memsearch.query_terms.term_weights`), which scales each term's part of the score.
        """
        n_docs = len(self)
        out = np.zeros(len(self._doc_len), dtype=np.float32)
        if n_docs == 0:
            return out
        avgdl = max(self._total_len / n_docs, 1e-9)
        k1, b = self.k1, self.b
        weighted = query_terms if isinstance(query_terms, Mapping) else _counts(query_terms)
        for term, qtf in weighted.items():
            arrays = self._posting_arrays(term)
            if arrays is None:
                continue
            ids, tfs = arrays
            idf = self.idf(n_docs, len(ids))
            norm = k1 * (1.0 - b + b * self._doc_len[ids] / avgdl)
            out[ids] += qtf * idf * tfs * (k1 + 1.0) / (tfs + norm)
        return out

    def scores_of(self, query_terms: Mapping[str, float], chunk_ids: np.ndarray) -> np.ndarray:
        """BM25 scores of ``chunk_ids`` only (0 for one this index does not hold), with this
        index's own statistics (document count, idf, average length): the same figures
        :meth:`scores` gives them. For candidates another engine found with other statistics (a
        Milvus collection shared by many vaults)."""
        ids = np.asarray(chunk_ids, dtype=np.int64)
        out = np.zeros(len(ids), dtype=np.float32)
        n_docs = len(self)
        if n_docs == 0 or not len(ids):
            return out
        # where each candidate sits in ``out`` (-1: not a candidate), read through a posting's ids
        slot = np.full(len(self._doc_len), -1, dtype=np.int64)
        known = (ids >= 0) & (ids < len(slot))
        slot[ids[known]] = np.flatnonzero(known)
        avgdl = max(self._total_len / n_docs, 1e-9)
        k1, b = self.k1, self.b
        for term, qtf in query_terms.items():
            arrays = self._posting_arrays(term)
            if arrays is None:
                continue
            posting_ids, tfs = arrays
            idf = self.idf(n_docs, len(posting_ids))
            where = slot[posting_ids]
            hit = where >= 0
            if not hit.any():
                continue
            hit_ids, hit_tfs = posting_ids[hit], tfs[hit]
            norm = k1 * (1.0 - b + b * self._doc_len[hit_ids] / avgdl)
            out[where[hit]] += qtf * idf * hit_tfs * (k1 + 1.0) / (hit_tfs + norm)
        return out

    def term_idf(self, term: str) -> float:
        """The idf of ``term`` in this index; a term no chunk holds counts as the rarest."""
        n_docs = len(self)
        arrays = self._posting_arrays(term) if n_docs else None
        return self.idf(n_docs, 0 if arrays is None else len(arrays[0]))

    def holds(self, term: str) -> bool:
        """Whether any chunk holds ``term``."""
        return bool(len(self)) and self._posting_arrays(term) is not None

    def spellings(self, term: str) -> list[str]:
        """The terms chunks hold that differ from ``term`` only in accents or hyphens, sorted:
        "vänern" for "vanern", "vanern" for "vänern", "wi-fi" for "wifi", "email" for "e-mail"
        (:func:`memsearch.tokenize.fold_spelling`)."""
        if not len(self):
            return []
        bare = fold_spelling(term)
        found = {bare} if bare != term and self.holds(bare) else set()
        if self._pending:
            self._flush()
        folded = self._folded
        if folded is None:
            folded = self._folded = {}
            for held in chain(self._rows, self._postings):
                if _respellable(held):
                    folded.setdefault(fold_spelling(held), []).append(held)
        # a term of removed chunks only may linger in the table: held is what counts
        found.update(
            spelling for spelling in folded.get(bare, ()) if spelling != term and self.holds(spelling)
        )
        return sorted(found)

    def chunks_holding(self, term: str, limit: int) -> list[int]:
        """Up to ``limit`` of the chunks that hold ``term`` (the first in the index's order)."""
        arrays = self._posting_arrays(term) if len(self) else None
        return [] if arrays is None else arrays[0][:limit].tolist()

    def query_weight(self, query_terms: Mapping[str, float]) -> tuple[float, float]:
        """(total, missing): the query's weight (each term's weight times its idf) and the part of
        it in terms no chunk holds (they count at the highest idf: the rarest word of all).

        ``total`` is also the score of a chunk of average length holding every term once, so a
        hit's score over it is how much of the query it covers. Of a name the query writes and its
        gloss (:class:`~memsearch.query_terms.TermWeights`: 王磊 and the "Wang Lei" a note's aliases
        make of it), a term no chunk holds counts as missing only in the share its other spelling's
        terms are missing too: the word is in the vault under the other.
        """
        n_docs = len(self)
        total = missing = 0.0
        found = {term: self._posting_arrays(term) if n_docs else None for term in query_terms}
        # Unspaced script is cut into bigrams, and those that cross a word boundary (签名密钥多久:
        # 钥多) are in no text. A missing bigram counts for its characters that no bigram of the
        # query the vault holds (or its question form: 多久) holds too; nor for its hiragana beside
        # such a character: Japanese writes its grammar in hiragana (東京の会議は: の, は).
        held = {
            ch
            for term, arrays in found.items()
            if is_character_bigram(term) and (arrays is not None or query_terms[term] < 1.0)
            for ch in term
        }
        spelled_otherwise = _spelled_otherwise(query_terms, found)
        for term, weight in query_terms.items():
            arrays = found[term]
            part = weight * self.idf(n_docs, 0 if arrays is None else len(arrays[0]))
            total += part
            if arrays is None:
                if is_character_bigram(term):
                    part *= (
                        sum(
                            # a character bigram is two characters: unpacked as a pair
                            ch not in held and not (is_hiragana(ch) and other in held)  # type: ignore[str-unpack]
                            for ch, other in (term, term[::-1])
                        )
                        / 2
                    )
                missing += part * spelled_otherwise.get(term, 1.0)
        return total, missing

    def search(
        self,
        query_terms: list[str] | Mapping[str, float],
        k: int,
        allowed: np.ndarray | None = None,
        tie_key: Callable[[np.ndarray], np.ndarray] | None = None,
    ) -> list[Hit]:
        """Top-k chunks by BM25; ``allowed`` is a boolean mask over chunk ids (filters);
        ``tie_key`` breaks ties (:func:`top_hits`)."""
        scores = self.scores(query_terms)
        if allowed is not None:
            scores = np.where(fit_mask(allowed, len(scores)), scores, 0.0)
        return top_hits(scores, k, tie_key)

    # -- persistence -----------------------------------------------------------------------
    def _compacted(self) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(terms sorted, offsets, ids, tfs, doc ids): the block and the additions as one block.

        Within a term, the block's live postings come first, then additions in the order they were
        added; doc ids are the block's live chunks in id order, then additions in the order they were
        added. The block is never sorted again: additions are sorted by term (a small sort after an
        update) and inserted at the end of their term's run.
        """
        block_terms = sorted(self._rows, key=self._rows.__getitem__)
        offsets = self._offsets
        ids, tfs = self._ids, self._tfs
        if self._tombstones and len(ids):
            alive = self._block_docs[ids]
            kept = np.zeros(len(ids) + 1, dtype=np.int64)
            np.cumsum(alive, out=kept[1:])
            counts_b = kept[offsets[1:]] - kept[offsets[:-1]]
            ids, tfs = ids[alive], tfs[alive]
        else:
            counts_b = np.diff(offsets)
        if not self._postings and not self._pending:
            terms, counts = block_terms, counts_b
        else:
            pending_terms = set(chain.from_iterable(self._doc_terms[c] for c in self._pending))
            terms = sorted(set(block_terms).union(self._postings, pending_terms))
            where = {term: i for i, term in enumerate(terms)}
            counts = np.zeros(len(terms), dtype=np.int64)
            remap = np.fromiter((where[t] for t in block_terms), dtype=np.int64, count=len(block_terms))
            counts[remap] = counts_b
            ends = np.zeros(len(terms) + 1, dtype=np.int64)  # end of each term's block run, in `ids`
            np.cumsum(counts, out=ends[1:])
            rows, add_ids, add_tfs = self._flushed_rows(where)
            p_rows, p_ids, p_tfs = self._pending_rows(where)
            if len(p_rows):  # pending rows are newer: after the flushed ones of the same term
                at = np.searchsorted(rows, p_rows, side="right")
                rows, add_ids, add_tfs = (
                    np.insert(rows, at, p_rows),
                    np.insert(add_ids, at, p_ids),
                    np.insert(add_tfs, at, p_tfs),
                )
            counts += np.bincount(rows, minlength=len(terms))
            if len(ids):
                at = ends[rows + 1]
                ids, tfs = np.insert(ids, at, add_ids), np.insert(tfs, at, add_tfs)
            else:  # a first build: the additions are the block
                ids, tfs = add_ids, add_tfs
        if len(terms) and not counts.all():  # terms left without postings are dropped
            keep = np.flatnonzero(counts)
            terms = [terms[i] for i in keep.tolist()]
            counts = counts[keep]
        offsets = np.zeros(len(terms) + 1, dtype=np.int64)
        np.cumsum(counts, out=offsets[1:])
        block_docs = np.flatnonzero(self._block_docs).astype(np.int64)
        added_docs = np.fromiter(self._doc_terms.keys(), dtype=np.int64, count=len(self._doc_terms))
        return terms, offsets, ids, tfs, np.concatenate((block_docs, added_docs))

    def _flushed_rows(self, where: dict[str, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(term rows, ids, tfs) of the per-term additions, by term, each term's in insertion order."""
        n = sum(len(p) for p in self._postings.values())
        rows = np.empty(n, dtype=np.int64)
        ids = np.empty(n, dtype=np.int64)
        tfs = np.empty(n, dtype=np.float32)
        lo = 0
        for term in sorted(self._postings):
            posting = self._postings[term]
            hi = lo + len(posting)
            rows[lo:hi] = where[term]
            ids[lo:hi] = np.fromiter(posting.keys(), dtype=np.int64, count=len(posting))
            tfs[lo:hi] = np.fromiter(posting.values(), dtype=np.float32, count=len(posting))
            lo = hi
        return rows, ids, tfs

    def _pending_rows(self, where: dict[str, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(term rows, ids, tfs) of the pending rows, sorted by term (stable: insertion order within)."""
        chunk_ids = list(self._pending)
        lengths = [len(self._pending[c]) for c in chunk_ids]
        n = sum(lengths)
        terms = chain.from_iterable(self._doc_terms[c] for c in chunk_ids)
        rows = np.fromiter(map(where.__getitem__, terms), dtype=np.int32, count=n)
        order = np.argsort(rows, kind="stable")
        rows = rows[order].astype(np.int64)
        ids = np.repeat(np.asarray(chunk_ids, dtype=np.int64), lengths)[order]
        tfs = np.frombuffer(b"".join(self._pending[c].tobytes() for c in chunk_ids), dtype=np.float32)[order]
        return rows, ids, tfs

    def save(self, path: Path) -> None:
        terms, offsets, ids, tfs, doc_ids = self._compacted()
        # Chunk ids fit 32 bits for any vault one machine holds: half the file (readers widen them).
        id_type = np.int32 if (not len(ids) or int(ids.max()) < 2**31 - 1) else np.int64
        with open(path, "wb") as fh:
            np.savez(
                fh,
                terms=np.array(terms, dtype=object).astype(str) if terms else np.zeros(0, dtype="<U1"),
                offsets=offsets,
                ids=ids.astype(id_type),
                tfs=tfs,
                doc_ids=doc_ids,
                doc_len=self._doc_len,
                params=np.array([self.k1, self.b], dtype=np.float64),
            )

    @classmethod
    def load(cls, path: Path) -> KeywordIndex:
        with np.load(path, allow_pickle=False) as data:
            k1, b = (float(x) for x in data["params"])
            index = cls(k1=k1, b=b)
            terms = data["terms"].tolist()
            index._offsets = np.asarray(data["offsets"], dtype=np.int64)
            index._ids = np.asarray(data["ids"], dtype=np.int64)
            index._tfs = np.asarray(data["tfs"], dtype=np.float32)
            index._doc_len = np.asarray(data["doc_len"], dtype=np.float32)
            doc_ids = np.asarray(data["doc_ids"], dtype=np.int64)
        if len(terms) + 1 != len(index._offsets) or int(index._offsets[-1]) != len(index._ids):
            raise ValueError("keyword.npz: offsets do not match terms and postings")
        index._rows = {term: i for i, term in enumerate(terms)}
        size = max(len(index._doc_len), int(doc_ids.max()) + 1 if len(doc_ids) else 0)
        index._block_docs = np.zeros(size, dtype=bool)
        index._block_docs[doc_ids] = True
        index._n_block = len(doc_ids)
        # Summed one by one in saved order, as the chunks were once added: the same avgdl to the bit.
        index._total_len = float(sum(index._doc_len[doc_ids].astype(np.float64).tolist()))
        return index


def _spelled_otherwise(query_terms: Mapping[str, float], found: Mapping[str, object]) -> dict[str, float]:
    """For each term of a name and its gloss (:class:`~memsearch.query_terms.TermWeights`), the
    share of the other spelling's terms that no chunk holds: the least, if it is in several."""
    if not isinstance(query_terms, TermWeights):
        return {}
    shares: dict[str, float] = {}
    for written, gloss in query_terms.alternatives:
        for side, other in ((written, gloss), (gloss, written)):
            share = sum(found.get(term) is None for term in other) / len(other)
            for term in side:
                shares[term] = min(shares.get(term, 1.0), share)
    return shares


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


def top_hits(
    scores: np.ndarray, k: int, tie_key: Callable[[np.ndarray], np.ndarray] | None = None
) -> list[Hit]:
    """The k best positive scores as hits, best first.

    Ties are broken by ``tie_key`` (chunk ids -> sortable keys that do not depend on the order
    chunks were indexed in, such as their place in the vault) where given, else by chunk id. With
    a key, which of several hits tied at the k-th score make the list is decided by it too: an
    index built file by file and one built at once give the same list.
    """
    positive = np.flatnonzero(scores > 0)
    if len(positive) == 0 or k <= 0:
        return []
    if len(positive) > k:
        if tie_key is None:
            part = np.argpartition(-scores[positive], k - 1)[:k]
            positive = positive[part]
        else:
            values = scores[positive]
            kth = -np.partition(-values, k - 1)[k - 1]
            above, tied = positive[values > kth], positive[values == kth]
            if len(above) + len(tied) > k:  # the cut runs through a tie: the key decides who stays
                tied = tied[np.argsort(tie_key(tied), kind="stable")]
            positive = np.concatenate((above, tied[: k - len(above)]))
    values = scores[positive]
    order = np.lexsort((positive, -values))
    positive, values = positive[order], values[order]
    if tie_key is not None and len(positive) > 1 and bool(np.any(values[1:] == values[:-1])):
        # Equal scores in the key's order: one sort over the list, the score first (the key is a
        # total order of places, so it orders each run of ties as sorting that run alone would).
        order = np.lexsort((tie_key(positive), -values))
        positive, values = positive[order], values[order]
    return list(map(Hit, positive.tolist(), values.tolist()))
