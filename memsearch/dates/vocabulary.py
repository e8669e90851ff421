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
#: A count as a query writes it: "3", "two", "a couple of", "a few", "some".
NUMBER = (
    r"(?:\d{1,4}|(?:a\s+)?couple(?:\s+of)?|(?:a\s+)?few|several|some|an?|one|two|three|four|five|six|seven"
    r"|eight|nine|ten|eleven|twelve)"
)
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
    "some": 3,
}
#: Counts that say "a few of them", not how many: "a few days ago" is two to five days back.
VAGUE_COUNTS = frozenset({"few", "several", "some"})
PATTERN_FLAGS = re.IGNORECASE | re.VERBOSE


def month_number(name: str) -> int:
    return _MONTH_NUMBERS[name[:3].lower()]


def number_value(text: str) -> int:
    """The count a :data:`NUMBER` match says ("a couple of" is 2, "a few" 3)."""
    words = text.lower().split()
    if words[0].isdigit():
        return int(words[0])
    for word in words:
        if word in _NUMBER_WORDS and word not in ("a", "an"):
            return _NUMBER_WORDS[word]
    return 1
