from datetime import UTC, datetime, timedelta

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from memsearch.index.temporal import NEUTRAL_RECENCY, TimeIndex, decay, recency_scores, window_scores

NOW = datetime(2025, 6, 1, tzinfo=UTC)


@given(st.floats(-1e6, 1e6, allow_nan=False), st.floats(0.1, 1e4))
def test_decay_never_raises_a_score(age_days, half_life):
    value = float(decay(age_days, half_life))
    assert 0.0 < value <= 1.0 or (value == 0.0 and age_days / half_life > 1000)


def test_decay_halves_at_the_half_life():
    assert abs(float(decay(90.0, 90.0)) - 0.5) < 1e-9
    assert float(decay(0.0, 90.0)) == 1.0


def test_undated_and_world_chunks_get_neutral_recency():
    ts = np.array([np.nan, (NOW - timedelta(days=3650)).timestamp(), (NOW - timedelta(days=1)).timestamp()])
    timeless = np.array([False, True, False])
    scores = recency_scores(ts, timeless, NOW, 90.0)
    assert scores[0] == NEUTRAL_RECENCY
    assert scores[1] == NEUTRAL_RECENCY  # old reference material is not punished
    assert scores[2] > 0.99


def test_window_scores_inside_then_decay_outside():
    start, end = datetime(2025, 3, 26, tzinfo=UTC), datetime(2025, 3, 27, tzinfo=UTC)
    ts = np.array(
        [
            datetime(2025, 3, 26, 12, tzinfo=UTC).timestamp(),
            datetime(2025, 3, 28, 12, tzinfo=UTC).timestamp(),
            datetime(2025, 1, 1, tzinfo=UTC).timestamp(),
            np.nan,
        ]
    )
    scores = window_scores(ts, start, end)
    assert scores[0] == 1.0
    assert 0 < scores[1] < 1.0
    assert scores[2] == 0.0 and scores[3] == 0.0


def test_time_index_window_and_recency_lists():
    index = TimeIndex()
    for i, days in enumerate([1, 30, 400]):
        index.set(i, NOW - timedelta(days=days), timeless=False)
    index.set(3, None, timeless=False)
    recent = index.search(10, NOW, 90.0)
    assert [h.chunk_id for h in recent][:2] == [0, 1]
    window = (NOW - timedelta(days=31), NOW - timedelta(days=29))
    near = index.search(10, NOW, 90.0, window=window)
    assert near[0].chunk_id == 1
    only = index.search(10, NOW, 90.0, candidates=np.array([2, 3]))
    assert {h.chunk_id for h in only} == {2, 3}


def test_unused_slots_are_never_listed():
    index = TimeIndex()
    index.set(0, None, timeless=False)
    index.set(1, NOW, timeless=False)
    index.remove(1)
    assert [h.chunk_id for h in index.search(100, NOW, 90.0)] == [0]


def _full_pass(index, k, now, half_life, window=None, allowed=None, candidates=None):
    """The list as a pass over every chunk id computes it (the reference for the pruned search)."""
    from memsearch.index.keyword import fit_mask, top_hits

    ts = index.timestamps
    if window is not None:
        scores = window_scores(ts, *window) * (
            1.0 + 0.01 * recency_scores(ts, index.timeless, now, half_life)
        )
        mask = index.present & ~np.isnan(ts)
    else:
        scores = recency_scores(ts, index.timeless, now, half_life)
        mask = index.present.copy()
    if allowed is not None:
        mask &= fit_mask(allowed, len(ts))
    if candidates is not None:
        only = np.zeros(len(ts), dtype=bool)
        only[candidates[candidates < len(ts)]] = True
        mask &= only
    return top_hits(np.where(mask, scores, 0.0), k)


def test_pruned_search_equals_a_pass_over_every_chunk():
    rng = np.random.default_rng(11)
    index = TimeIndex()
    for i in range(3000):
        if rng.random() < 0.1:
            index.set(i, None, timeless=False)
        else:  # many chunks share a timestamp (a day's journal entries): ties at the cut
            when = NOW - timedelta(days=int(rng.integers(0, 2000)), hours=int(rng.integers(0, 3)) * 8)
            index.set(i, when, timeless=bool(rng.random() < 0.2))
    for i in rng.choice(3000, 200, replace=False):
        index.remove(int(i))
    for trial in range(300):
        window = None
        if trial % 2:
            start = NOW - timedelta(days=int(rng.integers(0, 2100)), hours=int(rng.integers(0, 24)))
            window = (start, start + timedelta(days=int(rng.choice([1, 7, 31, 365]))))
        candidates = rng.choice(3100, int(rng.integers(1, 300))).astype(np.int64) if trial % 3 else None
        allowed = rng.random(int(rng.choice([1500, 3000, 4000]))) < 0.5 if trial % 5 == 0 else None
        k = int(rng.choice([1, 10, 100]))
        got = index.search(k, NOW, 90.0, window, allowed, candidates)
        assert got == _full_pass(index, k, NOW, 90.0, window, allowed, candidates), trial
    index.set(5000, NOW, timeless=False)  # a change after the time-sorted copy was made
    window = (NOW - timedelta(days=1), NOW + timedelta(days=1))
    assert index.search(5, NOW, 90.0, window)[0].chunk_id == 5000


def test_id_bound_follows_sets_and_removes():
    index = TimeIndex()
    assert index.id_bound() == 0
    index.set(3, NOW, timeless=False)
    index.set(70, None, timeless=True)
    assert index.id_bound() == 71
    index.remove(70)
    assert index.id_bound() == 4
    index.set(5, NOW, timeless=False)
    assert index.id_bound() == 6
