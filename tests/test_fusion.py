import pytest
from hypothesis import given
from hypothesis import strategies as st

from memsearch.fusion import max_possible, rrf
from memsearch.models import Hit


def _lists():
    return {
        "keyword": [Hit(1, 9.0), Hit(2, 4.0), Hit(3, 1.0)],
        "semantic": [Hit(2, 0.9), Hit(4, 0.8), Hit(1, 0.7)],
        "graph": [Hit(4, 2.0)],
    }


def test_contributions_add_up_to_the_fused_score():
    weights = {"keyword": 1.0, "semantic": 0.8, "graph": 0.5}
    fused = rrf(_lists(), k=60, weights=weights, territory_weight=lambda c: 1.2 if c == 2 else 0.9)
    for f in fused:
        assert abs(sum(c.contribution for c in f.contributions) - f.score) < 1e-12
        for c in f.contributions:
            assert abs(c.contribution - f.territory_weight * weights[c.strategy] / (60 + c.rank)) < 1e-12


def test_agreement_beats_a_single_first_place():
    fused = rrf(_lists(), k=60)
    assert fused[0].chunk_id in (1, 2)
    assert {f.chunk_id for f in fused} == {1, 2, 3, 4}


def test_territory_weight_reorders_ties():
    lists = {"keyword": [Hit(1, 1.0)], "semantic": [Hit(2, 1.0)]}
    fused = rrf(lists, territory_weight=lambda c: 1.3 if c == 2 else 0.9)
    assert [f.chunk_id for f in fused] == [2, 1]


def test_zero_weight_list_is_ignored():
    fused = rrf(_lists(), weights={"graph": 0.0})
    assert all(c.strategy != "graph" for f in fused for c in f.contributions)


def test_max_possible_is_reached_by_first_everywhere():
    lists = {"a": [Hit(7, 1.0)], "b": [Hit(7, 5.0)]}
    fused = rrf(lists, k=60, territory_weight=lambda c: 1.3)
    assert abs(fused[0].score - max_possible({}, ["a", "b"], 60, 1.3)) < 1e-12


@given(
    st.lists(st.integers(0, 30), min_size=1, max_size=20, unique=True),
    st.lists(st.integers(0, 30), min_size=1, max_size=20, unique=True),
    st.floats(0.001, 1000),
)
def test_rrf_ignores_score_scale(ids_a, ids_b, scale):
    """Only ranks matter: rescaling one list's scores never changes the fusion."""
    a = [Hit(c, float(len(ids_a) - i)) for i, c in enumerate(ids_a)]
    b = [Hit(c, float(len(ids_b) - i)) for i, c in enumerate(ids_b)]
    scaled = [Hit(h.chunk_id, h.score * scale) for h in a]
    first = [(f.chunk_id, round(f.score, 12)) for f in rrf({"a": a, "b": b})]
    second = [(f.chunk_id, round(f.score, 12)) for f in rrf({"a": scaled, "b": b})]
    assert first == second


@given(
    st.lists(st.integers(0, 30), min_size=1, max_size=20, unique=True),
    st.lists(st.floats(0.01, 100), min_size=20, max_size=20),
    st.floats(0.001, 1000),
)
def test_strength_mix_is_still_scale_free(ids, raw, scale):
    """Hits are weighed by score / the list's top score, so rescaling a list changes nothing."""
    scores = sorted(raw[: len(ids)], reverse=True)
    a = [Hit(c, s) for c, s in zip(ids, scores, strict=True)]
    b = [Hit(c, s * scale) for c, s in zip(ids, scores, strict=True)]
    other = [Hit(c, 1.0) for c in reversed(ids)]
    # Compared score by score, to 9 places: two hits whose scores differ in the last bit only
    # (100.0 and 99.99999999999999) may swap places once rescaled, and neither order is wrong.
    first = sorted((-round(f.score, 9), f.chunk_id) for f in rrf({"a": a, "o": other}, strength_mix=1.0))
    second = sorted((-round(f.score, 9), f.chunk_id) for f in rrf({"a": b, "o": other}, strength_mix=1.0))
    assert first == second


def test_strength_mix_lets_a_towering_first_hit_win():
    keyword = [Hit(1, 10.0)] + [Hit(i, 1.0) for i in range(2, 14)]
    semantic = [Hit(i, 0.5) for i in range(2, 14)] + [Hit(1, 0.49)]
    plain = rrf({"keyword": keyword, "semantic": semantic}, territory_weight=lambda c: 1.3 if c == 2 else 1.0)
    mixed = rrf(
        {"keyword": keyword, "semantic": semantic},
        territory_weight=lambda c: 1.3 if c == 2 else 1.0,
        strength_mix=1.0,
    )
    assert plain[0].chunk_id == 2
    assert mixed[0].chunk_id == 1
    for f in mixed:
        assert abs(sum(c.contribution for c in f.contributions) - f.score) < 1e-12


def test_tied_scores_share_a_rank():
    """A list of ties (recency over undated notes) must not reorder what the other lists found."""
    ties = [Hit(c, 0.5) for c in (9, 8, 7)]
    fused = rrf({"keyword": [Hit(7, 3.0), Hit(8, 2.0), Hit(9, 1.0)], "time": ties}, strength_mix=1.0)
    assert [f.chunk_id for f in fused] == [7, 8, 9]
    assert {c.rank for f in fused for c in f.contributions if c.strategy == "time"} == {1}


def _fused_by_definition(lists, k, weights, territory_weight, strength_mix):
    """The fusion written out term by term, in the lists' order: what rrf computes over arrays."""
    terms: dict[int, list[tuple[str, int, float, float]]] = {}
    for name, hits in lists.items():
        w = weights.get(name, 1.0)
        if w <= 0 or not hits:
            continue
        top = max(hits[0].score, 0.0)
        rank, previous = 0, None
        for position, hit in enumerate(hits, start=1):
            if hit.score != previous:
                rank, previous = position, hit.score
            relative = max(hit.score, 0.0) / top if top > 0 else 1.0
            gain = (1.0 - strength_mix) + strength_mix * min(relative, 1.0)
            terms.setdefault(hit.chunk_id, []).append((name, rank, hit.score, w * gain / (k + rank)))
    rows = []
    for chunk_id, its in terms.items():
        tw = territory_weight(chunk_id)
        rows.append((sum(c * tw for *_, c in its), chunk_id, tw, its))
    rows.sort(key=lambda row: (-row[0], row[1]))
    return rows


@given(
    st.dictionaries(
        st.sampled_from(["semantic", "keyword", "graph", "time"]),
        st.lists(
            st.tuples(st.integers(0, 40), st.sampled_from([0.0, 0.25, 0.5, 1.0, 3.0, -0.5])), max_size=25
        ),
    ),
    st.dictionaries(
        st.sampled_from(["semantic", "keyword", "graph", "time"]), st.sampled_from([0.0, 0.5, 1.3])
    ),
    st.sampled_from([0.0, 0.5, 1.0]),
)
def test_the_fusion_over_arrays_is_the_definition_bit_for_bit(raw_lists, weights, strength_mix):
    """Scores, order, terms and their ranks exactly as the formula written out in Python gives them:
    tied scores share a rank, a negative score gains nothing, a chunk in several lists sums in order."""
    lists = {}
    for name, pairs in raw_lists.items():
        seen: dict[int, float] = {}
        for chunk_id, score in pairs:
            seen.setdefault(chunk_id, score)  # a list names a chunk once
        lists[name] = [Hit(c, s) for c, s in sorted(seen.items(), key=lambda item: -item[1])]
    territory = {c: (1.3, 0.9, 1.0, 1.2)[c % 4] for c in range(41)}
    fused = rrf(
        lists, k=60, weights=weights, territory_weight=territory.__getitem__, strength_mix=strength_mix
    )
    expected = _fused_by_definition(lists, 60, weights, territory.__getitem__, strength_mix)
    assert [(f.score, f.chunk_id, f.territory_weight) for f in fused] == [row[:3] for row in expected]
    for f, (_, _, tw, its) in zip(fused, expected, strict=True):
        assert [(c.strategy, c.rank, c.raw_score, c.contribution) for c in f.contributions] == [
            (name, rank, raw, c * tw) for name, rank, raw, c in its
        ]


def test_list_confidence_reads_the_drop_from_first_to_tenth():
    from memsearch.fusion import list_confidence

    steep = [Hit(0, 10.0)] + [Hit(i, 1.0) for i in range(1, 12)]
    flat = [Hit(i, 1.0 - i * 0.001) for i in range(12)]
    assert list_confidence(steep) == pytest.approx(0.9)
    assert list_confidence(flat) < 0.01
    assert list_confidence([Hit(0, 3.0)]) == 1.0  # past the end the score is 0
    assert list_confidence([]) == 0.0
    assert list_confidence([Hit(0, -0.2), Hit(1, -0.3)]) == 0.0
    scaled = [Hit(h.chunk_id, h.score * 7.5) for h in steep]
    assert list_confidence(scaled) == pytest.approx(list_confidence(steep))


def test_semantic_lead_only_when_the_keyword_head_is_a_steep_partial_match():
    from memsearch.fusion import semantic_lead

    conf = {"semantic": 0.5, "keyword": 1.5, "graph": 1.0}
    led = semantic_lead(conf, coverage=0.3, keyword_drop=0.6, standout=3.4)
    assert led == {"semantic": 1.25, "keyword": 0.75, "graph": 1.0}
    assert conf["keyword"] == 1.5  # the caller's dict is left alone
    # a keyword head holding half the query or more, a flat keyword list, no clear semantic head
    assert semantic_lead(conf, coverage=0.5, keyword_drop=0.6, standout=3.4) == conf
    assert semantic_lead(conf, coverage=0.3, keyword_drop=0.4, standout=3.4) == conf
    assert semantic_lead(conf, coverage=0.3, keyword_drop=0.6, standout=2.9) == conf
    assert semantic_lead(conf, coverage=None, keyword_drop=0.6, standout=3.4) == conf
    assert semantic_lead(conf, coverage=0.3, keyword_drop=0.6, standout=None) == conf
    # never lowers a semantic list that already leads
    ahead = {"semantic": 1.6, "keyword": 0.4}
    assert semantic_lead(ahead, coverage=0.3, keyword_drop=0.6, standout=3.4) == ahead


def test_graph_lead_only_when_the_keyword_head_is_partial_and_an_anchor_adds_to_its_target():
    from memsearch.fusion import graph_lead

    weights = {"graph": 0.8, "time": 0.25}
    led = graph_lead(weights, coverage=0.4, anchor_share=0.2)
    assert led == {"graph": 1.5, "time": 0.25}
    assert weights["graph"] == 0.8  # the caller's dict is left alone
    # a keyword head holding half the query or more, an anchor adding too little, none at all
    assert graph_lead(weights, coverage=0.5, anchor_share=0.2) == weights
    assert graph_lead(weights, coverage=0.4, anchor_share=0.05) == weights
    assert graph_lead(weights, coverage=0.4, anchor_share=None) == weights
    assert graph_lead(weights, coverage=None, anchor_share=0.2) == weights
    assert graph_lead({"time": 1.0}, coverage=0.4, anchor_share=0.2) == {"time": 1.0}
    # never lowers a graph list that already weighs more
    assert graph_lead({"graph": 2.0}, coverage=0.4, anchor_share=0.2) == {"graph": 2.0}
    # a head holding most of the query, but little of what it asks beyond the names it writes
    assert graph_lead(weights, coverage=0.6, beyond_names=0.3, anchor_share=0.2)["graph"] == 1.5
    assert graph_lead(weights, coverage=0.6, beyond_names=0.6, anchor_share=0.2) == weights
    # ... or most of that too, but not its rarest word
    led = graph_lead(weights, coverage=0.6, beyond_names=0.6, lacks_rarest=True, anchor_share=0.2)
    assert led["graph"] == 1.5
    assert (
        graph_lead(weights, coverage=0.6, beyond_names=0.6, lacks_rarest=True, anchor_share=0.05) == weights
    )
    assert graph_lead(weights, coverage=0.6, beyond_names=0.3, anchor_share=0.05) == weights


def test_the_walk_is_set_aside_only_on_a_partial_match_from_names_the_vault_does_not_describe():
    from memsearch.fusion import walk_aside

    weights = {"semantic": 1.0, "keyword": 1.0, "graph": 0.9, "time": 0.25}
    aside = walk_aside(weights, partial=True, modelled=False)
    assert aside == {**weights, "graph": 0.0}
    assert weights["graph"] == 0.9  # the caller's dict is left alone
    # a seed with a note or an alias, a head holding the query, a walk from no name, no graph list
    assert walk_aside(weights, partial=True, modelled=True) == weights
    assert walk_aside(weights, partial=False, modelled=False) == weights
    assert walk_aside(weights, partial=True, modelled=None) == weights
    assert walk_aside({"time": 1.0}, partial=True, modelled=False) == {"time": 1.0}
    # a graph list that leads (a link on the heads reaches the answer) keeps its weight
    assert walk_aside({"graph": 1.5}, partial=True, modelled=False, lead=1.5) == {"graph": 1.5}


def test_the_first_files_lift_what_their_links_reach_by_what_the_anchor_adds():
    from memsearch.fusion import follow_head_links

    files = {
        1: "hub.md",
        2: "hub.md",
        3: "other.md",
        4: "far.md",
        5: "technique.md",
        6: "tail.md",
        7: "mid.md",
    }
    tw = {1: 1.1, 2: 1.1, 3: 1.0, 4: 1.0, 5: 1.2, 6: 1.0, 7: 1.0}
    lists = {"keyword": [Hit(1, 9.0), Hit(3, 5.0), Hit(2, 4.0), Hit(7, 3.5), Hit(4, 3.0), Hit(6, 1.0)]}
    fused = rrf(lists, k=60, territory_weight=tw.__getitem__)
    hub = fused[0].score / tw[1]
    links = {
        5: ("hub.md", 0.4),  # the technique, reached from the first file: not in the ranking yet
        6: ("hub.md", 0.0),  # an anchor that adds nothing moves nothing
        3: ("far.md", 0.9),  # far.md is the fourth file: its links are no head's
    }
    lifted = follow_head_links(fused, links, files.__getitem__, tw.__getitem__, heads=3, weight=0.5)
    by_id = {f.chunk_id: f for f in lifted}
    technique = by_id[5]
    assert technique.score == pytest.approx(0.5 * 0.4 * hub * tw[5])
    assert technique.territory_weight == tw[5]
    assert [(c.strategy, c.rank, c.raw_score) for c in technique.contributions] == [("links", 1, 0.4)]
    for f in lifted:  # the parts still add up to the score
        assert sum(c.contribution for c in f.contributions) == pytest.approx(f.score)
    unmoved = {f.chunk_id: f.score for f in fused}
    assert by_id[6].score == unmoved[6] and by_id[3].score == unmoved[3]
    assert [f.score for f in lifted] == sorted((f.score for f in lifted), reverse=True)
    assert follow_head_links(fused, {}, files.__getitem__, tw.__getitem__) is fused
    # Equal gains share a rank.
    tied = follow_head_links(
        fused,
        {5: ("hub.md", 0.4), 6: ("hub.md", 0.4)},
        files.__getitem__,
        lambda cid: 1.0,
        tie_key=lambda cid: -cid,
    )
    parts = {f.chunk_id: [c for c in f.contributions if c.strategy == "links"] for f in tied}
    assert parts[5][0].rank == parts[6][0].rank == 1


def test_a_question_hands_its_reply_a_share_ranked_among_the_replies_by_gain():
    from memsearch.fusion import lift_replies

    # Turn 1 asks and is answered by 2; turn 3 asks and is answered by 4 (not in the ranking).
    # Turn 1 ranks first by its speaker's weight (3) although its score before it is lower.
    tw = {1: 3.0, 2: 1.0, 3: 1.0, 4: 1.0, 5: 1.0}
    lists = {
        "keyword": [Hit(1, 9.0), Hit(3, 8.9), Hit(5, 8.0), Hit(2, 1.0)],
        "semantic": [Hit(5, 0.9), Hit(3, 0.8)],
    }
    fused = rrf(lists, k=60, territory_weight=tw.__getitem__)
    before = {f.chunk_id: f for f in fused}
    order = [f.chunk_id for f in fused]
    assert order.index(1) < order.index(3)
    assert before[1].score / tw[1] < before[3].score / tw[3]
    lifted = lift_replies(fused, {1: 2, 3: 4}, tw.__getitem__, weight=0.25, asking=0.8)
    by_id = {f.chunk_id: f for f in lifted}
    assert by_id[1].score == pytest.approx(before[1].score * 0.8) and by_id[1].territory_weight == tw[1] * 0.8
    assert by_id[4].score == pytest.approx(0.25 * before[3].score / tw[3] * tw[4])
    replies = {cid: next(c for c in by_id[cid].contributions if c.strategy == "replies") for cid in (2, 4)}
    assert replies[4].rank == 1 and replies[2].rank == 2  # the larger gain first
    for f in lifted:  # the parts still add up to the score
        assert sum(c.contribution for c in f.contributions) == pytest.approx(f.score)
    assert [f.score for f in lifted] == sorted((f.score for f in lifted), reverse=True)
    # Only the question turns among the first ``head`` rows hand anything.
    assert 4 not in {
        f.chunk_id for f in lift_replies(fused, {1: 2, 3: 4}, tw.__getitem__, weight=0.25, head=1)
    }


def test_a_chunk_only_a_negative_cosine_found_has_no_evidence():
    # Its gain is 0 (strength mix 1): "--explain" listed it with every part 0.000.
    fused = rrf({"semantic": [Hit(1, 0.4), Hit(2, 0.2), Hit(3, -0.1)]}, strength_mix=1.0)
    assert fused.chunk_ids() == [1, 2, 3] and fused[2].score == 0.0
    assert fused.evidenced() == 2
    assert rrf({"semantic": [Hit(1, 0.4)]}, strength_mix=1.0).evidenced() == 1
    assert rrf({}, strength_mix=1.0).evidenced() == 0
