"""The index on disk: plain files in one folder, written whole and swapped in atomically.

    manifest.json      format version, embedder fingerprint, build time, files and their hashes,
                       skipped files with reasons, embedding gaps
    chunks.jsonl       the chunk table, one chunk per line, sorted by id
    keyword.npz        BM25 postings
    graph.json         chunk -> entity keys, aliases
    vector_ids.npy     chunk ids that have a vector, sorted
    vectors.npy        their vectors (float32, L2-normalised)
    hnsw.bin, .key     the HNSW graph: a cache of the two files above, rebuilt when it does not match

Files are owner-only: a memory index holds everything the agent has lived through.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from memsearch.errors import IndexCorruptError, IndexMissingError
from memsearch.index.graph import EntityGraph
from memsearch.index.keyword import KeywordIndex
from memsearch.index.temporal import TimeIndex
from memsearch.index.vectors import VectorIndex
from memsearch.models import Chunk

FORMAT_VERSION = 1
INDEX_SUBDIR = "index"
CACHE_SUBDIR = "cache"


def default_home(vault: Path) -> Path:
    """Where a vault's index lives: ``$MEMSEARCH_HOME/<name>-<hash>`` if set, else ``vault/.memsearch``."""
    home = os.environ.get("MEMSEARCH_HOME")
    if home:
        import hashlib

        tag = hashlib.sha256(str(vault.resolve()).encode()).hexdigest()[:10]
        return Path(home).expanduser() / f"{vault.resolve().name}-{tag}"
    return vault / ".memsearch"


def private_dir(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(path, 0o700)
    return path


@dataclass
class IndexData:
    """Everything a search needs, in memory."""

    chunks: dict[int, Chunk]
    keyword: KeywordIndex
    graph: EntityGraph
    time: TimeIndex
    vectors: VectorIndex | None
    manifest: dict[str, Any] = field(default_factory=dict)

    @property
    def n_ids(self) -> int:
        return (max(self.chunks) + 1) if self.chunks else 0


def chunk_to_json(chunk_id: int, chunk: Chunk) -> str:
    data = asdict(chunk)
    data["id"] = chunk_id
    data["timestamp"] = chunk.timestamp.isoformat() if chunk.timestamp else None
    data["entities"] = list(chunk.entities)
    return json.dumps(data, ensure_ascii=False, sort_keys=True)


def chunk_from_json(line: str) -> tuple[int, Chunk]:
    data = json.loads(line)
    chunk_id = data.pop("id")
    data["timestamp"] = datetime.fromisoformat(data["timestamp"]) if data["timestamp"] else None
    data["entities"] = tuple(data["entities"])
    return chunk_id, Chunk(**data)


def save(index_home: Path, data: IndexData) -> None:
    """Write the whole index to a staging folder, then swap it in (a crash leaves the old one)."""
    private_dir(index_home)
    target = index_home / INDEX_SUBDIR
    staging = index_home / f".staging-{os.getpid()}"
    if staging.exists():
        shutil.rmtree(staging)
    private_dir(staging)
    with open(staging / "chunks.jsonl", "w", encoding="utf-8") as fh:
        for chunk_id in sorted(data.chunks):
            fh.write(chunk_to_json(chunk_id, data.chunks[chunk_id]) + "\n")
    data.keyword.save(staging / "keyword.npz")
    data.graph.save(staging / "graph.json")
    if data.vectors is not None:
        data.vectors.save(staging)
    data.manifest["format"] = FORMAT_VERSION
    # The manifest goes last: its presence marks a complete index.
    (staging / "manifest.json").write_text(
        json.dumps(data.manifest, indent=1, sort_keys=True, ensure_ascii=False)
    )
    for child in staging.iterdir():
        os.chmod(child, 0o600)
    old = index_home / f".old-{os.getpid()}"
    if target.exists():
        target.rename(old)
    staging.rename(target)
    if old.exists():
        shutil.rmtree(old, ignore_errors=True)


def load(index_home: Path) -> IndexData:
    folder = index_home / INDEX_SUBDIR
    manifest_path = folder / "manifest.json"
    if not manifest_path.exists():
        raise IndexMissingError(f"no index at {index_home}; run `memsearch index VAULT` first")
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        if manifest.get("format") != FORMAT_VERSION:
            raise IndexCorruptError(
                f"index at {folder} has format {manifest.get('format')},"
                f" this memsearch reads {FORMAT_VERSION};"
                " run `memsearch index VAULT`"
            )
        chunks: dict[int, Chunk] = {}
        with open(folder / "chunks.jsonl", encoding="utf-8") as fh:
            for line in fh:
                chunk_id, chunk = chunk_from_json(line)
                chunks[chunk_id] = chunk
        keyword = KeywordIndex.load(folder / "keyword.npz")
        graph = EntityGraph.load(folder / "graph.json")
        time = TimeIndex()
        for chunk_id, chunk in chunks.items():
            time.set(chunk_id, chunk.timestamp, timeless=chunk.fact_type == "world")
        vectors = None
        dim = manifest.get("embedder", {}).get("dim")
        if dim and (folder / "vectors.npy").exists():
            vectors = VectorIndex.load(folder, int(dim))
    except IndexMissingError:
        raise
    except IndexCorruptError:
        raise
    except (OSError, ValueError, KeyError, TypeError, json.JSONDecodeError) as exc:
        raise IndexCorruptError(
            f"index at {folder} cannot be read ({exc});"
            " run `memsearch index VAULT` to rebuild it from the vault"
        ) from exc
    if (
        isinstance(vectors, VectorIndex)
        and len(vectors)
        and np.isnan(next(iter(vectors._vectors.values()))).any()
    ):
        raise IndexCorruptError(f"index at {folder} holds invalid vectors; run `memsearch index VAULT`")
    return IndexData(chunks, keyword, graph, time, vectors, manifest)
