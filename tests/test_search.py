"""memsearch.search: filters are a vectorised mask (the same chunks as a pass over every chunk, at any vault
change), and a time window weighs more as it narrows."""

from __future__ import annotations

import random
import sys
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from memsearch.query import Filters
from memsearch.search import filter_mask

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "eval"))


def _reference(index, filters: Filters) -> np.ndarray:
    """Every chunk tested one by one, as filter_mask once did."""
    mask = np.zeros(index.n_ids, dtype=bool)
    wanted = tuple(index.graph.resolve(e) for e in filters.entities)
    prefix = (filters.territory or "").lstrip("./")
    for chunk_id, chunk in index.chunks.items():
        if prefix and not (chunk.path.startswith(prefix) or chunk.territory == prefix.rstrip("/")):
            continue
        if filters.fact_type and chunk.fact_type != filters.fact_type:
            continue
        if wanted and not all(w in set(index.graph.entities_of(chunk_id)) for w in wanted):
            continue
        if filters.since or filters.until:
            ts = chunk.timestamp
            if ts is None or (filters.since and ts < filters.since) or (filters.until and ts > filters.until):
                continue
        mask[chunk_id] = True
    return mask


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    import synth

    from memsearch.api import index_vault, open_index

    vault = tmp_path_factory.mktemp("synth") / "vault"
    synth.generate(vault, 400, seed=4)
    index_vault(vault, embed=False)
    return open_index(vault)


PREFIXES = (
    "journal/",
    "./journal",
    "aster/",
    "aster/ledger",
    "aster/ledger/",
    "reference/people/",
    "system",
    "system/covenant/",
    "literature",
    "archive/2024",
    "journal/2025/2025-06",
    "nothing/",
    "",
    "a",
)


def test_mask_equals_a_pass_over_every_chunk(engine):
    index = engine.index
    rnd = random.Random(9)
    entities = sorted({e for c in index.chunks.values() for e in c.entities})
    stamps = sorted(c.timestamp for c in index.chunks.values() if c.timestamp)
    for trial in range(150):
        since = rnd.choice(stamps) if trial % 3 == 0 else None
        until = rnd.choice(stamps) + timedelta(seconds=rnd.choice([0, 1, -1])) if trial % 4 == 0 else None
        filters = Filters(
            territory=rnd.choice(PREFIXES) if trial % 2 else None,
            fact_type=rnd.choice(["world", "experience", None]),
            entities=tuple(rnd.sample(entities, rnd.choice([0, 0, 1, 2]))) + (("RF",) if trial == 7 else ()),
            since=since,
            until=until,
        )
        got = filter_mask(index, filters)
        if filters.is_empty():
            assert got is None
            continue
        assert np.array_equal(got, _reference(index, filters)), filters


def test_the_mask_follows_a_change_of_the_chunk_table(engine):
    index = engine.index
    filters = Filters(territory="journal/", since=datetime(2000, 1, 1, tzinfo=UTC))
    before = filter_mask(index, filters)
    gone = int(np.flatnonzero(before)[0])
    chunk = index.chunks.pop(gone)
    index.time.remove(gone)
    try:
        after = filter_mask(index, filters)
        assert not after[gone] and after.sum() == before.sum() - 1
        assert np.array_equal(after, _reference(index, filters))
    finally:
        index.chunks[gone] = chunk
        index.time.set(gone, chunk.timestamp, timeless=chunk.fact_type == "world")
    assert np.array_equal(filter_mask(index, filters), before)


def test_window_weight_grows_as_the_window_narrows():
    from datetime import UTC, datetime, timedelta

    from memsearch.search.retrieve import window_weight

    start = datetime(2025, 3, 1, tzinfo=UTC)
    day, week, month = (window_weight(start, start + timedelta(days=d)) for d in (1, 7, 31))
    assert day == 2.0 and 1.0 < week < day and month == 1.0


def test_the_territory_weights_kept_per_chunk_follow_a_change_of_the_settings(engine):
    """A chunk's territory weight is kept between queries under the weights it was read with: the
    same loaded index searched with other territory weights (a server's config reloaded) weighs by
    the new ones."""
    from dataclasses import replace

    before = engine.settings

    def reference_weights() -> set[float]:
        response = engine.search("signing keys rotation", k=10, explain=True, all_results=True)
        return {
            r.explanation["territory_weight"] for r in response.results if r.path.startswith("reference/")
        }

    assert reference_weights() == {1.1}
    engine.settings = replace(
        before,
        territories=tuple(
            replace(t, weight=2.5) if t.label == "reference" else t for t in before.territories
        ),
    )
    try:
        assert reference_weights() == {2.5}
    finally:
        engine.settings = before
    assert reference_weights() == {1.1}


def test_a_file_stands_at_its_best_chunk_with_the_count_of_its_chunks(engine):
    """Grouped by file, each file stands where its best chunk stands in the ranking by chunk, and
    says how many of its chunks that ranking holds. Both are asked at one moment: recency moves
    with the clock, and two near-equal files could swap between two moments (seen once in CI)."""
    now = datetime.now(UTC)
    for question in ("signing keys rotation", "what happened in March 2025", "release notes", "Ed25519"):
        by_chunk = engine.search(question, k=10_000, chunks=True, all_results=True, now=now).results
        by_file = engine.search(question, k=8, all_results=True, now=now).results
        firsts = list(dict.fromkeys(r.path for r in by_chunk))[:8]
        assert [r.path for r in by_file] == firsts
        counts = Counter(r.path for r in by_chunk)
        assert [r.chunks for r in by_file] == [counts[path] for path in firsts]
        assert any(count > 1 for count in counts.values())


def test_ties_break_by_place_in_a_live_engine_after_files_are_written(tmp_path):
    """The chunks' places are brought up to date when a file is written (not read again from every
    chunk): notes of the same text, written one by one into a live engine, tie in the keyword list
    and come in the order of their paths, as a fresh engine has them."""
    from memsearch.api import index_vault, open_index

    vault = tmp_path / "vault"
    text = "# Copy\n\nThe spare key is under the blue flowerpot.\n"

    def write(number: int) -> str:
        rel = f"reference/copy-{number:02d}.md"
        (vault / rel).parent.mkdir(parents=True, exist_ok=True)
        (vault / rel).write_text(text)
        return rel

    for number in (6, 3):
        write(number)
    index_vault(vault, embed=False)
    live = open_index(vault)
    question = "spare key blue flowerpot"
    assert [r.path for r in live.search(question, k=10, strategies=["keyword"]).results] == [
        "reference/copy-03.md",
        "reference/copy-06.md",
    ]
    for number in (9, 1, 4):  # written after the places were kept, ids in another order than paths
        live.update_file(write(number))
    want = [f"reference/copy-{n:02d}.md" for n in (1, 3, 4, 6, 9)]
    got = [r.path for r in live.search(question, k=10, strategies=["keyword"]).results]
    live.wait_for_embeddings()  # the writes committed: a fresh engine reads them
    fresh = [r.path for r in open_index(vault).search(question, k=10, strategies=["keyword"]).results]
    live.close()
    assert got == fresh == want


def test_function_words_are_told_from_content_words_as_the_index_stems_them():
    """ "How *many* km": a word no question is about, whether or not the vault uses it; a content
    word the vault lacks makes every keyword head partial, a function word does not."""
    from memsearch.search.retrieve import is_function_word
    from memsearch.tokenize import term_counts

    assert all(is_function_word(t) for t in term_counts("many much several everything"))
    assert not any(is_function_word(t) for t in term_counts("algorithm boiler presentation"))


def test_an_index_built_without_vectors_says_once_what_to_do(tmp_path):
    # It said "no vectors in the index (embedding was skipped (--no-embed); run `memsearch index
    # VAULT` to embed them); run `memsearch index VAULT` to fill them": the advice twice, nested.
    from memsearch.api import index_vault, open_index

    vault = tmp_path / "vault"
    (vault / "journal").mkdir(parents=True)
    (vault / "journal" / "2025-02-01.md").write_text("# Boiler\n\nThe boiler was serviced by Anna.\n")
    index_vault(vault, embed=False)
    response = open_index(vault).search("boiler", k=3)
    why = response.health.failed["semantic"]
    assert response.results and response.health.degraded
    assert why.count("memsearch index") == 1 and "--no-embed" in why, why


@pytest.mark.parametrize("chunks", [False, True])
def test_what_scores_0_is_no_result(engine, chunks):
    """A chunk only a negative cosine found has a fused score of 0 (its gain is 0): it was listed,
    every part of its explanation 0."""
    from memsearch.fusion import rrf
    from memsearch.models import Hit
    from memsearch.search.results import grouped_results

    ids = sorted(engine.index.chunks)
    far_apart = [ids[0], ids[len(ids) // 2], ids[-1]]  # three files
    fused = rrf(
        {"semantic": [Hit(far_apart[0], 0.4), Hit(far_apart[1], 0.2), Hit(far_apart[2], -0.1)]},
        strength_mix=1.0,
    )
    results = grouped_results(
        engine.index, fused, 10, 1.0, chunks=chunks, explain=False, weights={"semantic": 1.0}
    )
    assert len(results) == 2 and all(r.score > 0 for r in results)
