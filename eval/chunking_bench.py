"""Chunking throughput: what an index run spends on each file before the embedder, side by side.

    python eval/chunking_bench.py                          # this checkout, the generated 10k vault
    python eval/chunking_bench.py --compare b5cb2cb        # and another commit's engine, interleaved
    python eval/chunking_bench.py --vault ../shared/eval-data/agent-vault/vault

One pass reads every markdown file of the vault, chunks it (``chunk_file``) and makes each chunk's
keyword terms (``file_keyword_terms``: tokenizing, stemming, the neighbours' context): the per-file
work of an index run that does not depend on the embedder. Each engine runs in a process of its own
(``--compare`` exports the commit's ``memsearch`` package with ``git archive``); the passes of the
engines alternate, so a machine's drift falls on both alike. Printed: the median CPU seconds of a
pass per engine, and each engine's ratio to the first. The vault defaults to ``eval/synth.py``'s
(10,000 chunks, every territory), generated into the cache.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

EVAL_DIR = Path(__file__).resolve().parent
REPO_ROOT = EVAL_DIR.parent
sys.path.insert(0, str(EVAL_DIR))

from bench import export_ref  # noqa: E402  (eval/'s modules, as run.py imports them)

DEFAULT_CACHE = EVAL_DIR / ".cache"

#: One pass in a child process: the per-file work before the embedder, CPU seconds on stdout.
PASS = """
import sys, time
from pathlib import Path
from memsearch.chunkers import chunk_file
from memsearch.config import Settings
from memsearch.index.keyword_terms import file_keyword_terms
vault = Path(sys.argv[1])
settings = Settings().with_vault_config(vault)
paths = sorted(vault.rglob("*.md"))
files = [(p.relative_to(vault).as_posix(), p.read_text(encoding="utf-8")) for p in paths]
for _ in range(int(sys.argv[2])):
    started = time.process_time()
    chunks = 0
    for rel, text in files:
        parsed = chunk_file(rel, text, settings)
        file_keyword_terms(list(parsed.chunks), settings)
        chunks += len(parsed.chunks)
    print(time.process_time() - started, len(files), chunks, flush=True)
"""


def generated_vault(cache: Path, chunks: int) -> Path:
    import synth

    root = cache / f"chunking-vault-{chunks}"
    if not (root / ".done").exists():
        synth.generate(root, chunks)
        (root / ".done").write_text("")
    return root


def with_speedups(tree: Path) -> str:
    """Give an exported engine this checkout's compiled twins when its C source is the same (an
    export holds sources only); say which twins it runs."""
    built = sorted((REPO_ROOT / "memsearch").glob("_speedups*.so"))
    theirs = tree / "memsearch" / "_speedups.c"
    if (
        built
        and theirs.exists()
        and theirs.read_bytes() == (REPO_ROOT / "memsearch" / "_speedups.c").read_bytes()
    ):
        for so in built:
            target = tree / "memsearch" / so.name
            if not target.exists():
                target.write_bytes(so.read_bytes())
        return "compiled"
    return "compiled" if list((tree / "memsearch").glob("_speedups*.so")) else "python"


def one_pass(code: Path, vault: Path) -> tuple[float, int, int]:
    env = {**os.environ, "PYTHONPATH": str(code)}  # MEMSEARCH_NO_SPEEDUPS passes through
    out = subprocess.run(
        [sys.executable, "-c", PASS, str(vault), "1"], env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    return float(out[0]), int(out[1]), int(out[2])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vault", type=Path, help="a vault folder (default: the generated 10k vault)")
    parser.add_argument("--chunks", type=int, default=10_000, help="size of the generated vault")
    parser.add_argument("--passes", type=int, default=9, help="passes per engine (alternating)")
    parser.add_argument("--compare", metavar="REF", action="append", default=[], help="another commit")
    parser.add_argument("--cache-dir", type=Path, default=DEFAULT_CACHE)
    args = parser.parse_args(argv)
    vault = args.vault.resolve() if args.vault else generated_vault(args.cache_dir, args.chunks)
    engines = [("this checkout", REPO_ROOT)]
    twins = {"this checkout": with_speedups(REPO_ROOT)}
    for ref in args.compare:
        tree, sha = export_ref(ref, args.cache_dir)
        engines.append((sha[:12], tree))
        twins[sha[:12]] = with_speedups(tree)
    seconds: dict[str, list[float]] = {name: [] for name, _ in engines}
    sizes: dict[str, tuple[int, int]] = {}
    for n in range(args.passes):
        for name, code in engines if n % 2 == 0 else engines[::-1]:
            cpu, files, chunks = one_pass(code, vault)
            seconds[name].append(cpu)
            sizes[name] = (files, chunks)
    first = statistics.median(seconds[engines[0][0]])
    print(f"vault {vault} ({args.passes} passes each, CPU seconds per pass)\n")
    print("| engine | twins | files / chunks | median s | min s | chunks/s | ratio to this checkout |")
    print("|---|---|---|---|---|---|---|")
    for name, _ in engines:
        median = statistics.median(seconds[name])
        files, chunks = sizes[name]
        print(
            f"| {name} | {twins[name]} | {files:,} / {chunks:,} | {median:.3f} | {min(seconds[name]):.3f} "
            f"| {chunks / median:,.0f} | {median / first:.3f} |"
        )
    print("\n" + json.dumps({"vault": str(vault), "seconds": seconds}), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
