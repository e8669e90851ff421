"""Index a vault: scan -> chunk -> timestamps -> keyword, graph, time -> vectors -> save.

Every stage is forgiving of one bad file: it is skipped with a reason that names it, and the
rest of the vault is indexed. An embedder failure never fails an index: the chunks without a
vector are recorded as gaps, the other three strategies serve them at once, and the next run
fills the gaps (the embedding cache makes unchanged text free).
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path

from memsearch.chunkers import chunk_file
from memsearch.config import Settings
from memsearch.index import store
from memsearch.index.graph import EntityGraph
from memsearch.index.keyword import KeywordIndex
from memsearch.index.temporal import TimeIndex
from memsearch.index.vectors import VectorIndex
from memsearch.models import Chunk, ParsedFile
from memsearch.scan import Skipped, check_vault, git_commit_times, iter_markdown, read_file
from memsearch.tokenize import tokenize

#: progress(stage, done, total)
Progress = Callable[[str, int, int], None]


@dataclass(frozen=True)
class IndexReport:
    vault: str
    index_home: str
    files: int
    chunks: int
    embedded: int  # vectors computed in this run (cache misses)
    gaps: int  # chunks left without a vector (embedder failed); filled by the next run
    skipped: tuple[Skipped, ...]
    warnings: tuple[str, ...]
    seconds: float
    timings: dict[str, float] = field(default_factory=dict)
    embedder_error: str | None = None
    reused: int = 0  # vectors taken from the embedding cache
    embedder: str | None = None  # the spec of the embedder the index was built with
    embedder_note: str | None = None  # e.g. that the embedder changed and everything was re-embedded

    def to_dict(self) -> dict:
        return {
            "vault": self.vault,
            "index_home": self.index_home,
            "files": self.files,
            "chunks": self.chunks,
            "embedded": self.embedded,
            "gaps": self.gaps,
            "skipped": [{"path": s.path, "reason": s.reason} for s in self.skipped],
            "warnings": list(self.warnings),
            "seconds": round(self.seconds, 3),
            "timings": {k: round(v, 3) for k, v in self.timings.items()},
            "embedder_error": self.embedder_error,
            "reused": self.reused,
            "embedder": self.embedder,
            "embedder_note": self.embedder_note,
        }


def keyword_terms(chunks: list[Chunk], i: int, settings: Settings) -> dict[str, float]:
    """Term weights for chunk i: its header and text, plus its neighbours at a lower weight."""
    weights: dict[str, float] = {}
    for term, count in Counter(tokenize(chunks[i].header) + tokenize(chunks[i].text)).items():
        weights[term] = float(count)
    n = settings.context_neighbours
    if n > 0 and settings.context_weight > 0:
        for j in range(max(0, i - n), min(len(chunks), i + n + 1)):
            if j == i:
                continue
            # Each step away halves again: the next turn says more about this one than the third.
            share = (
                settings.context_weight ** abs(j - i) if settings.context_decay else settings.context_weight
            )
            for term, count in Counter(tokenize(chunks[j].text)).items():
                weights[term] = weights.get(term, 0.0) + share * count
    return weights


def embed_text(chunks: list[Chunk], i: int, settings: Settings) -> str:
    """What is embedded for chunk i: header, text, and optionally its neighbours."""
    n = settings.embed_neighbours
    before = [chunks[j].text for j in range(max(0, i - n), i)] if n else []
    after = [chunks[j].text for j in range(i + 1, min(len(chunks), i + n + 1))] if n else []
    parts = [chunks[i].header, *before, chunks[i].text, *after]
    return "\n".join(p for p in parts if p)


def index_vault(
    vault: Path,
    settings: Settings | None = None,
    progress: Progress | None = None,
    index_home: Path | None = None,
    embed: bool = True,
    embedder: str | None = None,
    reembed: bool = False,
) -> IndexReport:
    """Build the vault's index from scratch, reusing every cached embedding.

    ``embedder`` is a spec (``minilm``, ``ollama``, ``ollama:nomic-embed-text:256``); without
    one, ``$MEMSEARCH_EMBEDDER``, the vault config, then the embedder the index was built with
    decide (see :mod:`memsearch.embedders`). ``embed=False`` embeds nothing but still takes
    every vector the cache holds. ``reembed=True`` ignores the cache and embeds every chunk
    again (after the model changed under the same name, e.g. a new ``ollama pull``).
    """
    started = time.perf_counter()
    timings: dict[str, float] = {}
    vault = check_vault(vault)
    settings = (settings or Settings()).with_vault_config(vault)
    index_home = Path(index_home) if index_home else store.default_home(vault)
    notify = progress or (lambda stage, done, total: None)

    # 1. scan
    t = time.perf_counter()
    paths = iter_markdown(vault)
    files, skipped = [], []
    for n, path in enumerate(paths, 1):
        got = read_file(vault, path)
        (skipped if isinstance(got, Skipped) else files).append(got)
        notify("scan", n, len(paths))
    timings["scan"] = time.perf_counter() - t

    # 2. chunk (and timestamps the content does not give: git, then mtime)
    t = time.perf_counter()
    commit_times = git_commit_times(vault)
    parsed: list[tuple[ParsedFile, list[Chunk]]] = []
    warnings: list[str] = []
    for n, vf in enumerate(files, 1):
        try:
            pf = chunk_file(vf.path, vf.text, settings)
        except Exception as exc:  # one file must never stop the vault: name it and go on
            skipped.append(Skipped(vf.path, f"could not be chunked ({type(exc).__name__}: {exc})"))
            continue
        warnings.extend(f"{vf.path}: {w}" for w in pf.warnings)
        fallback, source = commit_times.get(vf.path), "git"
        if fallback is None:
            fallback, source = datetime.fromtimestamp(vf.mtime, tz=UTC), "mtime"
        chunks = [
            c if c.timestamp else replace(c, timestamp=fallback, timestamp_source=source) for c in pf.chunks
        ]
        parsed.append((pf, chunks))
        notify("chunk", n, len(files))
    timings["chunk"] = time.perf_counter() - t

    # 3. keyword, graph, time
    t = time.perf_counter()
    all_chunks: dict[int, Chunk] = {}
    keyword, graph, time_index = KeywordIndex(), EntityGraph(), TimeIndex()
    texts: list[str] = []
    file_entries: dict[str, dict] = {}
    sha_by_path = {vf.path: vf.sha256 for vf in files}
    for pf, _ in parsed:
        graph.add_aliases(pf.aliases)
    for pf, chunks in parsed:
        ids = []
        for i, chunk in enumerate(chunks):
            chunk_id = len(all_chunks)
            all_chunks[chunk_id] = chunk
            ids.append(chunk_id)
            keyword.add(chunk_id, keyword_terms(chunks, i, settings))
            graph.add(chunk_id, chunk.entities)
            time_index.set(chunk_id, chunk.timestamp, timeless=chunk.fact_type == "world")
            texts.append(embed_text(chunks, i, settings))
        file_entries[pf.path] = {"sha256": sha_by_path.get(pf.path), "chunks": ids}
    timings["keyword_graph_time"] = time.perf_counter() - t

    # 4. vectors: from the cache where the text was embedded before, else from the embedder
    t = time.perf_counter()
    vectors, embedded, reused, gap_ids, embedder_error, embedder_info, embedder_note = _vectors(
        vault, settings, index_home, texts, notify, embedder, embed=embed, reembed=reembed
    )
    timings["vectors"] = time.perf_counter() - t

    # 5. save
    t = time.perf_counter()
    manifest = {
        "vault": str(vault),
        "built_at": datetime.now(tz=UTC).isoformat(timespec="seconds"),
        "embedder": embedder_info,
        "settings_fingerprint": _settings_fingerprint(settings),
        "files": file_entries,
        "skipped": {s.path: s.reason for s in skipped},
        "gaps": gap_ids,
        "embedder_error": embedder_error,
        "embedder_note": embedder_note,
    }
    store.save(index_home, store.IndexData(all_chunks, keyword, graph, time_index, vectors, manifest))
    timings["save"] = time.perf_counter() - t
    # 6. signals: new memories that match a standing interest (after_index never raises)
    from memsearch.signals import after_index

    after_index(vault, index_home, settings, all_chunks)
    return IndexReport(
        vault=str(vault),
        index_home=str(index_home),
        files=len(parsed),
        chunks=len(all_chunks),
        embedded=embedded,
        gaps=len(gap_ids),
        reused=reused,
        embedder=embedder_info.get("spec"),
        embedder_note=embedder_note,
        skipped=tuple(skipped),
        warnings=tuple(warnings),
        seconds=time.perf_counter() - started,
        timings=timings,
        embedder_error=embedder_error,
    )


def _vectors(
    vault: Path,
    settings: Settings,
    index_home: Path,
    texts: list[str],
    notify: Progress,
    explicit: str | None,
    *,
    embed: bool,
    reembed: bool,
) -> tuple[VectorIndex | None, int, int, list[int], str | None, dict, str | None]:
    """Stage 4: ``(vectors, embedded, reused, gap chunk ids, embedder error, manifest record, note)``.

    Chunk ids are the positions in ``texts``. The embedder is a soft seam: whatever it could
    not embed is a gap (the vectors it did compute are kept, in the index and the cache), and
    nothing here raises for its sake.

    Every vector comes from one embedder (one fingerprint), so an index never mixes two. A
    change of embedder re-embeds every chunk with the new one (the cache serves any text it
    embedded before); if the new one cannot be made, or leaves more chunks without a vector
    than the previous one would, the index keeps the previous embedder this run and says so
    (what the new one did embed is cached, so the next attempt starts there).
    """
    from memsearch.embedders import choose_embedder, embedder_for, index_manifest_embedder
    from memsearch.index.embedding_cache import EmbeddingCache, EmbedOutcome, embed_texts_with_cache

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
        with EmbeddingCache(index_home / store.CACHE_SUBDIR / "embeddings.sqlite") as cache:
            return embed_texts_with_cache(
                embedder,
                cache,
                texts,
                progress=lambda d, n: notify("embed", d, n),
                reembed=again,
                allow_embed=embed,
            )

    def keep_previous() -> tuple[object, EmbedOutcome] | None:
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
        return None, 0, 0, all_ids if error else [], error, info, note
    ok_ids = [i for i in all_ids if outcome.ok[i]]
    vectors = None
    if ok_ids and embedder is not None:
        vectors = VectorIndex(int(embedder.dim))
        vectors.add(ok_ids, outcome.vectors[outcome.ok])
    return vectors, outcome.embedded, outcome.reused, outcome.failed, outcome.error, info, note


def _settings_fingerprint(settings: Settings) -> str:
    shape = (
        settings.territories,
        settings.max_chunk_chars,
        settings.context_neighbours,
        settings.context_weight,
        settings.context_decay,
        settings.embed_neighbours,
    )
    return hashlib.sha256(repr(shape).encode()).hexdigest()[:16]
