"""``sections``: one chunk per ``#`` or ``##`` section (system/, reference/, aster/, default).

Deeper headings stay inside their ``##`` section; content before the first heading is its own
chunk. A heading with no content of its own (``# Redflag`` right above ``## Overview``) joins
the section below it, so no chunk is a bare title. A section is dated by the innermost dated
heading above its content (``## 2025-03-14 standup``); otherwise the file's date applies.
"""

from __future__ import annotations

from memsearch.chunkers.document import Doc, Segment, cut, merge_heading_only


def segments(doc: Doc, max_level: int = 2) -> list[Segment]:
    starts = [i for i in range(doc.body_start, doc.n) if 0 < doc.level[i] <= max_level]
    segs = merge_heading_only(doc, cut(doc, starts), only_into_children=True)
    for seg in segs:
        hit = doc.dated_heading_in(doc.headings_at_content(seg.start, seg.end))
        if hit:
            seg.timestamp, seg.source, seg.date_text = hit[0], "heading", hit[1]
    return segs
