"""Parse a query: its text, the time window it names, the entities it names, and its filters."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime

from memsearch import dates
from memsearch.errors import QueryError
from memsearch.index.graph import EntityGraph
from memsearch.models import FACT_TYPES
from memsearch.query_terms import Gloss
from memsearch.scan import composed
from memsearch.tokenize import tokenize

MAX_QUERY_CHARS = 4000
_DATE_ALONE = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclass(frozen=True)
class Filters:
    """Hard filters: a chunk that fails one is never returned."""

    territory: str | None = None  # path prefix ("journal/") or territory name
    fact_type: str | None = None  # world | experience
    entities: tuple[str, ...] = ()  # every one must be named by the chunk
    since: datetime | None = None  # inclusive
    until: datetime | None = None  # inclusive (a date alone: its last moment, :func:`as_until`)

    def is_empty(self) -> bool:
        return not (self.territory or self.fact_type or self.entities or self.since or self.until)


@dataclass(frozen=True)
class ParsedQuery:
    text: str
    #: The text without its time phrase ("last week" is not a keyword); empty when the time phrase
    #: is the whole query ("2025-11-14", "yesterday").
    keyword_text: str
    now: datetime
    window: dates.TimeWindow | None
    entities: tuple[str, ...]  # entity keys named in the query
    filters: Filters = field(default_factory=Filters)
    #: What each nickname or abbreviation of the query stands for (its entity key), and the
    #: nicknames and abbreviations of each full name it writes, searched as keywords beside it.
    #: (Embedding the query with its glosses was measured too: it pulled the entity's own note over
    #: the answer about as often as it helped.) Each is a :class:`~memsearch.query_terms.Gloss`
    #: that knows the name it glosses.
    glosses: tuple[str, ...] = ()
    #: The query's words that name a known entity, normalised, a possessive taken off ("Oz's
    #: method" gives "oz", "the Harbour Loop" gives "harbour loop").
    names: tuple[str, ...] = ()


def as_datetime(value: datetime | str | None, name: str) -> datetime | None:
    """An ISO string or datetime as an aware datetime (naive means UTC); a clear error otherwise."""
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    parsed = dates.parse_datetime(str(value))
    if parsed is None:
        try:
            parsed = datetime.fromisoformat(str(value))
        except ValueError:
            raise QueryError(
                f"{name}: {value!r} is not a date; use ISO form such as 2025-03-26 or 2025-03-26T14:00"
            ) from None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def query_now(value: datetime | str | None) -> datetime:
    """The moment a query is asked at (``value``, else the clock), on the vault's clock: its wall
    time where it was taken, read as UTC. The vault's dates carry no zone (a journal named
    2025-11-16, a ledger line at 09:12) and are read as UTC, so "yesterday" asked at 23:30 on the
    16th in New York (04:30 on the 17th in UTC) is the 15th, the day its journal is named for."""
    moment = as_datetime(value, "now") or datetime.now().astimezone()
    return moment.replace(tzinfo=UTC)


def on_vault_clock(moment: datetime | None) -> datetime | None:
    """``moment``'s wall time where it was taken, read as UTC, as the vault's own dates are read
    (``--since 2025-11-16T00:00-05:00`` is the 16th the journals are named for)."""
    return None if moment is None else moment.replace(tzinfo=UTC)


def as_until(value: datetime | str | None, name: str = "until") -> datetime | None:
    """:func:`as_datetime` for an inclusive end: a date alone (``2025-03-10``) means the whole of
    that day, as a person reading ``--until 2025-03-10`` means it, not its first moment."""
    moment = as_datetime(value, name)
    if moment is None or isinstance(value, datetime) or not _DATE_ALONE.fullmatch(str(value).strip()):
        return moment
    return moment.replace(hour=23, minute=59, second=59, microsecond=999_999)  # 9999-12-31 too


def parse_query(
    query: str,
    graph: EntityGraph,
    now: datetime | str | None = None,
    filters: Filters | None = None,
) -> ParsedQuery:
    if not isinstance(query, str) or not query.strip():
        raise QueryError(
            'the query is empty; say what you are looking for, e.g. memsearch search "signing keys"'
        )
    text = composed(" ".join(query.split()))[:MAX_QUERY_CHARS]  # as the notes are read (NFC)
    now_dt = query_now(now)
    filters = filters or Filters()
    if filters.fact_type and filters.fact_type not in FACT_TYPES:
        raise QueryError(f"fact_type {filters.fact_type!r} must be world or experience")
    window = dates.query_time_window(text, now_dt)
    keyword_text = dates.strip_time_phrase(text, window) if window else text
    named = graph.named_in_text(text)
    entities = tuple(dict.fromkeys(key for _, key in named if graph.known(key)))
    # A nickname or abbreviation ("Amma", "WBH") shares no word with what it stands for, so the
    # query's words alone cannot reach notes that use the full name; "Priya" for "Priya Raman"
    # needs no gloss (and one would pull the person's own note over what the query asks).
    glosses = [
        Gloss(key, written)
        for written, key in named
        if key != written and not set(tokenize(written)) & set(tokenize(key))
    ]
    # The other way round: a query that writes the full name ("put to sleep", "the autoclave") must
    # reach notes that use the vault's abbreviation or nickname for it ("PTS", "Big Blue"). So must
    # a nickname with words of its own beside one of the full name ("Dr Park" for "Jun Park"): that
    # word alone misses the notes that say "Jun". (A part of the full name, "Priya" or "Fenwick
    # Lane", is how the notes write it.) The entity's other names share one word's weight, as one
    # gloss, each word once, and only those sharing no word with the query.
    words = set(tokenize(text))
    for written, key in named:
        own, full = set(tokenize(written)), set(tokenize(key))
        if key == written or (own & full and own - full):
            others = [a for a in graph.aliases_of(key) if a != written and not set(tokenize(a)) & words]
            if others:
                glosses.append(Gloss(" ".join(dict.fromkeys(w for a in others for w in a.split())), written))
    return ParsedQuery(
        text,
        keyword_text if keyword_text.strip() or window is None else "",
        now_dt,
        window,
        entities,
        filters,
        tuple(dict.fromkeys(glosses)),
        tuple(dict.fromkeys(written for written, key in named if graph.known(key))),
    )
