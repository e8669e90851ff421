from datetime import UTC, date, datetime, timedelta, timezone

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from memsearch.dates import query_time_window
from memsearch.index.temporal import (
    EDIT_DATE_WEIGHT,
    NEUTRAL_RECENCY,
    TimeIndex,
    decay,
    in_window_scores,
    recency_scores,
    window_scores,
)

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


def test_entries_within_counts_only_entries_dated_inside_the_window():
    """The window is [start, end): the next day's midnight entry ranks near it (a day after may
    tell of the day) but is not a memory of it; nor is a note only edited that day."""
    index = TimeIndex()
    index.set(0, datetime(2025, 3, 10, 9, 12, tzinfo=UTC), timeless=False)
    index.set(1, datetime(2025, 3, 11, tzinfo=UTC), timeless=False)
    index.set(2, datetime(2025, 3, 9, 23, 59, tzinfo=UTC), timeless=False)
    index.set(3, datetime(2025, 3, 10, 16, 2, tzinfo=UTC), timeless=False, entry=False)
    index.set(4, datetime(2024, 3, 10, tzinfo=UTC), timeless=False)
    ids = np.arange(5)
    day = (datetime(2025, 3, 10, tzinfo=UTC), datetime(2025, 3, 11, tzinfo=UTC))
    assert index.entries_within(ids, day, NOW) == 1
    assert index.entries_within(ids, day, NOW, yearly=True) == 2  # March 10 of 2024 too
    assert index.entries_within(ids[1:], day, NOW) == 0


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
        scores = in_window_scores(ts, index.date_weights(np.arange(len(ts))), *window, now, half_life)
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
            index.set(
                i,
                when,
                timeless=bool(rng.random() < 0.2),
                entry=bool(rng.random() < 0.7),
                saved=bool(rng.random() < 0.3),
            )
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


# ------------------------------------------------------------------------------ yearly windows

YEARLY_NOW = datetime(2026, 3, 20, tzinfo=UTC)


def _yearly_index() -> TimeIndex:
    index = TimeIndex()
    dated = {
        0: datetime(2025, 3, 26, 9, tzinfo=UTC),  # the most recent past March 26
        1: datetime(2024, 3, 26, 9, tzinfo=UTC),
        2: datetime(2023, 3, 26, 9, tzinfo=UTC),
        3: datetime(2026, 3, 26, 9, tzinfo=UTC),  # after now: still to come this year
        4: datetime(2025, 3, 25, 9, tzinfo=UTC),  # a near miss of the nearest year
        5: datetime(2024, 9, 1, tzinfo=UTC),  # months away from any March 26
    }
    for chunk_id, when in dated.items():
        index.set(chunk_id, when, timeless=False)
    index.set(6, None, timeless=False)
    return index


def test_yearly_window_scores_that_day_in_every_year_nearest_past_first():
    window = query_time_window("what happened on March 26", YEARLY_NOW)
    assert window is not None and window.yearly
    hits = _yearly_index().search(10, YEARLY_NOW, 90.0, (window.start, window.end), yearly=True)
    assert [h.chunk_id for h in hits] == [0, 1, 2, 3, 4]
    scores = {h.chunk_id: h.score for h in hits}
    # every year's entry counts as inside the window (>= 1); older years only slightly lower
    assert all(scores[i] >= 1.0 for i in (0, 1, 2, 3))
    assert scores[0] / scores[2] < 1.1
    assert scores[4] < 1.0


def test_a_window_that_is_not_yearly_is_one_occurrence():
    window = query_time_window("what happened on March 26", YEARLY_NOW)
    assert window is not None
    hits = _yearly_index().search(10, YEARLY_NOW, 90.0, (window.start, window.end))
    assert [h.chunk_id for h in hits] == [0, 4]


def test_yearly_window_on_leap_day_only_meets_leap_years():
    index = TimeIndex()
    index.set(0, datetime(2024, 2, 29, 12, tzinfo=UTC), timeless=False)
    index.set(1, datetime(2023, 3, 1, 12, tzinfo=UTC), timeless=False)  # no Feb 29 in 2023
    index.set(2, datetime(2020, 2, 29, 12, tzinfo=UTC), timeless=False)
    window = query_time_window("anything from the 29th of February", YEARLY_NOW)
    assert window is not None and window.yearly
    hits = index.search(10, YEARLY_NOW, 90.0, (window.start, window.end), yearly=True)
    assert [h.chunk_id for h in hits][:2] == [0, 2]
    assert all(h.score < 1.0 for h in hits[2:])


def test_yearly_search_respects_allowed_and_candidates():
    index = _yearly_index()
    window = query_time_window("on March 26", YEARLY_NOW)
    assert window is not None
    span = (window.start, window.end)
    allowed = np.array([False, True, True, True, True, True, True])
    assert [h.chunk_id for h in index.search(10, YEARLY_NOW, 90.0, span, allowed, yearly=True)] == [
        1,
        2,
        3,
        4,
    ]
    only = np.array([2, 5], dtype=np.int64)
    assert [h.chunk_id for h in index.search(10, YEARLY_NOW, 90.0, span, None, only, yearly=True)] == [2]


def test_yearly_search_equals_the_best_occurrence_over_every_chunk():
    """The pruned yearly search scores each chunk as a pass over every chunk and every year would."""
    from memsearch.dates import yearly_occurrences
    from memsearch.index.keyword import top_hits
    from memsearch.index.temporal import inside, occurrence_weight

    rng = np.random.default_rng(5)
    index = TimeIndex()
    for i in range(2000):
        when = YEARLY_NOW - timedelta(days=int(rng.integers(-200, 1500)), hours=int(rng.integers(0, 24)))
        saved = bool(rng.random() < 0.3)
        index.set(i, when, timeless=bool(rng.random() < 0.1), entry=bool(rng.random() < 0.7), saved=saved)
    index.set(2000, None, timeless=False)
    ts = index.timestamps
    for trial in range(40):
        month, day = int(rng.integers(1, 13)), int(rng.integers(1, 29))
        window = query_time_window(
            f"on {day}/{month}" if trial % 2 else f"in {MONTHS[month - 1]}", YEARLY_NOW
        )
        assert window is not None and window.yearly, trial
        best = np.zeros(len(ts), dtype=np.float32)
        for rank, span in enumerate(yearly_occurrences(window.start, window.end, 1990, 2030, YEARLY_NOW)):
            weight = occurrence_weight(rank if span[0] <= YEARLY_NOW else None)
            weights = index.date_weights(np.arange(len(ts)))
            scores = in_window_scores(ts, weights, *span, YEARLY_NOW, 90.0)
            within = inside(ts, span[0].timestamp(), span[1].timestamp())
            scores = scores * np.where(within, np.float32(weight), np.float32(1.0))
            best = np.maximum(best, np.where(np.isnan(ts), 0.0, scores))
        got = index.search(50, YEARLY_NOW, 90.0, (window.start, window.end), yearly=True)
        assert got == top_hits(best, 50), trial


MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]


def test_in_a_window_a_timeless_note_does_not_outrank_a_newer_entry_by_its_neutral_recency():
    """Within a window the tie-break is each chunk's own date: a world (timeless) note dated early in
    the window used to get neutral recency (0.5) and rank above every entry older than a half-life."""
    index = TimeIndex()
    index.set(0, datetime(2024, 12, 1, tzinfo=UTC), timeless=False)  # an entry late in 2024
    index.set(1, datetime(2024, 2, 1, tzinfo=UTC), timeless=True)  # a world note dated early in 2024
    window = (datetime(2024, 1, 1, tzinfo=UTC), datetime(2025, 1, 1, tzinfo=UTC))
    assert [h.chunk_id for h in index.search(10, NOW, 90.0, window=window)] == [0, 1]


def test_in_a_window_an_edit_date_counts_a_fraction_of_an_entry_date():
    index = TimeIndex()
    index.set(0, datetime(2025, 3, 10, tzinfo=UTC), timeless=False, entry=True)  # a journal day
    index.set(1, datetime(2025, 3, 20, tzinfo=UTC), timeless=False, entry=False)  # an edit, newer
    index.set(2, datetime(2025, 5, 10, tzinfo=UTC), timeless=False, entry=True)  # an entry a month out
    window = (datetime(2025, 3, 1, tzinfo=UTC), datetime(2025, 4, 1, tzinfo=UTC))
    hits = index.search(10, NOW, 90.0, window=window)
    assert [h.chunk_id for h in hits] == [0, 1, 2]
    scores = {h.chunk_id: h.score for h in hits}
    assert scores[0] >= 1.0 > scores[1]  # only entries count as "dated in the window" (the signal)
    assert abs(scores[1] / scores[0] - EDIT_DATE_WEIGHT) < 0.01
    yearly = index.search(10, NOW, 90.0, window=window, yearly=True)
    assert [h.chunk_id for h in yearly][:2] == [0, 1]


def test_entry_dated_reads_the_timestamp_source():
    from memsearch.models import Chunk, entry_dated

    def chunk(path: str, source: str) -> Chunk:
        return Chunk(
            path, 1, 1, "", "journal", "experience", datetime(2024, 5, 3, tzinfo=UTC), source, (), "x"
        )

    assert entry_dated(chunk("journal/2024-05-03.md", "filename"))
    assert entry_dated(chunk("journal/x.md", "heading")) and entry_dated(
        chunk("aster/ledger/2024-05.md", "line")
    )
    assert entry_dated(chunk("journal/2024-05-03.md", "frontmatter"))  # the file's name says the same day
    assert not entry_dated(chunk("reference/pump.md", "frontmatter"))
    assert not entry_dated(chunk("journal/2024-05-01.md", "frontmatter"))  # updated two days later
    assert not entry_dated(chunk("reference/pump.md", "mtime")) and not entry_dated(chunk("r.md", "git"))


def test_a_chunk_s_own_half_life_replaces_the_search_s():
    """A notebook moment's decay rate: its recency fades by its own half-life, the others' by the search's."""
    index = TimeIndex()
    month_ago = NOW - timedelta(days=30)
    index.set(0, month_ago, timeless=False)  # the search's 90 days
    index.set(1, month_ago, timeless=False, half_life=3.0)  # fades fast
    index.set(2, month_ago, timeless=False, half_life=float("inf"))  # decay rate 0: never fades
    scores = {h.chunk_id: h.score for h in index.search(10, NOW, 90.0)}
    assert abs(scores[0] - 0.5 ** (30 / 90)) < 1e-6
    assert abs(scores[1] - 0.5**10) < 1e-6
    assert scores[2] == 1.0
    assert [h.chunk_id for h in index.search(3, NOW, 90.0)] == [2, 0, 1]
    index.set(1, month_ago, timeless=False)  # set again without one: the search's again
    assert abs({h.chunk_id: h.score for h in index.search(10, NOW, 90.0)}[1] - scores[0]) < 1e-6


def test_a_note_dated_only_by_its_save_is_no_memory_of_a_window():
    """In a window, an entry's own date counts in full, an edit's (frontmatter ``updated``) at
    EDIT_DATE_WEIGHT, and a note dated only by when its file was saved not at all: a vault copied
    or committed at once has every such note saved that day."""
    from memsearch.index.temporal import EDIT_DATE_WEIGHT

    index = TimeIndex()
    day = datetime(2026, 11, 25, 12, tzinfo=UTC)
    index.set(0, day, timeless=False, entry=True)  # journal/2026-11-25.md
    index.set(1, day, timeless=True, entry=False)  # reference note, frontmatter updated: 2026-11-25
    index.set(2, day, timeless=True, entry=False, saved=True)  # reference note, mtime only
    index.set(3, day, timeless=False, entry=False, saved=True)  # literature/book.md, mtime only
    assert index.date_weights(np.arange(4)).tolist() == [1.0, EDIT_DATE_WEIGHT, 0.0, 0.0]
    window = (datetime(2026, 11, 23, tzinfo=UTC), datetime(2026, 11, 30, tzinfo=UTC))
    found = index.search(10, datetime(2026, 12, 4, tzinfo=UTC), 90.0, window)
    assert [h.chunk_id for h in found] == [0, 1]
    # recency, with no window, still reads the save
    assert {h.chunk_id for h in index.search(10, datetime(2026, 12, 4, tzinfo=UTC), 90.0)} == {0, 1, 2, 3}


def test_a_stamp_past_the_year_9999_in_utc_fails_no_search():
    # An index written before the chunkers checked their dates may hold one (a note dated
    # 9999-12-31T23:00-12:00): a yearless window read the years of the dated chunks back from it.
    index = _yearly_index()
    index.set(7, datetime(9999, 12, 31, 23, tzinfo=timezone(-timedelta(hours=12))), timeless=False)
    window = query_time_window("what happened on March 26", YEARLY_NOW)
    assert window is not None and window.yearly
    hits = index.search(10, YEARLY_NOW, 90.0, (window.start, window.end), yearly=True)
    assert [h.chunk_id for h in hits][:3] == [0, 1, 2]


def test_an_entry_at_the_window_s_end_is_not_of_it():
    # "what happened yesterday": tomorrow's journal is dated at the midnight that ends the window;
    # it tied the day's own entry, and the recency tie-break put it first.
    start, end = datetime(2025, 11, 16, tzinfo=UTC), datetime(2025, 11, 17, tzinfo=UTC)
    now = datetime(2025, 11, 17, 12, tzinfo=UTC)
    ts = np.array(
        [start.timestamp(), end.timestamp(), datetime(2025, 11, 16, 23, 59, tzinfo=UTC).timestamp()]
    )
    scores = in_window_scores(ts, np.ones(3), start, end, now, 30.0)
    assert scores[1] < min(scores[0], scores[2])


def test_an_open_ended_window_fades_within_a_year_not_its_own_length():
    # "before 2024": two thousand years long; a 2025 entry is not near it.
    start, end = datetime(1, 1, 1, tzinfo=UTC), datetime(2024, 1, 1, tzinfo=UTC)
    ts = np.array(
        [datetime(2023, 6, 1, tzinfo=UTC).timestamp(), datetime(2025, 6, 1, tzinfo=UTC).timestamp()]
    )
    inside, after = window_scores(ts, start, end)
    assert inside == 1.0
    assert after < 0.5


def test_a_dated_day_is_the_whole_day_so_its_neighbours_weigh_alike():
    # "on Sunday" (the 15th): the journal of Monday the 16th, dated at the midnight that ends the
    # window, scored 0.99 and Saturday's 0.5; any nudge of another list put Monday and Tuesday
    # above Saturday. A date without a time stands for its day: both neighbours are half a day
    # from the window, and well below it.
    start, end = datetime(2025, 6, 15, tzinfo=UTC), datetime(2025, 6, 16, tzinfo=UTC)
    day = [datetime(2025, 6, d, tzinfo=UTC).timestamp() for d in (14, 15, 16)]
    saturday, sunday, monday = window_scores(np.array(day), start, end)
    assert sunday == 1.0 and saturday == monday < 0.75
    # A morning holds that day's journal (its day overlaps the window), not the day before's.
    morning = window_scores(np.array(day[1:2] + day[:1]), start.replace(hour=6), start.replace(hour=12))
    assert morning[0] == 1.0 and morning[1] < 1.0
    # A moment with its time is where it is: an hour after the window ends is an hour away.
    moment = datetime(2025, 6, 16, 1, tzinfo=UTC).timestamp()
    assert window_scores(np.array([moment]), start, end)[0] > monday


def test_entries_within_counts_a_dated_day_that_overlaps_the_window():
    index = TimeIndex()
    index.set(0, datetime(2025, 6, 15, tzinfo=UTC), timeless=False)
    index.set(1, datetime(2025, 6, 16, tzinfo=UTC), timeless=False)
    morning = (datetime(2025, 6, 15, 6, tzinfo=UTC), datetime(2025, 6, 15, 12, tzinfo=UTC))
    assert index.entries_within(np.array([0, 1]), morning, datetime(2025, 6, 18, tzinfo=UTC)) == 1


def test_a_yearly_windows_neighbours_stay_below_its_entries_in_every_year():
    # "in May", asked in June 2025: June 1st and 2nd 2025, neighbours of the nearest May, took the
    # nearest year's bonus and ranked above May 2024's and May 2023's own entries.
    now = datetime(2025, 6, 18, 15, tzinfo=UTC)
    index = TimeIndex()
    for chunk_id, day in enumerate([date(2025, 6, 1), date(2025, 6, 2), date(2024, 5, 4), date(2023, 5, 1)]):
        index.set(chunk_id, datetime(day.year, day.month, day.day, tzinfo=UTC), timeless=False)
    window = query_time_window("what happened in May", now)
    assert window is not None and window.yearly
    hits = index.search(10, now, 90.0, (window.start, window.end), yearly=True)
    assert [h.chunk_id for h in hits] == [2, 3, 0, 1]
