"""Measure the versioned index: repository growth under one-file updates, and update_file latency.

    python eval/versioning_bench.py growth --files 1000 --updates 100
    python eval/versioning_bench.py latency --files 10000 --updates 20
    python eval/versioning_bench.py all          # both, with the defaults above

Vaults are generated here (dated journal files, reference pages with aliases and wikilinks, notes;
three or four sections each), from a seed. Vectors come from a deterministic stand-in embedder
(``hash``: 384 float32 dimensions from the text's hash, as incompressible as a real model's) so
the measurement takes seconds, not the 316 s MiniLM needs for 1,000 files here; ``--embedder
minilm`` measures with the real one.

growth: index the vault, pack the repository, then change one random file per update (a line
appended) and run an incremental index of it (one commit each). Reports the repository's growth
against the bytes of the updated files' shards and vectors (what those updates added, counted
once per update), after the automatic packing and after a final ``git gc``.

latency: index the vault, load it, then per update append a line with a unique word to a random
file and call ``Memsearch.update_file``: the call's time, the time until a keyword search finds
the word (the same moment: the call returns after the in-memory update), and the time until the
background commits (chunks, then vectors) are done.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from hashlib import sha256
from pathlib import Path
from typing import Any

import numpy as np

WORDS = [
    "key",
    "signing",
    "audit",
    "release",
    "token",
    "ceremony",
    "vault",
    "memory",
    "garden",
    "river",
    "market",
    "letter",
    "winter",
    "harbor",
    "lantern",
    "meeting",
    "budget",
    "quarter",
    "review",
    "sprint",
    "library",
    "museum",
    "bridge",
    "kitchen",
    "recipe",
    "journey",
    "train",
    "station",
    "paper",
    "draft",
    "proposal",
    "contract",
    "invoice",
    "ledger",
    "coffee",
    "morning",
    "evening",
    "weekend",
    "holiday",
    "project",
    "roadmap",
    "decision",
    "question",
    "answer",
    "problem",
    "solution",
    "server",
    "backup",
    "network",
    "storage",
]
PEOPLE = ("Mara Lin", "Ed Kowalski", "Ada Park", "Tomas Berg", "Ines Duarte", "Kofi Mensah")


class HashEmbedder:
    """A deterministic stand-in: 384 dimensions from the text's sha256, normalised."""

    name = "hash"
    spec = "hash"
    dim = 384
    fingerprint = "hash-384-v1"
    call_size = 64

    def embed_documents(self, texts, progress=None):
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            seed = int.from_bytes(sha256(text.encode()).digest()[:8], "little")
            v = np.random.default_rng(seed).standard_normal(self.dim).astype(np.float32)
            out[i] = v / np.linalg.norm(v)
        return out

    def embed_query(self, text):
        return self.embed_documents([text])[0]


def register_hash_embedder() -> None:
    from memsearch.embedders import registry as embedding

    instance = HashEmbedder()
    embedding.EMBEDDERS["hash"] = lambda option, **options: instance


def generate(root: Path, files: int, seed: int = 1) -> list[str]:
    """A vault of ``files`` markdown files; returns their vault-relative paths."""
    rng = random.Random(seed)
    paths = []

    def para(n: int) -> str:
        words = [rng.choice(WORDS) for _ in range(n)]
        if rng.random() < 0.5:
            words.insert(rng.randrange(len(words)), rng.choice(PEOPLE))
        if rng.random() < 0.3:
            words.append(f"[[topic-{rng.randrange(max(1, files // 10))}]]")
        return " ".join(words).capitalize() + "."

    for i in range(files):
        kind = i % 10
        if kind < 6:
            day = 1_704_067_200 + i * 86_400 // 3
            date = time.strftime("%Y-%m-%d", time.gmtime(day))
            rel = f"journal/{date[:4]}/{date}-{i:05d}.md"
            body = f"# {date}\n\n" + "\n\n".join(f"## {date} entry {j}\n\n{para(50)}" for j in range(3))
        elif kind < 8:
            rel = f"reference/topic-{i // 10}.md"
            alias = f"T{i // 10}"
            body = (
                f"---\ntitle: Topic {i // 10}\naliases: [{alias}]\ntags: [reference]\n---\n"
                f"# Topic {i // 10}\n\n" + "\n\n".join(f"## Section {j}\n\n{para(60)}" for j in range(4))
            )
        else:
            rel = f"notes/note-{i:05d}.md"
            body = f"# Note {i}\n\n" + "\n\n".join(f"## Part {j}\n\n{para(40)}" for j in range(3))
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body + "\n", encoding="utf-8")
        paths.append(rel)
    return paths


def _pcts(values: list[float]) -> dict[str, float]:
    values = sorted(values)
    return {
        "p50": round(statistics.median(values), 2),
        "p95": round(values[min(len(values) - 1, int(0.95 * len(values)))], 2),
        "max": round(values[-1], 2),
    }


@contextlib.contextmanager
def built_vault(files: int, embedder: str, seed: int) -> Iterator[tuple[Path, list[str], Any, float]]:
    """A generated vault in a temporary folder, indexed once: (vault, its paths, report, seconds)."""
    from memsearch.api import index_vault

    work = Path(tempfile.mkdtemp(prefix="memsearch-versioning-"))
    try:
        vault = work / "vault"
        paths = generate(vault, files, seed)
        t = time.perf_counter()
        first = index_vault(vault, embedder=embedder)
        build_s = time.perf_counter() - t
        assert first.gaps == 0, first.embedder_error
        yield vault, paths, first, build_s
    finally:
        shutil.rmtree(work, ignore_errors=True)


def growth(files: int, updates: int, embedder: str, seed: int = 1) -> dict:
    from memsearch.api import index_vault
    from memsearch.index import loading
    from memsearch.index.format import shard_file, vector_file
    from memsearch.index.versioning import IndexRepo

    with built_vault(files, embedder, seed) as (vault, paths, first, build_s):
        repo = IndexRepo(vault / ".memsearch")
        repo.git("gc", "-q")
        start = repo.size_bytes()
        rng = random.Random(seed + 1)
        added_bytes, commits, seconds = 0, 0, []
        for n in range(updates):
            rel = rng.choice(paths)
            with open(vault / rel, "a", encoding="utf-8") as fh:
                fh.write(f"\nUpdate {n}: the {rng.choice(WORDS)} moved on.\n")
            t = time.perf_counter()
            report = index_vault(vault, embedder=embedder, paths=[rel])
            seconds.append((time.perf_counter() - t) * 1000.0)
            commits += report.commit is not None
            entry = loading.read_manifest(repo.home)["files"][rel]
            added_bytes += (repo.path / shard_file(entry["shard"])).stat().st_size
            vec = repo.path / vector_file(entry["shard"])
            added_bytes += vec.stat().st_size if vec.exists() else 0
        auto = repo.size_bytes() - start
        repo.git("gc", "-q")
        packed = repo.size_bytes() - start
        return {
            "files": files,
            "chunks": first.chunks,
            "updates": updates,
            "commits": commits,
            "initial_build_s": round(build_s, 1),
            "repo_bytes_after_build_gc": start,
            "updated_files_shards_and_vectors_bytes": added_bytes,
            "growth_bytes_auto_packed": auto,
            "growth_ratio_auto_packed": round(auto / added_bytes, 2),
            "growth_bytes_after_gc": packed,
            "growth_ratio_after_gc": round(packed / added_bytes, 2),
            "update_ms": _pcts(seconds),
        }


def latency(files: int, updates: int, embedder: str, seed: int = 1) -> dict:
    from memsearch.api import index_vault, open_index

    with built_vault(files, embedder, seed) as (vault, paths, first, build_s):
        t = time.perf_counter()
        noop = index_vault(vault, embedder=embedder)
        assert noop.commit is None
        noop_s = time.perf_counter() - t
        t = time.perf_counter()
        engine = open_index(vault)
        load_s = time.perf_counter() - t
        rng = random.Random(seed + 2)
        call_ms, visible_ms, committed_ms = [], [], []
        for n in range(updates):
            rel = rng.choice(paths)
            word = f"zq{n:03d}marker"
            with open(vault / rel, "a", encoding="utf-8") as fh:
                fh.write(f"\nA new line naming {word} and {rng.choice(PEOPLE)}.\n")
            t = time.perf_counter()
            engine.update_file(rel)
            call_ms.append((time.perf_counter() - t) * 1000.0)
            hits = engine.search(word, k=1, strategies=["keyword"]).results
            visible_ms.append((time.perf_counter() - t) * 1000.0)
            assert hits and hits[0].path == rel, (word, rel, hits)
            assert engine.wait_for_embeddings(300), engine.last_error
            committed_ms.append((time.perf_counter() - t) * 1000.0)
        engine.close()
        return {
            "files": files,
            "chunks": first.chunks,
            "updates": updates,
            "initial_build_s": round(build_s, 1),
            "noop_reindex_s": round(noop_s, 2),
            "open_index_s": round(load_s, 2),
            "update_file_call_ms": _pcts(call_ms),
            "keyword_searchable_ms": _pcts(visible_ms),
            "both_commits_and_vectors_ms": _pcts(committed_ms),
        }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("growth", "latency", "all"))
    parser.add_argument("--files", type=int, default=None)
    parser.add_argument("--updates", type=int, default=None)
    parser.add_argument("--embedder", default="hash", help="hash (stand-in, fast) or a real spec (minilm)")
    parser.add_argument("--out", help="Also write the JSON here.")
    args = parser.parse_args(argv)
    if args.embedder == "hash":
        register_hash_embedder()
    out = {}
    if args.what in ("growth", "all"):
        out["growth"] = growth(args.files or 1000, args.updates or 100, args.embedder)
        print(json.dumps(out["growth"], indent=1), flush=True)
    if args.what in ("latency", "all"):
        out["latency"] = latency(args.files or 10_000, args.updates or 20, args.embedder)
        print(json.dumps(out["latency"], indent=1), flush=True)
    if args.out:
        Path(args.out).write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
