"""Snapshots: the derived index of one commit, saved so that a search starts without rebuilding it.

    <home>/cache/snapshots/<repo>/<commit>/   everything a search loads, derived from one commit:
        manifest.json, chunks.jsonl, keyword.npz, graph.json, vector_ids.npy, vectors.npy,
        hnsw.bin + hnsw.key, each notebook modality's as modal.<modality>.vectors.npy (...),
        and meta.json (written last: its presence marks a whole snapshot)

Everything derived (BM25 postings, the graph table, the HNSW graph) is a cache keyed by the commit:
a snapshot is written to a staging folder and renamed into place whole; missing or unreadable, it is
rebuilt from the commit (:mod:`memsearch.index.loading`), and old snapshots are pruned. Files are
owner-only (0600, folders 0700).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import time
from collections.abc import Iterable, Mapping
from pathlib import Path

import numpy as np

from memsearch import paths
from memsearch.index.format import MANIFEST, chunk_from_json, chunk_to_json
from memsearch.index.graph import EntityGraph
from memsearch.index.in_memory import IndexData, check_gaps
from memsearch.index.keyword import KeywordIndex
from memsearch.index.temporal import TimeIndex
from memsearch.index.vectors import VectorIndex, saved_graph_settled
from memsearch.index.versioning import crashpoint
from memsearch.models import Chunk, entry_dated, half_life_days, save_dated
from memsearch.paths import IndexLayout

#: Format of a snapshot folder (a cache: a snapshot of another format is rebuilt).
SNAPSHOT_FORMAT = 1
#: Snapshots kept besides the current one (recently used first): ``search --at`` of a recent
#: commit stays instant, and the cache never grows by one whole index per update.
KEEP_SNAPSHOTS = 3


def snapshots_dir(home: Path) -> Path:
    """This repository's snapshots (the cache folder may be shared by several index homes)."""
    layout = paths.IndexLayout(home)
    tag = hashlib.sha1(os.fsencode(os.path.realpath(layout.repo))).hexdigest()[:12]  # the bytes: any name
    return layout.snapshots / tag


def has_snapshot(home: Path, commit: str) -> bool:
    """Whether ``commit`` has a whole snapshot (its meta.json is written last)."""
    return (snapshots_dir(home) / commit / "meta.json").exists()


def save_snapshot(home: Path, data: IndexData, *, replace: bool = False) -> Path:
    """Write the derived index of ``data.commit`` (a whole folder, renamed into place at once).

    A snapshot that exists is kept, unless ``replace`` (its graphs settled since: the new one takes
    its place whole; a reader that was loading the old one rebuilds from the commit).
    """
    if not data.commit:
        raise ValueError("a snapshot needs the commit it derives from")
    root = snapshots_dir(home)
    target = root / data.commit
    if (target / "meta.json").exists() and not replace:
        return target
    paths.tighten_private_dir(paths.IndexLayout(home).cache)
    paths.tighten_private_dir(root.parent)
    paths.tighten_private_dir(root)
    staging = root / f".staging-{os.getpid()}-{time.monotonic_ns()}"
    paths.tighten_private_dir(staging)
    try:
        with open(
            os.open(staging / "chunks.jsonl", os.O_WRONLY | os.O_CREAT, 0o600), "w", encoding="utf-8"
        ) as fh:
            for chunk_id in sorted(data.chunks):
                fh.write(chunk_to_json(chunk_id, data.chunks[chunk_id]) + "\n")
        crashpoint("snapshot-chunks")
        data.keyword.save(staging / "keyword.npz")
        data.graph.save(staging / "graph.json")
        if data.vectors is not None:
            data.vectors.save(staging)
        for modality, index in sorted(data.modal.items()):  # files beside the text vectors'
            index.save(staging, modal_prefix(modality))
        # ASCII with escapes, as the committed head (index/format.py): a name may hold a surrogate.
        (staging / MANIFEST).write_text(json.dumps(data.manifest, sort_keys=True), encoding="ascii")
        crashpoint("snapshot-files")
        # meta.json goes last: its presence marks a whole snapshot.
        (staging / "meta.json").write_text(json.dumps({"commit": data.commit, "format": SNAPSHOT_FORMAT}))
        for child in staging.iterdir():
            os.chmod(child, 0o600)
        if replace and target.exists():
            aside = root / f".replaced-{os.getpid()}-{time.monotonic_ns()}"
            target.rename(aside)
            shutil.rmtree(aside, ignore_errors=True)
        try:
            staging.rename(target)
        except OSError:  # another process made this snapshot first: theirs is as good as ours
            if not (target / "meta.json").exists():
                shutil.rmtree(target, ignore_errors=True)
                staging.rename(target)
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    crashpoint("snapshot-saved")
    data.unsaved_files = 0
    return target


#: A new snapshot is written once this many files (or this share of the vault's, if more) changed
#: since the last one; in between, a load applies the few changed files to the last snapshot (a
#: snapshot of 100k chunks takes ~3.5 s to write, of 1M about a minute: not one per watched save).
SNAPSHOT_MIN_FILES = 64
SNAPSHOT_SHARE = 0.02


def snapshot_due(data: IndexData) -> bool:
    """Whether ``data`` should be saved as a snapshot of its commit (no snapshot behind it, or
    enough files changed since the one it was loaded from)."""
    if data.unsaved_files is None:
        return True
    n_files = len(data.manifest.get("files", ()))
    return data.unsaved_files > max(SNAPSHOT_MIN_FILES, SNAPSHOT_SHARE * n_files)


def graphs_settled(home: Path, commit: str) -> bool:
    """Whether ``commit`` has a snapshot whose vector graphs (if any) were built from scratch, so
    its answers depend on the vectors alone, not on the order updates came in."""
    folder = snapshots_dir(home) / commit
    if not (folder / "meta.json").exists():
        return False
    prefixes = [key.name[: -len("hnsw.key")] for key in folder.glob("*hnsw.key")]
    return all(saved_graph_settled(folder, prefix) for prefix in prefixes)


def load_snapshot(folder: Path, commit: str | None = None) -> IndexData:
    """Load one snapshot folder; raises OSError/ValueError (and friends) when it is missing or bad."""
    meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    if meta.get("format") != SNAPSHOT_FORMAT or (commit and meta.get("commit") != commit):
        raise ValueError(f"snapshot {folder} is of another format or commit")
    manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    chunks: dict[int, Chunk] = {}
    with open(folder / "chunks.jsonl", encoding="utf-8") as fh:
        for line in fh:
            chunk_id, chunk = chunk_from_json(line)
            chunks[chunk_id] = chunk
    keyword = KeywordIndex.load(folder / "keyword.npz")
    graph = EntityGraph.load(folder / "graph.json")
    time_index = TimeIndex()
    for chunk_id, chunk in chunks.items():
        time_index.set(
            chunk_id,
            chunk.timestamp,
            timeless=chunk.fact_type == "world",
            entry=entry_dated(chunk),
            saved=save_dated(chunk),
            half_life=half_life_days(chunk),
        )
    vectors = None
    dim = (manifest.get("embedder") or {}).get("dim")
    if dim and (folder / "vectors.npy").exists():
        vectors = VectorIndex.load(folder, int(dim))
        if len(vectors) and not np.isfinite(vectors.by_id[next(iter(vectors.by_id))]).all():
            raise ValueError(f"snapshot {folder} holds invalid vectors")
    modal: dict[str, VectorIndex] = {}
    for modality, info in (manifest.get("modalities") or {}).items():
        if (folder / f"{modal_prefix(modality)}vectors.npy").exists():
            index = VectorIndex.load(folder, int(info["dim"]), modal_prefix(modality))
            if len(index):
                modal[modality] = index
    if set(keyword_ids(keyword, chunks)) != set(chunks):
        raise ValueError(f"snapshot {folder}: the keyword index and the chunk table disagree")
    data = IndexData(chunks, keyword, graph, time_index, vectors, manifest, meta.get("commit"), 0)
    data.modal = modal
    check_gaps(data, manifest)
    return data


def modal_prefix(modality: str) -> str:
    """How a snapshot's files of one modality's vectors begin (``modal.audio.vectors.npy``)."""
    return f"modal.{modality}."


def keyword_ids(keyword: KeywordIndex, chunks: Mapping[int, Chunk]) -> list[int]:
    return [cid for cid in chunks if cid in keyword]


def prune_snapshots(home: Path, keep: Iterable[str] = (), max_kept: int = KEEP_SNAPSHOTS) -> None:
    """Drop all but the ``max_kept`` most recently used snapshots (and always keep ``keep``)."""
    root = snapshots_dir(home)
    if not root.is_dir():
        return
    keep = set(keep)
    found = []
    for entry in root.iterdir():
        if entry.name.startswith((".staging-", ".replaced-")):
            with contextlib.suppress(OSError):
                if time.time() - entry.stat().st_mtime > 3600:  # a writer that died mid-save or -swap
                    shutil.rmtree(entry, ignore_errors=True)
            continue
        if entry.name in keep:
            continue
        try:
            found.append((entry.stat().st_mtime, entry))
        except OSError:
            continue
    found.sort(reverse=True)
    for _, entry in found[max(0, max_kept - len(keep)) :]:
        shutil.rmtree(entry, ignore_errors=True)


def latest_snapshot(home: Path, exclude: str | None = None) -> IndexData | None:
    """The most recently used readable snapshot but ``exclude``'s (the two newest tried; a bad one
    is deleted), or None."""
    root = snapshots_dir(home)
    if not root.is_dir():
        return None
    candidates = []
    for entry in root.iterdir():
        if entry.name.startswith(".") or entry.name == exclude:
            continue
        with contextlib.suppress(OSError):
            candidates.append((entry.stat().st_mtime, entry))
    for _, entry in sorted(candidates, reverse=True)[:2]:
        try:
            return load_snapshot(entry)
        except Exception:
            shutil.rmtree(entry, ignore_errors=True)
    return None


def drop_all(home: Path) -> int:
    """Drop every snapshot under the index home's cache, not only this repository's: a folder
    left by the repository at another path (the index home moved or copied) holds the text too."""
    root = IndexLayout(home).snapshots
    n = 0
    if root.is_dir():
        for tag in root.iterdir():
            if tag.is_dir():
                n += sum(1 for e in tag.iterdir() if not e.name.startswith("."))
        shutil.rmtree(root, ignore_errors=True)
    return n
