"""Index a vault: scan -> chunk -> timestamps -> keyword, graph, time -> vectors -> commit.

- :mod:`~memsearch.indexer.prepare`: stage 1 and 2, the vault scanned, each file read, chunked and
  timestamped (for a run over processes, and for one file as ``update_file`` writes it);
- :mod:`~memsearch.indexer.update`: the incremental update, from the last commit to a new one;
- :mod:`~memsearch.indexer.vectors`: stage 4, the embedder chosen, switched, and its soft seam;
- :mod:`~memsearch.indexer.writer`: the repository's write side, commit messages, rollback;
- :mod:`~memsearch.indexer.run`: :func:`index_vault`, all of it under the write lock;
- :mod:`~memsearch.indexer.report`: what a run reports.

Every update that changes anything is one commit of the index repository (see
:mod:`memsearch.index.format`), under the write lock (:mod:`memsearch.lock`); an update that
changes nothing commits nothing.

Every stage is forgiving of one bad file: it is skipped with a reason that names it, and the
rest of the vault is indexed. An embedder failure never fails an index: the chunks without a
vector are recorded as gaps, the other three strategies serve them at once, and the next run
fills the gaps (the embedding cache makes unchanged text free).
"""

from memsearch.indexer.prepare import embed_text, indexable
from memsearch.indexer.report import IndexReport, Progress
from memsearch.indexer.run import index_vault
from memsearch.indexer.update import LivePreview, Update
from memsearch.indexer.vectors import embed_texts
from memsearch.indexer.writer import open_for_write, rollback

__all__ = [
    "IndexReport",
    "LivePreview",
    "Progress",
    "Update",
    "embed_text",
    "embed_texts",
    "index_vault",
    "indexable",
    "open_for_write",
    "rollback",
]
