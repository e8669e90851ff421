"""The keyword and vector strategies on a real Milvus (Milvus Lite 2.5.1), against the built-in indexes.

Rank equality for the vector strategy (FLAT in Milvus, HNSW here: exact on a vault this small);
the keyword strategy's agreement measured (overlap@10 and score ratio; docs/milvus.md); the
collection kept level with the index: full build, incremental upsert and delete by chunk id, forget,
dropped and rebuilt without embedding again.
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import numpy as np
import pytest
from milvus_server import MilvusProcess, require_milvus

from memsearch.api import forget, index_vault, open_index
from memsearch.errors import ConfigError
from memsearch.index.backend import BUILTIN_RETRIEVAL, BackendUnavailableError, parse_backend, read_backend
from memsearch.index.format import shape_of
from memsearch.query import Filters
from memsearch.query_terms import term_weights
from memsearch.retrieval import pushed_record
from memsearch.search import filter_mask

require_milvus()

from memsearch.index import milvus, milvus_push  # noqa: E402  (after the skip: it needs nothing, its use does)

QUERIES = [
    "ed25519 signing key",
    "who is Ed Kowalski",
    "red flag in the ledger",
    "the covenant principles",
    "what tools do I have",
    "the long key chapter",
    "archive of 2024",
    "session one notes",
]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    proc = MilvusProcess(tmp_path_factory.mktemp("milvus") / "m.db").start()
    yield proc
    milvus.close_clients()
    proc.stop()


@pytest.fixture(scope="module")
def milvus_vault(tmp_path_factory, server) -> Path:
    """The fixture vault indexed with the Milvus backend (its own collection: exact BM25 statistics)."""
    vault = tmp_path_factory.mktemp("mv") / "vault"
    shutil.copytree(Path(__file__).parent.parent / "fixtures" / "vault", vault)
    (vault / "memsearch.toml").write_text(
        f'[backend]\nuri = "{server.uri}"\nlayout = "per-vault"\nvault_id = "fixture"\n', encoding="utf-8"
    )
    report = index_vault(vault)
    assert not [n for n in report.notes if "Milvus" in n], report.notes
    return vault


def _rows(spec, expr: str) -> list[dict]:
    return milvus_push.query_rows(milvus.client_for(spec), spec.collection_name, expr, ["chunk_id", "path"])


def test_the_index_records_the_backend_from_the_vault_config(milvus_vault, server):
    spec = read_backend(milvus_vault / ".memsearch")
    assert spec is not None and spec.uri == server.uri and spec.collection_name == "memsearch_fixture"
    engine = open_index(milvus_vault)
    assert engine.status()["backend"]["name"] == "milvus"
    assert engine.status()["backend"]["pending"] is None
    # every chunk of the index is a row, and no other
    rows = _rows(spec, 'vault == "fixture"')
    assert sorted(r["chunk_id"] for r in rows) == sorted(engine.index.chunks)


def test_vector_ranks_equal_between_backends(milvus_vault):
    engine = open_index(milvus_vault)
    index = engine.index
    n = len(index.chunks)
    filters = [
        Filters(),
        Filters(territory="journal/"),
        Filters(fact_type="world"),
        Filters(entities=("Ed Kowalski",)),
    ]
    compared = 0
    for query in QUERIES:
        vector, why = engine.query_vector(query)
        assert vector is not None, why
        for f in filters:
            allowed = filter_mask(index, f)
            built_in = BUILTIN_RETRIEVAL.vector_top(index, vector, n, allowed, f)
            remote = engine.retrieval.vector_top(index, vector, n, allowed, f)
            assert [h.chunk_id for h in remote] == [h.chunk_id for h in built_in], (query, f)
            np.testing.assert_allclose([h.score for h in remote], [h.score for h in built_in], atol=1e-5)
            compared += len(built_in)
    assert compared > 100


def _keyword_lists(engine, query: str, f: Filters, k: int = 10):
    index = engine.index
    weights = term_weights(query)
    allowed = filter_mask(index, f)
    return (
        BUILTIN_RETRIEVAL.keyword_top(index, weights, k, allowed, f, None),
        engine.retrieval.keyword_top(index, weights, k, allowed, f, None),
    )


def test_keyword_agreement_is_measured_and_exact_on_a_vault_of_its_own(milvus_vault):
    """The same terms, weights and BM25 (memsearch's terms given to Milvus, k1 scaled for the repeats):
    on a collection of its own, the lists agree; the figures go to docs/milvus.md."""
    engine = open_index(milvus_vault)
    overlaps = []
    for query in QUERIES:
        for f in (Filters(), Filters(territory="reference/")):
            built_in, remote = _keyword_lists(engine, query, f)
            a, b = [h.chunk_id for h in built_in], [h.chunk_id for h in remote]
            overlaps.append(len(set(a) & set(b)) / max(len(a), len(b)) if a or b else 1.0)
            # same scores, so same ranks up to ties
            got = {h.chunk_id: h.score for h in remote}
            for h in built_in:
                if h.chunk_id in got:
                    assert got[h.chunk_id] == pytest.approx(h.score, rel=1e-4), (query, h)
    print(f"keyword overlap@10, {len(overlaps)} lists: mean {np.mean(overlaps):.3f} min {min(overlaps):.3f}")
    assert min(overlaps) == 1.0


#: Milvus's BM25 agrees with the built-in one to 1e-4 of a score, not to the last bit: two results
#: whose fused scores lie closer than this share of the first's may stand in either order.
NEAR_TIE = 1e-3


def test_search_answers_the_same_through_either_backend(milvus_vault):
    engine = open_index(milvus_vault)
    for query in QUERIES:
        remote = engine.search(query, k=10, all_results=True, explain=True)
        retrieval, engine.retrieval = engine.retrieval, None
        try:
            built_in = engine.search(query, k=10, all_results=True, explain=True)
        finally:
            engine.retrieval = retrieval
        assert not remote.health.degraded and remote.health.notes == built_in.health.notes
        places = [[(r.path, r.start_line) for r in response.results] for response in (remote, built_in)]
        fused = [[r.explanation["fused_score"] for r in response.results] for response in (remote, built_in)]
        # The same ranking, up to near ties: at every place the two fused scores agree, and the
        # results that stand at different places are near ties of the ones they swapped with.
        assert len(places[0]) == len(places[1]), query
        tolerance = NEAR_TIE * max(fused[1], default=0.0)
        assert fused[0] == pytest.approx(fused[1], abs=tolerance), query
        for place, (got, wanted) in enumerate(zip(*places, strict=True)):
            if got != wanted:
                assert got in places[1], (query, got)
                assert abs(fused[1][places[1].index(got)] - fused[1][place]) <= tolerance, (query, got)
        scores = [r.score for r in built_in.results]
        assert [r.score for r in remote.results] == pytest.approx(scores, abs=1e-3)


def test_incremental_updates_deletes_and_forget_reach_the_collection(tmp_path, server, vault_copy):
    report = index_vault(vault_copy, backend=server.uri)
    spec = read_backend(vault_copy / ".memsearch")
    before = {r["chunk_id"]: r["path"] for r in _rows(spec, f'vault == "{spec.vault_id}"')}
    assert len(before) == report.chunks
    # an edited file: its old rows go, its new ones come; the rest are not sent again
    tools = vault_copy / "system" / "tools.md"
    tools.write_text(tools.read_text(encoding="utf-8") + "\n\nZanzibar quokka inventory.\n", encoding="utf-8")
    (vault_copy / "inbox.md").unlink()
    index_vault(vault_copy)
    engine = open_index(vault_copy)
    after = {r["chunk_id"]: r["path"] for r in _rows(spec, f'vault == "{spec.vault_id}"')}
    assert sorted(after) == sorted(engine.index.chunks)
    assert "inbox.md" not in after.values()
    hits = engine.search("zanzibar quokka", k=3).results
    assert hits and hits[0].path == "system/tools.md"
    assert not engine.search("zanzibar quokka", k=3).health.notes
    # forget: nothing of the memory is left in the collection
    forget(vault_copy, ["reference/ed25519.md"])
    assert not _rows(spec, 'path == "reference/ed25519.md"')
    weights = term_weights("ed25519")
    engine = open_index(vault_copy)
    assert all(
        engine.index.chunks[h.chunk_id].path != "reference/ed25519.md"
        for h in engine.retrieval.keyword_top(engine.index, weights, 10, None, Filters(), None)
    )


def test_a_dropped_collection_is_rebuilt_from_the_index_without_embedding(server, vault_copy):
    index_vault(vault_copy, backend=server.uri)
    spec = read_backend(vault_copy / ".memsearch")
    milvus.drop(spec)
    assert not _rows(spec, f'vault == "{spec.vault_id}"')
    report = index_vault(vault_copy, backend=server.uri)  # chosen again: compared in full
    assert report.embedded == 0 and report.commit is None
    engine = open_index(vault_copy)
    rows = _rows(spec, f'vault == "{spec.vault_id}"')
    assert sorted(r["chunk_id"] for r in rows) == sorted(engine.index.chunks)


def test_a_push_reads_the_collection_from_its_record_and_sends_only_what_changed(server, vault_copy):
    index_vault(vault_copy, backend=server.uri)
    home = vault_copy / ".memsearch"
    spec, record = read_backend(home), pushed_record(home)
    assert record.is_file()
    engine = open_index(vault_copy)
    shape = shape_of(engine.index.manifest or {})
    again = milvus_push.sync(spec, engine.index, shape, record=record)
    assert (again.read_back, again.upserted, again.deleted) == (False, 0, 0)
    assert again.kept == len(engine.index.chunks)
    # rows deleted behind memsearch's back: the vault's row count no longer matches the record, so
    # the push reads the collection back and sends the missing rows again
    some = sorted(engine.index.chunks)[:3]
    milvus.client_for(spec).delete(spec.collection_name, ids=[f"{spec.vault_id}:{c}" for c in some])
    healed = milvus_push.sync(spec, engine.index, shape, record=record)
    assert healed.read_back and healed.upserted == 3
    rows = _rows(spec, f'vault == "{spec.vault_id}"')
    assert sorted(r["chunk_id"] for r in rows) == sorted(engine.index.chunks)


def test_builtin_is_chosen_back_and_bad_backends_are_refused(server, vault_copy):
    index_vault(vault_copy, backend=server.uri)
    index_vault(vault_copy, backend="builtin")
    assert read_backend(vault_copy / ".memsearch") is None
    assert open_index(vault_copy).retrieval is None
    with pytest.raises(ConfigError, match="milvus://HOST:PORT"):
        index_vault(vault_copy, backend="opensearch://x")
    (vault_copy / "memsearch.toml").write_text('[backend]\nuri = "milvus://nohost"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"memsearch.toml: \[backend\]"):
        index_vault(vault_copy)


def test_leaving_a_backend_takes_the_vaults_rows_out_of_it(server, vault_copy):
    # Back to builtin, the vault's rows stayed in Milvus, where no later forget reached them: a
    # forgotten note's text and vector outlived `forget --purge-history`.
    index_vault(vault_copy, backend=server.uri)
    spec = read_backend(vault_copy / ".memsearch")
    assert _rows(spec, f'vault == "{spec.vault_id}"')
    report = index_vault(vault_copy, backend="builtin")
    assert _rows(spec, f'vault == "{spec.vault_id}"') == []
    assert not [n for n in report.notes if "Milvus" in n], report.notes


def test_a_copied_vault_takes_an_id_of_its_own(server, vault_copy, tmp_path):
    # `cp -a` of a vault copied its index home, and with it the vault id its rows are marked with:
    # the copy's first push replaced the original's rows with its own, and the original then
    # answered from the copy's text, "strong", with nothing said.
    index_vault(vault_copy, backend=server.uri)
    original = read_backend(vault_copy / ".memsearch")
    copy = tmp_path / "copy"
    shutil.copytree(vault_copy, copy, symlinks=True)
    (copy / "reference" / "redflag.md").write_text("# Redflag\n\nzanzibar quokka flamingo\n")
    index_vault(copy)
    mine = read_backend(copy / ".memsearch")
    assert mine.vault_id != original.vault_id and mine.pending is None
    theirs = {r["path"] for r in _rows(original, f'vault == "{original.vault_id}"')}
    assert "reference/redflag.md" in theirs and len(_rows(mine, f'vault == "{mine.vault_id}"')) > 0
    engine = open_index(vault_copy)
    through_milvus = engine.search("ed25519 signing key", k=5)
    assert not through_milvus.health.notes, through_milvus.health.notes
    engine.retrieval = None
    built_in = engine.search("ed25519 signing key", k=5)
    assert [r.path for r in through_milvus.results] == [r.path for r in built_in.results]
    assert read_backend(vault_copy / ".memsearch").vault_id == original.vault_id


def test_a_vault_indexed_without_embedding_makes_the_collection_at_its_embedders_dimension(
    tmp_path, vault_copy
):
    # `index --no-embed` first: the shared collection was made with 8-dim vectors (a placeholder),
    # and every vault that embeds, this one included, was refused by it for good.
    db = tmp_path / "shared.db"
    other = tmp_path / "other"
    shutil.copytree(vault_copy, other, symlinks=True)
    shutil.rmtree(other / ".memsearch", ignore_errors=True)
    index_vault(vault_copy, embed=False, backend=str(db))
    report = index_vault(other, backend=str(db))
    assert not [n for n in report.notes if "Milvus" in n], report.notes
    assert read_backend(other / ".memsearch").pending is None
    milvus.forget_client(read_backend(other / ".memsearch"))


def test_a_lite_file_another_process_holds_is_said_so_and_nothing_else_is_printed(tmp_path, capfd):
    # The raw lines of Milvus Lite's server (C++ log lines, "Open ... failed, the file has been
    # opened by another program") reached the user's stderr, and the error said only "Open local
    # milvus failed" with "the next index run pushes it", which no run could while it was held.
    import subprocess
    import sys

    db = tmp_path / "held.db"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            f"import pymilvus, time; pymilvus.MilvusClient({str(db)!r}); print('ok', flush=True);"
            " time.sleep(60)",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "ok"
        spec = parse_backend(str(db), tmp_path)
        capfd.readouterr()
        with pytest.raises(BackendUnavailableError, match="another process"):
            milvus.client_for(spec)
        time.sleep(1.0)  # what a server process started here would still write
        assert capfd.readouterr().err == ""
    finally:
        holder.kill()
        holder.wait()
        milvus.forget_client(spec)


def test_leaving_a_lite_file_that_is_gone_makes_no_new_one(tmp_path):
    spec = parse_backend(str(tmp_path / "gone.db"), tmp_path)
    milvus.drop(spec)
    assert not (tmp_path / "gone.db").exists()


def test_a_milvus_lite_file_is_a_backend_too(tmp_path, vault_copy):
    db = tmp_path / "lite.db"
    index_vault(vault_copy, backend=str(db))
    spec = read_backend(vault_copy / ".memsearch")
    assert spec.is_lite and spec.pending is None, spec.pending
    engine = open_index(vault_copy)
    response = engine.search("ed25519 signing key", k=5)
    assert response.results and not response.health.notes
    engine.retrieval = None
    built_in = engine.search("ed25519 signing key", k=5)
    assert [r.path for r in response.results] == [r.path for r in built_in.results]
    milvus.forget_client(spec)
    assert json.loads((vault_copy / ".memsearch" / "backend.json").read_text())["uri"] == str(db)


def test_update_file_reaches_the_collection_with_its_commit(server, vault_copy):
    index_vault(vault_copy, backend=server.uri)
    engine = open_index(vault_copy)
    note = vault_copy / "journal" / "2025-03-14.md"
    note.write_text("# 2025-03-14\n\nThe otter family moved under the boathouse.\n", encoding="utf-8")
    engine.update_file(note)
    assert engine.wait_for_embeddings(120)
    spec = engine.retrieval.spec
    rows = _rows(spec, 'path == "journal/2025-03-14.md"')
    assert rows and {r["chunk_id"] for r in rows} <= set(engine.index.chunks)
    assert read_backend(vault_copy / ".memsearch").pushed_commit == engine.index.commit
    engine.close()


def test_a_lite_file_deleted_since_the_last_push_is_made_anew_by_the_next_run(tmp_path, vault_copy):
    # The record said the collection held the index's commit, so a plain `memsearch index` pushed
    # nothing, and every search fell back to the built-in indexes for good.
    db = tmp_path / "gone.db"
    index_vault(vault_copy, backend=str(db))
    spec = read_backend(vault_copy / ".memsearch")
    milvus.forget_client(spec)
    db.unlink()
    index_vault(vault_copy)
    assert db.exists() and read_backend(vault_copy / ".memsearch").pending is None
    engine = open_index(vault_copy)
    response = engine.search("ed25519 signing key", k=3)
    assert response.results and not response.health.fallbacks, response.health.fallbacks
    milvus.forget_client(spec)


def test_doctor_opens_the_collection_and_says_what_it_lacks(server, vault_copy):
    # doctor read only the backend's record: a collection dropped on the server, or missing rows,
    # read "ok" until a search fell back.
    from memsearch.doctor import diagnose

    index_vault(vault_copy, backend=server.uri)
    spec = read_backend(vault_copy / ".memsearch")
    assert not [p for p in diagnose(vault_copy)["problems"] if "Milvus" in p]
    client = milvus.client_for(spec)
    gone = sorted(r["chunk_id"] for r in _rows(spec, f'vault == "{spec.vault_id}"'))[:2]
    client.delete(spec.collection_name, filter=f'vault == "{spec.vault_id}" and chunk_id in {gone}')
    problems = [p for p in diagnose(vault_copy)["problems"] if "Milvus" in p]
    assert len(problems) == 1 and "2 of the index's" in problems[0], problems
    assert f"memsearch index --backend {spec.uri}" in problems[0]
    milvus.drop(spec)
    problems = [p for p in diagnose(vault_copy)["problems"] if "Milvus" in p]
    assert len(problems) == 1 and "holds none" in problems[0], problems
    index_vault(vault_copy, backend=server.uri)  # chosen again: compared in full, pushed
    assert not [p for p in diagnose(vault_copy)["problems"] if "Milvus" in p]
