"""Keeping a vault's rows in its Milvus collection level with the index (:func:`sync`).

Rows are compared by chunk id and signature (a hash of a row's content): rows the index no longer
holds are deleted, rows whose content changed are upserted, the rest are not sent. What the
collection holds is read back from it, or, when the index home keeps a record of what the last push
sent and the collection still counts that many of the vault's rows, from that record: a push then
asks and sends in proportion to what changed. The row layout is :mod:`memsearch.index.milvus`'s.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from memsearch.config import Settings
from memsearch.index.backend import BackendSpec
from memsearch.index.in_memory import IndexData
from memsearch.index.keyword_terms import file_keyword_terms
from memsearch.index.milvus import (
    BATCH,
    EMPTY_QUERY_ERROR,
    ID_WINDOW,
    MAX_ENTITIES,
    MAX_TERMS_CHARS,
    SYNC_TIMEOUT_S,
    TERM_REPEAT,
    client_for,
    collection_dim,
    ensure_collection,
    quoted,
)
from memsearch.paths import atomic_write


@dataclass
class SyncReport:
    upserted: int = 0
    deleted: int = 0
    kept: int = 0
    seconds: float = 0.0
    #: True when the vault's rows were read back from the collection (no usable local record)
    read_back: bool = True


def _dim(data: IndexData, client: Any, spec: BackendSpec) -> int:
    if data.vectors is not None:
        return data.vectors.dim
    name = spec.collection_name
    have = collection_dim(client, name) if client.has_collection(name) else None
    if have:
        return have
    # Nothing embedded yet (`index --no-embed`): the embedder the index records says the dimension
    # its vectors will have. A placeholder made the collection refuse every vault that embeds.
    recorded = ((data.manifest or {}).get("embedder") or {}).get("dim")
    return int(recorded) if isinstance(recorded, int) and recorded > 0 else 8  # no embedder at all


def _row_meta(data: IndexData, cid: int) -> dict[str, Any]:
    chunk = data.chunks[cid]
    return {
        "chunk_id": cid,
        "path": chunk.path,
        "territory": chunk.territory,
        "fact_type": chunk.fact_type,
        "ts": chunk.timestamp.timestamp() if chunk.timestamp else 0.0,
        "has_ts": chunk.timestamp is not None,
        "entities": list(data.graph.entities_of(cid))[:MAX_ENTITIES],
    }


def _signature(meta: Mapping[str, Any], text: str, header: str, vector: np.ndarray | None) -> str:
    h = hashlib.sha256(json.dumps(meta, sort_keys=True, ensure_ascii=False).encode())
    h.update(b"\0" + text.encode() + b"\0" + header.encode() + b"\0")
    if vector is not None:
        h.update(np.ascontiguousarray(vector, dtype=np.float32).tobytes())
    return h.hexdigest()[:32]


def terms_text(terms: Iterable[str], weights: Iterable[float]) -> str:
    """A chunk's weighted terms as the text Milvus tokenizes on whitespace (heaviest first, so a
    cut at the length limit drops the lightest)."""
    pairs = sorted(zip(terms, weights, strict=True), key=lambda p: -p[1])
    out: list[str] = []
    size = 0
    for term, weight in pairs:
        n = max(1, round(weight * TERM_REPEAT))
        piece = " ".join([term] * n)
        if size + len(piece) + 1 > MAX_TERMS_CHARS:
            break
        out.append(piece)
        size += len(piece) + 1
    return " ".join(out)


def query_rows(client: Any, name: str, expr: str, fields: list[str], limit: int = 16_384) -> list[dict]:
    """The rows matching ``expr``. pymilvus 2.5 fails to read an empty answer from Milvus Lite
    (\"Unsupported data type: 0\", measured): that is no rows, not an error."""
    try:
        return list(client.query(name, filter=expr, output_fields=fields, limit=limit))
    except Exception as exc:
        if EMPTY_QUERY_ERROR in str(exc):
            return []
        raise


def existing_rows(client: Any, spec: BackendSpec, id_bound: int) -> dict[int, str]:
    """chunk id -> sig of the vault's rows in the collection, read in windows of chunk ids (a
    query returns at most 16,384 rows; ids are dense below the index's next id)."""
    name = spec.collection_name
    if not client.has_collection(name):
        return {}
    vault = f"vault == {quoted(spec.vault_id)}"
    found: dict[int, str] = {}
    windows = [f"chunk_id >= {lo} and chunk_id < {lo + ID_WINDOW}" for lo in range(0, id_bound, ID_WINDOW)]
    windows.append(f"chunk_id >= {max(id_bound, 0)}")  # rows of ids the index never reached
    for window in windows:
        rows = query_rows(client, name, f"{vault} and {window}", ["chunk_id", "sig"], ID_WINDOW)
        for row in rows:
            found[int(row["chunk_id"])] = row["sig"]
    return found


def _place(spec: BackendSpec) -> list[str]:
    return [spec.uri, spec.collection_name, spec.vault_id]


def vault_row_count(client: Any, spec: BackendSpec) -> int:
    rows = client.query(
        spec.collection_name, filter=f"vault == {quoted(spec.vault_id)}", output_fields=["count(*)"]
    )
    return int(rows[0]["count(*)"]) if rows else 0


def recorded_rows(client: Any, spec: BackendSpec, record: Path | None) -> dict[int, str] | None:
    """chunk id -> sig of what the last push sent (``record``, in the index home), if the collection
    still holds exactly as many of the vault's rows; None (compare the whole collection) otherwise: no
    record, another place, a dropped collection, rows deleted or added by someone else."""
    if record is None or not record.is_file():
        return None
    try:
        saved = json.loads(record.read_text(encoding="utf-8"))
        if saved.get("place") != _place(spec) or not client.has_collection(spec.collection_name):
            return None
        rows = {int(cid): str(sig) for cid, sig in saved["rows"].items()}
        if vault_row_count(client, spec) != len(rows):
            return None
    except Exception:  # unreadable, or Milvus could not count: the full comparison decides
        return None
    return rows


def write_record(record: Path, spec: BackendSpec, rows: Mapping[int, str]) -> None:
    payload = {"place": _place(spec), "rows": {str(cid): sig for cid, sig in rows.items()}}
    atomic_write(record, json.dumps(payload, separators=(",", ":")).encode())


def sync(
    spec: BackendSpec,
    data: IndexData,
    shape: Settings,
    *,
    compact: bool = False,
    record: Path | None = None,
) -> SyncReport:
    """Bring the vault's rows level with ``data``: delete what it no longer holds, upsert what changed.
    ``compact``: after deleting, ask Milvus to compact the collection (a deleted row's data stays in
    its segment until then; a forget asks for it). ``record``: a file of the signatures this push
    sent; the next push reads what the collection holds from it (one count query) instead of reading
    every row back, so what it sends and asks is in proportion to what changed."""
    started = time.perf_counter()
    client_for(spec).has_collection(spec.collection_name)  # a server that is down fails in seconds
    client = client_for(spec, SYNC_TIMEOUT_S)
    dim = _dim(data, client, spec)
    ensure_collection(client, spec, dim)
    name = spec.collection_name
    bound = max(data.n_ids, int((data.manifest or {}).get("next_id") or 0))
    have = recorded_rows(client, spec, record)
    report_read = have is None
    if have is None:
        have = existing_rows(client, spec, bound)
    if record is not None:
        record.unlink(missing_ok=True)  # a push that fails midway leaves no record: the next reads back
    vectors = data.vectors.by_id if data.vectors is not None else {}
    wanted: dict[int, tuple[dict[str, Any], str]] = {}
    for cid, chunk in data.chunks.items():
        meta = _row_meta(data, cid)
        vector = vectors.get(cid) if cid in vectors else None
        wanted[cid] = (meta, _signature(meta, chunk.text, chunk.header, vector))
    gone = [cid for cid in have if cid not in wanted]
    changed = [cid for cid, (_, sig) in wanted.items() if have.get(cid) != sig]
    report = SyncReport(kept=len(wanted) - len(changed))
    for start in range(0, len(gone), BATCH):
        gone_pks = [f"{spec.vault_id}:{cid}" for cid in gone[start : start + BATCH]]
        client.delete(name, ids=gone_pks)
        report.deleted += len(gone_pks)
    # A chunk's terms come with its file's (its neighbours' text counts in them): by file.
    by_path: dict[str, list[int]] = {}
    for cid in changed:
        by_path.setdefault(data.chunks[cid].path, []).append(cid)
    file_ids: dict[str, list[int]] = {}
    for cid, chunk in data.chunks.items():
        if chunk.path in by_path:
            file_ids.setdefault(chunk.path, []).append(cid)
    rows: list[dict[str, Any]] = []
    zeros = [0.0] * dim
    for path, wanted_ids in by_path.items():
        ids = sorted(file_ids[path], key=lambda c: (data.chunks[c].start_line, c))
        packed = dict(zip(ids, file_keyword_terms([data.chunks[c] for c in ids], shape), strict=True))
        for cid in wanted_ids:
            meta, sig = wanted[cid]
            terms, weights, _ = packed[cid]
            has_vector = cid in vectors
            rows.append(
                {
                    "pk": f"{spec.vault_id}:{cid}",
                    "vault": spec.vault_id,
                    **meta,
                    "has_vector": has_vector,
                    "sig": sig,
                    "terms": terms_text(terms, weights),
                    "dense": np.asarray(vectors[cid], dtype=np.float32).tolist() if has_vector else zeros,
                }
            )
            if len(rows) >= BATCH:
                client.upsert(name, rows)
                report.upserted += len(rows)
                rows = []
    if rows:
        client.upsert(name, rows)
        report.upserted += len(rows)
    if compact and report.deleted:
        with contextlib.suppress(Exception):  # Milvus Lite compacts on its own schedule
            client.flush(name)
            client.compact(name)
    if record is not None:
        write_record(record, spec, {cid: sig for cid, (_, sig) in wanted.items()})
    report.read_back = report_read
    report.seconds = time.perf_counter() - started
    return report
