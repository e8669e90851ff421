"""Why memsearch does not depend on networkx, markdown-it-py, python-frontmatter or GitPython.

The design named them; this measures each against what memsearch does in its place, so the figures of
docs/dependencies.md can be rerun. None of them is a dependency of memsearch: install them first.

    pip install networkx markdown-it-py python-frontmatter gitpython
    python eval/deps_bench.py            # --nodes 100000 --edges 1000000 --chunks 20000

Times are CPU seconds (the fastest of a few runs where repeated), so a busy machine changes them less.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


# CPU seconds of this process (and its children), not wall time: the machines these run on are
# shared, and a busy neighbour stretched wall times ~3x on the run docs/dependencies.md reports.
_clock = time.process_time


def _best(fn, repeat: int = 3) -> float:
    """Fastest of ``repeat`` runs, in CPU seconds (the least disturbed by other work on the machine)."""
    times = []
    for _ in range(repeat):
        start = _clock()
        fn()
        times.append(_clock() - start)
    return min(times)


def graph(nodes: int, edges: int, seed: int = 1) -> None:
    import networkx as nx

    from memsearch.index.graph import EntityGraph

    rng = np.random.default_rng(seed)
    # networkx: the entity graph as nodes and weighted edges, ranked from a seed by personalised
    # PageRank (the design's "graph walk").
    a, b = rng.integers(0, nodes, edges), rng.integers(0, nodes, edges)
    pairs = list(zip(a.tolist(), b.tolist(), strict=True))

    def build() -> nx.Graph:
        g = nx.Graph()
        g.add_nodes_from(range(nodes))
        g.add_edges_from(pairs, weight=1.0)
        return g

    tracemalloc.start()  # the memory of one build (tracemalloc slows it: timed apart)
    g = build()
    held = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del g
    start = _clock()
    g = build()
    built = _clock() - start
    seed_node = int(a[0])
    ranks = {}
    try:  # nx.pagerank is scipy's sparse matrix code: scipy would be one more dependency
        import scipy  # noqa: F401

        ranks["pagerank (scipy)"] = nx.pagerank
    except ImportError:
        print("networkx: nx.pagerank needs scipy (not installed): timing only networkx's pure-Python one")
    ranks["pagerank (pure Python)"] = nx.algorithms.link_analysis.pagerank_alg._pagerank_python
    took = {}
    for name, rank in ranks.items():
        start = _clock()
        rank(g, personalization={seed_node: 1.0}, max_iter=100, tol=1e-6)
        took[name] = _clock() - start
    print(
        f"networkx {nx.__version__}: {g.number_of_nodes():,} nodes, {g.number_of_edges():,} edges:"
        f" built in {built:.1f} s, holding {held / 2**20:,.0f} MiB; one personalised "
        + ", ".join(f"{name} {t:.2f} s" for name, t in took.items())
    )
    del g

    # memsearch: the same scale as chunks naming entities (10 mentions a chunk from `nodes` entities,
    # Zipf-drawn so a few are hubs), walked from a seed of middling frequency.
    eg = EntityGraph()
    ranks = np.minimum(rng.zipf(1.3, (nodes, 10)), nodes) - 1
    for cid, row in enumerate(ranks.tolist()):
        eg.add(cid, [f"e{r}" for r in row])
    keys = sorted(eg._chunks, key=lambda k: len(eg._chunks[k]))
    seeds = [keys[len(keys) // 2], keys[int(len(keys) * 0.99)], keys[-1]]
    cold, warm = [], []
    for s in seeds:
        eg._changed(())  # a fresh graph: the seed's neighbours are counted again
        cold.append(_best(lambda s=s: (eg._changed(()), eg.walk([s], nodes)), repeat=3))
        eg.walk([s], nodes)
        warm.append(_best(lambda s=s: eg.walk([s], nodes), repeat=5))
    print(
        f"memsearch EntityGraph: {len(eg):,} chunks, {len(eg._chunks):,} entities; one walk (median, hub,"
        f" top hub): {', '.join(f'{t * 1e3:.1f}' for t in cold)} ms uncached,"
        f" {', '.join(f'{t * 1e3:.2f}' for t in warm)} ms cached"
    )


def markdown_and_frontmatter(chunks: int) -> None:
    import frontmatter
    from markdown_it import MarkdownIt
    from synth import generate

    from memsearch.chunkers import chunk_file
    from memsearch.chunkers.frontmatter import split_frontmatter
    from memsearch.config import Settings

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        generate(root, chunks=chunks, seed=1)
        files = {p.relative_to(root).as_posix(): p.read_text() for p in sorted(root.rglob("*.md"))}
    settings = Settings()
    md = MarkdownIt("commonmark")
    mb = sum(len(t.encode()) for t in files.values()) / 2**20
    whole = _best(lambda: [chunk_file(rel, text, settings) for rel, text in files.items()])
    tokens = _best(lambda: [md.parse(text) for text in files.values()])
    print(
        f"{len(files):,} synthetic vault files ({mb:.1f} MiB): memsearch chunks them all in {whole:.2f} s;"
        f" markdown-it-py only tokenising them (CommonMark) takes {tokens:.2f} s"
        f" ({tokens / whole:.1f}x the whole chunker)"
    )
    with_fm = [t for t in files.values() if t.startswith("---\n")]
    ours = _best(lambda: [split_frontmatter(t.split("\n")) for t in with_fm])
    theirs = _best(lambda: [frontmatter.loads(t) for t in with_fm])
    print(
        f"{len(with_fm):,} files with frontmatter: memsearch split_frontmatter {ours * 1e3:.0f} ms,"
        f" python-frontmatter loads {theirs * 1e3:.0f} ms"
    )


def gitpython() -> None:
    def children() -> float:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    def run(code: str) -> float:
        times = []
        for _ in range(7):
            start = children()
            subprocess.run([sys.executable, "-c", code], check=True)
            times.append(children() - start)
        return statistics.median(times)

    bare, with_git = run("pass"), run("import git")
    print(f"GitPython: `import git` adds {(with_git - bare) * 1e3:.0f} ms to a process start")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=100_000)
    parser.add_argument("--edges", type=int, default=1_000_000)
    parser.add_argument("--chunks", type=int, default=20_000, help="size of the synthetic vault")
    args = parser.parse_args(argv)
    graph(args.nodes, args.edges)
    markdown_and_frontmatter(args.chunks)
    gitpython()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
