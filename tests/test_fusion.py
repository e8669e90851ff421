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
