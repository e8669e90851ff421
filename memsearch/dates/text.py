"""Dates written in text: a whole string that is a date (:func:`parse_datetime`) and the date a
markdown line starts with (:func:`find_leading_datetime`).

ISO-like numeric dates, textual dates with an optional clock time and zone, and months; every
result is timezone-aware (no zone reads as UTC) and bad input gives ``None``, never an exception.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone, tzinfo

from memsearch.dates.local import (
    LOCAL_DATE_RE,
    LOCAL_MONTH_YEAR_RE,
    ends_in_cjk_date,
    local_date,
    local_month_year,
)
from memsearch.dates.vocabulary import MONTH, ORD, PATTERN_FLAGS, WEEKDAY, WEEKDAY_NUMBERS, month_number


def _time(p: str) -> str:
    """A clock time; group names prefixed with ``p``. Needs minutes or am/pm."""
    return rf"""
    (?:
        (?P<{p}h>\d{{1,2}}):(?P<{p}mi>\d{{2}})(?::(?P<{p}s>\d{{2}})(?P<{p}f>[.,]\d{{1,6}})?)?
        (?:\s*(?P<{p}ap>[ap]\.?m\.?)(?![a-z]))?
      | (?P<{p}h2>\d{{1,2}})\s*(?P<{p}ap2>[ap]\.?m\.?)(?![a-z])
    )
    (?:\s*(?P<{p}tz>Z|UTC|GMT|[+-]\d{{2}}(?::?\d{{2}})?)(?![\w]))?
    """


# ISO-like numeric dates: 2023-05-08, 2023/05/08, 2023.05.08, optional time and zone.
_NUMERIC_RE = re.compile(
    rf"""
    (?<![\d.+/-])
    (?P<y>\d{{4}})(?P<sep>[-/.])(?P<mo>\d{{1,2}})(?P=sep)(?P<d>\d{{1,2}})
    (?:(?:T|\s+|\s*,\s*|\s+at\s+)(?:{_time("t")}))?
    (?![\d.]\d|[-/]\d)
    """,
    PATTERN_FLAGS,
)
# Textual dates: [time [on]] [weekday,] 8 May, 2023 | May 8th, 2023 [[,] [at] time]
_TEXT_RE = re.compile(
    rf"""
    (?:{_time("a")}\s*,?\s+(?:on\s+)?)?
    (?:(?P<wd>{WEEKDAY}),?\s+(?:the\s+)?)?
    (?:
        (?P<d1>\d{{1,2}}){ORD}(?:\s+of)?\s+(?P<m1>{MONTH})\.?,?\s+(?P<y1>\d{{4}})
      | (?P<m2>{MONTH})\.?\s+(?P<d2>\d{{1,2}}){ORD},?\s+(?P<y2>\d{{4}})
    )
    (?!\d)
    (?:\s*,?\s+(?:at\s+)?{_time("b")})?
    """,
    PATTERN_FLAGS,
)
# Month and year: May 2023, May, 2023, 2023-05.
_MONTH_YEAR_RE = re.compile(
    rf"""
    (?:
        (?P<m>{MONTH})\.?,?\s+(?P<y>\d{{4}})(?!\d)
      | (?<![\d.+/-])(?P<y2>\d{{4}})-(?P<mo>\d{{2}})(?![\d])(?!-\d)
    )
    """,
    PATTERN_FLAGS,
)


def _zone(spec: str | None) -> tzinfo:
    if not spec or spec.upper() in ("Z", "UTC", "GMT"):
        return UTC
    sign = -1 if spec[0] == "-" else 1
    digits = spec[1:].replace(":", "")
    hours = int(digits[:2])
    minutes = int(digits[2:4] or 0)
    if hours > 23 or minutes > 59:
        raise ValueError("bad offset")
    return timezone(sign * timedelta(hours=hours, minutes=minutes))


def _clock(m: re.Match[str], p: str) -> tuple[int, int, int, int, tzinfo] | None:
    """(hour, minute, second, microsecond, zone) from a :func:`_time` group, None if absent.

    Raises ValueError for an impossible time (25:99, 13 pm).
    """
    hour_text = m.group(p + "h") or m.group(p + "h2")
    if hour_text is None:
        return None
    hour = int(hour_text)
    minute = int(m.group(p + "mi") or 0)
    second = int(m.group(p + "s") or 0)
    frac = m.group(p + "f")
    micro = int((frac[1:] + "000000")[:6]) if frac else 0
    ampm = m.group(p + "ap") or m.group(p + "ap2")
    if ampm:
        if not 1 <= hour <= 12:
            raise ValueError("bad 12-hour clock")
        hour = hour % 12 + (12 if ampm[0].lower() == "p" else 0)
    if hour > 23 or minute > 59 or second > 59:
        raise ValueError("bad time")
    return hour, minute, second, micro, _zone(m.group(p + "tz"))


def held_in_utc(value: datetime) -> bool:
    """Whether UTC can hold ``value``: 9999-12-31T23:00-12:00 is in the year 10000 there, and
    0001-01-01T00:00+14:00 in the year 0; every index of time reads its dates in UTC."""
    try:
        value.astimezone(UTC)
    except OverflowError:
        return False
    return True


def _build(year: int, month: int, day: int, clock: tuple[int, int, int, int, tzinfo] | None) -> datetime:
    if not 1 <= year <= 9999:
        raise ValueError("bad year")
    if clock is None:
        return datetime(year, month, day, tzinfo=UTC)
    hour, minute, second, micro, zone = clock
    value = datetime(year, month, day, hour, minute, second, micro, tzinfo=zone)
    if not held_in_utc(value):
        raise ValueError("outside the years UTC holds")
    return value


def _from_numeric(m: re.Match[str]) -> datetime:
    return _build(int(m["y"]), int(m["mo"]), int(m["d"]), _clock(m, "t"))


def _from_text(m: re.Match[str]) -> datetime:
    if m["d1"]:
        day, month, year = int(m["d1"]), month_number(m["m1"]), int(m["y1"])
    else:
        day, month, year = int(m["d2"]), month_number(m["m2"]), int(m["y2"])
    before, after = _clock(m, "a"), _clock(m, "b")
    if before is not None and after is not None:
        raise ValueError("two times")
    result = _build(year, month, day, before or after)
    if m["wd"] and result.weekday() != WEEKDAY_NUMBERS[m["wd"][:3].lower()]:
        # A wrong weekday is a typo in the source; the calendar date is what counts.
        pass
    return result


def _from_month_year(m: re.Match[str]) -> datetime:
    if m["m"]:
        return _build(int(m["y"]), month_number(m["m"]), 1, None)
    return _build(int(m["y2"]), int(m["mo"]), 1, None)


def _from_local(m: re.Match[str]) -> datetime:
    return _build(*local_date(m), None)


def _from_local_month_year(m: re.Match[str]) -> datetime:
    return _build(*local_month_year(m), 1, None)


_PARSERS = (
    (_TEXT_RE, _from_text),
    (_NUMERIC_RE, _from_numeric),
    (_MONTH_YEAR_RE, _from_month_year),
    (LOCAL_DATE_RE, _from_local),  # 2025年3月1日, 2025년 3월 1일, 1. März 2025, 26 de marzo de 2025
    (LOCAL_MONTH_YEAR_RE, _from_local_month_year),
)


def _match_at(text: str, pos: int, *, whole: bool) -> tuple[datetime, int] | None:
    """The longest valid date starting exactly at ``pos``.

    With ``whole`` the date must run to the end of ``text``; otherwise it must end at a
    word boundary (not followed by a letter or digit).
    """
    best: tuple[datetime, int] | None = None
    for regex, build in _PARSERS:
        m = regex.match(text, pos)
        if m is None:
            continue
        end = m.end()
        if whole and end != len(text):
            continue
        if (
            not whole
            and end < len(text)
            and (text[end].isalnum() or text[end] == "_")
            and not ends_in_cjk_date(text, end)
        ):
            continue
        try:
            value = build(m)
        except (ValueError, OverflowError, KeyError):
            continue
        if best is None or end > best[1]:
            best = (value, end)
    return best


# --------------------------------------------------------------------------- 1. whole strings


def parse_datetime(text: str) -> datetime | None:
    """The date or date-time that ``text`` (stripped) is, or None.

    Accepts ISO forms (``2023-05-08``, ``2023-05-08T14:02``, ``2023-05-08 14:02:11Z``,
    ``2023-05-08T14:02:00+02:00``), ``2023/05/08``, textual dates (``8 May 2023``,
    ``8 May, 2023``, ``May 8, 2023``, ``May 8th 2023``, ``Monday, 8 May 2023``,
    ``1:56 pm on 8 May, 2023``) and months (``May 2023``, ``2023-05`` -> the 1st).
    A bare year is not a date. Naive values are UTC.
    """
    try:
        if not isinstance(text, str):
            return None
        stripped = text.strip()
        if not stripped or len(stripped) > 200:
            return None
        found = _match_at(stripped, 0, whole=True)
        if found is not None:
            return found[0]
        return _fromisoformat(stripped)
    except Exception:
        return None


def _fromisoformat(text: str) -> datetime | None:
    """Last resort for exotic ISO 8601 forms Python understands (e.g. ``20230508T140200``)."""
    if not re.fullmatch(r"\d{4}-?\d{2}-?\d{2}[T ][\d:.,]+(?:Z|[+-][\d:]+)?", text):
        return None
    try:
        value = datetime.fromisoformat(text)
    except ValueError:
        return None
    value = value if value.tzinfo is not None else value.replace(tzinfo=UTC)
    return value if held_in_utc(value) else None


# --------------------------------------------------------------------------- 2. line starts

# Markdown decoration that may precede a leading date: indentation, heading marks, quote
# marks, list bullets, numbered list markers, task boxes, brackets, bold/italic marks.
_DECORATION_RE = re.compile(
    r"(?:\s+|\#{1,6}(?=[\s\[*_(\d]|$)|>|[-*+](?=\s)|\d{1,3}[.)](?=\s)|\[[ xX]\](?=\s)|\[|\(|\*\*|__|\*|_|`)*"
)


_LIST_NUMBER_BEFORE_RE = re.compile(r"(?<!\d)\d{1,2}\.\s+$")


def find_leading_datetime(line: str) -> tuple[datetime, int] | None:
    """The date/time a line starts with, after optional markdown decoration.

    Returns ``(datetime, end)`` where ``end`` is the offset in ``line`` just after the date
    text (a closing ``]`` or ``**`` is not included), or None.
    """
    try:
        if not isinstance(line, str):
            return None
        start = _DECORATION_RE.match(line, 0, min(len(line), 40))
        pos = start.end() if start else 0
        if pos >= len(line) or not (line[pos].isdigit() or line[pos].isalpha()):
            return None
        # "## 26. März 2025": the day looks like the marker of a numbered list item.
        marker = _LIST_NUMBER_BEFORE_RE.search(line, 0, pos)
        if marker is not None:
            day_first = _match_at(line[: marker.start() + 120], marker.start(), whole=False)
            if day_first is not None:
                return day_first
        return _match_at(line[: pos + 120], pos, whole=False)
    except Exception:
        return None
