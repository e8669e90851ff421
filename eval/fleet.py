"""The fleet case of the Milvus backend: many vaults in one collection, each search scoped to its vault.

    python eval/run.py fleet [--vaults 100] [--chunks 1000] [--queries 5]

The pool is every chunk of the cached LoCoMo and SciFact indexes (``eval/run.py locomo`` and
``eval/run.py beir`` build them; real text, each unique text embedded once by the engine, its vector
read from the index). Each vault is a different random subset of the pool, so the vaults share
vocabulary and near-duplicate neighbours as real agents' vaults do, and their chunk ids (pool
positions) collide: a row of another vault that came back would look like one of this vault's.
The collection (Milvus Lite, in process) is built once and kept under ``<cache>/fleet/``.

Printed side by side: the keyword and vector latency p50/p95 of a search filtered to one vault on the
fleet collection, the same searches on the built-in indexes of one vault, their ratio, and the
isolation check (every hit of every search belongs to the vault asked for).
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import harness
import numpy as np

from memsearch.api import open_index
from memsearch.config import Settings
from memsearch.index import milvus, milvus_push
from memsearch.index.backend import BackendSpec
from memsearch.index.keyword import KeywordIndex
from memsearch.index.keyword_terms import file_keyword_terms
from memsearch.index.vectors import VectorIndex
from memsearch.query_terms import term_weights

K = 100  # the per-strategy list length a search asks for (settings.top_n)
SEED = 18
SPARSE = {"params": {"drop_ratio_search": 0.0}}


def _index_homes(cache_root: Path) -> list[tuple[Path, Path]]:
    """(vault, index home) of every cached LoCoMo conversation and the cached SciFact corpus."""
    found = []
    for dataset in ("locomo", "beir"):
        for cache in sorted(cache_root.glob(f"{dataset}-*")):
            homes = sorted((p for p in cache.glob("index-*") if p.is_dir()), key=lambda p: p.stat().st_mtime)
            if not homes:
                continue
            home = homes[-1]  # the newest engine's
            for index_home in sorted(h for h in home.iterdir() if (h / "repo").is_dir()):
                # LoCoMo: vaults/<conversation>; SciFact: one vault, vault/
                vault = cache / "vaults" / index_home.name
                found.append((vault if vault.is_dir() else cache / "vault", index_home))
    return found


def load_pool(cache_root: Path) -> tuple[list[str], list[tuple[list[str], list[float]]], np.ndarray]:
    """Every chunk of the cached indexes: its first words (a query), its keyword terms, its vector."""
    settings = Settings()
    texts, terms, vectors = [], [], []
    homes = _index_homes(cache_root)
    if not homes:
        raise SystemExit(
            f"no cached LoCoMo or SciFact index under {cache_root}: run eval/run.py locomo and beir first"
        )
    for vault, home in homes:
        data = open_index(vault, index_dir=home).index
        by_path: dict[str, list[int]] = {}
        for cid, chunk in data.chunks.items():
            by_path.setdefault(chunk.path, []).append(cid)
        by_id = data.vectors.by_id
        for ids in by_path.values():
            ids = [c for c in sorted(ids, key=lambda c: (data.chunks[c].start_line, c)) if c in by_id]
            packed = file_keyword_terms([data.chunks[c] for c in ids], settings)
            for cid, (t, w, _) in zip(ids, packed, strict=True):
                texts.append(" ".join(data.chunks[cid].text.split()[:8]))
                terms.append((list(t), [float(x) for x in w]))
                vectors.append(by_id[cid])
        harness.log(f"fleet pool: {vault.name}: {len(texts)} chunks so far")
    return texts, terms, np.asarray(vectors, dtype=np.float32)


def vault_members(n_pool: int, vaults: int, chunks: int) -> list[list[int]]:
    rnd = random.Random(SEED)
    return [sorted(rnd.sample(range(n_pool), chunks)) for _ in range(vaults)]


def build_collection(spec: BackendSpec, members, terms, vectors, stamp: Path) -> float:
    """The fleet's rows in one collection (reused when the stamp says it holds them)."""
    client = milvus.client_for(spec, milvus.SYNC_TIMEOUT_S)
    want = {"vaults": len(members), "chunks": len(members[0]), "pool": len(terms), "seed": SEED}
    if stamp.exists() and json.loads(stamp.read_text()) == want and client.has_collection(spec.collection):
        return 0.0
    if client.has_collection(spec.collection):
        client.drop_collection(spec.collection)
    started = time.perf_counter()
    milvus.ensure_collection(client, spec, vectors.shape[1])
    rows: list[dict[str, Any]] = []
    for v, ids in enumerate(members):
        for pid in ids:
            t, w = terms[pid]
            rows.append(
                {
                    "pk": f"v{v:03d}:{pid}",
                    "vault": f"v{v:03d}",
                    "chunk_id": pid,
                    "path": "",
                    "territory": "",
                    "fact_type": "",
                    "ts": 0.0,
                    "has_ts": False,
                    "entities": [],
                    "has_vector": True,
                    "sig": "",
                    "terms": milvus_push.terms_text(t, w),
                    "dense": vectors[pid].tolist(),
                }
            )
            if len(rows) >= milvus.BATCH:
                client.insert(spec.collection, rows)
                rows = []
        if v % 10 == 9:
            harness.log(f"fleet: {v + 1} vaults inserted ({time.perf_counter() - started:.0f} s)")
    if rows:
        client.insert(spec.collection, rows)
    client.flush(spec.collection)
    stamp.write_text(json.dumps(want))
    return time.perf_counter() - started


def _ms(samples: list[float]) -> tuple[float, float]:
    return float(np.percentile(samples, 50)) * 1000, float(np.percentile(samples, 95)) * 1000


def main(args: Any) -> dict[str, Any]:
    cache_root = Path(args.cache_dir)
    texts, terms, vectors = load_pool(cache_root)
    members = vault_members(len(texts), args.vaults, min(args.chunks, len(texts)))
    folder = cache_root / "fleet"
    folder.mkdir(parents=True, exist_ok=True)
    name = f"fleet_{args.vaults}x{len(members[0])}"
    spec = BackendSpec(uri=str(folder / f"{name}.db"), vault_id="fleet", collection=name, layout="shared")
    built = build_collection(spec, members, terms, vectors, folder / f"{name}.json")
    client = milvus.client_for(spec, milvus.SYNC_TIMEOUT_S)
    rows = client.get_collection_stats(spec.collection).get("row_count")
    harness.log(f"fleet: {rows} rows in {name}" + (f", built in {built:.0f} s" if built else ", reused"))

    # every vault's own keyword index: a shared collection's keyword candidates are scored with it
    own_keyword = []
    for ids in members:
        index = KeywordIndex()
        for pid in ids:
            t, w = terms[pid]
            index.add(pid, dict(zip(t, w, strict=True)))
        own_keyword.append(index)

    rnd = random.Random(SEED + 1)
    timings: dict[str, list[float]] = {"keyword": [], "vector": []}
    crossings = checked = 0
    overlap: dict[str, list[float]] = {"milvus order": [], "rescored": []}
    for v, ids in enumerate(members):
        own = set(ids)
        vault = f"v{v:03d}"
        # half the queries are the vault's own chunks' words, half any chunk of the pool (their
        # best matches then lie in other vaults: what an isolation failure would bring back)
        picks = [rnd.choice(ids) if q % 2 == 0 else rnd.randrange(len(texts)) for q in range(args.queries)]
        for pid in picks:
            weights = term_weights(texts[pid])
            for kind, data, field, limit, params in (
                ("keyword", milvus.query_text(weights), "sparse", K * milvus.RESCORE_FACTOR, SPARSE),
                ("vector", vectors[pid].tolist(), "dense", K, {"metric_type": "IP"}),
            ):
                if not data:
                    continue
                start = time.perf_counter()
                got = client.search(
                    spec.collection,
                    data=[data],
                    anns_field=field,
                    limit=limit,
                    filter=f'vault == "{vault}"',
                    output_fields=["chunk_id", "vault"],
                    search_params=params,
                )
                found = [int(hit["entity"]["chunk_id"]) for hit in got[0]]
                if kind == "keyword":  # as MilvusRetrieval does on a shared collection
                    rescored = own_keyword[v].scores_of(weights, np.array(found, dtype=np.int64))
                    order = sorted(range(len(found)), key=lambda i: -rescored[i])[:K]
                timings[kind].append(time.perf_counter() - start)
                for hit in got[0]:
                    checked += 1
                    if hit["entity"]["vault"] != vault or int(hit["entity"]["chunk_id"]) not in own:
                        crossings += 1
                if kind == "keyword":
                    truth = {h.chunk_id for h in own_keyword[v].search(weights, 10)}
                    if truth:
                        top = [found[i] for i in order[:10]]
                        overlap["rescored"].append(len(truth & set(top)) / len(truth))
                        overlap["milvus order"].append(len(truth & set(found[:10])) / len(truth))

    # one vault on the built-in indexes (BM25 postings, the vector index), the same kind of queries
    ids = members[0]
    keyword, vector_index = own_keyword[0], VectorIndex(vectors.shape[1])
    vector_index.add(ids, vectors[ids])
    builtin: dict[str, list[float]] = {"keyword": [], "vector": []}
    rnd = random.Random(SEED + 2)
    for _ in range(max(100, args.queries * 10)):
        pid = rnd.choice(ids) if rnd.random() < 0.5 else rnd.randrange(len(texts))
        weights = term_weights(texts[pid])
        start = time.perf_counter()
        keyword.search(weights, K)
        builtin["keyword"].append(time.perf_counter() - start)
        start = time.perf_counter()
        vector_index.search(vectors[pid], K)
        builtin["vector"].append(time.perf_counter() - start)

    print(f"\nfleet: {args.vaults} vaults x {len(ids)} chunks in one collection ({rows} rows), pool of")
    print(f"{len(texts)} unique chunks (LoCoMo + SciFact), Milvus Lite 2.5.1 in process, top {K}")
    print(f"{'list':<9} {'fleet p50/p95 ms':>18} {'built-in 1 vault':>18} {'ratio p50':>10}")
    result: dict[str, Any] = {"vaults": args.vaults, "chunks": len(ids), "rows": rows, "pool": len(texts)}
    for kind in ("keyword", "vector"):
        f50, f95 = _ms(timings[kind])
        b50, b95 = _ms(builtin[kind])
        print(f"{kind:<9} {f50:>8.2f} / {f95:<7.2f} {b50:>8.2f} / {b95:<7.2f} {f50 / max(b50, 1e-9):>9.1f}x")
        result[kind] = {
            "fleet_p50_ms": f50,
            "fleet_p95_ms": f95,
            "builtin_p50_ms": b50,
            "builtin_p95_ms": b95,
        }
    for name_, values in overlap.items():
        mean = float(np.mean(values)) if values else float("nan")
        print(f"keyword overlap@10 with the vault's own BM25 list, {name_}: {mean:.3f} ({len(values)} lists)")
        result[f"keyword_overlap10_{name_.replace(' ', '_')}"] = mean
    searches = len(timings["keyword"]) + len(timings["vector"])
    print(f"isolation: {searches} searches, {checked} hits, {crossings} from another vault")
    result.update(searches=searches, hits=checked, crossings=crossings, build_seconds=built)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{name}.json").write_text(json.dumps(result, indent=2))
    milvus.close_clients()
    if crossings:
        raise SystemExit(f"isolation broken: {crossings} hits from another vault")
    return result
