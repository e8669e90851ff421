"""2. retrieve: each strategy's ranked list (semantic, keyword, graph, time) and what it tells of
the query."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

import numpy as np

from memsearch.entities.words import STOPWORDS as FUNCTION_WORDS
from memsearch.fusion import rrf
from memsearch.index.in_memory import IndexData
from memsearch.links import BRIDGES, anchor_hits, follow_links
from memsearch.models import Hit
from memsearch.query_terms import (
    Gloss,
    identifiers,
    informative,
    term_weights,
    without_names,
)
from memsearch.search.language_notes import english_only_note
from memsearch.search.state import Asked, Found, QueryEmbedding, elapsed_ms
from memsearch.tokenize import tokenize

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


def retrieve_semantic(
    asked: Asked, found: Found, query_embedding: QueryEmbedding, asked_in: str | None
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
    elif not index.chunks:  # nothing to embed: no failure, and no index run would make vectors
        found.skipped["semantic"] = "the vault holds no memory yet"
    elif query_embedding.error:
        found.failed["semantic"] = query_embedding.error
    elif index.vectors is None or not len(index.vectors):
        reason = index.manifest.get("embedder_error")
        if reason and "memsearch index" in reason:  # it says what to do already
            found.failed["semantic"] = f"no vectors in the index: {reason}"
        else:
            found.failed["semantic"] = (
                f"no vectors in the index ({reason or 'none were made'}); run `memsearch index VAULT`"
                " to fill them"
            )
    else:
        found.skipped["semantic"] = query_embedding.skipped or "no query vector"
    found.timings["semantic"] = elapsed_ms(t)


def read_terms(asked: Asked, found: Found, explain: bool, *, with_window: bool = False) -> None:
    """What the query's words say, whichever lists run: their weights, whether only the question's
    form is left, the share of them the vault never uses, the identifiers it holds whole (the
    signal reads these: a search by meaning alone judged "the query has no informative words").
    ``with_window``: the time phrase's words are searched too (no time list answers it); the
    signal still reads the words beside the phrase ("last year" is in no note)."""
    index, parsed = asked.index, asked.parsed
    asked_words = term_weights(parsed.keyword_text, parsed.glosses, asked.vocabulary)
    searched = term_weights(parsed.text, parsed.glosses, asked.vocabulary) if with_window else asked_words
    found.query_weights = searched
    if explain:  # what a name was searched as beside its own words: "Dr Park" also as "jun"
        found.notes.extend(
            f"{gloss.written!r} also searched as {str(gloss)!r} (what the vault also calls it)"
            for gloss in parsed.glosses
            if isinstance(gloss, Gloss) and gloss.written
        )
    # Only the question's form is left ("what happened", once "last week" is the window), or no
    # word at all ("what did I do" is stopwords): a keyword hit on it would be won by scaffolding.
    found.form_only = not informative(searched)
    if not informative(asked_words):
        return
    # Of the query's own words: a gloss is the vault's other name for one of them, so it must not
    # make a question about what the vault lacks look held (a nickname with a second expansion
    # would lower the share the missing words hold).
    total, missing = index.keyword.query_weight(asked_words)
    written_total = index.keyword.query_weight(asked_words.written())[0] if asked_words.glossed else total
    found.missing_share = min(1.0, missing / written_total) if written_total > 0 else None
    # An identifier is one thing's name: the vault holding it whole ("PO-7781", not "po" and
    # "7781" apart) says where the memory is, whatever else the question's words are.
    for written in identifiers(parsed.text):
        if index.keyword.holds(tokenize(written)[0]):
            found.identifiers_held += 1
        else:
            found.identifiers_missing += 1


def retrieve_keyword(asked: Asked, found: Found) -> None:
    """BM25 over the query's weighted terms (:func:`read_terms`), and what its head says of the
    query: how much of it the head holds (with and without the names it writes)."""
    t = time.perf_counter()
    index, parsed = asked.index, asked.parsed
    query_weights = found.query_weights
    if found.form_only and query_weights:
        found.skipped["keyword"] = "the query has only question-form words (what happened, tell me ...)"
    elif query_weights:
        hits = found.lists["keyword"] = asked.backend.keyword_top(
            query_weights, asked.top_n, asked.allowed, parsed.filters, asked.vault_order
        )
        total, _ = index.keyword.query_weight(query_weights)
        top = hits[0].score if hits else 0.0
        found.keyword_coverage = min(1.0, top / total) if total > 0 else 0.0
        beyond = without_names(query_weights, parsed.names)
        if beyond and hits:
            head = np.array([hits[0].chunk_id], dtype=np.int64)
            beyond_total, _ = index.keyword.query_weight(beyond)
            held = float(index.keyword.scores_of(beyond, head)[0])
            found.beyond_names = min(1.0, held / beyond_total) if beyond_total > 0 else 0.0
            found.head_lacks_rarest = _lacks_rarest(index, beyond, head)
        found.ran.append("keyword")
    elif parsed.window is not None and not parsed.keyword_text:
        found.skipped["keyword"] = f"the query is its time window alone ({parsed.window.text!r})"
    else:
        found.skipped["keyword"] = "the query has no searchable terms (only stopwords or punctuation)"
    found.timings["keyword"] = elapsed_ms(t)


#: Words no question is about whatever else it asks (quantifiers, pronouns, connectives, ...: the
#: entity extractor's list of words that are never names), as the keyword index stems them: a
#: word of these the vault never uses ("how *many* km is the loop") says nothing of where the
#: answer is.
_FUNCTION_TERMS = frozenset(t for word in sorted(FUNCTION_WORDS) for t in tokenize(word))


def is_function_word(term: str) -> bool:
    return term in _FUNCTION_TERMS


def _lacks_rarest(index: IndexData, asked: Mapping[str, float], head: np.ndarray) -> bool:
    """Whether the passage ``head`` (its chunk id, in an array) lacks one of the rarest (highest
    idf) informative words of ``asked``: a head matched on the names the query writes and its
    common words, not on what it is most specifically about ("what *algorithm* does Project Aster
    sign its releases with": the project's note, which links the signing keys' note, which links
    the algorithm's). A content word the vault never uses is one no head holds: the answer is
    written in other words (the algorithm's note names a "signature scheme"); not a function word
    ("how *many* km is the loop", :func:`is_function_word`). Measured
    (eval/run.py, 2026-12-07): both vaults' figures unchanged, SciFact nDCG@10 0.7373 -> 0.7380,
    LoCoMo any@10 0.856 (any@300w 0.858 -> 0.857; with function words too, any@10 0.855); the
    algorithm's note 2nd (was out of the first five) on a vault of the issue's kind
    (tests/scenarios/test_issue_questions.py)."""
    keyword = index.keyword
    if any(w >= 1.0 and not keyword.holds(term) and not is_function_word(term) for term, w in asked.items()):
        return True
    idf = {term: keyword.term_idf(term) for term, w in asked.items() if w >= 1.0 and keyword.holds(term)}
    if not idf:
        return False
    top = max(idf.values())
    rarest = [term for term, value in idf.items() if value == top]
    return any(float(keyword.scores_of({term: 1.0}, head)[0]) <= 0.0 for term in rarest)


def retrieve_graph(asked: Asked, found: Found) -> None:
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
    link_terms = found.query_weights
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
    found.timings["graph"] = elapsed_ms(t)


def retrieve_time(asked: Asked, found: Found, event: bool, *, others: bool) -> None:
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
    if parsed.window is not None:
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
        found.timings["time"] = elapsed_ms(t)
        return
    found.lists["time"] = recency[: asked.top_n]
    found.ran.append("time")
    if parsed.window is not None:
        every_year = ", in every year, the nearest past first" if parsed.window.yearly else ""
        found.notes.append(
            f"time window from the query: {parsed.window.text!r} ({parsed.window.dates()}{every_year})"
        )
    found.timings["time"] = elapsed_ms(t)


def _walk_and_links(
    walked: list[Hit], linked: list[Hit], rrf_k: int, top_n: int, tie_key: Callable[[int], Any]
) -> list[Hit]:
    """The graph's list: the entity walk's and the links' lists joined by their ranks (their scores
    are on different scales), or the one that found anything; equal sums in ``tie_key`` order."""
    if not walked or not linked:
        return (walked or linked)[:top_n]
    return rrf({"walk": walked, "links": linked}, k=rrf_k, tie_key=tie_key).hits(top_n)
