"""``archive``: chunks end at ``---`` separators and at month boundaries (archive/).

A separator line closes the chunk above it (it belongs to that chunk; one at the very top joins
the chunk below). A heading or a timed line whose date falls in another month than the previous
dated line starts a new chunk, taking any undated headings right above it along. A chunk is dated
by its first dated line, else by the last dated line above it (the archive is still in that month).
"""

from __future__ import annotations

import re

from memsearch.chunkers.document import Doc, Segment, cut

_SEPARATOR_RE = re.compile(r"^ {0,3}-[ \t]*-[ \t]*-[ \t-]*$")


def is_separator(doc: Doc, i: int) -> bool:
    return not doc.in_fence(i) and bool(_SEPARATOR_RE.match(doc.lines[i]))


def segments(doc: Doc) -> list[Segment]:
    starts: list[int] = []
    seg_start = doc.body_start
    has_content = False
    last_month: tuple[int, int] | None = None
    for i in range(doc.body_start, doc.n):
        if doc.blank[i]:
            continue
        if is_separator(doc, i):
            if has_content:
                starts.append(i + 1)
                seg_start, has_content = i + 1, False
            continue
        hit = doc.leading_date(i)
        if hit:
            month = (hit[0].year, hit[0].month)
            if last_month is not None and month != last_month and has_content:
                start = i
                j = i - 1
                while j >= seg_start and (doc.blank[j] or (doc.level[j] and not doc.leading_date(j))):
                    if doc.level[j]:
                        start = j
                    j -= 1
                if start > seg_start:
                    starts.append(start)
                    seg_start = start
            last_month = month
        has_content = True
    segs = cut(doc, starts)
    date_chunks(doc, segs)
    return segs


def date_chunks(doc: Doc, segs: list[Segment]) -> None:
    """Date each chunk by its first dated line, else the last dated line above it."""
    above: tuple[tuple, str] | None = None
    pos = doc.body_start
    for seg in segs:
        while pos < seg.start:
            if hit := doc.leading_date(pos):
                above = (hit, "heading" if doc.level[pos] else "line")
            pos += 1
        chosen = above
        for i in range(seg.start, seg.end + 1):
            if hit := doc.leading_date(i):
                chosen = (hit, "heading" if doc.level[i] else "line")
                break
        if chosen:
            (value, text), source = chosen
            seg.timestamp, seg.source, seg.date_text = value, source, text
