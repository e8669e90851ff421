"""Index a vault: scan -> chunk -> timestamps -> keyword, graph, time -> vectors -> commit.

Incremental: each file's sha256 is compared with the manifest of the index's last commit.
Unchanged files keep their chunk ids, shards and vectors; changed and added files are chunked
again under fresh ids (ids are never reused: hnswlib's label reuse is buggy); removed files are
dropped; a renamed file costs no embedding (vectors are cached by the text's hash). Keyword
context uses neighbouring chunks of the same file only, so each file's work stands alone; the
entity alias map is global, so it is rebuilt from every file's aliases when one changes.

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
