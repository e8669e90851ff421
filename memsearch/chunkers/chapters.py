"""``chapters``: one chunk per chapter (literature/).

What a chapter is depends on how the file is divided:

* several ``#`` headings (an anthology, or a book whose parts are ``#``): each ``#`` is a
  chapter, and its ``##`` scenes stay inside it;
* at most one ``#`` heading (``# Book`` above ``## Chapter 1``, ``## Chapter 2``, or a
  frontmatter ``title`` and ``##`` chapters without any ``#``): the single ``#`` is the book's
  title, not a chapter, so each ``##`` is a chapter. A bare title line joins the first chapter
  (no chunk is a bare title); a preamble with content of its own (an epigraph, a dedication)
  stays its own chunk, because gluing it to chapter 1 would make that chunk about two things;
* no heading at all: the file is one chapter, titled by its frontmatter title.

Long chapters are split afterwards by the over-long rule, which prefers the chapter's own
deeper headings.
"""

from __future__ import annotations

from memsearch.chunkers import sections
from memsearch.chunkers.document import Doc, Segment

#: Heading level of a book's title; a file with more than one heading at this level has chapters here.
TITLE_LEVEL = 1
#: Heading level of the chapters under a single title.
CHAPTER_LEVEL = 2


def segments(doc: Doc) -> list[Segment]:
    titles = sum(1 for i in range(doc.body_start, doc.n) if doc.level[i] == TITLE_LEVEL)
    chapter_level = TITLE_LEVEL if titles > 1 else CHAPTER_LEVEL
    return sections.segments(doc, max_level=chapter_level)
