"""Snapshots (the derived index of a commit) are written when enough changed, not on every commit."""

import shutil

from memsearch.api import index_vault, open_index
from memsearch.index import snapshots
from memsearch.index.format import chunk_from_json, chunk_to_json
from memsearch.paths import default_home


def _snapshots(vault) -> set[str]:
    root = snapshots.snapshots_dir(default_home(vault))
    return {p.name for p in root.iterdir() if (p / "meta.json").exists()} if root.is_dir() else set()


def _write(vault, rel, text):
    path = vault / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_a_small_commit_leaves_the_snapshot_to_a_writer_and_readers_apply_the_delta(vault_copy):
    first = index_vault(vault_copy, embed=False)
    assert _snapshots(vault_copy) == {first.commit}  # a full build always saves one
    _write(vault_copy, "journal/2025-03-20.md", "# 2025-03-20\n\nSaw a zebracorn at the zoo with Ed.\n")
    small = index_vault(vault_copy, embed=False)
    assert small.commit and small.commit not in _snapshots(vault_copy)

    reader = open_index(vault_copy)  # the last snapshot plus the one changed file
    assert reader.index.commit == small.commit and reader.index.unsaved_files == 1
    hits = reader.search("zebracorn", 3, strategies=["keyword"]).results
    assert hits[0].path == "journal/2025-03-20.md"
    assert small.commit not in _snapshots(vault_copy)  # a reader does not write one

    again = index_vault(vault_copy, embed=False)  # the cron job: unchanged, but a writer caches
    assert again.commit is None and small.commit in _snapshots(vault_copy)
    assert open_index(vault_copy).index.unsaved_files == 0


def test_many_changed_files_write_a_snapshot(vault_copy, monkeypatch):
    index_vault(vault_copy, embed=False)
    monkeypatch.setattr(snapshots, "SNAPSHOT_MIN_FILES", 3)
    for i in range(2):
        _write(vault_copy, f"notes/a{i}.md", f"# Note {i}\n\nThought {i}.\n")
    two = index_vault(vault_copy, embed=False)
    assert two.commit not in _snapshots(vault_copy)
    for i in range(4):
        _write(vault_copy, f"notes/b{i}.md", f"# Later {i}\n\nThought {i}.\n")
    four = index_vault(vault_copy, embed=False)  # 2 + 4 files since the last snapshot: over 3
    saved = _snapshots(vault_copy)
    # The run that loaded `two` to change it saved no snapshot of it: it committed again at once.
    assert four.commit in saved and two.commit not in saved


def test_a_run_that_changes_nothing_snapshots_the_commit_it_loaded(vault_copy):
    """So the next unchanged run need not load the index at all."""
    index_vault(vault_copy, embed=False)
    _write(vault_copy, "notes/one.md", "# One\n\nA thought.\n")
    one = index_vault(vault_copy, embed=False)
    assert one.commit not in _snapshots(vault_copy)
    again = index_vault(vault_copy, embed=False)
    assert again.commit is None and one.commit in _snapshots(vault_copy)


def test_a_delta_load_equals_a_load_of_a_snapshot(vault_copy):
    index_vault(vault_copy, embed=False)
    _write(vault_copy, "journal/2025-03-20.md", "# 2025-03-20\n\nMet Ada Lovelace about sign_ed25519().\n")
    (vault_copy / "archive" / "2024.md").unlink()
    index_vault(vault_copy, embed=False)
    delta = open_index(vault_copy)
    assert delta.index.unsaved_files == 2
    index_vault(vault_copy, embed=False)  # writes the snapshot of the same commit
    snapshot = open_index(vault_copy)
    assert snapshot.index.unsaved_files == 0 and snapshot.index.commit == delta.index.commit
    for query in ("sign_ed25519", "Ada Lovelace", "signing keys last quarter"):
        a = delta.search(query, 5, now="2025-04-01").to_dict()["results"]
        b = snapshot.search(query, 5, now="2025-04-01").to_dict()["results"]
        assert a == b


def test_a_watcher_keeping_its_index_writes_no_snapshot_per_small_commit(vault_copy):
    from memsearch import indexer

    keep: list = [None]
    indexer.index_vault(vault_copy, embed=False, keep=keep)
    for n in range(3):  # what `memsearch watch` does for each batch of saved files
        rel = f"journal/2025-03-2{n}.md"
        _write(vault_copy, rel, f"# 2025-03-2{n}\n\nNote {n} about the zebracorn.\n")
        report = indexer.index_vault(vault_copy, embed=False, paths=[rel], keep=keep)
        assert report.commit and report.commit not in _snapshots(vault_copy)
        assert keep[0] is not None and keep[0].unsaved_files == n + 1
    hits = open_index(vault_copy).search("zebracorn", 5, strategies=["keyword"]).results
    assert {h.path for h in hits} == {f"journal/2025-03-2{n}.md" for n in range(3)}


def test_a_chunk_read_back_is_the_chunk_written():
    """chunk_from_json builds chunks without the frozen __init__: they must still be whole, equal
    and frozen (and an old shard without a header still gets the default)."""
    import dataclasses
    import json
    from datetime import UTC, datetime

    import pytest

    from memsearch.models import Chunk

    chunk = Chunk(
        path="journal/2025-03-20.md",
        start_line=3,
        end_line=9,
        heading="Morning",
        territory="journal",
        fact_type="experience",
        timestamp=datetime(2025, 3, 20, 9, 14, tzinfo=UTC),
        timestamp_source="line",
        entities=("Ada Lovelace", "redflag"),
        text="Met Ada Lovelace about sign_ed25519().",
        header="2025-03-20 > Morning",
    )
    cid, back = chunk_from_json(chunk_to_json(7, chunk))
    assert cid == 7 and back == chunk and hash(back) == hash(chunk)
    assert back.content_hash == chunk.content_hash
    with pytest.raises(dataclasses.FrozenInstanceError):
        back.text = "changed"  # type: ignore[misc]
    old = json.loads(chunk_to_json(7, chunk))
    del old["header"]
    assert chunk_from_json(json.dumps(old))[1].header == ""


def test_an_id_named_twice_is_dropped_once_and_a_drifted_live_index_is_not_saved(vault_copy):
    # remove_chunks([5, 5]) dropped chunk 5 from the keyword, graph and time indexes, then raised
    # KeyError before the vectors: every later search met 5 in the semantic list and failed. A live
    # index that drifted from its commit was saved at close as that commit's snapshot.
    from memsearch.index import in_memory

    index_vault(vault_copy)
    engine = open_index(vault_copy)
    cid = next(iter(engine.index.chunks))
    in_memory.remove_chunks(engine.index, [cid, cid])
    assert cid not in engine.index.chunks
    assert engine.search("signing keys", k=5).results  # every list agrees with the chunk table
    home = vault_copy / ".memsearch"
    for folder in snapshots.snapshots_dir(home).iterdir():
        shutil.rmtree(folder)
    engine.close()
    assert not any(snapshots.snapshots_dir(home).iterdir())  # the drifted index was not saved
    assert cid in open_index(vault_copy).index.chunks  # the commit's own, loaded again
