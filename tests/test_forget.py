"""memsearch forget: files and entities leave every index, the caches and (with a purge) the history."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
from click.testing import CliRunner
from index_bytes import every_byte, git_objects

from memsearch.api import index_vault, log, open_index
from memsearch.cli import main
from memsearch.forget import forget, unforget
from memsearch.index import loading, snapshots

SECRET = "secret/diary.md"
SENTENCE = "The zebra quartz vault code is violet umbrella forty two"
OLD_SENTENCE = "Yesterday the zebra quartz lantern hummed beside the orchard gate"


def _write(vault: Path, rel: str, text: str) -> None:
    path = vault / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _paths(response) -> set[str]:
    return {r.path for r in response.results}


def _secret_vectors(home: Path) -> list[bytes]:
    data = loading.load(home)
    ids = data.manifest["files"][SECRET]["chunks"]
    return [np.asarray(data.vectors.by_id[cid], dtype=np.float32).tobytes() for cid in ids]


def test_forget_with_purge_leaves_no_byte_of_the_memory(vault_copy):
    vault = vault_copy
    home = vault / ".memsearch"
    _write(vault, SECRET, f"# Diary\n\n{OLD_SENTENCE}.\n")
    index_vault(vault)
    old_vectors = _secret_vectors(home)
    _write(vault, SECRET, f"# Diary\n\n{SENTENCE}.\n\n## Later\n\nThe orchard gate was painted.\n")
    index_vault(vault)
    vectors = _secret_vectors(home) + old_vectors
    _write(vault, "journal/extra.md", "# Extra\n\nA note about the garden and the weather.\n")
    index_vault(vault)
    (vault / "journal/extra.md").write_text("# Extra\n\nThe garden again, now with rain.\n")
    index_vault(vault)
    assert SECRET in _paths(open_index(vault).search("zebra quartz vault code", k=5))
    assert any(SENTENCE.encode() in data for _, data in every_byte(home))
    n_commits = len(log(vault))

    result = CliRunner().invoke(main, ["forget", SECRET, "--vault", str(vault), "--purge-history"])
    assert result.exit_code == 0, result.output
    assert "history purged" in result.output

    for where, data in every_byte(home):
        for sentence in (SENTENCE, OLD_SENTENCE, "zebra quartz"):
            assert sentence.encode() not in data, f"{sentence!r} found in {where}"
        for vec in vectors:
            assert vec not in data, f"a vector of the forgotten file found in {where}"
            assert vec[:64] not in data, f"a vector's first 16 floats found in {where}"
        assert SECRET.encode() not in data or where.endswith("manifest.json") or "files/" in where, where

    # never returned, now or at any older (rewritten) commit; the history keeps its length
    commits = log(vault)
    assert len(commits) == n_commits + 1
    assert "history purged" in commits[0]["subject"]
    for i in range(len(commits)):
        engine = open_index(vault, at=f"HEAD~{i}")
        assert SECRET not in _paths(engine.search("zebra quartz vault code orchard gate", k=20))
        assert not any(c.path == SECRET for c in engine.index.chunks.values())
    # the rest of the vault is still served at an old commit
    assert open_index(vault, at="HEAD~1").search("Redflag signing keys", k=5).results

    # the vault still has it: the next index runs skip it, with a reason
    report = index_vault(vault)
    assert SECRET in {s.path for s in report.skipped}
    assert "forgotten" in dict((s.path, s.reason) for s in report.skipped)[SECRET]
    assert SECRET not in _paths(open_index(vault).search("zebra quartz vault code", k=5))
    # the forget list holds a hash of the path, never the path
    assert SECRET.encode() not in (home / "forgotten.json").read_bytes()
    fsck = subprocess.run(["git", "-C", str(home / "repo"), "fsck", "--strict"], capture_output=True)
    assert fsck.returncode == 0, fsck.stderr


def test_forget_without_purge_is_one_commit_and_drops_the_cache_rows(vault_copy):
    vault = vault_copy
    home = vault / ".memsearch"
    _write(vault, SECRET, f"# Diary\n\n{SENTENCE}.\n")
    index_vault(vault)
    vectors = _secret_vectors(home)
    before = len(log(vault))
    report = forget(vault, [vault / SECRET])
    assert report.files == [SECRET] and report.chunks >= 1 and report.cache_rows >= 1
    commits = log(vault)
    assert len(commits) == before + 1 and SECRET in commits[0]["subject"]
    # gone from the current index (keyword, vectors, graph, time) and from the cache
    engine = open_index(vault)
    assert SECRET not in _paths(engine.search("zebra quartz vault code", k=10))
    assert not any(c.path == SECRET for c in engine.index.chunks.values())
    cache = (home / "cache" / "embeddings.sqlite").read_bytes()
    assert not any(v in cache for v in vectors)
    assert not list(snapshots.snapshots_dir(home).glob("*/chunks.jsonl")) or all(
        SENTENCE.encode() not in p.read_bytes() for p in snapshots.snapshots_dir(home).glob("*/chunks.jsonl")
    )
    # the older commit still holds it (that is what --purge-history is for)
    assert SECRET in _paths(open_index(vault, at="HEAD~1").search("zebra quartz vault code", k=10))
    # a change of the forgotten file in the vault does not bring it back
    _write(vault, SECRET, f"# Diary\n\n{SENTENCE}, and more.\n")
    index_vault(vault)
    assert SECRET not in _paths(open_index(vault).search("zebra quartz vault code", k=10))


def _naming(engine, canonical: str) -> list:
    graph = engine.index.graph
    return [c for c in engine.index.chunks.values() if any(graph.resolve(e) == canonical for e in c.entities)]


def test_forget_an_entity_through_its_alias(vault_copy):
    vault = vault_copy
    index_vault(vault)
    engine = open_index(vault)
    canonical = engine.index.graph.resolve("Redflag")
    assert engine.index.graph.resolve("RF") == canonical
    naming = _naming(engine, canonical)
    assert naming and len(naming) < len(engine.index.chunks)
    result = CliRunner().invoke(main, ["forget", "--entity", "RF", "--vault", str(vault)])
    assert result.exit_code == 0, result.output
    engine = open_index(vault)
    assert not _naming(engine, canonical)
    assert len(engine.index.chunks) == len(open_index(vault, at="HEAD~1").index.chunks) - len(naming)
    assert "'RF'" in log(vault)[0]["subject"]
    assert not engine.index.graph.known(canonical) or not len(engine.index.graph.chunk_ids(canonical))
    # a new file that names it again does not bring such chunks back, through the alias either
    _write(vault, "journal/rf.md", "# Lunch\n\nLunch about [[Redflag]] and the signing keys.\n")
    _write(vault, "journal/rf2.md", "# Tea\n\nTea about [[red flag]] and the tokens.\n")
    index_vault(vault)
    engine = open_index(vault)
    assert not _naming(engine, canonical)


def test_a_live_engine_forgets_and_never_previews_a_forgotten_file(vault_copy):
    vault = vault_copy
    _write(vault, SECRET, f"# Diary\n\n{SENTENCE}.\n")
    index_vault(vault)
    engine = open_index(vault)
    assert SECRET in _paths(engine.search("zebra quartz vault code", k=5))
    report = engine.forget([SECRET])
    assert report.files == [SECRET]
    assert SECRET not in _paths(engine.search("zebra quartz vault code", k=5))
    _write(vault, SECRET, f"# Diary\n\n{SENTENCE}, again.\n")
    update = engine.update_file(vault / SECRET)
    assert update.action in ("skipped", "removed") and "forgotten" in (update.reason or "")
    assert SECRET not in _paths(engine.search("zebra quartz vault code", k=5))
    assert engine.wait_for_embeddings(60)
    engine.close()
    assert SECRET not in _paths(open_index(vault).search("zebra quartz vault code", k=5))


def test_forget_an_entity_with_purge_rewrites_every_commit(vault_copy):
    vault = vault_copy
    index_vault(vault)
    for version in ("", ", v2"):
        text = f"# X\n\nA plum-coloured ledger about [[Redflag]]{version}.\n\n## Y\n\nElse.\n"
        _write(vault, "journal/x.md", text)
        index_vault(vault)
    report = forget(vault, entity="RF", purge_history=True)
    assert report.purged and report.chunks > 0 and report.rewritten >= len(log(vault)) - 1
    assert b"plum-coloured" not in git_objects(vault / ".memsearch" / "repo")
    for i in range(len(log(vault))):
        engine = open_index(vault, at=f"HEAD~{i}")
        assert engine.index.chunks and not _naming(engine, engine.index.graph.resolve("Redflag"))


def test_a_path_outside_the_vault_is_refused_and_nothing_changes(vault_copy, tmp_path):
    # `forget /etc/passwd` exited 0: it wrote a hash of the path to the forget list and dropped the
    # cached snapshots, for a file no index could ever hold; `--force` changes nothing of that.
    index_vault(vault_copy)
    outside = tmp_path / "outside.md"
    outside.write_text("# Not a memory\n")
    forgotten = vault_copy / ".memsearch-forgotten.json"
    before = forgotten.read_bytes() if forgotten.exists() else None
    head = log(vault_copy)[0]["commit"]
    for args in ([str(outside)], ["../../etc/passwd"], ["/etc/passwd", "--force"]):
        result = CliRunner().invoke(main, ["forget", *args, "--vault", str(vault_copy)])
        assert result.exit_code != 0, (args, result.output)
        assert "is outside the vault" in result.output and "Nothing was changed" in result.output
        assert "Traceback" not in result.output
    assert (forgotten.read_bytes() if forgotten.exists() else None) == before
    assert log(vault_copy)[0]["commit"] == head


def test_a_path_through_a_folder_and_back_is_inside_the_vault(vault_copy):
    index_vault(vault_copy)
    report = forget(vault_copy, ["journal/../reference/redflag.md"])
    assert "reference/redflag.md" in report.files


def test_a_name_no_chunk_names_is_refused_unless_forced(vault_copy):
    # `forget --entity Redflga` (a typo) exited 0 with "forgot 0 chunk(s)": the user believed the
    # name forgotten while every chunk naming Redflag stayed, and snapshots were dropped for nothing.
    index_vault(vault_copy)
    forgotten = vault_copy / ".memsearch-forgotten.json"
    before = forgotten.read_bytes() if forgotten.exists() else None
    head = log(vault_copy)[0]["commit"]
    result = CliRunner().invoke(main, ["forget", "--entity", "Redflga", "--vault", str(vault_copy)])
    assert result.exit_code == 1, result.output
    assert "'Redflga'" in result.output and "--force" in result.output
    assert "Nothing was changed" in result.output and "Traceback" not in result.output
    assert (forgotten.read_bytes() if forgotten.exists() else None) == before
    assert log(vault_copy)[0]["commit"] == head
    # forced, the name is kept from ever being indexed: a note naming it later stays out
    result = CliRunner().invoke(
        main, ["forget", "--entity", "Quillon Vask", "--force", "--vault", str(vault_copy)]
    )
    assert result.exit_code == 0, result.output
    _write(vault_copy, "journal/qv.md", "# Tea\n\nTea with Quillon Vask about the orchard.\n")
    index_vault(vault_copy)
    assert "journal/qv.md" not in _paths(open_index(vault_copy).search("tea with Quillon Vask", k=5))
    # a name forgotten already may be forgotten again (to purge its history, say)
    assert forget(vault_copy, entity="Quillon Vask", purge_history=True).purged


def test_a_forgotten_folder_keeps_out_what_is_written_there_later(vault_copy):
    # `forget journal/` forgot the files there then, but a note written there later was indexed
    # and found, as was one in a folder forgotten before it existed (`forget secrets/ --force`).
    index_vault(vault_copy, embed=False)
    assert forget(vault_copy, ["journal/"]).files
    assert forget(vault_copy, ["secrets/"], force=True).not_found == ["secrets"]
    _write(vault_copy, "journal/2026-01-01.md", "# New day\n\nThe kumquat password is here.\n")
    _write(vault_copy, "secrets/deep/a.md", "# S\n\nAnother kumquat password.\n")
    report = index_vault(vault_copy, embed=False)
    assert {"journal/2026-01-01.md", "secrets/deep/a.md"} <= {s.path for s in report.skipped}
    assert not open_index(vault_copy).search("kumquat password", k=5, strategies=["keyword"]).results
    listed = CliRunner().invoke(main, ["forget", "--list", "--vault", str(vault_copy)]).output
    assert "journal/  [in the vault" in listed and "secrets/  [in the vault" in listed, listed
    # unforgotten as a folder, what is there comes back
    assert unforget(vault_copy, ["journal/"]) == ["journal"] and unforget(vault_copy, ["secrets"])
    index_vault(vault_copy, embed=False)
    found = _paths(open_index(vault_copy).search("kumquat password", k=5, strategies=["keyword"]))
    assert found == {"journal/2026-01-01.md", "secrets/deep/a.md"}
    result = CliRunner().invoke(main, ["forget", ".", "--force", "--vault", str(vault_copy)])
    assert result.exit_code == 1 and "names the whole vault" in result.output


def test_a_forget_list_that_cannot_be_read_stops_the_index_instead_of_bringing_the_forgotten_back(vault_copy):
    # The vault's forget list is versioned with the vault: a merge conflict in it was read as an
    # empty list, and a fresh clone's index run brought the forgotten file back, exit 0.
    index_vault(vault_copy, embed=False)
    gone = "reference/redflag.md"
    forget(vault_copy, [gone])
    listed = vault_copy / ".memsearch-forgotten.json"
    listed.write_text("<<<<<<< HEAD\n" + listed.read_text())
    import shutil

    shutil.rmtree(vault_copy / ".memsearch")
    result = CliRunner().invoke(main, ["index", str(vault_copy), "--no-embed"])
    assert result.exit_code == 1 and str(listed) in result.output and "cannot be read" in result.output
    assert "Traceback" not in result.output
    assert listed.read_text().startswith("<<<<<<< HEAD\n")  # nothing wrote over what it holds
    listed.write_text(listed.read_text().removeprefix("<<<<<<< HEAD\n"))
    index_vault(vault_copy, embed=False)
    found = open_index(vault_copy).search("sign_ed25519", k=5, strategies=["keyword"])
    assert found.results and gone not in _paths(found)


def test_a_forget_killed_after_its_commit_is_finished_by_the_next_run(vault_copy):
    # A plain forget killed after its commit left the forgotten file's vectors in the embedding
    # cache for good: only a purge was recorded as owed, and no later run knew which rows were its.
    import os
    import subprocess
    import sys

    from memsearch.index.embedding_cache import EmbeddingCache
    from memsearch.index.format import shard_file
    from memsearch.paths import IndexLayout

    vault = vault_copy
    home = vault / ".memsearch"
    _write(vault, SECRET, f"# Diary\n\n{SENTENCE}.\n")
    index_vault(vault)
    manifest = loading.load(home).manifest
    fingerprint = manifest["embedder"]["fingerprint"]
    shard = (home / "repo" / shard_file(manifest["files"][SECRET]["shard"])).read_text()
    keys = [json.loads(line)["embed_sha256"] for line in shard.splitlines() if line.strip()]

    def cached() -> int:
        with EmbeddingCache(IndexLayout(home).embedding_cache) as cache:
            return len(cache.get_many(fingerprint, keys))

    env = {**os.environ, "MEMSEARCH_CRASH_AT": "after-commit"}
    killed = subprocess.run(
        [sys.executable, "-m", "memsearch.cli", "forget", SECRET, "--vault", str(vault)],
        env=env,
        capture_output=True,
        timeout=300,
    )
    assert killed.returncode == -9, killed
    assert cached() == len(keys) > 0  # the kill came before the cache was cleared
    report = index_vault(vault)
    assert any("finished an interrupted `memsearch forget`" in note for note in report.notes), report.notes
    assert cached() == 0
    assert SECRET not in _paths(open_index(vault).search("zebra quartz vault code", k=10))


def test_a_forgotten_file_renamed_or_copied_stays_forgotten(vault_copy):
    # Forgotten (and purged), then renamed in the vault, the file was indexed under its new name
    # and found: the forget list knew its path only.
    index_vault(vault_copy, embed=False)
    _write(vault_copy, "reference/copy.md", (vault_copy / "reference/redflag.md").read_text())
    _write(vault_copy, "journal/empty-a.md", "")
    _write(vault_copy, "journal/empty-b.md", "")
    index_vault(vault_copy, embed=False)
    report = forget(vault_copy, ["reference/redflag.md", "journal/empty-a.md"], purge_history=True)
    assert report.files == ["journal/empty-a.md", "reference/copy.md", "reference/redflag.md"]
    assert any("also forgot reference/copy.md: the same text" in w for w in report.warnings)
    (vault_copy / "reference/redflag.md").rename(vault_copy / "reference/rf.md")
    report = index_vault(vault_copy, embed=False)
    reasons = {s.path: s.reason for s in report.skipped}
    for name in ("reference/rf.md", "reference/copy.md"):  # the copy made before the forget too
        assert "it holds the text of a forgotten file" in reasons[name], reasons
    engine = open_index(vault_copy)
    assert not {"reference/rf.md", "reference/copy.md"} & _paths(engine.search("sign_ed25519", k=10))
    assert "journal/empty-b.md" in engine.index.manifest["files"]  # an empty note's twin is no copy
    # changed, it is a memory of its own again
    _write(vault_copy, "reference/rf.md", "# Redflag\n\nRewritten: sign_ed25519() is gone.\n")
    index_vault(vault_copy, embed=False)
    assert "reference/rf.md" in _paths(open_index(vault_copy).search("sign_ed25519", k=10))
    # the copy is taken back by its own name (it was refused as "not forgotten")
    assert unforget(vault_copy, ["reference/copy.md"], force=True) == ["reference/copy.md"]
    index_vault(vault_copy, embed=False)
    assert "reference/copy.md" in _paths(open_index(vault_copy).search("sign_ed25519", k=10))


def test_a_forgotten_file_edited_since_its_last_index_stays_forgotten_renamed(vault_copy):
    # Only the indexed text's hash was kept: edited, forgotten, then renamed, it came back.
    index_vault(vault_copy, embed=False)
    _write(vault_copy, "reference/redflag.md", "# Redflag\n\nEdited: the walrus signs with sign_ed25519().\n")
    forget(vault_copy, ["reference/redflag.md"])
    (vault_copy / "reference/redflag.md").rename(vault_copy / "reference/rf.md")
    index_vault(vault_copy, embed=False)
    assert "reference/rf.md" not in _paths(open_index(vault_copy).search("walrus sign_ed25519", k=10))


def test_unforget_of_a_folder_takes_back_that_forget_only(vault_copy):
    # `forget journal/b.md`, `forget journal/`, `unforget journal/` brought b.md back; and
    # `unforget journal/a.md` under the forgotten folder said it was unforgotten while it stayed out.
    index_vault(vault_copy, embed=False)
    journal = sorted(p.relative_to(vault_copy).as_posix() for p in (vault_copy / "journal").glob("*.md"))
    alone, other = journal[0], journal[1]
    forget(vault_copy, [alone])
    forget(vault_copy, ["journal/"])
    result = CliRunner().invoke(main, ["unforget", other, "--vault", str(vault_copy)])
    assert result.exit_code == 1 and "is in the forgotten folder journal/" in result.output, result.output
    assert unforget(vault_copy, ["journal/"]) == ["journal"]
    index_vault(vault_copy, embed=False)
    indexed = open_index(vault_copy).index.manifest["files"]
    assert other in indexed and alone not in indexed


def test_a_name_with_paths_beside_it_is_still_refused_when_no_chunk_names_it(vault_copy):
    index_vault(vault_copy, embed=False)
    args = ["forget", "reference/redflag.md", "--entity", "Zzzyx", "--vault", str(vault_copy)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1 and "found nothing naming 'Zzzyx'" in result.output, result.output
    result = CliRunner().invoke(main, ["forget", str(vault_copy), "--force", "--vault", str(vault_copy)])
    assert result.exit_code == 1 and "names the whole vault" in result.output, result.output


def test_rollback_and_unforget_without_an_index_change_nothing(vault_copy):
    # Both made VAULT/.memsearch (and its lock) before failing; unforget said "nothing was changed".
    for args in (
        ["rollback", "HEAD", "--vault", str(vault_copy)],
        ["unforget", "a.md", "--vault", str(vault_copy)],
    ):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 1, (args, result.output)
        assert not (vault_copy / ".memsearch").exists(), args


def test_forget_words_a_copys_skip_reason_as_the_next_index_run_does(tmp_path):
    # forget wrote the plain reason for a copy of the forgotten text, the next index run its own
    # ("... (it holds the text of a forgotten file)"): status changed with nothing changed.
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "a.md").write_text("# A\n\nalpha secret text\n")
    (vault / "b.md").write_text("# A\n\nalpha secret text\n")
    index_vault(vault, embed=False)
    forget(vault, ["a.md"])
    after_forget = loading.read_manifest(vault / ".memsearch")["skipped"]
    index_vault(vault, embed=False)
    assert loading.read_manifest(vault / ".memsearch")["skipped"] == after_forget
    assert after_forget["b.md"].endswith("(it holds the text of a forgotten file)")
