"""An unchanged vault is re-indexed without loading the index (the cron job's usual run)."""

import shutil

import pytest
from click.testing import CliRunner

from memsearch.api import index_vault, open_index
from memsearch.cli import main
from memsearch.errors import ConfigError
from memsearch.index import loading
from memsearch.indexer import run as indexer
from memsearch.paths import default_home


def _count_loads(monkeypatch):
    loads = []
    real = loading.load_commit

    def load_commit(home, commit, **kw):
        loads.append(commit)
        return real(home, commit, **kw)

    monkeypatch.setattr(loading, "load_commit", load_commit)
    return loads


def test_an_unchanged_run_loads_nothing_and_reports_the_index(indexed_vault, monkeypatch):
    first = index_vault(indexed_vault)  # settles the signal state on this commit
    loads = _count_loads(monkeypatch)
    report = index_vault(indexed_vault)
    assert loads == []
    assert report.commit is None and report.embedded == 0
    assert (report.files, report.chunks, report.gaps) == (first.files, first.chunks, first.gaps)
    assert report.reused == len(open_index(indexed_vault).index.vectors)


def test_a_change_loads_the_index_once(vault_copy, monkeypatch):
    index_vault(vault_copy, embed=False)
    loads = _count_loads(monkeypatch)
    (vault_copy / "journal" / "2025-03-20.md").write_text("# 2025-03-20\n\nSaw a zebracorn with Ed.\n")
    report = index_vault(vault_copy, embed=False)
    assert report.commit and report.added == ("journal/2025-03-20.md",)
    assert len(loads) == 1
    hits = open_index(vault_copy).search("zebracorn", 3, strategies=["keyword"]).results
    assert hits[0].path == "journal/2025-03-20.md"


def test_a_deferred_load_that_fails_rebuilds_as_an_eager_one_would(vault_copy, monkeypatch):
    index_vault(vault_copy, embed=False)
    real_open = indexer.open_for_write
    calls = []

    def open_for_write(home, live=None, *, defer_load=False):
        calls.append(defer_load)
        base = real_open(home, live, defer_load=defer_load)
        if defer_load and base.loader is not None:
            base.loader = lambda: (_ for _ in ()).throw(ValueError("snapshot went bad"))
        return base

    monkeypatch.setattr(indexer, "open_for_write", open_for_write)
    (vault_copy / "journal" / "2025-03-20.md").write_text("# 2025-03-20\n\nSaw a zebracorn with Ed.\n")
    report = index_vault(vault_copy, embed=False)
    assert calls == [True, False]  # tried deferred, then again as before
    assert report.commit and report.added == ("journal/2025-03-20.md",)
    hits = open_index(vault_copy).search("zebracorn", 3, strategies=["keyword"]).results
    assert hits[0].path == "journal/2025-03-20.md"


def test_signals_still_retry_deferred_matches_on_an_unchanged_run(vault_copy):
    from memsearch.signals import check_new_memories, load_state

    index_vault(vault_copy, embed=False)
    home = default_home(vault_copy)
    state = load_state(home)
    assert state["deferred"] == 0 and state["commit"] == loading.head_commit(home)
    called = []

    def loader():
        called.append(True)
        return open_index(vault_copy).index

    check_new_memories(vault_copy, home, None, loader)
    assert called == []  # this commit was checked and nothing waits: the index is not loaded
    state["deferred"] = 2  # an earlier run could not score two matches (say, the embedder was down)
    from memsearch.signals import save_state

    save_state(home, state)
    check_new_memories(vault_copy, home, None, loader)
    assert called == [True]


def test_an_embedder_named_outright_that_does_not_exist_is_refused_before_anything_is_written(tmp_path):
    # `memsearch index VAULT --embedder minilim` (a typo) exited 0: the vault was indexed without
    # vectors and "minilim" recorded as the index's embedder, which every later run then chose.
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "note.md").write_text("# Boiler\n\nThe boiler was serviced in February.\n")
    with pytest.raises(ConfigError, match=r"unknown embedder 'minilim'; valid embedders: .*minilm"):
        index_vault(vault, embedder="minilim")
    assert not (default_home(vault) / "repo").exists()
    result = CliRunner().invoke(main, ["index", str(vault), "--embedder", "minilim"])
    assert result.exit_code == 1 and "unknown embedder 'minilim'" in result.output
    assert "Traceback" not in result.output


def test_the_index_of_another_vault_is_not_replaced_but_a_moved_vaults_is_taken_over(tmp_path):
    # `memsearch index vb --index-dir va/.memsearch` (the wrong folder) removed every note of va
    # from va's index and put vb's in, exit 0.
    va, vb = tmp_path / "va", tmp_path / "vb"
    for vault, word in ((va, "apple"), (vb, "banana")):
        vault.mkdir()
        (vault / "note.md").write_text(f"# Note\n\nAn {word} a day.\n")
    index_vault(va, embed=False)
    home = default_home(va)
    head = loading.head_commit(home)
    with pytest.raises(ConfigError, match=f"is the index of the vault {va}, not of {vb}"):
        index_vault(vb, index_dir=home, embed=False)
    result = CliRunner().invoke(main, ["index", str(vb), "--index-dir", str(home), "--no-embed"])
    assert result.exit_code == 1 and "Nothing was changed" in result.output
    assert loading.head_commit(home) == head
    copied = tmp_path / "copied"
    shutil.copytree(va, copied)  # a vault copied with the index inside it: the copy's own
    assert index_vault(copied, embed=False).files == 1
    elsewhere = tmp_path / "elsewhere"
    index_vault(va, index_dir=elsewhere, embed=False)
    moved = tmp_path / "moved"
    va.rename(moved)  # the vault moved away from its index: the index is still its own
    assert index_vault(moved, index_dir=elsewhere, embed=False).files == 1
    assert open_index(moved, index_dir=elsewhere).search("apple", k=1, strategies=["keyword"]).results


def test_a_commit_whose_gaps_have_no_recorded_reason_prints_no_none():
    # `memsearch log --files` printed "3 chunks await vectors (None)".
    from memsearch.indexer.vectors import VectorWork
    from memsearch.indexer.writer import commit_message

    manifest = {"gaps": [1, 2, 3], "embedder_error": None, "embedder": {}}
    message = commit_message(["a.md"], [], [], VectorWork(info={}, gaps={1, 2, 3}), manifest)
    assert "3 chunks await vectors\n" in message and "None" not in message
    manifest["embedder_error"] = "EmbedderError: Ollama is not running"
    message = commit_message(["a.md"], [], [], VectorWork(info={}, gaps={1, 2, 3}), manifest)
    assert "3 chunks await vectors (EmbedderError: Ollama is not running)" in message
