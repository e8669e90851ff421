"""Milvus as a soft seam: killed mid-search and mid-index, the engine answers from the built-in
indexes (always built) and says so in the health record; an index run records what it could not
push and the next run pushes it; nothing is lost."""

from __future__ import annotations

import sys

import pytest
from click.testing import CliRunner
from milvus_server import MilvusProcess, require_milvus

from memsearch.api import index_vault, open_index
from memsearch.cli import main
from memsearch.index.backend import read_backend
from memsearch.tool import memory_search

require_milvus()

from memsearch.index import milvus, milvus_push  # noqa: E402

QUERIES = ["ed25519 signing key", "who is Ed Kowalski", "the covenant principles"]


@pytest.fixture
def server(tmp_path):
    proc = MilvusProcess(tmp_path / "down.db").start()
    yield proc
    milvus.close_clients()
    proc.stop()


def _paths(response) -> list[tuple[str, int]]:
    return [(r.path, r.start_line) for r in response.results]


def test_killed_mid_search_answers_from_the_built_in_indexes(server, vault_copy, monkeypatch):
    index_vault(vault_copy, backend=server.uri)
    engine = open_index(vault_copy)
    before = {q: engine.search(q, k=5) for q in QUERIES}
    assert all(not r.health.notes and not r.health.degraded for r in before.values())
    server.kill()
    for query in QUERIES:
        response = engine.search(query, k=5)
        assert _paths(response) == _paths(before[query])  # the built-in lists: the same answer
        assert response.health.degraded
        assert set(response.health.ran) == {"semantic", "keyword", "graph", "time"}
        notes = [n for n in response.health.notes if "Milvus" in n]
        assert {n.split(":")[0] for n in notes} == {"keyword", "semantic"}
        assert all("answered from the built-in index" in n for n in notes)
    # after the first failure, Milvus is not asked again for a while: no timeout waited per search
    assert "not asked again" in engine.search(QUERIES[0], k=5).health.notes[-1]
    # nor when the failure is in connecting (a new client): it was asked, and waited for, each time
    milvus.close_clients()
    fresh = open_index(vault_copy)
    assert fresh.search(QUERIES[0], k=5).health.degraded
    assert "not asked again" in fresh.search(QUERIES[1], k=5).health.notes[-1]
    # the agent's tool never raises, and answers
    assert memory_search(QUERIES[0], vault=vault_copy)["results"]


def test_killed_mid_index_records_the_push_and_the_next_run_catches_up(server, vault_copy, monkeypatch):
    index_vault(vault_copy, backend=server.uri)
    server.kill()
    note = vault_copy / "journal" / "2025-03-12.md"
    note.write_text("# 2025-03-12\n\nThe heron came back to the marsh pond.\n", encoding="utf-8")
    report = index_vault(vault_copy)
    assert report.commit is not None  # the index itself is committed: nothing lost
    assert any("Milvus" in n and "next index run pushes it" in n for n in report.notes), report.notes
    home = vault_copy / ".memsearch"
    assert read_backend(home).pending
    engine = open_index(vault_copy)
    assert engine.status()["backend"]["pending"]
    shown = CliRunner().invoke(main, ["status", "--vault", str(vault_copy)])
    assert "backend   milvus " in shown.output and "the next `memsearch index` pushes it" in shown.output
    response = engine.search("heron marsh pond", k=3)
    assert response.results[0].path == "journal/2025-03-12.md" and response.health.degraded
    # Milvus back (same data, same address), the push still pending: its collection lacks the
    # note, and searches asked it anyway (they found nothing of a vault it was never given)
    milvus.close_clients()
    server.start_again()
    back = open_index(vault_copy).search("heron marsh pond", k=3)
    assert back.results[0].path == "journal/2025-03-12.md" and back.health.degraded
    assert any("is behind the index" in n for n in back.health.notes), back.health.notes
    # the next run pushes what was pending, unasked
    report = index_vault(vault_copy)
    assert report.commit is None and not [n for n in report.notes if "Milvus" in n]
    spec = read_backend(home)
    assert spec.pending is None
    client = milvus.client_for(spec)
    expr = 'path == "journal/2025-03-12.md"'
    assert milvus_push.query_rows(client, spec.collection_name, expr, ["chunk_id"])
    engine = open_index(vault_copy)
    response = engine.search("heron marsh pond", k=3)
    assert response.results[0].path == "journal/2025-03-12.md"
    assert not response.health.degraded and not response.health.notes
    rows = milvus_push.query_rows(client, spec.collection_name, f'vault == "{spec.vault_id}"', ["chunk_id"])
    assert sorted(r["chunk_id"] for r in rows) == sorted(engine.index.chunks)


def test_without_the_extra_searches_answer_from_the_built_in_indexes(server, vault_copy, monkeypatch):
    index_vault(vault_copy, backend=server.uri)
    milvus.close_clients()
    monkeypatch.setitem(sys.modules, "pymilvus", None)  # as if `pip install memsearch-vault` alone
    engine = open_index(vault_copy)
    response = engine.search(QUERIES[0], k=5)
    assert response.results and response.health.degraded
    assert any("pip install 'memsearch-vault[milvus]'" in n for n in response.health.notes)
    (vault_copy / "inbox.md").unlink()
    report = index_vault(vault_copy)
    assert report.commit and any("memsearch-vault[milvus]" in n for n in report.notes), report.notes
