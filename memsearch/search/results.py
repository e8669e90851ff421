"""4. group and 5. normalise: one result a file (or a chunk), its score 0..1 and its explanation."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from memsearch.fusion import Fused, FusedList
from memsearch.index.in_memory import IndexData
from memsearch.links import Anchor
from memsearch.models import Result, chunk_priors
from memsearch.search.places import Places
from memsearch.search.state import MODAL_LIST


def grouped_results(
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
    # What scores 0 is no result (a chunk only a negative cosine found): "--explain" showed it with
    # every part 0.
    if isinstance(fused, FusedList):
        evidenced = fused.evidenced()
        ids = fused.chunk_ids(evidenced)
    else:
        fused = [f for f in fused if f.score > 0]
        ids = [f.chunk_id for f in fused]
        evidenced = len(ids)
    if chunks:
        picked = [(f, 1) for f in fused[: min(k, evidenced)]]
    else:
        picked = [(fused[position], count) for position, count in files_first(index, ids, k)]
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


def files_first(index: IndexData, ids: Sequence[int], k: int) -> list[tuple[int, int]]:
    """The first ``k`` files of a ranking of chunk ids, as (the position of the file's best chunk,
    how many of its chunks the ranking holds), best file first: through the chunks' path column,
    not the chunks (a few hundred chunk objects, scattered in memory: 0.2 ms a query at 100k)."""
    places = Places.of(index)
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
