"""Do the answers depend on the path the index took? A clean build against an incremental history.

    python eval/paths.py                                  # SciFact as a vault, MiniLM, 300 queries
    python eval/paths.py --embedder hash:384              # the bench's bag-of-words stand-in (fast)
    python eval/paths.py --exact-max-rows 0               # force every semantic query onto the HNSW graph

The vault is the BEIR SciFact corpus (``../shared/eval-data/beir-scifact``, read only), one markdown
file per document, written under ``--work-dir`` (never into the repository). It is indexed two ways
that end at the same vault state:

- incremental: half the documents (some with an earlier text, some under an earlier name, plus
  drafts that are deleted later), then a quarter more with half the edits and renames settled,
  then the final state (every document, final text and name, drafts gone) -- three index runs;
- clean: the final vault indexed once into a fresh index home.

Both homes share one embedding cache (copied in before each run, back after), so only the first
run of all embeds. Then, for ``--queries`` SciFact claims, the semantic-only and the fused top-10
lists of both indexes are compared as (path, start line, end line) lists, twice: after the index
runs, and after ``reindex`` (the cron job, which rebuilds a graph that the runs patched) of the
incremental home. The counts that differ are printed; after the reindex they must be 0.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import time
from pathlib import Path
from typing import Any

EVAL_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(EVAL_DIR))

from beir import read_jsonl  # noqa: E402  (eval/'s modules, as run.py imports them)
from harness import sync_vault  # noqa: E402

DEFAULT_DATA = EVAL_DIR.parent.parent / "shared" / "eval-data" / "beir-scifact"
DEFAULT_WORK = EVAL_DIR / ".cache" / "paths"


def note(doc: dict, variant: str = "") -> str:
    """One SciFact document as a markdown note; ``variant`` marks an earlier text of it."""
    body = doc["text"]
    if variant:
        # An earlier draft: the first sentence missing and a line that the final text drops.
        body = body.partition(". ")[2] or body
        body = f"{body}\n\nDraft {variant}: to be checked against the full paper."
    return f"# {doc['title']}\n\n{body}\n"


def name(doc: dict, old: bool = False) -> str:
    doc_id = doc["_id"]
    return f"papers/{int(doc_id) % 16:02d}/{'old-' if old else ''}{doc_id}.md"


def states(docs: list[dict], seed: int) -> list[dict[str, str]]:
    """The incremental history: three vault states, the last being the final (clean) vault."""
    rng = random.Random(seed)
    order = docs[:]
    rng.shuffle(order)
    n = len(order)
    first, second = order[: n // 2], order[: 3 * n // 4]
    edited = {d["_id"] for d in rng.sample(first, len(first) // 10)}
    renamed = {d["_id"] for d in rng.sample(first, len(first) // 20)}
    drafts = rng.sample(order, 100)

    def file_map(part: list[dict], edits: set[str], renames: set[str], extra: bool) -> dict[str, str]:
        files = {name(d, d["_id"] in renames): note(d, "a" if d["_id"] in edits else "") for d in part}
        if extra:
            for d in drafts:
                files[f"drafts/{d['_id']}.md"] = note(d, "draft")
        return files

    half = lambda ids: set(sorted(ids)[: len(ids) // 2])  # noqa: E731
    return [
        file_map(first, edited, renamed, extra=True),
        file_map(second, half(edited), half(renamed), extra=True),
        file_map(order, set(), set(), extra=False),
    ]


def index(vault: Path, home: Path, cache: Path, embedder: str) -> dict:
    from memsearch.api import index_vault

    target = home / "cache" / "embeddings.sqlite"
    target.parent.mkdir(parents=True, exist_ok=True)
    if cache.exists():
        shutil.copyfile(cache, target)
    t = time.perf_counter()
    report = index_vault(vault, index_dir=home, embedder=embedder)
    seconds = time.perf_counter() - t
    shutil.copyfile(target, cache)
    return {"seconds": round(seconds, 1), "report": str(report)[:200]}


def top(engine: Any, query: str, strategies: tuple[str, ...] | None) -> list[tuple]:
    response = engine.search(query, k=10, strategies=strategies, chunks=True, all_results=True)
    return [(r.path, r.start_line, r.end_line) for r in response.results]


def compare(a: Any, b: Any, queries: list[str]) -> tuple[dict[str, int], list[dict]]:
    """How many semantic and fused top-10 lists differ between two indexes, and a few examples."""
    differ = {"semantic": 0, "fused": 0}
    examples: list[dict] = []
    for query in queries:
        for label, strategies in (("semantic", ("semantic",)), ("fused", None)):
            left, right = top(a, query, strategies), top(b, query, strategies)
            if left != right:
                differ[label] += 1
                if len(examples) < 3:
                    examples.append({"query": query, "list": label, "incremental": left, "clean": right})
    return differ, examples


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--work-dir", type=Path, default=DEFAULT_WORK)
    parser.add_argument("--embedder", default="minilm")
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--exact-max-rows", type=int, default=None, help="override vectors.EXACT_MAX_ROWS")
    args = parser.parse_args()

    if args.embedder.startswith("hash"):
        import bench

        bench.register_standin()
    if args.exact_max_rows is not None:
        from memsearch.index import vectors

        vectors.EXACT_MAX_ROWS = args.exact_max_rows
    from memsearch.api import Memsearch

    docs = read_jsonl(args.data / "corpus.jsonl")
    queries = [q["text"] for q in read_jsonl(args.data / "queries.jsonl")][: args.queries]
    work = args.work_dir
    vault, cache = work / "vault", work / f"embeddings-{args.embedder.replace(':', '-')}.sqlite"
    incremental, clean = work / "home-incremental", work / "home-clean"
    for folder in (vault, incremental, clean):
        shutil.rmtree(folder, ignore_errors=True)
    vault.mkdir(parents=True)

    runs = []
    for step, files in enumerate(states(docs, args.seed), start=1):
        sync_vault(vault, files, managed_dirs=["papers", "drafts"])
        runs.append(("incremental", step, len(files), index(vault, incremental, cache, args.embedder)))
    runs.append(("clean", 1, len(files), index(vault, clean, cache, args.embedder)))
    for kind, step, n_files, run in runs:
        print(f"{kind} run {step}: {n_files} files, {run['seconds']} s", file=sys.stderr)

    b = Memsearch(vault, index_dir=clean)
    a = Memsearch(vault, index_dir=incremental)
    chunks = (len(a.index.chunks), len(b.index.chunks))
    vectors_n = (len(a.index.vectors), len(b.index.vectors))
    differ_runs, _ = compare(a, b, queries)
    from memsearch.api import reindex

    t = time.perf_counter()
    report = reindex(vault, index_dir=incremental)
    print(
        f"reindex: {time.perf_counter() - t:.1f} s ({'; '.join(report.notes) or 'nothing to do'})",
        file=sys.stderr,
    )
    differ, examples = compare(Memsearch(vault, index_dir=incremental), b, queries)
    from memsearch.index import vectors

    out = {
        "embedder": args.embedder,
        "exact_max_rows": vectors.EXACT_MAX_ROWS,
        "chunks (incremental, clean)": chunks,
        "vectors (incremental, clean)": vectors_n,
        "queries": len(queries),
        "differ after the index runs": differ_runs,
        "differ after reindex": differ,
        "examples": examples,
    }
    print(json.dumps(out, indent=1))
    return 0 if not any(differ.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
