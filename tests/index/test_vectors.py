"""The vector index: exact answers for narrow filters, the graph otherwise, and its files."""

from __future__ import annotations

import numpy as np
import pytest

from memsearch.index import vectors as vectors_module
from memsearch.index.vectors import EXACT_MAX_ROWS, VectorIndex

DIM = 16


def _vectors(n: int, seed: int = 0) -> np.ndarray:
    m = np.random.default_rng(seed).standard_normal((n, DIM)).astype(np.float32)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


def _exact(matrix: np.ndarray, ids: np.ndarray, query: np.ndarray, k: int) -> list[int]:
    scores = matrix @ query
    order = np.lexsort((ids, -scores))[:k]
    return ids[order].tolist()


def test_a_narrow_filter_is_answered_exactly():
    m = _vectors(3000)
    ids = np.arange(0, 6000, 2)  # sparse chunk ids
    index = VectorIndex(DIM)
    index.add(ids.tolist(), m)
    allowed = np.zeros(6001, dtype=bool)
    allowed[ids[::7]] = True
    assert allowed.sum() <= EXACT_MAX_ROWS
    query = m[10]
    hits = index.search(query, 25, allowed)
    assert [h.chunk_id for h in hits] == _exact(m[::7], ids[::7], query, 25)
    assert hits[0].chunk_id == 0 or allowed[hits[0].chunk_id]
    np.testing.assert_allclose([h.score for h in hits], np.sort(m[::7] @ query)[::-1][:25], rtol=1e-5)
    assert index.search(query, 5, np.zeros(10, dtype=bool)) == []


@pytest.fixture
def graph_always(monkeypatch):
    """Every query through the graph, whatever the index's size (these tests are about the graph)."""
    monkeypatch.setattr(vectors_module, "EXACT_MAX_ROWS", 0)


def test_a_small_index_has_no_graph_and_answers_exactly(tmp_path):
    m = _vectors(3000, 4)
    ids = np.arange(5, 3005)
    index = VectorIndex(DIM)
    index.add(ids.tolist(), m)
    index.ready()
    assert index._hnsw is None and not index.needs_graph()
    for query in m[:20]:
        assert [h.chunk_id for h in index.search(query, 10)] == _exact(m, ids, query, 10)
    index.save(tmp_path)
    assert not (tmp_path / "hnsw.bin").exists()
    loaded = VectorIndex.load(tmp_path, DIM)
    loaded.remove([5])
    assert [h.chunk_id for h in loaded.search(m[0], 3)] == _exact(m[1:], ids[1:], m[0], 3)


def test_unfiltered_and_wide_filters_go_through_the_graph(graph_always):
    m = _vectors(500, 1)
    index = VectorIndex(DIM)
    index.add(list(range(500)), m)
    hits = index.search(m[3], 10)
    assert hits[0].chunk_id == 3 and len(hits) == 10
    allowed = np.ones(400, dtype=bool)  # shorter than the ids: the rest are not allowed
    allowed[3] = False
    hits = index.search(m[3], 10, allowed)
    assert all(h.chunk_id < 400 and h.chunk_id != 3 for h in hits)


def test_add_replace_remove_save_load(tmp_path, graph_always):
    m = _vectors(100, 2)
    index = VectorIndex(DIM)
    index.add(list(range(100)), m)
    index.add([5, 5], np.stack([m[7], m[8]]))  # the last vector of an id wins, as in a dict
    index.remove([6, 999])
    assert len(index) == 99 and 6 not in index and 5 in index
    np.testing.assert_array_equal(index.by_id[5], m[8])
    assert sorted(index.by_id) == [i for i in range(100) if i != 6]
    index.save(tmp_path)
    loaded = VectorIndex.load(tmp_path, DIM)
    assert loaded._hnsw is not None  # the graph file matched its key: no rebuild
    assert dict(loaded.by_id).keys() == dict(index.by_id).keys()
    np.testing.assert_array_equal(loaded.by_id[5], m[8])
    assert not loaded._matrix.flags.writeable  # mapped read-only until something is added
    loaded.add([200], m[:1])
    loaded.remove([0])
    assert len(loaded) == 99 and loaded.search(m[0], 1)[0].chunk_id == 200
    assert np.isnan(next(iter(loaded.by_id.values()))).sum() == 0


def test_a_graph_file_that_does_not_match_is_rebuilt(tmp_path, graph_always):
    m = _vectors(50, 3)
    index = VectorIndex(DIM)
    index.add(list(range(50)), m)
    index.save(tmp_path)
    (tmp_path / "hnsw.key").write_text("stale")
    loaded = VectorIndex.load(tmp_path, DIM)
    assert loaded._dirty and loaded.search(m[9], 1)[0].chunk_id == 9


def test_a_rebuilt_graph_is_the_same_graph(tmp_path):
    """Builds are single-threaded in id order, so `search --at` rebuilds exactly the old index."""
    import hashlib

    import numpy as np

    from memsearch.index.vectors import VectorIndex

    rng = np.random.default_rng(7)
    matrix = rng.normal(size=(500, 32)).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    digests = []
    for order in (np.arange(500), rng.permutation(500)):
        index = VectorIndex(32)
        index.add([int(i) for i in order], matrix[order])
        index._build()
        path = tmp_path / f"h{len(digests)}.bin"
        index._hnsw.save_index(str(path))
        digests.append(hashlib.sha256(path.read_bytes()).hexdigest())
    assert digests[0] == digests[1]


def test_background_is_the_querys_cosine_to_the_vault_at_large():
    import pytest

    from memsearch.index.vectors import VectorIndex

    rng = np.random.default_rng(7)
    vectors = rng.normal(size=(300, 16)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    index = VectorIndex(16)
    index.add(list(range(300)), vectors)
    query = vectors[0]
    mean, std = index.background(query)
    cosines = vectors @ query
    assert mean == pytest.approx(float(cosines.mean()), abs=1e-5)
    assert std == pytest.approx(float(cosines.std()), abs=1e-5)
    index.add([300], -vectors[:1])  # the sample follows the vectors
    assert index.background(query)[0] != mean


def test_a_log_of_near_identical_lines_is_one_passage_of_the_background():
    """A sensor log of 900 near-identical lines beside a hundred distinct passages: the
    vault at large is those passages and the log, not the log a thousand times over (its narrow
    spread would make any passage stand out for any query)."""
    rng = np.random.default_rng(3)
    distinct = rng.normal(size=(100, DIM)).astype(np.float32)
    distinct /= np.linalg.norm(distinct, axis=1, keepdims=True)
    line = distinct[:1]
    log = line + rng.normal(scale=0.01, size=(900, DIM)).astype(np.float32)
    log /= np.linalg.norm(log, axis=1, keepdims=True)
    alone, with_log = VectorIndex(DIM), VectorIndex(DIM)
    alone.add(list(range(100)), distinct)
    with_log.add(list(range(1000)), np.concatenate([distinct, log]))
    query = distinct[5]
    assert with_log.background(query) == pytest.approx(alone.background(query), abs=0.02)
    assert with_log.background_size() == alone.background_size() == 100


def test_equal_cosines_are_cut_and_ordered_by_the_tie_key():
    """Two chunks of the same text have the same vector: which of them makes a list of k, and
    which comes first, is the caller's key (their places in the vault), not their chunk ids."""
    rng = np.random.default_rng(3)
    others = rng.standard_normal((6, 8)).astype(np.float32)
    same = rng.standard_normal(8).astype(np.float32)
    vectors = np.vstack([others, same, same])
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    index = VectorIndex(dim=8)
    index.add([10, 11, 12, 13, 14, 15, 3, 7], vectors)
    place = {3: 1, 7: 0}  # chunk 7 comes first in the vault
    key = lambda ids: np.array([place.get(int(i), 99) for i in ids])  # noqa: E731
    assert [h.chunk_id for h in index.search(vectors[-1], 1, tie_key=key)] == [7]
    assert [h.chunk_id for h in index.search(vectors[-1], 2, tie_key=key)] == [7, 3]
    assert [h.chunk_id for h in index.search(vectors[-1], 1)] == [3]  # without a key, chunk ids
