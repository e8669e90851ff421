"""``ledger``: one timestamped line = one chunk (aster/ledger/).

A line that starts with a date (after list or heading decoration) starts an entry; the untimed
lines after it (continuations, indented sub-bullets, code) join it. Headings also start a chunk:
a heading followed directly by an entry joins that entry, a heading with untimed text under it
is a chunk of its own. Lines before the first timed line form their own chunk(s).
"""

from __future__ import annotations

from memsearch.chunkers.document import Doc, Segment, cut, merge_heading_only


def segments(doc: Doc) -> list[Segment]:
    starts = [i for i in range(doc.body_start, doc.n) if doc.level[i] or doc.leading_date(i)]
    segs = merge_heading_only(doc, cut(doc, starts), only_into_children=False)
    for seg in segs:
        for i in range(seg.start, seg.end + 1):
            if doc.blank[i]:
                continue
            hit = doc.leading_date(i)
            if hit:
                source = "heading" if doc.level[i] else "line"
                seg.timestamp, seg.source, seg.date_text = hit[0], source, hit[1]
            if not doc.level[i]:
                break  # the entry's own first line decides; headings above it only fill in
    return segs
