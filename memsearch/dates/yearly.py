"""Days, months and periods of the year named without a year ("March 26", "in May", "last summer",
"the first week of May", "early March", "Q1").

Each is a resolver: a function from a year to that year's span (None where the year has no such
day, as Feb 29). From a resolver this module picks the occurrence a query means relative to now
(the latest begun, the latest ended, the current one), and :func:`yearly_occurrences` gives all
occurrences over a range of years for the time index. The seasons, ordinals and thirds of a
month that such phrases name are defined here.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, timedelta, tzinfo

from memsearch.dates.spans import Span, day_span, month_part, month_span, months_span


def _shift_years(moment: datetime, years: int) -> datetime | None:
    try:
        return moment.replace(year=moment.year + years)
    except (ValueError, OverflowError):
        return None  # Feb 29 in a common year, or out of range: that year has no occurrence


def yearly_occurrences(
    start: datetime, end: datetime, first_year: int, last_year: int, now: datetime
) -> list[Span]:
    """``[start, end)`` moved by whole years into each year from ``first_year`` to ``last_year``.

    Nearest past first: occurrences that start on or before ``now``, the latest first, then those
    after ``now``, the soonest first. A memory is written after what it tells of, so a date still
    to come this year is the least likely of all to be what the question means.
    Years where the date does not exist (Feb 29) are left out.
    """
    past: list[Span] = []
    future: list[Span] = []
    for year in range(last_year, first_year - 1, -1):
        lo, hi = _shift_years(start, year - start.year), _shift_years(end, year - start.year)
        if lo is None or hi is None:
            continue
        (past if lo <= now else future).append((lo, hi))
    return past + future[::-1]


#: Seasons as the meteorological calendar counts them, in the northern hemisphere: whole months,
#: spring = March-May, summer = June-August, autumn = September-November, winter = December-February.
#: (first month, number of months). Winter spans the new year; "winter 2024" is the one whose
#: January and February are in 2024 (two of its three months), "winter 2024/25" the one after.
SEASONS = {"spring": (3, 3), "summer": (6, 3), "autumn": (9, 3), "fall": (9, 3), "winter": (12, 3)}
#: Ordinals of "the first week of May", "the second half of 2024" (a part of a month or year).
_ORDINALS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
#: "early/mid/late March": the month in thirds by day, as the words are used: 1-10, 11-20, 21-end.
#: (first day, first day after; None = the end of the month). "start of"/"end of" read as early/late.
MONTH_THIRDS: dict[str, tuple[int, int | None]] = {
    "early": (1, 11),
    "start of": (1, 11),
    "beginning of": (1, 11),
    "mid": (11, 21),
    "late": (21, None),
    "end of": (21, None),
}


def season_resolver(name: str, tz: tzinfo) -> Callable[[int], Span | None]:
    first, count = SEASONS[name]
    # A winter is named by the year of its January and February: it starts in December before.
    offset = -1 if first == 12 else 0
    return lambda year: months_span(year + offset, first, count, tz)


def part_resolver(
    ordinal: str, part: str, month: int | None, tz: tzinfo, count: int = 1
) -> Callable[[int], Span | None]:
    """The resolver of "the <ordinal> <part> of <month or year>" for any year; raises KeyError for a
    part that does not exist (a fourth half, a quarter of a month). ``count`` weeks of a month
    from its start or up to its end: "the first two weeks of May", "the last two weeks of August"."""
    last = ordinal in ("last", "latter")
    if count != 1 and (part != "week" or month is None or ordinal not in ("first", "1st", "last")):
        raise KeyError(ordinal)
    if month is None:  # a part of a year
        pieces = {"half": 2, "quarter": 4}[part]
        n = pieces if last else _ORDINALS[ordinal]
        if n > pieces:
            raise KeyError(ordinal)
        months = 12 // pieces
        return lambda year: months_span(year, (n - 1) * months + 1, months, tz)
    if part == "half":
        n = 2 if last else _ORDINALS[ordinal]
        if n > 2:
            raise KeyError(ordinal)
        # the first half is days 1-15, the second the rest (16-28 .. 16-31)
        first_day, stop_day = (1, 16) if n == 1 else (16, None)
        return lambda year: month_part(year, month, first_day, stop_day, tz)
    if part == "week":
        if last:  # the month's last seven days (fourteen for "the last two weeks")

            def last_week(year: int) -> Span:
                end = month_span(year, month, tz)[1]
                return end - timedelta(days=7 * count), end

            return last_week
        n = _ORDINALS[ordinal]
        return lambda year: month_part(year, month, 7 * (n - 1) + 1, 7 * (n + count - 1) + 1, tz)
    if part == "weekend":  # the month's n-th (or last) Saturday and the Sunday after it
        n = -1 if last else _ORDINALS[ordinal]

        def weekend(year: int) -> Span | None:
            saturday = nth_weekday(year, month, 5, n)
            if saturday.month != month:  # a fifth weekend the month does not have
                return None
            return day_span(saturday, tz)[0], day_span(saturday + timedelta(days=1), tz)[1]

        return weekend
    raise KeyError(part)


def month_day_resolver(month: int, day: int, tz: tzinfo) -> Callable[[int], Span | None]:
    def resolve(year: int) -> Span | None:
        try:
            return day_span(date(year, month, day), tz)
        except ValueError:
            return None

    return resolve


def month_resolver(month: int, tz: tzinfo) -> Callable[[int], Span | None]:
    return lambda year: month_span(year, month, tz)


def latest_not_after(resolve: Callable[[int], Span | None], now: datetime) -> Span | None:
    """The most recent resolution whose start is not after ``now`` (Feb 29 looks back up to 8 years).

    Next year's first: a winter named by next year's January starts in this December."""
    for year in range(now.year + 1, now.year - 9, -1):
        span = resolve(year)
        if span is not None and span[0] <= now:
            return span
    return None


def latest_ended(resolve: Callable[[int], Span | None], now: datetime) -> Span | None:
    """The most recent resolution that is over by ``now``: "last spring", "last December"."""
    for year in range(now.year + 1, now.year - 9, -1):
        span = resolve(year)
        if span is not None and span[1] <= now:
            return span
    return None


def current(resolve: Callable[[int], Span | None], now: datetime) -> Span | None:
    """ "this summer", "this March": the resolution under way at ``now``, else the one that starts in
    ``now``'s year (this winter, in June, is the one to come in December)."""
    spans = [span for year in (now.year - 1, now.year, now.year + 1) if (span := resolve(year)) is not None]
    for span in spans:
        if span[0] <= now < span[1]:
            return span
    return next((span for span in spans if span[0].year == now.year), None)


def third_resolver(month: int, pre: str, tz: tzinfo) -> Callable[[int], Span | None]:
    first_day, stop_day = MONTH_THIRDS[pre]
    return lambda year: month_part(year, month, first_day, stop_day, tz)


def easter(year: int) -> date:
    """Easter Sunday of a Gregorian year (the anonymous Gregorian computus, "Meeus/Jones/Butcher")."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = divmod(b, 4)
    g = (8 * b + 13) // 25
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    weekday_shift = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 19 * weekday_shift) // 433
    month = (h + weekday_shift - 7 * m + 90) // 25
    return date(year, month, (h + weekday_shift - 7 * m + 33 * month + 19) % 32)


def nth_weekday(year: int, month: int, weekday: int, n: int) -> date:
    """The n-th ``weekday`` (0 Monday) of a month; n = -1 for the last."""
    if n < 0:
        last = date(year + month // 12, month % 12 + 1, 1) - timedelta(days=1)
        return last - timedelta(days=(last.weekday() - weekday) % 7)
    first = date(year, month, 1)
    return first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))


#: Days whose date moves from year to year, each as a function of the year and the days it spans
#: from there: Easter and the days around it, England's bank holidays, US Thanksgiving. "Easter"
#: is Easter Sunday; a "<day> weekend" is Good Friday to Easter Monday for Easter, Saturday to
#: Monday for a Monday holiday, Thursday to Sunday for Thanksgiving.
MOVABLE_DAYS: dict[str, Callable[[int], date]] = {
    "good friday": lambda y: easter(y) - timedelta(days=2),
    "easter sunday": easter,
    "easter day": easter,
    "easter monday": lambda y: easter(y) + timedelta(days=1),
    "easter": easter,
    "early may bank holiday": lambda y: nth_weekday(y, 5, 0, 1),
    "may day bank holiday": lambda y: nth_weekday(y, 5, 0, 1),
    "spring bank holiday": lambda y: nth_weekday(y, 5, 0, -1),
    "august bank holiday": lambda y: nth_weekday(y, 8, 0, -1),
    "summer bank holiday": lambda y: nth_weekday(y, 8, 0, -1),
    "thanksgiving": lambda y: nth_weekday(y, 11, 3, 4),
    "thanksgiving day": lambda y: nth_weekday(y, 11, 3, 4),
}


def movable_resolver(name: str, weekend: bool, tz: tzinfo) -> Callable[[int], Span | None]:
    """The resolver of a movable day (:data:`MOVABLE_DAYS`), or of its weekend."""
    day_of = MOVABLE_DAYS[name]

    def resolve(year: int) -> Span | None:
        try:
            day = day_of(year)
        except ValueError:
            return None
        first = last = day
        if weekend and name.startswith(("good", "easter")):  # Good Friday to Easter Monday
            first, last = easter(year) - timedelta(days=2), easter(year) + timedelta(days=1)
        elif weekend and day.weekday() == 0:  # a Monday holiday's weekend: Saturday to Monday
            first = day - timedelta(days=2)
        elif weekend and day.weekday() == 3:  # Thanksgiving weekend: Thursday to Sunday
            last = day + timedelta(days=3)
        return day_span(first, tz)[0], day_span(last, tz)[1]

    return resolve
