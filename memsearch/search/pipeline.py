"""Search the index: four strategies, fused, grouped into ranked pointers (:func:`search_index`)."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence

import numpy as np

from memsearch.config import Settings
from memsearch.errors import QueryError
from memsearch.index.backend import Retrieval
from memsearch.index.in_memory import IndexData
from memsearch.models import Health, SearchResponse
from memsearch.query import ParsedQuery
from memsearch.query_terms import asks_for_event
from memsearch.resonance import NONE
from memsearch.retrieval import BackendCall
from memsearch.scripts import main_script
from memsearch.search.filters import filter_mask
from memsearch.search.fuse import fuse
from memsearch.search.resonate import resonate
from memsearch.search.results import grouped_results
from memsearch.search.retrieve import (
    read_terms,
    retrieve_graph,
    retrieve_keyword,
    retrieve_semantic,
    retrieve_time,
)
from memsearch.search.state import (
    MODAL_LIST,
    STRATEGIES,
    Asked,
    Found,
    IndexVocabulary,
    QueryEmbedding,
    elapsed_ms,
)
from memsearch.search.weigh import weigh


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
    found = Found(timings={"embed": query_embedding.ms}, seeds=list(parsed.entities))
    vectors_only = bool(vectors) and not parsed.text.strip()
    if vectors_only:  # no words: the text strategies have nothing to rank by
        found.skipped.update({name: "the query has no text (vectors only)" for name in wanted})
        wanted = ()

    # 1. filter
    t = time.perf_counter()
    allowed = filter_mask(index, parsed.filters)
    found.timings["filter"] = elapsed_ms(t)

    # 2. retrieve
    asked = Asked(index, parsed, settings, BackendCall(retrieval, index), allowed, IndexVocabulary(index))
    asked_in = main_script(parsed.text)  # the query's script, for the notes and the signal
    if wanted:  # without a time list, the words of the query's time phrase are words to search too
        read_terms(asked, found, explain, with_window="time" not in wanted)
    if "semantic" in wanted:
        retrieve_semantic(asked, found, query_embedding, asked_in)
    if "keyword" in wanted:
        retrieve_keyword(asked, found)
    if "graph" in wanted:
        retrieve_graph(asked, found)
    for modality, vector in (vectors or {}).items():
        t = time.perf_counter()
        name = MODAL_LIST + modality
        found.lists[name] = index.modal[modality].search(
            vector, asked.top_n, allowed, tie_key=asked.vault_order
        )
        found.ran.append(name)
        found.timings[name] = elapsed_ms(t)
    event = asks_for_event(parsed.text)
    if "time" in wanted:
        retrieve_time(asked, found, event, others=len(wanted) > 1)

    # 3. fuse: a list's weight is its base weight times its confidence for this query
    t = time.perf_counter()
    weighed = weigh(asked, found, query_embedding.vector)
    fused, weights, ceiling = fuse(asked, found, weighed, event)
    found.timings["fuse"] = elapsed_ms(t)

    # 4. group, 5. normalise
    t = time.perf_counter()
    results = grouped_results(
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
    found.timings["group"] = elapsed_ms(t)

    # 6. resonate
    first = results[0].territory if results else None
    signal = resonate(asked, found, weighed, len(fused), first, asked_in, vectors if vectors_only else None)
    if signal.level == NONE and not all_results:
        results = []
    found.timings["total"] = elapsed_ms(started) + query_embedding.ms
    health = Health(
        ran=tuple(found.ran),
        failed=found.failed,
        skipped=found.skipped,
        degraded=bool(found.failed) or bool(index.manifest.get("gaps")) or asked.backend.degraded,
        index_built_at=index.manifest.get("built_at"),
        notes=(*found.notes, *asked.backend.notes),
        timings_ms=found.timings,
        fallbacks=tuple(asked.backend.notes),
    )
    return SearchResponse(parsed.text, tuple(results), health, signal=signal)
