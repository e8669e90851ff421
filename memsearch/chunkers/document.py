"""The parsed shape of one file that every chunking strategy reads.

Line numbers here are 0-based indexes into ``Doc.lines``; chunks turn them 1-based at the end.
A *segment* is a candidate chunk: a contiguous line range plus the timestamp its strategy found.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property

from memsearch import dates
from memsearch.fences import NOT_FENCED, fence_ids

_HEADING_RE = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
# A setext heading's underline: "===" makes the line above a level-1 heading, "---" a level-2 one.
_SETEXT_RE = re.compile(r"^ {0,3}(=+|-{2,})[ \t]*$")
# A thematic break ("---", "* * *", "___"): it separates; alone, it says nothing.
_BREAK_RE = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
# Lines that are no paragraph, so no setext heading: list items, quotes, table rows, HTML.
_NOT_PARAGRAPH_RE = re.compile(r"^ {0,3}(?:[-*+][ \t]|\d{1,9}[.)][ \t]|>|\||<)")
# Markdown decoration before a leading date, only to show the date as written.
_DECORATION_RE = re.compile(
    r"^(?:\s+|#{1,6}|>|[-*+](?=\s)|\d{1,3}[.)](?=\s)|\[[ xX]\](?=\s)|[\[(`]|\*\*|__|\*|_)*"
)


def split_lines(text: str) -> list[str]:
    """A file's lines as ``grep -n``, ``sed -n`` and ``wc -l`` count them: a line feed ends a line
    (CRLF too). A carriage return alone ends one only in a file with no line feed (as old Macs
    wrote); in any other it is a character of its line (a progress bar pasted from a terminal)."""
    if "\n" in text:
        return text.replace("\r\n", "\n").split("\n")
    return text.replace("\r", "\n").split("\n")


def is_blank(line: str) -> bool:
    return not line.strip()


@dataclass
class Segment:
    """A candidate chunk: lines ``start..end`` (0-based, inclusive) and what its strategy dated it."""

    start: int
    end: int
    timestamp: datetime | None = None
    source: str = "none"
    date_text: str = ""


@dataclass(frozen=True)
class Heading:
    line: int
    level: int
    text: str


class Doc:
    """One file's lines with fences, headings and leading dates worked out once."""

    def __init__(self, lines: list[str], body_start: int) -> None:
        self.lines = lines
        self.n = len(lines)
        self.body_start = body_start
        self.fence = fence_ids(lines, body_start)
        self.blank = [is_blank(line) for line in lines]
        self.level = [0] * self.n
        self.heading_text = [""] * self.n
        self.underline = [False] * self.n  # a setext heading's "===" or "---" line
        for i in range(body_start, self.n):
            line = lines[i].lstrip("\ufeff") if i == 0 else lines[i]  # a byte-order mark is no content
            if self.fence[i] == NOT_FENCED and line.lstrip(" ").startswith("#"):
                m = _HEADING_RE.match(line)
                if m:
                    self.level[i] = len(m.group(1))
                    self.heading_text[i] = (m.group(2) or "").strip()
        for i in range(body_start + 1, self.n):
            m = _SETEXT_RE.match(lines[i]) if lines[i][:4].strip()[:1] in ("=", "-") else None
            if m and self.fence[i] == NOT_FENCED and self._one_line_paragraph(i - 1):
                self.level[i - 1] = 1 if m.group(1)[0] == "=" else 2
                self.heading_text[i - 1] = lines[i - 1].strip()
                self.underline[i] = True
        self._dates: dict[int, tuple[datetime, str] | None] = {}

    def _one_line_paragraph(self, i: int) -> bool:
        """Whether line ``i`` is a paragraph of one line (a setext underline below makes it a
        heading; under a longer paragraph a line of dashes is left to the strategies that read
        it as a separator, as the archive's do)."""
        if i < self.body_start or self.blank[i] or self.level[i] or self.fence[i] != NOT_FENCED:
            return False
        if _NOT_PARAGRAPH_RE.match(self.lines[i]) or _SETEXT_RE.match(self.lines[i]):
            return False
        return i == self.body_start or self.blank[i - 1] or self.level[i - 1] > 0

    # ------------------------------------------------------------------ structure

    def is_heading(self, i: int) -> bool:
        return 0 <= i < self.n and self.level[i] > 0

    def can_cut(self, i: int) -> bool:
        """May one chunk end at line ``i - 1`` and the next start at ``i``? Not inside a fence."""
        if i <= self.body_start or i >= self.n:
            return True
        return not (self.fence[i] != NOT_FENCED and self.fence[i] == self.fence[i - 1])

    def in_fence(self, i: int) -> bool:
        return self.fence[i] != NOT_FENCED

    def first_content(self, start: int, end: int) -> int:
        """The first line of ``start..end`` that is neither blank nor a heading (nor a setext
        heading's underline: a bare title made a chunk of its own) (``end + 1`` if none)."""
        i = start
        while i <= end and (self.blank[i] or self.level[i] > 0 or self.underline[i]):
            i += 1
        return i

    def is_break(self, i: int) -> bool:
        """Whether line ``i`` is a thematic break outside a fence (not a setext underline)."""
        return (
            self.fence[i] == NOT_FENCED
            and not self.underline[i]
            and _BREAK_RE.match(self.lines[i]) is not None
        )

    @cached_property
    def enclosing(self) -> list[tuple[Heading, ...]]:
        """For each line index 0..n, the headings above it that enclose it, outermost first.

        A heading line is enclosed only by shallower headings (not by itself or its siblings).
        """
        out: list[tuple[Heading, ...]] = []
        stack: list[Heading] = []
        for i in range(self.n):
            if self.level[i]:
                while stack and stack[-1].level >= self.level[i]:
                    stack.pop()
            out.append(tuple(stack))
            if self.level[i]:
                stack.append(Heading(i, self.level[i], self.heading_text[i]))
        out.append(tuple(stack))
        return out

    def headings_at_content(self, start: int, end: int) -> tuple[Heading, ...]:
        """The headings in force at the first content line of ``start..end`` (leading ones included)."""
        return self.enclosing[self.first_content(start, end)]

    @cached_property
    def first_title_heading(self) -> Heading | None:
        for i in range(self.body_start, self.n):
            if self.level[i] == 1 and self.heading_text[i]:
                return Heading(i, 1, self.heading_text[i])
        return None

    # ------------------------------------------------------------------ dates

    def leading_date(self, i: int) -> tuple[datetime, str] | None:
        """The date line ``i`` starts with (after markdown decoration) and its text as written."""
        if i in self._dates:
            return self._dates[i]
        found = None
        if 0 <= i < self.n and not self.blank[i] and (self.fence[i] == NOT_FENCED):
            hit = dates.find_leading_datetime(self.lines[i])
            if hit is not None:
                value, end = hit
                head = self.lines[i][:end]
                text = head[_DECORATION_RE.match(head).end() :].strip()  # type: ignore[union-attr]
                found = (value, text or head.strip())
        self._dates[i] = found
        return found

    def heading_date(self, heading: Heading) -> tuple[datetime, str] | None:
        """The date a heading's text starts with; its text as written is the whole heading."""
        hit = self.leading_date(heading.line)
        return (hit[0], heading.text) if hit else None

    def dated_heading_in(self, headings: tuple[Heading, ...]) -> tuple[datetime, str] | None:
        """The innermost dated heading of a heading path."""
        for heading in reversed(headings):
            hit = self.heading_date(heading)
            if hit:
                return hit
        return None


def cut(doc: Doc, starts: list[int]) -> list[Segment]:
    """Segments from boundary lines: each runs to the line before the next boundary.

    The body start is always a boundary; boundaries inside a fence are ignored. Segments are
    trimmed of blank lines at both ends and dropped when nothing is left.
    """
    bounds = sorted({doc.body_start, *(s for s in starts if doc.body_start < s < doc.n and doc.can_cut(s))})
    bounds.append(doc.n)
    segments = []
    for a, b in itertools.pairwise(bounds):
        seg = trim(doc, Segment(a, b - 1))
        if seg is not None:
            segments.append(seg)
    return segments


def trim(doc: Doc, seg: Segment) -> Segment | None:
    start, end = seg.start, seg.end
    while start <= end and doc.blank[start]:
        start += 1
    while end >= start and doc.blank[end]:
        end -= 1
    if start > end or all(doc.blank[i] or doc.is_break(i) for i in range(start, end + 1)):
        return None  # nothing, or only the "---" between two entries
    seg.start, seg.end = start, end
    return seg


def heading_only(doc: Doc, seg: Segment) -> bool:
    return doc.first_content(seg.start, seg.end) > seg.end


def merge_heading_only(doc: Doc, segments: list[Segment], *, only_into_children: bool) -> list[Segment]:
    """A segment of nothing but headings joins the segment right after it.

    With ``only_into_children`` it joins only when that segment starts with a deeper heading
    (``# Redflag`` then ``## Overview``), so an empty ``## Section`` keeps its place.
    """
    out: list[Segment] = []
    pending: int | None = None
    for k, seg in enumerate(segments):
        if pending is not None:
            seg = Segment(pending, seg.end, seg.timestamp, seg.source, seg.date_text)
            pending = None
        if k + 1 < len(segments) and heading_only(doc, seg):
            last_level = next(doc.level[i] for i in range(seg.end, seg.start - 1, -1) if doc.level[i])
            if not only_into_children or doc.level[segments[k + 1].start] > last_level:
                pending = seg.start
                continue
        out.append(seg)
    return out
