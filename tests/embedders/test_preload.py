"""Loading the query embedder while the index loads (what the CLI does for a cold search)."""

from memsearch.api import open_index
from memsearch.index.format import MANIFEST
from memsearch.paths import IndexLayout, default_home, read_manifest_head
from memsearch.preload import EmbedderPreload


def test_preloaded_embedder_answers_like_a_lazily_loaded_one(indexed_vault):
    lazy = open_index(indexed_vault)
    early = open_index(indexed_vault, preload_embedder=True)
    assert early._preload is not None and early._preload.started
    early._preload._thread.join()
    loaded = early._preload._embedder
    assert loaded is not None and loaded.loaded  # the thread built the model's session
    query = "which signing keys did we rotate"
    a, b = lazy.search(query, 5), early.search(query, 5)
    assert "semantic" in b.health.ran and not b.health.failed
    assert [(r.path, r.start_line, r.score) for r in a.results] == [
        (r.path, r.start_line, r.score) for r in b.results
    ]
    assert early._preload is None and early._embedder is loaded  # the search used that one


def test_a_preload_started_before_the_engine_is_taken_by_it(indexed_vault):
    home = default_home(indexed_vault)
    assert IndexLayout(home).manifest_head == home / "repo" / MANIFEST  # the light path agrees
    preload = EmbedderPreload(home, indexed_vault)
    assert preload.spec == read_manifest_head(home)["embedder"]["spec"]
    engine = open_index(indexed_vault, preload_embedder=preload)
    preload._thread.join()
    loaded = preload._embedder
    response = engine.search("signing keys", 5)
    assert "semantic" in response.health.ran
    assert loaded is not None and engine._embedder is loaded and engine._preload is None


def test_preloaded_embedder_of_another_fingerprint_is_not_used(indexed_vault):
    engine = open_index(indexed_vault, preload_embedder=True)
    engine._preload._thread.join()

    class Other:
        fingerprint = "not-this-index"

    engine._preload._embedder = Other()
    response = engine.search("signing keys", 5)
    assert "semantic" in response.health.ran  # a fresh embedder of the index's own kind answered
    assert engine._embedder is not None and not isinstance(engine._embedder, Other)


def test_no_preload_for_an_old_revision_or_a_missing_index(indexed_vault, tmp_path):
    assert open_index(indexed_vault, at="HEAD", preload_embedder=True)._preload is None
    nothing = EmbedderPreload(tmp_path / "no-index")
    assert not nothing.started and nothing.take("any") is None
