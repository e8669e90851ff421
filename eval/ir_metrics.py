"""Pure retrieval metrics, independent of any dataset or engine.

A *span* is what the engine returns: ``(path, start_line, end_line)``, 1-based, inclusive.
A *location* is what a judgement points at: ``(path, line)``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence

Span = tuple[str, int, int]
Location = tuple[str, int]

#: How much an agent reads from one search, for any@300w (the design's rule for judging retrieval:
#: what fits in 300 words).
READ_BUDGET_WORDS = 300


def count_words(line: str) -> int:
    """Words as a reader counts them: whitespace-separated tokens."""
    return len(line.split())


def span_contains(span: Span, location: Location) -> bool:
    path, start, end = span
    return path == location[0] and start <= location[1] <= end


def first_hit_rank(spans: Sequence[Span], targets: Iterable[Location]) -> int | None:
    """1-based rank of the first span that holds any target, or None."""
    targets = list(targets)
    for rank, span in enumerate(spans, start=1):
        if any(span_contains(span, t) for t in targets):
            return rank
    return None


def any_at_k(spans: Sequence[Span], targets: Iterable[Location], k: int) -> bool:
    """True when one of the targets lies inside the line range of one of the top-k spans (same path)."""
    rank = first_hit_rank(spans[:k], targets)
    return rank is not None


def read_in_rank_order(
    spans: Sequence[Span],
    read_lines: Callable[[str], Sequence[str]],
    budget: int = READ_BUDGET_WORDS,
) -> tuple[set[Location], int]:
    """Walk the ranked spans as an agent reads them, stopping once ``budget`` words have been read.

    Returns the locations read and the number of words read. A line counts as read when it was *started*
    before the budget ran out, so a line that straddles the limit counts, and nothing after it does.
    Lines are read again when spans overlap: an agent reading both results reads them twice.
    ``read_lines(path)`` gives the file's lines (index 0 is line 1).
    """
    seen: set[Location] = set()
    words = 0
    for path, start, end in spans:
        lines = read_lines(path)
        for line_no in range(max(start, 1), min(end, len(lines)) + 1):
            if words >= budget:
                return seen, words
            seen.add((path, line_no))
            words += count_words(lines[line_no - 1])
    return seen, words


def any_within_words(
    spans: Sequence[Span],
    targets: Iterable[Location],
    read_lines: Callable[[str], Sequence[str]],
    budget: int = READ_BUDGET_WORDS,
) -> bool:
    """any@{budget}w: a target line is read before ``budget`` words have been read in rank order."""
    seen, _ = read_in_rank_order(spans, read_lines, budget)
    return any(t in seen for t in targets)


def words_in_spans(spans: Sequence[Span], read_lines: Callable[[str], Sequence[str]]) -> int:
    """Total words of the spans' lines: what reading all of them costs."""
    total = 0
    for path, start, end in spans:
        lines = read_lines(path)
        total += sum(count_words(lines[i - 1]) for i in range(max(start, 1), min(end, len(lines)) + 1))
    return total


def dcg(gains: Sequence[float]) -> float:
    """Discounted cumulative gain with linear gains and a log2(rank + 1) discount (as pytrec_eval/BEIR)."""
    return sum(g / math.log2(rank + 1) for rank, g in enumerate(gains, start=1))


def ndcg_at_k(ranked: Sequence[str], qrels: Mapping[str, float], k: int = 10) -> float:
    """nDCG@k of a ranked list of doc ids against graded (or binary) relevance judgements.

    Gains are the qrels' scores (non-positive scores count as not relevant); a doc appearing twice in
    the ranking is counted at its first position only. 0 when the query has no relevant document.
    """
    ideal = sorted((g for g in qrels.values() if g > 0), reverse=True)[:k]
    idcg = dcg(ideal)
    if idcg <= 0:
        return 0.0
    gains = [max(qrels.get(doc, 0.0), 0.0) for doc in dedupe(ranked)[:k]]
    return dcg(gains) / idcg


def recall_at_k(ranked: Sequence[str], qrels: Mapping[str, float], k: int = 100) -> float:
    """Fraction of the relevant docs (score > 0) found in the top k."""
    relevant = {doc for doc, g in qrels.items() if g > 0}
    if not relevant:
        return 0.0
    return len(relevant & set(dedupe(ranked)[:k])) / len(relevant)


def dedupe(items: Iterable[str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for item in items:
        if item not in seen:
            seen.add(item)
            out.append(item)
    return out


def percentile(values: Sequence[float], q: float) -> float | None:
    """The q-th percentile (0..100), linear interpolation between closest ranks (numpy's default)."""
    if not values:
        return None
    data = sorted(values)
    pos = (len(data) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = math.ceil(pos)
    return data[lo] + (data[hi] - data[lo]) * (pos - lo)


def mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None
