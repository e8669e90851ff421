"""Forgetting is complete and safe (issue 15, item 3): every name a file had, vectors never
committed, an entity's variants and the signal log, an interrupted purge, a typo, --list and
unforget, the real commit id, and a forget list that travels with the vault."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from index_bytes import every_byte, git_objects
from test_forget import _paths

from memsearch.api import index_vault, log, open_index
from memsearch.cli import main
from memsearch.index.forget_list import load_forget_list, path_hash

SENTENCE = "The walrus obsidian passphrase is cobalt meadow ninety one"
CLI = [sys.executable, "-m", "memsearch.cli"]


def _write(vault: Path, rel: str, text: str) -> None:
    path = vault / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _cache_keys(home: Path) -> set[str]:
    conn = sqlite3.connect(home / "cache" / "embeddings.sqlite")
    try:
        return {row[0] for row in conn.execute("SELECT key FROM vectors")}
    finally:
        conn.close()


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMSEARCH_CRASH")}
    env.update(extra)
    return env


def _git_has(home: Path, commit: str) -> bool:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    got = subprocess.run(["git", "-C", str(home / "repo"), "cat-file", "-e", f"{commit}^{{commit}}"], env=env)
    return got.returncode == 0


def test_purge_covers_every_name_the_file_had(vault_copy):
    vault, home = vault_copy, vault_copy / ".memsearch"
    _write(vault, "journal/old.md", f"# Old\n\n{SENTENCE}.\n")
    index_vault(vault)
    _write(vault, "journal/other.md", "# Other\n\nA note about the shed roof.\n")
    index_vault(vault)
    os.rename(vault / "journal/old.md", vault / "journal/new.md")
    index_vault(vault)
    assert "journal/old.md" in _paths(
        open_index(vault, at="HEAD~1").search("walrus obsidian passphrase", k=5)
    )

    result = CliRunner().invoke(main, ["forget", "journal/new.md", "--vault", str(vault), "--purge-history"])
    assert result.exit_code == 0, result.output
    for i in range(len(log(vault))):
        got = _paths(open_index(vault, at=f"HEAD~{i}").search("walrus obsidian passphrase cobalt", k=20))
        assert not got & {"journal/old.md", "journal/new.md"}, (i, got)
    for where, data in every_byte(home):
        assert b"walrus obsidian" not in data, where
    # the commit it printed is the real one: it exists after the rewrite, and is HEAD
    head = log(vault)[0]["commit"]
    assert head[:12] in result.output
    assert _git_has(home, head)


def test_purge_drops_vectors_embedded_but_never_committed(vault_copy, tmp_path):
    vault, home = vault_copy, vault_copy / ".memsearch"
    _write(vault, "journal/diary.md", "# Diary\n\nA quiet day at the workshop.\n")
    index_vault(vault)
    before = _cache_keys(home)
    # an index run killed after embedding the new text, before its commit
    _write(vault, "journal/diary.md", f"# Diary\n\n{SENTENCE}.\n")
    killed = subprocess.run(
        [*CLI, "index", str(vault)], env=_env(MEMSEARCH_CRASH_AT="before-commit"), capture_output=True
    )
    assert killed.returncode == -9, killed.stderr
    uncommitted = _cache_keys(home) - before
    assert uncommitted
    # the file is rewritten since: that text is nowhere but the cache
    _write(vault, "journal/diary.md", "# Diary\n\nSomething else entirely.\n")
    result = CliRunner().invoke(
        main, ["forget", "journal/diary.md", "--vault", str(vault), "--purge-history"]
    )
    assert result.exit_code == 0, result.output
    assert not uncommitted & _cache_keys(home)


def test_entity_purge_takes_its_variants_and_the_signal_log(vault_copy):
    vault, home = vault_copy, vault_copy / ".memsearch"
    _write(vault, "journal/q1.md", "# Depot\n\nMet Quillon Vask at the depot about the brake pads.\n")
    _write(vault, "journal/q2.md", "# Roster\n\nThe roster lists Vask (Quillon) for Tuesday evenings.\n")
    _write(
        vault,
        "journal/q3.md",
        "# Bikes\n\nquillon vask's cargo bike needs a new chain.\n\n## Else\n\nRain.\n",
    )
    index_vault(vault)
    event = {
        "sensor_name": "memory_search",
        "target": "journal/q1.md",
        "payload": {"entities": ["Quillon Vask"]},
    }
    other = {"sensor_name": "memory_search", "target": "journal/x.md", "payload": {"entities": ["Shed"]}}
    (home / "signals.jsonl").write_text(json.dumps(event) + "\n" + json.dumps(other) + "\n")

    result = CliRunner().invoke(
        main, ["forget", "--entity", "Quillon Vask", "--vault", str(vault), "--purge-history"]
    )
    assert result.exit_code == 0, result.output
    for i in range(len(log(vault))):
        for chunk in open_index(vault, at=f"HEAD~{i}").index.chunks.values():
            assert "quillon" not in chunk.text.casefold(), (i, chunk.path, chunk.text)
    objects = git_objects(home / "repo").lower()
    assert b"quillon" not in objects
    inbox = (home / "signals.jsonl").read_text()
    assert "Quillon" not in inbox and "Shed" in inbox
    # a new note naming a variant is not indexed again
    _write(vault, "journal/q4.md", "# Later\n\nQUILLON VASK called about the pads.\n")
    index_vault(vault)
    assert not any("quillon" in c.text.casefold() for c in open_index(vault).index.chunks.values())


def test_forgetting_what_is_not_indexed_needs_force(vault_copy):
    vault, home = vault_copy, vault_copy / ".memsearch"
    index_vault(vault)
    result = CliRunner().invoke(main, ["forget", "journal/nothere.md", "--vault", str(vault)])
    assert result.exit_code != 0
    assert "found nothing" in result.output and "--force" in result.output
    assert not load_forget_list(home).has_path("journal/nothere.md")
    # a file written there later is indexed as any other
    _write(vault, "journal/nothere.md", f"# Here\n\n{SENTENCE}.\n")
    index_vault(vault)
    assert "journal/nothere.md" in _paths(open_index(vault).search("walrus obsidian passphrase", k=5))
    result = CliRunner().invoke(main, ["forget", "journal/gone.md", "--force", "--vault", str(vault)])
    assert result.exit_code == 0, result.output
    assert load_forget_list(home).has_path("journal/gone.md")


def test_forget_list_and_unforget(vault_copy):
    vault = vault_copy
    _write(vault, "journal/diary.md", f"# Diary\n\n{SENTENCE}.\n")
    index_vault(vault)
    runner = CliRunner()
    assert runner.invoke(main, ["forget", "journal/diary.md", "--vault", str(vault)]).exit_code == 0
    listed = runner.invoke(main, ["forget", "--list", "--vault", str(vault)])
    assert listed.exit_code == 0, listed.output
    assert "journal/diary.md" in listed.output and "walrus" not in listed.output
    undone = runner.invoke(main, ["unforget", "journal/diary.md", "--vault", str(vault)])
    assert undone.exit_code == 0, undone.output
    index_vault(vault)
    assert "journal/diary.md" in _paths(open_index(vault).search("walrus obsidian passphrase", k=5))
    assert "journal/diary.md" not in runner.invoke(main, ["forget", "--list", "--vault", str(vault)]).output
    # a purged forget cannot be undone (its history is gone): said, non-zero
    assert (
        runner.invoke(
            main, ["forget", "journal/diary.md", "--purge-history", "--vault", str(vault)]
        ).exit_code
        == 0
    )
    refused = runner.invoke(main, ["unforget", "journal/diary.md", "--vault", str(vault)])
    assert refused.exit_code != 0 and "purge" in refused.output
    # a path never forgotten: said, non-zero
    assert runner.invoke(main, ["unforget", "journal/none.md", "--vault", str(vault)]).exit_code != 0


def test_the_forgotten_list_travels_with_the_vault(vault_copy, tmp_path):
    vault = vault_copy
    _write(vault, "journal/diary.md", f"# Diary\n\n{SENTENCE}.\n")
    index_vault(vault)
    assert CliRunner().invoke(main, ["forget", "journal/diary.md", "--vault", str(vault)]).exit_code == 0
    other = tmp_path / "elsewhere"
    index_vault(vault, index_dir=other)
    assert "journal/diary.md" not in _paths(open_index(vault, index_dir=other).search("walrus obsidian", k=5))
    travelling = [
        p for p in vault.rglob("*forgotten*") if ".memsearch/" not in p.as_posix()[len(str(vault)) :]
    ]
    assert travelling, "no forgotten list in the vault's own config area"
    for p in travelling:
        assert b"journal/diary.md" not in p.read_bytes()
    assert path_hash("journal/diary.md") in travelling[0].read_text()


@pytest.fixture(scope="module")
def indexed_secret(tmp_path_factory) -> Path:
    from conftest import FIXTURE_VAULT

    vault = tmp_path_factory.mktemp("purgecrash") / "vault"
    shutil.copytree(FIXTURE_VAULT, vault)
    _write(vault, "journal/old.md", f"# Old\n\n{SENTENCE}.\n")
    index_vault(vault)
    os.rename(vault / "journal/old.md", vault / "journal/new.md")
    index_vault(vault)
    return vault


def test_an_interrupted_purge_is_finished_by_the_next_run(indexed_secret, tmp_path):
    log_file = tmp_path / "points.log"
    probe = tmp_path / "probe"
    shutil.copytree(indexed_secret, probe)
    args = [*CLI, "forget", "journal/new.md", "--purge-history", "--vault"]
    done = subprocess.run(
        [*args, str(probe)], env=_env(MEMSEARCH_CRASH_LOG=str(log_file)), capture_output=True
    )
    assert done.returncode == 0, done.stderr
    points = [line.split()[1] for line in log_file.read_text().splitlines()]
    assert any(p.startswith("purge-") for p in points), points
    assert points.index("forget-list-unsaved") < points.index("forget-list-saved")  # a kill on each side
    for n in range(1, len(points) + 1):
        vault = tmp_path / f"v{n}"
        shutil.copytree(indexed_secret, vault)
        killed = subprocess.run([*args, str(vault)], env=_env(MEMSEARCH_CRASH_AT=str(n)), capture_output=True)
        assert killed.returncode == -9, (n, points[n - 1], killed.stderr)
        again = subprocess.run([*CLI, "index", str(vault)], env=_env(), capture_output=True, text=True)
        assert again.returncode == 0, (n, points[n - 1], again.stderr)
        if n < points.index("forget-list-saved") + 1:
            # killed before the forget was recorded: it did not happen (and nothing is half done)
            assert not load_forget_list(vault / ".memsearch").has_path("journal/new.md"), n
            assert "journal/new.md" in _paths(open_index(vault).search("walrus obsidian passphrase", k=5))
        else:
            for where, data in every_byte(vault / ".memsearch"):
                assert b"walrus obsidian" not in data, (n, points[n - 1], where)
            assert not (vault / ".memsearch" / "purge-pending.json").exists()
        shutil.rmtree(vault)


def test_update_file_forgets_what_a_reindex_forgets(vault_copy):
    """One preparation for both paths: a name forgotten by variant is dropped by update_file too."""
    vault = vault_copy
    _write(vault, "journal/q1.md", "# Depot\n\nMet Quillon Vask at the depot about the brake pads.\n")
    index_vault(vault)
    result = CliRunner().invoke(main, ["forget", "--entity", "Quillon Vask", "--vault", str(vault)])
    assert result.exit_code == 0, result.output
    _write(vault, "journal/q5.md", "# Roster\n\nThe roster lists Vask (Quillon) for Tuesday evenings.\n")
    with open_index(vault) as engine:
        engine.update_file("journal/q5.md")
        held = [c.text for c in engine.index.chunks.values() if c.path == "journal/q5.md"]
        engine.wait_for_embeddings()
    assert held == []
    index_vault(vault)
    assert not any(c.path == "journal/q5.md" for c in open_index(vault).index.chunks.values())


def test_unforget_entity_takes_back_one_name_and_leaves_a_spelling_another_shares(vault_copy):
    """`unforget --entity NAME` undoes `forget --entity NAME` (by hash: the forget list keeps no name);
    a spelling of another forgotten name stays forgotten, and a purged name needs --force."""
    vault = vault_copy
    _write(vault, "journal/q1.md", "# Depot\n\nMet Quillon Vask at the depot about the brake pads.\n")
    _write(vault, "journal/q2.md", "# Roster\n\nThe roster lists Orla Brennan for Tuesday evenings.\n")
    index_vault(vault)
    runner = CliRunner()

    def found(query: str) -> list[str]:
        index_vault(vault)
        return _paths(open_index(vault).search(query, k=5))

    for name in ("Quillon Vask", "Vask Quillon", "Orla Brennan"):  # two names share every spelling
        assert runner.invoke(main, ["forget", "--entity", name, "--vault", str(vault)]).exit_code == 0
    assert "journal/q1.md" not in found("brake pads at the depot")
    undone = runner.invoke(main, ["unforget", "--entity", "Orla Brennan", "--vault", str(vault)])
    assert undone.exit_code == 0, undone.output
    assert "journal/q2.md" in found("roster Tuesday evenings")
    # "Quillon Vask" taken back, "Vask Quillon" still forgotten: its spellings still drop the chunk.
    assert runner.invoke(main, ["unforget", "--entity", "Quillon Vask", "--vault", str(vault)]).exit_code == 0
    assert "journal/q1.md" not in found("brake pads at the depot")
    assert runner.invoke(main, ["unforget", "--entity", "Vask Quillon", "--vault", str(vault)]).exit_code == 0
    assert "journal/q1.md" in found("brake pads at the depot")
    # a name never forgotten: said, non-zero; a purged one needs --force
    never = runner.invoke(main, ["unforget", "--entity", "Nobody Here", "--vault", str(vault)])
    assert never.exit_code == 1 and "not a forgotten name" in never.output
    purge = ["forget", "--entity", "Orla Brennan", "--purge-history", "--vault", str(vault)]
    assert runner.invoke(main, purge).exit_code == 0
    refused = runner.invoke(main, ["unforget", "--entity", "Orla Brennan", "--vault", str(vault)])
    assert refused.exit_code == 1 and "purge" in refused.output
    forced = ["unforget", "--entity", "Orla Brennan", "--force", "--vault", str(vault)]
    assert runner.invoke(main, forced).exit_code == 0
    assert "journal/q2.md" in found("roster Tuesday evenings")
