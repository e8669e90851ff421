"""Dates in local notation: Chinese and Japanese (2025年3月1日, 2025年三月一日, 3月26日, 3月, 令和7年), Korean
(2025년 3월 1일), German (1. März 2025), Spanish (26 de marzo de 2025), Russian (26 марта 2025),
and the relative words most written in them (昨天, 先週, 지난주, letzte Woche, ayer, вчера).

Read by both readers of dates: :mod:`memsearch.dates.text` takes :data:`LOCAL_DATE_RE` and
:data:`LOCAL_MONTH_YEAR_RE` for dates written in the vault (a journal heading ``## 2025年3月1日``),
and :mod:`memsearch.dates.candidates` takes :func:`local_expressions` for the dates a query names.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta, tzinfo
from typing import cast

from memsearch.dates.spans import Span, day_span, month_span, shift_months, week_span, year_span
from memsearch.dates.yearly import latest_not_after, month_day_resolver, month_resolver

#: Month names as dates spell them: German, Spanish, Russian (genitive, as after a day, and
#: nominative, as before a year). A German day is followed by a dot, a Spanish one by "de", so
#: that "3 mai" or "2 marzo" in English prose are no dates; a Russian one by a space.
_MONTHS = {
    "german": "januar|jänner februar märz|maerz april mai juni juli august september oktober november"
    " dezember",
    "spanish": "enero febrero marzo abril mayo junio julio agosto septiembre|setiembre octubre noviembre"
    " diciembre",
    "russian": "января|январь февраля|февраль марта|март апреля|апрель мая|май июня|июнь июля|июль"
    " августа|август сентября|сентябрь октября|октябрь ноября|ноябрь декабря|декабрь",
}
_MONTH_NAMES: dict[str, int] = {}
for _language, _spelled in _MONTHS.items():
    for _number, _names in enumerate(_spelled.split(), start=1):
        for _name in _names.split("|"):
            _MONTH_NAMES[_name] = _number


def _names_of(language: str) -> str:
    names = [name for group in _MONTHS[language].split() for name in group.split("|")]
    return "(?:" + "|".join(sorted(names, key=len, reverse=True)) + r")(?!\w)"


_GERMAN_MONTH, _SPANISH_MONTH, _RUSSIAN_MONTH = (_names_of(lang) for lang in ("german", "spanish", "russian"))
_LOCAL_MONTH = f"(?:{_GERMAN_MONTH}|{_SPANISH_MONTH}|{_RUSSIAN_MONTH})"

#: Japanese eras with their first year: 令和7年 is 2025.
_ERAS = {"令和": 2018, "平成": 1988, "昭和": 1925}
#: Chinese numerals, as Chinese and Japanese dates also write them: a year digit by digit
#: (二〇二五年), a month or day in tens (十二月, 二十六日).
_HAN_DIGITS = {
    "〇": 0,
    "零": 0,
    "一": 1,
    "二": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
_HAN_YEAR = "[〇零一二三四五六七八九]{4}"
_HAN_MONTH = "十[一二]?|[一二三四五六七八九]"
_HAN_DAY = "[二三]?十[一二三四五六七八九]?|[一二三四五六七八九]"
_CJK_YEAR = rf"(?:(?P<era>令和|平成|昭和)(?P<ey>\d{{1,2}}|元|{_HAN_DAY})|(?P<y>\d{{4}}|{_HAN_YEAR}))\s*[年년]"
_CJK_MONTH = rf"(?P<mo>\d{{1,2}}|{_HAN_MONTH})\s*[月월]"
_CJK_DAY = rf"(?P<d>\d{{1,2}}|{_HAN_DAY})\s*(?:[日号號일])"
#: Where a month written in figures cannot begin: inside a longer number (十二月 is not 二月).
_NOT_IN_NUMBER = "(?<![\\d〇零一二三四五六七八九十])"
# 1. März, 26 de marzo, 26 марта
_EUROPEAN_DAY_MONTH = (
    rf"(?P<ed>\d{{1,2}})(?:\.\s*(?P<em1>{_GERMAN_MONTH})|\s+de\s+(?P<em2>{_SPANISH_MONTH})"
    rf"|\s+(?P<em3>{_RUSSIAN_MONTH}))"
)
_EUROPEAN_YEAR = r"(?:,?\s+(?:de\s+|del\s+)?(?P<eyr>\d{4})(?:\s*(?:г\.|года|г)(?!\w))?)"

#: A whole date with its year, in any of these notations.
LOCAL_DATE_RE = re.compile(
    rf"(?:{_CJK_YEAR}\s*{_CJK_MONTH}\s*{_CJK_DAY}|{_EUROPEAN_DAY_MONTH}{_EUROPEAN_YEAR})", re.IGNORECASE
)
#: A month with its year: 2025年3月, 2025년 3월, März 2025, marzo de 2025, март 2025.
LOCAL_MONTH_YEAR_RE = re.compile(
    rf"(?:{_CJK_YEAR}\s*{_CJK_MONTH}(?!\s*(?:\d|(?:{_HAN_DAY})\s*[日号號]))"
    rf"|(?<!\w)(?P<em>{_LOCAL_MONTH})\s+(?:de\s+|del\s+)?(?P<eyr>\d{{4}}))",
    re.IGNORECASE,
)
#: A day and month without a year: 3月26日, 3월 26일, 26. März, 26 de marzo, 26 марта.
_LOCAL_DAY_RE = re.compile(
    rf"(?:{_NOT_IN_NUMBER}{_CJK_MONTH}\s*{_CJK_DAY}|(?<![\w.]){_EUROPEAN_DAY_MONTH})", re.IGNORECASE
)
#: A month alone in CJK notation (3月, 三月, 3월): a month of every year, as "in March" is. It is
#: seldom another word, so it needs no preposition (a name can hold one: 五月天, the band, reads as
#: May, as English "May" could); a count of months writes a counter between (3个月, 3ヶ月, 3개월).
#: Chinese 月份 is "the month of" (10月份的数据).
_LOCAL_BARE_MONTH_RE = re.compile(rf"{_NOT_IN_NUMBER}{_CJK_MONTH}份?")
#: A year alone in CJK notation (2024年, 令和6年): only a year, never a count of something.
_LOCAL_YEAR_RE = re.compile(rf"(?<!\d){_CJK_YEAR}(?!\s*(?:\d{{1,2}}|{_HAN_MONTH})\s*[月월])")


def _figure(text: str) -> int:
    """A number written in digits or in Chinese numerals (二〇二五, 十二, 二十六)."""
    if not all(ch in _HAN_DIGITS or ch == "十" for ch in text):
        return int(text)
    if "十" in text:
        tens, _, ones = text.partition("十")
        return (_HAN_DIGITS[tens] if tens else 1) * 10 + (_HAN_DIGITS[ones] if ones else 0)
    return int("".join(str(_HAN_DIGITS[ch]) for ch in text))


def _year(m: re.Match[str]) -> int:
    if m["era"]:
        return _ERAS[m["era"]] + (1 if m["ey"] == "元" else _figure(m["ey"]))
    return _figure(m["y"]) if m["y"] else int(m["eyr"])


def _month(m: re.Match[str]) -> int:
    if m["mo"]:
        return _figure(m["mo"])
    groups = m.groupdict()
    name = next(groups[g] for g in ("em", "em1", "em2", "em3") if groups.get(g))
    return _MONTH_NAMES[name.lower()]


def _day(m: re.Match[str]) -> int:
    return _figure(m["d"]) if m["d"] else int(m["ed"])


def local_date(m: re.Match[str]) -> tuple[int, int, int]:
    """(year, month, day) of a match of :data:`LOCAL_DATE_RE`."""
    return _year(m), _month(m), _day(m)


def local_month_year(m: re.Match[str]) -> tuple[int, int]:
    """(year, month) of a match of :data:`LOCAL_MONTH_YEAR_RE`."""
    return _year(m), _month(m)


# Relative words: (pattern, what it names). Days back from today; weeks, months, years back from
# this one (0 is the current one).
_RELATIVE_DAYS: tuple[tuple[str, int], ...] = (
    (r"前天|一昨日|おととい|그저께|그제|vorgestern|anteayer|позавчера", 2),
    (r"昨天|昨日|きのう|어제|gestern|ayer|вчера", 1),
    (r"今天|今日|きょう|오늘|heute|hoy|сегодня", 0),
)
_RELATIVE_UNITS: tuple[tuple[str, str, int], ...] = (
    (
        r"上周|上个?星期|上个?礼拜|先週|지난\s*주|letzte[nr]?\s+Woche|la\s+semana\s+pasada|на\s+прошлой\s+неделе",
        "week",
        1,
    ),
    (
        r"本周|这周|這週|这个?星期|今週|이번\s*주|diese[rn]?\s+Woche|esta\s+semana|на\s+этой\s+неделе",
        "week",
        0,
    ),
    (r"上个?月|上個月|先月|지난\s*달|letzte[nr]?\s+Monat|el\s+mes\s+pasado|в\s+прошлом\s+месяце", "month", 1),
    (r"本月|这个?月|這個月|今月|이번\s*달|diese[nr]?\s+Monat|este\s+mes|в\s+этом\s+месяце", "month", 0),
    (r"去年|昨年|작년|지난\s*해|letzte[ns]?\s+Jahr|el\s+año\s+pasado|в\s+прошлом\s+году", "year", 1),
    (r"今年|올해|dieses\s+Jahr|este\s+año|в\s+этом\s+году", "year", 0),
)


def _edged(pattern: str) -> str:
    """Latin and Cyrillic words need word edges ("heute", not "heutelang"); CJK and Korean words
    stand inside unspaced text or before a particle (我昨天, 지난주에)."""
    words = pattern.split("|")
    return "|".join(w if ord(w[0]) >= 0x1100 else rf"(?<![^\W\d_]){w}(?![^\W\d_])" for w in words)


_RELATIVE_RE = re.compile(
    "|".join(
        f"(?P<r{i}>{_edged(pattern)})"
        # mypy joins the two tables' rows into tuple[str | int, ...]; each still begins with its pattern
        for i, (pattern, *_rest) in enumerate(
            cast("tuple[tuple[str, int] | tuple[str, str, int], ...]", (*_RELATIVE_DAYS, *_RELATIVE_UNITS))
        )
    ),
    re.IGNORECASE,
)


@dataclass(frozen=True)
class LocalExpression:
    """A date a query names in local notation (what :class:`~memsearch.dates.candidates.Candidate`
    is made of)."""

    start: int
    end: int
    lo: datetime
    hi: datetime
    kind: str  # day | month | year | relative
    month: int = 0
    day: int = 0
    has_year: bool = True
    resolve: Callable[[int], Span | None] | None = None


def local_expressions(query: str, now: datetime, tz: tzinfo) -> list[LocalExpression]:
    """Every date in local notation the query names, each as the span it covers."""
    today = now.date()
    found: list[LocalExpression] = []
    for m in LOCAL_DATE_RE.finditer(query):
        try:
            year, month, day = local_date(m)
            found.append(
                LocalExpression(m.start(), m.end(), *day_span(date(year, month, day), tz), "day", month, day)
            )
        except (ValueError, KeyError, OverflowError):
            continue
    for m in LOCAL_MONTH_YEAR_RE.finditer(query):
        try:
            year, month = local_month_year(m)
            found.append(LocalExpression(m.start(), m.end(), *month_span(year, month, tz), "month", month))
        except (ValueError, KeyError, OverflowError):
            continue
    for m in _LOCAL_DAY_RE.finditer(query):
        try:
            month, day = _month(m), _day(m)
            date(2000, month, day)  # a leap year: raises only for a day no year has
        except (ValueError, KeyError):
            continue
        resolve = month_day_resolver(month, day, tz)
        span = latest_not_after(resolve, now)
        if span is not None:
            found.append(LocalExpression(m.start(), m.end(), *span, "day", month, day, False, resolve))
    for m in _LOCAL_BARE_MONTH_RE.finditer(query):
        month = _month(m)
        if 1 <= month <= 12:
            resolve = month_resolver(month, tz)
            span = latest_not_after(resolve, now)
            if span is not None:
                found.append(LocalExpression(m.start(), m.end(), *span, "month", month, 0, False, resolve))
    for m in _LOCAL_YEAR_RE.finditer(query):
        year = _year(m)
        if 1900 <= year <= 2100:
            found.append(LocalExpression(m.start(), m.end(), *year_span(year, tz), "year"))
    for m in _RELATIVE_RE.finditer(query):
        found.append(_relative(m, today, tz))
    return found


def _relative(m: re.Match[str], today: date, tz: tzinfo) -> LocalExpression:
    index = next(int(name[1:]) for name, value in m.groupdict().items() if value is not None)
    if index < len(_RELATIVE_DAYS):
        back = _RELATIVE_DAYS[index][1]
        return LocalExpression(m.start(), m.end(), *day_span(today - timedelta(days=back), tz), "relative")
    _, unit, back = _RELATIVE_UNITS[index - len(_RELATIVE_DAYS)]
    if unit == "week":
        span = week_span(today - timedelta(weeks=back), tz)
    elif unit == "month":
        point = shift_months(datetime(today.year, today.month, 1, tzinfo=tz), back)
        span = month_span(point.year, point.month, tz)
    else:
        span = year_span(today.year - back, tz)
    return LocalExpression(m.start(), m.end(), *span, "relative")


def ends_in_cjk_date(text: str, end: int) -> bool:
    """Whether the date that ends at ``end`` ends in a CJK unit (日, 일, 月): unspaced text may
    follow it at once (``2025年3月1日今天``) where a Latin date needs a word edge."""
    return end > 0 and text[end - 1] in "日号號일月월年년"
