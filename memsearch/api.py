"""The public Python API: the same verbs as the CLI.

>>> from memsearch.api import index_vault, open_index
>>> index_vault("~/vault")
>>> engine = open_index("~/vault")
>>> engine.search("signing keys", k=5).to_dict()
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from memsearch.config import Settings
from memsearch.errors import MemsearchError
from memsearch.index import store
from memsearch.indexer import IndexReport, Progress
from memsearch.indexer import index_vault as _index_vault
from memsearch.models import SearchResponse
from memsearch.query import Filters, as_datetime, parse_query
from memsearch.scan import check_vault
from memsearch.search import STRATEGIES, QueryEmbedding, search_index


def index_vault(
    vault: str | Path,
    settings: Settings | None = None,
    progress: Progress | None = None,
    index_dir: str | Path | None = None,
    embed: bool = True,
    embedder: str | None = None,
    reembed: bool = False,
) -> IndexReport:
    """Index (or re-index) a vault; unchanged text is never embedded twice.

    ``embedder``: a spec (``minilm``, ``ollama``, ``ollama:nomic-embed-text:256``), else
    ``$MEMSEARCH_EMBEDDER``, the vault config, or the embedder the index was built with.
    ``reembed``: embed every chunk again, ignoring the cache.
    """
    home = Path(index_dir) if index_dir else None
    return _index_vault(
        Path(vault), settings, progress, home, embed=embed, embedder=embedder, reembed=reembed
    )


class Memsearch:
    """A loaded index: load once, search many times."""

    def __init__(
        self,
        vault: str | Path,
        settings: Settings | None = None,
        index_dir: str | Path | None = None,
        at: str | None = None,
    ):
        self.vault = check_vault(Path(vault))
        self.settings = (settings or Settings()).with_vault_config(self.vault)
        self.index_home = Path(index_dir) if index_dir else store.default_home(self.vault)
        self.index = store.load(self.index_home, at)
        self._embedder = None
        self._embedder_down: tuple[float, str] | None = None  # (when, why) the embedder last failed

    #: After the embedder failed to answer, searches skip it for this many seconds instead of
    #: each waiting out its timeout again (an agent searching ten times must not wait ten times).
    EMBEDDER_RETRY_SECONDS = 30.0

    def _embed_query(self, text: str, wanted: Sequence[str]) -> QueryEmbedding:
        """The query's vector from the embedder the index was built with, or why there is none.

        Never the vector of another embedder: a fingerprint that differs from the index's is an
        error (semantic search fails, the others answer), never a comparison of two spaces.
        """
        if "semantic" not in wanted:
            return QueryEmbedding(None, skipped="not requested")
        info = self.index.manifest.get("embedder", {})
        if self.index.vectors is None or not info.get("fingerprint"):
            return QueryEmbedding(None)
        now = time.monotonic()
        if self._embedder_down is not None and now - self._embedder_down[0] < self.EMBEDDER_RETRY_SECONDS:
            since, why = self._embedder_down
            return QueryEmbedding(
                None,
                error=f"{why} (skipped for {self.EMBEDDER_RETRY_SECONDS - (now - since):.0f} s more)",
            )
        started = time.perf_counter()
        try:
            if self._embedder is None:
                from memsearch.embedders import embedder_for

                self._embedder = embedder_for(info.get("spec") or self.settings.embedder, self.vault)
            if self._embedder.fingerprint != info["fingerprint"]:
                return QueryEmbedding(
                    None,
                    error=(
                        f"the index was built with embedder {info.get('spec')} ({info['fingerprint']}),"
                        f" not {self._embedder.fingerprint}; run `memsearch index VAULT`"
                    ),
                )
            vector = self._embedder.embed_query(text)
        except Exception as exc:  # the embedder is a soft seam: the other strategies still answer
            from memsearch.embedding import EmbedderUnavailableError
            from memsearch.errors import EmbedderError

            why = str(exc) if isinstance(exc, EmbedderError) else f"{type(exc).__name__}: {exc}"
            why = f"the embedder did not answer ({why})"
            if isinstance(exc, EmbedderUnavailableError):
                self._embedder_down = (time.monotonic(), why)
            return QueryEmbedding(None, error=why)
        self._embedder_down = None
        vector = np.asarray(vector, dtype=np.float32)
        dim = self.index.vectors.dim
        if vector.shape != (dim,):
            return QueryEmbedding(
                None,
                error=f"the embedder returned a {vector.shape} query vector for a {dim}-dim index;"
                " run `memsearch index VAULT --reembed`",
            )
        return QueryEmbedding(vector, ms=(time.perf_counter() - started) * 1000.0)

    def search(
        self,
        query: str,
        k: int = 10,
        *,
        chunks: bool = False,
        explain: bool = False,
        now: datetime | str | None = None,
        strategies: Sequence[str] | None = None,
        territory: str | None = None,
        fact_type: str | None = None,
        entities: Sequence[str] | str | None = None,
        since: datetime | str | None = None,
        until: datetime | str | None = None,
    ) -> SearchResponse:
        """Ranked pointers (path, lines, score, ...) to where the memory lives; never the content."""
        if isinstance(entities, str):
            entities = [entities]
        if not isinstance(k, int) or k < 1:
            raise MemsearchError(f"k must be a positive whole number (got {k!r})")
        filters = Filters(
            territory=territory or None,
            fact_type=fact_type or None,
            entities=tuple(entities or ()),
            since=as_datetime(since, "since"),
            until=as_datetime(until, "until"),
        )
        parsed = parse_query(query, self.index.graph, now=now, filters=filters)
        wanted = tuple(strategies) if strategies else STRATEGIES
        embedding = self._embed_query(parsed.text, wanted)
        return search_index(
            self.index, parsed, self.settings, embedding, k, chunks=chunks, explain=explain, strategies=wanted
        )

    def status(self) -> dict[str, Any]:
        manifest = self.index.manifest
        size = _folder_bytes(self.index_home / "repo")
        mode = oct(os.stat(self.index_home).st_mode & 0o777)
        return {
            "vault": str(self.vault),
            "index": str(self.index_home),
            "index_mode": mode,
            "built_at": manifest.get("built_at"),
            "files": len(manifest.get("files", {})),
            "chunks": len(self.index.chunks),
            "vectors": len(self.index.vectors) if self.index.vectors is not None else 0,
            "gaps": len(manifest.get("gaps", [])),
            "embedder": manifest.get("embedder"),
            "embedder_error": manifest.get("embedder_error"),
            "skipped": manifest.get("skipped", {}),
            "index_bytes": size,
            "commit": self.index.commit,
        }


def open_index(
    vault: str | Path,
    settings: Settings | None = None,
    index_dir: str | Path | None = None,
    at: str | None = None,
) -> Memsearch:
    """The vault's index, loaded; ``at`` (a revision: ``HEAD~2``, a commit id) loads it as it was then."""
    return Memsearch(vault, settings, index_dir, at)


def search(vault: str | Path, query: str, k: int = 10, **options: Any) -> SearchResponse:
    """One-shot search (loads the index each call; keep a ``Memsearch`` to search often)."""
    return open_index(vault).search(query, k, **options)


def _folder_bytes(folder: Path) -> int:
    total = 0
    for root, _dirs, files in os.walk(folder):
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_size
            except OSError:
                continue
    return total
