"""Value objects shared by every pipeline stage.

They are frozen dataclasses: a stage never mutates what another produced.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import asdict, dataclass, field, fields
from datetime import datetime
from functools import cached_property, lru_cache
from typing import Any, Literal, NamedTuple

from memsearch.dates import date_from_filename

FactType = Literal["world", "experience"]
FACT_TYPES: tuple[str, ...] = ("world", "experience")

#: Chunk boundary strategies a territory may name (see memsearch.chunkers).
CHUNK_STRATEGIES: tuple[str, ...] = ("sections", "journal", "ledger", "chapters", "archive", "notebook")


@dataclass(frozen=True)
class Territory:
    """A region of the vault: which files (path prefix), how they are cut, how close to the self."""

    prefix: str  # posix, relative to the vault, ends with "/" ("" matches everything)
    strategy: str  # one of CHUNK_STRATEGIES
    weight: float  # ontological weight applied after fusion
    fact_type: FactType  # default fact type of its chunks (frontmatter `fact_type:` wins)
    name: str = ""  # display name; defaults to the prefix without its slash

    @property
    def label(self) -> str:
        return self.name or self.prefix.rstrip("/") or "default"


@dataclass(frozen=True)
class Chunk:
    """One memory: a contiguous line range of one file.

    ``text`` is exactly the file's lines ``start_line..end_line`` (1-based, inclusive).
    ``header`` is short context that is not in those lines but belongs to them
    (file title, enclosing heading path, the entry's date), prepended when indexing.
    """

    path: str  # posix path relative to the vault
    start_line: int  # 1-based, inclusive
    end_line: int  # 1-based, inclusive
    heading: str  # nearest heading (or entry date / chapter title), "" if none
    territory: str  # Territory.label
    fact_type: FactType
    timestamp: datetime | None  # timezone-aware (UTC when the source had no zone)
    timestamp_source: str  # frontmatter | heading | line | filename | git | mtime | none
    entities: tuple[str, ...]  # display names, deduplicated, in first-seen order
    text: str
    header: str = ""
    #: A notebook moment's own ``importance`` (0..1): a prior on its score (:func:`importance_prior`).
    importance: float | None = None
    #: A notebook moment's own ``decay_rate`` (per day): its recency half-life (:func:`half_life_days`).
    decay_rate: float | None = None

    @property
    def key(self) -> str:
        """Stable identity of this memory inside the vault."""
        return f"{self.path}:{self.start_line}-{self.end_line}"

    @cached_property  # once per chunk: the signal check hashes every chunk after each index run
    def content_hash(self) -> str:
        """Hash of what gets embedded, so unchanged text is never embedded twice."""
        return hashlib.sha256(f"{self.header}\n{self.text}".encode()).hexdigest()


#: Timestamp sources that date the content itself: a journal day's heading or file name, a ledger
#: line, a dated section. The others (frontmatter ``date``/``created``/``updated``, the file's commit
#: time, its mtime) say when the note was written or last edited, not what it tells of. A notebook
#: moment's (or escalation's) own time is ``moment``.
ENTRY_DATE_SOURCES = frozenset({"heading", "line", "filename", "moment"})
#: Timestamp sources that say only when the file was saved (its last commit, its mtime), nothing
#: written in it: a vault copied or committed at once has every such note saved the same day.
SAVE_DATE_SOURCES = frozenset({"git", "mtime"})


def save_dated(chunk: Chunk) -> bool:
    """Whether the chunk's timestamp is only when its file was saved (see :data:`SAVE_DATE_SOURCES`)."""
    return chunk.timestamp_source in SAVE_DATE_SOURCES


@lru_cache(maxsize=4096)
def _filename_day(path: str) -> datetime | None:
    return date_from_filename(path)


def entry_dated(chunk: Chunk) -> bool:
    """Whether the chunk's timestamp is its own entry's date (see :data:`ENTRY_DATE_SOURCES`).

    A frontmatter date on the same day as the file's name (``journal/2024-05-03.md`` with
    ``date: 2024-05-03``) is the entry's date too: frontmatter only won because it is read first.
    """
    if chunk.timestamp_source in ENTRY_DATE_SOURCES:
        return True
    if chunk.timestamp_source != "frontmatter" or chunk.timestamp is None:
        return False
    day = _filename_day(chunk.path)
    return day is not None and day.date() == chunk.timestamp.date()


#: A moment of importance 0 keeps this share of its score (importance 1 keeps all of it): a prior,
#: not evidence, so it only reorders what the strategies found, and like decay it never raises a
#: score, so the best score possible (and a 0..1 score) stays what it was.
IMPORTANCE_FLOOR = 0.5


def importance_prior(chunk: Chunk) -> float:
    """What a chunk's score is multiplied by for its importance: 1 without one, else
    ``IMPORTANCE_FLOOR + (1 - IMPORTANCE_FLOOR) * importance``, in [IMPORTANCE_FLOOR, 1]."""
    importance = chunk.importance
    if importance is None:
        return 1.0
    return IMPORTANCE_FLOOR + (1.0 - IMPORTANCE_FLOOR) * min(max(importance, 0.0), 1.0)


def half_life_days(chunk: Chunk) -> float | None:
    """The chunk's own recency half-life, from its ``decay_rate`` r per day (a memory weighs
    ``exp(-r * days)``, so half of it is gone after ln 2 / r days; r = 0 never fades); None: the
    settings' half-life."""
    rate = chunk.decay_rate
    if rate is None:
        return None
    return math.inf if rate <= 0 else math.log(2.0) / rate


def chunk_priors(chunk: Chunk) -> dict[str, Any]:
    """What ``--explain`` shows of a chunk's own priors (none for most chunks): its importance and
    the factor it put on the score (``territory_weight`` includes it), its decay rate and the
    recency half-life it gave the time strategy."""
    shown: dict[str, Any] = {}
    if chunk.importance is not None:
        shown["importance"] = {"importance": chunk.importance, "prior": round(importance_prior(chunk), 4)}
    half_life = half_life_days(chunk)
    if half_life is not None:
        shown["decay"] = {
            "decay_rate": chunk.decay_rate,
            "half_life_days": round(half_life, 2) if math.isfinite(half_life) else None,
        }
    return shown


#: A chunk's fields in declaration order (the order of :func:`chunk_row`).
CHUNK_ORDER = tuple(f.name for f in fields(Chunk))
CHUNK_FIELDS = frozenset(CHUNK_ORDER)
#: Fields a chunker may leave out (most chunks have none of them), with their defaults.
OPTIONAL_FIELDS: dict[str, Any] = {"importance": None, "decay_rate": None}


def chunk_from_fields(values: dict[str, Any]) -> Chunk:
    """``Chunk(**values)`` for a dict holding every field (the optional ones may be left out), typed
    already (the chunker's, or one read back from the index): without the frozen ``__init__``'s
    ``object.__setattr__`` per field, which was most of the time it took to load 100k chunks from a
    snapshot (7 us a chunk, ~1 here)."""
    if values.keys() != CHUNK_FIELDS:
        if not CHUNK_FIELDS - OPTIONAL_FIELDS.keys() <= values.keys() <= CHUNK_FIELDS:
            return Chunk(**values)  # let the dataclass name what is missing or unknown
        values = {**OPTIONAL_FIELDS, **values}
    chunk = object.__new__(Chunk)
    chunk.__dict__.update(values)
    return chunk


def chunk_row(chunk: Chunk) -> tuple[Any, ...]:
    """A chunk's fields as a plain tuple in :data:`CHUNK_ORDER` (cheap to pickle and unpickle)."""
    values = chunk.__dict__
    return tuple(values[name] for name in CHUNK_ORDER)


def chunk_from_row(row: tuple[Any, ...]) -> Chunk:
    """The chunk :func:`chunk_row` made ``row`` of (every field is there, in order: no key check)."""
    chunk = object.__new__(Chunk)
    chunk.__dict__.update(zip(CHUNK_ORDER, row, strict=True))
    return chunk


def chunk_replace(chunk: Chunk, **changes: Any) -> Chunk:
    """``dataclasses.replace`` for a chunk, through :func:`chunk_from_fields`."""
    values = {name: getattr(chunk, name) for name in CHUNK_FIELDS}
    values.update(changes)
    return chunk_from_fields(values)


@dataclass(frozen=True)
class ParsedFile:
    """What a chunker learned about one file."""

    path: str
    title: str
    frontmatter: dict[str, Any]
    aliases: dict[str, str]  # alias -> canonical entity name declared in this file
    chunks: tuple[Chunk, ...]
    warnings: tuple[str, ...] = ()  # e.g. "malformed frontmatter: ... (read as plain text)"


class Hit(NamedTuple):
    """One entry of one retriever's ranked list. Fusion never knows who made it.

    A named tuple, not a frozen dataclass: a query makes a few hundred, and a tuple is made in C
    (0.31 us a hit against 0.50 here)."""

    chunk_id: int
    score: float  # raw score on the retriever's own scale


@dataclass(frozen=True)
class StrategyContribution:
    strategy: str
    rank: int  # 1-based rank in that strategy's list
    raw_score: float
    contribution: float  # weight * 1 / (k + rank), before the territory weight


@dataclass(frozen=True)
class Result:
    """One ranked pointer into the vault. Never the content itself."""

    path: str
    start_line: int
    end_line: int
    score: float  # 0..1, relative to the strongest possible signal
    territory: str
    fact_type: str
    entities: tuple[str, ...]
    heading: str = ""
    timestamp: str | None = None
    chunks: int = 1  # how many of the file's chunks matched (grouped results)
    explanation: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["entities"] = list(self.entities)
        if self.explanation is None:
            data.pop("explanation")
        return data


@dataclass(frozen=True)
class Health:
    """Which strategies ran, which failed or were skipped, and why."""

    ran: tuple[str, ...] = ()
    failed: dict[str, str] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)
    degraded: bool = False
    index_built_at: str | None = None
    notes: tuple[str, ...] = ()
    timings_ms: dict[str, float] = field(default_factory=dict)
    #: Of ``notes``, those saying that the built-in indexes answered for the vault's backend (it did
    #: not answer, or it is behind the index): the CLI says them in every format.
    fallbacks: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "timings_ms": {k: round(v, 3) for k, v in self.timings_ms.items()},
            "ran": list(self.ran),
            "failed": dict(self.failed),
            "skipped": dict(self.skipped),
            "degraded": self.degraded,
            "index_built_at": self.index_built_at,
            "notes": list(self.notes),
            "fallbacks": list(self.fallbacks),
        }


@dataclass(frozen=True)
class Evidence:
    """What the signal (:mod:`memsearch.resonance`) is read from.

    ``None`` where the strategy behind a figure did not run.
    """

    results: int
    informative_terms: int = 0
    missing_share: float | None = None
    coverage: float | None = None  # the keyword head's share of an ideal match of every term
    semantic_z: float | None = None
    semantic_sample: int | None = None  # the vectors the standout was measured against
    window_entries: int | None = None  # dated chunks inside the query's window
    entities: int = 0  # known entities the query names
    identifiers: int = 0  # identifiers the query writes ("PO-7781", "sign_ed25519()") that the vault holds
    identifiers_missing: int = 0  # ... and those it does not
    #: The script of the passage nearest in meaning when the embedder reads many languages and that
    #: script is not the query's (a question asked in one language of a memory kept in another).
    other_script: str | None = None
    form_only: bool = False  # the query's words are all question form or stopwords ("the", "who am I")
    #: A question about the self ("who am I", "am I allowed to ..."): the territory closer to the
    #: self (weighed above 1) its first result lies in; else None.
    self_territory: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in asdict(self).items()}


@dataclass(frozen=True)
class Signal:
    level: str  # strong | thin | none
    reason: str
    evidence: Evidence

    def to_dict(self) -> dict[str, Any]:
        return {"level": self.level, "reason": self.reason, "evidence": self.evidence.to_dict()}


@dataclass(frozen=True)
class SearchResponse:
    query: str
    results: tuple[Result, ...]
    health: Health
    signal: Signal | None = None  # whether anything resonates (memsearch.resonance)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"query": self.query}
        if self.signal is not None:
            data["signal"] = self.signal.level
            data["signal_reason"] = self.signal.reason
        data["health"] = self.health.to_dict()
        data["results"] = [r.to_dict() for r in self.results]
        return data
