"""The time window a query talks about (:func:`query_time_window`) and the query without the
phrase it came from (:func:`strip_time_phrase`).

From the expressions :mod:`memsearch.dates.candidates` finds, this keeps those the words before
them allow (a bare month only after "in", "since", ...), applies those words ("since", "before",
"last", "early"...), counts offsets from a date ("the Sunday before October 28"), joins ranges
("between X and Y", "from X to Y"), pins a yearless day to a year the query names, and chooses
the narrowest window.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

from memsearch.dates.candidates import Candidate, find_candidates
from memsearch.dates.spans import Span, months_span, shift, week_span, year_span
from memsearch.dates.vocabulary import NUMBER, WEEKDAY, WEEKDAY_NUMBERS, number_value
from memsearch.dates.yearly import MONTH_THIRDS, current, latest_ended, latest_not_after, third_resolver

#: Open ends of a window ("before 2020" starts at the beginning of time).
MIN_DATETIME = datetime.min.replace(tzinfo=UTC)
MAX_DATETIME = datetime.max.replace(tzinfo=UTC)
#: A window that runs up to now ("recently", "since May", "the past week") holds what was written
#: at now: its end, exclusive, is this far past it.
PAST_NOW = timedelta(seconds=1)


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
    up_to_now: bool = False  # it runs up to now, which it holds: ``end`` is now + PAST_NOW

    @property
    def width(self) -> timedelta:
        return self.end - self.start

    def dates(self) -> str:
        """The days it covers, as read: ``2025-03-04`` (a day), ``2025-03-17 to 2025-03-23``, or
        with times where it does not run midnight to midnight. "4/3/2025" says which reading won."""
        end = self.end - PAST_NOW if self.up_to_now else self.end  # shown as read: up to now
        last = end - timedelta(microseconds=1)
        whole_days = self.start.time() == end.time() == datetime.min.time()
        if whole_days:
            first, final = self.start.date().isoformat(), last.date().isoformat()
            return first if first == final else f"{first} to {final}"
        return f"{self.start:%Y-%m-%d %H:%M} to {end:%Y-%m-%d %H:%M}"


#: Where a phrase may begin: the query's start, or after a space, bracket, quote or punctuation.
_PHRASE_START = r"(?:^|(?<=[\s(\[\"',;:]))"
# Words that may stand right before an expression and change or confirm its meaning.
_PRE_RE = re.compile(
    _PHRASE_START + r"(?P<pre>in|on|during|around|over|since|before|after|from|until|till|through|throughout"
    r"|between|by|as\s+of|prior\s+to|last|this\s+past|this|earlier|early|late|mid|end\s+of|start\s+of"
    r"|beginning\s+of)"
    r"[\s-]+(?:the\s+)?$",
    re.IGNORECASE,
)
_BARE_MONTH_PRE = {
    "in",
    "during",
    "around",
    "over",
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
#: "around 2000 people", "over 2024 entries": a bare number after them is a count.
_BARE_YEAR_PRE = _BARE_MONTH_PRE - {"by", "last", "this", "around", "over"}
#: The first month of a third of a year, as "early/mid/late March" are thirds of a month.
_YEAR_THIRDS = {"early": 1, "start of": 1, "beginning of": 1, "mid": 5, "late": 9, "end of": 9}
#: Not "by": "what do I need to finish by Friday" is a deadline, not the days before last Friday.
_WEEKDAY_PRE = {"on", "last", "this", "since", "before", "after", "until", "from", "between"}
#: Words that say which part of a span the word after them names ("late last year", "early May"),
#: or which one ("last Friday"), and may follow a range word that applies to it ("since last
#: Friday", "since early May"): :data:`_RANGE_WORDS`.
_MODIFIERS = {"last", "this", "earlier", "early", "late", "mid", "end of", "start of", "beginning of"}
#: Not "by": "finish by this Friday" is a deadline.
_RANGE_WORDS = {"since", "as of", "after", "before", "prior to", "until", "till"}
#: Words before a modifier that change nothing but belong to the phrase ("around mid-May", "in
#: late May"): left in the query, "around" was a word the vault never uses.
_NEUTRAL_WORDS = {"in", "on", "during", "around", "over"}
#: The part of a calendar week each modifier names, in days from its Monday: early is Monday to
#: Wednesday, mid Tuesday to Thursday, late (the end) Friday to Sunday.
_WEEK_PARTS = {"early": (0, 3), "start of": (0, 3), "beginning of": (0, 3), "mid": (1, 4), "late": (4, 7)}
_WEEK_PARTS["end of"] = _WEEK_PARTS["late"]
#: "a week" or "a fortnight" right before "last <weekday>": counted back from that day; not a
#: length ("it took a week last Friday", "for a week").
_WEEKS_BEFORE = re.compile(
    r"(?<![\w'’])(?:(?P<n>a|one|two|three)\s+weeks?|a\s+(?P<unit>fortnight))\s+$", re.IGNORECASE
)
_LENGTH_WORDS = re.compile(
    r"\b(?:took|take|takes|taking|spent|spend|spends|lasted|lasts|for|over|about|nearly|almost)\s+$",
    re.IGNORECASE,
)
_UNIT_AT_END = re.compile(r"(?P<unit>week|month|year)\s*$", re.IGNORECASE)


def _part_of_unit(cand: Candidate, query: str, pre: str, now: datetime) -> Span | None:
    """The part of the calendar week, month or year a relative phrase names ("this week", "last
    year") that ``pre`` says: "earlier this week" is its start up to now, "late last year" its
    last third, "the end of last month" from its 21st, "early last week" Monday to Wednesday."""
    if cand.kind != "relative" or (pre not in _YEAR_THIRDS and pre != "earlier"):
        return None
    unit = _UNIT_AT_END.search(query, cand.start, cand.end)
    if unit is None:
        return None
    lo, hi = cand.lo, cand.hi
    if pre == "earlier":
        return (lo, min(hi, now)) if lo < now else None
    which, tz = unit["unit"].lower(), lo.tzinfo or UTC

    def part(lo: datetime) -> Span | None:
        if which == "year":
            return months_span(lo.year, _YEAR_THIRDS[pre], 4, tz)
        if which == "month":
            return third_resolver(lo.month, pre, tz)(lo.year)
        first, stop = _WEEK_PARTS[pre]
        return lo + timedelta(days=first), lo + timedelta(days=stop)

    span = part(lo)
    # "the end of the month", not "of this month": the last one that has begun ("what did I
    # finish at the end of the month", asked on the 18th, is last month's end)
    if span is not None and span[0] > now and query[cand.start : cand.start + 4].lower() == "the ":
        span = part(shift(lo, 1, which) if which != "week" else lo - timedelta(days=7))
    return span


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


#: A day or span counted from a date the query names, not from now: "the Sunday before October
#: 28, 2023", "the week before 16 November", "two weeks after May 3", "the day after Christmas
#: Day", and "last weekend before April 10" or "last Friday on 23 January" (asked as of that date).
_OFFSET_RE = re.compile(
    _PHRASE_START
    + rf"""(?:(?P<article>the|a|an)\s+|(?P<last>last|this\s+past)\s+)?
    (?:(?P<n>{NUMBER})\s+(?P<unit>day|night|week|fortnight|month|year)s?
    |(?P<what>day|night|week|weekend|fortnight|month|year)|(?P<weekday>{WEEKDAY}))\s+$""",
    re.IGNORECASE | re.VERBOSE,
)
#: The prepositions an offset counts from: "before"/"after" a date, or "on"/"as of" it after
#: "last" ("last Friday on 23 January": the Friday before that day).
_OFFSET_PRE = {"before", "prior to", "after", "on", "as of"}
_OFFSET_UNITS = {"night": ("day", 1), "fortnight": ("week", 2)}


#: "the week starting 14 October", "the week beginning Monday 3 March": the seven days from it;
#: "the week of 14 October": the calendar week that holds it.
_WEEK_FROM_RE = re.compile(
    _PHRASE_START + r"(?:(?:in|during|over|for)\s+)?(?:the\s+)?week\s+"
    r"(?P<how>starting|beginning|commencing|from|of)(?:\s+on)?\s+$",
    re.IGNORECASE,
)


def _week_span(m: re.Match[str], pre: str, cand: Candidate) -> Span:
    """The week a "the week starting/of <day>" phrase (:data:`_WEEK_FROM_RE`) names."""
    if m["how"].lower() == "of":
        return week_span(cand.lo.date(), cand.lo.tzinfo or UTC)
    return cand.lo, cand.lo + timedelta(days=7)


def _counted(
    query: str, cand: Candidate, offsets: dict[int, re.Match[str]]
) -> tuple[re.Match[str], Callable[[re.Match[str], str, Candidate], Span]] | None:
    """The phrase that counts a span from ``cand`` ("the week starting", "the Sunday before"), and
    how it counts; None if nothing before ``cand`` does."""
    if cand.kind == "day":
        m = _WEEK_FROM_RE.search(query, max(0, cand.start - 40), cand.start)
        if m is not None:
            return m, _week_span
    if id(cand) in offsets:
        return offsets[id(cand)], _offset_span
    return None


def _offset_span(m: re.Match[str], pre: str, cand: Candidate) -> Span:
    """The span an offset phrase (:data:`_OFFSET_RE`) names, counted from ``cand``: back from its
    start for "before" (and "last ... on"), forward from its end for "after"."""
    after = pre == "after"
    anchor = cand.hi if after else cand.lo
    day = timedelta(days=1)
    what = (m["what"] or "").lower()
    if what == "weekend":  # Saturday and Sunday, wholly before (after) the date
        if after:
            saturday = anchor + day * ((5 - anchor.weekday()) % 7)
        else:
            saturday = anchor - day * ((anchor.weekday() - 5) % 7)
            if saturday + 2 * day > anchor:
                saturday -= 7 * day
        return saturday, saturday + 2 * day
    if m["weekday"]:  # the nearest such weekday before (after) it
        weekday = WEEKDAY_NUMBERS[m["weekday"][:3].lower()]
        if after:
            first = anchor + day * ((weekday - anchor.weekday()) % 7)
        else:
            first = anchor - day * ((anchor.weekday() - weekday) % 7 or 7)
        return first, first + day
    n, unit = (number_value(m["n"]), m["unit"].lower()) if m["n"] else (1, what)
    unit, times = _OFFSET_UNITS.get(unit, (unit, 1))
    n *= times
    # "the two weeks before Christmas": the whole stretch; "two weeks before August 11": the n-th
    # unit only (the week from July 28)
    near = 0 if m["n"] and m["article"] and m["article"].lower() == "the" else n - times
    if after:
        return shift(anchor, -near, unit), shift(anchor, -n, unit)
    return shift(anchor, n, unit), shift(anchor, near, unit)


def _counted_resolver(
    m: re.Match[str], count: Callable[[re.Match[str], str, Candidate], Span], pre: str, cand: Candidate
) -> Callable[[int], Span | None] | None:
    """For a yearless anchor ("the Sunday before March 3"), the counted span in any year: a year
    the query names elsewhere pins it ("in 2023, the Sunday before March 3") as it pins a day."""
    if cand.has_year or cand.resolve is None:
        return None
    anchor_in = cand.resolve

    def resolve(year: int) -> Span | None:
        anchor = anchor_in(year)
        return count(m, pre, replace(cand, lo=anchor[0], hi=anchor[1])) if anchor else None

    return resolve


def _offsets(query: str, chosen: list[tuple[Candidate, str, int]]) -> dict[int, re.Match[str]]:
    """The offset phrase right before each chosen expression's preposition, by the expression's id."""
    found: dict[int, re.Match[str]] = {}
    for cand, pre, pre_start in chosen:
        if pre not in _OFFSET_PRE or cand.kind not in ("day", "month", "period"):
            continue
        m = _OFFSET_RE.search(query, max(0, pre_start - 40), pre_start)
        if m is not None and (pre not in ("on", "as of") or m["last"]):
            found[id(cand)] = m
    return found


#: "Lockie's last Wednesday session", "my last week at the clinic": after a possessive, "last"
#: (or "this") says which of someone's, not when: no window. "What's", "it's" are no possessives.
_OWNER_BEFORE_RE = re.compile(r"(?P<owner>[\w'’]+)\s+(?:very\s+)?(?:last|this)\s+$", re.IGNORECASE)
_OWNERS = frozenset({"my", "his", "her", "our", "their", "its", "your"})
_CONTRACTIONS = frozenset(
    {"it", "what", "that", "there", "here", "who", "where", "when", "how", "he", "she", "let", "this"}
)
_LEAD_RE = re.compile(r"(?:last|this)\s", re.IGNORECASE)
_PLACE_BEFORE_RE = re.compile(
    r"\b(?:at|to|from|near|in|by|round|around|over|outside|inside)\s+"
    r"(?:(?:my|his|her|our|their|your|the)\s+)?$",
    re.IGNORECASE,
)


def _owned(query: str, cand: Candidate, pre: str, pre_start: int) -> bool:
    """Whether a "last"/"this" expression is someone's ("Lockie's last Wednesday"), not a date."""
    if pre in ("last", "this"):
        end = pre_start + len(pre) + 1
    elif (lead := _LEAD_RE.match(query, cand.start)) is not None:
        end = lead.end()
    else:
        return False
    m = _OWNER_BEFORE_RE.search(query, max(0, end - 60), end)
    if m is None:
        return False
    owner = m["owner"].lower().replace("’", "'")
    if owner in _OWNERS:
        return True
    stem, apostrophe, ending = owner.rpartition("'")
    if not apostrophe or ending not in ("s", "") or stem in _CONTRACTIONS or not stem:
        return False
    # "at Pai's last week", "at my parents' last weekend": a place, and the date is the date
    return _PLACE_BEFORE_RE.search(query, max(0, m.start() - 40), m.start()) is None


def _preposition(query: str, start: int) -> tuple[str, int]:
    """The preposition right before ``start`` (normalised, lower case) and where it begins."""
    m = _PRE_RE.search(query, max(0, start - 30), start)
    if m is None:
        return "", start
    pre = " ".join(m["pre"].lower().split())
    return ("last" if pre == "this past" else pre), m.start()  # "this past Tuesday", "this past March"


def _anchor_at(
    query: str, pos: int, now: datetime, chosen: list[Candidate], weekday: bool = False
) -> Candidate | None:
    """The expression starting at ``pos`` (bare months and years allowed; a bare weekday only after
    a weekday, ``weekday``: "between Monday and Wednesday"): the second end of a range."""
    for cand in chosen:
        if cand.start == pos:
            return cand
    if (part := _MODIFIER_AT.match(query, pos)) is not None:  # "to early 2025", "and mid April"
        return _part_at(query, part, now, chosen)
    best = None
    for cand in find_candidates(query[: pos + 60], now):
        if cand.start != pos or (cand.kind == "weekday" and not weekday):
            continue
        if best is None or cand.end > best.end:
            best = cand
    return best


#: A modifier at the start of a range's second end ("to early 2025"): the words of a third.
_MODIFIER_AT = re.compile(
    "(?P<pre>" + "|".join(word.replace(" ", r"\s+") for word in _YEAR_THIRDS) + r")[\s-]+(?:the\s+)?",
    re.IGNORECASE,
)


def _third(
    cand: Candidate, pre: str, now: datetime
) -> tuple[Span, Callable[[int], Span | None] | None] | None:
    """The third of a year or month a modifier names ("late 2023", "early March"): its span, and
    for a month the resolver of that third in any year (the latest not after now, for a yearless
    one); None when ``pre`` names no third of ``cand``."""
    tz = cand.lo.tzinfo or UTC
    if cand.kind == "year" and pre in _YEAR_THIRDS:
        return months_span(cand.lo.year, _YEAR_THIRDS[pre], 4, tz), None
    if cand.kind == "month" and pre in MONTH_THIRDS:
        resolve = third_resolver(cand.month, pre, tz)
        span = resolve(cand.lo.year) if cand.has_year else latest_not_after(resolve, now)
        return span or (cand.lo, cand.hi), resolve
    return None


def _part_at(query: str, part: re.Match[str], now: datetime, chosen: list[Candidate]) -> Candidate | None:
    """The second end of a range written with a modifier ("to early 2025", "and mid April"): the
    part of the year or month it names, as the first end would be read (:func:`_third`)."""
    cand = _anchor_at(query, part.end(), now, chosen)
    third = _third(cand, " ".join(part["pre"].lower().split()), now) if cand is not None else None
    if cand is None or third is None:
        return None
    (lo, hi), resolve = third
    return replace(cand, start=part.start(), lo=lo, hi=hi, resolve=None if cand.has_year else resolve)


#: A year named right after a bare month: "March last year", "May of this year".
_YEAR_NAMED_AFTER = re.compile(r"\s+(?:of\s+)?(?:last|this|next)\s+year\b", re.IGNORECASE)
_NOW = re.compile(r"(?:now|today|the\s+present)\b", re.IGNORECASE)
_RANGE_JOIN = {
    "between": re.compile(r"\s+(?:and|&)\s+", re.IGNORECASE),
    "from": re.compile(r"\s*(?:-|–|—)\s*|\s+(?:to|until|till|through|thru)\s+", re.IGNORECASE),
}


def _align_years(first: Candidate, second: Candidate) -> tuple[Span, Span]:
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


#: "before last" after a yearless day, month or season: the occurrence before the last one.
_BEFORE_LAST_AFTER = re.compile(r"\s+before\s+last\b(?!\s+(?:week|month|year|time)\b)", re.IGNORECASE)


def _before_last(cand: Candidate, now: datetime) -> Span | None:
    """The occurrence of a yearless day (begun) or month or period (ended) before its last one."""
    assert cand.resolve is not None
    seen = 0
    for year in range(now.year + 1, now.year - 4, -1):
        span = cand.resolve(year)
        if span is not None and (span[1] <= now if cand.kind in ("month", "period") else span[0] <= now):
            seen += 1
            if seen == 2:
                return span
    return None


def _windows(query: str, now: datetime) -> list[TimeWindow]:
    found = find_candidates(query, now)
    # Bare months, years and weekdays only count after a preposition ("in May", not "May I").
    usable: list[tuple[Candidate, str, int]] = []
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
            # "March last year", "the summer before last" need no word before them: what follows
            # says they are dates
            if (
                pre not in allowed
                and not (cand.kind == "month" and _YEAR_NAMED_AFTER.match(query, cand.end))
                and not (cand.resolve is not None and _BEFORE_LAST_AFTER.match(query, cand.end))
            ):
                continue
            if cand.kind == "month" and cand.month == 5 and pre in ("this", "last", "by", "over", "around"):
                continue  # "this may help", "by may be", "handed over may be deleted"
            if cand.season == "fall" and pre in ("this", "by", "over", "around"):
                continue  # "does this fall under", "by fall through", "argued over fall colours"
        if _owned(query, cand, pre, pre_start):
            continue  # "Lockie's last Wednesday": whose, not when
        usable.append((cand, pre, pre_start))
    # Longest expressions first; drop anything overlapping an already chosen one.
    usable.sort(key=lambda item: (-(item[0].end - item[0].start), item[0].start))
    chosen: list[tuple[Candidate, str, int]] = []
    for item in usable:
        if all(item[0].end <= c.start or item[0].start >= c.end for c, _, _ in chosen):
            chosen.append(item)
    chosen.sort(key=lambda item: item[0].start)
    # "the cake she made recently in May 2022": a date the query names apart from the last weeks
    # says more than "recently" ("recently in 2024", said in January 2024, does not)
    recent = [c for c, _, _ in chosen if c.kind == "recent"]
    if any(c.kind != "recent" and (c.hi <= r.lo or c.lo >= r.hi) for c, _, _ in chosen for r in recent):
        chosen = [item for item in chosen if item[0].kind != "recent"]

    windows: list[TimeWindow] = []
    # each window's expression (for a year named elsewhere in the query) and its resolver if yearly
    found_at: list[tuple[Candidate, Callable[[int], Span | None] | None]] = []
    consumed: set[int] = set()
    tz = now.tzinfo or UTC
    offsets = _offsets(query, chosen)
    for cand, pre, pre_start in chosen:
        if id(cand) in consumed:
            continue
        if any(m.start() <= cand.start and cand.end <= m.end() for m in offsets.values()):
            continue  # "Sunday" in "the Sunday before October 28": counted from the date
        counted = _counted(query, cand, offsets)
        if counted is not None:
            m, count = counted
            resolve_counted = _counted_resolver(m, count, pre, cand)
            with contextlib.suppress(ValueError, OverflowError):
                # A yearless anchor: the latest counted span not after now ("the day before
                # Christmas Day" asked on 24 December is today, not a year ago)
                latest = latest_not_after(resolve_counted, now) if resolve_counted else None
                lo, hi = latest or count(m, pre, cand)
                if lo < hi:
                    text = query[m.start() : cand.end]
                    windows.append(TimeWindow(lo, hi, text, yearly=resolve_counted is not None))
                    found_at.append((cand, resolve_counted))
            continue
        before_last = (
            _BEFORE_LAST_AFTER.match(query, cand.end)
            if cand.resolve is not None and not cand.has_year
            else None
        )
        if before_last is not None:  # "the summer before last", "the Christmas before last"
            span = _before_last(cand, now)
            if span is not None:
                start = pre_start if pre else cand.start
                if query[max(0, start - 4) : start].lower() == "the ":
                    start -= 4
                windows.append(TimeWindow(span[0], span[1], query[start : before_last.end()], False))
                found_at.append((cand, None))
            continue
        lo, hi, start, end = cand.lo, cand.hi, cand.start, cand.end
        resolve = cand.resolve
        # "early/mid/late March" (of the year named or of every year), "the end of 2023": a third of it
        third_of = _third(cand, pre, now)
        third = third_of is not None
        if third_of is not None:
            (lo, hi), resolve = third_of[0], third_of[1] or resolve
        yearly = not cand.has_year and cand.kind in ("day", "month", "period") and pre not in _TIED_TO_NOW_PRE
        if cand.kind in ("month", "period") and not cand.has_year and resolve is not None:
            if pre == "last":
                lo, hi = latest_ended(resolve, now) or (lo, hi)
            elif pre == "this":
                lo, hi = current(resolve, now) or (lo, hi)
        if cand.kind == "weekday" and pre == "last" and cand.day == 0:
            lo, hi = lo - timedelta(days=7), hi - timedelta(days=7)
        # "a week last Friday", "a fortnight last Tuesday" (British): that many weeks before it
        weeks = _WEEKS_BEFORE.search(query, 0, pre_start) if cand.kind == "weekday" else None
        if pre == "last" and weeks is not None and not _LENGTH_WORDS.search(query, 0, weeks.start()):
            back = timedelta(days=14 if weeks["unit"] else 7 * number_value(weeks["n"]))
            lo, hi, pre_start = lo - back, hi - back, weeks.start()
        if cand.kind == "weekday" and pre == "this":  # that day of the current calendar week
            monday = week_span(now.astimezone(tz).date(), tz)[0]
            lo = monday + timedelta(days=(lo.weekday() - monday.weekday()) % 7)
            hi = lo + timedelta(days=1)
            if lo > now:  # "this Friday" asked on a Wednesday, "this Sunday roast": no memory yet
                continue
        if (part := _part_of_unit(cand, query, pre, now)) is not None:
            (lo, hi), third = part, True
        # A range word before the modifier applies to what it names: "since last Friday" runs
        # from that Friday to now, "since early May" from May 1 (of this year: tied to now).
        outer, outer_start = _preposition(query, pre_start) if pre in _MODIFIERS else ("", pre_start)
        how = outer if outer in _RANGE_WORDS else pre
        # "the day before last Friday", "two days after this Christmas": counted from the date the
        # modifier names, not every day before (after) it
        offset = _OFFSET_RE.search(query, max(0, outer_start - 40), outer_start) if how != pre else None
        if offset is not None and how in ("before", "prior to", "after"):
            lo, hi = _offset_span(offset, how, replace(cand, lo=lo, hi=hi))
            if lo < hi:
                windows.append(TimeWindow(lo, hi, query[offset.start() : end], False))
                found_at.append((cand, None))
            continue
        if how != pre:
            yearly, pre_start = False, outer_start
        elif outer in _NEUTRAL_WORDS:
            pre_start = outer_start
        if pre:
            start = pre_start
        # "from the start of the year to now": the range word before a modifier joins the range
        joiner = pre if pre in _RANGE_JOIN else outer if outer in _RANGE_JOIN else ""
        if joiner and joiner == outer:
            start = outer_start
        if joiner:
            join = _RANGE_JOIN[joiner].match(query, cand.end)
            weekday = cand.kind == "weekday"
            other = _anchor_at(query, join.end(), now, [c for c, _, _ in chosen], weekday) if join else None
            if join is not None and other is None and (to_now := _NOW.match(query, join.end())):
                hi, end, yearly = now, to_now.end(), False  # "from March to now": from it up to now
            elif other is not None and join is not None:
                # the second end, and what it was read from ("2025" in "to early 2025")
                consumed.update(id(c) for c, _, _ in chosen if join.end() <= c.start and c.end <= other.end)
                consumed.add(id(other))
                yearly = yearly and not other.has_year  # "from May to July 2023" is one year's
                (alo, ahi), (blo, bhi) = _align_years(replace(cand, lo=lo, hi=hi), other)
                if weekday and other.kind == "weekday" and blo < alo:  # the week before: both ends in it
                    alo, ahi = alo - timedelta(days=7), ahi - timedelta(days=7)
                lo, hi, end = min(alo, blo), max(ahi, bhi), other.end
            elif pre == "between":
                start = cand.start  # "between X" alone: just X
            # "notes from 2023" alone means 2023 itself, not "since 2023"
        elif how in ("since", "as of"):
            hi = now if lo < now else hi
        elif how == "after":
            lo, hi = hi, (now if hi < now else MAX_DATETIME)
        elif how in ("before", "prior to"):
            lo, hi = MIN_DATETIME, lo
        elif how in ("until", "till", "by"):
            lo = MIN_DATETIME
        elif pre in ("early", "late", "mid", "end of", "start of", "beginning of") and (
            not cand.needs_pre and not third
        ):
            start = cand.start  # "early" before a day ("early March 3") names no part of it
        if lo < hi:
            windows.append(TimeWindow(lo, hi, query[start:end], yearly))
            found_at.append((cand, resolve if yearly else None))
    return _pin_to_year(query, windows, found_at)


def _pin_to_year(
    query: str,
    windows: list[TimeWindow],
    found_at: list[tuple[Candidate, Callable[[int], Span | None] | None]],
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
        and (window.start, window.end) == year_span(window.start.year, window.start.tzinfo)
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
            if re.fullmatch(r"[\s,;]*(?:(?:in|on|during|of)\s+)?", query[a + len(a_text) : b], re.IGNORECASE):
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
    (``in spring 2025``, ``last summer``: meteorological, northern hemisphere, see ``yearly.SEASONS``),
    parts of a month or year (``the first week of May``, ``the second half of August``,
    ``early/mid/late March``, ``the third quarter of 2024``, ``Q1 2024``), ``so far this month``
    (up to now), ``this/last quarter`` and ``a fortnight ago``. A day or span counted from a date
    the query names is counted from that date (``the Sunday before October 28, 2023``, ``the week
    before 16 November``, ``two weeks after May 3``, ``last Friday on 23 January``), and so are
    a run of days (``between 9 and 17 October``, ``1-15 March``), a week from a day (``the week
    starting 14 October``; ``the week of`` it is its calendar week), a weekend or the first or last
    weeks of a month (``the first weekend of August``, ``the last two weeks of August``) and
    ``a year ago today``. After a possessive, ``last`` is no date (``Lockie's last Wednesday
    session``). A year the query names beside a yearless day pins it (``in 2024, on March 26``).
    A yearless day, month or period is ``yearly``: its window is the most recent occurrence not
    after ``now``, and it stands for that day or month in every year (unless ``since``, ``last``,
    ... tie it to now). When the query holds several phrases the narrowest window wins. Naive
    ``now`` is taken as UTC.
    """
    try:
        if not isinstance(query, str) or not isinstance(now, datetime):
            return None
        if now.tzinfo is None:
            now = now.replace(tzinfo=UTC)
        windows = _windows(query[:2000], now)
        if not windows:
            return None
        window = min(windows, key=lambda w: w.width)
        return replace(window, end=now + PAST_NOW, up_to_now=True) if window.end == now else window
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
