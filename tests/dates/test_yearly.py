"""memsearch.dates.yearly: a day or period named without a year, in each year of a range."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memsearch.dates import (
    query_time_window,
    yearly_occurrences,
)


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def test_a_yearly_season_reaches_every_year_whole() -> None:
    window = query_time_window("in winter", utc(2026, 1, 10))  # under way: Dec 2025 - Feb 2026
    assert window is not None and window.yearly
    assert (window.start, window.end) == (utc(2025, 12, 1), utc(2026, 3, 1))
    spans = yearly_occurrences(window.start, window.end, 2024, 2025, utc(2026, 1, 10))
    assert spans == [(utc(2025, 12, 1), utc(2026, 3, 1)), (utc(2024, 12, 1), utc(2025, 3, 1))]


def test_yearly_occurrences_nearest_past_first_then_what_is_still_to_come() -> None:
    now = utc(2026, 3, 20)
    window = query_time_window("on March 26", now)
    assert window is not None and window.start == utc(2025, 3, 26)
    spans = yearly_occurrences(window.start, window.end, 2023, 2027, now)
    assert [s.year for s, _ in spans] == [2025, 2024, 2023, 2026, 2027]
    assert all(e - s == timedelta(days=1) for s, e in spans)


def test_yearly_occurrences_of_a_leap_day_are_leap_years_only() -> None:
    spans = yearly_occurrences(utc(2024, 2, 29), utc(2024, 3, 1), 2019, 2025, utc(2025, 6, 1))
    assert [s for s, _ in spans] == [utc(2024, 2, 29), utc(2020, 2, 29)]


def test_yearly_occurrences_keep_a_range_across_new_year_whole() -> None:
    spans = yearly_occurrences(utc(2024, 12, 1), utc(2025, 3, 1), 2023, 2024, utc(2025, 6, 1))
    assert spans == [(utc(2024, 12, 1), utc(2025, 3, 1)), (utc(2023, 12, 1), utc(2024, 3, 1))]


def test_easter_and_the_nth_weekday_of_a_month() -> None:
    from datetime import date

    from memsearch.dates.yearly import easter, nth_weekday

    assert [easter(y) for y in (2023, 2024, 2025, 2026, 2038)] == [
        date(2023, 4, 9),
        date(2024, 3, 31),
        date(2025, 4, 20),
        date(2026, 4, 5),
        date(2038, 4, 25),  # the latest it can fall
    ]
    assert nth_weekday(2023, 8, 0, -1) == date(2023, 8, 28)  # the last Monday of August
    assert nth_weekday(2025, 5, 0, 1) == date(2025, 5, 5)  # the first Monday of May
    assert nth_weekday(2024, 11, 3, 4) == date(2024, 11, 28)  # the fourth Thursday of November
    assert nth_weekday(2025, 12, 2, -1) == date(2025, 12, 31)  # a month whose last day is the one
