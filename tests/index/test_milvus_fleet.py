"""A fleet: 100 vaults in one Milvus collection, each search scoped to its own vault by a pushed-down
filter expression, every engine filter (territory, fact type, entities, time window) pushed down too.

Chunk ids collide across vaults (every vault numbers its chunks from 0), so a row of another vault
that came back would pass for one of this vault's chunks: the retrieval counts any such row
(``foreign_rows``), and each vault's lists must equal what its own built-in indexes answer.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from milvus_server import MilvusProcess, require_milvus

from memsearch.api import index_vault, open_index
from memsearch.index.backend import BUILTIN_RETRIEVAL, read_backend
from memsearch.query import Filters
from memsearch.query_terms import term_weights
from memsearch.search import filter_mask

require_milvus()

from memsearch.index import milvus, milvus_push  # noqa: E402

VAULTS = 100


def codeword(i: int) -> str:
    """A word only vault i holds (letters only: memsearch splits digits off an identifier)."""
    return f"quill{chr(97 + i // 26)}{chr(97 + i % 26)}wort"


def _write_vault(root: Path, i: int, uri: str) -> Path:
    vault = root / f"agent{i:03d}"
    (vault / "journal").mkdir(parents=True)
    (vault / "reference").mkdir()
    day = 1 + i % 28
    (vault / "journal" / f"2025-02-{day:02d}.md").write_text(
        f"# 2025-02-{day:02d}\n\nKept the lighthouse lamp burning with Morwenna Tesk.\n"
        f"The {codeword(i)} log says the tide was high.\n",
        encoding="utf-8",
    )
    (vault / "reference" / "lighthouse.md").write_text(
        "# Lighthouse keeping\n\nTrim the wick, polish the lens, log the tide.\n\n"
        f"## Vault {i}\n\nThis keeper's own mark is {codeword(i)}.\n",
        encoding="utf-8",
    )
    (vault / "memsearch.toml").write_text(
        f'[backend]\nuri = "{uri}"\nvault_id = "agent{i:03d}"\n', encoding="utf-8"
    )
    return vault


@pytest.fixture(scope="module")
def fleet(tmp_path_factory):
    root = tmp_path_factory.mktemp("fleet")
    proc = MilvusProcess(root / "fleet.db").start()
    vaults = [_write_vault(root, i, proc.uri) for i in range(VAULTS)]
    for vault in vaults:
        report = index_vault(vault)
        assert not [n for n in report.notes if "Milvus" in n], report.notes
    yield vaults
    milvus.close_clients()
    proc.stop()


def test_one_collection_holds_every_vault(fleet):
    spec = read_backend(fleet[0] / ".memsearch")
    assert spec.collection_name == "memsearch" and spec.layout == "shared"
    client = milvus.client_for(spec)
    vaults = {r["vault"] for r in milvus_push.query_rows(client, "memsearch", "chunk_id >= 0", ["vault"])}
    assert vaults == {f"agent{i:03d}" for i in range(VAULTS)}


def _scored(hits) -> list[tuple[int, float]]:
    return [(h.chunk_id, round(h.score, 4)) for h in hits]


def test_no_result_ever_crosses_vaults(fleet):
    since, until = datetime(2025, 2, 1, tzinfo=UTC), datetime(2025, 2, 10, 23, 59, tzinfo=UTC)
    filters = [
        Filters(),
        Filters(territory="journal/"),
        Filters(fact_type="world"),
        Filters(entities=("Morwenna Tesk",)),
        Filters(since=since, until=until),
    ]
    probe = open_index(fleet[0])
    vectors = {}
    for text in ("keeping the lighthouse lamp", f"the mark {codeword(7)}"):
        vectors[text], why = probe.query_vector(text)
        assert vectors[text] is not None, why
    checked = 0
    for i, vault in enumerate(fleet):
        engine = open_index(vault)
        index, remote = engine.index, engine.retrieval
        # another vault's codeword is nowhere in this vault: nothing may come back
        other = codeword((i + 1) % VAULTS)
        assert remote.keyword_top(index, term_weights(other), 10, None, Filters(), None) == []
        mine = term_weights(codeword(i))
        own = remote.keyword_top(index, mine, 10, None, Filters(), None)
        # the vault's own scores, not the collection's: Milvus's idf counts all 100 vaults, the
        # candidates are scored again with the vault's statistics
        expected = BUILTIN_RETRIEVAL.keyword_top(index, mine, 10, None, Filters(), None)
        assert own and _scored(own) == _scored(expected)
        for f in filters:
            allowed = filter_mask(index, f)
            for query in ("lighthouse tide", "lens wick"):
                weights = term_weights(query)
                expected = BUILTIN_RETRIEVAL.keyword_top(index, weights, 10, allowed, f, None)
                got = remote.keyword_top(index, weights, 10, allowed, f, None)
                assert _scored(got) == _scored(expected), (vault.name, f, query)
            for vector in vectors.values():
                expected = BUILTIN_RETRIEVAL.vector_top(index, vector, 10, allowed, f)
                got = remote.vector_top(index, vector, 10, allowed, f)
                assert [h.chunk_id for h in got] == [h.chunk_id for h in expected], (vault.name, f)
                checked += len(got)
        assert remote.foreign_rows == 0, vault.name
    assert checked > VAULTS * 5


def test_one_process_answers_for_many_vaults_with_one_client(fleet):
    engines = [open_index(v) for v in fleet[:10]]
    for i, engine in enumerate(engines):
        response = engine.search(codeword(i), k=3)
        assert response.results and response.results[0].path == "reference/lighthouse.md"
        assert not response.health.notes
    assert len({id(milvus.client_for(e.retrieval.spec)) for e in engines}) == 1
