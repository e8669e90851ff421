"""The embedder as a soft seam, and the embedding cache, on the fixture vault.

Two kinds of embedder drive these tests:

- ``Counting``, registered under its own name: the real MiniLM vectors (optionally of a
  tagged text, so two embedders' vectors differ), with a count of calls and texts, and faults
  on demand (gone after N calls, refusing a poisoned text, refusing everything);
- the loopback Ollama *protocol stand-in* of ``tests/ollama_standin.py`` (NOT Ollama: no Ollama
  server can be installed here; see that module), for the judged scenario: the server dies
  mid-index, the index completes with gaps, search degrades and says so, the next index fills
  the gaps, and the results equal a clean build's.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest
from ollama_standin import StandIn

from memsearch.api import index_vault, log, open_index
from memsearch.embedders import registry
from memsearch.embedders.base import EmbedderUnavailableError, make_fingerprint
from memsearch.embedders.registry import get_embedder
from memsearch.errors import EmbedderError
from memsearch.index import loading
from memsearch.index.embedding_cache import MAX_SINGLE_FAILURES
from memsearch.paths import IndexLayout, default_home

NOW = "2025-04-01T00:00:00+00:00"
QUERIES = ["signing keys", "Berlin canal walk", "who rotates the keys", "sign_ed25519", "standup notes"]


class Counting:
    """MiniLM vectors of ``tag + text`` under a fingerprint of its own; counts and faults on demand."""

    name = "counting"
    dim = 384

    def __init__(
        self,
        tag: str = "",
        *,
        call_size: int = 4,
        gone_after: int | None = None,
        poison: str | None = None,
        refuse_all: bool = False,
    ) -> None:
        self.tag = tag
        self.fingerprint = make_fingerprint(backend="counting", tag=tag)
        self.call_size = call_size
        self.gone_after = gone_after
        self.poison = poison
        self.refuse_all = refuse_all
        self.calls = 0
        self.texts = 0
        self._minilm = get_embedder("minilm")

    def embed_documents(self, texts, progress=None):
        self.calls += 1
        if self.gone_after is not None and self.calls > self.gone_after:
            raise EmbedderUnavailableError("the test embedder went away")
        if self.refuse_all or (self.poison and any(self.poison in t for t in texts)):
            raise EmbedderError("the test embedder refused this batch")
        self.texts += len(texts)
        return self._minilm.embed_documents([self.tag + t for t in texts])

    def embed_query(self, text):
        if self.gone_after is not None and self.calls >= self.gone_after:
            raise EmbedderUnavailableError("the test embedder went away")
        return self._minilm.embed_query(self.tag + text)


@pytest.fixture
def register():
    """``register(name, embedder)``: make ``get_embedder(name)`` return ``embedder`` for this test."""
    names: list[str] = []

    def add(name: str, embedder) -> None:
        registry.EMBEDDERS[name] = lambda option, **options: embedder
        names.append(name)

    yield add
    for name in names:
        registry.EMBEDDERS.pop(name, None)
        registry.drop_instances(name)


def _results(vault: Path, index_dir: Path | None = None) -> list[list[dict]]:
    engine = open_index(vault, index_dir=index_dir)
    return [[r.to_dict() for r in engine.search(q, k=8, now=NOW, chunks=True).results] for q in QUERIES]


def _saved_vectors(home: Path) -> dict[int, np.ndarray]:
    data = loading.load(home)
    return {} if data.vectors is None else dict(data.vectors.by_id)


# -- the cache: what is embedded again -------------------------------------------------------------


def test_unchanged_vault_embeds_nothing(vault_copy, register) -> None:
    counting = Counting()
    register("counting", counting)
    first = index_vault(vault_copy, embedder="counting")
    assert first.embedded == first.chunks and first.gaps == 0 and counting.texts == first.chunks
    calls = counting.calls
    again = index_vault(vault_copy, embedder="counting")
    assert counting.calls == calls  # not one call
    assert again.embedded == 0 and again.reused == again.chunks and again.gaps == 0


def test_moving_a_file_embeds_nothing(vault_copy, register) -> None:
    counting = Counting()
    register("counting", counting)
    index_vault(vault_copy, embedder="counting")
    calls = counting.calls
    target = vault_copy / "reference" / "people" / "redflag-moved.md"
    (vault_copy / "reference" / "redflag.md").rename(target)
    report = index_vault(vault_copy, embedder="counting")
    assert counting.calls == calls and report.embedded == 0
    engine = open_index(vault_copy)
    assert engine.search("sign_ed25519", k=1).results[0].path == "reference/people/redflag-moved.md"


def test_editing_one_paragraph_embeds_only_its_chunk(vault_copy, register) -> None:
    counting = Counting()
    register("counting", counting)
    index_vault(vault_copy, embedder="counting")
    before = counting.texts
    path = vault_copy / "reference" / "redflag.md"
    text = path.read_text()
    edited = text.replace("Keys rotate every quarter.", "Keys rotate every month since the audit.")
    assert edited != text
    path.write_text(edited)
    report = index_vault(vault_copy, embedder="counting")
    assert report.embedded == 1 and counting.texts - before == 1
    assert report.reused == report.chunks - 1


def test_reembed_embeds_everything_again(vault_copy, register) -> None:
    counting = Counting()
    register("counting", counting)
    first = index_vault(vault_copy, embedder="counting")
    again = index_vault(vault_copy, embedder="counting", reembed=True)
    assert again.embedded == first.chunks and again.reused == 0 and again.gaps == 0


def test_no_embed_still_uses_the_cache(vault_copy, register) -> None:
    counting = Counting()
    register("counting", counting)
    cold = index_vault(vault_copy, embedder="counting", embed=False)
    assert counting.calls == 0 and cold.gaps == cold.chunks and "--no-embed" in cold.embedder_error
    index_vault(vault_copy, embedder="counting")
    calls = counting.calls
    warm = index_vault(vault_copy, embedder="counting", embed=False)
    assert counting.calls == calls and warm.gaps == 0 and warm.embedder_error is None


# -- which embedder, remembered --------------------------------------------------------------------


def test_the_index_remembers_its_embedder(vault_copy, register, monkeypatch) -> None:
    monkeypatch.delenv("MEMSEARCH_EMBEDDER", raising=False)
    counting = Counting()
    register("counting", counting)
    index_vault(vault_copy, embedder="counting")
    plain = index_vault(vault_copy)  # a reindex from cron names no embedder
    assert plain.embedder == "counting" and plain.embedded == 0 and plain.embedder_note is None
    info = open_index(vault_copy).status()["embedder"]
    assert info["spec"] == "counting" and info["fingerprint"] == counting.fingerprint
    # A run that changes nothing commits nothing; the next one that embeds records who chose.
    (vault_copy / "journal" / "2025-03-30.md").write_text("# 2025-03-30\n\nA new memory.\n")
    index_vault(vault_copy)
    info = open_index(vault_copy).status()["embedder"]
    assert info["chosen_by"] == "index"
    # The vault config, then the environment, beat what the index remembers.
    other = Counting("other: ")
    register("other", other)
    (vault_copy / "memsearch.toml").write_text('[index]\nembedder = "other"\n')
    assert index_vault(vault_copy).embedder == "other"
    monkeypatch.setenv("MEMSEARCH_EMBEDDER", "counting")
    assert index_vault(vault_copy).embedder == "counting"
    assert index_vault(vault_copy, embedder="other").embedder == "other"  # the flag beats all


def _embedded_texts(home: Path) -> dict[int, str]:
    """What was embedded for each chunk id of the saved index."""
    from memsearch.config import Settings
    from memsearch.indexer import embed_text

    chunks = loading.load(home).chunks
    by_path: dict[str, list[int]] = {}
    for cid in sorted(chunks):
        by_path.setdefault(chunks[cid].path, []).append(cid)
    texts = {}
    for ids in by_path.values():
        siblings = [chunks[i] for i in ids]
        for n, cid in enumerate(ids):
            texts[cid] = embed_text(siblings, n, Settings())
    return texts


def _all_vectors_are(home: Path, tag: str) -> bool:
    texts, minilm = _embedded_texts(home), get_embedder("minilm")
    saved = _saved_vectors(home)
    want = minilm.embed_documents([tag + texts[cid] for cid in saved])
    return all(np.allclose(v, w, atol=1e-6) for v, w in zip(saved.values(), want, strict=True))


def test_a_change_of_embedder_never_mixes_vectors(vault_copy, register) -> None:
    a, b = Counting("a: "), Counting("b: ", gone_after=3)
    register("emb-a", a)
    register("emb-b", b)
    home = default_home(vault_copy)
    first = index_vault(vault_copy, embedder="emb-a")

    # B dies part-way: the index keeps A whole (B's vectors are cached for the next attempt).
    kept = index_vault(vault_copy, embedder="emb-b")
    assert kept.embedder == "emb-a" and kept.gaps == 0 and kept.embedder_error is None
    assert "did not switch to embedder emb-b" in kept.embedder_note and "went away" in kept.embedder_note
    assert loading.load(home).manifest["embedder"]["fingerprint"] == a.fingerprint
    assert len(_saved_vectors(home)) == first.chunks and _all_vectors_are(home, "a: ")

    # B answers: the index switches, re-embedding only what B has not embedded yet, all B's.
    b.gone_after = None
    switched = index_vault(vault_copy, embedder="emb-b")
    assert switched.embedder == "emb-b" and switched.gaps == 0
    assert "changed from emb-a" in switched.embedder_note
    assert switched.reused == 3 * b.call_size and switched.embedded == first.chunks - switched.reused
    assert loading.load(home).manifest["embedder"]["fingerprint"] == b.fingerprint
    assert _all_vectors_are(home, "b: ")
    response = open_index(vault_copy).search("signing keys", k=5, now=NOW)
    assert "semantic" in response.health.ran and not response.health.degraded


def _cannot_be_made(option: str, **options):
    raise EmbedderError("word2vec: its model file is missing")


def test_a_switch_to_an_embedder_that_cannot_be_made_keeps_the_old(vault_copy, register, monkeypatch) -> None:
    monkeypatch.setitem(registry.EMBEDDERS, "word2vec", _cannot_be_made)
    register("emb-a", Counting("a: "))
    index_vault(vault_copy, embedder="emb-a")
    report = index_vault(vault_copy, embedder="word2vec")
    assert report.embedder == "emb-a" and report.gaps == 0
    assert "did not switch to embedder word2vec" in report.embedder_note
    # The index is as it was: no commit claims its vectors were re-embedded (they came back from
    # the cache unchanged), however often the failed switch is asked for.
    assert report.commit is None and index_vault(vault_copy, embedder="word2vec").commit is None
    assert log(vault_copy)[0]["subject"].startswith("index ")


def test_a_failed_switch_that_the_old_embedder_cannot_fully_serve_again_keeps_every_vector(
    vault_copy, register, monkeypatch
) -> None:
    """The switch fails and the cache is gone, so the kept embedder embeds again, and refuses one
    text: that chunk keeps the vector it has. Nothing is committed, and the run's own index (what
    a watcher keeps) holds every vector the commit holds."""
    monkeypatch.setitem(registry.EMBEDDERS, "word2vec", _cannot_be_made)
    a = Counting("a: ")
    register("emb-a", a)
    first = index_vault(vault_copy, embedder="emb-a")
    home = default_home(vault_copy)
    IndexLayout(home).embedding_cache.unlink()
    a.poison = "ed25519"
    from memsearch.indexer import index_vault as run_index  # the watcher's call: it keeps the index

    keep: list = [None]
    report = run_index(vault_copy, embedder="word2vec", keep=keep)
    assert report.embedder == "emb-a" and report.gaps == 0 and report.commit is None
    committed = loading.load(home)
    assert len(committed.vectors) == first.chunks and not committed.manifest.get("gaps")
    assert keep[0] is not None and len(keep[0].vectors) == first.chunks


def test_a_switch_to_a_dead_embedder_with_nothing_before_has_gaps(vault_copy, register) -> None:
    b = Counting("b: ", gone_after=3)
    register("emb-b", b)
    report = index_vault(vault_copy, embedder="emb-b")
    assert report.embedded == 3 * b.call_size and report.gaps == report.chunks - report.embedded
    assert _all_vectors_are(default_home(vault_copy), "b: ")
    # Search embeds its query with B, the index's embedder; B is down, so semantic fails, the rest answers.
    response = open_index(vault_copy).search("signing keys", k=5, now=NOW)
    assert response.results and "semantic" in response.health.failed and response.health.degraded


def test_a_query_vector_of_another_fingerprint_is_never_used(vault_copy, register, monkeypatch) -> None:
    counting = Counting()
    register("counting", counting)
    index_vault(vault_copy, embedder="counting")
    monkeypatch.setattr(counting, "fingerprint", "0" * 16)  # the embedder changed under the index
    response = open_index(vault_copy).search("signing keys", k=5, now=NOW)
    assert "semantic" not in response.health.ran
    assert "was built with embedder counting" in response.health.failed["semantic"]
    assert response.results and response.health.degraded


# -- failures while indexing -----------------------------------------------------------------------


def test_an_embedder_that_goes_away_keeps_what_it_computed(vault_copy, register) -> None:
    counting = Counting(gone_after=2)
    register("counting", counting)
    report = index_vault(vault_copy, embedder="counting")
    assert report.embedded == 8 and report.gaps == report.chunks - 8
    assert "went away" in report.embedder_error
    assert counting.calls == 3  # stopped at the first unavailable answer, not one try per batch
    manifest = loading.load(default_home(vault_copy)).manifest
    assert len(manifest["gaps"]) == report.gaps and manifest["embedder_error"] == report.embedder_error
    assert len(_saved_vectors(default_home(vault_copy))) == 8
    counting.gone_after = None
    filled = index_vault(vault_copy, embedder="counting")
    assert filled.gaps == 0 and filled.embedded == report.gaps and filled.reused == 8


def test_a_poisoned_text_is_one_gap_not_many(vault_copy, register) -> None:
    counting = Counting(poison="Keys rotate every quarter")
    register("counting", counting)
    report = index_vault(vault_copy, embedder="counting")
    assert report.gaps == 1 and report.embedded == report.chunks - 1
    (gap,) = loading.load(default_home(vault_copy)).manifest["gaps"]
    assert "Keys rotate every quarter" in loading.load(default_home(vault_copy)).chunks[gap].text


def test_an_embedder_refusing_everything_is_given_up_quickly(vault_copy, register) -> None:
    counting = Counting(refuse_all=True)
    register("counting", counting)
    report = index_vault(vault_copy, embedder="counting")
    assert report.gaps == report.chunks and "refused" in report.embedder_error
    assert counting.calls == 1 + MAX_SINGLE_FAILURES


def test_an_unknown_embedder_configured_for_the_jobs_still_indexes_the_rest(vault_copy, monkeypatch) -> None:
    # Named outright (`--embedder word2vec`) it is refused (tests/indexer/test_run.py); named by the
    # environment or memsearch.toml, which the cron job and the watcher read, the write goes on.
    monkeypatch.setenv("MEMSEARCH_EMBEDDER", "word2vec")
    report = index_vault(vault_copy)
    assert report.gaps == report.chunks and "valid embedders" in report.embedder_error
    response = open_index(vault_copy).search("sign_ed25519", k=1, now=NOW)
    assert response.results[0].path == "reference/redflag.md"
    assert "word2vec" in response.health.failed["semantic"]


# -- the judged scenario, over the Ollama protocol stand-in ----------------------------------------


@pytest.fixture
def standin():
    server = StandIn()
    yield server
    server.stop()


def _ollama_vault(vault: Path, host: str, **options) -> None:
    table = {"host": host, "batch_size": 4, "timeout": 5, "query_timeout": 1, **options}
    lines = "\n".join(f"{k} = {v!r}".replace("'", '"') for k, v in table.items())
    (vault / "memsearch.toml").write_text(
        f'[index]\nembedder = "ollama:nomic-embed-text:256"\n\n[ollama]\n{lines}\n'
    )


def test_server_killed_mid_index_then_back(vault_copy, standin, tmp_path) -> None:
    _ollama_vault(vault_copy, standin.host)
    clean_home = tmp_path / "clean-index"
    clean = index_vault(vault_copy, index_dir=clean_home)
    assert clean.gaps == 0 and clean.embedder == "ollama:nomic-embed-text:256"
    expected = _results(vault_copy, clean_home)

    # The server dies after 3 more requests, mid-index.
    standin.kill_after = standin.embed_requests + 3
    broken = index_vault(vault_copy)
    assert 0 < broken.gaps < broken.chunks  # the index completes, with gaps ...
    assert broken.embedder_error and "Ollama" in broken.embedder_error  # ... and says why
    home = default_home(vault_copy)
    assert len(loading.load(home).manifest["gaps"]) == broken.gaps
    assert len(_saved_vectors(home)) == broken.chunks - broken.gaps  # what was computed is kept

    # Search works at once, and says semantic search is degraded and why.
    engine = open_index(vault_copy)
    started = time.perf_counter()
    response = engine.search("sign_ed25519", k=3, now=NOW)
    assert time.perf_counter() - started < 3
    assert response.results[0].path == "reference/redflag.md"
    assert response.health.degraded and "Ollama" in response.health.failed["semantic"]
    assert "keyword" in response.health.ran

    # The server is back: search uses the vectors it has and notes the gaps.
    standin.restart()
    response = open_index(vault_copy).search("signing keys", k=3, now=NOW)
    assert "semantic" in response.health.ran and response.health.degraded
    assert any("gap" in note for note in response.health.notes)

    # The next index fills the gaps, embedding only them.
    before = standin.inputs_embedded
    filled = index_vault(vault_copy)
    assert filled.gaps == 0 and filled.embedder_error is None
    assert filled.embedded == broken.gaps and filled.reused == broken.chunks - broken.gaps
    assert standin.inputs_embedded - before >= filled.embedded
    assert not open_index(vault_copy).search("signing keys", k=3, now=NOW).health.degraded

    # The final results equal a clean build's, vector for vector.
    clean_vectors, filled_vectors = _saved_vectors(clean_home), _saved_vectors(home)
    assert clean_vectors.keys() == filled_vectors.keys()
    assert all(np.array_equal(clean_vectors[i], filled_vectors[i]) for i in clean_vectors)
    assert _results(vault_copy) == expected


def test_a_hung_server_never_holds_a_search_past_its_timeout(vault_copy, standin) -> None:
    _ollama_vault(vault_copy, standin.host, query_timeout=0.5)
    index_vault(vault_copy)
    standin.mode, standin.hang_seconds = "hang", 20
    engine = open_index(vault_copy)
    started = time.perf_counter()
    first = engine.search("signing keys", k=3, now=NOW)
    elapsed = time.perf_counter() - started
    assert elapsed < 3, elapsed  # the 0.5 s timeout plus a search, with room for a busy machine
    assert "within 0.5 s" in first.health.failed["semantic"] and first.results
    started = time.perf_counter()
    second = engine.search("signing keys", k=3, now=NOW)  # does not wait the timeout again
    assert time.perf_counter() - started < 0.5
    assert "skipped for" in second.health.failed["semantic"]


def test_unreachable_from_the_start_indexes_everything_else(vault_copy, standin) -> None:
    _ollama_vault(vault_copy, standin.host)
    standin.stop()
    started = time.perf_counter()
    report = index_vault(vault_copy)
    assert time.perf_counter() - started < 10
    assert report.gaps == report.chunks and "does not answer" in report.embedder_error
    assert report.embedder == "ollama:nomic-embed-text:256"  # remembered even with no vector
    response = open_index(vault_copy).search("sign_ed25519", k=1, now=NOW)
    assert response.results[0].path == "reference/redflag.md"
    assert "does not answer" in response.health.failed["semantic"]
    standin.restart()
    assert index_vault(vault_copy).gaps == 0


def test_a_server_answering_500_to_everything_is_given_up_after_a_few_tries(vault_copy, standin) -> None:
    _ollama_vault(vault_copy, standin.host)
    standin.mode = "error500"
    before = standin.embed_requests
    report = index_vault(vault_copy)
    assert report.gaps == report.chunks and "HTTP 500" in report.embedder_error
    assert standin.embed_requests - before == 1 + MAX_SINGLE_FAILURES  # one batch, then a few texts alone
    standin.mode = "ok"
    assert index_vault(vault_copy).gaps == 0
