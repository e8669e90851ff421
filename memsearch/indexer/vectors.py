"""Stage 4 of a run: the vectors, from the embedding cache where the text was embedded before, else
from the embedder, which is a soft seam: what it cannot embed is a gap, and nothing here raises
for its sake. The policy of choosing the embedder and switching to a new one lives here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from memsearch.config import Settings
from memsearch.embedders import choose_embedder, embedder_for, index_manifest_embedder
from memsearch.embedders.base import (
    MULTILINGUAL_EMBEDDER,
    MULTILINGUAL_INSTALL,
    NON_ENGLISH_ADVICE_SHARE,
    Embedder,
    is_multilingual,
)
from memsearch.index.embedding_cache import EmbeddingCache, EmbedOutcome, embed_texts_with_cache
from memsearch.indexer.report import Progress
from memsearch.languages import DEFAULT as DEFAULT_LANGUAGE
from memsearch.languages import display_name
from memsearch.paths import IndexLayout
from memsearch.scripts import non_latin_share
from memsearch.tokenize import language_shares


@dataclass
class VectorWork:
    info: dict
    gaps: set[int]
    ran: bool = False
    note: str | None = None
    error: str | None = None
    embedded: int = 0
    filled: int = 0
    rewrite_all: bool = False
    #: The run was asked for another embedder that could not serve; the index keeps its own, as it was.
    switch_failed: bool = False
    embed_s: float = 0.0  # in the embedder and its cache (the rest of stage 4 is the HNSW graph)

    def touched_gaps(self, old_files: dict[str, dict], path: str) -> set[int]:
        """Chunk ids of ``path`` that were gaps before and are not now (their vectors came in)."""
        before = set(old_files.get(path, {}).get("gaps", ()))
        return before - self.gaps


def chunk_ids(files: dict[str, dict]) -> set[int]:
    return {cid for entry in files.values() for cid in entry["chunks"]}


def ids_of(got: tuple[list[int], np.ndarray] | None, ids: list[int]) -> set[int]:
    return set() if got is None else {ids[i] for i in got[0]}


@dataclass
class Embedded:
    """What :func:`embed_texts` made of a list of texts."""

    #: (positions in ``texts`` with a vector, their rows), or None when none has one.
    rows: tuple[list[int], np.ndarray] | None
    embedded: int  # texts the embedder embedded (the rest came from the cache, or are gaps)
    reused: int  # texts whose vector came from the cache
    failed: list[int]  # positions without a vector: gaps
    error: str | None  # why they have none
    info: dict  # the embedder's record for the manifest
    note: str | None  # a switch of embedder, made or refused


def embed_texts(
    vault: Path,
    settings: Settings,
    index_home: Path,
    texts: list[str],
    notify: Progress,
    explicit: str | None,
    *,
    embed: bool,
    reembed: bool,
    origins: list[str] | None = None,
) -> Embedded:
    """Stage 4: a vector for each of ``texts`` where one can be had, and what became of the rest.

    ``explicit``: the embedder spec asked for (``--embedder``), if any. The embedder is a soft
    seam: whatever it could not embed is a gap (the vectors it did compute are kept, in the index
    and the cache), and nothing here raises for its sake.

    Every vector comes from one embedder (one fingerprint), so an index never mixes two. A
    change of embedder re-embeds every chunk with the new one (the cache serves any text it
    embedded before); if the new one cannot be made, or leaves more chunks without a vector
    than the previous one would, the index keeps the previous embedder this run and says so
    (what the new one did embed is cached, so the next attempt starts there).
    """
    choice = choose_embedder(vault, explicit, settings, index_home)
    previous = index_manifest_embedder(index_home)
    all_ids = list(range(len(texts)))

    def record(embedder, spec: str, source: str) -> dict:
        describe = getattr(embedder, "describe", None)
        return {
            "spec": getattr(embedder, "spec", spec),
            "chosen_by": source,
            "name": embedder.name,
            "dim": int(embedder.dim),
            "fingerprint": embedder.fingerprint,
            **({"details": describe()} if callable(describe) else {}),
        }

    def run(embedder, again: bool = reembed) -> EmbedOutcome:
        with EmbeddingCache(IndexLayout(index_home).embedding_cache) as cache:
            return embed_texts_with_cache(
                embedder,
                cache,
                texts,
                progress=lambda d, n: notify("embed", d, n),
                reembed=again,
                allow_embed=embed,
                origins=origins,
            )

    def keep_previous() -> tuple[Embedder, EmbedOutcome] | None:
        """The previous embedder and its outcome, if it can still serve this index."""
        spec = previous.get("spec")
        if not spec or not texts:
            return None
        try:
            old = embedder_for(str(spec), vault)
            if old.fingerprint != previous.get("fingerprint"):
                return None
            return old, run(old, again=False)
        except Exception:
            return None

    info: dict = {"spec": choice.spec, "chosen_by": choice.source}
    error: str | None = None
    embedder, outcome = None, None
    try:
        embedder = embedder_for(choice.spec, vault)
        info = record(embedder, choice.spec, choice.source)
    except Exception as exc:  # a bad spec or config: keyword, graph and time still index
        error = f"{type(exc).__name__}: {exc}"
    changed = bool(previous.get("fingerprint")) and previous.get("fingerprint") != info.get("fingerprint")
    note = None
    if embedder is not None and texts:
        try:
            outcome = run(embedder)
        except Exception as exc:  # an unreadable cache: no vectors this run, everything else indexes
            error = f"{type(exc).__name__}: {exc}"
    if changed:
        new_gaps = len(texts) if outcome is None else len(outcome.failed)
        kept = keep_previous() if new_gaps else None
        if kept is not None and len(kept[1].failed) < new_gaps:
            old, old_outcome = kept
            why = error if outcome is None else (outcome.error or "")
            note = (
                f"did not switch to embedder {info.get('spec')}: it left {new_gaps} of {len(texts)} chunks"
                f" without a vector ({why}); the index keeps {previous.get('spec')}. What"
                f" {info.get('spec')} embedded is cached: run `memsearch index --embedder"
                f" {info.get('spec')}` again when it answers"
            )
            embedder, outcome, error = old, old_outcome, None
            info = record(old, str(previous.get("spec")), "index (switch failed)")
        else:
            note = (
                f"embedder changed from {previous.get('spec')} ({previous['fingerprint']}) to"
                f" {info.get('spec')} ({info.get('fingerprint')}): every chunk has a vector of the new"
                " embedder or is a gap; no vector of the old one is kept"
            )
    if outcome is None:
        return Embedded(None, 0, 0, all_ids if error else [], error, info, note)
    ok_ids = [i for i in all_ids if outcome.ok[i]]
    rows = (ok_ids, outcome.vectors[outcome.ok]) if ok_ids and embedder is not None else None
    return Embedded(rows, outcome.embedded, outcome.reused, outcome.failed, outcome.error, info, note)


#: How many chunks (spread over the run's) the language advice reads.
ADVICE_SAMPLE_CHUNKS = 500


def language_advice(texts: list[str], info: dict, vault: Path) -> str | None:
    """A note for the index report when much of the text this run indexed is outside the Latin
    script, or in another language than English, while the index's embedder knows only English
    (None otherwise, or with no embedder)."""
    if not texts or not info.get("fingerprint") or is_multilingual(info.get("details")):
        return None
    # A sample spread over the run's chunks is enough for a share (a full first index reads 2 MB of
    # text for 10k chunks: ~0.1 s of regex on its own).
    sample = texts[:: max(1, len(texts) // ADVICE_SAMPLE_CHUNKS)]
    share = non_latin_share(sample)
    if share >= NON_ENGLISH_ADVICE_SHARE:
        what = f"{share:.0%} of the letters indexed are outside the Latin script"
    else:
        shares = language_shares(sample)
        others = {name: part for name, part in shares.items() if name != DEFAULT_LANGUAGE}
        if sum(others.values()) < NON_ENGLISH_ADVICE_SHARE:
            return None
        named = ", ".join(f"{display_name(name)} {part:.0%}" for name, part in others.items())
        what = f"{sum(others.values()):.0%} of the text indexed is not English ({named})"
    return (
        f"{what}, but {info.get('spec')} knows only English: semantic search misses those notes"
        f" (keyword search finds them); for a multilingual embedder, `{MULTILINGUAL_INSTALL}` and"
        f" `memsearch index {vault} --embedder {MULTILINGUAL_EMBEDDER}`"
    )
