"""The temporal expressions a query holds, each read into a span (:func:`find_candidates`).

Every pattern (explicit dates, yearless days, named days, months, seasons, parts of a month or
year, quarters, bare years and weekdays, today/yesterday, this/last week, N days ago, the past N
days, recently) is run over the whole query and each match becomes a :class:`Candidate`; which
of them count, and how the words before them widen them into a window, is
:mod:`memsearch.dates.windows`' job.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import TypedDict, Unpack

from memsearch.dates.local import local_expressions
from memsearch.dates.spans import (
    Span,
    day_span,
    month_span,
    months_span,
    shift,
    shift_months,
    week_span,
    year_span,
)
from memsearch.dates.vocabulary import (
    MONTH,
    MONTH_FULL,
    NUMBER,
    ORD,
    PATTERN_FLAGS,
    VAGUE_COUNTS,
    WEEKDAY,
    WEEKDAY_NUMBERS,
    month_number,
    number_value,
)
from memsearch.dates.yearly import (
    SEASONS,
    latest_not_after,
    month_day_resolver,
    month_resolver,
    movable_resolver,
    part_resolver,
    season_resolver,
)

_UNIT = r"(?P<unit>hour|day|week|fortnight|month|year)s?"


@dataclass
class Candidate:
    """One temporal expression found in a query (before prepositions are applied)."""

    start: int  # span of the expression itself in the query
    end: int
    lo: datetime
    hi: datetime
    kind: (
        str  # day | month | period (a season, part of a month or year) | year | relative | rolling
        # | weekday | recent ("recently", "lately": vaguer than any other expression)
    )
    needs_pre: bool = False  # bare month / year / weekday: only temporal after a preposition
    month: int = 0
    day: int = 0
    has_year: bool = True
    season: str = ""
    resolve: Callable[[int], Span | None] | None = field(default=None, repr=False)  # for yearless dates


class _Details(TypedDict, total=False):
    """The fields of a :class:`Candidate` after its kind, as keywords."""

    needs_pre: bool
    month: int
    day: int
    has_year: bool
    season: str
    resolve: Callable[[int], Span | None] | None


class _ResolvedDetails(TypedDict, total=False):
    """The :class:`Candidate` fields a caller of ``add_resolved`` gives (it sets the others itself)."""

    month: int


_Q_NUMERIC = re.compile(
    r"(?<![\w.+/-])(?P<y>\d{4})(?P<sep>[-/.])(?P<mo>\d{1,2})(?P=sep)(?P<d>\d{1,2})"
    r"(?:T[\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?(?![\d]|[-/.]\d)",
    re.IGNORECASE,
)
_Q_TEXT_YEAR = re.compile(
    rf"""(?:{WEEKDAY},?\s+)?(?:
        (?:the\s+)?(?P<d1>\d{{1,2}}){ORD}(?:\s+of)?\s+(?P<m1>{MONTH})\.?,?\s+(?P<y1>\d{{4}})
      | (?P<m2>{MONTH})\.?\s+(?:the\s+)?(?P<d2>\d{{1,2}}){ORD},?\s+(?P<y2>\d{{4}})
    )(?![\d:]|[.,]\d)""",
    PATTERN_FLAGS,
)
_Q_TEXT_NOYEAR = re.compile(
    rf"""(?<![\w.])(?:{WEEKDAY},?\s+)?(?:
        (?:the\s+)?(?P<d1>\d{{1,2}}){ORD}(?:\s+of)?\s+(?P<m1>{MONTH})
      | (?P<m2>{MONTH})\.?\s+(?:the\s+)?(?P<d2>\d{{1,2}}){ORD}
    )(?![\w:]|[.,]\d)""",
    PATTERN_FLAGS,
)
_Q_MONTH_YEAR = re.compile(
    rf"""(?:(?<![\w.])(?P<m>{MONTH})\.?,?\s+(?P<y>\d{{4}})(?![\d:]|[.,]\d)
      | (?<![\w.+/-])(?P<y2>\d{{4}})-(?P<mo>\d{{2}})(?![\d]|[-/.]\d))""",
    PATTERN_FLAGS,
)
# "mid-March" is written with a hyphen; any other hyphen before a month joins it to another word
_Q_BARE_MONTH = re.compile(rf"(?<![\w.])(?:(?<=mid-)|(?<!-)){MONTH_FULL}", re.IGNORECASE)
# "mid-2024" is written with a hyphen, as "mid-March" is
_Q_BARE_YEAR = re.compile(
    r"(?:(?<=mid-)|(?<![\w.+/-]))(?P<y>\d{4})(?![\w%-]|[/.:,]\d)"
    r"(?!\s*(?:ms|s|secs?|seconds?|minutes?|hours?|days?|km|m|kb|mb|gb|px|items?|rows?|lines?|tokens?"
    r"|words?|users?|times|steps?|files?|bytes?)\b)",
    re.IGNORECASE,
)
_WEEKDAY_NAMES = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_Q_BARE_WEEKDAY = re.compile(rf"(?<![\w-])(?P<wd>{_WEEKDAY_NAMES})(?![\w'])", re.IGNORECASE)
_Q_DAYWORD = re.compile(
    r"\b(?P<w>today|tonight|yesterday|(?<!the\s)last\s+night(?!\s+of\b)|the\s+day\s+before\s+yesterday"
    r"|this\s+(?:morning|afternoon|evening))\b",
    re.IGNORECASE,
)
#: "over the weekend", "at the weekend": the latest weekend, this one if it has begun.
_Q_THE_WEEKEND = re.compile(r"\b(?P<pre>over|at|on|during|since)\s+the\s+weekend\b", re.IGNORECASE)
#: "two Fridays ago", "the Friday before last": a weekday counted back from its last occurrence.
_Q_WEEKDAYS_AGO = re.compile(
    rf"\b(?:(?P<n>{NUMBER})\s+(?P<wd>{_WEEKDAY_NAMES})s?\s+ago|(?:the\s+)?(?P<wd2>{_WEEKDAY_NAMES})\s+before\s+last)\b",
    re.IGNORECASE,
)
#: A run of months: "Jan-Mar 2025", "March through May" (their first month was lost: a bare month
#: stands only after a preposition, an abbreviated one only beside a day or year).
_Q_MONTH_RUN = re.compile(
    rf"(?<![\w/.-])(?P<m1>{MONTH})\s*(?:-|–|—|\s(?:to|until|till|through|thru)\s)\s*(?P<m2>{MONTH})"
    r"(?:,?\s+(?P<y>\d{4}))?(?![\w'’]|[-/.:,]\d)",
    re.IGNORECASE,
)
#: "this time last year": the four weeks around this day a year ago.
_Q_THIS_TIME = re.compile(r"\b(?:this|the\s+same)\s+time\s+last\s+year\b", re.IGNORECASE)
# "the start of the year", "the end of the month": this one ("the" alone names no unit otherwise)
_Q_CALENDAR = re.compile(
    r"\b(?P<which>this|current|last|previous|prior|past"
    r"|(?:(?<=start\sof\s)|(?<=end\sof\s)|(?<=beginning\sof\s))the|(?<=earlier\s)in\s+the)"
    r"\s+(?P<unit>week(?:end)?|fortnight|month|quarter|year)\b(?![-‐])"
    r"(?!\s*'s?\s*\d)",
    re.IGNORECASE,
)
#: "the week before last", "the weekend before last week", "the year before last": two back. Not
#: "the week before last Easter" (or Friday, March, summer): the week before that day.
_Q_BEFORE_LAST = re.compile(
    r"\bthe\s+(?P<unit>week(?:end)?|month|year)\s+before\s+last(?:\s+(?P=unit)\b|\b(?!\s+(?:"
    rf"{WEEKDAY}|{MONTH_FULL}|christmas|xmas|easter|thanksgiving|good\s+friday|new\s+year|hallowe['’]?en"
    r"|boxing\s+day|bonfire\s+night|spring|summer|autumn|fall|winter)\b))",
    re.IGNORECASE,
)
#: "the" right before "last week/month/year": "in the last year" is the twelve months up to now
#: (not the calendar year before), unless a part of something follows ("the last month of 2024").
_THE_JUST_BEFORE = re.compile(r"\bthe\s+$", re.IGNORECASE)
_OF_JUST_AFTER = re.compile(r"\s+of\b", re.IGNORECASE)
# "a fortnight ago today", "a year ago today": that very day, not the week or year around it
# "three weeks back" is "three weeks ago" where the phrase ends there ("a few days back home",
# "two months back rent", "two weeks back at work" say where or what, not when)
_Q_AGO = re.compile(
    rf"\b(?P<n>{NUMBER})\s+{_UNIT}\s+(?:ago\b|back(?=\s*(?:$|[,.;:!?)]|(?:when|i|we|you|he|she|they|it"
    r"|there|my|our|the|that|this|what|did|was|were|had|have|someone|somebody)\b)))"
    r"(?P<today>\s+(?:today|to\s+the\s+day)\b)?",
    re.IGNORECASE,
)
# A run of days in one month: "between 9 and 17 October 2025", "1-15 March", "March 3 to 7"
_JOINT = r"-|–|—|\s(?:and|to|until|till|through)\s"
_Q_DAY_RANGE = re.compile(
    rf"""(?<![\w/.:-])(?:(?P<between>between)\s+|from\s+)?(?:
        (?:the\s+)?(?P<a1>\d{{1,2}}){ORD}\s*(?P<j1>{_JOINT})\s*(?:the\s+)?
        (?P<b1>\d{{1,2}}){ORD}(?:\s+of)?\s+(?P<m1>{MONTH})
      | (?P<m2>{MONTH})\.?\s+(?:the\s+)?(?P<a2>\d{{1,2}}){ORD}\s*(?P<j2>{_JOINT})
        \s*(?:the\s+)?(?P<b2>\d{{1,2}}){ORD}
    )(?:\.?,?\s+(?P<y>\d{{4}}))?(?![\w:]|[.,]\d)""",
    PATTERN_FLAGS,
)
_Q_ROLLING = re.compile(
    rf"\b(?:(?:in|over|during|within|for)\s+)?(?:the\s+)?(?:past|last|previous|prior)\s+(?P<n>{NUMBER})\s+{_UNIT}\b",
    re.IGNORECASE,
)
#: "in the last hour", "within the past day": one of them up to now ("the last day of the trip", "in
#: the last day or two" are no such window).
_Q_LAST_ONE = re.compile(
    r"\b(?:in|over|during|within|for)\s+the\s+(?:past|last|previous)\s+(?P<unit>hour|day)\b"
    r"(?!\s+(?:of|or)\b)",
    re.IGNORECASE,
)
_Q_RECENT = re.compile(
    r"\b(?:recently|lately|of\s+late|in\s+recent\s+(?P<unit>days|weeks|months)|not\s+long\s+ago"
    r"|a\s+(?:little|short)\s+while\s+(?:ago|back))\b",
    re.IGNORECASE,
)
#: "on the 3rd": the latest 3rd of a month not after now ("the 3rd floor" is no day).
_Q_ORDINAL_DAY = re.compile(
    r"(?<![\w'’])the\s+(?P<d>\d{1,2})(?:st|nd|rd|th)(?:\s+of\s+(?:the|this)\s+month)?(?![\w'’])"
    r"(?!\s+(?!(?:of|i|we|and|or|when|at|in|with|you|he|she|they|it|my|our)\b)[a-z])",
    re.IGNORECASE,
)
#: "Tuesday last week", "Friday of last week", "on Monday this week": that day of that week.
_Q_WEEKDAY_OF_WEEK = re.compile(
    rf"(?<![\w-])(?P<wd>{_WEEKDAY_NAMES})\s+(?:of\s+)?(?P<which>last|this|the\s+previous)\s+week\b",
    re.IGNORECASE,
)
#: "the other day": some day of the last two weeks before today; "the other week": of the three
#: weeks before last week (vague, as "recently" is).
_Q_THE_OTHER = re.compile(
    r"\bthe\s+other\s+(?P<unit>day|night|morning|evening|week)\b(?!\s+(?:of|shifts?|off|on|job|rate)\b)",
    re.IGNORECASE,
)
#: "one day ..., the other day ...": the other of two, no time.
_ONE_OF_TWO = re.compile(r"\bone\s+(?:day|night|morning|evening|week)\b", re.IGNORECASE)
#: A version or an address, not a dotted date: "version 1.2.2025", "IP 10.1.2024".
_VERSION_BEFORE = re.compile(r"\b(?:version|release|ver|v|build|rev|ip)\.?\s*$", re.IGNORECASE)
#: Dotted dates are day first (Germany, Russia, Norway, ...), and only with a four-digit year:
#: "3.11" is a version.
_Q_DOTTED = re.compile(r"(?<![\w./:-])(?P<d>\d{1,2})\.(?P<mo>\d{1,2})\.(?P<y>\d{4})(?![\w.]|[,:-]\d)")
#: A half year written short, with its year: "H2 2024", "2025 H1" ("H1" alone is a heading).
_Q_HALF = re.compile(
    r"(?<![\w-])(?:H(?P<h>[12])\s+(?:of\s+)?(?P<y>\d{4})|(?P<y2>\d{4})[\s-]?H(?P<h2>[12]))(?![\w]|[-/.:,]\d)"
)
# Day/month written with digits, day first as in the UK ("5/11/2024" is 5 November). Only a
# four-digit year: "5/11/24" could as well be a version or a score.
_Q_DAY_MONTH = re.compile(
    r"(?<![\w./:-])(?P<d>\d{1,2})/(?P<mo>\d{1,2})(?:/(?P<y>\d{4}))?(?![\w/]|[.,:-]\d)", re.IGNORECASE
)
_APOSTROPHE = r"['’]"
#: Days known by name, fixed in the calendar: (month, day). Movable ones (Easter, bank holidays)
#: are yearly.MOVABLE_DAYS.
_NAMED_DAYS: tuple[tuple[str, tuple[int, int]], ...] = (
    (r"(?:christmas|xmas)\s+eve", (12, 24)),
    (r"(?:christmas|xmas)\s+day", (12, 25)),
    (r"boxing\s+day", (12, 26)),
    # "at Christmas", "last Christmas": the day; a Christmas party or market is some day before it,
    # the Christmas holidays or break the days around it
    (
        r"(?:christmas|xmas)(?![\s-]+(?:part(?:y|ies)|trees?|cards?|markets?|shopping|lights|jumpers?|lists?"
        r"|presents?|gifts?|decorations?|songs?|carols?|films?|movies?|adverts?|fairs?|concerts?|plays?"
        r"|holidays?|break|week|season|period|time|closure|shutdown|rush)\b)",
        (12, 25),
    ),
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

# Movable days (yearly.MOVABLE_DAYS): "Easter", "Good Friday", "the August bank holiday weekend",
# "Thanksgiving 2024". An "Easter egg" is a hidden feature and Easter Island a place, not dates.
_Q_MOVABLE = re.compile(
    r"(?<![\w'’-])(?P<name>good\s+friday|easter\s+(?:sunday|day|monday)|easter(?!\s+(?:eggs?|island)\b)"
    r"|(?:early\s+may|may\s+day|spring|august|summer)\s+bank\s+holiday|thanksgiving(?:\s+day)?)"
    r"(?P<weekend>\s+(?:long\s+)?weekend)?(?:,?\s+(?P<y>\d{4}))?(?![\w'’]|[-/.:,]\d)",
    re.IGNORECASE,
)

_Q_SEASON = re.compile(
    r"(?<![\w-])(?P<s>spring|summer|autumn|fall|winter)(?:time)?"
    # "Spring Boot" and its kin are a Java framework, not a season (a vault with code names them)
    r"(?!\s+(?:boot|framework|cloud|security|data|batch|mvc|beans?)\b)"
    r"(?:,?\s+(?:of\s+)?(?P<y>\d{4})(?:\s*[/-]\s*(?P<y2>\d{4}|\d{2}))?)?(?![\w'’]|[-/.:,]\d)",
    re.IGNORECASE,
)
# "the first half of May", "the second week of March 2024", "the third quarter of 2024", "the last
# week of May": a part of a month or of a year.
_Q_PART = re.compile(
    rf"""(?<![\w-])(?:the\s+)?(?P<ord>first|second|third|fourth|1st|2nd|3rd|4th|last|latter)\s+
    (?:(?P<count>two|three|2|3)\s+(?=weeks))?(?P<part>half|quarter|weekend|week)s?\s+of\s+(?:the\s+)?
    (?:(?P<m>{MONTH})(?:\.?,?\s+(?P<my>\d{{4}}))?|(?:year\s+)?(?P<y>\d{{4}}))(?![\w:]|[.,]\d)""",
    PATTERN_FLAGS,
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


def _valid_year(year: int) -> bool:
    return 1900 <= year <= 2100


def find_candidates(query: str, now: datetime) -> list[Candidate]:
    tz = now.tzinfo or UTC
    today = now.date()
    found: list[Candidate] = []

    def add(m: re.Match[str], lo: datetime, hi: datetime, kind: str, **extra: Unpack[_Details]) -> None:
        found.append(Candidate(m.start(), m.end(), lo, hi, kind, **extra))

    def add_resolved(
        m: re.Match[str],
        resolve: Callable[[int], Span | None],
        kind: str,
        year_text: str | None,
        needs_pre: bool = False,
        **extra: Unpack[_ResolvedDetails],
    ) -> None:
        """A day or period ``resolve`` finds in any year: the year the query states, else its latest
        occurrence not after now (yearly; ``needs_pre``: only after a preposition)."""
        if year_text:
            year = int(year_text)
            if _valid_year(year) and (span := resolve(year)) is not None:
                add(m, *span, kind, **extra)
            return
        span = latest_not_after(resolve, now)
        if span is not None:
            add(m, *span, kind, needs_pre=needs_pre, has_year=False, resolve=resolve, **extra)

    def attempt(fn: Callable[[re.Match[str]], None], m: re.Match[str]) -> None:
        with contextlib.suppress(ValueError, OverflowError, KeyError, IndexError):
            fn(m)

    def numeric(m: re.Match[str]) -> None:
        year = int(m["y"])
        if _valid_year(year):
            add(m, *day_span(date(year, int(m["mo"]), int(m["d"])), tz), "day")

    def text_year(m: re.Match[str]) -> None:
        day = int(m["d1"] or m["d2"])
        month = month_number(m["m1"] or m["m2"])
        year = int(m["y1"] or m["y2"])
        if _valid_year(year):
            add(m, *day_span(date(year, month, day), tz), "day", month=month, day=day)

    def text_noyear(m: re.Match[str]) -> None:
        day = int(m["d1"] or m["d2"])
        month = month_number(m["m1"] or m["m2"])
        resolve = month_day_resolver(month, day, tz)
        span = latest_not_after(resolve, now)
        if span is not None:
            add(m, *span, "day", month=month, day=day, has_year=False, resolve=resolve)

    def day_month(m: re.Match[str]) -> None:
        day, month = int(m["d"]), int(m["mo"])
        if month > 12 >= day:  # "3/26": no month comes first there, so it is month first (US)
            day, month = month, day
        if (day, month) == (24, 7) and not m["y"]:  # "24/7": always, not the 24th of July
            return
        if m["y"]:
            year = int(m["y"])
            if _valid_year(year):
                add(m, *day_span(date(year, month, day), tz), "day", month=month, day=day)
            return
        date(2000, month, day)  # a leap year: raises only for a day no year has
        resolve = month_day_resolver(month, day, tz)
        span = latest_not_after(resolve, now)
        if span is not None:  # "3/4" alone may be a fraction: a date only after "on", "since", ...
            add(m, *span, "day", needs_pre=True, month=month, day=day, has_year=False, resolve=resolve)

    def named_day(m: re.Match[str]) -> None:
        month, day = next(md for i, (_, md) in enumerate(_NAMED_DAYS) if m[f"n{i}"])
        if m["y"]:
            year = int(m["y"])
            if _valid_year(year):
                add(m, *day_span(date(year, month, day), tz), "day", month=month, day=day)
            return
        resolve = month_day_resolver(month, day, tz)
        span = latest_not_after(resolve, now)
        if span is not None:
            add(m, *span, "day", month=month, day=day, has_year=False, resolve=resolve)

    def movable(m: re.Match[str]) -> None:
        resolve = movable_resolver(" ".join(m["name"].lower().split()), bool(m["weekend"]), tz)
        add_resolved(m, resolve, "day", m["y"])

    def month_year(m: re.Match[str]) -> None:
        if m["m"]:
            month, year = month_number(m["m"]), int(m["y"])
        else:
            month, year = int(m["mo"]), int(m["y2"])
        if _valid_year(year):
            add(m, *month_span(year, month, tz), "month", month=month)

    def bare_month(m: re.Match[str]) -> None:
        month = month_number(m[0])
        resolve = month_resolver(month, tz)
        span = latest_not_after(resolve, now)
        if span is not None:
            add(m, *span, "month", needs_pre=True, month=month, has_year=False, resolve=resolve)

    def season(m: re.Match[str]) -> None:
        resolve = season_resolver(m["s"].lower(), tz)
        if m["y"]:
            year = int(m["y"])
            if m["y2"]:  # "winter 2024/25": only a winter spans two years, and they follow each other
                after = int(m["y2"]) if len(m["y2"]) == 4 else year // 100 * 100 + int(m["y2"])
                if after != year + 1 or SEASONS[m["s"].lower()][0] != 12:
                    return
                year = after
            if _valid_year(year) and (span := resolve(year)) is not None:
                add(m, *span, "period")
            return
        span = latest_not_after(resolve, now)
        if span is not None:  # "spring" alone may be a coil: a season only after "in", "last", ...
            add(m, *span, "period", needs_pre=True, has_year=False, resolve=resolve, season=m["s"].lower())

    def part(m: re.Match[str]) -> None:
        month = month_number(m["m"]) if m["m"] else None
        count = number_value(m["count"]) if m["count"] else 1
        resolve = part_resolver(m["ord"].lower(), m["part"].lower(), month, tz, count)
        add_resolved(m, resolve, "period", m["my"] or m["y"])

    def quarter(m: re.Match[str]) -> None:
        ordinal = ("first", "second", "third", "fourth")[int(m["q"] or m["q2"]) - 1]
        resolve = part_resolver(ordinal, "quarter", None, tz)
        # "Q1" alone may be a name: a yearless quarter only after "in", "during", ...
        add_resolved(m, resolve, "period", m["y"] or m["y2"], needs_pre=True)

    def day_range(m: re.Match[str]) -> None:
        joint = (m["j1"] or m["j2"]).strip().lower()
        if joint == "and" and not m["between"]:
            return  # "sick on 9 and 17 October": two days, not the days between
        if (m["m1"] or m["m2"]) == "may":
            return  # "scores between 10 and 20 may vary": a verb
        month = month_number(m["m1"] or m["m2"])
        first, last = int(m["a1"] or m["a2"]), int(m["b1"] or m["b2"])
        if not 1 <= first < last <= 31:
            return

        def resolve(year: int) -> Span | None:
            try:
                return day_span(date(year, month, first), tz)[0], day_span(date(year, month, last), tz)[1]
            except ValueError:
                return None

        add_resolved(m, resolve, "period", m["y"], month=month)

    def so_far(m: re.Match[str]) -> None:
        unit = (m["u1"] or m["u2"] or m["u3"]).lower()
        if unit == "week":
            lo = week_span(today, tz)[0]
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
            add(m, *year_span(year, tz), "year", needs_pre=True)

    def bare_weekday(m: re.Match[str]) -> None:
        target = WEEKDAY_NUMBERS[m["wd"][:3].lower()]
        back = (today.weekday() - target) % 7
        add(m, *day_span(today - timedelta(days=back), tz), "weekday", needs_pre=True, day=back)

    def dayword(m: re.Match[str]) -> None:
        word = m["w"].lower()
        offset = 2 if "before" in word else 1 if word == "yesterday" or word.startswith("last") else 0
        add(m, *day_span(today - timedelta(days=offset), tz), "relative")

    def the_weekend(m: re.Match[str]) -> None:
        saturday = today - timedelta(days=(today.weekday() - 5) % 7)
        start = datetime(saturday.year, saturday.month, saturday.day, tzinfo=tz)
        if m["pre"].lower() == "since":
            add(m, start, now, "rolling")
        else:
            add(m, start, start + timedelta(days=2), "relative")

    def weekdays_ago(m: re.Match[str]) -> None:
        n = number_value(m["n"]) if m["n"] else 2
        if not 0 < n <= 520:
            return
        target = WEEKDAY_NUMBERS[(m["wd"] or m["wd2"])[:3].lower()]
        back = (today.weekday() - target) % 7 or 7  # the last one before today
        add(m, *day_span(today - timedelta(days=back + 7 * (n - 1)), tz), "relative")

    def month_run(m: re.Match[str]) -> None:
        first, last = month_number(m["m1"]), month_number(m["m2"])
        count = (last - first) % 12 + 1

        def resolve(year: int) -> tuple[datetime, datetime]:
            return months_span(year, first, count, tz)

        if m["y"]:  # the year named is the last month's ("Nov-Feb 2025" runs from November 2024)
            year = int(m["y"]) - (1 if last < first else 0)
            if _valid_year(year):
                add(m, *resolve(year), "period", month=first, has_year=True)
            return
        span = latest_not_after(resolve, now)
        if span is not None:
            add(m, *span, "period", month=first, has_year=False, resolve=resolve)

    def this_time(m: re.Match[str]) -> None:
        lo, _ = day_span(shift(now, 1, "year").date(), tz)
        add(m, lo - timedelta(days=14), lo + timedelta(days=15), "relative")

    def calendar(m: re.Match[str]) -> None:
        which, unit = m["which"].lower(), m["unit"].lower()
        which = "this" if which.startswith(("the", "in")) else which
        if (
            which == "last"
            and unit in ("week", "month", "year")
            and _THE_JUST_BEFORE.search(query, max(0, m.start() - 8), m.start())
            and not _OF_JUST_AFTER.match(query, m.end())
        ):
            which = "past"
        back = 1 if which in ("last", "previous", "prior") else 0
        if unit == "fortnight":  # no calendar has fortnights: "last/this/past fortnight" is 14 days
            add(m, now - timedelta(days=14), now, "rolling")
        elif which == "past" and unit != "weekend":
            length = {"week": timedelta(days=7), "month": None, "quarter": None, "year": None}[unit]
            lo = (
                now - length
                if length
                else shift(now, 3, "month")
                if unit == "quarter"
                else shift(now, 1, unit)
            )
            add(m, lo, now, "rolling")
        elif unit == "week":
            add(m, *week_span(today - timedelta(weeks=back), tz), "relative")
        elif unit == "weekend":
            start, _ = week_span(today - timedelta(weeks=1 if which != "this" else 0), tz)
            add(m, start + timedelta(days=5), start + timedelta(days=7), "relative")
        elif unit == "month":
            point = shift_months(datetime(today.year, today.month, 1, tzinfo=tz), back)
            add(m, *month_span(point.year, point.month, tz), "relative")
        elif unit == "quarter":
            first = datetime(today.year, (today.month - 1) // 3 * 3 + 1, 1, tzinfo=tz)
            point = shift_months(first, 3 * back)
            add(m, *months_span(point.year, point.month, 3, tz), "relative")
        else:
            add(m, *year_span(today.year - back, tz), "relative")

    def before_last(m: re.Match[str]) -> None:
        unit = m["unit"].lower()
        if unit == "year":
            add(m, *year_span(today.year - 2, tz), "relative")
        elif unit == "month":
            point = shift_months(datetime(today.year, today.month, 1, tzinfo=tz), 2)
            add(m, *month_span(point.year, point.month, tz), "relative")
        else:
            start, end = week_span(today - timedelta(weeks=2), tz)
            add(m, *((start + timedelta(days=5), end) if unit == "weekend" else (start, end)), "relative")

    def ago(m: re.Match[str]) -> None:
        n, unit = number_value(m["n"]), m["unit"].lower()
        if unit == "fortnight":  # "a fortnight ago" is "two weeks ago": the week two weeks back
            n, unit = 2 * n, "week"
        if n > 10000:
            return
        if m["today"] and unit != "hour":
            add(m, *day_span(shift(now, n, unit).date(), tz), "relative")
        elif unit == "hour":
            point = shift(now, n, unit)
            add(m, point - timedelta(minutes=30), point + timedelta(minutes=30), "relative")
        elif VAGUE_COUNTS & set(m["n"].lower().split()):
            # "a few days ago": from the n+2nd to the n-1st back (two to five), not the third alone
            add(m, unit_span(n + 2, unit)[0], unit_span(max(n - 1, 1), unit)[1], "relative")
        else:
            add(m, *unit_span(n, unit), "relative")

    def unit_span(n: int, unit: str) -> Span:
        """The calendar day, week, month or year ``n`` of them back from now."""
        point = shift(now, n, unit)
        if unit == "day":
            return day_span(point.date(), tz)
        if unit == "week":
            return week_span(point.date(), tz)
        return month_span(point.year, point.month, tz) if unit == "month" else year_span(point.year, tz)

    def rolling(m: re.Match[str]) -> None:
        n, unit = number_value(m["n"]), m["unit"].lower()
        if unit == "fortnight":
            n, unit = 2 * n, "week"
        if 0 < n <= 10000:
            add(m, shift(now, n, unit), now, "rolling")

    def last_one(m: re.Match[str]) -> None:
        add(m, shift(now, 1, m["unit"].lower()), now, "rolling")

    def recent(m: re.Match[str]) -> None:
        days = {"days": 7, "months": 90}.get((m["unit"] or "").lower(), 30)
        add(m, now - timedelta(days=days), now, "recent")

    def ordinal_day(m: re.Match[str]) -> None:
        day, month = int(m["d"]), datetime(today.year, today.month, 1, tzinfo=tz)
        for _ in range(3):  # this month's, else the last month that has that day
            with contextlib.suppress(ValueError):
                lo, hi = day_span(date(month.year, month.month, day), tz)
                if lo <= now:
                    add(m, lo, hi, "day", needs_pre=True, month=month.month, day=day)
                    return
            month = shift_months(month, 1)

    def weekday_of_week(m: re.Match[str]) -> None:
        back = 0 if m["which"].lower() == "this" else 1
        monday = today - timedelta(days=today.weekday() + 7 * back)
        add(m, *day_span(monday + timedelta(days=WEEKDAY_NUMBERS[m["wd"][:3].lower()]), tz), "day")

    def the_other(m: re.Match[str]) -> None:
        if _ONE_OF_TWO.search(query, 0, m.start()):
            return
        start = day_span(today, tz)[0]
        if m["unit"].lower() != "week":
            add(m, start - timedelta(days=14), start, "recent")
        else:
            add(m, start - timedelta(days=28), start - timedelta(days=7), "recent")

    def dotted(m: re.Match[str]) -> None:
        year, month, day = int(m["y"]), int(m["mo"]), int(m["d"])
        if _valid_year(year) and not _VERSION_BEFORE.search(query, max(0, m.start() - 12), m.start()):
            add(m, *day_span(date(year, month, day), tz), "day", month=month, day=day)

    def half(m: re.Match[str]) -> None:
        year = int(m["y"] or m["y2"])
        if _valid_year(year):
            add(m, *months_span(year, 1 if (m["h"] or m["h2"]) == "1" else 7, 6, tz), "period")

    table: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], None]], ...] = (
        (_Q_NUMERIC, numeric),
        (_Q_TEXT_YEAR, text_year),
        (_Q_TEXT_NOYEAR, text_noyear),
        (_Q_DAY_MONTH, day_month),
        (_Q_NAMED_DAY, named_day),
        (_Q_MOVABLE, movable),
        (_Q_SEASON, season),
        (_Q_PART, part),
        (_Q_QUARTER, quarter),
        (_Q_SO_FAR, so_far),
        (_Q_MONTH_YEAR, month_year),
        (_Q_BARE_MONTH, bare_month),
        (_Q_BARE_YEAR, bare_year),
        (_Q_BARE_WEEKDAY, bare_weekday),
        (_Q_DAYWORD, dayword),
        (_Q_THE_WEEKEND, the_weekend),
        (_Q_THIS_TIME, this_time),
        (_Q_WEEKDAYS_AGO, weekdays_ago),
        (_Q_MONTH_RUN, month_run),
        (_Q_CALENDAR, calendar),
        (_Q_BEFORE_LAST, before_last),
        (_Q_AGO, ago),
        (_Q_DAY_RANGE, day_range),
        (_Q_ROLLING, rolling),
        (_Q_LAST_ONE, last_one),
        (_Q_RECENT, recent),
        (_Q_THE_OTHER, the_other),
        (_Q_WEEKDAY_OF_WEEK, weekday_of_week),
        (_Q_ORDINAL_DAY, ordinal_day),
        (_Q_DOTTED, dotted),
        (_Q_HALF, half),
    )
    for regex, handler in table:
        for m in regex.finditer(query):
            attempt(handler, m)
    for e in local_expressions(query, now, tz):  # 2025年3月1日, 26 марта, 昨天, letzte Woche
        found.append(
            Candidate(e.start, e.end, e.lo, e.hi, e.kind, False, e.month, e.day, e.has_year, "", e.resolve)
        )
    return found
