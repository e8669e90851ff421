"""Dates in the vault and in queries (standard library only).

* :func:`parse_datetime` -- a whole string that is a date or date-time, in any common form.
* :func:`find_leading_datetime` -- a date at the start of a (markdown) line.
* :func:`date_from_filename` -- a date encoded in a file name or path.
* :func:`held_in_utc` / :func:`utc_from_timestamp` -- a date UTC can hold; a timestamp back to one.
* :func:`query_time_window` / :func:`strip_time_phrase` -- the time window a query talks about.
* :func:`yearly_occurrences` -- a yearless day or month in each year of a range.

Every returned datetime is timezone-aware; a source without a zone is read as UTC.
None of these functions raises on bad input: they answer ``None`` instead.

The modules, from the ground up: :mod:`~memsearch.dates.vocabulary` (month and weekday names),
:mod:`~memsearch.dates.text` and :mod:`~memsearch.dates.filenames` (dates written in the vault),
:mod:`~memsearch.dates.spans` (calendar arithmetic), :mod:`~memsearch.dates.yearly` (days and
periods named without a year), :mod:`~memsearch.dates.candidates` (the expressions a query holds)
and :mod:`~memsearch.dates.windows` (the window they make). This module only re-exports.
"""

from __future__ import annotations

from memsearch.dates.filenames import date_from_filename
from memsearch.dates.spans import Span, utc_from_timestamp
from memsearch.dates.text import find_leading_datetime, held_in_utc, parse_datetime
from memsearch.dates.windows import (
    MAX_DATETIME,
    MIN_DATETIME,
    TimeWindow,
    query_time_window,
    strip_time_phrase,
)
from memsearch.dates.yearly import yearly_occurrences

__all__ = [
    "MAX_DATETIME",
    "MIN_DATETIME",
    "Span",
    "TimeWindow",
    "date_from_filename",
    "find_leading_datetime",
    "held_in_utc",
    "parse_datetime",
    "query_time_window",
    "strip_time_phrase",
    "utc_from_timestamp",
    "yearly_occurrences",
]
