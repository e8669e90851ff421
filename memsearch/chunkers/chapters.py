"""``chapters``: one chunk per ``#`` chapter (literature/).

A file without a ``#`` heading is one chapter, titled by its frontmatter title. Long chapters
are split afterwards by the over-long rule, which prefers the chapter's own ``##`` headings.
"""

from __future__ import annotations

from memsearch.chunkers import sections
from memsearch.chunkers.document import Doc, Segment


def segments(doc: Doc) -> list[Segment]:
    return sections.segments(doc, max_level=1)
