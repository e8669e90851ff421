"""memsearch.dates.windows: the time window a query talks about, and the phrase that names it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memsearch.dates import (
    query_time_window,
    strip_time_phrase,
)
from memsearch.dates.windows import PAST_NOW


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


# --------------------------------------------------------------------------- query_time_window

NOW = datetime(2025, 6, 18, 15, 30, tzinfo=UTC)  # a Wednesday
UP_TO_NOW = NOW + PAST_NOW  # the end of a window that runs up to now (it holds now)
OPEN_START = datetime.min.replace(tzinfo=UTC)
OPEN_END = datetime.max.replace(tzinfo=UTC)


@pytest.mark.parametrize(
    ("query", "start", "end", "text"),
    [
        # explicit days
        ("what happened on March 26", utc(2025, 3, 26), utc(2025, 3, 27), "on March 26"),
        ("March 26th deploy", utc(2025, 3, 26), utc(2025, 3, 27), "March 26th"),
        ("26 March build", utc(2025, 3, 26), utc(2025, 3, 27), "26 March"),
        ("the 4th of July party", utc(2024, 7, 4), utc(2024, 7, 5), "the 4th of July"),
        ("June 20 meeting", utc(2024, 6, 20), utc(2024, 6, 21), "June 20"),  # not yet this year
        ("June 18 meeting", utc(2025, 6, 18), utc(2025, 6, 19), "June 18"),  # today counts
        ("2024-03-26 incident", utc(2024, 3, 26), utc(2024, 3, 27), "2024-03-26"),
        ("notes from 2024/03/26", utc(2024, 3, 26), utc(2024, 3, 27), "from 2024/03/26"),
        ("on 26 March 2024", utc(2024, 3, 26), utc(2024, 3, 27), "on 26 March 2024"),
        ("What about May 8, 2023?", utc(2023, 5, 8), utc(2023, 5, 9), "May 8, 2023"),
        ("ON MARCH 26", utc(2025, 3, 26), utc(2025, 3, 27), "ON MARCH 26"),
        # months
        ("in May 2023", utc(2023, 5, 1), utc(2023, 6, 1), "in May 2023"),
        ("the May 2023 retro", utc(2023, 5, 1), utc(2023, 6, 1), "May 2023"),
        ("what did I do in May", utc(2025, 5, 1), utc(2025, 6, 1), "in May"),
        ("trips in July", utc(2024, 7, 1), utc(2024, 8, 1), "in July"),
        ("in June", utc(2025, 6, 1), utc(2025, 7, 1), "in June"),
        ("events in march", utc(2025, 3, 1), utc(2025, 4, 1), "in march"),
        ("summary for 2024-03", utc(2024, 3, 1), utc(2024, 4, 1), "2024-03"),
        ("last December", utc(2024, 12, 1), utc(2025, 1, 1), "last December"),
        # years
        ("in 2025", utc(2025, 1, 1), utc(2026, 1, 1), "in 2025"),
        ("during 2023 we moved", utc(2023, 1, 1), utc(2024, 1, 1), "during 2023"),
        # relative days and calendar units
        ("today", utc(2025, 6, 18), utc(2025, 6, 19), "today"),
        ("what broke yesterday", utc(2025, 6, 17), utc(2025, 6, 18), "yesterday"),
        ("this week", utc(2025, 6, 16), utc(2025, 6, 23), "this week"),
        ("last week's standups", utc(2025, 6, 9), utc(2025, 6, 16), "last week"),
        ("this month", utc(2025, 6, 1), utc(2025, 7, 1), "this month"),
        ("last month", utc(2025, 5, 1), utc(2025, 6, 1), "last month"),
        ("this year", utc(2025, 1, 1), utc(2026, 1, 1), "this year"),
        ("last year", utc(2024, 1, 1), utc(2025, 1, 1), "last year"),
        ("on Monday", utc(2025, 6, 16), utc(2025, 6, 17), "on Monday"),
        # N units ago: the unit around that point
        ("3 days ago", utc(2025, 6, 15), utc(2025, 6, 16), "3 days ago"),
        ("two weeks ago", utc(2025, 6, 2), utc(2025, 6, 9), "two weeks ago"),
        ("a month ago", utc(2025, 5, 1), utc(2025, 6, 1), "a month ago"),
        ("twelve months ago", utc(2024, 6, 1), utc(2024, 7, 1), "twelve months ago"),
        ("one year ago", utc(2024, 1, 1), utc(2025, 1, 1), "one year ago"),
        # rolling windows
        ("past 3 days", utc(2025, 6, 15, 15, 30), UP_TO_NOW, "past 3 days"),
        ("in the last 2 weeks", utc(2025, 6, 4, 15, 30), UP_TO_NOW, "in the last 2 weeks"),
        ("over the past five days", utc(2025, 6, 13, 15, 30), UP_TO_NOW, "over the past five days"),
        ("in the past week", utc(2025, 6, 11, 15, 30), UP_TO_NOW, "in the past week"),
        ("what did I log in the last hour", utc(2025, 6, 18, 14, 30), UP_TO_NOW, "in the last hour"),
        ("within the past day", utc(2025, 6, 17, 15, 30), UP_TO_NOW, "within the past day"),
        ("what have I learned recently", utc(2025, 5, 19, 15, 30), UP_TO_NOW, "recently"),
        # a date the query names says more than "recently"
        ("the cake she made recently in May 2024", utc(2024, 5, 1), utc(2024, 6, 1), "in May 2024"),
        # within it
        ("what did I organise recently in 2025", utc(2025, 5, 19, 15, 30), UP_TO_NOW, "recently"),
        # "the last year" is the twelve months up to now; "last year" the calendar year before
        ("who visited in the last year", utc(2024, 6, 18, 15, 30), UP_TO_NOW, "in the last year"),
        ("over the last month", utc(2025, 5, 18, 15, 30), UP_TO_NOW, "over the last month"),
        ("lately", utc(2025, 5, 19, 15, 30), UP_TO_NOW, "lately"),
        # ranges
        ("since March 2025", utc(2025, 3, 1), UP_TO_NOW, "since March 2025"),
        ("since last week", utc(2025, 6, 9), UP_TO_NOW, "since last week"),
        ("since 2024", utc(2024, 1, 1), UP_TO_NOW, "since 2024"),
        ("before 2020", OPEN_START, utc(2020, 1, 1), "before 2020"),
        ("before March 26", OPEN_START, utc(2025, 3, 26), "before March 26"),
        ("after May 2025", utc(2025, 6, 1), UP_TO_NOW, "after May 2025"),
        ("after 2030", utc(2031, 1, 1), OPEN_END, "after 2030"),
        ("until March 2024", OPEN_START, utc(2024, 4, 1), "until March 2024"),
        ("between March 1 and March 10", utc(2025, 3, 1), utc(2025, 3, 11), "between March 1 and March 10"),
        ("between 2020 and 2022", utc(2020, 1, 1), utc(2023, 1, 1), "between 2020 and 2022"),
        ("from May to July 2023", utc(2023, 5, 1), utc(2023, 8, 1), "from May to July 2023"),
        ("between May and July", utc(2024, 5, 1), utc(2024, 8, 1), "between May and July"),
        (
            "from 2024-01-01 to 2024-02-01",
            utc(2024, 1, 1),
            utc(2024, 2, 2),
            "from 2024-01-01 to 2024-02-01",
        ),
        # named days: the most recent occurrence not after now
        ("what happened on Christmas Eve", utc(2024, 12, 24), utc(2024, 12, 25), "on Christmas Eve"),
        ("Christmas Day lunch", utc(2024, 12, 25), utc(2024, 12, 26), "Christmas Day"),
        ("New Year's Eve", utc(2024, 12, 31), utc(2025, 1, 1), "New Year's Eve"),
        ("on new years day", utc(2025, 1, 1), utc(2025, 1, 2), "on new years day"),
        ("on April Fools' Day", utc(2025, 4, 1), utc(2025, 4, 2), "on April Fools' Day"),
        ("on Valentine’s Day", utc(2025, 2, 14), utc(2025, 2, 15), "on Valentine’s Day"),
        ("what went on at Halloween", utc(2024, 10, 31), utc(2024, 11, 1), "Halloween"),
        ("Bonfire Night", utc(2024, 11, 5), utc(2024, 11, 6), "Bonfire Night"),
        ("on Christmas Eve 2022", utc(2022, 12, 24), utc(2022, 12, 25), "on Christmas Eve 2022"),
        # numeric days, day first (UK): 3/7 is 3 July
        ("what happened on 26/3", utc(2025, 3, 26), utc(2025, 3, 27), "on 26/3"),
        ("on 3/7", utc(2024, 7, 3), utc(2024, 7, 4), "on 3/7"),
        ("What happened on 5/11/2024?", utc(2024, 11, 5), utc(2024, 11, 6), "on 5/11/2024"),
        ("5/11/2024 standup", utc(2024, 11, 5), utc(2024, 11, 6), "5/11/2024"),
        ("what happened on the 3rd of March", utc(2025, 3, 3), utc(2025, 3, 4), "on the 3rd of March"),
        # relative phrases that were missing here: they resolve against now
        ("two weeks ago", utc(2025, 6, 2), utc(2025, 6, 9), "two weeks ago"),
        # "so far": from the 1st up to now, not the rest of the month still to come
        ("what's come up so far this month", utc(2025, 6, 1), UP_TO_NOW, "so far this month"),
        ("since May", utc(2025, 5, 1), UP_TO_NOW, "since May"),
        # several phrases: the narrowest wins
        ("what happened yesterday in May 2023", utc(2025, 6, 17), utc(2025, 6, 18), "yesterday"),
        # a year stated beside a yearless day pins the day to it
        ("in 2024, on March 26", utc(2024, 3, 26), utc(2024, 3, 27), "in 2024, on March 26"),
        ("since 2020 and last week", utc(2025, 6, 9), utc(2025, 6, 16), "last week"),
    ],
)
def test_query_time_window(query: str, start: datetime, end: datetime, text: str) -> None:
    window = query_time_window(query, NOW)
    assert window is not None
    assert (window.start, window.end, window.text) == (start, end, text)
    assert window.start.tzinfo is not None and window.end.tzinfo is not None


@pytest.mark.parametrize(
    "query",
    [
        "",
        "how does the indexer work",
        "May I ask what the build does?",
        "you may want to retry",
        "this may help",
        "the march of time",
        "they march on",
        "python 3.11.2 upgrade",
        "call 555-123-4567",
        "2023",
        "error 2023 in the log",
        "meeting at 25:99",
        "Feb 30",
        "on Feb 30",
        "a 1:1 with Sam",
        "took 2000 ms in total",
        "sunday school notes",
        "the last word",
        "which easter eggs are hidden in the app",
        "the Easter Island trip",
        "I was sick on 9 and 17",  # two days, and no month
        # after a possessive, "last" is the final one of someone's, not the one before now
        "When was Lockie's last Wednesday session?",
        "Lockie’s last Friday shift",
        "what did Priya do in her last week at the clinic",
        "my last month in the job",
        "the Joneses' last weekend away",
    ],
)
def test_query_time_window_none(query: str) -> None:
    assert query_time_window(query, NOW) is None


# Seasons are meteorological, northern hemisphere: spring Mar-May, summer Jun-Aug, autumn Sep-Nov,
# winter Dec-Feb (named by the year of its January). NOW is 2025-06-18.
@pytest.mark.parametrize(
    ("query", "start", "end", "text", "yearly"),
    [
        ("what did I plant in spring 2025", utc(2025, 3, 1), utc(2025, 6, 1), "in spring 2025", False),
        ("the summer of 2023", utc(2023, 6, 1), utc(2023, 9, 1), "summer of 2023", False),
        ("last spring", utc(2025, 3, 1), utc(2025, 6, 1), "last spring", False),  # just over
        ("last summer", utc(2024, 6, 1), utc(2024, 9, 1), "last summer", False),  # this one is under way
        ("this summer", utc(2025, 6, 1), utc(2025, 9, 1), "this summer", False),
        ("last winter", utc(2024, 12, 1), utc(2025, 3, 1), "last winter", False),
        ("in winter 2024", utc(2023, 12, 1), utc(2024, 3, 1), "in winter 2024", False),
        ("winter 2024/25", utc(2024, 12, 1), utc(2025, 3, 1), "winter 2024/25", False),
        ("what happened in the autumn", utc(2024, 9, 1), utc(2024, 12, 1), "in the autumn", True),
        ("in the fall", utc(2024, 9, 1), utc(2024, 12, 1), "in the fall", True),
        # halves, weeks and thirds of a month
        ("the second half of August", utc(2024, 8, 16), utc(2024, 9, 1), "the second half of August", True),
        ("the first half of May", utc(2025, 5, 1), utc(2025, 5, 16), "the first half of May", True),
        ("the first week of May", utc(2025, 5, 1), utc(2025, 5, 8), "the first week of May", True),
        ("the last week of May", utc(2025, 5, 25), utc(2025, 6, 1), "the last week of May", True),
        (
            "in the second week of May 2024",
            utc(2024, 5, 8),
            utc(2024, 5, 15),
            "in the second week of May 2024",
            False,
        ),
        ("early March", utc(2025, 3, 1), utc(2025, 3, 11), "early March", True),
        ("mid March", utc(2025, 3, 11), utc(2025, 3, 21), "mid March", True),
        ("mid-March", utc(2025, 3, 11), utc(2025, 3, 21), "mid-March", True),
        ("late March", utc(2025, 3, 21), utc(2025, 4, 1), "late March", True),
        ("late June", utc(2024, 6, 21), utc(2024, 7, 1), "late June", True),  # not yet this year
        ("early March 2024", utc(2024, 3, 1), utc(2024, 3, 11), "early March 2024", False),
        # quarters and halves of a year
        ("the first quarter of 2024", utc(2024, 1, 1), utc(2024, 4, 1), "the first quarter of 2024", False),
        ("the second quarter of 2024", utc(2024, 4, 1), utc(2024, 7, 1), "the second quarter of 2024", False),
        ("the third quarter of 2024", utc(2024, 7, 1), utc(2024, 10, 1), "the third quarter of 2024", False),
        (
            "the fourth quarter of 2024",
            utc(2024, 10, 1),
            utc(2025, 1, 1),
            "the fourth quarter of 2024",
            False,
        ),
        ("Q1 2024", utc(2024, 1, 1), utc(2024, 4, 1), "Q1 2024", False),
        ("in Q3 2024", utc(2024, 7, 1), utc(2024, 10, 1), "in Q3 2024", False),
        ("in Q3", utc(2024, 7, 1), utc(2024, 10, 1), "in Q3", True),
        ("this quarter", utc(2025, 4, 1), utc(2025, 7, 1), "this quarter", False),
        ("last quarter", utc(2025, 1, 1), utc(2025, 4, 1), "last quarter", False),
        ("the first half of 2024", utc(2024, 1, 1), utc(2024, 7, 1), "the first half of 2024", False),
        # relative to now
        ("so far this month", utc(2025, 6, 1), UP_TO_NOW, "so far this month", False),
        ("this year so far", utc(2025, 1, 1), UP_TO_NOW, "this year so far", False),
        ("a fortnight ago", utc(2025, 6, 2), utc(2025, 6, 9), "a fortnight ago", False),  # = two weeks ago
        ("over the past fortnight", utc(2025, 6, 4, 15, 30), UP_TO_NOW, "over the past fortnight", False),
        ("ten days ago", utc(2025, 6, 8), utc(2025, 6, 9), "ten days ago", False),
        # a stated year pins the day
        ("on March 26, in 2024", utc(2024, 3, 26), utc(2024, 3, 27), "on March 26, in 2024", False),
        ("in 2024 what happened on March 26", utc(2024, 3, 26), utc(2024, 3, 27), "on March 26", False),
        ("early May last year", utc(2024, 5, 1), utc(2024, 5, 11), "early May last year", False),
        (
            "the second half of August this year",
            utc(2025, 8, 16),  # still to come, but the year says which
            utc(2025, 9, 1),
            "the second half of August this year",
            False,
        ),
        ("in 2023, in early May", utc(2023, 5, 1), utc(2023, 5, 11), "in 2023, in early May", False),
        ("on March 26 2024", utc(2024, 3, 26), utc(2024, 3, 27), "on March 26 2024", False),
        ("26 March 2024", utc(2024, 3, 26), utc(2024, 3, 27), "26 March 2024", False),
    ],
)
def test_seasons_parts_quarters_and_pinned_years(
    query: str, start: datetime, end: datetime, text: str, yearly: bool
) -> None:
    window = query_time_window(query, NOW)
    assert window is not None
    assert (window.start, window.end, window.text, window.yearly) == (start, end, text, yearly)


def test_this_winter_in_june_is_the_one_to_come() -> None:
    window = query_time_window("this winter", NOW)
    assert window is not None and (window.start, window.end) == (utc(2025, 12, 1), utc(2026, 3, 1))


@pytest.mark.parametrize(
    "query",
    [
        "configure logging in spring boot",
        "does this fall under the covenant",
        "hot springs",
        "q1 results",
        "the first quarter of the game",
        "the third half of May",
        "the first quarter of May",
        "a spring in the mattress",
    ],
)
def test_season_and_quarter_words_that_are_no_time(query: str) -> None:
    assert query_time_window(query, NOW) is None


@pytest.mark.parametrize(
    "query",
    ["3/4 of the tests passed", "a 2/3 majority", "on 32/1", "on 30/2", "on 13/13", "halloweenish"],
)
def test_numbers_with_a_slash_that_are_no_date(query: str) -> None:
    assert query_time_window(query, NOW) is None


@pytest.mark.parametrize(
    ("query", "yearly"),
    [
        # a day or month without a year: that day or month in every year
        ("what happened on March 26", True),
        ("the 3rd of March", True),
        ("on 26/3", True),
        ("in May", True),
        ("early May", True),
        ("on Christmas Eve", True),
        ("Halloween", True),
        ("on the 29th of February", True),
        ("between May and July", True),
        # with a year, or tied to now by a word: one occurrence
        ("on March 26 2024", False),
        ("on 5/11/2024", False),
        ("Christmas Eve 2023", False),
        ("in May 2023", False),
        ("from May to July 2023", False),
        ("since May", False),
        ("before March 26", False),
        ("last December", False),
        ("this March", False),
        # relative expressions resolve against now
        ("last week", False),
        ("yesterday", False),
        ("two weeks ago", False),
        ("last month", False),
        ("this year", False),
        ("so far this month", False),
    ],
)
def test_yearless_days_and_months_are_yearly(query: str, yearly: bool) -> None:
    window = query_time_window(query, NOW)
    assert window is not None
    assert window.yearly is yearly


#: (phrase, its first day, the day after its last, yearly): weeks and weekends of a month, runs of
#: days, weeks from a day.
RUNS_OF_DAYS = [
    # weeks of a month from its start or up to its end
    ("the last two weeks of August 2023", (2023, 8, 18), (2023, 9, 1), False),
    ("the first two weeks of May 2024", (2024, 5, 1), (2024, 5, 15), False),
    # a weekend of a month: its n-th (or last) Saturday and the Sunday after
    ("the first weekend of August 2023", (2023, 8, 5), (2023, 8, 7), False),
    ("the second weekend of March 2025", (2025, 3, 8), (2025, 3, 10), False),
    ("the last weekend of May", (2025, 5, 31), (2025, 6, 2), True),
    # a run of days in one month, yearless or not
    ("between 9 and 17 October 2025", (2025, 10, 9), (2025, 10, 18), False),
    ("between 1 and 15 March 2025", (2025, 3, 1), (2025, 3, 16), False),
    ("1-15 March", (2025, 3, 1), (2025, 3, 16), True),
    ("from 3 to 5 May", (2025, 5, 3), (2025, 5, 6), True),
    ("March 3 to 7 2024", (2024, 3, 3), (2024, 3, 8), False),
    # seven days from a day, or the calendar week that holds it
    ("the week starting 14 October 2024", (2024, 10, 14), (2024, 10, 21), False),
    ("the week beginning Monday 3 March 2025", (2025, 3, 3), (2025, 3, 10), False),
    ("week commencing 6 Jan 2025", (2025, 1, 6), (2025, 1, 13), False),
    ("the week of 15 October 2024", (2024, 10, 14), (2024, 10, 21), False),
    # movable days: Easter (the long weekend), England's bank holidays, Thanksgiving
    ("Easter", (2025, 4, 20), (2025, 4, 21), True),
    ("Easter weekend", (2025, 4, 18), (2025, 4, 22), True),
    ("Thanksgiving weekend 2024", (2024, 11, 28), (2024, 12, 2), False),
    ("Good Friday 2024", (2024, 3, 29), (2024, 3, 30), False),
    ("August bank holiday weekend in 2023", (2023, 8, 26), (2023, 8, 29), False),
    ("spring bank holiday", (2025, 5, 26), (2025, 5, 27), True),
    ("Thanksgiving 2024", (2024, 11, 28), (2024, 11, 29), False),
    # "ago today": that very day (NOW is Wednesday 2025-06-18)
    ("a fortnight ago today", (2025, 6, 4), (2025, 6, 5), False),
    ("a year ago today", (2024, 6, 18), (2024, 6, 19), False),
]


@pytest.mark.parametrize(("phrase", "first", "stop", "yearly"), RUNS_OF_DAYS)
def test_weeks_weekends_and_runs_of_days(
    phrase: str, first: tuple[int, int, int], stop: tuple[int, int, int], yearly: bool
) -> None:
    window = query_time_window(f"what happened {phrase}?", NOW)
    assert window is not None
    assert (window.start, window.end, window.yearly) == (utc(*first), utc(*stop), yearly)
    assert window.text.endswith(phrase)


#: (phrase, its first day, the day after its last): a day or span counted from a named date.
COUNTED_FROM_A_DATE = [
    # a weekday, a weekend, a week before or after the date the query names, not from now
    ("the Sunday before October 28, 2023", (2023, 10, 22), (2023, 10, 23)),
    ("the Saturday after October 28, 2023", (2023, 11, 4), (2023, 11, 5)),
    ("the Mon. before 3 March 2025", (2025, 2, 24), (2025, 2, 25)),
    ("the week before 16 November 2023", (2023, 11, 9), (2023, 11, 16)),
    ("the weekend before 4th October, 2023", (2023, 9, 30), (2023, 10, 2)),  # a Wednesday
    ("last weekend before April 10, 2023", (2023, 4, 8), (2023, 4, 10)),  # a Monday
    ("the weekend before 15 October 2023", (2023, 10, 7), (2023, 10, 9)),  # a Sunday
    ("the day after March 3, 2024", (2024, 3, 4), (2024, 3, 5)),
    ("the night before 5 May 2024", (2024, 5, 4), (2024, 5, 5)),
    # n units: the n-th one before (after) the date
    ("two weeks before August 11, 2023", (2023, 7, 28), (2023, 8, 4)),
    ("three days before 10 June 2025", (2025, 6, 7), (2025, 6, 8)),
    ("a fortnight after 1 March 2025", (2025, 3, 2), (2025, 3, 16)),
    ("the month before May 2023", (2023, 4, 1), (2023, 5, 1)),
    # "the n units before": the whole stretch up to the date
    ("the two weeks before Christmas Day 2024", (2024, 12, 11), (2024, 12, 25)),
    ("the 3 days before May 3, 2024", (2024, 4, 30), (2024, 5, 3)),
    # from a movable day: Easter is its Sunday
    ("the Monday after Easter 2024", (2024, 4, 1), (2024, 4, 2)),
    ("the Saturday before Easter 2024", (2024, 3, 30), (2024, 3, 31)),
    # "last Friday" asked as of a date: the Friday before it (23 January 2022 was a Sunday)
    ("last Friday on 23 January, 2022", (2022, 1, 21), (2022, 1, 22)),
]


def test_a_day_counted_from_a_yearless_date_is_its_latest_not_after_now() -> None:
    """Asked on Christmas Eve, "the day before Christmas Day" is today, not a year ago."""
    window = query_time_window("what did we do the day before Christmas Day", utc(2024, 12, 24, 20))
    assert window is not None and (window.start, window.end) == (utc(2024, 12, 24), utc(2024, 12, 25))
    window = query_time_window("the Sunday before March 3", utc(2025, 3, 2, 12))
    assert window is not None and window.start == utc(2025, 3, 2)


def test_a_year_the_query_names_pins_a_day_counted_from_a_yearless_date() -> None:
    window = query_time_window("in 2023, the Sunday before March 3", NOW)
    assert window is not None and not window.yearly
    assert (window.start, window.end) == (utc(2023, 2, 26), utc(2023, 2, 27))
    alone = query_time_window("the Sunday before March 3", NOW)
    assert alone is not None and alone.yearly and alone.start == utc(2025, 3, 2)


@pytest.mark.parametrize(("phrase", "first", "stop"), COUNTED_FROM_A_DATE)
def test_a_day_or_span_counted_from_a_named_date(
    phrase: str, first: tuple[int, int, int], stop: tuple[int, int, int]
) -> None:
    window = query_time_window(f"what did we do {phrase}?", NOW)
    assert window is not None
    assert (window.start, window.end, window.text) == (utc(*first), utc(*stop), phrase)


@pytest.mark.parametrize(
    ("query", "start", "end", "text"),
    [
        ("what happened before March 3", OPEN_START, utc(2025, 3, 3), "before March 3"),
        ("what did I do on Sunday", utc(2025, 6, 15), utc(2025, 6, 16), "on Sunday"),
        ("the review on 3 March 2025", utc(2025, 3, 3), utc(2025, 3, 4), "on 3 March 2025"),
    ],
)
def test_no_offset_before_the_preposition_reads_as_before(
    query: str, start: datetime, end: datetime, text: str
) -> None:
    window = query_time_window(query, NOW)
    assert window is not None
    assert (window.start, window.end, window.text) == (start, end, text)


@pytest.mark.parametrize(
    ("query", "text"),
    [
        ("what did I do last Wednesday", "last Wednesday"),
        ("what's last week's summary", "last week"),  # a contraction, not a possessive
        ("it's last month I mean", "last month"),
        ("what did Jo say last month", "last month"),
        # a place's possessive: "at Pai's" is where, "last week" still when
        ("what did we eat at Pai's last week", "last week"),
        ("I stayed at my parents' last weekend", "last weekend"),
        # a date apart from someone's "last" still lets "recently" count
        ("what did Sam post recently about his last year at uni", "recently"),
        # a yearless day counted from recurs, and a year the query names pins it
        ("in 2023, the Sunday before March 3", "in 2023, the Sunday before March 3"),
        # a range of days is said with "between", a list of two is not
        ("scores between 10 and 20 May 2024", "between 10 and 20 May 2024"),
        ("sick on 9 and 17 October 2024", "17 October 2024"),
    ],
)
def test_last_after_anything_but_a_possessive_is_still_a_date(query: str, text: str) -> None:
    window = query_time_window(query, NOW)
    assert window is not None and window.text == text


def test_query_time_window_uses_the_zone_of_now() -> None:
    east = timezone(timedelta(hours=2))
    window = query_time_window("today", datetime(2025, 6, 18, 0, 30, tzinfo=east))
    assert window is not None
    assert window.start == datetime(2025, 6, 18, tzinfo=east)
    assert window.end == datetime(2025, 6, 19, tzinfo=east)


def test_query_time_window_naive_now_is_utc() -> None:
    window = query_time_window("today", datetime(2025, 6, 18, 15, 30))
    assert window is not None
    assert window.start == utc(2025, 6, 18)


def test_feb_29_without_a_year_is_the_latest_leap_day() -> None:
    window = query_time_window("on Feb 29", NOW)
    assert window is not None
    assert window.start == utc(2024, 2, 29)


def test_last_weekday_on_that_weekday_means_a_week_ago() -> None:
    window = query_time_window("last Wednesday", NOW)
    assert window is not None
    assert window.start == utc(2025, 6, 11)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("what happened on March 26 with the build", "what happened with the build"),
        ("deploys last week?", "deploys?"),
        ("in May 2023 the team shipped", "the team shipped"),
        ("between 2020 and 2022 moves", "moves"),
        ("no time here", "no time here"),
    ],
)
def test_strip_time_phrase(query: str, expected: str) -> None:
    assert strip_time_phrase(query, query_time_window(query, NOW)) == expected


def test_strip_time_phrase_without_window() -> None:
    assert strip_time_phrase("May I ask", None) == "May I ask"


@settings(max_examples=400, deadline=None)
@given(st.text(), st.datetimes(min_value=datetime(1950, 1, 1), max_value=datetime(2090, 1, 1)))
def test_query_time_window_never_raises(query: str, now: datetime) -> None:
    window = query_time_window(query, now)
    if window is not None:
        assert window.start < window.end
        assert window.start.tzinfo is not None and window.end.tzinfo is not None
        assert window.text and window.text in query
        strip_time_phrase(query, window)


_TEMPORAL_WORDS = st.sampled_from(
    [
        "in",
        "on",
        "since",
        "before",
        "after",
        "between",
        "and",
        "from",
        "to",
        "last",
        "past",
        "this",
        "week",
        "month",
        "year",
        "days",
        "ago",
        "May",
        "March",
        "Feb",
        "Christmas Eve",
        "Halloween",
        "26/3",
        "5/11/2024",
        "29",
        "30",
        "31",
        "1st",
        "2024",
        "1899",
        "9999",
        "2024-02-29",
        "2023-02-29",
        "today",
        "yesterday",
        "recently",
        "twelve",
        "a",
        "few",
        "Monday",
        "10000",
        "99999",
    ]
)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(_TEMPORAL_WORDS, max_size=8),
    st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 1)),
)
def test_query_time_window_never_raises_on_temporal_soup(words: list[str], now: datetime) -> None:
    query = " ".join(words)
    window = query_time_window(query, now)
    if window is not None:
        assert window.start < window.end


@pytest.mark.parametrize(
    ("query", "dates"),
    [
        ("what happened on 4/3/2025", "2025-03-04"),  # which reading of a slashed date won
        ("what happened last week", "2025-06-09 to 2025-06-15"),
        ("what happened in May 2024", "2024-05-01 to 2024-05-31"),
        ("what happened 3 hours ago", "2025-06-18 12:00 to 2025-06-18 13:00"),
    ],
)
def test_a_window_says_the_days_it_was_read_as(query: str, dates: str) -> None:
    window = query_time_window(query, NOW)
    assert window is not None and window.dates() == dates


@pytest.mark.parametrize(
    "query", ["what did I do recently", "since May", "over the past week", "in the last 3 days"]
)
def test_a_window_that_runs_up_to_now_holds_now(query):
    # What was written at now is of "recently": a window's end is exclusive, and an entry at it is
    # ranked as one just outside.
    window = query_time_window(query, NOW)
    assert window is not None
    assert window.start <= NOW < window.end


@pytest.mark.parametrize(
    ("query", "start", "end", "yearly"),
    [
        ("what did I do the week before last", utc(2025, 6, 2), utc(2025, 6, 9), False),
        ("the week before last week", utc(2025, 6, 2), utc(2025, 6, 9), False),  # not "before last week"
        ("the weekend before last", utc(2025, 6, 7), utc(2025, 6, 9), False),
        ("the month before last", utc(2025, 4, 1), utc(2025, 5, 1), False),
        ("the year before last", utc(2023, 1, 1), utc(2024, 1, 1), False),
        ("what did I do last Christmas", utc(2024, 12, 25), utc(2024, 12, 26), False),
        ("what happened at Christmas", utc(2024, 12, 25), utc(2024, 12, 26), True),
        ("Christmas 2023", utc(2023, 12, 25), utc(2023, 12, 26), False),
    ],
)
def test_two_back_and_christmas(query, start, end, yearly):
    # "the week before last" and "last Christmas" had no window; "the week before last week" was
    # everything before last week.
    window = query_time_window(query, NOW)
    assert window is not None
    assert (window.start, window.end, window.yearly) == (start, end, yearly)


@pytest.mark.parametrize(
    ("query", "start", "end"),
    [
        ("what did I do the week before last Easter", utc(2025, 4, 13), utc(2025, 4, 20)),
        ("the week before last Friday", utc(2025, 6, 6), utc(2025, 6, 13)),
        ("the week before last March", utc(2025, 2, 22), utc(2025, 3, 1)),
        ("the month before last summer", utc(2024, 5, 1), utc(2024, 6, 1)),
        ("the year before last Christmas", utc(2023, 12, 25), utc(2024, 12, 25)),
        ("the week before last, we met", utc(2025, 6, 2), utc(2025, 6, 9)),  # two back, as before
        ("what did I do a week last Friday", utc(2025, 6, 6), utc(2025, 6, 7)),
        ("a fortnight last Tuesday", utc(2025, 6, 3), utc(2025, 6, 4)),
        ("two weeks last Monday", utc(2025, 6, 2), utc(2025, 6, 3)),
        ("it took a week last Friday to fix", utc(2025, 6, 13), utc(2025, 6, 14)),  # a length: last Friday
    ],
)
def test_a_span_counted_back_from_a_last_day_is_counted_from_that_day(query, start, end):
    # "the week before last Easter" was read as "the week before last" (the first half of June);
    # "a week last Friday" (British) as last Friday.
    window = query_time_window(query, NOW)
    assert window is not None
    assert (window.start, window.end) == (start, end)


@pytest.mark.parametrize(
    "query",
    [
        "the Christmas party",
        "a christmas market in town",
        "Christmas cards",
        "the Christmas holidays",
        "christmas-party photos",
        "over the Christmas break",
        "on the last day of the trip",  # the day of the trip, not the one before now
        "the last hour of the meeting",
    ],
)
def test_a_christmas_thing_or_the_last_day_of_something_is_no_window(query):
    assert query_time_window(query, NOW) is None


def test_a_window_up_to_now_shows_the_days_it_covers():
    # with now at midnight, "recently" showed "2025-02-10 00:00 to 2025-03-12 00:00"
    midnight = utc(2025, 3, 12)
    assert query_time_window("recently", midnight).dates() == "2025-02-10 to 2025-03-11"
    assert query_time_window("recently", NOW).dates() == "2025-05-19 15:30 to 2025-06-18 15:30"


@pytest.mark.parametrize(
    ("query", "start", "end"),
    [
        ("in early 2024", utc(2024, 1, 1), utc(2024, 5, 1)),
        ("at the start of 2024", utc(2024, 1, 1), utc(2024, 5, 1)),
        ("mid 2024", utc(2024, 5, 1), utc(2024, 9, 1)),
        ("what happened in late 2023", utc(2023, 9, 1), utc(2024, 1, 1)),
        ("at the end of 2023", utc(2023, 9, 1), utc(2024, 1, 1)),
    ],
)
def test_early_mid_or_late_in_a_year_is_a_third_of_it(query, start, end):
    # "early 2024" was all of 2024 (shown as "early 2024"), as "early March" is a third of March
    window = query_time_window(query, NOW)
    assert window is not None and (window.start, window.end) == (start, end)


# NOW is Wednesday 2025-06-18, 15:30.
@pytest.mark.parametrize(
    ("query", "start", "end", "text"),
    [
        # a range word before "last", "this", "early" ... applies to the span they name
        ("what changed since last Friday", utc(2025, 6, 13), UP_TO_NOW, "since last Friday"),
        ("what did I note before last Friday", OPEN_START, utc(2025, 6, 13), "before last Friday"),
        ("since early May", utc(2025, 5, 1), UP_TO_NOW, "since early May"),
        ("what happened after last Christmas", utc(2024, 12, 26), UP_TO_NOW, "after last Christmas"),
        # a part of the unit "last/this week|month|year" names
        ("what did I do earlier this week", utc(2025, 6, 16), UP_TO_NOW, "earlier this week"),
        ("earlier this month", utc(2025, 6, 1), UP_TO_NOW, "earlier this month"),
        ("the plans I made earlier this year", utc(2025, 1, 1), UP_TO_NOW, "earlier this year"),
        ("what happened late last year", utc(2024, 9, 1), utc(2025, 1, 1), "late last year"),
        ("early last year", utc(2024, 1, 1), utc(2024, 5, 1), "early last year"),
        ("at the end of last month", utc(2025, 5, 21), utc(2025, 6, 1), "end of last month"),
        ("mid last month", utc(2025, 5, 11), utc(2025, 5, 21), "mid last month"),
        ("early last week", utc(2025, 6, 9), utc(2025, 6, 12), "early last week"),
        ("late last week", utc(2025, 6, 13), utc(2025, 6, 16), "late last week"),
        # said every day, read nowhere
        ("what happened last night", utc(2025, 6, 17), utc(2025, 6, 18), "last night"),
        ("what did I do over the weekend", utc(2025, 6, 14), utc(2025, 6, 16), "over the weekend"),
        ("anything at the weekend?", utc(2025, 6, 14), utc(2025, 6, 16), "at the weekend"),
        ("what did I fix this Monday", utc(2025, 6, 16), utc(2025, 6, 17), "this Monday"),
        # month first, where no month could come first: "3/26" is March 26
        ("what happened on 3/26", utc(2025, 3, 26), utc(2025, 3, 27), "on 3/26"),
        ("the 3/26/2024 outage", utc(2024, 3, 26), utc(2024, 3, 27), "3/26/2024"),
    ],
)
def test_phrases_an_agent_says_every_day(query: str, start: datetime, end: datetime, text: str) -> None:
    window = query_time_window(query, NOW)
    assert window is not None, query
    assert (window.start, window.end, window.text) == (start, end, text)


@pytest.mark.parametrize("query", ["is the server on 24/7", "since we went 24/7"])
def test_an_idiom_is_no_date(query: str) -> None:
    assert query_time_window(query, NOW) is None


@pytest.mark.parametrize(
    ("query", "start", "end", "text"),
    [
        # "around" and "over" say nothing of the date but belong to its phrase: left in the query,
        # "around" was a word the vault never uses, and the signal called the window's entries thin
        ("what happened around March 26", utc(2025, 3, 26), utc(2025, 3, 27), "around March 26"),
        ("around mid-May", utc(2025, 5, 11), utc(2025, 5, 21), "around mid-May"),
        ("what did we do over the summer", utc(2025, 6, 1), utc(2025, 9, 1), "over the summer"),
        ("over Christmas", utc(2024, 12, 25), utc(2024, 12, 26), "over Christmas"),
        ("what changed since the weekend", utc(2025, 6, 14), UP_TO_NOW, "since the weekend"),
        ("everything from March to now", utc(2025, 3, 1), UP_TO_NOW, "from March to now"),
        ("what was I doing this time last year", utc(2024, 6, 4), utc(2024, 7, 3), "this time last year"),
    ],
)
def test_the_words_around_a_date(query: str, start: datetime, end: datetime, text: str) -> None:
    window = query_time_window(query, NOW)
    assert window is not None, query
    assert (window.start, window.end, window.text) == (start, end, text)


@pytest.mark.parametrize(
    "query",
    [
        "what do I need to finish by Friday",  # a deadline, not the days before last Friday
        "around 2000 people came",
        "over 2024 entries in the log",
        "around 3/4 of the budget",
        "what did Summer say about the dog",
        "what do I need to finish by this Friday",
        "the files we handed over may be deleted",
        "we argued over fall colours",
        "the last night of the trip",
        "this Sunday roast recipe",  # a Sunday still to come: no memory of it
    ],
)
def test_deadlines_and_counts_are_no_window(query: str) -> None:
    assert query_time_window(query, NOW) is None


@pytest.mark.parametrize(
    ("query", "text"),
    [("what did I do last Christmas", "last Christmas"), ("this Halloween", "this Halloween")],
)
def test_last_and_this_before_a_named_day_are_part_of_its_phrase(query: str, text: str) -> None:
    # "last" was left in the query: a word the vault never used, it made the answer "none".
    window = query_time_window(query, NOW)
    assert window is not None and window.text == text


@pytest.mark.parametrize(
    ("query", "text"),
    [
        ("what happened March last year", "March last year"),
        ("notes from May of last year", "May of last year"),
    ],
)
def test_a_month_before_last_year_is_that_years_month(query: str, text: str) -> None:
    # "March last year" was the whole of 2024 (a bare month needs a word before it), and 2025's
    # March ledger ranked first.
    window = query_time_window(query, NOW)
    assert window is not None and not window.yearly
    assert window.start.year == 2024 and (window.end - window.start).days in (30, 31)
    assert text in window.text


@pytest.mark.parametrize(
    ("query", "now", "start", "end"),
    [
        # read as its first day alone: the range lost its second end
        ("what did I do between Monday and Wednesday", NOW, utc(2025, 6, 16), utc(2025, 6, 19)),
        ("from Monday to Wednesday", NOW, utc(2025, 6, 16), utc(2025, 6, 19)),
        # asked on a Tuesday, Wednesday is last week's, and so is the Monday before it
        ("between Monday and Wednesday", utc(2025, 6, 17, 9), utc(2025, 6, 9), utc(2025, 6, 12)),
    ],
)
def test_a_range_of_weekdays(query: str, now: datetime, start: datetime, end: datetime) -> None:
    window = query_time_window(query, now)
    assert window is not None and (window.start, window.end) == (start, end), window


@pytest.mark.parametrize(
    ("query", "day"),
    [
        ("what happened two Fridays ago", utc(2025, 6, 6)),
        ("the Friday before last", utc(2025, 6, 6)),
        ("three Mondays ago", utc(2025, 6, 2)),
        ("one Wednesday ago", utc(2025, 6, 11)),  # today is Wednesday: one ago is last week's
    ],
)
def test_counted_weekdays(query: str, day: datetime) -> None:
    window = query_time_window(query, NOW)
    assert window is not None and (window.start, window.end) == (day, day + timedelta(days=1)), window


@pytest.mark.parametrize(
    ("query", "start", "end", "yearly"),
    [
        # the first month was lost ("Jan-Mar 2025" read as March 2025, "March through May" as May)
        ("what happened Jan-Mar 2025", utc(2025, 1, 1), utc(2025, 4, 1), False),
        ("March through May", utc(2025, 3, 1), utc(2025, 6, 1), True),
        ("from Nov to Feb", utc(2024, 11, 1), utc(2025, 3, 1), True),
    ],
)
def test_a_run_of_months(query: str, start: datetime, end: datetime, yearly: bool) -> None:
    window = query_time_window(query, NOW)
    assert window is not None and (window.start, window.end, window.yearly) == (start, end, yearly), window


# NOW is Wednesday 2025-06-18, 15:30.
@pytest.mark.parametrize(
    ("query", "start", "end", "text"),
    [
        # "back" is "ago" ("a few weeks back" read no date at all)
        ("what did I fix a few weeks back", utc(2025, 5, 12), utc(2025, 6, 9), "a few weeks back"),
        ("three days back", utc(2025, 6, 15), utc(2025, 6, 16), "three days back"),
        ("two months back", utc(2025, 4, 1), utc(2025, 5, 1), "two months back"),
        # vague, but past and near: the two weeks before today, the weeks before last week
        ("what did I read the other day", utc(2025, 6, 4), utc(2025, 6, 18), "the other day"),
        ("a bug I hit the other week", utc(2025, 5, 21), utc(2025, 6, 11), "the other week"),
        # "mid-2024" with its hyphen, as "mid 2024" is May to August
        ("what happened in mid-2024", utc(2024, 5, 1), utc(2024, 9, 1), "in mid-2024"),
        # the year the query is in, named by its part
        ("what did I plan at the start of the year", utc(2025, 1, 1), utc(2025, 5, 1), "start of the year"),
        ("at the end of the month", utc(2025, 5, 21), utc(2025, 6, 1), "end of the month"),
        # a half year written short, with its year
        ("the roadmap for H2 2024", utc(2024, 7, 1), utc(2025, 1, 1), "H2 2024"),
        ("H1 2025 goals", utc(2025, 1, 1), utc(2025, 7, 1), "H1 2025"),
        # dotted dates are day first, as written in Germany, Russia, Norway, ...
        ("what happened on 26.03.2025", utc(2025, 3, 26), utc(2025, 3, 27), "on 26.03.2025"),
        ("the 5.11.2024 release", utc(2024, 11, 5), utc(2024, 11, 6), "5.11.2024"),
    ],
)
def test_more_phrases_an_agent_says(query: str, start: datetime, end: datetime, text: str) -> None:
    window = query_time_window(query, NOW)
    assert window is not None, query
    assert (window.start, window.end, window.text) == (start, end, text)


@pytest.mark.parametrize(
    "query",
    [
        "python 3.11.4 build",  # a version: no four-digit year after a day and month
        "release 10.2.2024.1",  # a version of four parts
        "set it back two days",  # no "ago": a number after "back"
        "the H1 heading style",  # a heading, no half year without a year
        "the other side of the day",
        "a mid-2024-style layout",
    ],
)
def test_words_like_these_phrases_are_no_window(query: str) -> None:
    assert query_time_window(query, NOW) is None


# NOW is Wednesday 2025-06-18, 15:30; last Friday is 2025-06-13.
@pytest.mark.parametrize(
    ("query", "start", "end", "text"),
    [
        ("the day before last Friday", utc(2025, 6, 12), utc(2025, 6, 13), "the day before last Friday"),
        ("the day after last Friday", utc(2025, 6, 14), utc(2025, 6, 15), "the day after last Friday"),
        (
            "2 days before last Christmas",
            utc(2024, 12, 23),
            utc(2024, 12, 24),
            "2 days before last Christmas",
        ),
    ],
)
def test_a_span_counted_from_a_last_or_this_date(
    query: str, start: datetime, end: datetime, text: str
) -> None:
    # "the day before last Friday" was every day before that Friday, up from the year 1
    window = query_time_window(query, NOW)
    assert window is not None, query
    assert (window.start, window.end, window.text) == (start, end, text)


MONDAY = datetime(2025, 6, 16, 15, 30, tzinfo=UTC)


# NOW is Wednesday 2025-06-18, 15:30.
@pytest.mark.parametrize(
    ("query", "now", "start", "end"),
    [
        # "the end of the month" asked in a past tense is the last one that has begun, not the coming
        ("what did I finish at the end of the month", NOW, utc(2025, 5, 21), utc(2025, 6, 1)),
        ("at the end of the week", MONDAY, utc(2025, 6, 13), utc(2025, 6, 16)),
        ("at the start of the year", NOW, utc(2025, 1, 1), utc(2025, 5, 1)),
        # ... "end of this month" says this one
        ("at the end of this month", NOW, utc(2025, 6, 21), utc(2025, 7, 1)),
        # "earlier in the week" is "earlier this week"
        ("what did I fix earlier in the week", NOW, utc(2025, 6, 16), UP_TO_NOW),
        # a weekday of last week
        ("on Tuesday last week", NOW, utc(2025, 6, 10), utc(2025, 6, 11)),
        ("what did I do Friday of last week", NOW, utc(2025, 6, 13), utc(2025, 6, 14)),
        ("on Monday this week", NOW, utc(2025, 6, 16), utc(2025, 6, 17)),
        # a vague count is a few of them: two to five days ago, not the third alone
        ("a few days ago", MONDAY, utc(2025, 6, 11), utc(2025, 6, 15)),
        ("some weeks ago", NOW, utc(2025, 5, 12), utc(2025, 6, 9)),
        ("the other night", NOW, utc(2025, 6, 4), utc(2025, 6, 18)),
        ("in recent weeks", NOW, utc(2025, 5, 19, 15, 30), UP_TO_NOW),
    ],
)
def test_phrases_the_sweep_found(query: str, now: datetime, start: datetime, end: datetime) -> None:
    window = query_time_window(query, now)
    assert window is not None, query
    assert (window.start, window.end) == (start, end), window.dates()


@pytest.mark.parametrize(
    "query",
    [
        "I spent a few days back home",
        "we had two days back to back",
        "I owe three months back rent",
        "after two weeks back at work",
        "it took a couple of days back and forth",
        "the other day shift is short-staffed",
        "one day I rest, the other day I run",
        "one week on, the other week off",
        "version 1.2.2025 of the app",
        "the start of the year-long project",
    ],
)
def test_idioms_the_sweep_found_are_no_window(query: str) -> None:
    assert query_time_window(query, NOW) is None


@pytest.mark.parametrize(
    ("query", "start"),
    [
        ("what did we do at Xmas", utc(2024, 12, 25)),
        ("xmas eve", utc(2024, 12, 24)),
        ("since last Xmas", utc(2024, 12, 25)),
    ],
)
def test_xmas_is_christmas(query: str, start: datetime) -> None:
    window = query_time_window(query, NOW)
    assert window is not None and window.start == start, query


def test_an_xmas_thing_is_no_day() -> None:
    assert query_time_window("the xmas party playlist", NOW) is None


# NOW is Wednesday 2025-06-18, 15:30.
@pytest.mark.parametrize(
    ("query", "start", "end"),
    [
        ("what did I do this past Tuesday", utc(2025, 6, 17), utc(2025, 6, 18)),
        ("this past March", utc(2025, 3, 1), utc(2025, 4, 1)),
        ("what did I do on the 3rd", utc(2025, 6, 3), utc(2025, 6, 4)),
        ("on the 20th", utc(2025, 5, 20), utc(2025, 5, 21)),  # the 20th of June is still to come
        ("from the start of the year to now", utc(2025, 1, 1), UP_TO_NOW),
        ("from the start of the month until today", utc(2025, 6, 1), utc(2025, 6, 19)),
    ],
)
def test_more_phrases_the_sweep_found(query: str, start: datetime, end: datetime) -> None:
    window = query_time_window(query, NOW)
    assert window is not None, query
    assert (window.start, window.end) == (start, end), window.dates()


@pytest.mark.parametrize("query", ["I live on the 3rd floor", "on the 2nd attempt it worked"])
def test_an_ordinal_before_a_thing_is_no_day(query: str) -> None:
    assert query_time_window(query, NOW) is None


@pytest.mark.parametrize(
    "query", ["what did I read not long ago", "a little while ago", "a short while back"]
)
def test_not_long_ago_is_recently(query: str) -> None:
    window = query_time_window(query, NOW)
    assert window is not None, query
    assert (window.start, window.end) == (NOW - timedelta(days=30), UP_TO_NOW)


# NOW is Wednesday 2025-06-18, 15:30.
@pytest.mark.parametrize(
    ("query", "start", "end", "text"),
    [
        ("what did we do the summer before last", utc(2023, 6, 1), utc(2023, 9, 1), "the summer before last"),
        ("the Christmas before last", utc(2023, 12, 25), utc(2023, 12, 26), "the Christmas before last"),
        ("at Easter before last", utc(2024, 3, 31), utc(2024, 4, 1), "Easter before last"),
        ("in the May before last", utc(2024, 5, 1), utc(2024, 6, 1), "in the May before last"),
    ],
)
def test_a_season_or_day_before_last(query: str, start: datetime, end: datetime, text: str) -> None:
    # "the Christmas before last" read every Christmas, "the summer before last" nothing
    window = query_time_window(query, NOW)
    assert window is not None, query
    assert (window.start, window.end, window.text, window.yearly) == (start, end, text, False)


# NOW is Wednesday 2025-06-18, 15:30.
@pytest.mark.parametrize(
    ("query", "start", "end"),
    [
        ("from mid-2024 to early 2025", utc(2024, 5, 1), utc(2025, 5, 1)),
        ("from early 2024 to late 2024", utc(2024, 1, 1), utc(2025, 1, 1)),
        ("between early March and mid April", utc(2025, 3, 1), utc(2025, 4, 21)),
    ],
)
def test_a_range_whose_second_end_is_a_part(query: str, start: datetime, end: datetime) -> None:
    # the second end was lost ("from mid-2024 to early 2025" was January to April 2025... or 2024)
    window = query_time_window(query, NOW)
    assert window is not None, query
    assert (window.start, window.end, window.text) == (start, end, query), window
