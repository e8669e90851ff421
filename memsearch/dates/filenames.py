"""Dates encoded in a file's name or path (:func:`date_from_filename`).

``2023-05-08-notes.md``, ``20230508.md``, ``journal/2023/05/08.md``, a Zettelkasten note's
timestamp id (``202311141230 Spaced repetition.md``) and months such as ``archive/2024-03.md``;
only years 1900-2100 count, so a number that merely looks like a date in a name is not taken for
one.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

_FN_FULL_RE = re.compile(r"(?<!\d)(\d{4})[-_.](\d{2})[-_.](\d{2})(?!\d)")
_FN_COMPACT_RE = re.compile(r"(?<!\d)(\d{4})(\d{2})(\d{2})(?!\d)")
#: A timestamp id (Zettelkasten, Zettlr, Obsidian's unique notes): ``YYYYMMDDHHmm`` or ``...ss``.
_FN_STAMP_RE = re.compile(r"(?<!\d)(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})?(?!\d)")
_FN_MONTH_RE = re.compile(r"(?<!\d)(\d{4})[-_.](\d{2})(?!\d|[-_.]\d)")
_FN_DIRS_DAY_RE = re.compile(r"(?:^|/)(\d{4})/(\d{1,2})/(\d{1,2})(?=[-_./]|$)")
_FN_DIRS_MONTH_RE = re.compile(r"(?:^|/)(\d{4})/(\d{1,2})(?=/|\.[a-z0-9]+$|$)", re.IGNORECASE)
#: Periodic notes (Obsidian's weekly ``gggg-[W]ww`` and quarterly ``YYYY-[Q]Q``): ``2025-W46``,
#: ``2025-Q4``.
_FN_WEEK_RE = re.compile(r"(?<![0-9A-Za-z])(\d{4})[-_.]?[Ww](\d{1,2})(?![0-9A-Za-z])")
_FN_QUARTER_RE = re.compile(r"(?<![0-9A-Za-z])(\d{4})[-_.]?[Qq]([1-4])(?![0-9A-Za-z])")


def _plausible(year: int, month: int, day: int) -> datetime | None:
    if not 1900 <= year <= 2100:
        return None
    try:
        return datetime(year, month, day, tzinfo=UTC)
    except ValueError:
        return None


def _stamp(name: str) -> datetime | None:
    """The moment a timestamp id names (``202311141230``: 14 November 2023, 12:30 UTC)."""
    for m in _FN_STAMP_RE.finditer(name):
        if (day := _plausible(int(m[1]), int(m[2]), int(m[3]))) is None:
            continue
        try:
            return day.replace(hour=int(m[4]), minute=int(m[5]), second=int(m[6] or 0))
        except ValueError:  # 2460: no time of day
            continue
    return None


def _week_or_quarter(name: str) -> datetime | None:
    """The Monday of an ISO week (``2025-W46``), or the first day of a quarter (``2025-Q4``)."""
    for m in _FN_WEEK_RE.finditer(name):
        if 1900 <= int(m[1]) <= 2100:
            try:
                return datetime.fromisocalendar(int(m[1]), int(m[2]), 1).replace(tzinfo=UTC)
            except ValueError:
                continue
    for m in _FN_QUARTER_RE.finditer(name):
        if found := _plausible(int(m[1]), 3 * int(m[2]) - 2, 1):
            return found
    return None


def date_from_filename(path: str) -> datetime | None:
    """The date a file's name or path encodes (midnight UTC), or None.

    ``journal/2023-05-08-session-01.md``, ``2023-05-08.md``, ``20230508-notes.md``,
    ``journal/2023/05/08.md``; a timestamp id gives its moment: ``202311141230 Leitner boxes.md``
    (12:30 UTC); weekly and quarterly notes give their first day: ``2025-W46.md``
    (Monday 10 November), ``2025-Q4.md``; months give the 1st: ``archive/2024-03.md``,
    ``2024/03/notes.md``. The file name wins over its folders; a full date wins over a week,
    a quarter or a month.
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
        if found := _stamp(name):
            return found
        for m in _FN_FULL_RE.finditer(norm):
            if found := _plausible(int(m[1]), int(m[2]), int(m[3])):
                return found
        if found := _week_or_quarter(name):
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
