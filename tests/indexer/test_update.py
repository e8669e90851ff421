"""Incremental updates: only what changed is indexed again, and the result equals a clean build."""

from __future__ import annotations

import dataclasses
import os
import shutil
import threading
import time

from memsearch.api import index_vault, log, open_index, reindex
from memsearch.config import Settings
from memsearch.index import loading, snapshots
from memsearch.index import vectors as vectors_module
from memsearch.lock import index_lock
from memsearch.tool import MemoryTools
from tests.versioning_helpers import NOW, results, write


def _manifest(vault):
    return loading.read_manifest(vault / ".memsearch")


def _strip(rs):
    """Results without the rank-relative score shape that differs only by tie order."""
    return [[(r["path"], r["start_line"], r["end_line"], round(r["score"], 6)) for r in q] for q in rs]


def test_unchanged_files_keep_their_ids_changed_files_get_fresh_ones(vault_copy):
    index_vault(vault_copy, embed=False)
    before = _manifest(vault_copy)
    path = vault_copy / "reference" / "redflag.md"
    path.write_text(path.read_text() + "\n## Later\n\nA new section about sign_ed25519 audits.\n")
    (vault_copy / "inbox.md").unlink()
    report = index_vault(vault_copy, embed=False)
    after = _manifest(vault_copy)
    assert report.changed == ("reference/redflag.md",) and report.removed == ("inbox.md",)
    for rel, entry in before["files"].items():
        if rel not in ("reference/redflag.md", "inbox.md"):
            assert after["files"][rel]["chunks"] == entry["chunks"]
    fresh = after["files"]["reference/redflag.md"]["chunks"]
    assert min(fresh) >= before["next_id"] and after["next_id"] == max(fresh) + 1
    # Ids are never reused: the removed file comes back under new ids.
    write(vault_copy, "inbox.md", "# Inbox\n\nBack again.\n")
    index_vault(vault_copy, embed=False)
    again = _manifest(vault_copy)["files"]["inbox.md"]["chunks"]
    assert min(again) >= after["next_id"]


def test_an_incremental_index_equals_a_clean_build(vault_copy, tmp_path):
    index_vault(vault_copy)
    write(vault_copy, "journal/2025-03-20.md", "# 2025-03-20\n\nSaw a zebracorn at the zoo with Ed.\n")
    index_vault(vault_copy)
    path = vault_copy / "reference" / "people" / "ed-kowalski.md"
    # A change of aliases: every file's entities resolve again.
    path.write_text(path.read_text().replace("aliases: [Ed, EK]", "aliases: [Ed, EK, Eddie]"))
    (vault_copy / "reference" / "ed25519.md").rename(vault_copy / "reference" / "curve.md")
    (vault_copy / "archive" / "2024.md").unlink()
    index_vault(vault_copy)
    write(
        vault_copy, "journal/2025-03-21.md", "# 2025-03-21\n\nEddie signed the release with sign_ed25519().\n"
    )
    index_vault(vault_copy)
    clean_vault = tmp_path / "clean"
    shutil.copytree(vault_copy, clean_vault, ignore=shutil.ignore_patterns(".memsearch"))
    index_vault(clean_vault)
    assert _strip(results(vault_copy)) == _strip(results(clean_vault))
    engine, clean = open_index(vault_copy), open_index(clean_vault)
    for q in ("Eddie", "who is Ed", "zebracorn"):
        for strategy in ("keyword", "graph", "time", "semantic"):
            a = engine.search(q, k=8, now=NOW, chunks=True, strategies=[strategy]).results
            b = clean.search(q, k=8, now=NOW, chunks=True, strategies=[strategy]).results
            assert _strip([[r.to_dict() for r in a]]) == _strip([[r.to_dict() for r in b]]), (q, strategy)


def test_a_rename_costs_no_embedding(vault_copy):
    index_vault(vault_copy)
    (vault_copy / "reference" / "redflag.md").rename(vault_copy / "reference" / "redflag-2.md")
    report = index_vault(vault_copy)
    assert report.embedded == 0 and report.added == ("reference/redflag-2.md",)
    assert report.removed == ("reference/redflag.md",)


def test_a_fallback_timestamp_that_moves_restamps_the_file(vault_copy):
    write(vault_copy, "notes/undated.md", "# Undated\n\nNo date anywhere in here.\n")
    index_vault(vault_copy, embed=False)
    entry = _manifest(vault_copy)["files"]["notes/undated.md"]
    assert entry["stamp"][0] == "mtime"
    later = time.time() + 86_400
    os.utime(vault_copy / "notes" / "undated.md", (later, later))
    report = index_vault(vault_copy, embed=False)
    assert report.changed == ("notes/undated.md",)
    moved = _manifest(vault_copy)["files"]["notes/undated.md"]
    assert moved["chunks"] == entry["chunks"] and moved["stamp"] != entry["stamp"]
    chunk = open_index(vault_copy).index.chunks[entry["chunks"][0]]
    assert abs(chunk.timestamp.timestamp() - later) < 2


def test_paths_limit_an_update_to_those_files(vault_copy):
    index_vault(vault_copy, embed=False)
    write(vault_copy, "journal/2025-03-20.md", "# 2025-03-20\n\nzebracorn\n")
    write(vault_copy, "journal/2025-03-21.md", "# 2025-03-21\n\nunicorn\n")
    report = index_vault(vault_copy, embed=False, paths=["journal/2025-03-20.md"])
    assert report.added == ("journal/2025-03-20.md",)
    assert "journal/2025-03-21.md" not in _manifest(vault_copy)["files"]
    (vault_copy / "journal" / "2025-03-20.md").unlink()
    report = index_vault(vault_copy, embed=False, paths=[vault_copy / "journal" / "2025-03-20.md"])
    assert report.removed == ("journal/2025-03-20.md",)


def test_paths_after_the_settings_changed_rebuild_the_whole_vault(vault_copy):
    # A watcher's batch of one file, after memsearch.toml changed: the run rebuilds from scratch
    # (the settings fingerprint moved), and limited to that file it dropped every other one.
    index_vault(vault_copy, embed=False)
    files = set(_manifest(vault_copy)["files"])
    (vault_copy / "memsearch.toml").write_text('[[territory]]\nprefix = "people/"\nweight = 1.5\n')
    write(vault_copy, "journal/2025-03-20.md", "# 2025-03-20\n\nzebracorn\n")
    index_vault(vault_copy, embed=False, paths=["journal/2025-03-20.md"])
    assert set(_manifest(vault_copy)["files"]) == files | {"journal/2025-03-20.md"}


# -- update_file --------------------------------------------------------------------------------------


def test_update_file_is_searchable_at_once_and_semantic_after_its_embedding(vault_copy):
    index_vault(vault_copy)
    commits = len(log(vault_copy))
    engine = open_index(vault_copy)
    write(
        vault_copy,
        "journal/2025-03-25.md",
        "---\ndate: 2025-03-25\n---\n# Zoo day\n\nSaw a zebracorn at the zoo with [[Mara Lin]].\n",
    )
    started = time.perf_counter()
    update = engine.update_file("journal/2025-03-25.md")
    assert (time.perf_counter() - started) < 0.2 and update.action == "added" and update.chunks >= 1
    # keyword, graph and time see it the moment update_file returns
    kw = engine.search("zebracorn", k=3, strategies=["keyword"], chunks=True).results
    assert kw and kw[0].path == "journal/2025-03-25.md"
    graph = engine.search("Mara Lin", k=20, strategies=["graph"], chunks=True).results
    assert "journal/2025-03-25.md" in {r.path for r in graph}
    window = engine.search("on March 25, 2025", k=5, strategies=["time"], now=NOW, chunks=True).results
    assert window and window[0].path == "journal/2025-03-25.md"
    assert engine.wait_for_embeddings(60) and engine.last_error is None
    # (no word of it is in the vault: shown as asked, whatever the signal says)
    sem = engine.search("a striped horse with a horn", k=3, strategies=["semantic"], all_results=True).results
    assert sem[0].path == "journal/2025-03-25.md"
    subjects = [c["subject"] for c in log(vault_copy)]
    assert len(subjects) == commits + 2
    assert subjects[1] == "index +journal/2025-03-25.md" and subjects[0].startswith("vectors:")
    # What the engine serves is what was committed, and what a fresh load serves.
    assert engine.commit == log(vault_copy)[0]["commit"]
    assert results(vault_copy, engine=engine) == results(vault_copy)
    engine.close()


def test_update_file_of_a_deleted_file_removes_it(vault_copy):
    index_vault(vault_copy, embed=False)
    engine = open_index(vault_copy)
    (vault_copy / "reference" / "redflag.md").unlink()
    update = engine.update_file(vault_copy / "reference" / "redflag.md")
    assert update.action == "removed"
    hits = engine.search("sign_ed25519", k=5, strategies=["keyword"]).results
    assert "reference/redflag.md" not in {r.path for r in hits}
    assert engine.wait_for_embeddings(60)
    assert "reference/redflag.md" not in _manifest(vault_copy)["files"]
    assert engine.update_file("reference/ed25519.md").action == "unchanged"
    engine.close()


def test_update_file_never_waits_for_another_writer(vault_copy):
    index_vault(vault_copy, embed=False)
    engine = open_index(vault_copy)
    home = vault_copy / ".memsearch"
    held = threading.Event()
    release = threading.Event()

    def writer():
        with index_lock(home, what="a long reindex"):
            held.set()
            release.wait(10)

    thread = threading.Thread(target=writer)
    thread.start()
    held.wait(5)
    write(vault_copy, "journal/2025-03-26.md", "# 2025-03-26\n\nThe quokka escaped.\n")
    started = time.perf_counter()
    engine.update_file("journal/2025-03-26.md")
    assert time.perf_counter() - started < 0.2
    assert engine.search("quokka", k=1, strategies=["keyword"]).results[0].path == "journal/2025-03-26.md"
    assert not engine.wait_for_embeddings(0.5)  # the commit waits for the lock
    release.set()
    thread.join()
    assert engine.wait_for_embeddings(60)
    assert "journal/2025-03-26.md" in _manifest(vault_copy)["files"]
    engine.close()


def test_update_file_after_another_writer_committed(vault_copy):
    index_vault(vault_copy, embed=False)
    engine = open_index(vault_copy)
    write(vault_copy, "journal/2025-03-27.md", "# 2025-03-27\n\nA wombat.\n")
    index_vault(vault_copy, embed=False)  # another writer: the engine's commit is now behind
    write(vault_copy, "journal/2025-03-28.md", "# 2025-03-28\n\nA numbat.\n")
    engine.update_file("journal/2025-03-28.md")
    assert engine.wait_for_embeddings(60) and engine.last_error is None
    manifest = _manifest(vault_copy)
    assert {"journal/2025-03-27.md", "journal/2025-03-28.md"} <= set(manifest["files"])
    ids = [c for e in manifest["files"].values() for c in e["chunks"]]
    assert len(ids) == len(set(ids))
    assert engine.search("wombat", k=1, strategies=["keyword"]).results[0].path == "journal/2025-03-27.md"
    assert results(vault_copy, engine=engine) == results(vault_copy)
    engine.close()


def test_the_tool_sees_a_commit_made_elsewhere(vault_copy):
    index_vault(vault_copy, embed=False)
    tools = MemoryTools(vault_copy)
    assert tools.memory_search("capybara")["status"] == "no_results"
    write(vault_copy, "journal/2025-03-29.md", "# 2025-03-29\n\nA capybara.\n")
    index_vault(vault_copy, embed=False)
    assert tools.memory_search("capybara")["results"][0]["path"] == "journal/2025-03-29.md"


def test_update_file_with_new_aliases_resolves_every_file_again(vault_copy):
    index_vault(vault_copy, embed=False)
    engine = open_index(vault_copy)
    assert not engine.search("Eddie", k=5, strategies=["graph"]).results
    path = vault_copy / "reference" / "people" / "ed-kowalski.md"
    path.write_text(path.read_text().replace("aliases: [Ed, EK]", "aliases: [Ed, EK, Eddie]"))
    engine.update_file(path)
    hits = {r.path for r in engine.search("Eddie", k=10, strategies=["graph"]).results}
    assert "reference/redflag.md" in hits  # names Ed Kowalski, now also known as Eddie
    assert engine.wait_for_embeddings(60)
    assert results(vault_copy, engine=engine) == results(vault_copy)
    engine.close()


def test_ties_break_the_same_after_file_by_file_updates_and_a_rebuild(tmp_path):
    """Twelve notes that name Zed alike tie in every list; which five make the top must not depend
    on the order the files were indexed in (chunk ids do)."""
    vault = tmp_path / "vault"
    names = [f"reference/note-{i:02d}.md" for i in range(12)]
    for rel in reversed(names):  # one file an index run, the last name first: ids in reverse
        write(vault, rel, "# Note\n\nMet Zed at the depot.\n")
        index_vault(vault, embed=False)
    clean = tmp_path / "clean"
    shutil.copytree(vault, clean, ignore=shutil.ignore_patterns(".memsearch"))
    index_vault(clean, embed=False)
    a, b = open_index(vault), open_index(clean)
    for strategies in (["graph"], ["keyword"], ["keyword", "graph", "time"]):
        got = [r.path for r in a.search("Zed depot", k=5, now=NOW, strategies=strategies).results]
        want = [r.path for r in b.search("Zed depot", k=5, now=NOW, strategies=strategies).results]
        assert got == want == names[:5], strategies


def test_equal_cosines_break_the_same_after_file_by_file_updates_and_a_rebuild(tmp_path):
    """Notes of the same text have the same vector: which five of twelve make the semantic top five
    follows their places in the vault, not the order they were indexed in."""
    vault = tmp_path / "vault"
    names = [f"reference/copy-{i:02d}.md" for i in range(12)]
    for rel in reversed(names):  # the last name is indexed first: chunk ids in reverse
        write(vault, rel, "# Copy\n\nThe spare key is under the blue flowerpot.\n")
        index_vault(vault)
    clean = tmp_path / "clean"
    shutil.copytree(vault, clean, ignore=shutil.ignore_patterns(".memsearch"))
    index_vault(clean)
    # Each list holds five: the cut runs through the twelve equal cosines.
    narrow = dataclasses.replace(Settings(), top_n=5)
    a, b = open_index(vault, settings=narrow), open_index(clean, settings=narrow)
    question = "where is the spare key hidden"
    got = [r.path for r in a.search(question, k=5, now=NOW, strategies=["semantic"]).results]
    want = [r.path for r in b.search(question, k=5, now=NOW, strategies=["semantic"]).results]
    assert got == want == names[:5]


def test_reindex_rebuilds_a_patched_graph_and_answers_as_a_clean_build(tmp_path, monkeypatch):
    """Above the exact-search size, index runs patch the vector graph they loaded; the reindex job
    rebuilds it from scratch, once, and the vault is then answered as a clean build answers it."""
    monkeypatch.setattr(vectors_module, "EXACT_MAX_ROWS", 0)  # a graph at this size
    monkeypatch.setattr(vectors_module, "HNSW_M", 4)
    monkeypatch.setattr(vectors_module, "HNSW_EF_CONSTRUCTION", 8)
    vault = tmp_path / "vault"
    topics = ("the boiler", "cello lessons", "tomato seedlings", "the budget review", "apple cake")
    for i in range(40):
        write(
            vault,
            f"journal/2025-01-{i % 28 + 1:02d}-{i}.md",
            f"# Day {i}\n\nNotes on {topics[i % 5]}, part {i}.\n",
        )
    index_vault(vault)
    for i in range(0, 40, 3):  # edits, a rename and a deletion: the loaded graph is patched
        write(vault, f"journal/2025-02-{i % 28 + 1:02d}-{i}.md", f"# Later {i}\n\nMore on {topics[i % 4]}.\n")
        index_vault(vault)
    (vault / "journal/2025-01-02-1.md").rename(vault / "journal/moved.md")
    (vault / "journal/2025-01-03-2.md").unlink()
    index_vault(vault)
    assert not open_index(vault).index.vectors.settled
    report = reindex(vault)
    assert any("rebuilt from scratch" in note for note in report.notes), report.notes
    engine = open_index(vault)
    assert engine.index.vectors.settled
    assert snapshots.graphs_settled(engine.index_home, engine.index.commit)
    assert not any("rebuilt" in note for note in reindex(vault).notes)  # once: nothing patched since
    clean = tmp_path / "clean"
    shutil.copytree(vault, clean, ignore=shutil.ignore_patterns(".memsearch"))
    index_vault(clean)
    narrow = dataclasses.replace(Settings(), top_n=4)
    a, b = open_index(vault, settings=narrow), open_index(clean, settings=narrow)
    for topic in topics:
        got = [(r.path, r.score) for r in a.search(topic, k=4, now=NOW, strategies=["semantic"]).results]
        want = [(r.path, r.score) for r in b.search(topic, k=4, now=NOW, strategies=["semantic"]).results]
        assert got == want, topic


def test_a_graph_that_cannot_be_rebuilt_leaves_the_reindex_done_and_says_why(tmp_path, monkeypatch):
    """Settling is the cron job's extra: when it fails (here, memory runs out), the run still
    succeeds, its note says what went wrong, and the next reindex tries again."""
    monkeypatch.setattr(vectors_module, "EXACT_MAX_ROWS", 0)
    vault = tmp_path / "vault"
    for i in range(6):
        write(vault, f"reference/note-{i}.md", f"# Note {i}\n\nThe heron came back to pond {i}.\n")
    index_vault(vault)
    write(vault, "reference/note-6.md", "# Note 6\n\nA kingfisher at the weir.\n")
    index_vault(vault)  # the loaded graph is patched

    def out_of_memory(self) -> None:
        raise MemoryError("no room for a graph")

    monkeypatch.setattr(vectors_module.VectorIndex, "_build", out_of_memory)
    report = reindex(vault)
    assert any("not rebuilt (MemoryError: no room for a graph)" in note for note in report.notes)
    monkeypatch.undo()
    monkeypatch.setattr(vectors_module, "EXACT_MAX_ROWS", 0)
    assert any("rebuilt from scratch" in note for note in reindex(vault).notes)


def test_reindex_settles_a_snapshot_whose_graph_cannot_be_read(tmp_path, monkeypatch):
    """A snapshot whose graph file is gone (its key unmarked, as an older index saved it) loads its
    graph as dirty, to be built on first use: nothing to rebuild in memory, yet the snapshot itself
    is unsettled. The reindex saves it settled, so the next one finds nothing to do."""
    monkeypatch.setattr(vectors_module, "EXACT_MAX_ROWS", 0)
    vault = tmp_path / "vault"
    for i in range(8):
        write(vault, f"reference/note-{i}.md", f"# Note {i}\n\nThe heron came back to pond {i}.\n")
    index_vault(vault)
    reindex(vault)
    engine = open_index(vault)
    home, commit = engine.index_home, engine.index.commit
    folder = snapshots.snapshots_dir(home) / commit
    assert snapshots.graphs_settled(home, commit)
    (folder / "hnsw.bin").unlink()
    (folder / "hnsw.key").write_text((folder / "hnsw.key").read_text().split("\n")[0])
    assert not snapshots.graphs_settled(home, commit)
    reindex(vault)
    assert snapshots.graphs_settled(home, commit) and (folder / "hnsw.bin").exists()


def test_a_newer_version_written_while_its_commit_runs_loses_nothing(vault_copy, monkeypatch, caplog):
    # update_file of a file whose commit was running took that commit's chunks out of the live index:
    # the commit failed reading their vectors (KeyError), the other files of its batch were never
    # committed, and wait_for_embeddings still said all was done. The race is made here at its
    # moment: the newer version is written and updated just as the commit writes its files.
    from memsearch.indexer.update import Update

    index_vault(vault_copy)
    engine = open_index(vault_copy)
    write(vault_copy, "notes/b.md", "# B\n\nb says tangerine\n")
    write(vault_copy, "notes/a.md", "# A\n\nthe first version\n")
    real_write = Update._write
    raced: list[str] = []
    seen: list[int] = []

    def write_while_a_newer_version_comes(self, *args, **kwargs):
        # the second commit of the batch: its vectors, read from the live index
        seen.append(1)
        if len(seen) == 2 and not raced:
            raced.append("notes/a.md")
            write(vault_copy, "notes/a.md", "# A\n\nthe second version, apricot\n")
            assert engine.update_file("notes/a.md").action == "changed"
        return real_write(self, *args, **kwargs)

    monkeypatch.setattr(Update, "_write", write_while_a_newer_version_comes)
    engine.update_file("notes/a.md")
    engine.update_file("notes/b.md")
    assert engine.wait_for_embeddings(120) and engine.last_error is None, engine.last_error
    assert raced
    assert not [r.message for r in caplog.records if "failed" in r.getMessage()]  # no commit failed
    engine.close(60)
    monkeypatch.undo()
    files = _manifest(vault_copy)["files"]
    assert {"notes/a.md", "notes/b.md"} <= set(files) and not engine.writes.previews
    assert index_vault(vault_copy).commit is None  # the committed index is the vault, nothing to catch up
    hits = open_index(vault_copy).search("apricot", k=3, strategies=["keyword"]).results
    assert hits and hits[0].path == "notes/a.md"


def test_a_version_on_disk_newer_than_its_commit_took_leaves_no_ghost(vault_copy, monkeypatch):
    # The commit reads the file from the disk: written again meanwhile, and updated, the file's
    # newer text was committed under fresh ids while the newer preview held it too. Those ids stayed
    # in the live index for good (searched twice, two chunks for a one-line note) and went into the
    # snapshot saved at close, which every later load read; a reindex saw nothing to do.
    from memsearch.indexer.update import Update

    index_vault(vault_copy)
    engine = open_index(vault_copy)
    write(vault_copy, "notes/a.md", "# A\n\nthe first version, quince\n")
    real_apply = Update.apply
    raced: list[str] = []

    def apply_after_a_newer_version(self, *args, **kwargs):
        if not raced:  # the first commit starts: the note is written again, and updated
            write(vault_copy, "notes/a.md", "# A\n\nthe second version, apricot\n")
            raced.append(engine.update_file("notes/a.md").action)
        return real_apply(self, *args, **kwargs)

    monkeypatch.setattr(Update, "apply", apply_after_a_newer_version)
    engine.update_file("notes/a.md")
    assert engine.wait_for_embeddings(120) and engine.last_error is None, engine.last_error
    assert raced == ["added"]  # a preview of the newer text, made while the commit ran
    held = [c.text for c in engine.index.chunks.values() if c.path == "notes/a.md"]
    assert len(held) == 1 and "apricot" in held[0], held
    engine.close(60)
    monkeypatch.undo()
    fresh = open_index(vault_copy)
    held = [c.text for c in fresh.index.chunks.values() if c.path == "notes/a.md"]
    assert len(held) == 1 and "apricot" in held[0], held
    assert [r.path for r in fresh.search("apricot", k=5, strategies=["keyword"]).results] == ["notes/a.md"]


def test_a_refresh_while_the_engine_commits_leaves_the_index_to_its_writer(vault_copy, monkeypatch, caplog):
    # MemoryTools refreshes its engine before every search. Between the writer's commit and its
    # setting the index, HEAD had moved: a search thread loaded that commit and swapped the index
    # the batch worked on, its previews made again under other ids. The next phase failed on them
    # (KeyError), and a search could too.
    from memsearch.index.versioning import IndexRepo

    index_vault(vault_copy)
    engine = open_index(vault_copy)
    real_commit = IndexRepo.commit
    refreshed: list[bool] = []

    def commit_then_a_search_refreshes(self, *args, **kwargs):
        commit = real_commit(self, *args, **kwargs)
        if not refreshed and threading.current_thread().name == "memsearch-update":
            searcher = threading.Thread(target=lambda: refreshed.append(engine.refresh()))
            searcher.start()
            searcher.join(60)
        return commit

    monkeypatch.setattr(IndexRepo, "commit", commit_then_a_search_refreshes)
    write(vault_copy, "notes/a.md", "# A\n\nthe quince note\n")
    engine.update_file("notes/a.md")
    write(vault_copy, "notes/b.md", "# B\n\nthe apricot note\n")
    engine.update_file("notes/b.md")
    assert engine.wait_for_embeddings(120) and engine.last_error is None, engine.last_error
    assert refreshed == [False]  # the commit was the engine's own: its writer sets the index
    assert not [r.message for r in caplog.records if "failed" in r.getMessage()]
    for word, path in (("quince", "notes/a.md"), ("apricot", "notes/b.md")):
        assert [r.path for r in engine.search(word, k=3, strategies=["keyword"]).results][:1] == [path]
    engine.close(60)


def test_a_failed_background_commit_is_tried_again_and_its_batch_kept(vault_copy, monkeypatch):
    # A failure lost the batch: its files were left as previews, and the next commit of any other
    # file cleared the error. Now the engine's index is loaded again as committed, the batch tried
    # again; a file given up on keeps the error said until it is committed.
    from memsearch.api import writes

    index_vault(vault_copy, embed=False)
    engine = open_index(vault_copy)
    real = writes.Writes._persist
    failures = {"notes/flaky.md": 1, "notes/broken.md": writes.COMMIT_ATTEMPTS}

    def persist(self, batch):
        for rel in batch:
            if failures.get(rel):
                failures[rel] -= 1
                raise OSError(f"the test's disk refused {rel}")
        return real(self, batch)

    monkeypatch.setattr(writes.Writes, "_persist", persist)
    write(vault_copy, "notes/flaky.md", "# Flaky\n\nfirst try fails\n")
    engine.update_file("notes/flaky.md")
    assert engine.wait_for_embeddings(120) and engine.last_error is None
    assert "notes/flaky.md" in _manifest(vault_copy)["files"]
    write(vault_copy, "notes/broken.md", "# Broken\n\nevery try fails\n")
    engine.update_file("notes/broken.md")
    assert engine.wait_for_embeddings(120)
    assert "notes/broken.md" in (engine.last_error or "")
    write(vault_copy, "notes/other.md", "# Other\n\ncommitted\n")
    engine.update_file("notes/other.md")
    assert engine.wait_for_embeddings(120) and "notes/broken.md" in (engine.last_error or "")
    assert "notes/other.md" in _manifest(vault_copy)["files"]
    engine.update_file("notes/broken.md")  # the disk takes it now
    assert engine.wait_for_embeddings(120) and engine.last_error is None
    assert "notes/broken.md" in _manifest(vault_copy)["files"]
    engine.close(60)


def test_paths_since_a_commit_another_writer_moved_read_the_whole_vault(vault_copy):
    # A watcher's batch names the files it saw change; a rollback that committed meanwhile (while
    # the batch waited for the lock) left the rolled-back file out of the index for good.
    from memsearch.api import rollback
    from memsearch.indexer import index_vault as index_run

    index_vault(vault_copy, embed=False)
    write(vault_copy, "journal/2025-03-20.md", "# 2025-03-20\n\nquetzal\n")
    seen = index_vault(vault_copy, embed=False).head
    rollback(vault_copy, "HEAD~1")
    write(vault_copy, "notes/ibex.md", "# Ibex\n\nibex\n")
    report = index_run(vault_copy, embed=False, paths=["notes/ibex.md"], since=seen)
    assert {"journal/2025-03-20.md", "notes/ibex.md"} <= set(_manifest(vault_copy)["files"])
    assert report.head == report.commit


def test_a_second_run_over_an_unchanged_vault_makes_no_commit(vault_copy):
    # The second run recorded its embedder as chosen by "index" (the first: "default"): a commit of
    # nothing but that word, and a line from the quiet cron job.
    assert index_vault(vault_copy, embed=False).commit is not None
    assert index_vault(vault_copy, embed=False).commit is None


def test_an_index_home_that_holds_other_files_is_refused_and_left_as_it_was(vault_copy, tmp_path):
    # `--index-dir` given the vault's journal folder put `/journal/` in the vault's git exclude (no
    # new entry was tracked again) and made it 0700; given the vault, the home folder or a shared
    # folder, it made each owner-only, silently.
    import os
    import subprocess

    import pytest

    from memsearch.errors import UnsafeIndexHomeError

    subprocess.run(["git", "init", "-q", str(vault_copy)], check=True)
    journal = vault_copy / "journal"
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "other-app.txt").write_text("not ours\n")
    for home in (journal, vault_copy, shared):
        os.chmod(home, 0o755)
        with pytest.raises(UnsafeIndexHomeError, match="already holds files that are not an index"):
            index_vault(vault_copy, embed=False, index_dir=home)
        assert os.stat(home).st_mode & 0o777 == 0o755
        assert not (home / "repo").exists()
    exclude = vault_copy / ".git" / "info" / "exclude"
    assert "/journal/" not in (exclude.read_text() if exclude.exists() else "")
    # An empty folder, an index home, and a folder holding only hidden files are index homes.
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / ".DS_Store").write_text("")
    assert index_vault(vault_copy, embed=False, index_dir=empty).commit is not None
    assert index_vault(vault_copy, embed=False, index_dir=empty).commit is None
