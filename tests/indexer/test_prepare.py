"""Chunking spread over processes gives exactly the index one process gives."""

import json
import os
import shutil
import sys

import pytest

from memsearch.api import index_vault, open_index
from memsearch.index.format import MANIFEST
from memsearch.index.versioning import IndexRepo
from memsearch.indexer import prepare as indexer
from memsearch.paths import default_home

N_FILES = indexer.PARALLEL_MIN_FILES + 40


def _vault(root, fixture):
    vault = root / "vault"
    shutil.copytree(fixture, vault)
    for i in range(N_FILES):
        day = f"2025-{1 + i % 12:02d}-{1 + i % 28:02d}"
        (vault / "journal" / f"{day}-note-{i}.md").write_text(
            f"# {day}\n\nMet Ada Lovelace about sign_ed25519() number {i}.\n\n## Later\n\nSigning keys {i}.\n"
        )
    return vault


def _committed(home):
    repo = IndexRepo(home)
    head = repo.head()
    tree = repo.tree(head)
    blobs = repo.read_blobs(list(tree.values()))
    manifest = json.loads(blobs[tree[MANIFEST]])
    manifest.pop("built_at")
    manifest.pop("vault")
    files = {path: blobs[blob] for path, blob in tree.items() if path != MANIFEST}
    return manifest, files


@pytest.fixture
def fixture_vault():
    from conftest import FIXTURE_VAULT

    return FIXTURE_VAULT


FAILING = "journal/2025-08-08-note-7.md"


def test_parallel_and_serial_chunking_build_the_same_index(tmp_path, monkeypatch, fixture_vault):
    real_chunk_file = indexer.chunk_file
    chunked_in = tmp_path / "pids"  # each call notes its process: the workers are other processes

    def chunk_file(rel, text, settings):
        with open(chunked_in, "a") as fh:
            fh.write(f"{os.getpid()}\n")
        if rel == FAILING:
            raise RuntimeError("a chunker bug")
        return real_chunk_file(rel, text, settings)

    monkeypatch.setattr(indexer, "chunk_file", chunk_file)  # forked workers inherit the patch
    calls = []
    # Two processes whatever the machine (and whatever threads earlier tests left running).
    monkeypatch.setattr(indexer, "chunk_workers", lambda n: calls.append(2 if n > 1 else 1) or calls[-1])
    parallel = _vault(tmp_path / "a", fixture_vault)
    report = index_vault(parallel, embed=False)
    assert calls == [2], "the run should have chunked over two processes"
    pids = set(chunked_in.read_text().split())
    assert pids and str(os.getpid()) not in pids  # worker processes did the chunking, not this one
    chunked_in.unlink()
    assert report.files >= N_FILES

    monkeypatch.setattr(indexer, "chunk_workers", lambda n: calls.append(1) or 1)
    serial = tmp_path / "b" / "vault"
    shutil.copytree(parallel, serial, ignore=shutil.ignore_patterns(".memsearch*"))
    for src in parallel.rglob("*"):  # same mtimes: fallback timestamps come from them
        if src.is_file() and ".memsearch" not in src.parts:
            shutil.copystat(src, serial / src.relative_to(parallel))
    index_vault(serial, embed=False)
    assert calls[-1] == 1

    a_manifest, a_files = _committed(default_home(parallel))
    b_manifest, b_files = _committed(default_home(serial))
    assert a_manifest == b_manifest
    assert a_files == b_files
    # A file whose chunking failed in a worker is named and skipped, as in one process.
    assert list(a_manifest["skipped"]) == [FAILING]
    assert "RuntimeError: a chunker bug" in a_manifest["skipped"][FAILING]

    hits = open_index(parallel).search("sign_ed25519", 5, strategies=["keyword"]).results
    assert hits and hits[0].path.startswith("journal/")


def test_workers_stay_one_for_small_runs_or_with_threads(monkeypatch):
    import threading

    monkeypatch.delenv(indexer.WORKERS_ENV, raising=False)
    monkeypatch.setattr(indexer.os, "sched_getaffinity", lambda _pid: {0, 1, 2, 3}, raising=False)
    baseline = threading.active_count()  # threads other tests left running count as one
    monkeypatch.setattr(
        indexer.threading, "active_count", lambda: threading.enumerate().__len__() - baseline + 1
    )
    assert indexer.chunk_workers(indexer.PARALLEL_MIN_FILES - 1) == 1
    assert indexer.chunk_workers(indexer.PARALLEL_MIN_FILES) == 4
    monkeypatch.setenv(indexer.WORKERS_ENV, "1")
    assert indexer.chunk_workers(10_000) == 1
    monkeypatch.setenv(indexer.WORKERS_ENV, "2")
    assert indexer.chunk_workers(10_000) == 2
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert indexer.chunk_workers(10_000) == 1  # never fork a process that runs other threads
    finally:
        stop.set()
        thread.join()


def test_what_a_worker_sends_reads_back_as_what_it_chunked(fixture_vault):
    # Workers send chunks as field tuples and terms as flat arrays (cheap to unpickle); read back,
    # every file of the fixture vault (frontmatter, aliases, warnings, timestamps) must be unchanged.
    import pickle

    from memsearch.config import Settings
    from memsearch.scan import read_file, walk_markdown

    settings = Settings()
    seen = aliases = stamped = 0
    for full, rel in walk_markdown(fixture_vault):
        vf = read_file(fixture_vault, full, rel)
        fallback = indexer.fallback(vf, {})  # chunks without a date take the file's mtime
        direct = indexer.chunk_or_reason(vf, settings, fallback)
        sent = pickle.loads(pickle.dumps(indexer.chunk_for_pipe((vf, fallback), settings), protocol=5))
        assert indexer.from_pipe(sent) == direct, vf.path
        seen += len(direct[0].chunks)
        aliases += bool(direct[0].aliases)
        stamped += direct[2] is not None
    assert seen > 30 and aliases and stamped


def test_the_scan_announces_every_file_it_reads(vault_copy, monkeypatch):
    """The read-ahead windows cover the whole vault, each file announced before it is read."""
    from memsearch.indexer import prepare

    announced: list[str] = []
    read: list[str] = []
    real_read = prepare.read_file

    def read_file(vault, full, rel=None):
        assert full in announced, f"{rel} read before it was announced"
        read.append(full)
        return real_read(vault, full, rel)

    monkeypatch.setattr(prepare, "PREFETCH_WINDOW", 3)  # several windows over the fixture vault
    monkeypatch.setattr(prepare, "prefetch", lambda paths: announced.extend(paths))
    monkeypatch.setattr(prepare, "read_file", read_file)
    index_vault(vault_copy, embed=False)
    assert len(read) > 3 * 3 and sorted(set(announced)) == sorted(read)


def test_a_path_through_a_linked_folder_is_not_read_alone_either(tmp_path):
    # A whole scan never follows a linked folder, but `update_file("linkdir/s.md")` (and `index
    # --paths`, `watch`) read through it: a note outside the vault was indexed and found.
    vault, outside = tmp_path / "vault", tmp_path / "outside"
    vault.mkdir()
    outside.mkdir()
    (outside / "s.md").write_text("# S\n\nThe zebra secret lives outside the vault.\n")
    (vault / "a.md").write_text("# A\n\nA note inside.\n")
    (vault / "linkdir").symlink_to(outside, target_is_directory=True)
    index_vault(vault, embed=False)
    engine = open_index(vault)
    update = engine.update_file("linkdir/s.md")
    assert update.action == "skipped" and "linkdir/ is a symlink" in (update.reason or ""), update
    report = index_vault(vault, paths=["linkdir/s.md"], embed=False)
    assert [s.path for s in report.skipped] == ["linkdir/s.md"] and not report.added
    for searched in (engine, open_index(vault)):
        assert not searched.search("zebra secret", k=5, strategies=["keyword"]).results
    engine.close()


def test_update_file_of_a_folder_or_fifo_named_like_a_note_says_what_it_is(tmp_path):
    # Both were reported as "the file is gone", while `ls` showed them there.
    import os

    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "a.md").write_text("# A\n\nA note.\n")
    (vault / "folder.md").mkdir()
    os.mkfifo(vault / "pipe.md")
    index_vault(vault, embed=False)
    engine = open_index(vault)
    for name in ("folder.md", "pipe.md"):
        update = engine.update_file(name)
        assert update.action == "skipped" and "not a regular file" in (update.reason or ""), update
    assert "the file is gone" in (engine.update_file("nothing.md").reason or "")
    engine.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="chunking forks its processes on Linux only")
def test_a_stop_signal_that_reaches_a_chunking_process_is_the_runs_to_decide(tmp_path, fixture_vault):
    # Ctrl-C, kill and a closed terminal reach every process of a group. A chunking process that
    # SIGTERM stopped lost its files, and the run waited for them for ever (multiprocessing's Pool
    # waits for a lost task); stopped while it wrote its result, it wedged the Pool's shared pipe.
    # The processes now ignore stops: the run alone decides (here, the run took none: it goes on).
    import subprocess
    import textwrap

    vault = _vault(tmp_path, fixture_vault)
    script = textwrap.dedent(
        f"""
        import os, signal
        from memsearch.api import index_vault
        from memsearch.indexer import prepare

        real = prepare.chunk_file

        def chunk_file(rel, text, settings):
            if rel.endswith("-note-7.md") or rel.endswith("-note-99.md"):
                for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
                    os.kill(os.getpid(), signum)
            return real(rel, text, settings)

        prepare.chunk_file = chunk_file
        prepare.chunk_workers = lambda n: 2
        print(index_vault({str(vault)!r}, embed=False).files)
        """
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert int(run.stdout.split()[-1]) >= N_FILES
