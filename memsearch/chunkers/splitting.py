"""Over-long chunks: split at the best breaks, into pieces as even as reasonable.

A chunk is a line range, so every break falls between two lines (never mid-word) and never
inside a fenced code block. Breaks are ranked: before a heading > at a blank line > after a
sentence end > before a list item > any line end. A small dynamic programme picks the fewest
pieces that fit, then the best-ranked breaks, then the most even sizes. What cannot be split
(one huge line, one huge code block) stays whole and over-long.
"""

from __future__ import annotations

import re

import numpy as np

from memsearch.chunkers.document import Doc

_SENTENCE_END_RE = re.compile(r"[.!?…][\"'”’)\]*_]*$")
_LIST_ITEM_RE = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s")

#: Cost of one more piece: fewer pieces come first.
_PIECE_COST = 10.0
#: Cost of a break by kind (heading, blank, sentence, list item, line end).
_BREAK_COST = (0.0, 1.0, 3.0, 4.0, 6.0)
#: Weight of a piece's squared distance (in units of the limit) from the even size.
_EVEN_COST = 8.0
#: A piece over the limit, only when nothing smaller is possible: a fixed price plus per character.
_OVERFLOW_COST, _OVERFLOW_PER_CHAR = 1000.0, 50.0
#: How many earlier breaks one piece may reach back over (bounds the work on files of tiny lines).
_MAX_LOOKBACK = 2000


def break_cost(doc: Doc, i: int) -> float:
    """Cost of breaking before line ``i``."""
    if doc.level[i]:
        return _BREAK_COST[0]
    if doc.blank[i] or doc.blank[i - 1]:
        return _BREAK_COST[1]
    if _SENTENCE_END_RE.search(doc.lines[i - 1].rstrip()):
        return _BREAK_COST[2]
    if _LIST_ITEM_RE.match(doc.lines[i]):
        return _BREAK_COST[3]
    return _BREAK_COST[4]


def text_length(doc: Doc, start: int, end: int) -> int:
    return sum(len(doc.lines[i]) for i in range(start, end + 1)) + (end - start)


def split_range(doc: Doc, start: int, end: int, max_chars: int) -> list[tuple[int, int]]:
    """Lines ``start..end`` (trimmed, 0-based, inclusive) in pieces of at most ``max_chars`` if possible."""
    total = text_length(doc, start, end)
    if max_chars <= 0 or total <= max_chars:
        return [(start, end)]
    # a piece never starts on a blank line, so a run of blank lines offers one break, after it
    cuts = [i for i in range(start + 1, end + 1) if not doc.blank[i] and doc.can_cut(i)]
    if not cuts:
        return [(start, end)]
    nodes = np.array([start, *cuts, end + 1])
    # offset[k]: characters (line ends included) before node k; a piece from node k to node j,
    # without its last line end, has offset[j] - offset[k] - 1 characters
    line_sizes = np.fromiter((len(doc.lines[i]) + 1 for i in range(start, end + 1)), dtype=np.int64)
    offset = np.concatenate(([0], np.cumsum(line_sizes)))[nodes - start]
    target = total / -(-total // max_chars)
    best = np.full(len(nodes), np.inf)
    best[0] = 0.0
    back = np.zeros(len(nodes), dtype=np.int64)
    for j in range(1, len(nodes)):
        extra = 0.0 if j == len(nodes) - 1 else break_cost(doc, int(nodes[j]))
        # earliest node a piece ending at j may start from and still fit
        lo = max(int(np.searchsorted(offset, offset[j] - 1 - max_chars, side="left")), j - _MAX_LOOKBACK)
        if lo >= j:  # nothing fits: the one piece from the nearest break, priced by its overflow
            size = int(offset[j] - offset[j - 1] - 1)
            overflow = _OVERFLOW_COST + _OVERFLOW_PER_CHAR * max(0, size - max_chars)
            best[j] = best[j - 1] + _PIECE_COST + extra + overflow
            back[j] = j - 1
            continue
        sizes = offset[j] - offset[lo:j] - 1
        costs = best[lo:j] + _PIECE_COST + extra + _EVEN_COST * ((sizes - target) / max_chars) ** 2
        k = j - 1 - int(np.argmin(costs[::-1]))  # ties go to the shorter piece
        best[j], back[j] = costs[k - lo], k
    bounds = []
    j = len(nodes) - 1
    while j > 0:
        bounds.append((int(nodes[back[j]]), int(nodes[j]) - 1))
        j = int(back[j])
    pieces = []
    for a, b in reversed(bounds):
        while a <= b and doc.blank[a]:
            a += 1
        while b >= a and doc.blank[b]:
            b -= 1
        if a <= b:
            pieces.append((a, b))
    return pieces
