"""The index's hook: after each run, new memories scored against the standing interests; a match
becomes one event in the inbox and for every subscriber. Nothing here can fail an index.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memsearch.config import Settings
from memsearch.index import loading
from memsearch.index.in_memory import IndexData
from memsearch.index.loading import head_commit
from memsearch.models import Chunk
from memsearch.paths import IndexLayout, default_home
from memsearch.scan import check_vault
from memsearch.signals.interests import Interest, SignalConfig, load_signal_config
from memsearch.signals.scorer import Match, QueryVector, Scorer, query_embedder
from memsearch.signals.state import STATE_FORMAT, append_events, load_state, save_state, short_hash

log = logging.getLogger(__name__)


SENSOR_NAME = "memory_search"


EVENT_TYPE = "desire_triggered"


#: A callback receives each event (a JSON-ready dict).
SignalCallback = Callable[[dict[str, Any]], None]


_CALLBACKS: list[SignalCallback] = []


_CALLBACKS_LOCK = threading.Lock()


def subscribe(callback: SignalCallback) -> Callable[[], None]:
    """Pass every future event to ``callback``; returns a function that unsubscribes it."""
    with _CALLBACKS_LOCK:
        _CALLBACKS.append(callback)

    def unsubscribe() -> None:
        with _CALLBACKS_LOCK:
            if callback in _CALLBACKS:
                _CALLBACKS.remove(callback)

    return unsubscribe


@dataclass
class SignalReport:
    """What one check did; :func:`after_index` returns it and never raises."""

    interests: int = 0
    new_chunks: int = 0
    baseline: bool = False
    events: list[dict[str, Any]] = field(default_factory=list)
    deferred: int = 0  # new chunks to look at again next run (semantic search was down)
    warnings: list[str] = field(default_factory=list)
    error: str | None = None
    inbox: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "interests": self.interests,
            "new_chunks": self.new_chunks,
            "baseline": self.baseline,
            "events": list(self.events),
            "deferred": self.deferred,
            "warnings": list(self.warnings),
            "error": self.error,
            "inbox": self.inbox,
        }


def check_new_memories(
    vault: Path,
    index_home: Path,
    settings: Settings | None,
    index: IndexData | Callable[[], IndexData],
    *,
    embed_query: QueryVector | None = None,
    callbacks: tuple[SignalCallback, ...] = (),
    inbox: Path | None = None,
    now: datetime | None = None,
) -> SignalReport:
    """Compare the chunks of ``index`` (as just indexed) with the last run; fire on new matches.

    ``index`` may be a loader, called only when there may be something to check; ``embed_query``
    gives a query's vector (default: the index's own embedder, made on first use)."""
    report = SignalReport()
    config = load_signal_config(vault, index_home)
    inbox = inbox or config.inbox
    report.inbox = str(inbox)
    report.interests = len(config.interests)
    report.warnings.extend(config.warnings)
    state = load_state(index_home)
    commit = head_commit(index_home)
    if callable(index):
        if state is not None and state.get("deferred") == 0 and commit and state.get("commit") == commit:
            return report  # the commit this state checked, and nothing waits for a retry: nothing is new
        index = index()
    # A copy: a live engine may change its index (update_file) while this check runs.
    chunks = dict(index.chunks)
    current: dict[str, Chunk] = {}
    for chunk in chunks.values():
        current.setdefault(short_hash(chunk.content_hash), chunk)
    if state is None:
        report.baseline = True
        save_state(
            index_home,
            {"format": STATE_FORMAT, "seen": sorted(current), "fired": {}, "deferred": 0, "commit": commit},
        )
        return report
    seen = set(state.get("seen", []))
    fired: dict[str, str] = dict(state.get("fired", {}))
    new = {h: c for h, c in current.items() if h not in seen}
    report.new_chunks = len(new)
    deferred: set[str] = set()
    if new and config.interests:
        embed_query = embed_query or query_embedder(index, vault)
        events, deferred = _match(vault, config, new, fired, now, index, chunks, embed_query)
        if events:
            append_events(inbox, events)  # before the state: a crash re-fires rather than loses
            for event in events:
                for callback in (*_callbacks_now(), *callbacks):
                    try:
                        callback(event)
                    except Exception as exc:  # one listener must not deafen the others
                        report.warnings.append(f"signal callback {callback!r} failed: {exc}")
        report.events = events
        report.deferred = len(deferred)
    new_seen = set(current) - deferred
    record = {"deferred": len(deferred), "commit": commit}
    if (
        new_seen != seen
        or fired != state.get("fired", {})
        or any(state.get(k) != v for k, v in record.items())
    ):
        save_state(index_home, {"format": STATE_FORMAT, "seen": sorted(new_seen), "fired": fired, **record})
    return report


def _callbacks_now() -> tuple[SignalCallback, ...]:
    with _CALLBACKS_LOCK:
        return tuple(_CALLBACKS)


def _match(
    vault: Path,
    config: SignalConfig,
    new: dict[str, Chunk],
    fired: dict[str, str],
    now: datetime | None,
    index: IndexData,
    chunks: Mapping[int, Chunk],
    embed_query: QueryVector,
) -> tuple[list[dict[str, Any]], set[str]]:
    """Events for new chunks scoring at or above an interest's threshold; and the chunks to defer."""
    hash_of = {}
    for cid, chunk in chunks.items():
        short = short_hash(chunk.content_hash)
        if short in new and chunk.path != config.interests_file:
            hash_of[cid] = short
    scorer = Scorer(index, embed_query, exclude=set(hash_of), chunks=chunks)
    stamp = (now or datetime.now(tz=UTC)).isoformat(timespec="seconds")
    events: list[dict[str, Any]] = []
    manifest = index.manifest
    # Vectors were meant to be there (an embedder gap or failure): what could not be scored by
    # meaning is looked at again by the next run, when the gap is filled.
    degraded = bool(manifest.get("gaps") or manifest.get("embedder_error"))
    unscored: set[str] = set()
    for interest in config.interests:
        matches, semantic_error = scorer.score(interest, sorted(hash_of))
        degraded = degraded or (semantic_error is not None and bool(scorer.vectors))
        unscored.update(hash_of[m.chunk_id] for m in matches if m.cosine is None)
        best_by_path: dict[str, tuple[Match, list[str]]] = {}
        for match in matches:
            if match.score < interest.threshold:
                break  # best first
            chunk_hash = hash_of[match.chunk_id]
            if f"{interest.key}:{chunk_hash}" in fired:
                continue
            best_by_path.setdefault(match.chunk.path, (match, []))[1].append(chunk_hash)
        for path, (best, hashes) in best_by_path.items():
            for chunk_hash in hashes:
                fired[f"{interest.key}:{chunk_hash}"] = stamp
            events.append(_event(vault, interest, path, best, len(hashes), semantic_error, stamp))
    return events, (unscored if degraded else set())


def _event(
    vault: Path, interest: Interest, path: str, best: Match, n: int, semantic_error: str | None, stamp: str
) -> dict[str, Any]:
    chunk = best.chunk
    return {
        "sensor_name": SENSOR_NAME,
        "event_type": EVENT_TYPE,
        "target": path,
        "urgency": interest.urgency,
        "timestamp": stamp,
        "payload": {
            "matched": interest.name,
            "query": interest.query,
            "score": best.score,
            "threshold": interest.threshold,
            "lines": [chunk.start_line, chunk.end_line],
            "ref": f"{path}:{chunk.start_line}-{chunk.end_line}",
            "heading": chunk.heading,
            "fact_type": chunk.fact_type,
            "entities": list(chunk.entities[:12]),
            "meaning": best.meaning,
            "wording": best.wording,
            "chunks_matched": n,
            "semantic_error": semantic_error,
            "vault": str(vault),
        },
    }


def after_index(
    vault: Path,
    index_home: Path,
    settings: Settings | None,
    index: IndexData | Callable[[], IndexData],
    embed_query: QueryVector | None = None,
) -> SignalReport:
    """The indexer's hook, called with the fresh index: check for new matches; never raises (a
    signal must not fail an index).

    ``index`` may be a loader (a run that changed nothing has not loaded the index): it is
    called only when an earlier run left matches to retry. ``embed_query``: a query's vector
    (a live engine passes its own, whose embedder is loaded already).
    """
    try:
        report = check_new_memories(vault, index_home, settings, index, embed_query=embed_query)
    except Exception as exc:
        report = SignalReport(error=f"{type(exc).__name__}: {exc}")
    try:  # what the last check did, for `memsearch interests`
        path = IndexLayout(index_home).signal_last_run
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump({"at": datetime.now(tz=UTC).isoformat(timespec="seconds"), **report.to_dict()}, fh)
    except OSError:
        pass
    for warning in report.warnings:
        log.warning("signals: %s", warning)
    if report.error:
        log.warning("signals: the check failed (%s); the index itself is fine", report.error)
    return report


def describe(
    vault: str | Path, index_dir: str | Path | None = None, check: bool = False, top: int = 3
) -> dict[str, Any]:
    """The vault's interests, where events go, what the last run did; with ``check``, each interest's
    best-scoring memories in the whole vault today (what would fire if they were new), to tune thresholds.
    """
    vault = check_vault(Path(vault))
    index_home = Path(index_dir) if index_dir else default_home(vault)
    config = load_signal_config(vault, index_home)
    state = load_state(index_home) or {}
    last_path = IndexLayout(index_home).signal_last_run
    try:
        last = json.loads(last_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        last = None
    out: dict[str, Any] = {
        "vault": str(vault),
        "inbox": str(config.inbox),
        "interests_file": config.interests_file or None,
        "interests": [i.to_dict() for i in config.interests],
        "warnings": list(config.warnings),
        "seen_chunks": len(state.get("seen", [])),
        "fired": len(state.get("fired", {})),
        "last_run": last,
    }
    if check and config.interests:
        data = loading.load(index_home)
        scorer = Scorer(data, query_embedder(data, vault))
        ids = sorted(c for c, ch in data.chunks.items() if ch.path != config.interests_file)
        for entry, interest in zip(out["interests"], config.interests, strict=True):
            matches, semantic_error = scorer.score(interest, ids)
            entry["semantic_error"] = semantic_error
            entry["best"] = [
                {
                    "ref": f"{m.chunk.path}:{m.chunk.start_line}-{m.chunk.end_line}",
                    "score": m.score,
                    "meaning": m.meaning,
                    "wording": m.wording,
                    "above_threshold": m.score >= interest.threshold,
                }
                for m in matches[:top]
            ]
    return out
