"""Loading a commit: the index a search reads, from its snapshot or else from the repository.

A search loads HEAD's commit (or any revision git understands): its snapshot if it has a whole one
(:mod:`memsearch.index.snapshots`), else the nearest snapshot plus the files that differ, else
every shard (:mod:`memsearch.index.format`), and the result is saved as that commit's snapshot.
A bad shard or manifest raises :class:`~memsearch.errors.IndexCorruptError` with the remedy.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from memsearch import paths
from memsearch.config import Settings
from memsearch.errors import IndexCorruptError, IndexMissingError
from memsearch.index import snapshots
from memsearch.index.format import (
    FILES_SUBDIR,
    FORMAT_VERSION,
    MANIFEST,
    MODAL_SUBDIR,
    SHARDS_SUBDIR,
    VECTORS_SUBDIR,
    bucket_file,
    decode_manifest,
    decode_shard,
    decode_vectors,
    modal_files,
    shape_of,
    shard_file,
    vector_file,
    vector_rows,
)
from memsearch.index.in_memory import (
    IndexData,
    add_file_chunks,
    add_modal,
    alias_map,
    check_gaps,
    empty_index,
    rebuild_graph,
    remove_chunks,
)
from memsearch.index.vectors import VectorIndex
from memsearch.index.versioning import IndexRepo
from memsearch.models import Chunk


def indexed_file(home: Path, rel: str) -> dict[str, Any] | None:
    """The manifest entry of one file as the index at ``home`` has it (its ``sha256``, chunks ...),
    read from that file's bucket alone; None when the index has no such file or no index is there."""
    try:
        entries = json.loads((paths.IndexLayout(home).repo / bucket_file(rel)).read_bytes())
    except (OSError, ValueError):
        return None
    entry = entries.get(rel) if isinstance(entries, dict) else None
    return entry if isinstance(entry, dict) else None


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
    """The whole manifest of ``commit``; IndexCorruptError when it is missing, unreadable or of
    another format."""
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
    tree = repo.tree(commit, SHARDS_SUBDIR, VECTORS_SUBDIR) if paths else {}
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


def read_modal(
    repo: IndexRepo, commit: str, manifest: Mapping[str, Any], paths: Iterable[str]
) -> dict[str, dict[str, np.ndarray]]:
    """``{path: {modality: vector}}``: the sidecar vectors a commit holds for some of its moments
    (those whose entry lists ``modal``); IndexCorruptError when one is missing or of another size."""
    files = manifest["files"]
    wanted = {p: modal_files(files[p]) for p in paths if files[p].get("modal")}
    if not wanted:
        return {}
    dims = {m: int(info["dim"]) for m, info in (manifest.get("modalities") or {}).items()}
    tree = repo.tree(commit, MODAL_SUBDIR)
    blobs = repo.read_blobs([tree[r] for rels in wanted.values() for r in rels.values() if r in tree])
    out: dict[str, dict[str, np.ndarray]] = {}
    for path, rels in wanted.items():
        got = {}
        for modality, rel in rels.items():
            try:
                if rel not in tree or modality not in dims:
                    raise ValueError("it is missing")
                matrix = decode_vectors(blobs[tree[rel]], dims[modality])
                if len(matrix) != 1:
                    raise ValueError(f"it holds {len(matrix)} rows, not 1")
            except ValueError as exc:
                raise IndexCorruptError(
                    f"commit {commit[:12]} of the index at {repo.home}: the {modality} vector of"
                    f" {path} cannot be read ({exc}); run `memsearch index VAULT` to rebuild it"
                ) from exc
            got[modality] = matrix[0]
        out[path] = got
    return out


def _add_modal(data: IndexData, entry: Mapping[str, Any], vectors: Mapping[str, np.ndarray]) -> None:
    """A moment's sidecar vectors, as read from a commit, under its chunk (its first and only one)."""
    if vectors and entry["chunks"]:
        add_modal(data, entry["chunks"][0], vectors)


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
    data.graph.set_aliases(alias_map(files))  # every alias before any chunk, as a full scan
    order = sorted(files, key=lambda p: min(files[p]["chunks"], default=-1))
    modal = read_modal(repo, commit, manifest, files)
    for path in order:
        _add_file(data, files[path], *read[path], shape)
        _add_modal(data, files[path], modal.get(path, {}))
    check_gaps(data, manifest)
    return data


def _add_file(
    data: IndexData, entry: Mapping[str, Any], chunks: list, vectors: np.ndarray | None, shape: Settings
) -> None:
    """One file's chunks, as read from a commit, into ``data``: keyword, graph, time and its vectors."""
    add_file_chunks(data, [cid for cid, _ in chunks], [c for _, c in chunks], shape)
    if vectors is not None and len(vectors):
        if data.vectors is None:
            data.vectors = VectorIndex(vectors.shape[1])
        data.vectors.add(vector_rows(entry), vectors)


def _compatible(old: Mapping[str, Any], new: Mapping[str, Any]) -> bool:
    keys = ("format", "index_settings")
    same_embedder = (old.get("embedder") or {}).get("fingerprint") == (new.get("embedder") or {}).get(
        "fingerprint"
    )
    # A modality whose dimension changed cannot take the new commit's rows into the old index.
    old_modal, new_modal = old.get("modalities") or {}, new.get("modalities") or {}
    same_modal = all(
        old_modal[m].get("dim") == new_modal[m].get("dim") for m in set(old_modal) & set(new_modal)
    )
    return same_embedder and same_modal and all(old.get(k) == new.get(k) for k in keys)


def _apply_delta(
    repo: IndexRepo, commit: str, manifest: dict, base: IndexData, changed: set[str], shape: Settings
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
    modal = read_modal(repo, commit, manifest, read)
    for path in sorted(touched):
        if path in old_files:
            remove_chunks(data, old_files[path]["chunks"])
    aliases_changed = alias_map(old_files) != alias_map(new_files)
    for path in sorted(read, key=lambda p: min(new_files[p]["chunks"], default=-1)):
        _add_file(data, new_files[path], *read[path], shape)
        _add_modal(data, new_files[path], modal.get(path, {}))
    if aliases_changed:
        rebuild_graph(data, new_files)
    data.manifest, data.commit = manifest, commit
    data.unsaved_files = None if base.unsaved_files is None else base.unsaved_files + len(touched)
    check_gaps(data, manifest)
    return data


def load_commit(home: Path, commit: str, *, cache: bool = True, cache_small: bool = True) -> IndexData:
    """The index as ``commit`` has it: its snapshot, else rebuilt from the repository (and cached).

    ``cache_small=False`` saves no snapshot for a commit that differs from the last snapshot by a
    few files only (a reader, or a writer about to commit again): the next load applies them again,
    cheaply.
    """
    home = Path(home)
    folder = snapshots.snapshots_dir(home) / commit
    if (folder / "meta.json").exists():
        try:
            data = snapshots.load_snapshot(folder, commit)
            with contextlib.suppress(OSError):
                os.utime(folder)
            return data
        except Exception:  # a corrupt cache is rebuilt from the committed state
            try:  # unless it was replaced whole while it was read (the reindex settling its graph)
                return snapshots.load_snapshot(folder, commit)
            except Exception:
                shutil.rmtree(folder, ignore_errors=True)
    repo = IndexRepo(home)
    base = snapshots.latest_snapshot(home, exclude=commit)
    try:
        data = build_from_commit(repo, commit, base)
    except IndexCorruptError:
        if base is None:
            raise
        data = build_from_commit(repo, commit, None)
    if cache and (cache_small or snapshots.snapshot_due(data)):
        with contextlib.suppress(OSError):
            snapshots.save_snapshot(home, data)
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
    if commit is None and at is None and repo.has_history():
        raise repo.lost_head()
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
