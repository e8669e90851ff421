"""Dates in the vault and in queries (standard library only).

* :func:`parse_datetime` -- a whole string that is a date or date-time, in any common form.
* :func:`find_leading_datetime` -- a date at the start of a (markdown) line.
* :func:`date_from_filename` -- a date encoded in a file name or path.
* :func:`query_time_window` / :func:`strip_time_phrase` -- the time window a query talks about.

Every returned datetime is timezone-aware; a source without a zone is read as UTC.
None of these functions raises on bad input: they answer ``None`` instead.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta, timezone, tzinfo

__all__ = [
    "TimeWindow",
    "date_from_filename",
    "find_leading_datetime",
    "parse_datetime",
    "query_time_window",
    "strip_time_phrase",
    "yearly_occurrences",
]

# --------------------------------------------------------------------------- vocabulary

_MONTH_NUMBERS = {
    "jan": 1,
    "feb": 2,
    "mar": 3,
    "apr": 4,
    "may": 5,
    "jun": 6,
    "jul": 7,
    "aug": 8,
    "sep": 9,
    "oct": 10,
    "nov": 11,
    "dec": 12,
}
_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)(?![a-z])"
)
_MONTH_FULL = (
    r"(?:january|february|march|april|may|june|july|august|september|october|november|december)(?![a-z])"
)
_WEEKDAY = (
    r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday"
    r"|mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)(?![a-z])\.?"
)
_WEEKDAY_NUMBERS = {"mon": 0, "tue": 1, "wed": 2, "thu": 3, "fri": 4, "sat": 5, "sun": 6}
_ORD = r"(?:st|nd|rd|th)?"
_F = re.IGNORECASE | re.VERBOSE


def _month_number(name: str) -> int:
    return _MONTH_NUMBERS[name[:3].lower()]


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
    _F,
)
# Textual dates: [time [on]] [weekday,] 8 May, 2023 | May 8th, 2023 [[,] [at] time]
_TEXT_RE = re.compile(
    rf"""
    (?:{_time("a")}\s*,?\s+(?:on\s+)?)?
    (?:(?P<wd>{_WEEKDAY}),?\s+(?:the\s+)?)?
    (?:
        (?P<d1>\d{{1,2}}){_ORD}(?:\s+of)?\s+(?P<m1>{_MONTH})\.?,?\s+(?P<y1>\d{{4}})
      | (?P<m2>{_MONTH})\.?\s+(?P<d2>\d{{1,2}}){_ORD},?\s+(?P<y2>\d{{4}})
    )
    (?!\d)
    (?:\s*,?\s+(?:at\s+)?{_time("b")})?
    """,
    _F,
)
# Month and year: May 2023, May, 2023, 2023-05.
_MONTH_YEAR_RE = re.compile(
    rf"""
    (?:
        (?P<m>{_MONTH})\.?,?\s+(?P<y>\d{{4}})(?!\d)
      | (?<![\d.+/-])(?P<y2>\d{{4}})-(?P<mo>\d{{2}})(?![\d])(?!-\d)
    )
    """,
    _F,
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


def _build(year: int, month: int, day: int, clock: tuple[int, int, int, int, tzinfo] | None) -> datetime:
    if not 1 <= year <= 9999:
        raise ValueError("bad year")
    if clock is None:
        return datetime(year, month, day, tzinfo=UTC)
    hour, minute, second, micro, zone = clock
    return datetime(year, month, day, hour, minute, second, micro, tzinfo=zone)


def _from_numeric(m: re.Match[str]) -> datetime:
    return _build(int(m["y"]), int(m["mo"]), int(m["d"]), _clock(m, "t"))


def _from_text(m: re.Match[str]) -> datetime:
    if m["d1"]:
        day, month, year = int(m["d1"]), _month_number(m["m1"]), int(m["y1"])
    else:
        day, month, year = int(m["d2"]), _month_number(m["m2"]), int(m["y2"])
    before, after = _clock(m, "a"), _clock(m, "b")
    if before is not None and after is not None:
        raise ValueError("two times")
    result = _build(year, month, day, before or after)
    if m["wd"] and result.weekday() != _WEEKDAY_NUMBERS[m["wd"][:3].lower()]:
        # A wrong weekday is a typo in the source; the calendar date is what counts.
        pass
    return result


def _from_month_year(m: re.Match[str]) -> datetime:
    if m["m"]:
        return _build(int(m["y"]), _month_number(m["m"]), 1, None)
    return _build(int(m["y2"]), int(m["mo"]), 1, None)


_PARSERS = ((_TEXT_RE, _from_text), (_NUMERIC_RE, _from_numeric), (_MONTH_YEAR_RE, _from_month_year))


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
        if not whole and end < len(text) and (text[end].isalnum() or text[end] == "_"):
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
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


# --------------------------------------------------------------------------- 2. line starts

# Markdown decoration that may precede a leading date: indentation, heading marks, quote
# marks, list bullets, numbered list markers, task boxes, brackets, bold/italic marks.
_DECORATION_RE = re.compile(
    r"(?:\s+|\#{1,6}(?=[\s\[*_(\d]|$)|>|[-*+](?=\s)|\d{1,3}[.)](?=\s)|\[[ xX]\](?=\s)|\[|\(|\*\*|__|\*|_|`)*"
)


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
        return _match_at(line[: pos + 120], pos, whole=False)
    except Exception:
        return None


# --------------------------------------------------------------------------- 3. file names

_FN_FULL_RE = re.compile(r"(?<!\d)(\d{4})[-_.](\d{2})[-_.](\d{2})(?!\d)")
_FN_COMPACT_RE = re.compile(r"(?<!\d)(\d{4})(\d{2})(\d{2})(?!\d)")
_FN_MONTH_RE = re.compile(r"(?<!\d)(\d{4})[-_.](\d{2})(?!\d|[-_.]\d)")
_FN_DIRS_DAY_RE = re.compile(r"(?:^|/)(\d{4})/(\d{1,2})/(\d{1,2})(?=[-_./]|$)")
_FN_DIRS_MONTH_RE = re.compile(r"(?:^|/)(\d{4})/(\d{1,2})(?=/|\.[a-z0-9]+$|$)", re.IGNORECASE)


def _plausible(year: int, month: int, day: int) -> datetime | None:
    if not 1900 <= year <= 2100:
        return None
    try:
        return datetime(year, month, day, tzinfo=UTC)
    except ValueError:
        return None


def date_from_filename(path: str) -> datetime | None:
    """The date a file's name or path encodes (midnight UTC), or None.

    ``journal/2023-05-08-session-01.md``, ``2023-05-08.md``, ``20230508-notes.md``,
    ``journal/2023/05/08.md``; months give the 1st: ``archive/2024-03.md``, ``2024/03/notes.md``.
    The file name wins over its folders; a full date wins over a month.
    """
    try:
        if not isinstance(path, str):
            return None
        norm = path.replace("\\", "/")
        name = norm.rsplit("/", 1)[-1]
        for m in _FN_FULL_RE.finditer(name):
            if found := _plausible(int(m[1]), int(m[2]), int(m[3])):
                return found
        for m in _FN_DIRS_DAY_RE.finditer(norm):
            if found := _plausible(int(m[1]), int(m[2]), int(m[3])):
                return found
        for m in _FN_COMPACT_RE.finditer(name):
            if found := _plausible(int(m[1]), int(m[2]), int(m[3])):
                return found
        for m in _FN_FULL_RE.finditer(norm):
            if found := _plausible(int(m[1]), int(m[2]), int(m[3])):
                return found
        for m in _FN_MONTH_RE.finditer(name):
            if found := _plausible(int(m[1]), int(m[2]), 1):
                return found
        for m in _FN_DIRS_MONTH_RE.finditer(norm):
            if found := _plausible(int(m[1]), int(m[2]), 1):
                return found
        for m in _FN_MONTH_RE.finditer(norm):
            if found := _plausible(int(m[1]), int(m[2]), 1):
                return found
        return None
    except Exception:
        return None


# --------------------------------------------------------------------------- 4. query windows

#: Open ends of a window ("before 2020" starts at the beginning of time).
MIN_DATETIME = datetime.min.replace(tzinfo=UTC)
MAX_DATETIME = datetime.max.replace(tzinfo=UTC)


@dataclass(frozen=True)
class TimeWindow:
    """The period a query asks about.

    A ``yearly`` window is a day or month named without a year ("on March 26", "in May",
    "on Christmas Eve"): it means those days in every year, and ``start``/``end`` are its most
    recent occurrence not after ``now`` (see :func:`yearly_occurrences` for the others).
    """

    start: datetime  # inclusive
    end: datetime  # exclusive
    text: str  # the phrase in the query it came from, e.g. "last week"
    yearly: bool = False

    @property
    def width(self) -> timedelta:
        return self.end - self.start


_NUMBER_WORDS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "couple": 2,
    "few": 3,
    "several": 3,
}
_NUM = (
    r"(?:\d{1,4}|(?:a\s+)?couple(?:\s+of)?|(?:a\s+)?few|several|an?|one|two|three|four|five|six|seven"
    r"|eight|nine|ten|eleven|twelve)"
)
_UNIT = r"(?P<unit>hour|day|week|fortnight|month|year)s?"

Span = tuple[datetime, datetime]


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


def _number(text: str) -> int:
    words = text.lower().split()
    if words[0].isdigit():
        return int(words[0])
    for word in words:
        if word in _NUMBER_WORDS and word not in ("a", "an"):
            return _NUMBER_WORDS[word]
    return 1


def _day_span(d: date, tz: tzinfo) -> Span:
    start = datetime(d.year, d.month, d.day, tzinfo=tz)
    return start, start + timedelta(days=1)


def _month_span(year: int, month: int, tz: tzinfo) -> Span:
    start = datetime(year, month, 1, tzinfo=tz)
    end = datetime(year + 1, 1, 1, tzinfo=tz) if month == 12 else datetime(year, month + 1, 1, tzinfo=tz)
    return start, end


def _year_span(year: int, tz: tzinfo) -> Span:
    return datetime(year, 1, 1, tzinfo=tz), datetime(year + 1, 1, 1, tzinfo=tz)


def _week_span(d: date, tz: tzinfo) -> Span:
    monday = d - timedelta(days=d.weekday())
    start = datetime(monday.year, monday.month, monday.day, tzinfo=tz)
    return start, start + timedelta(days=7)


def _shift_months(moment: datetime, months: int) -> datetime:
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


def _shift(moment: datetime, n: int, unit: str) -> datetime:
    """``moment`` moved ``n`` units into the past."""
    if unit == "hour":
        return moment - timedelta(hours=n)
    if unit == "day":
        return moment - timedelta(days=n)
    if unit == "week":
        return moment - timedelta(weeks=n)
    if unit == "month":
        return _shift_months(moment, n)
    return _shift_months(moment, 12 * n)


@dataclass
class _Cand:
    """One temporal expression found in a query (before prepositions are applied)."""

    start: int  # span of the expression itself in the query
    end: int
    lo: datetime
    hi: datetime
    kind: (
        str  # day | month | period (a season, part of a month or year) | year | relative | rolling | weekday
    )
    needs_pre: bool = False  # bare month / year / weekday: only temporal after a preposition
    month: int = 0
    day: int = 0
    has_year: bool = True
    season: str = ""
    resolve: Callable[[int], Span | None] | None = field(default=None, repr=False)  # for yearless dates


# Words that may stand right before an expression and change or confirm its meaning.
_PRE_RE = re.compile(
    r"(?:^|(?<=[\s(\[\"',;:]))(?P<pre>in|on|during|since|before|after|from|until|till|through|throughout"
    r"|between|by|as\s+of|prior\s+to|last|this|early|late|mid|end\s+of|start\s+of|beginning\s+of)"
    r"[\s-]+(?:the\s+)?$",
    re.IGNORECASE,
)
_BARE_MONTH_PRE = {
    "in",
    "during",
    "since",
    "before",
    "after",
    "from",
    "until",
    "till",
    "through",
    "throughout",
    "between",
    "by",
    "as of",
    "prior to",
    "last",
    "this",
    "early",
    "late",
    "mid",
    "end of",
    "start of",
    "beginning of",
}
_BARE_YEAR_PRE = {
    "in",
    "during",
    "since",
    "before",
    "after",
    "from",
    "until",
    "till",
    "through",
    "throughout",
    "between",
    "as of",
    "prior to",
    "early",
    "late",
    "mid",
    "end of",
    "start of",
    "beginning of",
}
_WEEKDAY_PRE = {"on", "last", "since", "before", "after", "by", "until", "from", "between"}
_NUMERIC_DAY_PRE = {
    "on",
    "since",
    "before",
    "after",
    "by",
    "until",
    "till",
    "from",
    "between",
    "as of",
    "prior to",
}
#: Words that tie a yearless day or month to ``now`` ("since May", "last March 3", "this May"):
#: it is then one occurrence, not the same days in every year.
_TIED_TO_NOW_PRE = {"since", "as of", "after", "before", "prior to", "until", "till", "by", "last", "this"}

_Q_NUMERIC = re.compile(
    r"(?<![\w.+/-])(?P<y>\d{4})(?P<sep>[-/.])(?P<mo>\d{1,2})(?P=sep)(?P<d>\d{1,2})"
    r"(?:T[\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?(?![\d]|[-/.]\d)",
    re.IGNORECASE,
)
_Q_TEXT_YEAR = re.compile(
    rf"""(?:{_WEEKDAY},?\s+)?(?:
        (?:the\s+)?(?P<d1>\d{{1,2}}){_ORD}(?:\s+of)?\s+(?P<m1>{_MONTH})\.?,?\s+(?P<y1>\d{{4}})
      | (?P<m2>{_MONTH})\.?\s+(?:the\s+)?(?P<d2>\d{{1,2}}){_ORD},?\s+(?P<y2>\d{{4}})
    )(?![\d:]|[.,]\d)""",
    _F,
)
_Q_TEXT_NOYEAR = re.compile(
    rf"""(?<![\w.])(?:{_WEEKDAY},?\s+)?(?:
        (?:the\s+)?(?P<d1>\d{{1,2}}){_ORD}(?:\s+of)?\s+(?P<m1>{_MONTH})
      | (?P<m2>{_MONTH})\.?\s+(?:the\s+)?(?P<d2>\d{{1,2}}){_ORD}
    )(?![\w:]|[.,]\d)""",
    _F,
)
_Q_MONTH_YEAR = re.compile(
    rf"""(?:(?<![\w.])(?P<m>{_MONTH})\.?,?\s+(?P<y>\d{{4}})(?![\d:]|[.,]\d)
      | (?<![\w.+/-])(?P<y2>\d{{4}})-(?P<mo>\d{{2}})(?![\d]|[-/.]\d))""",
    _F,
)
# "mid-March" is written with a hyphen; any other hyphen before a month joins it to another word
_Q_BARE_MONTH = re.compile(rf"(?<![\w.])(?:(?<=mid-)|(?<!-)){_MONTH_FULL}", re.IGNORECASE)
_Q_BARE_YEAR = re.compile(
    r"(?<![\w.+/-])(?P<y>\d{4})(?![\w%]|[-/.:,]\d)"
    r"(?!\s*(?:ms|s|secs?|seconds?|minutes?|hours?|days?|km|m|kb|mb|gb|px|items?|rows?|lines?|tokens?"
    r"|words?|users?|times|steps?|files?|bytes?)\b)",
    re.IGNORECASE,
)
_Q_BARE_WEEKDAY = re.compile(
    r"(?<![\w-])(?P<wd>monday|tuesday|wednesday|thursday|friday|saturday|sunday)(?![\w'])", re.IGNORECASE
)
_Q_DAYWORD = re.compile(
    r"\b(?P<w>today|tonight|yesterday|the\s+day\s+before\s+yesterday|this\s+(?:morning|afternoon|evening))\b",
    re.IGNORECASE,
)
_Q_CALENDAR = re.compile(
    r"\b(?P<which>this|current|last|previous|prior|past)\s+(?P<unit>week(?:end)?|fortnight|month|quarter|year)\b"
    r"(?!\s*'s?\s*\d)",
    re.IGNORECASE,
)
_Q_AGO = re.compile(rf"\b(?P<n>{_NUM})\s+{_UNIT}\s+ago\b", re.IGNORECASE)
_Q_ROLLING = re.compile(
    rf"\b(?:(?:in|over|during|within|for)\s+)?(?:the\s+)?(?:past|last|previous|prior)\s+(?P<n>{_NUM})\s+{_UNIT}\b",
    re.IGNORECASE,
)
_Q_RECENT = re.compile(r"\b(?:recently|lately|of\s+late)\b", re.IGNORECASE)
# Day/month written with digits, day first as in the UK ("5/11/2024" is 5 November). Only a
# four-digit year: "5/11/24" could as well be a version or a score.
_Q_DAY_MONTH = re.compile(
    r"(?<![\w./:-])(?P<d>\d{1,2})/(?P<mo>\d{1,2})(?:/(?P<y>\d{4}))?(?![\w/]|[.,:-]\d)", re.IGNORECASE
)
_APOSTROPHE = r"['’]"
#: Days known by name, fixed in the calendar: (month, day). Movable feasts (Easter, bank
#: holidays) need a calendar of their own and are not here.
_NAMED_DAYS: tuple[tuple[str, tuple[int, int]], ...] = (
    (r"christmas\s+eve", (12, 24)),
    (r"christmas\s+day", (12, 25)),
    (r"boxing\s+day", (12, 26)),
    (rf"new\s+year(?:{_APOSTROPHE}?s)?\s+eve", (12, 31)),
    (rf"new\s+year(?:{_APOSTROPHE}?s)?\s+day", (1, 1)),
    (rf"april\s+fool(?:{_APOSTROPHE}?s{_APOSTROPHE}?)?(?:\s+day)?", (4, 1)),
    (rf"(?:st\.?\s+|saint\s+)?valentine(?:{_APOSTROPHE}?s{_APOSTROPHE}?)?\s+day", (2, 14)),
    (rf"hallowe{_APOSTROPHE}?en", (10, 31)),
    (r"(?:bonfire|guy\s+fawkes)\s+night", (11, 5)),
)
_Q_NAMED_DAY = re.compile(
    r"(?<![\w'’])(?:"
    + "|".join(f"(?P<n{i}>{pattern})" for i, (pattern, _) in enumerate(_NAMED_DAYS))
    + r")(?:,?\s+(?P<y>\d{4}))?(?![\w'’])",
    re.IGNORECASE,
)


#: Seasons as the meteorological calendar counts them, in the northern hemisphere: whole months,
#: spring = March-May, summer = June-August, autumn = September-November, winter = December-February.
#: (first month, number of months). Winter spans the new year; "winter 2024" is the one whose
#: January and February are in 2024 (two of its three months), "winter 2024/25" the one after.
_SEASONS = {"spring": (3, 3), "summer": (6, 3), "autumn": (9, 3), "fall": (9, 3), "winter": (12, 3)}
_Q_SEASON = re.compile(
    r"(?<![\w-])(?P<s>spring|summer|autumn|fall|winter)(?:time)?"
    # "Spring Boot" and its kin are a Java framework, not a season (a vault with code names them)
    r"(?!\s+(?:boot|framework|cloud|security|data|batch|mvc|beans?)\b)"
    r"(?:,?\s+(?:of\s+)?(?P<y>\d{4})(?:\s*[/-]\s*(?P<y2>\d{4}|\d{2}))?)?(?![\w'’]|[-/.:,]\d)",
    re.IGNORECASE,
)
_ORDINALS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
# "the first half of May", "the second week of March 2024", "the third quarter of 2024", "the last
# week of May": a part of a month or of a year.
_Q_PART = re.compile(
    rf"""(?<![\w-])(?:the\s+)?(?P<ord>first|second|third|fourth|1st|2nd|3rd|4th|last|latter)\s+
    (?P<part>half|quarter|week)\s+of\s+(?:the\s+)?
    (?:(?P<m>{_MONTH})(?:\.?,?\s+(?P<my>\d{{4}}))?|(?:year\s+)?(?P<y>\d{{4}}))(?![\w:]|[.,]\d)""",
    _F,
)
# Quarters written short: "Q1 2024", "Q3 of 2024", "2024 Q2", "2024-Q4"; "Q1" alone after "in", "during", ...
_Q_QUARTER = re.compile(
    r"(?<![\w-])(?:Q(?P<q>[1-4])(?:\s+(?:of\s+)?(?P<y>\d{4}))?|(?P<y2>\d{4})[\s-]?Q(?P<q2>[1-4]))(?![\w]|[-/.:,]\d)",
    re.IGNORECASE,
)
# "so far this month", "this year so far", "month to date": from the start of the unit up to now.
_Q_SO_FAR = re.compile(
    r"\b(?:so\s+far\s+this\s+(?P<u1>week|month|quarter|year)|this\s+(?P<u2>week|month|quarter|year)\s+so\s+far"
    r"|(?P<u3>week|month|quarter|year)[\s-]to[\s-]date)\b",
    re.IGNORECASE,
)
#: "early/mid/late March": the month in thirds by day, as the words are used: 1-10, 11-20, 21-end.
#: (first day, first day after; None = the end of the month). "start of"/"end of" read as early/late.
_MONTH_THIRDS: dict[str, tuple[int, int | None]] = {
    "early": (1, 11),
    "start of": (1, 11),
    "beginning of": (1, 11),
    "mid": (11, 21),
    "late": (21, None),
    "end of": (21, None),
}


def _month_part(year: int, month: int, first_day: int, stop_day: int | None, tz: tzinfo) -> Span:
    """Days ``first_day`` up to (not including) ``stop_day`` of a month; None runs to its end."""
    lo = datetime(year, month, first_day, tzinfo=tz)
    month_end = _month_span(year, month, tz)[1]
    return lo, (datetime(year, month, stop_day, tzinfo=tz) if stop_day else month_end)


def _months_span(year: int, first_month: int, count: int, tz: tzinfo) -> Span:
    """``count`` whole months from ``first_month`` of ``year`` (may run into the next year)."""
    lo = datetime(year, first_month, 1, tzinfo=tz)
    index = year * 12 + first_month - 1 + count
    return lo, datetime(index // 12, index % 12 + 1, 1, tzinfo=tz)


def _season_resolver(name: str, tz: tzinfo) -> Callable[[int], Span | None]:
    first, count = _SEASONS[name]
    # A winter is named by the year of its January and February: it starts in December before.
    offset = -1 if first == 12 else 0
    return lambda year: _months_span(year + offset, first, count, tz)


def _part_resolver(ordinal: str, part: str, month: int | None, tz: tzinfo) -> Callable[[int], Span | None]:
    """The resolver of "the <ordinal> <part> of <month or year>" for any year; raises KeyError for a
    part that does not exist (a fourth half, a quarter of a month)."""
    last = ordinal in ("last", "latter")
    if month is None:  # a part of a year
        pieces = {"half": 2, "quarter": 4}[part]
        n = pieces if last else _ORDINALS[ordinal]
        if n > pieces:
            raise KeyError(ordinal)
        months = 12 // pieces
        return lambda year: _months_span(year, (n - 1) * months + 1, months, tz)
    if part == "half":
        n = 2 if last else _ORDINALS[ordinal]
        if n > 2:
            raise KeyError(ordinal)
        # the first half is days 1-15, the second the rest (16-28 .. 16-31)
        first_day, stop_day = (1, 16) if n == 1 else (16, None)
        return lambda year: _month_part(year, month, first_day, stop_day, tz)
    if part == "week":
        if last:  # the month's last seven days

            def last_week(year: int) -> Span:
                end = _month_span(year, month, tz)[1]
                return end - timedelta(days=7), end

            return last_week
        n = _ORDINALS[ordinal]
        return lambda year: _month_part(year, month, 7 * (n - 1) + 1, 7 * n + 1, tz)
    raise KeyError(part)


def _valid_year(year: int) -> bool:
    return 1900 <= year <= 2100


def _month_day_resolver(month: int, day: int, tz: tzinfo) -> Callable[[int], Span | None]:
    def resolve(year: int) -> Span | None:
        try:
            return _day_span(date(year, month, day), tz)
        except ValueError:
            return None

    return resolve


def _month_resolver(month: int, tz: tzinfo) -> Callable[[int], Span | None]:
    return lambda year: _month_span(year, month, tz)


def _latest_not_after(resolve: Callable[[int], Span | None], now: datetime) -> Span | None:
    """The most recent resolution whose start is not after ``now`` (Feb 29 looks back up to 8 years).

    Next year's first: a winter named by next year's January starts in this December."""
    for year in range(now.year + 1, now.year - 9, -1):
        span = resolve(year)
        if span is not None and span[0] <= now:
            return span
    return None


def _latest_ended(resolve: Callable[[int], Span | None], now: datetime) -> Span | None:
    """The most recent resolution that is over by ``now``: "last spring", "last December"."""
    for year in range(now.year + 1, now.year - 9, -1):
        span = resolve(year)
        if span is not None and span[1] <= now:
            return span
    return None


def _current(resolve: Callable[[int], Span | None], now: datetime) -> Span | None:
    """ "this summer", "this March": the resolution under way at ``now``, else the one that starts in
    ``now``'s year (this winter, in June, is the one to come in December)."""
    spans = [span for year in (now.year - 1, now.year, now.year + 1) if (span := resolve(year)) is not None]
    for span in spans:
        if span[0] <= now < span[1]:
            return span
    return next((span for span in spans if span[0].year == now.year), None)


def _third_resolver(month: int, pre: str, tz: tzinfo) -> Callable[[int], Span | None]:
    first_day, stop_day = _MONTH_THIRDS[pre]
    return lambda year: _month_part(year, month, first_day, stop_day, tz)


def _candidates(query: str, now: datetime) -> list[_Cand]:
    tz = now.tzinfo or UTC
    today = now.date()
    found: list[_Cand] = []

    def add(m: re.Match[str], lo: datetime, hi: datetime, kind: str, **extra: object) -> None:
        found.append(_Cand(m.start(), m.end(), lo, hi, kind, **extra))  # type: ignore[arg-type]

    def attempt(fn: Callable[[re.Match[str]], None], m: re.Match[str]) -> None:
        with contextlib.suppress(ValueError, OverflowError, KeyError, IndexError):
            fn(m)

    def numeric(m: re.Match[str]) -> None:
        year = int(m["y"])
        if _valid_year(year):
            add(m, *_day_span(date(year, int(m["mo"]), int(m["d"])), tz), "day")

    def text_year(m: re.Match[str]) -> None:
        day = int(m["d1"] or m["d2"])
        month = _month_number(m["m1"] or m["m2"])
        year = int(m["y1"] or m["y2"])
        if _valid_year(year):
            add(m, *_day_span(date(year, month, day), tz), "day", month=month, day=day)

    def text_noyear(m: re.Match[str]) -> None:
        day = int(m["d1"] or m["d2"])
        month = _month_number(m["m1"] or m["m2"])
        resolve = _month_day_resolver(month, day, tz)
        span = _latest_not_after(resolve, now)
        if span is not None:
            add(m, *span, "day", month=month, day=day, has_year=False, resolve=resolve)

    def day_month(m: re.Match[str]) -> None:
        day, month = int(m["d"]), int(m["mo"])
        if m["y"]:
            year = int(m["y"])
            if _valid_year(year):
                add(m, *_day_span(date(year, month, day), tz), "day", month=month, day=day)
            return
        date(2000, month, day)  # a leap year: raises only for a day no year has
        resolve = _month_day_resolver(month, day, tz)
        span = _latest_not_after(resolve, now)
        if span is not None:  # "3/4" alone may be a fraction: a date only after "on", "since", ...
            add(m, *span, "day", needs_pre=True, month=month, day=day, has_year=False, resolve=resolve)

    def named_day(m: re.Match[str]) -> None:
        month, day = next(md for i, (_, md) in enumerate(_NAMED_DAYS) if m[f"n{i}"])
        if m["y"]:
            year = int(m["y"])
            if _valid_year(year):
                add(m, *_day_span(date(year, month, day), tz), "day", month=month, day=day)
            return
        resolve = _month_day_resolver(month, day, tz)
        span = _latest_not_after(resolve, now)
        if span is not None:
            add(m, *span, "day", month=month, day=day, has_year=False, resolve=resolve)

    def month_year(m: re.Match[str]) -> None:
        if m["m"]:
            month, year = _month_number(m["m"]), int(m["y"])
        else:
            month, year = int(m["mo"]), int(m["y2"])
        if _valid_year(year):
            add(m, *_month_span(year, month, tz), "month", month=month)

    def bare_month(m: re.Match[str]) -> None:
        month = _month_number(m[0])
        resolve = _month_resolver(month, tz)
        span = _latest_not_after(resolve, now)
        if span is not None:
            add(m, *span, "month", needs_pre=True, month=month, has_year=False, resolve=resolve)

    def season(m: re.Match[str]) -> None:
        resolve = _season_resolver(m["s"].lower(), tz)
        if m["y"]:
            year = int(m["y"])
            if m["y2"]:  # "winter 2024/25": only a winter spans two years, and they follow each other
                after = int(m["y2"]) if len(m["y2"]) == 4 else year // 100 * 100 + int(m["y2"])
                if after != year + 1 or _SEASONS[m["s"].lower()][0] != 12:
                    return
                year = after
            if _valid_year(year) and (span := resolve(year)) is not None:
                add(m, *span, "period")
            return
        span = _latest_not_after(resolve, now)
        if span is not None:  # "spring" alone may be a coil: a season only after "in", "last", ...
            add(m, *span, "period", needs_pre=True, has_year=False, resolve=resolve, season=m["s"].lower())

    def part(m: re.Match[str]) -> None:
        month = _month_number(m["m"]) if m["m"] else None
        resolve = _part_resolver(m["ord"].lower(), m["part"].lower(), month, tz)
        year_text = m["my"] or m["y"]
        if year_text:
            year = int(year_text)
            if _valid_year(year) and (span := resolve(year)) is not None:
                add(m, *span, "period")
            return
        span = _latest_not_after(resolve, now)
        if span is not None:
            add(m, *span, "period", has_year=False, resolve=resolve)

    def quarter(m: re.Match[str]) -> None:
        ordinal = ("first", "second", "third", "fourth")[int(m["q"] or m["q2"]) - 1]
        resolve = _part_resolver(ordinal, "quarter", None, tz)
        year_text = m["y"] or m["y2"]
        if year_text:
            year = int(year_text)
            if _valid_year(year) and (span := resolve(year)) is not None:
                add(m, *span, "period")
            return
        span = _latest_not_after(resolve, now)
        if span is not None:  # "Q1" alone may be a name: a quarter only after "in", "during", ...
            add(m, *span, "period", needs_pre=True, has_year=False, resolve=resolve)

    def so_far(m: re.Match[str]) -> None:
        unit = (m["u1"] or m["u2"] or m["u3"]).lower()
        if unit == "week":
            lo = _week_span(today, tz)[0]
        elif unit == "month":
            lo = datetime(today.year, today.month, 1, tzinfo=tz)
        elif unit == "quarter":
            lo = datetime(today.year, (today.month - 1) // 3 * 3 + 1, 1, tzinfo=tz)
        else:
            lo = datetime(today.year, 1, 1, tzinfo=tz)
        add(m, lo, now, "rolling")

    def bare_year(m: re.Match[str]) -> None:
        year = int(m["y"])
        if _valid_year(year):
            add(m, *_year_span(year, tz), "year", needs_pre=True)

    def bare_weekday(m: re.Match[str]) -> None:
        target = _WEEKDAY_NUMBERS[m["wd"][:3].lower()]
        back = (today.weekday() - target) % 7
        add(m, *_day_span(today - timedelta(days=back), tz), "weekday", needs_pre=True, day=back)

    def dayword(m: re.Match[str]) -> None:
        word = m["w"].lower()
        offset = 2 if "before" in word else 1 if word == "yesterday" else 0
        add(m, *_day_span(today - timedelta(days=offset), tz), "relative")

    def calendar(m: re.Match[str]) -> None:
        which, unit = m["which"].lower(), m["unit"].lower()
        back = 1 if which in ("last", "previous", "prior") else 0
        if unit == "fortnight":  # no calendar has fortnights: "last/this/past fortnight" is 14 days
            add(m, now - timedelta(days=14), now, "rolling")
        elif which == "past" and unit != "weekend":
            length = {"week": timedelta(days=7), "month": None, "quarter": None, "year": None}[unit]
            lo = (
                now - length
                if length
                else _shift(now, 3, "month")
                if unit == "quarter"
                else _shift(now, 1, unit)
            )
            add(m, lo, now, "rolling")
        elif unit == "week":
            add(m, *_week_span(today - timedelta(weeks=back), tz), "relative")
        elif unit == "weekend":
            start, _ = _week_span(today - timedelta(weeks=1 if which != "this" else 0), tz)
            add(m, start + timedelta(days=5), start + timedelta(days=7), "relative")
        elif unit == "month":
            point = _shift_months(datetime(today.year, today.month, 1, tzinfo=tz), back)
            add(m, *_month_span(point.year, point.month, tz), "relative")
        elif unit == "quarter":
            first = datetime(today.year, (today.month - 1) // 3 * 3 + 1, 1, tzinfo=tz)
            point = _shift_months(first, 3 * back)
            add(m, *_months_span(point.year, point.month, 3, tz), "relative")
        else:
            add(m, *_year_span(today.year - back, tz), "relative")

    def ago(m: re.Match[str]) -> None:
        n, unit = _number(m["n"]), m["unit"].lower()
        if unit == "fortnight":  # "a fortnight ago" is "two weeks ago": the week two weeks back
            n, unit = 2 * n, "week"
        if n > 10000:
            return
        point = _shift(now, n, unit)
        if unit == "hour":
            add(m, point - timedelta(minutes=30), point + timedelta(minutes=30), "relative")
        elif unit == "day":
            add(m, *_day_span(point.date(), tz), "relative")
        elif unit == "week":
            add(m, *_week_span(point.date(), tz), "relative")
        elif unit == "month":
            add(m, *_month_span(point.year, point.month, tz), "relative")
        else:
            add(m, *_year_span(point.year, tz), "relative")

    def rolling(m: re.Match[str]) -> None:
        n, unit = _number(m["n"]), m["unit"].lower()
        if unit == "fortnight":
            n, unit = 2 * n, "week"
        if 0 < n <= 10000:
            add(m, _shift(now, n, unit), now, "rolling")

    def recent(m: re.Match[str]) -> None:
        add(m, now - timedelta(days=30), now, "rolling")

    table: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], None]], ...] = (
        (_Q_NUMERIC, numeric),
        (_Q_TEXT_YEAR, text_year),
        (_Q_TEXT_NOYEAR, text_noyear),
        (_Q_DAY_MONTH, day_month),
        (_Q_NAMED_DAY, named_day),
        (_Q_SEASON, season),
        (_Q_PART, part),
        (_Q_QUARTER, quarter),
        (_Q_SO_FAR, so_far),
        (_Q_MONTH_YEAR, month_year),
        (_Q_BARE_MONTH, bare_month),
        (_Q_BARE_YEAR, bare_year),
        (_Q_BARE_WEEKDAY, bare_weekday),
        (_Q_DAYWORD, dayword),
        (_Q_CALENDAR, calendar),
        (_Q_AGO, ago),
        (_Q_ROLLING, rolling),
        (_Q_RECENT, recent),
    )
    for regex, handler in table:
        for m in regex.finditer(query):
            attempt(handler, m)
    return found


def _preposition(query: str, start: int) -> tuple[str, int]:
    """The preposition right before ``start`` (normalised, lower case) and where it begins."""
    m = _PRE_RE.search(query, max(0, start - 30), start)
    if m is None:
        return "", start
    return " ".join(m["pre"].lower().split()), m.start()


def _anchor_at(query: str, pos: int, now: datetime, chosen: list[_Cand]) -> _Cand | None:
    """The expression starting at ``pos`` (bare months and years allowed): the second end of a range."""
    for cand in chosen:
        if cand.start == pos:
            return cand
    best = None
    for cand in _candidates(query[: pos + 60], now):
        if cand.start == pos and cand.kind != "weekday" and (best is None or cand.end > best.end):
            best = cand
    return best


_RANGE_JOIN = {
    "between": re.compile(r"\s+(?:and|&)\s+", re.IGNORECASE),
    "from": re.compile(r"\s*(?:-|–|—)\s*|\s+(?:to|until|till|through|thru)\s+", re.IGNORECASE),
}


def _align_years(first: _Cand, second: _Cand) -> tuple[Span, Span]:
    """Give a yearless end of a range the year of the other end ("from May to July 2023")."""
    a, b = (first.lo, first.hi), (second.lo, second.hi)
    try:
        if not first.has_year and first.resolve is not None and (second.has_year or first.lo > second.lo):
            year = second.lo.year
            span = first.resolve(year)
            if span is not None and span[0] > second.lo:
                span = first.resolve(year - 1)
            a = span or a
        elif first.has_year and not second.has_year and second.resolve is not None:
            year = first.lo.year
            span = second.resolve(year)
            if span is not None and span[1] <= first.lo:
                span = second.resolve(year + 1)
            b = span or b
    except (ValueError, OverflowError):
        pass
    return a, b


def _windows(query: str, now: datetime) -> list[TimeWindow]:
    found = _candidates(query, now)
    # Bare months, years and weekdays only count after a preposition ("in May", not "May I").
    usable: list[tuple[_Cand, str, int]] = []
    for cand in found:
        pre, pre_start = _preposition(query, cand.start)
        if cand.needs_pre:
            allowed = {
                "month": _BARE_MONTH_PRE,
                "period": _BARE_MONTH_PRE,
                "year": _BARE_YEAR_PRE,
                "weekday": _WEEKDAY_PRE,
                "day": _NUMERIC_DAY_PRE,
            }[cand.kind]
            if pre not in allowed:
                continue
            if cand.kind == "month" and cand.month == 5 and pre in ("this", "last", "by"):
                continue  # "this may help", "by may be"
            if cand.season == "fall" and pre in ("this", "by"):
                continue  # "does this fall under", "by fall through"
        usable.append((cand, pre, pre_start))
    # Longest expressions first; drop anything overlapping an already chosen one.
    usable.sort(key=lambda item: (-(item[0].end - item[0].start), item[0].start))
    chosen: list[tuple[_Cand, str, int]] = []
    for item in usable:
        if all(item[0].end <= c.start or item[0].start >= c.end for c, _, _ in chosen):
            chosen.append(item)
    chosen.sort(key=lambda item: item[0].start)

    windows: list[TimeWindow] = []
    # each window's expression (for a year named elsewhere in the query) and its resolver if yearly
    found_at: list[tuple[_Cand, Callable[[int], Span | None] | None]] = []
    consumed: set[int] = set()
    tz = now.tzinfo or UTC
    for cand, pre, pre_start in chosen:
        if id(cand) in consumed:
            continue
        lo, hi, start, end = cand.lo, cand.hi, cand.start, cand.end
        resolve = cand.resolve
        third = cand.kind == "month" and pre in _MONTH_THIRDS
        if third:  # "early/mid/late March": a third of that month, of the year named or of every year
            resolve = _third_resolver(cand.month, pre, tz)
            span = resolve(cand.lo.year) if cand.has_year else _latest_not_after(resolve, now)
            lo, hi = span or (lo, hi)
        yearly = not cand.has_year and cand.kind in ("day", "month", "period") and pre not in _TIED_TO_NOW_PRE
        if cand.kind in ("month", "period") and not cand.has_year and resolve is not None:
            if pre == "last":
                lo, hi = _latest_ended(resolve, now) or (lo, hi)
            elif pre == "this":
                lo, hi = _current(resolve, now) or (lo, hi)
        if cand.kind == "weekday" and pre == "last" and cand.day == 0:
            lo, hi = lo - timedelta(days=7), hi - timedelta(days=7)
        if pre:
            start = pre_start
        if pre in _RANGE_JOIN:
            join = _RANGE_JOIN[pre].match(query, cand.end)
            other = _anchor_at(query, join.end(), now, [c for c, _, _ in chosen]) if join else None
            if other is not None:
                consumed.add(id(other))
                yearly = yearly and not other.has_year  # "from May to July 2023" is one year's
                (alo, ahi), (blo, bhi) = _align_years(cand, other)
                lo, hi, end = min(alo, blo), max(ahi, bhi), other.end
            elif pre == "between":
                start = cand.start  # "between X" alone: just X
            # "notes from 2023" alone means 2023 itself, not "since 2023"
        elif pre in ("since", "as of"):
            hi = now if lo < now else hi
        elif pre == "after":
            lo, hi = hi, (now if hi < now else MAX_DATETIME)
        elif pre in ("before", "prior to"):
            lo, hi = MIN_DATETIME, lo
        elif pre in ("until", "till", "by"):
            lo = MIN_DATETIME
        elif pre in ("last", "this", "early", "late", "mid", "end of", "start of", "beginning of") and (
            not cand.needs_pre and not third
        ):
            start = cand.start  # "last" in "last March 3" adds nothing
        if lo < hi:
            windows.append(TimeWindow(lo, hi, query[start:end], yearly))
            found_at.append((cand, resolve if yearly else None))
    return _pin_to_year(query, windows, found_at)


def _pin_to_year(
    query: str, windows: list[TimeWindow], found_at: list[tuple[_Cand, Callable[[int], Span | None] | None]]
) -> list[TimeWindow]:
    """A yearless day or month in a query that also names one year is that year's ("in 2024, on
    March 26" is 2024-03-26, not March 26 in every year; so is "early May last year"). Next to
    each other, the two phrases become one; apart, the year's phrase stays a window of its own
    (wider, so the day still wins)."""
    # a whole calendar year, however it was said: "in 2024", "this year", "last year"
    years = [
        window
        for window in windows
        if not window.yearly
        and (window.start, window.end) == _year_span(window.start.year, window.start.tzinfo)
    ]
    if len({window.start.year for window in years}) != 1:
        return windows
    year_window = years[0]
    year_at = query.find(year_window.text)
    pinned: list[TimeWindow] = []
    for window, (_, resolve) in zip(windows, found_at, strict=True):
        span = resolve(year_window.start.year) if window.yearly and resolve is not None else None
        if span is None:
            pinned.append(window)
            continue
        text, at = window.text, query.find(window.text)
        if year_at >= 0 and at >= 0:
            (a, a_text), (b, b_text) = sorted([(year_at, year_window.text), (at, text)])
            # only punctuation or a preposition between: "in 2024, on March 26", "in 2023, in early May"
            if re.fullmatch(r"[\s,;]*(?:(?:in|on|during)\s+)?", query[a + len(a_text) : b], re.IGNORECASE):
                text = query[a : b + len(b_text)]
        pinned.append(TimeWindow(span[0], span[1], text, yearly=False))
    return pinned


def query_time_window(query: str, now: datetime) -> TimeWindow | None:
    """The time window ``query`` talks about, relative to ``now``; None if it has none.

    Understands explicit dates (``on March 26``, ``26 March``, ``2024-03-26``), months
    (``in May 2023``, ``in May``), years after a preposition (``in 2025``), ``today``,
    ``yesterday``, ``this/last week|month|year`` (calendar units, ISO weeks),
    ``N days/weeks/months ago``, ``past/last N days``, ``recently``, and ranges built with
    ``since``, ``before``, ``after``, ``until``, ``between X and Y``, ``from X to Y``.
    Named days (``on Christmas Eve``, ``Halloween``, ``Bonfire Night``) and numeric dates day
    first (``on 26/3``, ``5/11/2024`` is 5 November) count as dates too. So do seasons
    (``in spring 2025``, ``last summer``: meteorological, northern hemisphere, see ``_SEASONS``),
    parts of a month or year (``the first week of May``, ``the second half of August``,
    ``early/mid/late March``, ``the third quarter of 2024``, ``Q1 2024``), ``so far this month``
    (up to now), ``this/last quarter`` and ``a fortnight ago``. A year the query names beside a
    yearless day pins it (``in 2024, on March 26``). A yearless day, month or period
    is ``yearly``: its window is the most recent occurrence not after ``now``, and it stands for
    that day or month in every year (unless ``since``, ``last``, ... tie it to now). When the
    query holds several phrases the narrowest window wins. Naive ``now`` is taken as UTC.
    """
    try:
        if not isinstance(query, str) or not isinstance(now, datetime):
            return None
        if now.tzinfo is None:
            now = now.replace(tzinfo=UTC)
        windows = _windows(query[:2000], now)
        if not windows:
            return None
        return min(windows, key=lambda w: w.width)
    except Exception:
        return None


def strip_time_phrase(query: str, window: TimeWindow | None) -> str:
    """``query`` without the phrase its time window came from (for keyword search)."""
    if window is None or not window.text:
        return query
    index = query.find(window.text)
    if index < 0:
        index = query.lower().find(window.text.lower())
    if index < 0:
        return query
    rest = query[:index] + " " + query[index + len(window.text) :]
    rest = re.sub(r"\s+([?!.,;:])", r"\1", rest)
    return re.sub(r"\s{2,}", " ", rest).strip()
