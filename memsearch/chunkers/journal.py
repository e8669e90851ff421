"""``journal``: one entry per dated heading or blank-line-separated paragraph.

Every paragraph (a run of non-blank lines; a fenced block counts as non-blank, so a code block
with blank lines inside stays whole) is one entry, and every heading starts a new one. A heading
joins the paragraph right after it, so no chunk is a bare heading and a conversation written as
``# <date>`` / blank / ``Speaker: turn`` / blank / ... gives exactly one chunk per turn (the
first turn's chunk also holds the heading line).

An entry is dated by the most recent dated heading above it, else by a date its first line
starts with, else by the file's frontmatter date or name (filled in by the caller). One
exception: a paragraph that opens with a full date (day, month and year: ``2025-03-12 07:30 ...``)
is dated by it even under a dated heading, since it says so itself (a postscript written the
next morning); a month alone at its start (``May 2023 was ...``) never overrides a heading.
"""

from __future__ import annotations

import re

from memsearch.chunkers.document import Doc, Segment, cut, merge_heading_only

_MONTH_ONLY_RE = re.compile(r"[A-Za-z]+\.?,?\s+\d{4}|\d{4}-\d{1,2}")


def is_full_date(text: str) -> bool:
    """Does a leading date as written name a day (not just a month such as ``May 2023``)?"""
    return not _MONTH_ONLY_RE.fullmatch(text.strip())


def segments(doc: Doc) -> list[Segment]:
    starts = []
    for i in range(doc.body_start, doc.n):
        solid = not doc.blank[i] or doc.in_fence(i)
        prev_solid = i > doc.body_start and (not doc.blank[i - 1] or doc.in_fence(i - 1))
        if (solid and not prev_solid) or doc.level[i]:
            starts.append(i)
    segs = merge_heading_only(doc, cut(doc, starts), only_into_children=False)
    last_dated: tuple | None = None
    k = 0
    heading_lines = [i for i in range(doc.body_start, doc.n) if doc.level[i]]
    for seg in segs:
        content = doc.first_content(seg.start, seg.end)
        while k < len(heading_lines) and heading_lines[k] < content:
            hit = doc.leading_date(heading_lines[k])
            if hit:
                last_dated = (hit[0], doc.heading_text[heading_lines[k]])
            k += 1
        own = doc.leading_date(content) if content <= seg.end else None
        if own and (last_dated is None or is_full_date(own[1])):
            seg.timestamp, seg.source, seg.date_text = own[0], "line", own[1]
        elif last_dated:
            seg.timestamp, seg.source, seg.date_text = last_dated[0], "heading", last_dated[1]
    return segs
