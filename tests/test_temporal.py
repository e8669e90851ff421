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
