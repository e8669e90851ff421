"""Measure memsearch's retrieval quality and speed on a LoCoMo-format or BEIR-format dataset.

    python eval/run.py locomo [--data PATH] [--limit-conversations N] [--limit-questions N] [--strategies ...]
    python eval/run.py beir   [--data PATH] [--limit-queries N] [--limit-docs N]
    python eval/run.py vault  [--data FOLDER] [--classes ...] [--runs ...]
    python eval/run.py fleet  [--vaults N] [--chunks N] [--queries N]   (needs the milvus extra)

Every subcommand takes ``--set key=value`` (repeatable) to override a ``memsearch.config.Settings`` field,
so a chunking or fusion change can be measured against the defaults. See eval/README.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import beir
import fleet
import harness
import locomo
import vault

DEFAULT_DATA = harness.REPO_ROOT.parent / "shared" / "eval-data"


def positive_int(value: str) -> int:
    n = int(value)
    if n <= 0:
        raise argparse.ArgumentTypeError("must be a positive integer")
    return n


def common(parser: argparse.ArgumentParser, strategies: bool = True) -> None:
    if strategies:
        parser.add_argument(
            "--strategies",
            nargs="+",
            choices=harness.RUNS,
            default=list(harness.RUNS),
            help="runs to measure: each strategy alone and/or 'fused' (default: all five)",
        )
    parser.add_argument(
        "--set",
        action="append",
        metavar="KEY=VALUE",
        default=[],
        help="override a Settings field, e.g. --set context_neighbours=0 --set strategy_weights.graph=0.5",
    )
    parser.add_argument(
        "--cache-dir", default=str(harness.DEFAULT_CACHE_DIR), help="vaults and indexes (reused)"
    )
    parser.add_argument(
        "--reindex", action="store_true", help="rebuild the indexes even if the cached ones are current"
    )
    parser.add_argument("--out", default=str(harness.DEFAULT_RESULTS_DIR), help="folder for the results JSON")
    parser.add_argument(
        "--per-query", action="store_true", help="also write every query's outcome to the JSON"
    )
    parser.add_argument(
        "--backend",
        help="where keyword and vector search run: milvus://HOST:PORT or a Milvus Lite PATH.db, with"
        " ?layout=per-vault|shared (default: the built-in indexes); docs/milvus.md",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="eval/run.py", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="dataset", required=True)

    lo = sub.add_parser("locomo", help="conversational memory: any@5, any@10, any@300w per category")
    lo.add_argument(
        "--data", default=str(DEFAULT_DATA / "locomo"), help="LoCoMo JSON file, or a folder with one"
    )
    lo.add_argument("--limit-conversations", type=positive_int, help="only the first N conversations")
    lo.add_argument("--limit-questions", type=positive_int, help="only the first N questions (in total)")
    lo.add_argument(
        "--no-adversarial", action="store_true", help="skip category 5 (reported apart otherwise)"
    )
    lo.add_argument("--k", type=positive_int, default=locomo.SEARCH_K, help="results asked per query")
    common(lo)
    lo.set_defaults(func=locomo.main)

    be = sub.add_parser("beir", help="document retrieval: nDCG@10 and recall@100")
    be.add_argument(
        "--data", default=str(DEFAULT_DATA / "beir-scifact"), help="BEIR folder (corpus.jsonl, ...)"
    )
    be.add_argument("--split", default="test", help="qrels/<split>.tsv (default: test)")
    be.add_argument("--limit-queries", type=positive_int, help="only the first N judged queries")
    be.add_argument(
        "--limit-docs",
        type=positive_int,
        help="index only the chosen queries' relevant docs plus N others (fast, not comparable to BEIR)",
    )
    common(be)
    be.set_defaults(func=beir.main)

    va = sub.add_parser("vault", help="an agent's vault: hit@1/3/10 and MRR@10 by question class, ablations")
    va.add_argument(
        "--data",
        help="a folder with vault/ and queries.jsonl (default: the vault eval/ownvault generates)",
    )
    va.add_argument("--classes", nargs="+", choices=vault.CLASSES, help="only these question classes")
    va.add_argument("--limit-queries", type=positive_int, help="only the first N questions")
    va.add_argument(
        "--runs",
        nargs="+",
        choices=vault.RUNS,
        default=list(vault.RUNS),
        help="fused, each strategy alone, fused without one (no-graph ...); default: all nine",
    )
    va.add_argument(
        "--why",
        nargs="+",
        metavar="ID",
        default=[],
        help="also show how the fused ranking placed these questions (each list's rank, weight and"
        " part of the score, as `memsearch search --explain`, and its contribution to the fused"
        " score that ranked it), e.g. --why pa-09 al-21",
    )
    common(va, strategies=False)
    va.set_defaults(func=vault.main)

    fl = sub.add_parser(
        "fleet",
        help="many vaults in one Milvus collection: latency filtered by vault, isolation (docs/milvus.md)",
    )
    fl.add_argument("--vaults", type=positive_int, default=100, help="vaults in the collection")
    fl.add_argument("--chunks", type=positive_int, default=1000, help="chunks per vault (pool subset)")
    fl.add_argument("--queries", type=positive_int, default=10, help="queries per vault (keyword + vector)")
    fl.add_argument(
        "--cache-dir",
        default=str(harness.DEFAULT_CACHE_DIR),
        help="cached indexes and the fleet",
    )
    fl.add_argument("--out", default=str(harness.DEFAULT_RESULTS_DIR), help="folder for the results JSON")
    fl.set_defaults(func=fleet.main)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    args.func(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
