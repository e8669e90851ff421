"""The on-disk format of the index repository: the names of its files and how each is encoded.

The index repository (``<home>/repo/``, a git repository: :mod:`memsearch.index.versioning`) holds::

    manifest.json                          format, embedder, settings, the next chunk id
    files/<2 hex>.json                     the manifest's file table, in 256 buckets: every file
                                           (sha256, chunk ids, shard, aliases, fallback timestamp,
                                           its embedding gaps), skipped files with reasons
    shards/<2 hex>/<sha1 of path>.jsonl    one file's chunks: id, every Chunk field, and the
                                           sha256 of the exact text that was embedded
    vectors/<2 hex>/<sha1 of path>.npy     that file's vectors (float32, rows in shard order;
                                           chunks listed as gaps have no row)
    modal/<modality>/<2 hex>/<sha1 of path>.npy
                                           a notebook moment's sidecar vector of that modality
                                           (float32, one row, normalised; the file's entry lists
                                           its modalities under ``modal``, the manifest's head each
                                           modality's dimension and fingerprint under ``modalities``)

What is committed is small and diffable, so one update costs the repository what that file's
chunks and vectors take. This module names those files and encodes and decodes them (bytes in,
bytes out); the indexer writes them in the work tree, readers read them from commits. Files are
owner-only (0600, folders 0700): a memory index holds everything the agent has lived through.
"""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Iterable, Mapping
from dataclasses import replace
from datetime import datetime
from typing import Any

import numpy as np

from memsearch.config import Settings
from memsearch.models import Chunk, chunk_from_fields

#: Format of the committed files (manifest, shards, vectors). 1 was the single-folder layout.
FORMAT_VERSION = 3
#: The manifest's head (also its name in the single-folder layout of format 1, ``<home>/index/``).
MANIFEST = "manifest.json"
FILES_SUBDIR = "files"
SHARDS_SUBDIR = "shards"
VECTORS_SUBDIR = "vectors"
MODAL_SUBDIR = "modal"
#: Settings that shape what is indexed for a chunk: recorded in the manifest, so a snapshot rebuilt
#: from a commit is what its writer built, whatever settings the reader was given.
SHAPE_FIELDS = ("context_neighbours", "context_weight", "context_decay", "embed_neighbours")


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
    # ASCII with JSON escapes: the head holds names from the command line and the file system (the
    # vault's path, an embedder's name), and Python reads a byte that is not UTF-8 there as a lone
    # surrogate, which UTF-8 cannot encode; the escape reads back to the same string.
    return (json.dumps(head, indent=1, sort_keys=True) + "\n").encode("ascii")


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


#: The manifest's fields that are objects when present (a string there failed far from here).
_MANIFEST_OBJECTS = ("embedder", "index_settings", "skipped", "modalities")


def decode_manifest(head: bytes, buckets: Iterable[bytes]) -> dict[str, Any]:
    """The whole manifest from ``manifest.json`` and its buckets: ``files`` sorted, ``gaps`` gathered."""
    manifest = json.loads(head)
    if not isinstance(manifest, dict):
        raise ValueError("manifest.json is not an object")
    for key in _MANIFEST_OBJECTS:
        if not isinstance(manifest.get(key) or {}, dict):
            raise ValueError(f"its {key!r} is not an object")
    files: dict[str, Any] = {}
    for raw in buckets:
        bucket = json.loads(raw)
        if not isinstance(bucket, dict) or not all(
            isinstance(entry, dict)
            and isinstance(entry.get("chunks"), list)
            and isinstance(entry.get("shard"), str)
            for entry in bucket.values()
        ):
            raise ValueError("a bucket of its files is not a table of entries")
        files.update(bucket)
    manifest["files"] = dict(sorted(files.items()))
    manifest["gaps"] = sorted(cid for entry in files.values() for cid in entry.get("gaps", ()))
    return manifest


def shard_file(name: str) -> str:
    """The repository path of the chunks of the file whose shard is ``name``."""
    return f"{SHARDS_SUBDIR}/{name}.jsonl"


def vector_file(name: str) -> str:
    """The repository path of the vectors of the file whose shard is ``name``."""
    return f"{VECTORS_SUBDIR}/{name}.npy"


def modal_file(name: str, modality: str) -> str:
    """The repository path of the ``modality`` vector of the moment whose shard is ``name``."""
    return f"{MODAL_SUBDIR}/{modality}/{name}.npy"


def modal_files(entry: Mapping[str, Any]) -> dict[str, str]:
    """``{modality: repository path}`` of the sidecar vectors a file's entry lists."""
    return {m: modal_file(entry["shard"], m) for m in entry.get("modal", ())}


def modal_fingerprint(modality: str, dim: int) -> str:
    """What identifies a modality's vector space: its name and dimension (the notebook's own model
    made the vectors, and memsearch knows no more of it than that)."""
    return hashlib.sha256(f"sidecar:{modality}:{dim}".encode()).hexdigest()[:16]


# -- chunks, shards and vectors ----------------------------------------------------------------


def chunk_to_json(chunk_id: int, chunk: Chunk, **extra: Any) -> str:
    """One chunk as a JSON object (keys sorted), its id and ``extra`` keys beside its fields."""
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
    # Written only where set (notebook moments): every other chunk's line stays as it was.
    if chunk.importance is not None:
        data["importance"] = chunk.importance
    if chunk.decay_rate is not None:
        data["decay_rate"] = chunk.decay_rate
    return json.dumps(data, ensure_ascii=False, sort_keys=True)


def chunk_from_json(line: str | bytes) -> tuple[int, Chunk]:
    """``(id, chunk)`` from a line :func:`chunk_to_json` wrote (extra keys such as the embed hash dropped)."""
    data = json.loads(line)
    if not isinstance(data, dict):
        raise ValueError(f"a line of the shard is {type(data).__name__}, not a chunk")
    chunk_id = data.pop("id")
    data.pop("embed_sha256", None)
    data["timestamp"] = datetime.fromisoformat(data["timestamp"]) if data["timestamp"] else None
    data["entities"] = tuple(data["entities"])
    return chunk_id, chunk_from_fields(data)


def encode_shard(entries: Iterable[tuple[int, Chunk, str]]) -> bytes:
    """One file's chunks as JSON lines: ``(id, chunk, sha256 of the embedded text)`` each."""
    return "".join(chunk_to_json(cid, c, embed_sha256=sha) + "\n" for cid, c, sha in entries).encode("utf-8")


def decode_shard(data: bytes) -> list[tuple[int, Chunk]]:
    """``(id, chunk)`` of every line of a shard, in shard order."""
    return [chunk_from_json(line) for line in data.splitlines() if line.strip()]


def encode_vectors(matrix: np.ndarray) -> bytes:
    """A file's vectors as ``.npy`` bytes (float32, C order, no pickle)."""
    buf = io.BytesIO()
    np.save(buf, np.ascontiguousarray(matrix, dtype=np.float32), allow_pickle=False)
    return buf.getvalue()


def decode_vectors(data: bytes, dim: int) -> np.ndarray:
    """The matrix of a vectors file; ValueError unless it is (n, ``dim``) float32 and finite."""
    try:
        matrix = np.load(io.BytesIO(data), allow_pickle=False)
    except (ValueError, EOFError, OSError) as exc:  # numpy's words ("allow_pickle=True") are no advice here
        raise ValueError(f"not a .npy array of vectors ({type(exc).__name__})") from exc
    if matrix.ndim != 2 or matrix.shape[1] != dim or matrix.dtype != np.float32:
        raise ValueError(f"vectors of shape {matrix.shape} ({matrix.dtype}), expected (n, {dim}) float32")
    if not np.isfinite(matrix).all():
        raise ValueError("vectors hold NaN or infinite values")
    return matrix


def embed_sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def shape_of(manifest: Mapping[str, Any]) -> Settings:
    """The Settings a manifest's chunks were indexed with (for the fields that shape the index)."""
    saved = manifest.get("index_settings") or {}
    return replace(Settings(), **{k: saved[k] for k in SHAPE_FIELDS if k in saved})


def vector_rows(entry: Mapping[str, Any]) -> list[int]:
    """The chunk ids of a file that have a vector row, in row order."""
    gaps = set(entry.get("gaps", ()))
    return [cid for cid in entry["chunks"] if cid not in gaps]
