"""Time: per-chunk timestamps, recency decay, and windows named in the query.

Pure functions over an array of epoch seconds (NaN = undated). Decay multiplies by a factor in
(0, 1], so it can only ever lower a signal. Undated chunks and settled world knowledge get the
neutral value of one half-life, so reference material is not punished for being old.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import numpy as np

from memsearch.dates import Span, utc_from_timestamp, yearly_occurrences
from memsearch.index.keyword import fit_mask, top_hits
from memsearch.models import Hit

DAY = 86_400.0
#: Recency given to chunks with no timestamp, or whose fact type is world: one half-life's worth.
NEUTRAL_RECENCY = 0.5
#: A yearly window ("on March 26") scores its most recent past occurrence this much above 1, and
#: each older one with the bonus halved once more; an occurrence still to come gets none. Inside
#: any occurrence an entry scores at least 1, so an exact day in any year beats a near miss of the
#: nearest one (at most 0.5 x 1.1), and the query's window still counts every year's entries.
NEAREST_YEAR_BONUS = 0.1
YEARLY_BONUS_DECAY = 0.5
#: Years a yearly window reaches back from now at most: a life's memories, not a stray date in 1066.
YEARLY_REACH_YEARS = 100
#: Inside a window, a chunk dated only by when its note says it was written or edited (frontmatter
#: ``updated``/``date``: not an entry's own date, see :func:`memsearch.models.entry_dated`) scores
#: this fraction of an entry's: as much as an entry one
#: window-length outside the window (window scores halve per window-length). An edit in March says
#: little about what happened in March; the reference note it touched is not a March memory.
EDIT_DATE_WEIGHT = 0.5
#: ... and a chunk dated only by when its file was saved (commit time, mtime) scores nothing there:
#: nothing written in it says when, and a vault copied or committed at once has every such note
#: saved the same day ("what happened last week" found the identity notes and a book of a vault
#: made last week, not its journal). Recency, which only orders what the other lists found, still
#: reads it.
SAVED_DATE_WEIGHT = 0.0
#: Within a window, the more recent of two equal matches goes first: 1 + this x its decay by age.
#: Small, so it only breaks ties. Every chunk in a window is dated, so it decays by its own date;
#: a timeless (world) note's neutral recency would put a reference note edited in the window
#: above every older entry of it.
WINDOW_RECENCY_TIEBREAK = 0.01
#: Outside its window an entry is at least this share of the window's length away from it: below
#: every entry inside, whatever the recency tie-break adds (0.5 ** 0.02 x 1.01 < 1). Tomorrow's
#: journal, dated at the midnight that ends "yesterday", tied the day's own entry and, the more
#: recent, came first. Further out the window's neighbours keep their score: a memory is often
#: written the day after what it tells of (LoCoMo any@10 0.856 -> 0.855 with every neighbour
#: scored 2% lower).
OUTSIDE_FLOOR = 0.02
#: A window fades over its own length, up to a year: "before 2024" reaches back two thousand years,
#: and a 2025 entry is not near it for that.
MAX_FADE_SPAN = 365 * DAY


#: A half-life: one for every chunk, or one a chunk (``TimeIndex.half_lives_of``).
HalfLife = float | np.ndarray


def decay(age_days: np.ndarray | float, half_life_days: HalfLife) -> np.ndarray:
    """0.5 ** (age / half_life), with future timestamps treated as age 0. Always in (0, 1]."""
    age = np.maximum(np.asarray(age_days, dtype=np.float64), 0.0)
    return np.power(0.5, age / np.maximum(half_life_days, 1e-9))


def recency_scores(
    timestamps: np.ndarray, timeless: np.ndarray, now: datetime, half_life_days: HalfLife
) -> np.ndarray:
    """Recency in (0, 1] for every chunk id; neutral for undated or timeless (world) chunks."""
    age_days = (now.timestamp() - timestamps) / DAY
    scores = np.where(
        np.isnan(timestamps) | timeless, NEUTRAL_RECENCY, decay(np.nan_to_num(age_days), half_life_days)
    )
    return scores.astype(np.float32)


def window_scores(timestamps: np.ndarray, start: datetime, end: datetime) -> np.ndarray:
    """1 inside [start, end); outside, halves with every window-length of distance (a year at most,
    :data:`MAX_FADE_SPAN`; :data:`OUTSIDE_FLOOR` of it at least); 0 when undated. A date without a
    time (midnight UTC, as the vault's dates are read) is its whole day (:func:`inside`): inside
    when the day overlaps the window, else as far away as the middle of the day."""
    lo, hi = start.timestamp(), end.timestamp()
    span = min(max(hi - lo, DAY), MAX_FADE_SPAN)
    day = whole_days(timestamps)
    within = inside(timestamps, lo, hi, day)
    at = np.where(day, timestamps + DAY / 2, timestamps)
    distance = np.where(within, 0.0, np.where(at < lo, lo - at, at - hi))
    distance = np.where(within, 0.0, np.maximum(distance, OUTSIDE_FLOOR * span))
    distance = np.where(np.isnan(timestamps), np.inf, distance)
    scores = np.power(0.5, distance / span)
    # Beyond three window-lengths the signal is noise; drop it from the list.
    scores[distance > 3 * span] = 0.0
    return scores.astype(np.float32)


def whole_days(timestamps: np.ndarray) -> np.ndarray:
    """Which timestamps are dates without a time: midnight UTC, as a journal's name or heading is
    read. (A moment written at midnight reads as its day too: the day is where it is.)"""
    with np.errstate(invalid="ignore"):
        return np.fmod(timestamps, DAY) == 0.0


def inside(timestamps: np.ndarray, lo: float, hi: float, day: np.ndarray | None = None) -> np.ndarray:
    """Which timestamps fall in [lo, hi): a moment inside it, or a day (``day``: :func:`whole_days`)
    that overlaps it. The day after a one-day window begins where the window ends: not inside."""
    day = whole_days(timestamps) if day is None else day
    with np.errstate(invalid="ignore"):
        return np.where(
            day, (timestamps < hi) & (timestamps + DAY > lo), (timestamps >= lo) & (timestamps < hi)
        )


def in_window_scores(
    timestamps: np.ndarray,
    date_weight: np.ndarray,
    start: datetime,
    end: datetime,
    now: datetime,
    half_life_days: HalfLife,
) -> np.ndarray:
    """What a window gives each chunk: :func:`window_scores` times what its date says of it
    (``date_weight``: :meth:`TimeIndex.date_weights`), times the recency tie-break. 0 when undated."""
    scores = window_scores(timestamps, start, end) * date_weight
    age_days = (now.timestamp() - np.nan_to_num(timestamps)) / DAY
    return (scores * (1.0 + WINDOW_RECENCY_TIEBREAK * decay(age_days, half_life_days))).astype(np.float32)


def occurrence_weight(years_back: int | None) -> float:
    """Weight of an occurrence of a yearly window: 1.1 for the most recent past one, then 1.05,
    1.025, ... for each year further back; 1 for one after now (``years_back`` None): a memory is
    written after what it tells of, so a date still to come is the least likely meant."""
    if years_back is None:
        return 1.0
    return 1.0 + NEAREST_YEAR_BONUS * YEARLY_BONUS_DECAY**years_back


class TimeIndex:
    name = "time"

    def __init__(self) -> None:
        self.timestamps = np.full(0, np.nan, dtype=np.float64)
        self.timeless = np.zeros(0, dtype=bool)
        self.entry = np.zeros(0, dtype=bool)  # dated by its own entry (not by an edit of its note)
        self.saved = np.zeros(0, dtype=bool)  # dated only by when its file was saved (commit, mtime)
        self.present = np.zeros(0, dtype=bool)  # slots past the last id, or removed, are not chunks
        self.half_lives = np.full(0, np.nan, dtype=np.float64)  # a chunk's own half-life; NaN: none
        #: Bumped by every set and remove: anything derived from the chunk table can key on it.
        self.version = 0
        self._by_time: tuple[int, np.ndarray, np.ndarray] | None = None  # (version, ids, their times)
        self._bound: tuple[int, int] | None = None  # (version, id_bound)

    def set(
        self,
        chunk_id: int,
        timestamp: datetime | None,
        timeless: bool,
        entry: bool = True,
        half_life: float | None = None,
        saved: bool = False,
    ) -> None:
        """``entry``: the timestamp is the chunk's own entry's date (see
        :func:`memsearch.models.entry_dated`); False for an edit date, which counts less in a window.
        ``saved``: the timestamp is only when the file was saved (:func:`memsearch.models.save_dated`).
        ``half_life``: the chunk's own recency half-life in days (a notebook moment's decay rate,
        :func:`memsearch.models.half_life_days`), in place of the one a search gives."""
        if chunk_id >= len(self.timestamps):
            size = max(chunk_id + 1, 2 * len(self.timestamps), 64)
            ts = np.full(size, np.nan)
            ts[: len(self.timestamps)] = self.timestamps
            tl = np.zeros(size, dtype=bool)
            tl[: len(self.timeless)] = self.timeless
            en = np.zeros(size, dtype=bool)
            en[: len(self.entry)] = self.entry
            sv = np.zeros(size, dtype=bool)
            sv[: len(self.saved)] = self.saved
            pr = np.zeros(size, dtype=bool)
            pr[: len(self.present)] = self.present
            hl = np.full(size, np.nan)
            hl[: len(self.half_lives)] = self.half_lives
            self.timestamps, self.timeless, self.entry, self.present = ts, tl, en, pr
            self.saved = sv
            self.half_lives = hl
        self.timestamps[chunk_id] = timestamp.timestamp() if timestamp else np.nan
        self.half_lives[chunk_id] = np.nan if half_life is None else half_life
        self.timeless[chunk_id] = timeless
        self.entry[chunk_id] = entry
        self.saved[chunk_id] = saved
        self.present[chunk_id] = True
        self.version += 1

    def remove(self, chunk_id: int) -> None:
        if chunk_id < len(self.timestamps):
            self.timestamps[chunk_id] = np.nan
            self.present[chunk_id] = False
            self.version += 1

    def half_lives_of(self, ids: np.ndarray, half_life_days: float) -> HalfLife:
        """Each chunk's own half-life where it has one, else ``half_life_days`` (a float when no
        chunk of ``ids`` has its own: the common case costs nothing)."""
        own = self.half_lives[ids]
        mine = ~np.isnan(own)
        if not mine.any():
            return half_life_days
        return np.where(mine, own, half_life_days)

    def date_weights(self, ids: np.ndarray) -> np.ndarray:
        """What each chunk's date counts for in a window: 1 for an entry's own date,
        :data:`EDIT_DATE_WEIGHT` for an edit's, :data:`SAVED_DATE_WEIGHT` for a file's save."""
        edit = np.where(self.saved[ids], SAVED_DATE_WEIGHT, EDIT_DATE_WEIGHT)
        return np.where(self.entry[ids], 1.0, edit)

    def id_bound(self) -> int:
        """1 + the largest chunk id present (0 when empty): ``IndexData.n_ids`` without a pass over
        the chunk table (``max`` over a dict of 100k ids is ~1.2 ms a query; this is kept per version)."""
        cached = self._bound
        if cached is None or cached[0] != self.version:
            present = np.flatnonzero(self.present)
            cached = self._bound = (self.version, int(present[-1]) + 1 if len(present) else 0)
        return cached[1]

    def _time_sorted(self) -> tuple[np.ndarray, np.ndarray]:
        """(ids, their times) of the present dated chunks in time order, kept per version."""
        cached = self._by_time
        if cached is None or cached[0] != self.version:
            dated = np.flatnonzero(self.present & ~np.isnan(self.timestamps))
            order = np.argsort(self.timestamps[dated], kind="stable")
            cached = self._by_time = (self.version, dated[order], self.timestamps[dated[order]])
        return cached[1], cached[2]

    def _dated_between(self, lo: float, hi: float) -> np.ndarray:
        """Ids of present chunks dated within [lo, hi] (a superset is fine: callers score exactly)."""
        ids, times = self._time_sorted()
        return ids[np.searchsorted(times, lo, side="left") : np.searchsorted(times, hi, side="right")]

    def search(
        self,
        k: int,
        now: datetime,
        half_life_days: float,
        window: tuple[datetime, datetime] | None = None,
        allowed: np.ndarray | None = None,
        candidates: np.ndarray | None = None,
        yearly: bool = False,
        tie_key: Callable[[np.ndarray], np.ndarray] | None = None,
    ) -> list[Hit]:
        """Chunks near the query's window (when it names one), else the most recent.

        A ``yearly`` window (a day or month named without a year) is scored in every year that has
        dated chunks: each chunk by its best occurrence, weighted by :func:`occurrence_weight`
        (the nearest past occurrence first, one still to come after every past one).

        ``candidates`` restricts the list to chunk ids another strategy found: recency alone
        is a prior, not evidence, so in fusion without a window it only reorders those.

        Only the chunks that can score are scored: with a window, those dated within three
        window-lengths of it (found by bisection in a time-sorted copy of the ids); with
        candidates, the candidates. Each is scored by the same element-wise formula as a pass
        over every chunk would, so the list is the same.
        """
        n = len(self.timestamps)
        if window is not None and yearly:
            return self._search_yearly(k, now, half_life_days, window, allowed, candidates, tie_key)
        if window is not None:
            ids = self._near(window)
        elif candidates is not None:
            ids = np.unique(candidates[(candidates >= 0) & (candidates < n)])
            ids = ids[self.present[ids]]
        else:
            ids = np.flatnonzero(self.present)
        if window is not None:
            ids = self._restrict(ids, allowed, candidates)
        elif allowed is not None and len(ids):
            ids = ids[fit_mask(allowed, n)[ids]]
        if not len(ids):
            return []
        times = self.timestamps[ids]
        half_lives = self.half_lives_of(ids, half_life_days)
        if window is not None:
            scores = in_window_scores(times, self.date_weights(ids), *window, now, half_lives)
        else:
            scores = recency_scores(times, self.timeless[ids], now, half_lives)
        # The cut goes through the full-length array, as before: which of several chunks tied at
        # the k-th score makes the list is argpartition's choice over exactly the same input.
        full = np.zeros(n, dtype=np.float32)
        full[ids] = scores
        return top_hits(full, k, tie_key)

    def _near(self, window: tuple[datetime, datetime]) -> np.ndarray:
        """Ids dated within three window-lengths of ``window`` (where window_scores can be above 0)."""
        lo, hi = window[0].timestamp(), window[1].timestamp()
        reach = 3 * min(max(hi - lo, DAY), MAX_FADE_SPAN) + DAY  # a day of slack: window_scores cuts
        return self._dated_between(lo - reach, hi + reach)

    def _restrict(
        self, ids: np.ndarray, allowed: np.ndarray | None, candidates: np.ndarray | None
    ) -> np.ndarray:
        n = len(self.timestamps)
        if candidates is not None:
            only = np.zeros(n, dtype=bool)
            only[candidates[(candidates >= 0) & (candidates < n)]] = True
            ids = ids[only[ids]]
        if allowed is not None and len(ids):
            ids = ids[fit_mask(allowed, n)[ids]]
        return ids

    def _dated_years(self) -> tuple[int, int] | None:
        """First and last year of the present dated chunks, or None when none is dated."""
        times = self._time_sorted()[1]
        if not len(times):
            return None
        first, last = (utc_from_timestamp(t).year for t in (times[0], times[-1]))
        return first, last

    def _occurrences(self, window: Span, now: datetime) -> list[Span]:
        """A yearly window in each year near the dated chunks', the nearest past first."""
        years = self._dated_years()
        if years is None:
            return []
        # One year either side: a window near New Year reaches into the neighbouring year.
        first = max(years[0] - 1, now.year - YEARLY_REACH_YEARS)
        last = min(max(years[1] + 1, now.year), now.year + YEARLY_REACH_YEARS)
        return yearly_occurrences(*window, first, last, now)

    def entries_within(
        self, ids: np.ndarray, window: tuple[datetime, datetime], now: datetime, yearly: bool = False
    ) -> int:
        """How many of ``ids`` an entry of their own dates inside ``window`` (``[start, end)``; a
        yearly one in any year). The window's list also ranks its neighbours (a day after may tell
        of the day); this counts only the memories of the query's time, for the signal."""
        ids = np.asarray(ids, dtype=np.int64)
        ids = ids[(ids >= 0) & (ids < len(self.timestamps))]
        times, own = self.timestamps[ids], self.entry[ids] & self.present[ids]
        within = np.zeros(len(ids), dtype=bool)
        for lo, hi in self._occurrences(window, now) if yearly else [window]:
            within |= inside(times, lo.timestamp(), hi.timestamp())
        return int(np.count_nonzero(within & own))

    def _search_yearly(
        self,
        k: int,
        now: datetime,
        half_life_days: float,
        window: tuple[datetime, datetime],
        allowed: np.ndarray | None,
        candidates: np.ndarray | None,
        tie_key: Callable[[np.ndarray], np.ndarray] | None = None,
    ) -> list[Hit]:
        full = np.zeros(len(self.timestamps), dtype=np.float32)
        for rank, span in enumerate(self._occurrences(window, now)):
            ids = self._restrict(self._near(span), allowed, candidates)
            if not len(ids):
                continue
            times = self.timestamps[ids]
            # yearly_occurrences lists the past ones first, so their rank counts the years back
            weight = occurrence_weight(rank if span[0] <= now else None)
            half_lives = self.half_lives_of(ids, half_life_days)
            # The nearer year's bonus is for its entries: its neighbours (June 1st beside "in May")
            # stay below every year's own entries, as a window's neighbours stay below its entries.
            within = inside(times, span[0].timestamp(), span[1].timestamp())
            scores = in_window_scores(times, self.date_weights(ids), *span, now, half_lives)
            scores = scores * np.where(within, np.float32(weight), np.float32(1.0))
            full[ids] = np.maximum(full[ids], scores)
        return top_hits(full, k, tie_key)
