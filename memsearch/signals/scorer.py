"""How close one chunk is to one standing query, on an absolute 0..1 scale (see :class:`Scorer`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from memsearch.embedders.choice import embedder_for
from memsearch.index.in_memory import IndexData
from memsearch.index.keyword import lucene_idf
from memsearch.models import Chunk
from memsearch.signals.interests import Interest
from memsearch.tokenize import tokenize

#: A query's vector, or why there is none: ``embed_query(text) -> (vector or None, error or None)``.
QueryVector = Callable[[str], tuple[np.ndarray | None, str | None]]


def query_embedder(index: IndexData, vault: Path | None) -> QueryVector:
    """Query vectors from the embedder ``index`` was built with, made on first use; never those of
    another embedder (a fingerprint that differs is an error, not a comparison of two spaces)."""
    info = index.manifest.get("embedder") or {}
    made: list[Any] = []

    def embed(text: str) -> tuple[np.ndarray | None, str | None]:
        if not info.get("fingerprint") or not info.get("spec"):
            return None, "the index records no embedder"
        try:
            if not made:
                made.append(embedder_for(str(info["spec"]), vault))
            embedder = made[0]
            if embedder.fingerprint != info["fingerprint"]:
                return None, (
                    f"the index was built with embedder {info.get('spec')} ({info['fingerprint']}),"
                    f" not {embedder.fingerprint}; run `memsearch index VAULT`"
                )
            return np.asarray(embedder.embed_query(text), dtype=np.float32), None
        except Exception as exc:  # the embedder is a soft seam here too
            return None, f"the embedder did not answer ({type(exc).__name__}: {exc})"

    return embed


@dataclass(frozen=True)
class Match:
    """One chunk scored against one interest: ``score`` is what the threshold is compared with."""

    chunk_id: int
    chunk: Chunk
    score: float  # 1 - (1 - meaning) * (1 - wording / 2), in 0..1
    meaning: float  # cosine similarity above the query's noise floor, rescaled to 0..1
    wording: float  # share of the query's terms (rare ones weigh more) the chunk contains
    cosine: float | None  # the raw cosine (None without vectors)


class Scorer:
    """Scores chunks against a standing query directly, on an absolute 0..1 scale.

    A search score (memory_search's) is relative: the best hit of any query scores high even when
    nothing in the vault is about it, and it moves when fusion is tuned. A standing interest needs
    "is this memory about what I wait for?", so each new chunk is scored on its own:

    - meaning: the cosine of the query and the chunk, above the query's *noise floor* (its median
      cosine with the vault's memories), rescaled so the floor is 0 and identity is 1. The floor
      makes one threshold fit any embedder (MiniLM's unrelated pairs sit near 0.1, nomic's near 0.4).
    - wording: the share of the query's terms the chunk contains, each weighted by its idf, so a
      rare name or identifier counts more than a common word.

    ``score = 1 - (1 - meaning) * (1 - wording / 2)``: either alone can reach 0.5 (a close paraphrase;
    every word of the query), both together go higher, and a stray shared word stays low.
    """

    FLOOR_SAMPLE = 2000  # vectors sampled for the median: enough for a stable floor at any size

    def __init__(
        self,
        index: IndexData,
        embed_query: QueryVector,
        exclude: set[int] | None = None,
        chunks: Mapping[int, Chunk] | None = None,
    ) -> None:
        self.index = index
        self.embed_query = embed_query
        #: The chunks scored (a copy taken by the caller when the index may change meanwhile).
        self.chunks = index.chunks if chunks is None else chunks
        self.vectors: Mapping[int, np.ndarray] | None = (
            index.vectors.by_id if index.vectors is not None else None
        )
        self._floor_ids: list[int] = []
        self._sample: Any = None  # the floor's vectors, stacked on first use
        if self.vectors:
            ids = sorted(i for i in self.vectors if i not in (exclude or set())) or sorted(self.vectors)
            if len(ids) > self.FLOOR_SAMPLE:
                picks = np.linspace(0, len(ids) - 1, self.FLOOR_SAMPLE).astype(int)
                ids = [ids[i] for i in picks]
            self._floor_ids = ids
        self.n_docs = len(self.index.keyword)

    def query_vector(self, text: str) -> tuple[Any, str | None]:
        if not self.vectors:
            return None, "the index has no vectors"
        try:
            return self.embed_query(text)
        except Exception as exc:  # the embedder is a soft seam here too
            return None, f"{type(exc).__name__}: {exc}"

    def score(self, interest: Interest, chunk_ids: list[int]) -> tuple[list[Match], str | None]:
        """Every allowed chunk of ``chunk_ids`` scored against ``interest``, best first."""
        allowed = [cid for cid in chunk_ids if _passes(self.chunks[cid], interest)]
        if not allowed:
            return [], None
        vector, semantic_error = self.query_vector(interest.query)
        floor = 0.0
        if vector is not None and self._floor_ids:
            if self._sample is None:
                assert self.vectors is not None  # the floor's ids were drawn from the vectors
                self._sample = np.stack([self.vectors[i] for i in self._floor_ids])
            floor = float(np.median(self._sample @ vector))
        terms = set(tokenize(interest.query))
        weights = {}
        for term in terms:
            df = int(np.count_nonzero(self.index.keyword.scores([term]))) if self.n_docs else 0
            weights[term] = lucene_idf(max(self.n_docs, 1), df)
        total = sum(weights.values())
        matches = []
        for cid in allowed:
            chunk = self.chunks[cid]
            cosine = meaning = None
            # (query_vector gives a vector only where the index has vectors: the middle test always holds)
            if vector is not None and self.vectors is not None and cid in self.vectors:
                cosine = float(self.vectors[cid] @ vector)
                meaning = min(1.0, max(0.0, (cosine - floor) / max(1.0 - floor, 1e-6)))
            have = set(tokenize(f"{chunk.header}\n{chunk.text}"))
            wording = sum(w for t, w in weights.items() if t in have) / total if total > 0 else 0.0
            score = 1.0 - (1.0 - (meaning or 0.0)) * (1.0 - wording / 2.0)
            matches.append(
                Match(
                    cid,
                    chunk,
                    round(score, 4),
                    round(meaning or 0.0, 4),
                    round(wording, 4),
                    None if cosine is None else round(cosine, 4),
                )
            )
        matches.sort(key=lambda m: (-m.score, m.chunk_id))
        return matches, semantic_error


def _passes(chunk: Chunk, interest: Interest) -> bool:
    if interest.fact_type and chunk.fact_type != interest.fact_type:
        return False
    if interest.territory:
        prefix = interest.territory.lstrip("./")
        if not (chunk.path.startswith(prefix) or chunk.territory == prefix.rstrip("/")):
            return False
    return True
