"""The benchmark's synthetic vaults: deterministic from a seed, every territory, chunked as planned."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import numpy as np

EVAL_DIR = Path(__file__).resolve().parent.parent.parent / "eval"
sys.path.insert(0, str(EVAL_DIR))

import synth  # noqa: E402

from memsearch.chunkers import chunk_file  # noqa: E402
from memsearch.config import Settings  # noqa: E402

CHUNKS = 700


def test_same_seed_same_bytes_other_seed_other_bytes(tmp_path):
    a = synth.generate(tmp_path / "a", CHUNKS, seed=7)
    b = synth.generate(tmp_path / "b", CHUNKS, seed=7)
    c = synth.generate(tmp_path / "c", CHUNKS, seed=8)
    assert a.digest == b.digest == synth.tree_digest(tmp_path / "b")
    assert a.digest != c.digest
    assert a.files == b.files and a.bytes == b.bytes
    assert synth.make_queries(CHUNKS, 7, 30) == synth.make_queries(CHUNKS, 7, 30)
    assert synth.make_queries(CHUNKS, 7, 30) != synth.make_queries(CHUNKS, 8, 30)


def test_every_territory_chunked_as_planned_with_entities_and_dates(tmp_path):
    info = synth.generate(tmp_path / "v", CHUNKS, seed=3)
    settings = Settings()
    chunks_by_territory: Counter[str] = Counter()
    undated, with_entities, total = 0, 0, 0
    links = wikilinks = tags = 0
    for path in sorted((tmp_path / "v").rglob("*.md")):
        rel = path.relative_to(tmp_path / "v").as_posix()
        text = path.read_text(encoding="utf-8")
        links += "](" in text
        wikilinks += "[[" in text
        tags += " #" in text
        parsed = chunk_file(rel, text, settings)
        assert not parsed.warnings, (rel, parsed.warnings)
        for chunk in parsed.chunks:
            chunks_by_territory[chunk.territory] += 1
            total += 1
            undated += chunk.timestamp is None
            with_entities += bool(chunk.entities)
    # Every default territory is there, with the share of chunks it was planned to have.
    for label in ("system/covenant", "system", "reference", "aster/ledger", "aster", "journal", "literature"):
        assert chunks_by_territory[label] > 0, label
    assert chunks_by_territory["archive"] > 0
    planned = synth._split_counts(CHUNKS)
    assert chunks_by_territory["aster/ledger"] == planned["ledger"]
    assert chunks_by_territory["journal"] == planned["journal"]
    assert abs(total - CHUNKS) <= CHUNKS * 0.05
    assert set(info.by_territory) == set(synth.SHARES)
    # Entities, links and dates are everywhere a real vault has them.
    assert with_entities > total * 0.5
    assert links and wikilinks and tags
    dated = total - undated
    assert dated > total * 0.7


def test_queries_cover_every_kind_and_name_what_the_vault_holds(tmp_path):
    queries = synth.make_queries(CHUNKS, 5, 60)
    kinds = {"keyword", "entity", "temporal", "identifier", "natural", "filtered"}
    assert {q["kind"] for q in queries} == kinds
    assert all(q["query"].strip() and q["now"] for q in queries)
    assert any("territory" in q for q in queries) and any("since" in q for q in queries)
    plan = synth.make_plan(CHUNKS, 5)
    names = set(plan.people) | set(plan.projects)
    assert any(any(n in q["query"] for n in names) for q in queries if q["kind"] == "entity")


def test_the_stand_in_embedder_is_deterministic_and_normalised():
    import bench

    e = bench.HashEmbedder("64")
    texts = ["signing keys rotated with Mara", "a walk by the canal", ""]
    a, b = e.embed_documents(texts), bench.HashEmbedder("64").embed_documents(texts)
    assert a.shape == (3, 64) and np.array_equal(a, b)
    np.testing.assert_allclose(np.linalg.norm(a, axis=1), 1.0, rtol=1e-5)
    np.testing.assert_array_equal(e.embed_query(texts[0]), a[0])
    # Shared words make near vectors: the stand-in clusters as a real model would.
    near = e.embed_query("keys rotated with Mara")
    assert float(near @ a[0]) > float(near @ a[1])
