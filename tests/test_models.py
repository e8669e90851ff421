"""memsearch.models: a chunk's optional priors (a notebook moment's importance and decay rate)."""

from __future__ import annotations

import math
from datetime import UTC, datetime

import pytest

from memsearch.index.format import chunk_from_json, chunk_to_json
from memsearch.models import (
    IMPORTANCE_FLOOR,
    chunk_from_fields,
    chunk_priors,
    chunk_replace,
    half_life_days,
    importance_prior,
)

FIELDS = dict(
    path="notebook/sessions/s/moments/m.yaml",
    start_line=1,
    end_line=9,
    heading="m",
    territory="notebook",
    fact_type="experience",
    timestamp=datetime(2026, 3, 1, tzinfo=UTC),
    timestamp_source="moment",
    entities=("m",),
    text="hello",
    header="",
)


def test_a_chunk_without_priors_has_none_and_its_stored_line_is_unchanged():
    chunk = chunk_from_fields(dict(FIELDS))
    assert chunk.importance is None and chunk.decay_rate is None
    assert importance_prior(chunk) == 1.0 and half_life_days(chunk) is None and chunk_priors(chunk) == {}
    line = chunk_to_json(7, chunk)
    assert "importance" not in line and "decay_rate" not in line  # markdown shards stay byte-identical
    assert chunk_from_json(line) == (7, chunk)


def test_importance_is_a_prior_that_never_raises_a_score():
    chunk = chunk_from_fields(dict(FIELDS))
    assert importance_prior(chunk_replace(chunk, importance=1.0)) == 1.0
    assert importance_prior(chunk_replace(chunk, importance=0.0)) == IMPORTANCE_FLOOR
    low, high = (importance_prior(chunk_replace(chunk, importance=v)) for v in (0.2, 0.8))
    assert IMPORTANCE_FLOOR < low < high < 1.0


@pytest.mark.parametrize(("rate", "expected"), [(0.1, math.log(2) / 0.1), (0.0, math.inf)])
def test_a_decay_rate_is_a_half_life(rate, expected):
    chunk = chunk_from_fields({**FIELDS, "decay_rate": rate})
    assert half_life_days(chunk) == expected


def test_priors_are_stored_and_explained():
    chunk = chunk_from_fields({**FIELDS, "importance": 0.8, "decay_rate": 0.1})
    assert chunk_from_json(chunk_to_json(3, chunk)) == (3, chunk)
    shown = chunk_priors(chunk)
    assert shown["importance"] == {"importance": 0.8, "prior": 0.9}
    assert shown["decay"] == {"decay_rate": 0.1, "half_life_days": 6.93}


def test_an_unknown_field_is_still_an_error():
    with pytest.raises(TypeError):
        chunk_from_fields({**FIELDS, "weight": 2})
    with pytest.raises(TypeError):
        chunk_from_fields({k: v for k, v in FIELDS.items() if k != "text"})
