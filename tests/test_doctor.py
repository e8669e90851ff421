"""``memsearch doctor``: Ollama reachable, model pulled, which embedder built the index, and a match.

Ollama is played by the loopback protocol stand-in of ``tests/ollama_standin.py``: NOT Ollama (none
can be installed here), but its ``/api/tags`` and ``/api/embed`` as Ollama documents them.
"""

from __future__ import annotations

import json
import socket

import pytest
from click.testing import CliRunner
from ollama_standin import StandIn

from memsearch.api import index_vault
from memsearch.cli import main
from memsearch.doctor import diagnose
from tests.language_vaults import GERMAN_AND_SPANISH, write_notes


@pytest.fixture(scope="module")
def standin():
    server = StandIn()
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def no_env(monkeypatch):
    monkeypatch.delenv("MEMSEARCH_EMBEDDER", raising=False)


def _closed_port() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}"


def _use_ollama(vault, host: str, spec: str = "ollama:nomic-embed-text:256") -> None:
    (vault / "memsearch.toml").write_text(
        f'[index]\nembedder = "{spec}"\n\n[ollama]\nhost = "{host}"\ntimeout = 5\nquery_timeout = 2\n'
    )


def test_a_minilm_vault_without_ollama_is_fine(vault_copy, monkeypatch) -> None:
    monkeypatch.setenv("OLLAMA_HOST", _closed_port())
    index_vault(vault_copy)
    info = diagnose(vault_copy)
    assert info["ok"], info["problems"]
    assert info["index_embedder"]["spec"] == "minilm" and info["matches_index"] is True
    assert info["ollama"]["answers"] is False and info["ollama"]["needed"] is False
    assert any("only the ollama embedder needs it" in n for n in info["notes"])
    assert info["probes"]["index"]["ok"]


def test_no_index_yet_is_a_note(vault_copy, monkeypatch) -> None:
    monkeypatch.setenv("OLLAMA_HOST", _closed_port())
    info = diagnose(vault_copy)
    assert info["index_embedder"] is None and info["matches_index"] is None
    assert any("no index" in n for n in info["notes"])


def test_ollama_ready_and_matching(vault_copy, standin) -> None:
    _use_ollama(vault_copy, standin.host)
    index_vault(vault_copy)
    info = diagnose(vault_copy)
    assert info["ok"], info["problems"]
    assert info["ollama"]["answers"] and info["ollama"]["pulled"] and info["ollama"]["needed"]
    assert info["index_embedder"]["spec"] == "ollama:nomic-embed-text:256"
    assert info["embedder"]["chosen_by"] == "memsearch.toml" and info["matches_index"]
    assert info["probes"]["index"]["ok"] and "chosen" not in info["probes"]


def test_model_not_pulled_prints_the_pull_command(vault_copy, standin) -> None:
    _use_ollama(vault_copy, standin.host, "ollama:mxbai-embed-large:1024")
    result = CliRunner().invoke(main, ["doctor", "--vault", str(vault_copy)])
    assert result.exit_code == 1
    assert "ollama pull mxbai-embed-large" in result.output
    assert "NOT pulled" in result.output


def test_ollama_down_when_needed_is_a_problem(vault_copy) -> None:
    _use_ollama(vault_copy, _closed_port())
    index_vault(vault_copy)  # all gaps: the server is down
    result = CliRunner().invoke(main, ["doctor", "--vault", str(vault_copy), "--json"])
    assert result.exit_code == 1
    info = json.loads(result.output)
    assert not info["ollama"]["answers"] and info["ollama"]["needed"]
    assert any("ollama serve" in p for p in info["problems"])
    assert any("chunks have no vector" in p for p in info["problems"])


def test_a_different_embedder_now_is_reported(vault_copy, monkeypatch) -> None:
    monkeypatch.setenv("OLLAMA_HOST", _closed_port())
    index_vault(vault_copy)
    monkeypatch.setenv("MEMSEARCH_EMBEDDER", "ollama:nomic-embed-text:512")
    result = CliRunner().invoke(main, ["doctor", "--vault", str(vault_copy)])
    assert result.exit_code == 1
    assert "built     with minilm" in result.output
    assert "DIFFERS from the index" in result.output
    assert "$MEMSEARCH_EMBEDDER" in result.output


def test_cli_index_flags(vault_copy, standin) -> None:
    runner = CliRunner()
    host = standin.host
    (vault_copy / "memsearch.toml").write_text(f'[ollama]\nhost = "{host}"\n')
    first = runner.invoke(main, ["index", str(vault_copy), "--embedder", "ollama:all-minilm", "--json"])
    assert first.exit_code == 0, first.output
    report = json.loads(first.output)
    assert report["embedder"] == "ollama:all-minilm:384" and report["gaps"] == 0
    again = json.loads(runner.invoke(main, ["index", str(vault_copy), "--json"]).output)
    assert again["embedder"] == "ollama:all-minilm:384" and again["embedded"] == 0  # remembered, cached
    redo = json.loads(runner.invoke(main, ["index", str(vault_copy), "--reembed", "--json"]).output)
    assert redo["embedded"] == report["chunks"] and redo["reused"] == 0
    switched = runner.invoke(main, ["index", str(vault_copy), "--embedder", "minilm"])
    assert switched.exit_code == 0 and "changed from ollama:all-minilm:384" in switched.output


# Scripts an English-only embedder was not trained on (issue 17).


def test_doctor_says_when_the_vault_is_not_english_and_the_embedder_is(tmp_path):
    from memsearch.doctor import MULTILINGUAL_EMBEDDER

    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "note.md").write_text(
        "今天我们讨论了签名密钥的轮换计划，决定每九十天更换一次。\n\nsee sign_ed25519()\n"
    )
    report = diagnose(vault)
    languages = report["languages"]
    assert languages["non_latin_share"] > 0.5 and "Chinese characters" in languages["scripts"]
    assert languages["english_only_embedders"] == ["minilm"]
    advice = [p for p in report["problems"] if "outside the Latin script" in p]
    assert len(advice) == 1 and f"--embedder {MULTILINGUAL_EMBEDDER}" in advice[0]
    assert "minilm knows only English" in advice[0]


def test_doctor_is_quiet_about_languages_for_an_english_vault_or_a_multilingual_embedder(tmp_path):
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "note.md").write_text("The boiler was serviced in February. Café résumé naïve.\n")
    report = diagnose(vault)
    assert report["languages"]["scripts"] == {"Latin": 1.0}
    assert not [p for p in report["problems"] if "Latin script" in p]
    (vault / "note.md").write_text("晚饭吃了饺子。来週の月曜日に東京で会議があります。\n")
    chosen = diagnose(vault, embedder="e5-multilingual")
    assert chosen["languages"]["non_latin_share"] == 1.0
    assert chosen["languages"]["english_only_embedders"] == []
    assert not [p for p in chosen["problems"] if "Latin script" in p]


def test_doctor_says_when_the_vault_is_written_in_other_latin_script_languages(tmp_path):
    """German and Spanish are in the Latin script, yet an English-only embedder reads them as
    poorly: the vault's function words tell their language (memsearch.languages)."""
    notes = {**GERMAN_AND_SPANISH, "boiler.md": "The boiler was serviced in February.\n"}
    vault = write_notes(tmp_path / "vault", notes)
    report = diagnose(vault)
    languages = report["languages"]
    assert languages["scripts"] == {"Latin": 1.0} and languages["non_english_share"] > 0.5
    assert {"german", "spanish", "english"} == set(languages["languages"])
    advice = [p for p in report["problems"] if "is not English" in p]
    assert len(advice) == 1 and "German" in advice[0] and "Spanish" in advice[0]
    assert "minilm knows only English" in advice[0] and "--embedder e5-multilingual" in advice[0]
    assert not [p for p in diagnose(vault, embedder="e5-multilingual")["problems"] if "English" in p]


def test_a_backend_that_is_behind_or_gone_is_a_problem(vault_copy, monkeypatch, tmp_path) -> None:
    # doctor said "ok" while the Milvus collection was behind the index, or its Lite file gone.
    from memsearch.index.backend import parse_backend, write_backend

    monkeypatch.setenv("OLLAMA_HOST", _closed_port())
    index_vault(vault_copy, embed=False)
    spec = parse_backend(str(tmp_path / "gone.db"), vault_copy)
    write_backend(vault_copy / ".memsearch", spec)
    report = diagnose(vault_copy)
    assert not report["ok"] and any("gone.db" in p for p in report["problems"]), report["problems"]
    (tmp_path / "gone.db").touch()  # there again, and the last push failed
    spec.pending = "Milvus at x did not answer"
    write_backend(vault_copy / ".memsearch", spec)
    report = diagnose(vault_copy)
    assert any("did not answer" in p for p in report["problems"]), report["problems"]
