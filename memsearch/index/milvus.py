"""The keyword and vector strategies on a Milvus collection (``pip install 'memsearch-vault[milvus]'``).

The collection is derived from the index (its chunks, their keyword terms and their vectors), never
the record: :func:`memsearch.index.milvus_push.sync` brings it level with a loaded :class:`IndexData`
by chunk id (rows the index no longer holds are deleted, rows whose content changed are upserted),
so it can be dropped and built again without embedding anything. One row per chunk:

    pk          "<vault id>:<chunk id>"            chunk_id   the index's chunk id
    vault       the vault id (a partition key on a Milvus server, when enabled)
    path, territory, fact_type, ts + has_ts, entities (resolved keys): the search filters, pushed down
    terms       memsearch's own keyword terms, each repeated by its weight (see below), whitespace-split
    sparse      BM25 of ``terms`` (a Milvus function)      dense   the chunk's vector (FLAT, inner product)
    has_vector  False for an embedding gap (its dense vector is zeros and never searched)
    sig         a hash of everything above: a row whose sig matches is not sent again

Faithful keyword scores: memsearch tokenizes (identifiers kept whole and split, stemming) and weighs
a chunk's terms (its own at 1, its neighbours' at ``context_weight``), so Milvus is given those terms,
not the text: each term repeated ``TERM_REPEAT * weight`` times, split on whitespace only. BM25 with
``k1 * TERM_REPEAT`` over repeated terms is the built-in BM25 times a constant, which is taken out, so
scores are on the built-in scale (the keyword coverage and confidence read them). Milvus counts
documents over the whole collection (every vault of a shared one), so in a shared collection its
keyword list is a set of candidates that the vault's own keyword statistics score (:func:`_rescored`);
it also counts a deleted row until compaction; ``docs/milvus.md`` has the measured agreement.

pymilvus is imported when a backend is first used, so the package works without the extra.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import os
import threading
import time
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from memsearch.index.backend import BackendSpec, BackendUnavailableError, TieKey
from memsearch.index.in_memory import IndexData
from memsearch.index.keyword import BM25_B, BM25_K1
from memsearch.models import Hit

#: A chunk term of weight w is written round(w * TERM_REPEAT) times (weights are halves by default).
TERM_REPEAT = 2
#: A query term of weight w is sent round(w * QUERY_REPEAT) times (scaffold words weigh 0.1).
QUERY_REPEAT = 20
#: Longest ``terms`` text (Milvus VARCHAR limit); a longer chunk's rarest-last terms are cut.
MAX_TERMS_CHARS = 65_000
MAX_ENTITIES = 256
BATCH = 500
#: Chunk ids read back per query when comparing the collection with the index (Milvus caps a
#: query at 16,384 rows).
ID_WINDOW = 10_000
EMPTY_QUERY_ERROR = "Unsupported data type: 0"
#: In a shared collection the keyword list asks Milvus for this many times the candidates it
#: keeps, then scores them with the vault's own BM25 statistics (:func:`_rescored`).
RESCORE_FACTOR = 4
#: Milvus's largest ``limit`` of one search.
MAX_LIMIT = 16_384
#: After Milvus failed, searches skip it for this long instead of each waiting out a timeout.
RETRY_SECONDS = 30.0

#: Each call to Milvus from a push (an upsert of a batch, a query of a window of ids) may take this long.
SYNC_TIMEOUT_S = 60
#: Retries of a failed call. pymilvus retries an unreachable server 75 times (3.5 minutes) unless
#: told otherwise, and honours a timeout only when it is a whole number of seconds (measured: a
#: search of a killed server with timeout=5.0 returned after 210 s).
RETRIES = 2
_RPCS = frozenset(
    {
        "query",
        "upsert",
        "delete",
        "search",
        "has_collection",
        "describe_collection",
        "create_collection",
        "drop_collection",
        "flush",
        "compact",
    }
)

_clients: dict[str, Any] = {}
_clients_lock = threading.Lock()


class _Bounded:
    """A client whose every call gives up after ``timeout`` whole seconds and ``RETRIES`` retries."""

    def __init__(self, client: Any, timeout: float) -> None:
        self.raw = client
        self.timeout = max(1, math.ceil(timeout))

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.raw, name)
        if name not in _RPCS:
            return attr

        def bounded(*args: Any, **kwargs: Any) -> Any:
            kwargs.setdefault("timeout", self.timeout)
            kwargs.setdefault("retry_times", RETRIES)
            return attr(*args, **kwargs)

        return bounded


def _pymilvus() -> Any:
    try:
        import pymilvus
    except ImportError as exc:  # the extra is not installed
        raise BackendUnavailableError(
            "the Milvus backend needs pymilvus: pip install 'memsearch-vault[milvus]'"
        ) from exc
    # pymilvus logs every failed call at ERROR; memsearch reports the failure itself, once, with
    # what it did instead (the built-in index answered, the push is pending)
    for name in ("pymilvus", "pymilvus.milvus_client"):
        logging.getLogger(name).setLevel(logging.CRITICAL)
    return pymilvus


def client_for(spec: BackendSpec, timeout: float | None = None) -> Any:
    """One client per URI for the process (a serve answering many vaults shares it); its calls give
    up after ``timeout`` seconds (default the spec's)."""
    return _Bounded(_raw_client(spec), timeout or spec.timeout_s)


def _raw_client(spec: BackendSpec) -> Any:
    uri = spec.client_uri
    with _clients_lock:
        client = _clients.get(uri)
        if client is None:
            pymilvus = _pymilvus()
            said: list[str] = []
            try:
                with _quiet_lite(said) if spec.is_lite else contextlib.nullcontext():
                    client = pymilvus.MilvusClient(uri=uri, timeout=max(1, math.ceil(spec.timeout_s)))
            except Exception as exc:
                held = any("opened by another program" in line for line in said)
                if held:
                    raise BackendUnavailableError(
                        f"the Milvus Lite file {spec.uri} is held by another process (a `memsearch serve`,"
                        " or another program that opened it): stop it, or use a Milvus server"
                        " (milvus://HOST:PORT) for vaults served and indexed at once"
                    ) from exc
                raise BackendUnavailableError(f"Milvus at {spec.uri} did not answer ({_why(exc)})") from exc
            _clients[uri] = client
        return client


@contextlib.contextmanager
def _quiet_lite(said: list[str]) -> Iterator[None]:
    """Start a Milvus Lite server process without its words on the user's stderr: its C++ log
    lines (and milvus_lite's own errors, on the root logger) reached the terminal, some after the
    command's output. The process inherits stderr when it starts: it gets /dev/null instead. What
    milvus_lite logs is kept in ``said`` (the caller reads why a start failed from it)."""

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            said.append(record.getMessage())

    root = logging.getLogger()
    keep = Keep(logging.ERROR)
    root.addHandler(keep)
    saved = os.dup(2)
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        root.removeHandler(keep)


def forget_client(spec: BackendSpec) -> None:
    """Drop the cached client (after a failure: the next call connects again)."""
    with _clients_lock:
        client = _clients.pop(spec.client_uri, None)
    if client is not None:
        with contextlib.suppress(Exception):  # a dead server's client may fail to close
            client.close()
        if spec.is_lite:
            _release_lite(spec.client_uri)


def close_clients() -> None:
    """Close every cached client (a process that is done with Milvus, or a test between servers)."""
    with _clients_lock:
        clients = list(_clients.values())
        _clients.clear()
    for client in clients:
        with contextlib.suppress(Exception):
            client.close()


def _release_lite(path: str) -> None:
    """A Milvus Lite server process that died stays registered in milvus_lite; release it so
    the next client starts a fresh one on the same file."""
    try:
        from milvus_lite.server_manager import server_manager_instance

        server_manager_instance.release_server(path)
    except Exception:  # not there, or already gone
        pass


def _why(exc: BaseException) -> str:
    message = getattr(exc, "message", None)  # a MilvusException's own words, without its repr
    raw = str(message if isinstance(message, str) and message else exc).strip()
    text = raw.splitlines()[0] if raw else ""
    return f"{type(exc).__name__}: {text[:300]}" if text else type(exc).__name__


def quoted(text: str) -> str:
    """A string literal of Milvus's filter language."""
    return json.dumps(text, ensure_ascii=False)


def _like_prefix(prefix: str) -> str:
    escaped = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return quoted(escaped + "%")


def filter_expression(spec: BackendSpec, index: IndexData, filters: Any) -> str:
    """The search's filters as a Milvus filter expression, always scoped to the vault."""
    parts = [f"vault == {quoted(spec.vault_id)}"]
    if filters is None:
        return parts[0]
    prefix = (filters.territory or "").lstrip("./")
    if prefix:
        parts.append(f"(path like {_like_prefix(prefix)} or territory == {quoted(prefix.rstrip('/'))})")
    if filters.fact_type:
        parts.append(f"fact_type == {quoted(filters.fact_type)}")
    for key in dict.fromkeys(index.graph.resolve(e) for e in filters.entities):
        parts.append(f"array_contains(entities, {quoted(key)})")
    if filters.since or filters.until:
        parts.append("has_ts == true")
        if filters.since:
            parts.append(f"ts >= {filters.since.timestamp()!r}")
        if filters.until:
            parts.append(f"ts <= {filters.until.timestamp()!r}")
    return " and ".join(parts)


# -- the collection -------------------------------------------------------------------------------


def _schema(client: Any, spec: BackendSpec, dim: int) -> tuple[Any, Any]:
    pm = _pymilvus()
    dt = pm.DataType
    schema = client.create_schema(auto_id=False, enable_dynamic_field=False)
    schema.add_field("pk", dt.VARCHAR, is_primary=True, max_length=256)
    schema.add_field("vault", dt.VARCHAR, max_length=128, is_partition_key=spec.uses_partition_key)
    schema.add_field("chunk_id", dt.INT64)
    schema.add_field("path", dt.VARCHAR, max_length=4096)
    schema.add_field("territory", dt.VARCHAR, max_length=256)
    schema.add_field("fact_type", dt.VARCHAR, max_length=32)
    schema.add_field("ts", dt.DOUBLE)
    schema.add_field("has_ts", dt.BOOL)
    schema.add_field("entities", dt.ARRAY, element_type=dt.VARCHAR, max_capacity=MAX_ENTITIES, max_length=256)
    schema.add_field("has_vector", dt.BOOL)
    schema.add_field("sig", dt.VARCHAR, max_length=64)
    schema.add_field(
        "terms",
        dt.VARCHAR,
        max_length=65_535,
        enable_analyzer=True,
        analyzer_params={"tokenizer": "whitespace"},
    )
    schema.add_field("sparse", dt.SPARSE_FLOAT_VECTOR)
    schema.add_field("dense", dt.FLOAT_VECTOR, dim=dim)
    schema.add_function(
        pm.Function(
            name="terms_bm25",
            function_type=pm.FunctionType.BM25,
            input_field_names=["terms"],
            output_field_names=["sparse"],
        )
    )
    params = client.prepare_index_params()
    params.add_index(
        "sparse",
        index_type="SPARSE_INVERTED_INDEX",
        metric_type="BM25",
        params={"bm25_k1": BM25_K1 * TERM_REPEAT, "bm25_b": BM25_B},
    )
    params.add_index("dense", index_type="FLAT", metric_type="IP")
    return schema, params


def collection_dim(client: Any, name: str) -> int | None:
    for f in client.describe_collection(name).get("fields", []):
        if f.get("name") == "dense":
            return int(f.get("params", {}).get("dim"))
    return None


def ensure_collection(client: Any, spec: BackendSpec, dim: int) -> None:
    """Create the collection if it is missing; a collection of another dimension is refused
    (a per-vault one is dropped and made again: the index holds everything to rebuild it)."""
    name = spec.collection_name
    if client.has_collection(name):
        have = collection_dim(client, name)
        if have == dim:
            return
        if spec.layout != "per-vault":
            raise BackendUnavailableError(
                f"Milvus collection {name!r} holds {have}-dim vectors, this vault's embedder makes {dim};"
                " give the vault another collection ([backend] collection in memsearch.toml)"
            )
        client.drop_collection(name)
    schema, params = _schema(client, spec, dim)
    kwargs: dict[str, Any] = {"num_partitions": 64} if spec.uses_partition_key else {}
    client.create_collection(name, schema=schema, index_params=params, **kwargs)
    if spec.uses_partition_key and not _filters_work(client, name):
        # Milvus Lite 2.5.1 (also when it serves on a port) refuses every filter on a collection
        # with a partition key, measured: the vault id stays an ordinary filtered field there.
        client.drop_collection(name)
        spec.partition_key = False
        schema, params = _schema(client, spec, dim)
        client.create_collection(name, schema=schema, index_params=params)


def _filters_work(client: Any, name: str) -> bool:
    try:
        client.query(name, filter='vault == "" and chunk_id >= 0', output_fields=["chunk_id"], limit=1)
    except Exception as exc:
        return EMPTY_QUERY_ERROR in str(exc)  # an empty collection's answer on Lite: the filter parsed
    return True


def drop(spec: BackendSpec) -> None:
    """Drop this vault's rows (a shared collection) or its collection (per-vault)."""
    if spec.file_gone:
        return  # gone with its rows (a client would make the file anew)
    client = client_for(spec)
    name = spec.collection_name
    if not client.has_collection(name):
        return
    if spec.layout == "per-vault":
        client.drop_collection(name)
    else:
        client.delete(name, filter=f"vault == {quoted(spec.vault_id)}")


# -- searching ------------------------------------------------------------------------------------


def query_text(weights: Mapping[str, float]) -> str:
    """The query as Milvus reads it: each term repeated by its weight, split on whitespace."""
    words: list[str] = []
    for term, weight in weights.items():
        n = round(weight * QUERY_REPEAT)
        if n > 0 and term.strip():
            words.extend([term] * n)
    return " ".join(words)


class MilvusRetrieval:
    """The keyword and vector top-N of one vault, from its Milvus collection."""

    name = "milvus"

    def __init__(self, spec: BackendSpec) -> None:
        self.spec = spec
        self._down_until = 0.0
        self._down_why = ""
        #: Rows of another vault that came back and were dropped (the filter keeps it at 0; a
        #: check that does not trust the filter alone, and a count a test can read).
        self.foreign_rows = 0

    def _client(self) -> Any:
        now = time.monotonic()
        if now < self._down_until:
            raise BackendUnavailableError(
                f"{self._down_why} (not asked again for {self._down_until - now:.0f} s)"
            )
        return client_for(self.spec)

    def _search(
        self, data: Any, field: str, k: int, expr: str, params: dict[str, Any]
    ) -> list[tuple[int, float]]:
        try:
            client = self._client()
        except BackendUnavailableError as exc:
            if time.monotonic() >= self._down_until:  # it could not connect: not asked again either
                self._down_until, self._down_why = time.monotonic() + RETRY_SECONDS, str(exc)
            raise
        try:
            got = client.search(
                self.spec.collection_name,
                data=[data],
                anns_field=field,
                limit=k,
                filter=expr,
                output_fields=["chunk_id", "vault"],
                search_params=params,
            )
        except Exception as exc:
            why = f"Milvus at {self.spec.uri} did not answer ({_why(exc)})"
            self._down_until, self._down_why = time.monotonic() + RETRY_SECONDS, why
            forget_client(self.spec)
            raise BackendUnavailableError(why) from exc
        self._down_until = 0.0
        out = []
        for h in got[0] if got else []:
            if h["entity"].get("vault") != self.spec.vault_id:
                self.foreign_rows += 1
                continue
            out.append((int(h["entity"]["chunk_id"]), float(h["distance"])))
        return out

    def keyword_top(
        self,
        index: IndexData,
        weights: Mapping[str, float],
        k: int,
        allowed: np.ndarray | None,
        filters: Any,
        tie_key: TieKey | None,
    ) -> list[Hit]:
        text = query_text(weights)
        if not text or k <= 0:
            return []
        expr = filter_expression(self.spec, index, filters)
        shared = self.spec.layout != "per-vault"
        asked = min(MAX_LIMIT, k * RESCORE_FACTOR) if shared else k
        found = self._search(text, "sparse", asked, expr, {"params": {"drop_ratio_search": 0.0}})
        if shared:
            return _rescored(index, weights, found, k, allowed, tie_key)
        # Back to the built-in scale: the query's repeats and BM25's (k1 + 1) at k1 x TERM_REPEAT.
        scale = (BM25_K1 + 1.0) / ((BM25_K1 * TERM_REPEAT + 1.0) * QUERY_REPEAT)
        hits = _kept(index, [(cid, score * scale) for cid, score in found], allowed)
        return _ordered(hits, tie_key)

    def vector_top(
        self,
        index: IndexData,
        vector: np.ndarray,
        k: int,
        allowed: np.ndarray | None,
        filters: Any,
        tie_key: TieKey | None = None,
    ) -> list[Hit]:
        if k <= 0:
            return []
        expr = filter_expression(self.spec, index, filters) + " and has_vector == true"
        query = np.asarray(vector, dtype=np.float32).tolist()
        found = self._search(query, "dense", k, expr, {"metric_type": "IP"})
        return _kept(index, found, allowed)


def _rescored(
    index: IndexData,
    weights: Mapping[str, float],
    found: list[tuple[int, float]],
    k: int,
    allowed: np.ndarray | None,
    tie_key: TieKey | None,
) -> list[Hit]:
    """The vault's top ``k`` of Milvus's candidates, scored with the vault's own BM25 statistics.

    In a shared collection Milvus's idf and average length are the whole fleet's (Milvus 2.5 keeps
    BM25 statistics per collection, not per partition or filter), so its scores and its order are
    not the vault's. The vault's own keyword index (always loaded: it is the fallback) holds the
    vault's statistics; it scores only the candidates, so the list is the built-in one wherever the
    built-in top ``k`` lies within Milvus's top ``k x RESCORE_FACTOR``."""
    candidates = _kept(index, found, allowed)
    if not candidates:
        return []
    ids = np.array([h.chunk_id for h in candidates], dtype=np.int64)
    scores = index.keyword.scores_of(weights, ids)
    hits = [Hit(int(cid), float(score)) for cid, score in zip(ids, scores, strict=True) if score > 0]
    order = sorted(range(len(hits)), key=lambda i: -hits[i].score)  # stable: Milvus's order on ties
    return _ordered([hits[i] for i in order], tie_key)[:k]


def _kept(index: IndexData, found: list[tuple[int, float]], allowed: np.ndarray | None) -> list[Hit]:
    """The hits the loaded index holds and its filters allow (the collection may be a step ahead
    or behind the index a reader holds; the mask is the search's own word on the filters)."""
    out = []
    for cid, score in found:
        if cid not in index.chunks:
            continue
        if allowed is not None and (cid >= len(allowed) or not allowed[cid]):
            continue
        out.append(Hit(cid, score))
    return out


def _ordered(hits: list[Hit], tie_key: TieKey | None) -> list[Hit]:
    """Best first, equal scores in ``tie_key`` order (as the built-in keyword list breaks ties)."""
    if not hits or tie_key is None:
        return hits
    ids = np.array([h.chunk_id for h in hits], dtype=np.int64)
    keys = tie_key(ids)
    order = sorted(range(len(hits)), key=lambda i: (-hits[i].score, keys[i]))
    return [hits[i] for i in order]
