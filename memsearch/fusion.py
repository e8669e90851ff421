"""Reciprocal-rank fusion: pure functions, blind to who made each list.

RRF (Cormack, Clarke & Buettcher, 2009) uses ranks only, so a list's score scale cannot
dominate. Each list carries a weight (how confident that strategy is for this query) and each
chunk's sum is multiplied by its territory's ontological weight. ``explain`` keeps every term,
and the terms add up exactly to the fused score.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, overload

import numpy as np

from memsearch.models import Hit, StrategyContribution


@dataclass(frozen=True)
class Fused:
    chunk_id: int
    score: float  # sum of contributions (territory weight included)
    territory_weight: float
    contributions: tuple[StrategyContribution, ...]


#: A row of the fused ranking: (score, chunk id, territory weight, terms), the terms either a list
#: of (strategy, rank, raw score, contribution) or the row's place in its :class:`_TermTable`, or a
#: pair of the terms before and the terms a later step added (read only when the row is shown).
Terms = list[tuple[str, int, float, float]]
Row = tuple[float, int, float, "Terms | int | tuple[Any, Terms]"]


class _TermTable:
    """Every term one :func:`rrf` call fused, as arrays, read out a chunk at a time: a query fuses a
    few hundred hits and shows ten. (A tuple a term, summed in Python, made the fusion twice as slow:
    1.06 ms a query at 100k chunks, 0.59 ms over arrays, ``eval/bench.py``'s queries.)"""

    __slots__ = ("_contributions", "_names", "_order", "_ranks", "_raws", "_starts", "_strategies")

    def __init__(
        self,
        names: list[str],
        strategies: np.ndarray,
        ranks: np.ndarray,
        raws: np.ndarray,
        contributions: np.ndarray,
        owners: np.ndarray,
        n_owners: int,
    ) -> None:
        self._names = names
        self._strategies = strategies  # each term's list, as its place in ``names``
        self._ranks = ranks
        self._raws = raws
        self._contributions = contributions
        # Each owner's terms in the order they came (list by list), found by one stable sort.
        self._order = np.argsort(owners, kind="stable")
        self._starts = np.concatenate(([0], np.cumsum(np.bincount(owners, minlength=n_owners))))

    def terms(self, owner: int) -> list[tuple[str, int, float, float]]:
        at = self._order[self._starts[owner] : self._starts[owner + 1]]
        names = self._names
        return [
            (names[s], r, raw, c)
            for s, r, raw, c in zip(
                self._strategies[at].tolist(),
                self._ranks[at].tolist(),
                self._raws[at].tolist(),
                self._contributions[at].tolist(),
                strict=True,
            )
        ]


class FusedList(Sequence[Fused]):
    """The fused ranking, best first. Each :class:`Fused` is built when it is read: a query fuses
    a few hundred hits and shows ten, and building every one cost ~1 ms a query."""

    __slots__ = ("_rows", "_table")

    def __init__(self, rows: list[Row], table: _TermTable | None = None) -> None:
        self._rows = rows
        self._table = table

    def __len__(self) -> int:
        return len(self._rows)

    @overload
    def __getitem__(self, index: int) -> Fused: ...
    @overload
    def __getitem__(self, index: slice) -> list[Fused]: ...
    def __getitem__(self, index: int | slice) -> Fused | list[Fused]:
        if isinstance(index, slice):
            return [self._fused(row) for row in self._rows[index]]
        return self._fused(self._rows[index])

    def __iter__(self) -> Iterator[Fused]:
        return (self._fused(row) for row in self._rows)

    def evidenced(self) -> int:
        """How many rows, from the first, score above 0: a chunk only a negative cosine found
        (its gain is 0) has no evidence behind it and is no result."""
        return next((i for i, row in enumerate(self._rows) if row[0] <= 0), len(self._rows))

    def chunk_ids(self, k: int | None = None) -> list[int]:
        """The first ``k`` rows' chunk ids (all: None), best first."""
        return [row[1] for row in self._rows[:k]]

    def hits(self, k: int | None = None) -> list[Hit]:
        """The first ``k`` rows (all: None) as hits of their fused scores, without their terms."""
        return [Hit(row[1], row[0]) for row in self._rows[:k]]

    def terms(self, row: Row) -> list[tuple[str, int, float, float]]:
        """A row's (strategy, rank, raw score, contribution) terms, in the order the lists came."""
        return self._terms_of(row[3])

    def _terms_of(self, terms: Any) -> list[tuple[str, int, float, float]]:
        if isinstance(terms, int):
            assert self._table is not None
            return self._table.terms(terms)
        if isinstance(terms, tuple):  # (the row's terms before, the terms added): read when shown
            before, added = terms
            return [*self._terms_of(before), *added]
        return terms

    def _fused(self, row: Row) -> Fused:
        score, chunk_id, tw, _ = row
        return Fused(
            chunk_id,
            score,
            tw,
            tuple(StrategyContribution(s, rank, raw, c * tw) for s, rank, raw, c in self.terms(row)),
        )


def rrf(
    lists: Mapping[str, Sequence[Hit]],
    *,
    k: int = 60,
    weights: Mapping[str, float] | None = None,
    territory_weight: Callable[[int], float] = lambda _chunk_id: 1.0,
    strength_mix: float = 0.0,
    tie_key: Callable[[int], Any] | None = None,
) -> FusedList:
    """Fuse ranked lists: score(c) = w_territory(c) * sum_s w_s * g_s(c) / (k + rank_s(c)). Best first.

    ``g`` is 1 in plain RRF (``strength_mix=0``). With ``strength_mix=a`` it is
    ``(1 - a) + a * score / top score of that list``: a list whose first hit towers over the rest
    (BM25 on an exact identifier) says so, while a flat list stays plain RRF. The ratio to the
    list's own top is scale-free, so fusion still never compares one list's scores with another's.

    Computed over arrays, term by term as written above and summed in the lists' order, so a
    chunk's terms (each times its territory weight) add up exactly to its score.
    """
    weights = weights or {}
    names: list[str] = []
    ids, strategies, ranks, raws, contributions = [], [], [], [], []
    for strategy, hits in lists.items():
        w = weights.get(strategy, 1.0)
        if w <= 0 or not hits:
            continue
        n = len(hits)
        hit_ids, hit_scores = zip(*hits, strict=True)  # hits are (chunk id, score) tuples
        chunk_ids = np.array(hit_ids, dtype=np.int64)
        raw = np.array(hit_scores, dtype=np.float64)
        # Tied scores share a rank: a list that cannot tell two hits apart must not pretend to.
        starts = np.ones(n, dtype=bool)
        starts[1:] = raw[1:] != raw[:-1]
        rank = np.maximum.accumulate(np.where(starts, np.arange(1, n + 1), 0))
        top = max(hits[0].score, 0.0)
        relative = np.maximum(raw, 0.0) / top if top > 0 else np.ones(n)
        gain = (1.0 - strength_mix) + strength_mix * np.minimum(relative, 1.0)
        names.append(strategy)
        ids.append(chunk_ids)
        strategies.append(np.full(n, len(names) - 1, dtype=np.int64))
        ranks.append(rank)
        raws.append(raw)
        contributions.append(w * gain / (k + rank))
    if not ids:
        return FusedList([])
    all_ids = np.concatenate(ids)
    chunk_ids, owners = np.unique(all_ids, return_inverse=True)
    owners = owners.reshape(-1)
    contribution = np.concatenate(contributions)
    tw = np.fromiter(
        (territory_weight(c) for c in chunk_ids.tolist()), dtype=np.float64, count=len(chunk_ids)
    )
    scores = np.bincount(owners, weights=contribution * tw[owners], minlength=len(chunk_ids))
    # Best first, equal scores by chunk id; then in the order of ``tie_key`` (a chunk's place in
    # the vault) where given: chunk ids depend on the order files were indexed in, the answer must not.
    order = np.lexsort((chunk_ids, -scores))
    ordered = scores[order]
    rows: list[Row] = list(
        zip(ordered.tolist(), chunk_ids[order].tolist(), tw[order].tolist(), order.tolist(), strict=True)
    )
    if tie_key is not None:
        _order_ties(rows, tie_key, ordered)
    table = _TermTable(
        names,
        np.concatenate(strategies),
        np.concatenate(ranks),
        np.concatenate(raws),
        contribution,
        owners,
        len(chunk_ids),
    )
    return FusedList(rows, table)


def _order_ties(rows: list, tie_key: Callable[[int], Any], scores: np.ndarray | None = None) -> None:
    """Each run of equal fused scores in ``tie_key`` order, in place (the key is asked only for
    rows that tie: few do; the runs are found over an array, not row by row: ``scores``, the rows'
    scores as one when the caller has it)."""
    if scores is None:
        scores = np.fromiter((row[0] for row in rows), dtype=np.float64, count=len(rows))
    equal = np.flatnonzero(scores[1:] == scores[:-1])
    if not len(equal):
        return
    for start in equal[np.concatenate(([True], equal[1:] != equal[:-1] + 1))].tolist():
        end = start + 1
        while end < len(rows) and rows[end][0] == rows[start][0]:
            end += 1
        rows[start:end] = sorted(rows[start:end], key=lambda row: tie_key(row[1]))


def list_confidence(hits: Sequence[Hit], depth: int = 10) -> float:
    """How sure a list is of its head: (s_1 - s_depth) / s_1, in [0, 1]; scale-free.

    A list whose first hit towers over its tenth (BM25 on a rare identifier) is confident; a flat
    one (every chunk half-matches) is not. Past the list's end the score is taken as 0. On LoCoMo
    this drop predicted whether the list held the evidence in its top 10 (keyword: 0.57 in the
    flattest fifth of queries, 0.95 in the steepest; semantic: 0.29 vs 0.84).
    """
    if not hits or depth < 1:
        return 1.0 if depth < 1 else 0.0
    top = hits[0].score
    if top <= 0:
        return 0.0
    at_depth = hits[depth - 1].score if len(hits) >= depth else 0.0
    return float(min(max((top - at_depth) / top, 0.0), 1.0))


def semantic_lead(
    confidence: Mapping[str, float],
    *,
    coverage: float | None,
    keyword_drop: float,
    standout: float | None,
    well_covered: float = 0.5,
    steep: float = 0.5,
    stands_out: float = 3.0,
    lead: float = 1.25,
) -> dict[str, float]:
    """The per-query confidences (mean 1) with the semantic list leading the keyword list when the
    keyword list's confidence rests on a partial match.

    A keyword head that holds under ``well_covered`` of the query's informative weight, with a drop
    from first to tenth of at least ``steep``, is a passage that shares a word or two of the query
    towering over passages that share one: the drop says the head is unlike the rest of the list,
    not that it is what the query means. When, at the same time, the nearest passage in meaning
    stands ``stands_out`` standard deviations above the query's cosine to the vault at large, the
    semantic list gets at least ``lead`` and the keyword list at most ``2 - lead``. Any other query
    (a keyword head holding most of the query, a flat keyword list, no clear semantic head) keeps
    its confidences as they were.
    """
    out = dict(confidence)
    if "semantic" not in out or "keyword" not in out or coverage is None or standout is None:
        return out
    if coverage < well_covered and keyword_drop >= steep and standout >= stands_out:
        out["semantic"] = max(out["semantic"], lead)
        out["keyword"] = min(out["keyword"], 2.0 - lead)
    return out


def partial_match(
    coverage: float | None,
    beyond_names: float | None,
    well_covered: float = 0.5,
    lacks_rarest: bool = False,
) -> bool:
    """Whether the keyword head matched the query only in part: it holds under ``well_covered`` of
    the query's informative weight, or of what the query asks beyond the entity names it writes
    (the named entity's own note, matched on its name and little else), or it lacks the rarest
    word of the latter (``lacks_rarest``: matched on the names and common words, not on what the
    query is most specifically about)."""
    if coverage is None:
        return False
    return (
        coverage < well_covered or (beyond_names is not None and beyond_names < well_covered) or lacks_rarest
    )


def graph_lead(
    weights: Mapping[str, float],
    *,
    coverage: float | None,
    anchor_share: float | None,
    beyond_names: float | None = None,
    lacks_rarest: bool = False,
    well_covered: float = 0.5,
    adds: float = 0.1,
    lead: float = 1.5,
) -> dict[str, float]:
    """The lists' weights with the graph list leading when the text lists matched the query only in
    part and a link on their heads reaches a passage that way.

    A keyword head that holds under ``well_covered`` of the query's informative weight says the
    query's words are not together in any passage: the text lists' heads are partial matches, and
    RRF's agreement between two such lists outvotes the one list that follows their links. So does
    a head that holds under ``well_covered`` of what the query asks beyond the entity names it
    writes (``beyond_names``): the named entity's own note, matched on its name and little else;
    and a head that lacks the rarest word of the latter (``lacks_rarest``).
    When, at the same time, the best anchor on those heads adds at least ``adds`` of the query's
    weight to the passage it reaches (links.py: words the passage lacks), the answer is plausibly
    where the link goes (an entity chain: the project's note names the component, the component's
    note links the technique that answers), and the graph list weighs at least ``lead``. Any other
    query (a keyword head holding most of the query and of what it asks about its names, no
    keyword list, no anchor adding to its target) keeps its weights as they were.
    """
    out = dict(weights)
    if "graph" not in out or coverage is None or anchor_share is None:
        return out
    if partial_match(coverage, beyond_names, well_covered, lacks_rarest) and anchor_share >= adds:
        out["graph"] = max(out["graph"], lead)
    return out


def walk_aside(
    weights: Mapping[str, float],
    *,
    partial: bool,
    modelled: bool | None,
    lead: float = 1.5,
) -> dict[str, float]:
    """The lists' weights with the graph list out when the text lists matched the query only in
    part and the walk started from names the vault only mentions.

    A name with a note of its own or an alias declared for it is an entity the vault describes:
    the walk from it follows what the vault says of it (the project's note, its people, its parts).
    A name with neither (a gene in a collection of abstracts, a holiday in a journal) is only
    mentioned: the walk from it ranks the passages that name it, which the keyword list finds by
    the same word, and among them those that name most of what is named beside it. When the
    keyword head holds the query, that agrees with the text lists; when it holds the query only
    in part (``partial``: fusion.partial_match), the answer lies in what the query asks beyond its
    names, which such a walk cannot see, and its agreement with the keyword list on the name
    outvotes the semantic list. ``modelled``: whether any seed of the walk has a note or an alias
    (None: the walk started from no name). A graph list that leads (:func:`graph_lead`, at
    ``lead``) keeps its weight: a link on the heads reaches the answer.
    """
    out = dict(weights)
    if "graph" in out and partial and modelled is False and out["graph"] < lead:
        out["graph"] = 0.0
    return out


def follow_head_links(
    fused: FusedList,
    links: Mapping[int, tuple[str, float]],
    file_of: Callable[[int], str],
    territory_weight: Callable[[int], float],
    *,
    heads: int = 3,
    weight: float = 0.5,
    tie_key: Callable[[int], Any] | None = None,
) -> FusedList:
    """The ranking with what its first files link to raised by them: score propagation over links,
    one step (relevance flows from a page to the pages it points at, for what its anchor says).

    ``links``: the passages that links on the text lists' heads reach, each with its linking file
    and the share of the query its anchor adds (links.py; the search passes the share of what the
    query asks beyond its names, ``Anchor.asked_share``). A passage that a link on one of the
    ranking's first ``heads`` files reaches gains ``weight`` x that share x the linking file's fused
    score (before its territory weight, then under its own): the note a hub points at for what the
    query asks climbs towards the hub, and a link whose anchor adds nothing moves nothing. The gain
    is a ``links`` part of the passage's score, ranked among the passages that gained.
    """
    rows = fused._rows
    head: dict[str, float] = {}
    for score, chunk_id, tw, _ in rows:
        path = file_of(chunk_id)
        if path not in head:
            if len(head) >= heads:
                break
            head[path] = score / tw if tw > 0 else score
    gains = [
        (weight * share * head[path], target, share)
        for target, (path, share) in links.items()
        if path in head and share > 0
    ]
    if not gains:
        return fused
    gains.sort(key=lambda gain: -gain[0])  # equal gains share a rank: their order shows nowhere
    return _with_parts(fused, list(rows), "links", gains, territory_weight, tie_key)


def lift_replies(
    fused: FusedList,
    replies: Mapping[int, int],
    territory_weight: Callable[[int], float],
    *,
    weight: float,
    asking: float = 1.0,
    head: int | None = None,
    tie_key: Callable[[int], Any] | None = None,
) -> FusedList:
    """The ranking with each question turn among its first ``head`` rows (all: None) weighed by
    ``asking`` and the turn that answers it raised by it (an adjacency pair).

    ``replies``: a transcript turn that ends with a question -> the next turn, by another speaker
    (speakers.transcript_replies). A query worded like a question asked in the conversation matches
    the asking turn, while what was asked is told in the reply. The asking turn's territory weight
    is multiplied by ``asking``; the reply gains ``weight`` x the question's fused score (before
    either weight, then under its own territory weight), as a ``replies`` part of its score, ranked
    among the replies that gained.
    """
    rows = fused._rows
    out = list(rows)
    gains = []
    for i, (score, chunk_id, tw, terms) in enumerate(rows[:head]):
        reply = replies.get(chunk_id)
        if reply is not None:
            gains.append((weight * (score / tw if tw > 0 else score), reply, score))
            out[i] = (score * asking, chunk_id, tw * asking, terms)
    if not gains:
        return fused
    gains.sort(key=lambda gain: -gain[0])  # by gain, not by the asking turns' places: weights differ

    def weight_of(target: int) -> float:  # a reply the ranking lacked: weighed as it would have been
        return territory_weight(target) * (asking if target in replies else 1.0)

    return _with_parts(fused, out, "replies", gains, weight_of, tie_key)


def _with_parts(
    fused: FusedList,
    rows: list[Row],
    name: str,
    gains: Sequence[tuple[float, int, float]],
    territory_weight: Callable[[int], float],
    tie_key: Callable[[int], Any] | None,
) -> FusedList:
    """``rows`` (``fused``'s, some reweighed) with each (gain, target, raw score) of ``gains`` added
    to its target as a ``name`` part, ranked in the order the gains come (equal gains share a rank),
    under the target's territory weight (a target the rows lack joins them): best first again."""
    at = {row[1]: i for i, row in enumerate(rows)}
    rank, previous = 0, None
    for position, (gain, target, raw) in enumerate(gains, start=1):
        if gain != previous:  # equal gains share a rank
            rank, previous = position, gain
        term = (name, rank, raw, gain)
        i = at.get(target)
        if i is None:
            tw = territory_weight(target)
            at[target] = len(rows)
            rows.append((gain * tw, target, tw, [term]))
        else:
            score, chunk_id, tw, terms = rows[i]
            rows[i] = (score + gain * tw, chunk_id, tw, (terms, [term]))
    rows.sort(key=lambda row: (-row[0], row[1]))
    if tie_key is not None:
        _order_ties(rows, tie_key)
    return FusedList(rows, fused._table)


def max_possible(
    weights: Mapping[str, float], strategies: Sequence[str], k: int, max_territory_weight: float
) -> float:
    """The fused score of a chunk ranked first by every strategy that ran, in the weightiest territory."""
    return max_territory_weight * sum(max(weights.get(s, 1.0), 0.0) for s in strategies) / (k + 1)
