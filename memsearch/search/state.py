"""One query against one loaded index: what every stage of the search reads (:class:`Asked`), what the
retrieve stage found (:class:`Found`) and each list's weight (:class:`Weighed`)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from memsearch.config import Settings
from memsearch.index.in_memory import IndexData
from memsearch.links import Anchor
from memsearch.models import Hit
from memsearch.query import ParsedQuery
from memsearch.retrieval import BackendCall
from memsearch.search.places import Places
from memsearch.tokenize import text_language

STRATEGIES: tuple[str, ...] = ("semantic", "keyword", "graph", "time")
#: A query vector's ranked list is named by its modality after this ("vector:audio"): one more
#: list of the fusion for each modality a query carries (docs/notebook.md).
MODAL_LIST = "vector:"


class IndexVocabulary:
    """The index's keyword terms, and the languages of the chunks that hold them
    (:class:`memsearch.query_terms.Vocabulary`)."""

    #: Chunks read to tell a term's language: the first few that hold it say it.
    CHUNKS_READ = 16

    def __init__(self, index: IndexData) -> None:
        self.index = index

    def holds(self, term: str) -> bool:
        return self.index.keyword.holds(term)

    def spellings(self, term: str) -> list[str]:
        return self.index.keyword.spellings(term)

    def held_in(self, term: str, language: str) -> bool:
        chunks = self.index.chunks
        return any(
            cid in chunks and text_language(chunks[cid].text) == language
            for cid in self.index.keyword.chunks_holding(term, self.CHUNKS_READ)
        )


@dataclass
class QueryEmbedding:
    """The query's vector, or why there is none."""

    vector: np.ndarray | None
    error: str | None = None
    skipped: str | None = None
    ms: float = 0.0


@dataclass
class Asked:
    """One query against one loaded index: what every stage reads and none changes."""

    index: IndexData
    parsed: ParsedQuery
    settings: Settings
    backend: BackendCall
    allowed: np.ndarray | None  # what the filters allow (None: everything)
    vocabulary: IndexVocabulary

    @property
    def top_n(self) -> int:
        return self.settings.top_n

    @cached_property
    def places(self) -> Places:  # read once a query: the fusion breaks its ties one chunk at a time
        return Places.of(self.index)

    def vault_order(self, ids: np.ndarray) -> np.ndarray:
        """Where each chunk stands in the vault (path, then line): the same whatever order the
        index was built in, so ties break the same way after an incremental update and a rebuild."""
        return self.places.order(ids)

    def chunk_order(self, chunk_id: int) -> tuple[int, int, int]:
        return self.places.place(chunk_id)


@dataclass
class Found:
    """What the retrieve stage found: each strategy's list and its weight for this query where it
    is not 1, what ran and why the others did not, and what the lists told about the query (read by
    the fusion and the signal)."""

    lists: dict[str, list[Hit]] = field(default_factory=dict)
    weights: dict[str, float] = field(default_factory=dict)
    ran: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    #: The keyword terms and their weights (empty when the keyword strategy did not run).
    query_weights: dict[str, float] = field(default_factory=dict)
    form_only: bool = False  # the keyword text holds only the question's form
    keyword_coverage: float | None = None  # how much of the query's informative weight its head holds
    beyond_names: float | None = None  # the keyword head's share of what the query asks beyond its names
    head_lacks_rarest: bool = False  # ... and whether it lacks the rarest word of that (_lacks_rarest)
    missing_share: float | None = None  # of the query's own words' weight, in words the vault lacks
    identifiers_held: int = 0  # identifiers the query writes that the vault holds whole
    identifiers_missing: int = 0  # ... and those it does not
    anchors: dict[int, Anchor] = field(default_factory=dict)  # the links on the text lists' heads
    seeds: list[str] = field(default_factory=list)  # the entities the graph walk starts from


@dataclass
class Weighed:
    """Each list's weight in the fusion: its base weight (the strategy's, times what the query
    says of it) times its confidence for this query (mean 1 over the text lists)."""

    base: dict[str, float]
    confidence: dict[str, float]
    weights: dict[str, float]
    partial: bool  # the keyword head matches the query in part (fusion.partial_match)
    standout: float | None  # sd the best cosine stands above the query's cosine to the vault


def elapsed_ms(since: float) -> float:
    return (time.perf_counter() - since) * 1000.0
