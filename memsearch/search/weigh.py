"""3. fuse, its first half: each list's weight for this query, its base weight times its confidence."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from memsearch.entities import extract_entities
from memsearch.fusion import graph_lead, list_confidence, partial_match, semantic_lead, walk_aside
from memsearch.index.vectors import VectorIndex
from memsearch.links import names_a_note
from memsearch.models import Hit
from memsearch.search.state import Asked, Found, Weighed

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
#: Only when the query names something (a known entity, or a word written as a name). Measured
#: (eval/run.py, 2026-12-08): research vault hit@3 0.869 -> 0.879 (paraphrase 0.429 -> 0.500),
#: workshop MRR@10 0.718 -> 0.727 (paraphrase hit@1 0.333 -> 0.444); own, shared and theatre
#: vaults, SciFact nDCG@10 0.738 and LoCoMo any@10 0.856 unchanged. With a known entity required
#: (the walk's seeds), the same, but a chain from a name the vault holds only inside a longer one
#: ("the Sprout flow reading", "Sprout flow sensor") lost its lead.
ANCHOR_ADDS = 0.1
GRAPH_LEAD = 1.5


#: Lists weighed by their own confidence (the drop from their first to their tenth score). The graph
#: walk's scores are steep by construction (direct mentions vs. hops), so its drop says nothing;
#: its weight comes from the specificity of the entities the query names instead.
CONFIDENCE_WEIGHTED = frozenset({"semantic", "keyword"})


def weigh(asked: Asked, found: Found, query_vector: np.ndarray | None) -> Weighed:
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
    # Only for a query that names something (a known entity, or a word written as a name): the lead
    # is for chains from it. From a question naming nothing, the links on the heads go where their
    # sentence happens to share a word with the query ("she started [[tidewatch]]" for "who
    # mentored him when he was starting out").
    if "graph" in lists and "keyword" in lists and (found.seeds or extract_entities(asked.parsed.text)):
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
    z = standout(asked.index.vectors, lists.get("semantic"), query_vector)
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
    return Weighed(base, confidence, final, partial, z)


def standout(
    vectors: VectorIndex | None, hits: Sequence[Hit] | None, query: np.ndarray | None
) -> float | None:
    """Standard deviations the best cosine stands above the query's cosine to the vault at large."""
    if not hits or query is None or vectors is None:
        return None
    mean, std = vectors.background(query)
    return (hits[0].score - mean) / std if std > 0 else None
