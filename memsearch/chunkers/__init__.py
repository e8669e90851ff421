"""Chunking: one file's text -> its memories (``Chunk``), territory-aware.

- :mod:`~memsearch.chunkers.chunk`: :func:`chunk_file`, the whole pipeline for one file;
- :mod:`~memsearch.chunkers.document`: a file's lines, fences, headings and leading dates;
- :mod:`~memsearch.chunkers.frontmatter`: the YAML frontmatter;
- one module per territory strategy: :mod:`~memsearch.chunkers.sections`,
  :mod:`~memsearch.chunkers.journal`, :mod:`~memsearch.chunkers.ledger`,
  :mod:`~memsearch.chunkers.chapters`, :mod:`~memsearch.chunkers.archive`;
- :mod:`~memsearch.chunkers.splitting`: over-long chunks split at their best breaks.
"""

from memsearch.chunkers.chunk import CHUNKER_VERSION, MAX_HEADER_CHARS, STRATEGIES, chunk_file, note_identity

__all__ = ["CHUNKER_VERSION", "MAX_HEADER_CHARS", "STRATEGIES", "chunk_file", "note_identity"]
