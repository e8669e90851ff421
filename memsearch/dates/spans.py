"""Calendar arithmetic for query windows: the span of a day, ISO week, month, run of months or
year in a zone, and moving a moment back by hours, days, weeks, months or years.

A :data:`Span` is ``(start, end)``, start inclusive and end exclusive; month arithmetic clamps
to the month's last day (March 31 one month back is February 28 or 29).
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, tzinfo

Span = tuple[datetime, datetime]


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)  # timestamps back to dates without the platform's limits
_FIRST_SECOND = (datetime.min.replace(tzinfo=UTC) - _EPOCH) // timedelta(seconds=1)
_LAST_SECOND = (datetime.max.replace(tzinfo=UTC) - _EPOCH) // timedelta(seconds=1)  # 23:59:59, whole


def utc_from_timestamp(seconds: float) -> datetime:
    """The UTC moment of a POSIX timestamp, held to the years a datetime has (an index written
    before the chunkers checked their dates may keep one of the year 10000)."""
    return _EPOCH + timedelta(seconds=min(max(float(seconds), _FIRST_SECOND), _LAST_SECOND))


def day_span(d: date, tz: tzinfo) -> Span:
    start = datetime(d.year, d.month, d.day, tzinfo=tz)
    return start, start + timedelta(days=1)


def month_span(year: int, month: int, tz: tzinfo) -> Span:
    start = datetime(year, month, 1, tzinfo=tz)
    end = datetime(year + 1, 1, 1, tzinfo=tz) if month == 12 else datetime(year, month + 1, 1, tzinfo=tz)
    return start, end


def year_span(year: int, tz: tzinfo | None) -> Span:
    return datetime(year, 1, 1, tzinfo=tz), datetime(year + 1, 1, 1, tzinfo=tz)


def week_span(d: date, tz: tzinfo) -> Span:
    monday = d - timedelta(days=d.weekday())
    start = datetime(monday.year, monday.month, monday.day, tzinfo=tz)
    return start, start + timedelta(days=7)


def shift_months(moment: datetime, months: int) -> datetime:
    index = moment.year * 12 + moment.month - 1 - months
    year, month = divmod(index, 12)
    month += 1
    day = moment.day
    while True:
        try:
            return moment.replace(year=year, month=month, day=day)
        except ValueError:
            day -= 1
            if day < 28:
                raise


def shift(moment: datetime, n: int, unit: str) -> datetime:
    """``moment`` moved ``n`` units into the past."""
    if unit == "hour":
        return moment - timedelta(hours=n)
    if unit == "day":
        return moment - timedelta(days=n)
    if unit == "week":
        return moment - timedelta(weeks=n)
    if unit == "month":
        return shift_months(moment, n)
    return shift_months(moment, 12 * n)


def month_part(year: int, month: int, first_day: int, stop_day: int | None, tz: tzinfo) -> Span:
    """Days ``first_day`` up to (not including) ``stop_day`` of a month; None runs to its end."""
    lo = datetime(year, month, first_day, tzinfo=tz)
    month_end = month_span(year, month, tz)[1]
    return lo, (datetime(year, month, stop_day, tzinfo=tz) if stop_day else month_end)


def months_span(year: int, first_month: int, count: int, tz: tzinfo) -> Span:
    """``count`` whole months from ``first_month`` of ``year`` (may run into the next year)."""
    lo = datetime(year, first_month, 1, tzinfo=tz)
    index = year * 12 + first_month - 1 + count
    return lo, datetime(index // 12, index % 12 + 1, 1, tzinfo=tz)
