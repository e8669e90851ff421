"""The calendar's words as the date patterns spell them: month and weekday names, ordinal suffixes.

Shared by the two readers of dates, :mod:`memsearch.dates.text` (dates written in the vault) and
:mod:`memsearch.dates.candidates` (dates a query names), so both accept the same spellings
("Sept.", "Tues", "8th") and read them to the same numbers.
"""

from __future__ import annotations

import re

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
MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)(?![a-z])"
)
MONTH_FULL = (
    r"(?:january|february|march|april|may|june|july|august|september|october|november|december)(?![a-z])"
)
WEEKDAY = (
    r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday"
    r"|mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)(?![a-z])\.?"
)
WEEKDAY_NUMBERS = {"mon": 0, "tue": 1, "wed": 2, "thu": 3, "fri": 4, "sat": 5, "sun": 6}
ORD = r"(?:st|nd|rd|th)?"
PATTERN_FLAGS = re.IGNORECASE | re.VERBOSE


def month_number(name: str) -> int:
    return _MONTH_NUMBERS[name[:3].lower()]
