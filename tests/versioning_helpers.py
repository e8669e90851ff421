"""Shared by the versioning, incremental, reindex, watch and crash tests."""

from __future__ import annotations

import subprocess
from pathlib import Path

from memsearch.api import open_index

NOW = "2025-04-01T12:00:00+00:00"
QUERIES = (
    "signing keys",
    "sign_ed25519",
    "who is Ed",
    "zebracorn",
    "what happened in March 2025",
    "Redflag maintainer",
    "key ceremony",
)


def results(vault: Path, index_dir: Path | None = None, at: str | None = None, engine=None) -> list:
    """Every query's ranked chunks (path, lines, score, ...), without timings: comparable across runs."""
    engine = engine or open_index(vault, index_dir=index_dir, at=at)
    out = []
    for q in QUERIES:
        response = engine.search(q, k=8, now=NOW, chunks=True)
        out.append([r.to_dict() for r in response.results])
    return out


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True).stdout


def repo_of(vault: Path) -> Path:
    return vault / ".memsearch" / "repo"


def committed_state(vault: Path) -> dict:
    """The manifest (minus when/where) and every shard and vector file at HEAD, by path."""
    repo = repo_of(vault)
    from memsearch.index import loading
    from memsearch.index.versioning import IndexRepo

    index_repo = IndexRepo(repo.parent)
    manifest = loading.committed_manifest(index_repo, index_repo.head())
    for key in ("built_at", "vault"):
        manifest.pop(key, None)
    files = {}
    for line in git(repo, "ls-tree", "-r", "HEAD").splitlines():
        meta, path = line.split("\t", 1)
        files[path] = meta.split()[2]
    files.pop("manifest.json")
    return {"manifest": manifest, "files": files}


def write(vault: Path, rel: str, text: str) -> None:
    path = vault / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
