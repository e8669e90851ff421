"""BEIR-format retrieval: one reference file per document, one query per judged query.

Each document becomes ``reference/<safe doc id>.md``: ``# <title>`` (the id when there is no title), a
blank line, the text. Results are grouped by file (``chunks=False``), mapped back to doc ids, and scored
with nDCG@10 (linear gains from the qrels, log2 discount, as BEIR/pytrec_eval) and recall@100.
"""

from __future__ import annotations

import csv
import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import harness
from harness import Backend, Latency, log, run_search, strategies_for
from ir_metrics import mean, ndcg_at_k, recall_at_k

SEARCH_K = 100
NDCG_K = 10
RECALL_K = 100

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass(frozen=True)
class Document:
    doc_id: str
    title: str
    text: str


@dataclass(frozen=True)
class Dataset:
    docs: list[Document]
    queries: dict[str, str]  # query id -> text
    qrels: dict[str, dict[str, float]]  # query id -> doc id -> relevance


# ----------------------------------------------------------------------------------------------- loading


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    rows = []
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, start=1):
            line = line.strip()
            if not line:
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise SystemExit(f"{path}:{n}: not JSON ({exc})") from exc
    return rows


def read_qrels(path: Path) -> dict[str, dict[str, float]]:
    """``query-id<TAB>corpus-id<TAB>score`` with an optional header line."""
    qrels: dict[str, dict[str, float]] = {}
    with path.open(encoding="utf-8", newline="") as fh:
        for row in csv.reader(fh, delimiter="\t"):
            if len(row) < 2 or not row[0].strip():
                continue
            qid, did = row[0].strip(), row[1].strip()
            try:
                score = float(row[2]) if len(row) > 2 and row[2].strip() else 1.0
            except ValueError:
                continue  # the header
            qrels.setdefault(qid, {})[did] = score
    return qrels


def data_files(root: Path, split: str) -> list[Path]:
    files = [root / "corpus.jsonl", root / "queries.jsonl", root / "qrels" / f"{split}.tsv"]
    missing = [str(p) for p in files if not p.is_file()]
    if missing:
        raise SystemExit(f"{root}: not a BEIR folder, missing {', '.join(missing)}; pass --data PATH")
    return files


def load(root: Path, split: str = "test") -> Dataset:
    corpus_path, queries_path, qrels_path = data_files(root, split)
    docs: list[Document] = []
    seen: set[str] = set()
    for row in read_jsonl(corpus_path):
        doc_id = str(row.get("_id", "")).strip()
        if not doc_id or doc_id in seen:
            continue
        seen.add(doc_id)
        docs.append(Document(doc_id, str(row.get("title") or ""), str(row.get("text") or "")))
    queries = {str(r.get("_id", "")).strip(): str(r.get("text") or "") for r in read_jsonl(queries_path)}
    return Dataset(docs, queries, read_qrels(qrels_path))


# ----------------------------------------------------------------------------------------------- vaults


def safe_doc_names(doc_ids: Sequence[str]) -> dict[str, str]:
    """doc id -> file stem: readable, unique (also ignoring case), stable for the same set of ids."""
    names: dict[str, str] = {}
    taken: set[str] = set()
    for doc_id in doc_ids:
        stem = _UNSAFE.sub("_", doc_id).strip("._")[:100] or "doc"
        if stem != doc_id or stem.lower() in taken:
            stem = f"{stem}-{hashlib.sha256(doc_id.encode()).hexdigest()[:8]}"
        while stem.lower() in taken:  # a hash clash with a real id: extremely unlikely, still handled
            stem += "_"
        taken.add(stem.lower())
        names[doc_id] = stem
    return names


def render_document(doc: Document) -> str:
    title = " ".join(doc.title.split()) or doc.doc_id
    text = doc.text.replace("\r\n", "\n").replace("\r", "\n").strip()
    return f"# {title}\n\n{text}\n" if text else f"# {title}\n"


def render_corpus(docs: Sequence[Document]) -> tuple[dict[str, str], dict[str, str]]:
    """(vault-relative path -> text, path -> doc id)."""
    names = safe_doc_names([d.doc_id for d in docs])
    files: dict[str, str] = {}
    path_to_doc: dict[str, str] = {}
    for doc in docs:
        path = f"reference/{names[doc.doc_id]}.md"
        files[path] = render_document(doc)
        path_to_doc[path] = doc.doc_id
    return files, path_to_doc


# ------------------------------------------------------------------------------------------- evaluation


def evaluate(
    data: Dataset,
    query_ids: Sequence[str],
    backend: Backend,
    settings: Any,
    work_dir: Path,
    runs: Sequence[str],
    k: int = SEARCH_K,
    reindex: bool = False,
) -> dict[str, Any]:
    files, path_to_doc = render_corpus(data.docs)
    vault = work_dir / "vault"
    harness.sync_vault(vault, files, managed_dirs=["reference"])
    index_dir = work_dir / f"index-{harness.index_fingerprint(settings)}" / "corpus"
    log(f"[beir] indexing {len(files)} documents ...")
    stats = harness.ensure_index(
        backend, vault, files, settings, index_dir, work_dir / "embeddings" / "corpus", reindex
    )
    log(
        f"[beir] {stats.chunks} chunks, "
        + ("index reused" if stats.reused else f"{stats.embedded} embedded, {stats.wall_seconds:.1f}s")
    )
    engine = backend.open(vault, settings, index_dir)
    by_run: dict[str, Any] = {}
    per_query: list[dict[str, Any]] = []
    for run in runs:
        latency = Latency()
        ndcgs, recalls = [], []
        for qid in query_ids:
            searched = run_search(
                engine, data.queries[qid], k=k, chunks=False, strategies=strategies_for(run)
            )
            latency.add(searched)
            ranked = [path_to_doc[p] for p, _, _ in searched.spans if p in path_to_doc]
            nd = ndcg_at_k(ranked, data.qrels[qid], NDCG_K)
            rc = recall_at_k(ranked, data.qrels[qid], RECALL_K)
            ndcgs.append(nd)
            recalls.append(rc)
            per_query.append({"qid": qid, "run": run, "ndcg@10": round(nd, 4), "recall@100": round(rc, 4)})
        by_run[run] = {
            "n": len(query_ids),
            "ndcg@10": None if not ndcgs else round(mean(ndcgs) or 0.0, 4),
            "recall@100": None if not recalls else round(mean(recalls) or 0.0, 4),
            "latency": latency.summary(),
        }
        log(f"[beir] {run}: nDCG@10 {by_run[run]['ndcg@10']}, recall@100 {by_run[run]['recall@100']}")
    close = getattr(engine, "close", None)
    if callable(close):
        close()
    return {"runs": by_run, "index": vars(stats), "documents": len(files), "per_query": per_query}


def report(summary: Mapping[str, Any]) -> str:
    head = ["run", "n", "nDCG@10", "recall@100", "ms p50/p95 excl. embed", "ms p50/p95 incl."]
    rows = []
    for run, r in summary["runs"].items():
        lat = r["latency"]
        rows.append(
            [
                run,
                r["n"],
                r["ndcg@10"],
                r["recall@100"],
                harness.fmt_ms(lat, "excl_embed_ms"),
                harness.fmt_ms(lat, "incl_embed_ms"),
            ]
        )
    return "\n".join(
        [
            "### BEIR (chunks=False, results grouped by file)",
            "",
            harness.markdown_table(head, rows),
            "",
            harness.index_line(summary["index"], 1),
            *harness.health_lines(summary["runs"]),
        ]
    )


# ------------------------------------------------------------------------------------------------- CLI


def judged_queries(data: Dataset, limit: int | None) -> tuple[list[str], dict[str, int]]:
    """Queries that have a text and at least one relevant doc, in qrels order, the first ``limit``."""
    chosen, skipped = [], {"no_query_text": 0, "no_relevant_doc": 0}
    for qid, judged in data.qrels.items():
        if not any(g > 0 for g in judged.values()):
            skipped["no_relevant_doc"] += 1
        elif not data.queries.get(qid, "").strip():
            skipped["no_query_text"] += 1
        else:
            chosen.append(qid)
    return (chosen[:limit] if limit else chosen), skipped


def subset_corpus(data: Dataset, query_ids: Sequence[str], limit_docs: int | None) -> Dataset:
    """With ``--limit-docs N``: the judged docs of the chosen queries plus the first N others (fast runs)."""
    if not limit_docs:
        return data
    wanted = {d for q in query_ids for d, g in data.qrels[q].items() if g > 0}
    docs = [d for d in data.docs if d.doc_id in wanted]
    docs += [d for d in data.docs if d.doc_id not in wanted][:limit_docs]
    order = {d.doc_id: i for i, d in enumerate(data.docs)}
    docs.sort(key=lambda d: order[d.doc_id])
    return Dataset(docs, data.queries, data.qrels)


def main(args: Any, backend: Backend | None = None) -> dict[str, Any]:
    root = Path(args.data)
    files = data_files(root, args.split)
    content_hash = harness.hash_files(files)
    settings = harness.apply_overrides(harness.default_settings(), harness.parse_overrides(args.set or []))
    data = load(root, args.split)
    query_ids, skipped = judged_queries(data, args.limit_queries)
    data = subset_corpus(data, query_ids, args.limit_docs)
    log(
        f"[beir] {root}: {len(data.docs)} docs, {len(query_ids)} judged queries ({args.split}); "
        f"skipped {skipped}"
    )
    extra = f"limit_docs={args.limit_docs};{','.join(query_ids)}" if args.limit_docs else ""
    # The vault depends on the corpus only: another split or edited queries reuse the same index.
    corpus_hash = harness.hash_files(files[:1])
    work_dir = harness.dataset_cache_dir(Path(args.cache_dir), "beir", root, corpus_hash, extra)
    meta = harness.run_metadata("beir", root, content_hash, settings, args)
    summary = evaluate(
        data,
        query_ids,
        backend or harness.MemsearchBackend(search_backend=getattr(args, "backend", None)),
        settings,
        work_dir,
        args.strategies,
        reindex=args.reindex,
    )
    summary["skipped_queries"] = skipped
    if not args.per_query:
        summary.pop("per_query")
    payload = {"meta": meta, **summary}
    print(report(summary))
    path = harness.write_results("beir", payload, Path(args.out))
    print(f"\nWrote {path}")
    return payload
