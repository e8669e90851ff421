"""Loading the query embedder while the index loads (what the CLI does for a cold search)."""

from memsearch.api import open_index


def test_preloaded_embedder_answers_like_a_lazily_loaded_one(indexed_vault):
    lazy = open_index(indexed_vault)
    early = open_index(indexed_vault, preload_embedder=True)
    assert early._preloading is not None
    query = "which signing keys did we rotate"
    a, b = lazy.search(query, 5), early.search(query, 5)
    assert "semantic" in b.health.ran and not b.health.failed
    assert [(r.path, r.start_line, r.score) for r in a.results] == [
        (r.path, r.start_line, r.score) for r in b.results
    ]
    assert early._preloading is None and early._embedder is not None


def test_preloaded_embedder_of_another_fingerprint_is_not_used(indexed_vault):
    engine = open_index(indexed_vault, preload_embedder=True)
    engine._preloading.join()

    class Other:
        fingerprint = "not-this-index"

    engine._preloaded = Other()
    response = engine.search("signing keys", 5)
    assert "semantic" in response.health.ran  # a fresh embedder of the index's own kind answered
    assert engine._embedder is not None and not isinstance(engine._embedder, Other)


def test_no_preload_for_an_old_revision(indexed_vault):
    engine = open_index(indexed_vault, at="HEAD", preload_embedder=True)
    assert engine._preloading is None
