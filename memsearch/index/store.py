"""The index on disk: a git repository of small files, and snapshots derived from its commits.

    <home>/lock                          the write lock (memsearch.lock)
    <home>/repo/                         a git repository (memsearch.index.versioning), committed:
        manifest.json                    format, embedder, settings, every file (sha256, chunk ids,
                                         shard, aliases, fallback timestamp), skipped files with
                                         reasons, embedding gaps, the next chunk id
        shards/<2 hex>/<sha1 of path>.jsonl   one file's chunks: id, every Chunk field, and the
                                              sha256 of the exact text that was embedded
        vectors/<2 hex>/<sha1 of path>.npy    that file's vectors (float32, rows in shard order;
                                              chunks listed as gaps have no row)
    <home>/cache/embeddings.sqlite       vectors by embedder fingerprint and text hash
    <home>/cache/snapshots/<repo>/<commit>/   everything a search loads, derived from one commit:
        manifest.json, chunks.jsonl, keyword.npz, graph.json, vector_ids.npy, vectors.npy,
        hnsw.bin + hnsw.key, and meta.json (written last: its presence marks a whole snapshot)

What is committed is small and diffable, so one update costs the repository what that file's
chunks and vectors take. Everything derived (BM25 postings, the graph table, the HNSW graph) is a
cache keyed by the commit: missing or unreadable, it is rebuilt from the commit (from the nearest
snapshot plus the files that differ, else from every shard), and old snapshots are pruned.

Files are owner-only (0600, folders 0700): a memory index holds everything the agent has lived
through. Every file is written to a temporary name and renamed over the old one.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import shutil
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from memsearch import paths
from memsearch.errors import IndexCorruptError, IndexMissingError
from memsearch.index.graph import EntityGraph
from memsearch.index.graph import normalize as normalize_entity_key
from memsearch.index.keyword import KeywordIndex, PackedTerms
from memsearch.index.keyword_terms import file_keyword_terms
from memsearch.index.temporal import TimeIndex
from memsearch.index.vectors import VectorIndex
from memsearch.index.versioning import IndexRepo, crashpoint
from memsearch.models import Chunk, chunk_from_fields, entry_dated
from memsearch.paths import atomic_write as atomic_write
from memsearch.paths import tighten_private_dir as private_dir

#: Format of the committed files (manifest, shards, vectors). 1 was the single-folder layout.
FORMAT_VERSION = 3
#: Format of a snapshot folder (a cache: a snapshot of another format is rebuilt).
SNAPSHOT_FORMAT = 1
#: The single-folder layout of format 1 (``<home>/index/``): an index found there is rebuilt.
MANIFEST = "manifest.json"
FILES_SUBDIR = "files"
#: Snapshots kept besides the current one (recently used first): ``search --at`` of a recent
#: commit stays instant, and the cache never grows by one whole index per update.
KEEP_SNAPSHOTS = 3
#: Settings that shape what is indexed for a chunk: recorded in the manifest, so a snapshot rebuilt
#: from a commit is what its writer built, whatever settings the reader was given.
SHAPE_FIELDS = ("context_neighbours", "context_weight", "context_decay", "embed_neighbours")


def default_home(vault: Path) -> Path:
    """Where a vault's index lives: ``$MEMSEARCH_HOME/<name>-<hash>`` if set, else ``vault/.memsearch``."""
    return paths.default_home(vault)


# -- names in the repository ------------------------------------------------------------------------


def shard_name(rel_path: str) -> str:
    """``ab/<sha1 of the path>``: where one file's chunks and vectors live in the repository."""
    digest = hashlib.sha1(rel_path.encode("utf-8")).hexdigest()
    return f"{digest[:2]}/{digest}"


def bucket_file(rel_path: str) -> str:
    """``files/<2 hex>.json``: the manifest entries of the files whose shards share that prefix.

    The manifest's per-file table is split in 256 buckets so that a one-file update rewrites one
    small bucket, not the whole table: measured at 1,000 files x 100 one-file updates, a single
    manifest.json grew the repository 13x the updated files' shards and vectors (each version a
    whole loose object until packed), the buckets about 1x.
    """
    return f"{FILES_SUBDIR}/{shard_name(rel_path)[:2]}.json"


def encode_bucket(entries: Mapping[str, Any]) -> bytes:
    """One bucket of the manifest's file table: JSON, one line per file (a one-line diff per update)."""

    def line(path: str) -> str:
        entry = json.dumps(entries[path], sort_keys=True, ensure_ascii=False)
        return f"{json.dumps(path, ensure_ascii=False)}: {entry}"

    lines = [line(path) for path in sorted(entries)]
    return ("{\n" + ",\n".join(lines) + "\n}\n").encode("utf-8")


def encode_manifest_head(manifest: Mapping[str, Any]) -> bytes:
    """``manifest.json``: everything but the file table (in ``files/``) and the gaps (per file there)."""
    head = {k: v for k, v in manifest.items() if k not in ("files", "gaps")}
    return (json.dumps(head, indent=1, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")


def manifest_buckets(manifest: Mapping[str, Any], paths: Iterable[str] | None = None) -> dict[str, bytes]:
    """``{bucket file: bytes or b""}`` for the buckets holding ``paths`` (all when None); b"": delete it."""
    files = manifest["files"]
    wanted = None if paths is None else {bucket_file(p) for p in paths}
    grouped: dict[str, dict[str, Any]] = {}
    for path, entry in files.items():
        bucket = bucket_file(path)
        if wanted is None or bucket in wanted:
            grouped.setdefault(bucket, {})[path] = entry
    out = {bucket: encode_bucket(entries) for bucket, entries in grouped.items()}
    for bucket in wanted or ():
        out.setdefault(bucket, b"")
    return out


def decode_manifest(head: bytes, buckets: Iterable[bytes]) -> dict[str, Any]:
    manifest = json.loads(head)
    if not isinstance(manifest, dict):
        raise ValueError("manifest.json is not an object")
    files: dict[str, Any] = {}
    for raw in buckets:
        files.update(json.loads(raw))
    manifest["files"] = dict(sorted(files.items()))
    manifest["gaps"] = sorted(cid for entry in files.values() for cid in entry.get("gaps", ()))
    return manifest


def shard_file(name: str) -> str:
    return f"shards/{name}.jsonl"


def vector_file(name: str) -> str:
    return f"vectors/{name}.npy"


# -- what a search loads --------------------------------------------------------------------------


@dataclass
class IndexData:
    """Everything a search needs, in memory; ``commit`` is the repository commit it reflects."""

    chunks: dict[int, Chunk]
    keyword: KeywordIndex
    graph: EntityGraph
    time: TimeIndex
    vectors: VectorIndex | None
    manifest: dict[str, Any] = field(default_factory=dict)
    commit: str | None = None
    #: Files changed since the snapshot this index was loaded from (None: no snapshot behind it).
    unsaved_files: int | None = None

    @property
    def n_ids(self) -> int:
        """1 + the largest chunk id. Every chunk is in the time index (dated or not), which keeps
        this bound per version: no pass over the chunk table on each query, open or refresh."""
        return self.time.id_bound()


def chunk_to_json(chunk_id: int, chunk: Chunk, **extra: Any) -> str:
    # Fields read directly, not via dataclasses.asdict (a deep copy: ~0.1 ms a chunk).
    data = {
        "path": chunk.path,
        "start_line": chunk.start_line,
        "end_line": chunk.end_line,
        "heading": chunk.heading,
        "territory": chunk.territory,
        "fact_type": chunk.fact_type,
        "timestamp": chunk.timestamp.isoformat() if chunk.timestamp else None,
        "timestamp_source": chunk.timestamp_source,
        "entities": list(chunk.entities),
        "text": chunk.text,
        "header": chunk.header,
        "id": chunk_id,
        **extra,
    }
    return json.dumps(data, ensure_ascii=False, sort_keys=True)


def chunk_from_json(line: str | bytes) -> tuple[int, Chunk]:
    data = json.loads(line)
    chunk_id = data.pop("id")
    data.pop("embed_sha256", None)
    data["timestamp"] = datetime.fromisoformat(data["timestamp"]) if data["timestamp"] else None
    data["entities"] = tuple(data["entities"])
    return chunk_id, chunk_from_fields(data)


def encode_shard(entries: Iterable[tuple[int, Chunk, str]]) -> bytes:
    """One file's chunks as JSON lines: ``(id, chunk, sha256 of the embedded text)`` each."""
    return "".join(chunk_to_json(cid, c, embed_sha256=sha) + "\n" for cid, c, sha in entries).encode("utf-8")


def decode_shard(data: bytes) -> list[tuple[int, Chunk]]:
    return [chunk_from_json(line) for line in data.splitlines() if line.strip()]


def encode_vectors(matrix: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.save(buf, np.ascontiguousarray(matrix, dtype=np.float32), allow_pickle=False)
    return buf.getvalue()


def decode_vectors(data: bytes, dim: int) -> np.ndarray:
    matrix = np.load(io.BytesIO(data), allow_pickle=False)
    if matrix.ndim != 2 or matrix.shape[1] != dim or matrix.dtype != np.float32:
        raise ValueError(f"vectors of shape {matrix.shape} ({matrix.dtype}), expected (n, {dim}) float32")
    if not np.isfinite(matrix).all():
        raise ValueError("vectors hold NaN or infinite values")
    return matrix


def embed_sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def shape_of(manifest: Mapping[str, Any]) -> Any:
    """The Settings a manifest's chunks were indexed with (for the fields that shape the index)."""
    from memsearch.config import Settings

    saved = manifest.get("index_settings") or {}
    return replace(Settings(), **{k: saved[k] for k in SHAPE_FIELDS if k in saved})


def alias_map(files: Mapping[str, Mapping[str, Any]]) -> dict[str, str]:
    """The entity alias map the manifest's files declare, applied in scan order (later files win)."""
    combined: dict[str, str] = {}
    for path in _alias_order(files):
        for alias, canonical in files[path]["aliases"].items():
            a, c = normalize_entity_key(alias), normalize_entity_key(canonical)
            if a and c and a != c:
                combined[a] = c
    return combined


# -- changing an index in memory -----------------------------------------------------------------


def remove_chunks(data: IndexData, ids: Iterable[int]) -> None:
    ids = [i for i in ids if i in data.chunks]
    for cid in ids:
        data.keyword.remove(cid)
        data.graph.remove(cid)
        data.time.remove(cid)
        del data.chunks[cid]
    if data.vectors is not None and ids:
        data.vectors.remove(ids)


def add_file_chunks(
    data: IndexData,
    ids: list[int],
    chunks: list[Chunk],
    shape: Any,
    terms: list[PackedTerms] | None = None,
    *,
    graph: bool = True,
) -> None:
    """Index one file's chunks under ``ids`` (keyword with its neighbours' context, graph, time);
    ``terms``: their keyword terms if already made (by the process that chunked the file);
    ``graph=False``: not in the graph (a caller about to rebuild it from every chunk)."""
    if terms is None:
        terms = file_keyword_terms(chunks, shape)
    for cid, chunk, chunk_terms in zip(ids, chunks, terms, strict=True):
        data.chunks[cid] = chunk
        data.keyword.add_packed(cid, chunk_terms)
        if graph:
            data.graph.add(cid, chunk.entities)
        data.time.set(cid, chunk.timestamp, timeless=chunk.fact_type == "world", entry=entry_dated(chunk))


def restamp_chunks(data: IndexData, ids: list[int], chunks: list[Chunk]) -> None:
    """New timestamps (and nothing else) for chunks already indexed under ``ids``."""
    for cid, chunk in zip(ids, chunks, strict=True):
        data.chunks[cid] = chunk
        data.time.set(cid, chunk.timestamp, timeless=chunk.fact_type == "world", entry=entry_dated(chunk))


def rebuild_graph(data: IndexData, files: Mapping[str, Mapping[str, Any]]) -> None:
    """The entity graph again from every chunk, under the alias map of ``files`` (aliases changed)."""
    graph = EntityGraph()
    for path in _alias_order(files):
        graph.add_aliases(files[path]["aliases"])
    for cid in sorted(data.chunks):
        graph.add(cid, data.chunks[cid].entities)
    data.graph = graph


def empty_index(dim: int | None = None) -> IndexData:
    return IndexData({}, KeywordIndex(), EntityGraph(), TimeIndex(), VectorIndex(dim) if dim else None, {})


# -- snapshots ------------------------------------------------------------------------------------


def snapshots_dir(home: Path) -> Path:
    """This repository's snapshots (the cache folder may be shared by several index homes)."""
    layout = paths.IndexLayout(home)
    tag = hashlib.sha1(os.path.realpath(layout.repo).encode()).hexdigest()[:12]
    return layout.snapshots / tag


def has_snapshot(home: Path, commit: str) -> bool:
    """Whether ``commit`` has a whole snapshot (its meta.json is written last)."""
    return (snapshots_dir(home) / commit / "meta.json").exists()


def save_snapshot(home: Path, data: IndexData) -> Path:
    """Write the derived index of ``data.commit`` (a whole folder, renamed into place at once)."""
    if not data.commit:
        raise ValueError("a snapshot needs the commit it derives from")
    root = snapshots_dir(home)
    target = root / data.commit
    if (target / "meta.json").exists():
        return target
    private_dir(paths.IndexLayout(home).cache)
    private_dir(root.parent)
    private_dir(root)
    staging = root / f".staging-{os.getpid()}-{time.monotonic_ns()}"
    private_dir(staging)
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
        (staging / MANIFEST).write_text(json.dumps(data.manifest, sort_keys=True, ensure_ascii=False))
        crashpoint("snapshot-files")
        # meta.json goes last: its presence marks a whole snapshot.
        (staging / "meta.json").write_text(json.dumps({"commit": data.commit, "format": SNAPSHOT_FORMAT}))
        for child in staging.iterdir():
            os.chmod(child, 0o600)
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
            chunk_id, chunk.timestamp, timeless=chunk.fact_type == "world", entry=entry_dated(chunk)
        )
    vectors = None
    dim = (manifest.get("embedder") or {}).get("dim")
    if dim and (folder / "vectors.npy").exists():
        vectors = VectorIndex.load(folder, int(dim))
        if len(vectors) and not np.isfinite(vectors._vectors[next(iter(vectors._vectors))]).all():
            raise ValueError(f"snapshot {folder} holds invalid vectors")
    if set(keyword_ids(keyword, chunks)) != set(chunks):
        raise ValueError(f"snapshot {folder}: the keyword index and the chunk table disagree")
    data = IndexData(chunks, keyword, graph, time_index, vectors, manifest, meta.get("commit"), 0)
    _check_gaps(data, manifest)
    return data


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
        if entry.name.startswith(".staging-"):
            with contextlib.suppress(OSError):
                if time.time() - entry.stat().st_mtime > 3600:  # a writer that died mid-save
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


# -- reading the repository -----------------------------------------------------------------------


def read_manifest(home: Path) -> dict[str, Any]:
    """The manifest of the index at ``home`` as its repository's work tree has it ({} if none).

    For callers that want a glance (the embedder an index was built with, doctor); a search loads
    the committed manifest with its snapshot.
    """
    layout = paths.IndexLayout(home)
    root = layout.repo
    try:
        buckets = [p.read_bytes() for p in sorted((root / FILES_SUBDIR).glob("*.json"))]
        return decode_manifest((root / MANIFEST).read_bytes(), buckets)
    except (OSError, ValueError):
        pass
    try:
        data = json.loads((layout.legacy_index / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def head_commit(home: Path) -> str | None:
    """The commit the index at ``home`` serves now (None: no index yet). A few file reads."""
    return IndexRepo(home).head()


def committed_manifest(repo: IndexRepo, commit: str) -> dict[str, Any]:
    raw = repo.read(commit, MANIFEST)
    if raw is None:
        raise IndexCorruptError(
            f"commit {commit[:12]} of the index at {repo.home} has no manifest;"
            " run `memsearch index VAULT` to rebuild it from the vault"
        )
    try:
        tree = repo.tree(commit, FILES_SUBDIR)
        blobs = repo.read_blobs(list(tree.values()))
        manifest = decode_manifest(raw, (blobs[b] for b in tree.values()))
    except (ValueError, TypeError, AttributeError) as exc:
        raise IndexCorruptError(
            f"the manifest of commit {commit[:12]} in {repo.home} cannot be read ({exc});"
            " run `memsearch index VAULT` to rebuild it from the vault"
        ) from exc
    if manifest.get("format") != FORMAT_VERSION:
        raise IndexCorruptError(
            f"the index at {repo.home} has format {manifest.get('format')}, this memsearch reads"
            f" {FORMAT_VERSION}; run `memsearch index VAULT`"
        )
    return manifest


class BadShards(IndexCorruptError):
    """Some committed shards cannot be read; ``paths`` names their files (rebuilt from the vault)."""

    def __init__(self, message: str, paths: list[str]) -> None:
        super().__init__(message)
        self.paths = paths


def read_files(
    repo: IndexRepo, commit: str, manifest: Mapping[str, Any], paths: Iterable[str]
) -> dict[str, tuple[list[tuple[int, Chunk]], np.ndarray | None]]:
    """``{path: (chunks, vectors)}`` of some of a commit's files, read from its objects."""
    paths = list(paths)
    files = manifest["files"]
    dim = (manifest.get("embedder") or {}).get("dim")
    tree = repo.tree(commit, "shards", "vectors") if paths else {}
    wanted: list[str] = []
    for path in paths:
        name = files[path]["shard"]
        wanted.append(tree.get(shard_file(name), ""))
        if vector_file(name) in tree:
            wanted.append(tree[vector_file(name)])
    blobs = repo.read_blobs([w for w in wanted if w])
    out: dict[str, tuple[list[tuple[int, Chunk]], np.ndarray | None]] = {}
    bad: list[str] = []
    for path in paths:
        entry = files[path]
        name = entry["shard"]
        try:
            raw = blobs.get(tree.get(shard_file(name), ""))
            if raw is None:
                raise ValueError("its shard is missing")
            chunks = decode_shard(raw)
            if [cid for cid, _ in chunks] != list(entry["chunks"]):
                raise ValueError("its shard does not hold the chunks the manifest lists")
            vectors = None
            if vector_file(name) in tree:
                if not dim:
                    raise ValueError("vectors without an embedder")
                vectors = decode_vectors(blobs[tree[vector_file(name)]], int(dim))
                have = len(entry["chunks"]) - len(entry.get("gaps", ()))
                if len(vectors) != have:
                    raise ValueError(f"{len(vectors)} vectors for {have} chunks")
            out[path] = (chunks, vectors)
        except (ValueError, KeyError, TypeError) as exc:
            bad.append(path)
            out.pop(path, None)
            last = exc
    if bad:
        raise BadShards(
            f"commit {commit[:12]} of the index at {repo.home} holds unreadable shards for"
            f" {len(bad)} file(s), e.g. {bad[0]} ({last}); run `memsearch index VAULT` to rebuild"
            " them from the vault",
            bad,
        )
    return out


def vector_rows(entry: Mapping[str, Any]) -> list[int]:
    """The chunk ids of a file that have a vector row, in row order."""
    gaps = set(entry.get("gaps", ()))
    return [cid for cid in entry["chunks"] if cid not in gaps]


def build_from_commit(repo: IndexRepo, commit: str, base: IndexData | None = None) -> IndexData:
    """The index as ``commit`` has it: ``base`` (another commit's) plus the files that differ,
    else every shard. Raises IndexCorruptError (BadShards naming the files) when a shard is bad."""
    manifest = committed_manifest(repo, commit)
    files: dict[str, dict] = manifest["files"]
    shape = shape_of(manifest)
    dim = (manifest.get("embedder") or {}).get("dim")
    if base is not None and base.commit and _compatible(base.manifest, manifest):
        try:
            changed = set(repo.changed_paths(base.commit, commit))
        except IndexCorruptError:
            changed = None
        if changed is not None:
            return _apply_delta(repo, commit, manifest, base, changed, shape)
    data = empty_index(int(dim) if dim else None)
    data.manifest, data.commit = manifest, commit
    read = read_files(repo, commit, manifest, files)
    for path in _alias_order(files):  # every alias before any chunk, in scan order, as a full scan
        data.graph.add_aliases(files[path]["aliases"])
    order = sorted(files, key=lambda p: min(files[p]["chunks"], default=-1))
    for path in order:
        chunks, vectors = read[path]
        add_file_chunks(data, [cid for cid, _ in chunks], [c for _, c in chunks], shape)
        if vectors is not None and len(vectors):
            if data.vectors is None:
                data.vectors = VectorIndex(vectors.shape[1])
            data.vectors.add(vector_rows(files[path]), vectors)
    _check_gaps(data, manifest)
    return data


def _alias_order(files: Mapping[str, Mapping[str, Any]]) -> list[str]:
    from memsearch.scan import walk_order

    return sorted((p for p, e in files.items() if e.get("aliases")), key=walk_order)


def _compatible(old: Mapping[str, Any], new: Mapping[str, Any]) -> bool:
    keys = ("format", "index_settings")
    same_embedder = (old.get("embedder") or {}).get("fingerprint") == (new.get("embedder") or {}).get(
        "fingerprint"
    )
    return same_embedder and all(old.get(k) == new.get(k) for k in keys)


def _apply_delta(
    repo: IndexRepo, commit: str, manifest: dict, base: IndexData, changed: set[str], shape: Any
) -> IndexData:
    old_files: dict[str, dict] = base.manifest.get("files", {})
    new_files: dict[str, dict] = manifest["files"]
    touched: set[str] = set()
    for path in set(old_files) | set(new_files):
        entry = new_files.get(path) or old_files[path]
        name = entry["shard"]
        if (
            shard_file(name) in changed
            or vector_file(name) in changed
            or old_files.get(path) != new_files.get(path)
        ):
            touched.add(path)
    data = base
    read = read_files(repo, commit, manifest, sorted(p for p in touched if p in new_files))
    for path in sorted(touched):
        if path in old_files:
            remove_chunks(data, old_files[path]["chunks"])
    aliases_changed = alias_map(old_files) != alias_map(new_files)
    for path in sorted(read, key=lambda p: min(new_files[p]["chunks"], default=-1)):
        chunks, vectors = read[path]
        add_file_chunks(data, [cid for cid, _ in chunks], [c for _, c in chunks], shape)
        if vectors is not None and len(vectors):
            if data.vectors is None:
                data.vectors = VectorIndex(vectors.shape[1])
            data.vectors.add(vector_rows(new_files[path]), vectors)
    if aliases_changed:
        rebuild_graph(data, new_files)
    data.manifest, data.commit = manifest, commit
    data.unsaved_files = None if base.unsaved_files is None else base.unsaved_files + len(touched)
    _check_gaps(data, manifest)
    return data


def _check_gaps(data: IndexData, manifest: Mapping[str, Any]) -> None:
    expected = len(data.chunks) - len(manifest.get("gaps", ()))
    have = len(data.vectors) if data.vectors is not None else 0
    if have != expected:
        raise IndexCorruptError(
            f"the index holds {have} vectors where the manifest expects {expected};"
            " run `memsearch index VAULT` to rebuild it"
        )


def _latest_snapshot(home: Path, exclude: str | None = None) -> IndexData | None:
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


def load_commit(home: Path, commit: str, *, cache: bool = True, cache_small: bool = True) -> IndexData:
    """The index as ``commit`` has it: its snapshot, else rebuilt from the repository (and cached).

    ``cache_small=False`` saves no snapshot for a commit that differs from the last snapshot by a
    few files only (a reader, or a writer about to commit again): the next load applies them again,
    cheaply.
    """
    home = Path(home)
    folder = snapshots_dir(home) / commit
    if (folder / "meta.json").exists():
        try:
            data = load_snapshot(folder, commit)
            with contextlib.suppress(OSError):
                os.utime(folder)
            return data
        except Exception:  # a corrupt cache is rebuilt from the committed state
            shutil.rmtree(folder, ignore_errors=True)
    repo = IndexRepo(home)
    base = _latest_snapshot(home, exclude=commit)
    try:
        data = build_from_commit(repo, commit, base)
    except IndexCorruptError:
        if base is None:
            raise
        data = build_from_commit(repo, commit, None)
    if cache and (cache_small or snapshot_due(data)):
        with contextlib.suppress(OSError):
            save_snapshot(home, data)
    return data


def load(index_home: Path, at: str | None = None) -> IndexData:
    """The index a search reads: HEAD's commit (or ``at``, any revision git understands)."""
    home = Path(index_home)
    paths.check_home(home)
    repo = IndexRepo(home)
    if not repo.exists():
        if (paths.IndexLayout(home).legacy_index / MANIFEST).exists():
            raise IndexMissingError(
                f"the index at {home} is in an older layout; run `memsearch index VAULT` to rebuild it"
                " (cached embeddings make that quick)"
            )
        raise IndexMissingError(f"no index at {home}; run `memsearch index VAULT` first")
    commit = repo.head() if at is None else repo.resolve(at)
    if commit is None:
        raise IndexMissingError(
            f"no index at {home} yet (its first build did not finish); run `memsearch index VAULT`"
        )
    try:
        return load_commit(home, commit, cache_small=False)
    except IndexCorruptError:
        raise
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise IndexCorruptError(
            f"index at {home} cannot be read ({exc});"
            " run `memsearch index VAULT` to rebuild it from the vault"
        ) from exc
