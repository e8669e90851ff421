"""Standing interests: when a newly indexed memory matches something the agent is waiting for, say so.

A vault declares standing queries (open desires, commitments, topics being waited on) in its
``memsearch.toml``::

    [[interest]]
    name = "ed-verdict"                       # default: the query
    query = "did Ed approve the new signing key"
    threshold = 0.5                           # 0..1, see Scorer (default 0.5)
    urgency = "high"                          # low | normal | high | critical, or a number 0..1
    territory = "journal/"                    # optional filters, as memory_search takes them
    fact_type = "experience"

    [signals]
    inbox = "~/agent/inbox.jsonl"             # default: <index home>/signals.jsonl
    interests_file = "system/interests.md"    # the default; "" turns the file off

or in a markdown file the agent itself can write, ``system/interests.md`` by default: every ``##``
section is an interest named by its heading, configured by ``key: value`` lines (``query``,
``threshold``, ``urgency``, ``territory``, ``fact_type``); without a ``query:`` line the heading is the
query. Other lines are free notes. The file's own chunks never trigger a signal.

After every index run, :func:`after_index` compares the chunks with those the last run saw (by
content hash, in ``<index home>/signals/state.json``) and scores each new or changed chunk against each
interest directly (:class:`Scorer`: meaning above the query's noise floor, and idf-weighted wording, on
an absolute 0..1 scale; a memory_search score is relative to the vault's best hit, so it cannot say
"this is about what I wait for"). A chunk at or above the threshold is a match. One event per interest
and file per run (the best chunk), appended as one JSON line to the inbox and passed to every callback
from :func:`subscribe`::

    {"sensor_name": "memory_search", "event_type": "desire_triggered", "target": "journal/x.md",
     "urgency": "high", "timestamp": "...", "payload": {"matched": "ed-verdict", "score": 0.66,
     "lines": [12, 18], "ref": "journal/x.md:12-18", "query": "...", "threshold": 0.5, ...}}

A match fires once: (interest, chunk content hash) pairs are remembered, so a reindex with no change,
or a change elsewhere, fires nothing. The first run with no state records what the vault holds and
fires nothing (a baseline, not a flood); a newly declared interest watches what is written after it.
When meaning cannot be scored (the embedder is down, or chunks await their vector), those chunks are not
marked seen: the next run scores them again, in full (a pair that fired never fires twice). Nothing
here can fail an index.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memsearch.config import CONFIG_FILENAME, Settings, load_config_file
from memsearch.errors import ConfigError
from memsearch.index.forget_list import ForgetList, entity_hash
from memsearch.models import FACT_TYPES, Chunk
from memsearch.paths import IndexLayout, atomic_write, default_home, private_dir

log = logging.getLogger(__name__)

SENSOR_NAME = "memory_search"
EVENT_TYPE = "desire_triggered"
#: A Scorer score. Measured on the fixture vault plus eight new journal entries and six standing queries
#: (MiniLM): entries plainly about the query scored 0.62-0.71, every unrelated entry at most 0.27.
#: Tune per interest; `memsearch interests --check` shows what each memory scores today.
DEFAULT_THRESHOLD = 0.5
URGENCIES = ("low", "normal", "high", "critical")
DEFAULT_URGENCY = "normal"
DEFAULT_INTERESTS_FILE = "system/interests.md"
STATE_FORMAT = 1

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


@dataclass(frozen=True)
class Interest:
    """A standing query and what a match means."""

    name: str
    query: str
    threshold: float = DEFAULT_THRESHOLD
    urgency: str | float = DEFAULT_URGENCY
    territory: str | None = None
    fact_type: str | None = None
    source: str = ""  # where it was declared, for messages

    @property
    def key(self) -> str:
        """Identity for "already fired": a renamed or reworded interest is a new one."""
        return hashlib.sha256(f"{self.name}\x00{self.query}".encode()).hexdigest()[:16]

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "query": self.query,
            "threshold": self.threshold,
            "urgency": self.urgency,
            "territory": self.territory,
            "fact_type": self.fact_type,
            "source": self.source,
        }


@dataclass(frozen=True)
class SignalConfig:
    interests: tuple[Interest, ...]
    inbox: Path
    interests_file: str  # vault-relative posix path, "" when off
    warnings: tuple[str, ...] = ()


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


# --- declaring interests ---


def _interest(item: Mapping[str, Any], where: str) -> Interest:
    query = item.get("query")
    if not isinstance(query, str) or not query.strip():
        raise ConfigError(f'{where}: needs query = "what you are waiting to hear about"')
    query = " ".join(query.split())
    name = item.get("name") or query[:80]
    try:
        threshold = float(item.get("threshold", DEFAULT_THRESHOLD))
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"{where}: threshold must be a number between 0 and 1") from exc
    if not 0 < threshold <= 1:
        raise ConfigError(f"{where}: threshold {threshold} must be above 0 and at most 1 (a search score)")
    urgency: str | float = item.get("urgency", DEFAULT_URGENCY)
    if isinstance(urgency, str) and urgency.strip().lower() in URGENCIES:
        urgency = urgency.strip().lower()
    else:
        try:
            urgency = float(urgency)
        except (TypeError, ValueError):
            urgency = -1.0
        if not 0 <= urgency <= 1:
            raise ConfigError(f"{where}: urgency must be one of {', '.join(URGENCIES)} or a number 0..1")
    fact_type = item.get("fact_type") or None
    if fact_type is not None and str(fact_type).lower() not in FACT_TYPES:
        raise ConfigError(f"{where}: fact_type {fact_type!r} must be world or experience")
    territory = item.get("territory") or None
    return Interest(
        name=str(name).strip(),
        query=query,
        threshold=threshold,
        urgency=urgency,
        territory=str(territory) if territory else None,
        fact_type=str(fact_type).lower() if fact_type else None,
        source=where,
    )


_KEY_LINE = re.compile(r"^\s*(?:[-*]\s+)?(query|threshold|urgency|territory|fact_type)\s*:\s*(.*?)\s*$", re.I)
_SECTION = re.compile(r"^##\s+(.+?)\s*#*\s*$")


def parse_interests_markdown(text: str, source: str = DEFAULT_INTERESTS_FILE) -> list[dict[str, Any]]:
    """Each ``## heading`` is an interest; ``key: value`` lines in its section configure it."""
    items: list[dict[str, Any]] = []
    fence = False
    for number, line in enumerate(text.replace("\r\n", "\n").split("\n"), 1):
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
            continue
        if fence:
            continue
        heading = _SECTION.match(line)
        if heading:
            items.append({"name": heading[1], "query": heading[1], "_line": number})
            continue
        pair = _KEY_LINE.match(line)
        if pair and items:
            items[-1][pair[1].lower()] = pair[2].strip().strip("\"'`")
    return items


def load_signal_config(vault: Path, index_home: Path) -> SignalConfig:
    """The vault's interests (config and file) and where events go. Raises ConfigError if unreadable."""
    config_path = vault / CONFIG_FILENAME
    data = load_config_file(config_path) if config_path.is_file() else {}
    section = data.get("signals", {})
    if not isinstance(section, dict):
        raise ConfigError(f"{config_path}: [signals] must be a table")
    interests: list[Interest] = []
    warnings: list[str] = []
    declared = data.get("interest", [])
    if not isinstance(declared, list):
        raise ConfigError(f"{config_path}: declare interests as [[interest]] tables")
    for i, item in enumerate(declared, 1):
        where = f"{CONFIG_FILENAME} [[interest]] #{i}"
        try:
            if not isinstance(item, dict):
                raise ConfigError(f"{where}: must be a table")
            interests.append(_interest(item, where))
        except ConfigError as exc:  # one bad interest must not silence the others
            warnings.append(f"{exc}; this interest is ignored until fixed")
    interests_file = str(section.get("interests_file", DEFAULT_INTERESTS_FILE)).strip().strip("/")
    if interests_file:
        path = vault / interests_file
        if path.is_file() and path.resolve().is_relative_to(vault.resolve()):
            try:
                text = path.read_text(encoding="utf-8-sig")
            except (OSError, UnicodeDecodeError) as exc:
                warnings.append(f"{interests_file}: cannot read ({exc}); its interests are ignored")
                text = ""
            for item in parse_interests_markdown(text, interests_file):
                where = f"{interests_file}:{item.pop('_line')}"
                try:
                    interests.append(_interest(item, where))
                except ConfigError as exc:
                    warnings.append(f"{exc}; this interest is ignored until fixed")
    inbox_setting = section.get("inbox")
    if inbox_setting:
        inbox = Path(str(inbox_setting)).expanduser()
        inbox = inbox if inbox.is_absolute() else index_home / inbox
    else:
        inbox = IndexLayout(index_home).signal_inbox
    return SignalConfig(tuple(interests), inbox, interests_file, tuple(warnings))


# --- state: which chunks the last run saw, which matches fired ---


def _short(content_hash: str) -> str:
    return content_hash[:16]


def state_path(index_home: Path) -> Path:
    return IndexLayout(index_home).signal_state


def load_state(index_home: Path) -> dict[str, Any] | None:
    path = state_path(index_home)
    try:
        state = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        log.warning("signals: state %s is unreadable (%s); starting a new baseline", path, exc)
        return None
    if not isinstance(state, dict) or state.get("format") != STATE_FORMAT:
        return None
    return state


def save_state(index_home: Path, state: dict[str, Any]) -> None:
    path = state_path(index_home)
    private_dir(path.parent)
    tmp = path.with_suffix(f".tmp-{os.getpid()}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(state, fh, sort_keys=True, ensure_ascii=False)
    os.replace(tmp, path)


def append_events(inbox: Path, events: list[dict[str, Any]]) -> None:
    """One JSON line per event, appended (owner-only file)."""
    private_dir(inbox.parent)
    fd = os.open(inbox, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    with os.fdopen(fd, "a", encoding="utf-8") as fh:
        for event in events:
            fh.write(json.dumps(event, ensure_ascii=False) + "\n")


# --- the check ---


def check_new_memories(
    vault: Path,
    index_home: Path,
    settings: Settings | None,
    chunks: Mapping[int, Chunk] | Callable[[], Mapping[int, Chunk]],
    *,
    callbacks: tuple[SignalCallback, ...] = (),
    inbox: Path | None = None,
    now: datetime | None = None,
) -> SignalReport:
    """Compare ``chunks`` (what was just indexed) with the last run; fire on new matches."""
    report = SignalReport()
    config = load_signal_config(vault, index_home)
    inbox = inbox or config.inbox
    report.inbox = str(inbox)
    report.interests = len(config.interests)
    report.warnings.extend(config.warnings)
    from memsearch.index.loading import head_commit

    state = load_state(index_home)
    commit = head_commit(index_home)
    if callable(chunks):
        if state is not None and state.get("deferred") == 0 and commit and state.get("commit") == commit:
            return report  # the commit this state checked, and nothing waits for a retry: nothing is new
        chunks = chunks()
    current: dict[str, Chunk] = {}
    for chunk in chunks.values():
        current.setdefault(_short(chunk.content_hash), chunk)
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
        events, deferred = _match(vault, index_home, settings, config, new, fired, now)
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


@dataclass(frozen=True)
class Match:
    """One chunk scored against one interest: ``score`` is what the threshold is compared with."""

    chunk_id: int
    chunk: Chunk
    score: float  # 1 - (1 - meaning) * (1 - wording / 2), in 0..1
    meaning: float  # cosine similarity above the query's noise floor, rescaled to 0..1
    wording: float  # share of the query's terms (rare ones weigh more) the chunk contains
    cosine: float | None  # the raw cosine (None without vectors)


class Scorer:
    """Scores chunks against a standing query directly, on an absolute 0..1 scale.

    A search score (memory_search's) is relative: the best hit of any query scores high even when
    nothing in the vault is about it, and it moves when fusion is tuned. A standing interest needs
    "is this memory about what I wait for?", so each new chunk is scored on its own:

    - meaning: the cosine of the query and the chunk, above the query's *noise floor* (its median
      cosine with the vault's memories), rescaled so the floor is 0 and identity is 1. The floor
      makes one threshold fit any embedder (MiniLM's unrelated pairs sit near 0.1, nomic's near 0.4).
    - wording: the share of the query's terms the chunk contains, each weighted by its idf, so a
      rare name or identifier counts more than a common word.

    ``score = 1 - (1 - meaning) * (1 - wording / 2)``: either alone can reach 0.5 (a close paraphrase;
    every word of the query), both together go higher, and a stray shared word stays low.
    """

    FLOOR_SAMPLE = 2000  # vectors sampled for the median: enough for a stable floor at any size

    def __init__(self, engine: Any, exclude: set[int] | None = None) -> None:
        import numpy as np

        self.engine = engine
        self.index = engine.index
        self.vectors: dict[int, Any] | None = getattr(self.index.vectors, "_vectors", None)
        self._floor_ids: list[int] = []
        self._sample: Any = None  # the floor's vectors, stacked on first use
        if self.vectors:
            ids = sorted(i for i in self.vectors if i not in (exclude or set())) or sorted(self.vectors)
            if len(ids) > self.FLOOR_SAMPLE:
                picks = np.linspace(0, len(ids) - 1, self.FLOOR_SAMPLE).astype(int)
                ids = [ids[i] for i in picks]
            self._floor_ids = ids
        self.n_docs = len(self.index.keyword)

    def query_vector(self, text: str) -> tuple[Any, str | None]:
        if not self.vectors:
            return None, "the index has no vectors"
        try:
            embedding = self.engine._embed_query(text, ("semantic",))
        except Exception as exc:  # the embedder is a soft seam here too
            return None, f"{type(exc).__name__}: {exc}"
        if embedding.vector is None:
            return None, embedding.error or embedding.skipped or "no query vector"
        return embedding.vector, None

    def score(self, interest: Interest, chunk_ids: list[int]) -> tuple[list[Match], str | None]:
        """Every allowed chunk of ``chunk_ids`` scored against ``interest``, best first."""
        import numpy as np

        from memsearch.index.keyword import lucene_idf
        from memsearch.tokenize import tokenize

        allowed = [cid for cid in chunk_ids if _passes(self.index.chunks[cid], interest)]
        if not allowed:
            return [], None
        vector, semantic_error = self.query_vector(interest.query)
        floor = 0.0
        if vector is not None and self._floor_ids:
            if self._sample is None:
                self._sample = np.stack([self.vectors[i] for i in self._floor_ids])
            floor = float(np.median(self._sample @ vector))
        terms = set(tokenize(interest.query))
        weights = {}
        for term in terms:
            df = int(np.count_nonzero(self.index.keyword.scores([term]))) if self.n_docs else 0
            weights[term] = lucene_idf(max(self.n_docs, 1), df)
        total = sum(weights.values())
        matches = []
        for cid in allowed:
            chunk = self.index.chunks[cid]
            cosine = meaning = None
            if vector is not None and cid in self.vectors:
                cosine = float(self.vectors[cid] @ vector)
                meaning = min(1.0, max(0.0, (cosine - floor) / max(1.0 - floor, 1e-6)))
            have = set(tokenize(f"{chunk.header}\n{chunk.text}"))
            wording = sum(w for t, w in weights.items() if t in have) / total if total > 0 else 0.0
            score = 1.0 - (1.0 - (meaning or 0.0)) * (1.0 - wording / 2.0)
            matches.append(
                Match(
                    cid,
                    chunk,
                    round(score, 4),
                    round(meaning or 0.0, 4),
                    round(wording, 4),
                    None if cosine is None else round(cosine, 4),
                )
            )
        matches.sort(key=lambda m: (-m.score, m.chunk_id))
        return matches, semantic_error


def _passes(chunk: Chunk, interest: Interest) -> bool:
    if interest.fact_type and chunk.fact_type != interest.fact_type:
        return False
    if interest.territory:
        prefix = interest.territory.lstrip("./")
        if not (chunk.path.startswith(prefix) or chunk.territory == prefix.rstrip("/")):
            return False
    return True


def _match(
    vault: Path,
    index_home: Path,
    settings: Settings | None,
    config: SignalConfig,
    new: dict[str, Chunk],
    fired: dict[str, str],
    now: datetime | None,
) -> tuple[list[dict[str, Any]], set[str]]:
    """Events for new chunks scoring at or above an interest's threshold; and the chunks to defer."""
    from memsearch.api import open_index

    engine = open_index(vault, settings, index_home)
    hash_of = {}
    for cid, chunk in engine.index.chunks.items():
        short = _short(chunk.content_hash)
        if short in new and chunk.path != config.interests_file:
            hash_of[cid] = short
    scorer = Scorer(engine, exclude=set(hash_of))
    stamp = (now or datetime.now(tz=UTC)).isoformat(timespec="seconds")
    events: list[dict[str, Any]] = []
    manifest = engine.index.manifest
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
    chunks: Mapping[int, Chunk] | Callable[[], Mapping[int, Chunk]],
) -> SignalReport:
    """The index run's hook: check for new matches; never raises (a signal must not fail an index).

    ``chunks`` may be a loader (a run that changed nothing has not loaded the index): it is
    called only when an earlier run left matches to retry.
    """
    try:
        report = check_new_memories(vault, index_home, settings, chunks)
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
    from memsearch.scan import check_vault

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
        from memsearch.api import open_index

        engine = open_index(vault, index_dir=index_home)
        scorer = Scorer(engine)
        ids = sorted(c for c, ch in engine.index.chunks.items() if ch.path != config.interests_file)
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


# --- forgetting ---


def purge(home: Path, content_hashes: set[str], forget: ForgetList, inbox: Path, changed: bool) -> None:
    """The signal state forgets the chunks' hashes; the signal log loses every event about a
    forgotten file or that writes a forgotten name (in any of its fields, in any spelling); the
    last run's record goes when anything was forgotten (``changed``)."""
    shorts = {h[:16] for h in content_hashes}
    state = load_state(home)
    if state is not None and shorts:
        state["seen"] = [h for h in state.get("seen", []) if h not in shorts]
        state["fired"] = {
            k: v for k, v in state.get("fired", {}).items() if not any(s in k or s == v for s in shorts)
        }
        save_state(home, state)
    for log_file in {Path(inbox), IndexLayout(home).signal_inbox}:
        if log_file.is_file():
            _purge_log(log_file, forget)
    last = IndexLayout(home).signal_last_run
    if last.exists() and changed:
        last.unlink(missing_ok=True)


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _purge_log(log_file: Path, forget: ForgetList) -> None:
    raw = log_file.read_bytes()
    kept: list[bytes] = []
    for line in raw.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            kept.append(line)
            continue
        target = event.get("target") if isinstance(event, dict) else None
        if isinstance(target, str) and forget.has_path(target):
            continue
        texts = _strings(event)
        payload = event.get("payload") if isinstance(event, dict) else None
        entities = payload.get("entities", []) if isinstance(payload, dict) else []
        if forget.names_entity(e for e in entities if isinstance(e, str)) or any(
            forget.mentions(t) for t in texts
        ):
            continue
        if forget.entities and any(entity_hash(t) in forget.entities for t in texts if len(t) <= 100):
            continue
        kept.append(line)
    new = b"".join(ln + b"\n" for ln in kept)
    if new != raw:
        atomic_write(log_file, new)
