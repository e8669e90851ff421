"""Search the index: four strategies, fused, grouped into ranked pointers."""

from __future__ import annotations

import bisect
import math
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property
from typing import Any

import numpy as np

from memsearch.config import Settings
from memsearch.embedders.base import MULTILINGUAL_EMBEDDER, MULTILINGUAL_INSTALL, is_multilingual
from memsearch.errors import QueryError
from memsearch.fusion import (
    Fused,
    FusedList,
    follow_head_links,
    graph_lead,
    lift_replies,
    list_confidence,
    max_possible,
    partial_match,
    rrf,
    semantic_lead,
    walk_aside,
)
from memsearch.index.backend import Retrieval
from memsearch.index.in_memory import IndexData
from memsearch.index.vectors import VectorIndex
from memsearch.languages import DEFAULT as DEFAULT_LANGUAGE
from memsearch.languages import display_name
from memsearch.links import BRIDGES, Anchor, anchor_hits, follow_links, names_a_note
from memsearch.models import (
    Health,
    Hit,
    Result,
    SearchResponse,
    Signal,
    chunk_priors,
    entry_dated,
    importance_prior,
)
from memsearch.query import Filters, ParsedQuery
from memsearch.query_terms import (
    asks_about_self,
    asks_for_current,
    asks_for_event,
    identifiers,
    informative,
    term_weights,
    without_names,
)
from memsearch.resonance import NONE, Evidence, judge
from memsearch.retrieval import BackendCall
from memsearch.scripts import WRITTEN_IN_SHARE, main_script, script_shares
from memsearch.speakers import (
    ASKING_HEAD,
    ASKING_WEIGHT,
    REPLY_WEIGHT,
    SPEAKER_WEIGHT,
    might_ask,
    transcript_replies,
    transcript_speakers,
)
from memsearch.tokenize import language_of, text_language, tokenize

STRATEGIES: tuple[str, ...] = ("semantic", "keyword", "graph", "time")
#: A query vector's ranked list is named by its modality after this ("vector:audio"): one more
#: list of the fusion for each modality a query carries (docs/notebook.md).
MODAL_LIST = "vector:"
#: Recency with no date in the query is a prior, not evidence: it only reorders what the
#: other strategies found, at a fraction of their weight.
RECENCY_PRIOR_WEIGHT = 0.25
#: A window of this many days or more weighs like any other list; a narrower one weighs more, up to
#: twice for a single day. On LoCoMo a flat weight of 2 cost 2.7 points of any@10: a month named in a
#: question ("camping in June") is often told about in a later session, while a named day is exact.
WINDOW_FULL_WEIGHT_DAYS = 30.0


def window_weight(start: datetime, end: datetime) -> float:
    """1 for windows of a month or wider, rising log-linearly to 2 for a single day."""
    days = max((end - start).total_seconds() / 86_400.0, 1.0)
    if days >= WINDOW_FULL_WEIGHT_DAYS:
        return 1.0
    return 1.0 + math.log(WINDOW_FULL_WEIGHT_DAYS / days) / math.log(WINDOW_FULL_WEIGHT_DAYS)


#: A query whose only informative part is its window ("what happened last week?") weighs the time
#: list this much more: once the window is stripped, keyword and semantic search can only match the
#: question's form, so the one list that answers weighs as much as those two.
WINDOW_ONLY_WEIGHT = 2.0
#: ... and the semantic list weighs nothing: the query's vector holds only the question's form and
#: its date words ("what happened on March 26"), so its nearest passages are those that read like a
#: question, in any year: it put a 2024 entry above the nearer past's 2025 one. Measured
#: (eval/run.py vault, 2026-12-04): temporal hit@1 0.680 -> 0.720 (own) and 0.792 -> 0.833
#: (shared), nothing else moved; at a quarter of its weight nothing moved at all.
WINDOW_ONLY_SEMANTIC_WEIGHT = 0.0

#: A question asking when something happened weighs dated entries up by this much.
EVENT_ENTRY_WEIGHT = 1.25

#: A question about the agent's own conduct or self ("how should I talk to Tobi", "am I allowed to
#: make jokes": query_terms.asks_about_self) weighs how close a memory is to the self more: each
#: territory's weight to this power (system 1.2 -> 1.73, covenant 1.3 -> 2.2, reference 1.1 -> 1.33,
#: archive 0.9 -> 0.73). Measured (eval/run.py vault, 2026-12-05) over the 21 such questions of both
#: agent vaults (19 territory, 2 entity chains): at 2, 3, 4 and 6 none falls; at 3 own territory
#: hit@3 0.917 -> 0.958 (tr-19 6th -> 3rd, tr-02 2nd -> 1st), shared te-23 3rd -> 2nd; LoCoMo and
#: SciFact unchanged. "Must I" is left out: both own questions asking it are practical ("how early
#: must I phone to be seen today"), and it put semantic alone's answer to one out of the first three.
SELF_QUESTION_POWER = 3.0

#: Territories of superseded material (DESIGN: the archive holds what was replaced): a question
#: about how things are now weighs them down, one about the past or a date does not.
SUPERSEDED_TERRITORIES = frozenset({"archive"})
SUPERSEDED_WEIGHT = 0.75

#: A keyword head holding at least this share of the query's weight is trusted as its drop says;
#: one holding less (a paraphrase, matched on a word or two) in proportion. Measured: scaling by the
#: share itself took 0.6 points of LoCoMo any@10 (its turns match most of a question's words, and
#: a head at 0.8 is not less right than one at 1.0); from half down, LoCoMo stays as it was.
WELL_COVERED = 0.5
#: The semantic lead (fusion.semantic_lead): a keyword head holding under WELL_COVERED of the query
#: whose list drops by at least KEYWORD_STEEP from first to tenth, while the semantic head stands
#: SEMANTIC_STANDS_OUT sd above the vault's background: semantic confidence at least SEMANTIC_LEAD,
#: keyword at most 2 - SEMANTIC_LEAD. Measured (eval/run.py, 2026-12-04): paraphrase hit@3 0.182 ->
#: 0.227 on the shared agent vault, 0.391 -> 0.522 on the own vault, no other class moved;
#: LoCoMo any@10 0.820 and SciFact nDCG@10 0.726 unchanged. Without the drop condition SciFact fell
#: 0.009 (claims that name a rare term: their keyword lists are flatter).
KEYWORD_STEEP = 0.5
SEMANTIC_STANDS_OUT = 3.0
SEMANTIC_LEAD = 1.25

#: The graph lead (fusion.graph_lead): a keyword head holding under WELL_COVERED of the query, and
#: an anchor on the text lists' heads that adds at least ANCHOR_ADDS of the query's weight to the
#: passage it reaches: the graph list weighs at least GRAPH_LEAD. Measured (eval/run.py, 2026-12-04):
#: entity_chain hit@3 0.208 -> 0.417 on the own vault (paraphrase 0.522 -> 0.478, one question;
#: overall 0.777 -> 0.801), the shared agent vault unchanged (0.863; entity_chain 0.957, alias
#: 0.818). Plateau: ANCHOR_ADDS 0.05-0.10 alike (0.15: 0.292), GRAPH_LEAD 1.25 (0.375) to 1.5;
#: 1.75 and 2 cost paraphrase and a shared territory question; 1.0 changes nothing.
#: The head may also hold under WELL_COVERED of what the query asks beyond the entity names it
#: writes (the project's own note matching "Harbour Loop" and little else). Measured (eval/run.py,
#: 2026-12-04): own vault entity_chain 0.417 -> 0.458, every other class of both vaults, LoCoMo
#: any@10 0.820 and SciFact nDCG@10 0.7255 unchanged; with the names' entity keys taken out too,
#: the shared vault's alias class fell 0.818 -> 0.773.
#: The head may also lack the rarest word of what the query asks beyond its names (its highest
#: idf, of the words the vault holds), when the query names no time. Measured (eval/run.py,
#: 2026-12-04): own vault entity_chain hit@3 0.625 -> 0.667 and update 0.909 -> 0.955 (overall
#: 0.843 -> 0.855, MRR@10 0.739 both, one alias 1st -> 2nd); the shared vault's hit@3 unchanged
#: (hit@10 0.888 -> 0.901, MRR@10 0.763 -> 0.765); LoCoMo any@10 0.822 and SciFact nDCG@10 0.7256
#: unchanged. With windowed questions too, shared temporal hit@3 1.000 -> 0.958 and an own one
#: 1st -> 3rd ("what came up about Chirp this month": what it asks beyond the name is its form).
ANCHOR_ADDS = 0.1
GRAPH_LEAD = 1.5

#: Link propagation (fusion.follow_head_links), on the graph lead's partial match: a passage a link
#: on one of the first LINKED_HEADS fused files reaches gains LINK_WEIGHT x the share of what the
#: query asks beyond its names that the link's anchor adds x that file's score (not the share of the
#: whole query: the hub's title is usually the name, and every link on it would add it alike).
#: Measured (eval/run.py, 2026-12-04): own vault entity_chain hit@3 0.542 -> 0.625 (eight chains
#: climb, none falls; overall 0.831 -> 0.843, MRR@10 0.725 -> 0.736); two own aliases go one place
#: down (2nd -> 3rd, 1st -> 2nd); the shared vault unchanged (0.870). Plateau: LINKED_HEADS 1 to 10
#: alike; LINK_WEIGHT 0.25 gains less, 0.75 and 1 cost a shared territory question. With the share
#: of the whole query, the shared vault's chains climbed too (MRR@10 0.804 -> 0.848) but an own
#: update went down; ungated, it cost the shared vault an alias and a territory question.
LINKED_HEADS = 3
LINK_WEIGHT = 0.5

#: Chunks whose territory weight a loaded index keeps between queries (started again past it).
KEPT_CHUNK_WEIGHTS = 65_536

#: How much of a passage its scripts are read from (its opening, like the query's own script).
SCRIPT_SAMPLE_CHARS = 300
#: The passages nearest in meaning read for their languages: whether an English-only embedder is
#: reading mostly other languages, or a multilingual one found a passage in another script.
NEAREST_READ = 10

#: Lists weighed by their own confidence (the drop from their first to their tenth score). The graph
#: walk's scores are steep by construction (direct mentions vs. hops), so its drop says nothing;
#: its weight comes from the specificity of the entities the query names instead.
CONFIDENCE_WEIGHTED = frozenset({"semantic", "keyword"})


class IndexVocabulary:
    """The index's keyword terms, and the languages of the chunks that hold them
    (:class:`memsearch.query_terms.Vocabulary`)."""

    #: Chunks read to tell a term's language: the first few that hold it say it.
    CHUNKS_READ = 16

    def __init__(self, index: IndexData) -> None:
        self.index = index

    def holds(self, term: str) -> bool:
        return self.index.keyword.holds(term)

    def accented(self, term: str) -> list[str]:
        return self.index.keyword.accented(term)

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


def dated_span(index: IndexData, filters: Filters) -> tuple[datetime, datetime, bool] | None:
    """(first, last) of the index's chunk dates, and whether any falls inside the filters' since
    and until (inclusive, as :func:`filter_mask` reads them); None when no chunk is dated."""
    stamps = index.kept("filter_columns", _FilterColumns).timestamp
    dated = stamps[~np.isnan(stamps)]
    if not len(dated):
        return None
    inside = np.ones(len(dated), dtype=bool)
    if filters.since is not None:
        inside &= dated >= filters.since.timestamp()
    if filters.until is not None:
        inside &= dated <= filters.until.timestamp()
    first, last = (datetime.fromtimestamp(float(t), tz=UTC) for t in (dated.min(), dated.max()))
    return first, last, bool(inside.any())


def filter_mask(index: IndexData, filters: Filters) -> np.ndarray | None:
    """Boolean mask over chunk ids of what the filters allow (None = everything).

    Vectorised: each filter is a comparison over a per-chunk column (path, territory, fact type,
    timestamp) or the graph's chunk list of an entity; the columns are built once per loaded
    index (:class:`_FilterColumns`), not a Python pass over every chunk per query.
    """
    if filters.is_empty():
        return None
    cols = index.kept("filter_columns", _FilterColumns)
    mask = cols.present.copy()
    prefix = (filters.territory or "").lstrip("./")
    if prefix:
        lo, hi = cols.path_codes_starting(prefix)
        allowed = (cols.path_code >= lo) & (cols.path_code < hi)
        territory = cols.territory_codes.get(prefix.rstrip("/"))
        if territory is not None:
            allowed |= cols.territory_code == territory
        mask &= allowed
    if filters.fact_type:
        mask &= cols.fact_code == cols.fact_codes.get(filters.fact_type, -1)
    for wanted in dict.fromkeys(index.graph.resolve(e) for e in filters.entities):
        ids = index.graph.chunk_ids(wanted)
        named = np.zeros(len(mask), dtype=bool)
        named[ids[ids < len(mask)]] = True
        mask &= named
    if filters.since or filters.until:
        ts = cols.timestamp
        dated = ~np.isnan(ts)
        if filters.since:
            dated &= ts >= filters.since.timestamp()
        if filters.until:
            dated &= ts <= filters.until.timestamp()
        mask &= dated
    return mask


class _Places:
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
    def of(cls, index: IndexData) -> _Places:
        """The index's places, kept on it and brought up to date."""
        return index.kept("chunk places", cls, refresh=cls.refresh)

    def __init__(self, index: IndexData) -> None:
        self.paths: list[str] = []
        self._path_index: dict[str, int] = {}
        self.path_rank = np.zeros(0, dtype=np.int64)  # by path index
        self.path_of = np.zeros(0, dtype=np.int64)  # by chunk id: a path index, -1 for no chunk seen
        self.line_of = np.zeros(0, dtype=np.int64)
        self.refresh(index)

    def refresh(self, index: IndexData) -> _Places:
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


class _FilterColumns:
    """Per-chunk columns for :func:`filter_mask`, indexed by chunk id.

    Paths are coded in sorted order, so "path starts with P" is one code range found by
    bisection. Kept on the index object (``IndexData.kept``) until its chunk table changes.
    """

    def __init__(self, index: IndexData) -> None:
        chunks = index.chunks
        n = (max(chunks) + 1) if chunks else 0
        self.present = np.zeros(n, dtype=bool)
        self.paths = sorted({c.path for c in chunks.values()})
        path_codes = {p: i for i, p in enumerate(self.paths)}
        self.territory_codes: dict[str, int] = {}
        self.fact_codes: dict[str, int] = {}
        self.path_code = np.full(n, -1, dtype=np.int64)
        self.territory_code = np.full(n, -1, dtype=np.int64)
        self.fact_code = np.full(n, -1, dtype=np.int64)
        self.timestamp = np.full(n, np.nan, dtype=np.float64)
        ids = np.fromiter(chunks.keys(), dtype=np.int64, count=len(chunks))
        self.present[ids] = True
        territories, facts = self.territory_codes, self.fact_codes
        self.path_code[ids] = [path_codes[c.path] for c in chunks.values()]
        self.territory_code[ids] = [
            territories.setdefault(c.territory, len(territories)) for c in chunks.values()
        ]
        self.fact_code[ids] = [facts.setdefault(c.fact_type, len(facts)) for c in chunks.values()]
        self.timestamp[ids] = [c.timestamp.timestamp() if c.timestamp else np.nan for c in chunks.values()]

    def path_codes_starting(self, prefix: str) -> tuple[int, int]:
        """[lo, hi): the codes of the paths that start with ``prefix``."""
        lo = bisect.bisect_left(self.paths, prefix)
        hi = bisect.bisect_right(self.paths, prefix, lo=lo, key=lambda p: p[: len(prefix)])
        return lo, hi


@dataclass
class _Asked:
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
    def places(self) -> _Places:  # read once a query: the fusion breaks its ties one chunk at a time
        return _Places.of(self.index)

    def vault_order(self, ids: np.ndarray) -> np.ndarray:
        """Where each chunk stands in the vault (path, then line): the same whatever order the
        index was built in, so ties break the same way after an incremental update and a rebuild."""
        return self.places.order(ids)

    def chunk_order(self, chunk_id: int) -> tuple[int, int, int]:
        return self.places.place(chunk_id)


@dataclass
class _Found:
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
class _Weighed:
    """Each list's weight in the fusion: its base weight (the strategy's, times what the query
    says of it) times its confidence for this query (mean 1 over the text lists)."""

    base: dict[str, float]
    confidence: dict[str, float]
    weights: dict[str, float]
    partial: bool  # the keyword head matches the query in part (fusion.partial_match)
    standout: float | None  # sd the best cosine stands above the query's cosine to the vault


def search_index(
    index: IndexData,
    parsed: ParsedQuery,
    settings: Settings,
    query_embedding: QueryEmbedding,
    k: int = 10,
    *,
    chunks: bool = False,
    explain: bool = False,
    strategies: Sequence[str] | None = None,
    all_results: bool = False,
    retrieval: Retrieval | None = None,
    vectors: Mapping[str, np.ndarray] | None = None,
) -> SearchResponse:
    """Run one query against a loaded index (``retrieval``: the vault's keyword and vector backend,
    default the built-in indexes; :mod:`memsearch.retrieval`).

    1. filter: a mask over chunk ids from territory, fact type, entities, since/until
    2. retrieve: each strategy ranks up to ``settings.top_n`` chunks
         semantic  nearest vectors in the HNSW graph
         keyword   BM25 over identifier-preserving terms
         graph     a decayed walk out of the entities the query names
         time      chunks near the window the query names, else recency over the others' finds
    3. fuse: weighted reciprocal-rank fusion x the territory's ontological weight
    4. group: one result per file (its best chunk's anchor) unless ``chunks``
    5. normalise: score / the best score possible, so 0..1 and a low score means a thin signal
    6. resonate: the signal (strong / thin / none, :mod:`memsearch.resonance`); a response whose
       signal is none carries no results unless ``all_results``

    ``vectors``: query vectors by notebook modality (checked and of length 1: the engine's work),
    each one more ranked list (by cosine, over the moments that have a vector of that modality);
    a query without text runs those lists alone.
    """
    started = time.perf_counter()
    wanted = tuple(strategies) if strategies else STRATEGIES
    unknown = [s for s in wanted if s not in STRATEGIES]
    if unknown:
        raise QueryError(f"unknown strategy {unknown[0]!r}; choose from {', '.join(STRATEGIES)}")
    found = _Found(timings={"embed": query_embedding.ms}, seeds=list(parsed.entities))
    vectors_only = bool(vectors) and not parsed.text.strip()
    if vectors_only:  # no words: the text strategies have nothing to rank by
        found.skipped.update({name: "the query has no text (vectors only)" for name in wanted})
        wanted = ()

    # 1. filter
    t = time.perf_counter()
    allowed = filter_mask(index, parsed.filters)
    found.timings["filter"] = _ms(t)

    # 2. retrieve
    asked = _Asked(index, parsed, settings, BackendCall(retrieval, index), allowed, IndexVocabulary(index))
    asked_in = main_script(parsed.text)  # the query's script, for the notes and the signal
    if "semantic" in wanted:
        _retrieve_semantic(asked, found, query_embedding, asked_in)
    if "keyword" in wanted:
        _retrieve_keyword(asked, found, explain)
    if "graph" in wanted:
        _retrieve_graph(asked, found)
    for modality, vector in (vectors or {}).items():
        t = time.perf_counter()
        name = MODAL_LIST + modality
        found.lists[name] = index.modal[modality].search(
            vector, asked.top_n, allowed, tie_key=asked.vault_order
        )
        found.ran.append(name)
        found.timings[name] = _ms(t)
    event = asks_for_event(parsed.text)
    if "time" in wanted:
        _retrieve_time(asked, found, event, others=len(wanted) > 1)

    # 3. fuse: a list's weight is its base weight times its confidence for this query
    t = time.perf_counter()
    weighed = _weigh(asked, found, query_embedding.vector)
    fused, weights, ceiling = _fuse(asked, found, weighed, event)
    found.timings["fuse"] = _ms(t)

    # 4. group, 5. normalise
    t = time.perf_counter()
    results = _results(
        index,
        fused,
        k,
        ceiling,
        chunks=chunks,
        explain=explain,
        weights=weights,
        query_entities=tuple(found.seeds),
        confidence=weighed.confidence,
        anchors=found.anchors,
    )
    found.timings["group"] = _ms(t)

    # 6. resonate
    signal = _resonate(asked, found, weighed, len(fused), asked_in, vectors if vectors_only else None)
    if signal.level == NONE and not all_results:
        results = []
    found.timings["total"] = _ms(started) + query_embedding.ms
    health = Health(
        ran=tuple(found.ran),
        failed=found.failed,
        skipped=found.skipped,
        degraded=bool(found.failed) or bool(index.manifest.get("gaps")) or asked.backend.degraded,
        index_built_at=index.manifest.get("built_at"),
        notes=(*found.notes, *asked.backend.notes),
        timings_ms=found.timings,
    )
    return SearchResponse(parsed.text, tuple(results), health, signal=signal)


# ---------------------------------------------------------------------------------- 2. retrieve


def _retrieve_semantic(
    asked: _Asked, found: _Found, query_embedding: QueryEmbedding, asked_in: str | None
) -> None:
    """The nearest vectors to the query's; or why there are none."""
    t = time.perf_counter()
    index = asked.index
    if query_embedding.vector is not None and index.vectors is not None and len(index.vectors):
        hits = found.lists["semantic"] = asked.backend.vector_top(
            query_embedding.vector, asked.top_n, asked.allowed, asked.parsed.filters, asked.vault_order
        )
        found.ran.append("semantic")
        if note := english_only_note(index, asked_in, hits):
            found.notes.append(note)
        gaps = len(index.manifest.get("gaps", []))
        if gaps:
            why = index.manifest.get("embedder_error")
            found.notes.append(
                f"{gaps} chunks have no vector yet (embedder gap{f': {why}' if why else ''});"
                " the next `memsearch index` fills them"
            )
    elif query_embedding.error:
        found.failed["semantic"] = query_embedding.error
    elif index.vectors is None or not len(index.vectors):
        reason = index.manifest.get("embedder_error") or "the index has no vectors"
        found.failed["semantic"] = (
            f"no vectors in the index ({reason}); run `memsearch index VAULT` to fill them"
        )
    else:
        found.skipped["semantic"] = query_embedding.skipped or "no query vector"
    found.timings["semantic"] = _ms(t)


def _retrieve_keyword(asked: _Asked, found: _Found, explain: bool) -> None:
    """BM25 over the query's weighted terms, and what its head says of the query: how much of it
    the head holds (with and without the names it writes), how much the vault lacks."""
    t = time.perf_counter()
    index, parsed = asked.index, asked.parsed
    query_weights = found.query_weights = term_weights(parsed.keyword_text, parsed.glosses, asked.vocabulary)
    if explain:  # what a name was searched as beside its own words: "Dr Park" also as "jun"
        found.notes.extend(
            f"{gloss.written!r} also searched as {str(gloss)!r} (what the vault also calls it)"
            for gloss in parsed.glosses
            if getattr(gloss, "written", None)
        )
    # Only the question's form is left ("what happened", once "last week" is the window), or no
    # word at all ("what did I do" is stopwords): a keyword hit on it would be won by scaffolding.
    found.form_only = not informative(query_weights)
    if found.form_only and query_weights:
        found.skipped["keyword"] = "the query has only question-form words (what happened, tell me ...)"
    elif query_weights:
        hits = found.lists["keyword"] = asked.backend.keyword_top(
            query_weights, asked.top_n, asked.allowed, parsed.filters, asked.vault_order
        )
        total, missing = index.keyword.query_weight(query_weights)
        top = hits[0].score if hits else 0.0
        found.keyword_coverage = min(1.0, top / total) if total > 0 else 0.0
        beyond = without_names(query_weights, parsed.names)
        if beyond and hits:
            head = np.array([hits[0].chunk_id], dtype=np.int64)
            beyond_total, _ = index.keyword.query_weight(beyond)
            held = float(index.keyword.scores_of(beyond, head)[0])
            found.beyond_names = min(1.0, held / beyond_total) if beyond_total > 0 else 0.0
            found.head_lacks_rarest = _lacks_rarest(index, beyond, head)
        # Of the query's own words: a gloss is the vault's other name for one of them, so it
        # must not make a question about what the vault lacks look held (a nickname with a
        # second expansion would lower the share the missing words hold).
        written_total = (
            index.keyword.query_weight(query_weights.written())[0] if query_weights.glossed else total
        )
        found.missing_share = min(1.0, missing / written_total) if written_total > 0 else None
        # An identifier is one thing's name: the vault holding it whole ("PO-7781", not "po" and
        # "7781" apart) says where the memory is, whatever else the question's words are.
        for written in identifiers(parsed.text):
            if index.keyword.holds(tokenize(written)[0]):
                found.identifiers_held += 1
            else:
                found.identifiers_missing += 1
        found.ran.append("keyword")
    else:
        found.skipped["keyword"] = "the query has no searchable terms (only stopwords or punctuation)"
    found.timings["keyword"] = _ms(t)


def _lacks_rarest(index: IndexData, asked: Mapping[str, float], head: np.ndarray) -> bool:
    """Whether the passage ``head`` (its chunk id, in an array) lacks one of the rarest (highest
    idf) informative words of ``asked`` that the vault holds: a head matched on the names the query
    writes and its common words, not on what it is most specifically about ("what *algorithm* does
    Project Aster sign its releases with": the project's note, which links the signing keys' note,
    which links the algorithm's)."""
    keyword = index.keyword
    idf = {term: keyword.term_idf(term) for term, w in asked.items() if w >= 1.0 and keyword.holds(term)}
    if not idf:
        return False
    top = max(idf.values())
    rarest = [term for term, value in idf.items() if value == top]
    return any(float(keyword.scores_of({term: 1.0}, head)[0]) <= 0.0 for term in rarest)


def _retrieve_graph(asked: _Asked, found: _Found) -> None:
    """The entity walk's and the links' list, weighed by the seeds' specificity or the best
    anchor's share of the query, whichever is stronger."""
    t = time.perf_counter()
    index, parsed = asked.index, asked.parsed
    seeds = found.seeds = index.graph.with_first_names(parsed.entities)
    walked = (
        index.graph.search(seeds, asked.top_n, index.n_ids, asked.allowed, tie_key=asked.vault_order)
        if seeds
        else []
    )
    # The links on the passages the text lists rank first (links.py); alone, the graph finds
    # those passages by their words itself.
    link_terms = found.query_weights or term_weights(parsed.keyword_text, parsed.glosses, asked.vocabulary)
    if informative(link_terms):
        starts = [h.chunk_id for name in ("keyword", "semantic") for h in found.lists.get(name, ())[:BRIDGES]]
        if "keyword" not in found.lists and "semantic" not in found.lists:
            starts = [
                h.chunk_id
                for h in asked.backend.keyword_top(
                    link_terms, BRIDGES, asked.allowed, parsed.filters, asked.vault_order
                )
            ]
        found.anchors = follow_links(
            index, link_terms, starts, asked.allowed, without_names(link_terms, parsed.names)
        )
    linked = anchor_hits(found.anchors)
    if walked or linked:
        found.lists["graph"] = _walk_and_links(
            walked, linked, asked.settings.rrf_k, asked.top_n, asked.chunk_order
        )
        found.ran.append("graph")
        # A walk from hubs alone (an entity in most chunks) carries little: weigh it by the
        # seeds' specificity relative to the rarest possible entity; links by the share of the
        # query their best anchor adds (links.py). The stronger of the two is the list's weight.
        specificity = 0.0
        if parsed.entities:
            best = max(index.graph.idf(e) for e in parsed.entities)
            ceiling = index.graph.idf("\x00never") or np.log1p(max(len(index.chunks), 1))
            specificity = float(min(1.0, best / max(ceiling, 1e-9)))
        found.weights["graph"] = max(specificity, linked[0].score if linked else 0.0)
    else:
        found.skipped["graph"] = "the query names no known entity, and no passage it matches links a note"
    found.timings["graph"] = _ms(t)


def _retrieve_time(asked: _Asked, found: _Found, event: bool, *, others: bool) -> None:
    """The chunks dated in the query's window, weighed by its narrowness; without a window,
    recency over what the other lists found, as a prior (``others``: other strategies ran)."""
    parsed = asked.parsed
    if parsed.window is None and event and others:
        # "When did the boiler break?" asks for that event however long ago it was: recency is no
        # evidence of it (as a prior it pushed older answers down on both benchmark vaults).
        found.skipped["time"] = (
            "the question asks when something happened and names no date: recency is no evidence"
        )
        return
    t = time.perf_counter()
    window = (parsed.window.start, parsed.window.end) if parsed.window else None
    candidates = None
    if window is not None:
        found.weights["time"] = window_weight(parsed.window.start, parsed.window.end)
        if found.form_only:  # the window is all it asks
            found.weights["time"] *= WINDOW_ONLY_WEIGHT
            if "semantic" in found.lists:
                found.weights["semantic"] = WINDOW_ONLY_SEMANTIC_WEIGHT
    elif others:
        seen = {h.chunk_id for hits in found.lists.values() for h in hits}
        candidates = np.fromiter(seen, dtype=np.int64, count=len(seen))
        found.weights["time"] = RECENCY_PRIOR_WEIGHT
    # As a prior, every candidate is scored: whether they all tie is read before the list is cut.
    recency = asked.index.time.search(
        asked.top_n if candidates is None else max(asked.top_n, len(candidates)),
        parsed.now,
        asked.settings.half_life_days,
        window,
        asked.allowed,
        candidates,
        yearly=parsed.window is not None and parsed.window.yearly,
        tie_key=asked.vault_order,
    )
    all_tie = candidates is not None and len(recency) == len(candidates) > 1
    if all_tie and recency[0].score == recency[-1].score:
        # Every memory found as recent as the others (a collection written at once): recency tells
        # none apart, and its list, cut at top_n through that tie, would favour some by their paths.
        found.skipped["time"] = "every memory found is as recent as the others: recency tells none apart"
        del found.weights["time"]
        found.timings["time"] = _ms(t)
        return
    found.lists["time"] = recency[: asked.top_n]
    found.ran.append("time")
    if parsed.window is not None:
        every_year = ", in every year, the nearest past first" if parsed.window.yearly else ""
        found.notes.append(
            f"time window from the query: {parsed.window.text!r} ({parsed.window.dates()}{every_year})"
        )
    found.timings["time"] = _ms(t)


# ------------------------------------------------------------------------------------- 3. fuse


def _weigh(asked: _Asked, found: _Found, query_vector: np.ndarray | None) -> _Weighed:
    """Each list's weight for this query: its base weight times its confidence."""
    settings, lists, coverage = asked.settings, found.lists, found.keyword_coverage
    weights = dict(found.weights)
    # Text heads that match the query in part, with a link on them adding to the passage it
    # reaches: the chained answer is the graph list's to rank (fusion.graph_lead).
    # A question that names its time is answered through its window, and what it asks beyond its
    # names is often the form of its asking ("what came up about Chirp this month"): only the share
    # of it the head holds says the head is partial.
    lacks_rarest = found.head_lacks_rarest and asked.parsed.window is None
    partial = partial_match(coverage, found.beyond_names, WELL_COVERED, lacks_rarest)
    if "graph" in lists and "keyword" in lists:
        weights = graph_lead(
            weights,
            coverage=coverage,
            beyond_names=found.beyond_names,
            lacks_rarest=lacks_rarest,
            anchor_share=max((a.share for a in found.anchors.values()), default=None),
            well_covered=WELL_COVERED,
            adds=ANCHOR_ADDS,
            lead=GRAPH_LEAD,
        )
    # Text heads that match the query in part, and a walk from names the vault only mentions: the
    # walk sees the names, not what is asked beyond them (fusion.walk_aside). Measured (eval/run.py,
    # 2026-12-04): SciFact nDCG@10 0.7265 -> 0.7370 (its gene names have no notes: as with the graph
    # at weight 0, 0.7371); LoCoMo any@10 0.856 and both vaults' hit@3 unchanged (MRR@10 own 0.740 ->
    # 0.744, shared 0.767 -> 0.764). Set aside on every walk from such names, LoCoMo fell to 0.851.
    if "graph" in lists and partial and found.seeds:
        index = asked.index
        modelled = any(names_a_note(index, seed) or index.graph.aliases_of(seed) for seed in found.seeds)
        aside = walk_aside(weights, partial=partial, modelled=modelled, lead=GRAPH_LEAD)
        if aside != weights:
            found.notes.append(
                "graph walk set aside: no name the query writes has a note or an alias of its own,"
                " and the keyword head matches the query only in part"
            )
        weights = aside
    base = {name: weights.get(name, 1.0) * settings.strategy_weights.get(name, 1.0) for name in lists}
    confidence = dict.fromkeys(lists, 1.0)
    # Confidence is relative among the evidence lists (mean 1): it moves weight from the list that
    # is unsure of its head to the one that is sure, without changing what graph and time weigh.
    drops = {
        name: list_confidence(lists[name], settings.confidence_depth)
        for name in lists
        if name in CONFIDENCE_WEIGHTED and settings.confidence_depth > 0
    }
    peaks = dict(drops)
    if "keyword" in peaks and coverage is not None:  # a head holding part of the query: in proportion
        peaks["keyword"] *= min(1.0, coverage / WELL_COVERED)
    mean_peak = sum(peaks.values()) / len(peaks) if peaks else 0.0
    if len(peaks) > 1 and mean_peak > 0:
        for name, peak in peaks.items():
            confidence[name] = peak / mean_peak
    # A keyword head holding under half the query whose drop is steep is a partial match towering
    # over weaker ones; with a semantic head that stands out of the vault, meaning leads (fusion.py).
    z = _standout(asked.index.vectors, lists.get("semantic"), query_vector)
    if "semantic" in peaks and "keyword" in peaks:
        confidence = semantic_lead(
            confidence,
            coverage=coverage,
            keyword_drop=drops["keyword"],
            standout=z,
            well_covered=WELL_COVERED,
            steep=KEYWORD_STEEP,
            stands_out=SEMANTIC_STANDS_OUT,
            lead=SEMANTIC_LEAD,
        )
    final = {name: base[name] * confidence[name] for name in lists}
    return _Weighed(base, confidence, final, partial, z)


def _fuse(
    asked: _Asked, found: _Found, weighed: _Weighed, event: bool
) -> tuple[FusedList, dict[str, float], float]:
    """The fused ranking, the weights it was fused with (``links`` too when links were followed)
    and the fused score of a chunk every list ranked first, in the weightiest territory."""
    index, settings, lists = asked.index, asked.settings, found.lists
    territory_weights = {t_.label: t_.weight for t_ in settings.territories}
    if asks_about_self(asked.parsed.text):
        territory_weights = {label: w**SELF_QUESTION_POWER for label, w in territory_weights.items()}
        found.notes.append(
            f"a question about the self: territory weights to the power {SELF_QUESTION_POWER:g}"
        )
    current = not event and asked.parsed.window is None and asks_for_current(asked.parsed.text)
    chunks_by_id = index.chunks

    # A chunk's own prior (a notebook moment's importance, 1 for every other chunk) rides on its
    # territory's weight: the one per-chunk factor of the fusion (docs/notebook.md). Kept per chunk
    # until the index changes (a query weighs a few hundred chunks; an agent's next question mostly
    # the same notes), under the territory weights it was read with.
    known = index.kept(f"territory weights {sorted(territory_weights.items())}", lambda _index: {})
    if len(known) > KEPT_CHUNK_WEIGHTS:
        known.clear()

    def territory_only(cid: int) -> float:
        w = known.get(cid)
        if w is None:
            chunk = chunks_by_id[cid]
            w = known[cid] = territory_weights.get(chunk.territory, 1.0) * importance_prior(chunk)
        return w

    def chunk_weight(cid: int) -> float:
        chunk = chunks_by_id[cid]
        w = territory_only(cid)
        if event and chunk.fact_type == "experience" and entry_dated(chunk):
            w *= EVENT_ENTRY_WEIGHT
        elif current and chunk.territory in SUPERSEDED_TERRITORIES:
            w *= SUPERSEDED_WEIGHT
        return w

    weigh_place = chunk_weight if event or current else territory_only
    # In a transcript, a question naming one of its speakers asks what they said or did: their own
    # turns weigh more (speakers.py; a question naming every speaker weighs all turns alike).
    speakers = index.kept("transcript speakers", transcript_speakers) if asked.parsed.entities else {}
    named = set(asked.parsed.entities) & set(speakers.values())
    if named:
        speaking = ", ".join(sorted(named))
        found.notes.append(f"transcript turns spoken by {speaking} weighed x{SPEAKER_WEIGHT:g}")

    def weigh_speaker(cid: int) -> float:
        w = weigh_place(cid)
        return w * SPEAKER_WEIGHT if speakers.get(cid) in named else w

    weigh_chunk = weigh_speaker if named else weigh_place
    weights = weighed.weights
    fused = rrf(
        lists,
        k=settings.rrf_k,
        weights=weights,
        territory_weight=weigh_chunk,
        tie_key=asked.chunk_order,
        strength_mix=settings.strength_mix,
    )
    # The same partial match: the notes the first results link to for what the query asks climb
    # towards them (the component's note names the technique that answers).
    if weighed.partial and found.anchors and "graph" in lists:
        fused = follow_head_links(
            fused,
            {target: (a.path, a.asked_share) for target, a in found.anchors.items()},
            lambda cid: chunks_by_id[cid].path,
            weigh_chunk,
            heads=LINKED_HEADS,
            weight=LINK_WEIGHT,
            tie_key=asked.chunk_order,
        )
        weights = {**weights, "links": LINK_WEIGHT}
    # In a transcript, a query worded like a question asked there matches the asking turn, while the
    # answer is the reply (an adjacency pair): the asking turn weighs less and its reply is raised by
    # it (speakers.py), among the first fused passages. The transcripts' turns are read once one of
    # them looks like such a turn.
    replies = index.kept_if_current("transcript replies")
    if replies is None and any(might_ask(chunks_by_id[cid].text) for cid in fused.chunk_ids(ASKING_HEAD)):
        replies = index.kept("transcript replies", transcript_replies)
    if replies:
        fused = lift_replies(
            fused,
            replies,
            weigh_chunk,
            weight=REPLY_WEIGHT,
            asking=ASKING_WEIGHT,
            head=ASKING_HEAD,
            tie_key=asked.chunk_order,
        )
        weights = {**weights, "replies": REPLY_WEIGHT}
    # The ceiling counts every strategy that ran, with its base weight, even one that found nothing:
    # a query only one list answers, or answers weakly, shows as a low score, a thin signal.
    ceiling = max_possible(
        weighed.base, list(lists), settings.rrf_k, max(territory_weights.values(), default=1.0)
    )
    return fused, weights, ceiling


# ---------------------------------------------------------------------------------- 6. resonate


def _resonate(
    asked: _Asked,
    found: _Found,
    weighed: _Weighed,
    fused_chunks: int,
    asked_in: str | None,
    vectors_only: Mapping[str, np.ndarray] | None,
) -> Signal:
    """The response's signal, from evidence of the lists (``fused_chunks``: how many were fused;
    ``vectors_only``: the query's vectors when it has no text, judged by their best moment)."""
    index, parsed = asked.index, asked.parsed
    z = weighed.standout
    sample = index.vectors.background_size() if z is not None and index.vectors else None
    if vectors_only is not None:  # no words to judge by: the standout of the query vectors' best moment
        z, sample = _modal_standout(index, found.lists, vectors_only)
    return judge(
        Evidence(
            results=fused_chunks,
            informative_terms=sum(1 for w in found.query_weights.values() if w >= 1.0),
            missing_share=found.missing_share,
            coverage=found.keyword_coverage,
            semantic_z=z,
            semantic_sample=sample,
            window_entries=_window_entries(index, parsed, found.lists.get("time", ())),
            entities=len(parsed.entities),
            identifiers=found.identifiers_held,
            identifiers_missing=found.identifiers_missing,
            other_script=nearest_in_other_script(index, found.lists.get("semantic"), asked_in),
            form_only=found.form_only,
        )
    )


def _window_entries(index: IndexData, parsed: ParsedQuery, hits: Sequence[Hit]) -> int | None:
    """How many memories the time list found dated inside the query's window; None without one."""
    window = parsed.window
    if window is None:
        return None
    ids = np.fromiter((h.chunk_id for h in hits), dtype=np.int64)
    return index.time.entries_within(ids, (window.start, window.end), parsed.now, yearly=window.yearly)


def nearest_in_other_script(index: IndexData, hits: Sequence[Hit] | None, asked: str | None) -> str | None:
    """A script other than ``asked`` (the query's) that one of the :data:`NEAREST_READ` passages
    nearest in meaning is written in, at least :data:`WRITTEN_IN_SHARE` of its letters, when the
    embedder reads many languages (else None): a question asked in one language of a memory kept,
    wholly or partly, in another, which no keyword can match. Not the nearest passage alone: one in
    the query's own script on a neighbouring topic often comes before the answer."""
    if not hits or not asked or not is_multilingual(index.manifest.get("embedder", {}).get("details")):
        return None
    known: dict[int, dict[str, float]] = index.kept("chunk_scripts", lambda _index: {})
    for hit in hits[:NEAREST_READ]:
        shares = known.get(hit.chunk_id)
        if shares is None:  # read once per chunk and index version, as chunk_language is
            chunk = index.chunks.get(hit.chunk_id)
            shares = script_shares([chunk.text], SCRIPT_SAMPLE_CHARS) if chunk is not None else {}
            known[hit.chunk_id] = shares
        others = (name for name, share in shares.items() if share >= WRITTEN_IN_SHARE)
        found = next((name for name in others if name not in (asked, "other")), None)
        if found is not None:
            return found
    return None


def chunk_language(index: IndexData, chunk_id: int) -> str:
    """What a chunk is written in (:func:`memsearch.tokenize.language_of`), read once per chunk and
    index version: every query asks it of its ten nearest passages (~0.03 ms each to read)."""
    known: dict[int, str] = index.kept("chunk_languages", lambda _index: {})
    language = known.get(chunk_id)
    if language is None:
        language = known[chunk_id] = language_of(index.chunks[chunk_id].text, SCRIPT_SAMPLE_CHARS)
    return language


def english_only_note(index: IndexData, asked: str | None, hits: Sequence[Hit] | None) -> str | None:
    """What to say when the index's embedder knows only English and the query is written outside
    the Latin script, or half or more of the passages nearest in meaning (``hits``) are written in
    another language: its vectors for such text are near noise, and it cannot reach across them."""
    info = index.manifest.get("embedder", {})
    if not info.get("fingerprint") or is_multilingual(info.get("details")):
        return None
    spec = info.get("spec") or info.get("name")
    advice = (
        f"for a multilingual embedder, `{MULTILINGUAL_INSTALL}`, then"
        f" `memsearch index VAULT --embedder {MULTILINGUAL_EMBEDDER}`"
    )
    if asked not in (None, "Latin", "other"):
        return (
            f"the query is written in {asked} while the embedder ({spec}) knows only English: meaning"
            f" is matched poorly and never across languages; {advice}"
        )
    nearest = [h.chunk_id for h in (hits or ())[:NEAREST_READ] if h.chunk_id in index.chunks]
    written = Counter(chunk_language(index, chunk_id) for chunk_id in nearest)
    foreign = sum(n for language, n in written.items() if language != DEFAULT_LANGUAGE)
    if not nearest or 2 * foreign < len(nearest):
        return None
    most = next(language for language, _ in written.most_common() if language != DEFAULT_LANGUAGE)
    return (
        f"most passages nearest in meaning are written in {display_name(most)}, but the"
        f" embedder ({spec}) knows only English: meaning is matched poorly and never across"
        f" languages; {advice}"
    )


def _walk_and_links(
    walked: list[Hit], linked: list[Hit], rrf_k: int, top_n: int, tie_key: Callable[[int], Any]
) -> list[Hit]:
    """The graph's list: the entity walk's and the links' lists joined by their ranks (their scores
    are on different scales), or the one that found anything; equal sums in ``tie_key`` order."""
    if not walked or not linked:
        return (walked or linked)[:top_n]
    return rrf({"walk": walked, "links": linked}, k=rrf_k, tie_key=tie_key).hits(top_n)


def _standout(
    vectors: VectorIndex | None, hits: Sequence[Hit] | None, query: np.ndarray | None
) -> float | None:
    """Standard deviations the best cosine stands above the query's cosine to the vault at large."""
    if not hits or query is None or vectors is None:
        return None
    mean, std = vectors.background(query)
    return (hits[0].score - mean) / std if std > 0 else None


def _modal_standout(
    index: IndexData, lists: Mapping[str, Sequence[Hit]], vectors: Mapping[str, np.ndarray]
) -> tuple[float | None, int | None]:
    """The largest standout among the query vectors' lists (as :func:`_standout`), and the sample
    it was measured on."""
    best: tuple[float | None, int | None] = (None, None)
    for modality, vector in vectors.items():
        z = _standout(index.modal[modality], lists.get(MODAL_LIST + modality), vector)
        if z is not None and (best[0] is None or z > best[0]):
            best = (z, index.modal[modality].background_size())
    return best


def _results(
    index: IndexData,
    fused: Sequence[Fused],
    k: int,
    ceiling: float,
    *,
    chunks: bool,
    explain: bool,
    weights: dict[str, float],
    query_entities: tuple[str, ...] = (),
    confidence: dict[str, float] | None = None,
    anchors: dict[int, Anchor] | None = None,
) -> list[Result]:
    confidence = confidence or {}
    picked: list[tuple[Fused, int]] = []
    if chunks:
        picked = [(f, 1) for f in fused[:k]]
    else:
        ids = fused.chunk_ids() if isinstance(fused, FusedList) else [f.chunk_id for f in fused]
        picked = [(fused[position], count) for position, count in _files_first(index, ids, k)]
    results = []
    previous = 1.0
    for f, count in picked:
        chunk = index.chunks[f.chunk_id]
        parts = shown_parts(f, confidence, ceiling)
        total = sum(parts.values())
        # Shown scores follow the ranking: a result never shows more than the one above it.
        shown = previous = min(previous, 1.0, total)
        explanation = None
        if explain:
            explanation = {
                "chunk": chunk.key,
                "fused_score": f.score,
                "territory_weight": f.territory_weight,
                "max_possible": ceiling,
                # How the shown score is made: the strategies' shown parts add up to it, unless it
                # was capped at 1 or at the score of the result above.
                "score": {
                    "shown": round(shown, 4),
                    "sum_of_parts": round(total, 4),
                    "capped": shown < total - 1e-9,
                },
                "strategies": {
                    c.strategy: {
                        "rank": c.rank,
                        "raw_score": round(c.raw_score, 6),
                        "weight": round(weights.get(c.strategy, 1.0), 4),
                        "confidence": round(confidence.get(c.strategy, 1.0), 4),
                        "contribution": c.contribution,
                        "shown": round(parts[c.strategy], 4),
                    }
                    for c in f.contributions
                },
                "query_entities_matched": [
                    e for e in index.graph.entities_of(f.chunk_id) if e in query_entities
                ],
            }
            explanation.update(chunk_priors(chunk))
            if any(c.strategy in ("graph", "links") for c in f.contributions):
                paths = index.graph.paths_to(query_entities, f.chunk_id)
                if anchors and f.chunk_id in anchors:
                    anchor = anchors[f.chunk_id]
                    paths.insert(0, f"linked from {anchor.path}:{anchor.line}")
                explanation["graph_paths"] = paths[:3]
        results.append(
            Result(
                path=chunk.path,
                start_line=chunk.start_line,
                end_line=chunk.end_line,
                score=round(shown, 4),
                territory=chunk.territory,
                fact_type=chunk.fact_type,
                entities=chunk.entities[:12],
                heading=chunk.heading,
                timestamp=chunk.timestamp.isoformat() if chunk.timestamp else None,
                chunks=count,
                explanation=explanation,
            )
        )
    return results


def _files_first(index: IndexData, ids: Sequence[int], k: int) -> list[tuple[int, int]]:
    """The first ``k`` files of a ranking of chunk ids, as (the position of the file's best chunk,
    how many of its chunks the ranking holds), best file first: through the chunks' path column,
    not the chunks (a few hundred chunk objects, scattered in memory: 0.2 ms a query at 100k)."""
    places = _Places.of(index)
    paths = places.path_of[np.asarray(ids, dtype=np.int64)]
    _, firsts, counts = np.unique(paths, return_index=True, return_counts=True)
    best = np.argsort(firsts)[:k]
    return list(zip(firsts[best].tolist(), counts[best].tolist(), strict=True))


def shown_parts(fused: Fused, confidence: dict[str, float], ceiling: float) -> dict[str, float]:
    """Each strategy's part of the 0..1 score shown with a result; the score is their sum (at most 1).

    The ranking uses the per-query confidence; the shown score takes it out (a list that is the
    only one to answer gets no bonus here) and counts a semantic hit in proportion to its cosine,
    the one absolute signal there is: nearest is not the same as near. Over the ceiling (a chunk
    ranked first by every strategy that ran, in the weightiest territory), so 0..1.
    """
    if ceiling <= 0:
        return {c.strategy: 0.0 for c in fused.contributions}
    parts: dict[str, float] = {}
    for c in fused.contributions:
        part = c.contribution / max(confidence.get(c.strategy, 1.0), 1e-9)
        if c.strategy == "semantic" or c.strategy.startswith(MODAL_LIST):  # a query vector's list too
            part *= min(max(c.raw_score, 0.0), 1.0)
        parts[c.strategy] = part / ceiling
    return parts


def _ms(since: float) -> float:
    return (time.perf_counter() - since) * 1000.0
