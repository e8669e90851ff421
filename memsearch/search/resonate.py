"""6. resonate: the response's signal, strong, thin or none (:mod:`memsearch.resonance`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from memsearch.index.in_memory import IndexData
from memsearch.models import Hit, Signal
from memsearch.query import ParsedQuery
from memsearch.query_terms import asks_about_self
from memsearch.resonance import Evidence, judge
from memsearch.search.language_notes import nearest_in_other_script
from memsearch.search.state import MODAL_LIST, Asked, Found, Weighed
from memsearch.search.weigh import standout


def resonate(
    asked: Asked,
    found: Found,
    weighed: Weighed,
    fused_chunks: int,
    first_territory: str | None,
    asked_in: str | None,
    vectors_only: Mapping[str, np.ndarray] | None,
) -> Signal:
    """The response's signal, from evidence of the lists (``fused_chunks``: how many were fused;
    ``first_territory``: the first result's; ``vectors_only``: the query's vectors when it has no
    text, judged by their best moment)."""
    index, parsed = asked.index, asked.parsed
    closer = {t.label for t in asked.settings.territories if t.weight > 1.0}
    self_territory = first_territory if first_territory in closer and asks_about_self(parsed.text) else None
    z = weighed.standout
    sample = index.vectors.background_size() if z is not None and index.vectors else None
    if vectors_only is not None:  # no words to judge by: the standout of the query vectors' best moment
        z, sample = _modal_standout(index, found.lists, vectors_only)
    # only what the time list found says whether the window holds memories
    time_list = found.lists.get("time")
    return judge(
        Evidence(
            results=fused_chunks,
            informative_terms=sum(1 for w in found.query_weights.values() if w >= 1.0),
            missing_share=found.missing_share,
            coverage=found.keyword_coverage,
            semantic_z=z,
            semantic_sample=sample,
            window_entries=None if time_list is None else _window_entries(index, parsed, time_list),
            entities=len(parsed.entities),
            identifiers=found.identifiers_held,
            identifiers_missing=found.identifiers_missing,
            other_script=nearest_in_other_script(index, found.lists.get("semantic"), asked_in),
            form_only=found.form_only,
            self_territory=self_territory,
        )
    )


def _window_entries(index: IndexData, parsed: ParsedQuery, hits: Sequence[Hit]) -> int | None:
    """How many memories the time list found dated inside the query's window; None without one."""
    window = parsed.window
    if window is None:
        return None
    ids = np.fromiter((h.chunk_id for h in hits), dtype=np.int64)
    return index.time.entries_within(ids, (window.start, window.end), parsed.now, yearly=window.yearly)


def _modal_standout(
    index: IndexData, lists: Mapping[str, Sequence[Hit]], vectors: Mapping[str, np.ndarray]
) -> tuple[float | None, int | None]:
    """The largest standout among the query vectors' lists (as :func:`standout`), and the sample
    it was measured on."""
    best: tuple[float | None, int | None] = (None, None)
    for modality, vector in vectors.items():
        z = standout(index.modal[modality], lists.get(MODAL_LIST + modality), vector)
        if z is not None and (best[0] is None or z > best[0]):
            best = (z, index.modal[modality].background_size())
    return best
