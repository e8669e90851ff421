"""Which writing systems a text's letters are in (:func:`script_shares`, and the fast
:func:`non_latin_share`), by code point: no language detector, no network. ``memsearch doctor`` and
the index report use them to say when a vault is written largely outside the Latin script while its
embedder knows only English.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

#: Ranges of letters by script, inclusive (a letter outside them counts as "other").
_SCRIPTS: tuple[tuple[int, int, str], ...] = (
    (0x0041, 0x024F, "Latin"),
    (0x0370, 0x03FF, "Greek"),
    (0x0400, 0x052F, "Cyrillic"),
    (0x0590, 0x05FF, "Hebrew"),
    (0x0600, 0x06FF, "Arabic"),
    (0x0900, 0x0DFF, "Indic"),
    (0x0E00, 0x0E7F, "Thai"),
    (0x1100, 0x11FF, "Korean Hangul"),
    (0x1E00, 0x1EFF, "Latin"),
    (0x1F00, 0x1FFF, "Greek"),
    (0x3040, 0x30FF, "Japanese kana"),
    (0x3130, 0x318F, "Korean Hangul"),
    (0x3400, 0x4DBF, "Chinese characters"),
    (0x4E00, 0x9FFF, "Chinese characters"),
    (0xAC00, 0xD7AF, "Korean Hangul"),
    (0xF900, 0xFAFF, "Chinese characters"),
    (0xFF66, 0xFF9F, "Japanese kana"),
    (0x20000, 0x323AF, "Chinese characters"),
)


#: A text with this share of its letters in a script is written (partly) in it. A third, not the
#: most: one Chinese character says about what a short English word does, so a note in Chinese
#: that quotes an English sentence ("Wang Lei reviews every change") has more Latin letters.
WRITTEN_IN_SHARE = 1 / 3


def script_of(ch: str) -> str:
    code = ord(ch)
    for lo, hi, name in _SCRIPTS:
        if lo <= code <= hi:
            return name
    return "other"


#: Every ASCII character but the letters: what is left of an ASCII text without them is its letters.
_ASCII_NOT_LETTERS = {code: None for code in range(128) if not chr(code).isalpha()}


def script_counts(text: str) -> Counter[str]:
    """How many of ``text``'s letters each script holds."""
    if text.isascii():  # most passages: every letter in them is Latin, counted without a loop
        letters = len(text.translate(_ASCII_NOT_LETTERS))
        return Counter({"Latin": letters}) if letters else Counter()
    return Counter(script_of(ch) for ch in text if ch.isalpha())


def script_shares(texts: Iterable[str], max_chars: int = 2_000_000) -> dict[str, float]:
    """Each script's share of the letters of ``texts`` (read up to ``max_chars`` in all), largest
    first; {} when they hold no letter."""
    counts: Counter[str] = Counter()
    budget = max_chars
    for text in texts:
        piece = text[:budget]
        budget -= len(piece)
        counts.update(script_counts(piece))
        if budget <= 0:
            break
    total = sum(counts.values())
    return {name: n / total for name, n in counts.most_common()} if total else {}


def main_script(text: str, max_chars: int = 300) -> str | None:
    """The script most of ``text``'s letters are in (read up to ``max_chars``), None without letters."""
    shares = script_shares([text], max_chars)
    return next(iter(shares), None)


_LETTER = re.compile(r"[^\W\d_]")
_NON_LATIN_LETTER = re.compile(r"[^\W\d_A-Za-z\u00c0-\u024f\u1e00-\u1eff]")


def non_latin_share(texts: Iterable[str]) -> float:
    """The share of the letters of ``texts`` outside the Latin script (0.0 without letters): two
    regular-expression scans, fast enough to run over everything an index run chunked."""
    letters = other = 0
    for text in texts:
        letters += len(_LETTER.findall(text))
        other += len(_NON_LATIN_LETTER.findall(text))
    return other / letters if letters else 0.0
