"""1. filter: the territory, fact type, entity and date filters as a mask over chunk ids."""

from __future__ import annotations

import bisect
from datetime import datetime

import numpy as np

from memsearch.dates import utc_from_timestamp
from memsearch.index.in_memory import IndexData
from memsearch.query import Filters


def dated_span(index: IndexData, filters: Filters) -> tuple[datetime, datetime, bool] | None:
    """(first, last) of the index's chunk dates, and whether any falls inside the filters' since
    and until (inclusive, as :func:`filter_mask` reads them); None when no chunk is dated."""
    stamps = index.kept("filter_columns", _FilterColumns).timestamp
    dated = stamps[~np.isnan(stamps)]
    if not len(dated):
        return None
    inside = np.ones(len(dated), dtype=bool)
    if filters.since is not None:
        inside &= dated >= filters.since.timestamp()
    if filters.until is not None:
        inside &= dated <= filters.until.timestamp()
    first, last = (utc_from_timestamp(t) for t in (dated.min(), dated.max()))
    return first, last, bool(inside.any())


def filter_mask(index: IndexData, filters: Filters) -> np.ndarray | None:
    """Boolean mask over chunk ids of what the filters allow (None = everything).

    Vectorised: each filter is a comparison over a per-chunk column (path, territory, fact type,
    timestamp) or the graph's chunk list of an entity; the columns are built once per loaded
    index (:class:`_FilterColumns`), not a Python pass over every chunk per query.
    """
    if filters.is_empty():
        return None
    cols = index.kept("filter_columns", _FilterColumns)
    mask = cols.present.copy()
    prefix = (filters.territory or "").lstrip("./")
    if prefix:
        lo, hi = cols.path_codes_starting(prefix)
        allowed = (cols.path_code >= lo) & (cols.path_code < hi)
        territory = cols.territory_codes.get(prefix.rstrip("/"))
        if territory is not None:
            allowed |= cols.territory_code == territory
        mask &= allowed
    if filters.fact_type:
        mask &= cols.fact_code == cols.fact_codes.get(filters.fact_type, -1)
    for wanted in dict.fromkeys(index.graph.resolve(e) for e in filters.entities):
        ids = index.graph.chunk_ids(wanted)
        named = np.zeros(len(mask), dtype=bool)
        named[ids[ids < len(mask)]] = True
        mask &= named
    if filters.since or filters.until:
        ts = cols.timestamp
        dated = ~np.isnan(ts)
        if filters.since:
            dated &= ts >= filters.since.timestamp()
        if filters.until:
            dated &= ts <= filters.until.timestamp()
        mask &= dated
    return mask


class _FilterColumns:
    """Per-chunk columns for :func:`filter_mask`, indexed by chunk id.

    Paths are coded in sorted order, so "path starts with P" is one code range found by
    bisection. Kept on the index object (``IndexData.kept``) until its chunk table changes.
    """

    def __init__(self, index: IndexData) -> None:
        chunks = index.chunks
        n = (max(chunks) + 1) if chunks else 0
        self.present = np.zeros(n, dtype=bool)
        self.paths = sorted({c.path for c in chunks.values()})
        path_codes = {p: i for i, p in enumerate(self.paths)}
        self.territory_codes: dict[str, int] = {}
        self.fact_codes: dict[str, int] = {}
        self.path_code = np.full(n, -1, dtype=np.int64)
        self.territory_code = np.full(n, -1, dtype=np.int64)
        self.fact_code = np.full(n, -1, dtype=np.int64)
        self.timestamp = np.full(n, np.nan, dtype=np.float64)
        ids = np.fromiter(chunks.keys(), dtype=np.int64, count=len(chunks))
        self.present[ids] = True
        territories, facts = self.territory_codes, self.fact_codes
        self.path_code[ids] = [path_codes[c.path] for c in chunks.values()]
        self.territory_code[ids] = [
            territories.setdefault(c.territory, len(territories)) for c in chunks.values()
        ]
        self.fact_code[ids] = [facts.setdefault(c.fact_type, len(facts)) for c in chunks.values()]
        self.timestamp[ids] = [c.timestamp.timestamp() if c.timestamp else np.nan for c in chunks.values()]

    def path_codes_starting(self, prefix: str) -> tuple[int, int]:
        """[lo, hi): the codes of the paths that start with ``prefix``."""
        lo = bisect.bisect_left(self.paths, prefix)
        hi = bisect.bisect_right(self.paths, prefix, lo=lo, key=lambda p: p[: len(prefix)])
        return lo, hi
