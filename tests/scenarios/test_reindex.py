"""The cron job: `memsearch reindex` is quiet, idempotent, locked, fills gaps; and concurrent writers."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time

from click.testing import CliRunner

from memsearch.api import index_vault, log
from memsearch.cli import EXIT_DEGRADED, EXIT_LOCKED, main
from tests.versioning_helpers import committed_state, git, repo_of, results, write


def _reindex(*args: str):
    return CliRunner().invoke(main, ["reindex", *args])


def test_quiet_when_nothing_changed_one_line_otherwise(vault_copy):
    first = _reindex(str(vault_copy))
    assert first.exit_code == 0 and len(first.output.splitlines()) == 1
    assert first.output.startswith("+12 ~0 -0 files")
    again = _reindex(str(vault_copy))
    assert again.exit_code == 0 and again.output == ""
    write(vault_copy, "journal/2025-03-20.md", "# 2025-03-20\n\nzebracorn\n")
    changed = _reindex(str(vault_copy))
    assert changed.exit_code == 0 and changed.output.startswith("+1 ~0 -0 files")
    assert len(changed.output.splitlines()) == 1
    assert len(log(vault_copy)) == 2


def test_it_fills_embedding_gaps(vault_copy):
    report = index_vault(vault_copy, embed=False)
    assert report.gaps == report.chunks
    out = _reindex(str(vault_copy))
    assert out.exit_code == 0 and f"{report.chunks} gaps filled" in out.output
    assert _reindex(str(vault_copy)).output == ""


def test_a_failing_embedder_exits_degraded(vault_copy, monkeypatch):
    monkeypatch.setenv("MEMSEARCH_EMBEDDER", "word2vec")
    out = _reindex(str(vault_copy))
    assert out.exit_code == EXIT_DEGRADED
    assert "semantic search degraded" in out.output and "chunks await vectors" in out.output


def test_errors_exit_one_with_what_to_do(tmp_path):
    out = _reindex(str(tmp_path / "no-vault"))
    assert out.exit_code == 1 and "does not exist" in out.output


def test_a_held_lock_is_waited_for_then_reported(vault_copy):
    index_vault(vault_copy, embed=False)
    home = vault_copy / ".memsearch"
    # Another process holds the lock: the flock itself is what makes processes wait.
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from memsearch.lock import index_lock\n"
            "with index_lock(sys.argv[1], what='test holder'):\n"
            "    print('held', flush=True); time.sleep(30)",
            str(home),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout.readline().strip() == "held"
        started = time.monotonic()
        busy = subprocess.run(
            [sys.executable, "-m", "memsearch.cli", "reindex", str(vault_copy), "--no-wait"],
            capture_output=True,
            text=True,
        )
        assert busy.returncode == EXIT_LOCKED and "test holder" in busy.stderr
        waited = subprocess.run(
            [sys.executable, "-m", "memsearch.cli", "reindex", str(vault_copy), "--wait", "1"],
            capture_output=True,
            text=True,
        )
        assert waited.returncode == EXIT_LOCKED and "after waiting 1 s" in waited.stderr
        assert time.monotonic() - started >= 1.0
        # `index` waited up to 900 s, silently, and its message said to pass a --wait it lacked
        index = [sys.executable, "-m", "memsearch.cli", "index", str(vault_copy), "--no-embed", "--wait"]
        for seconds in ("0", "1"):
            busy = subprocess.run([*index, seconds], capture_output=True, text=True, timeout=120)
            assert busy.returncode == 1 and "test holder" in busy.stderr and "--wait" in busy.stderr
    finally:
        proc.kill()
        proc.wait()
    # The holder died: the kernel released its lock.
    write(vault_copy, "journal/2025-03-20.md", "# 2025-03-20\n\nzebracorn\n")
    assert _reindex(str(vault_copy), "--no-wait").exit_code == 0


def test_two_reindex_jobs_and_a_watcher_started_together(vault_copy, tmp_path):
    """No error, no corruption, one consistent history, and the end state of a clean build."""
    index_vault(vault_copy)
    for i in range(20):
        write(vault_copy, f"notes/batch-{i:02d}.md", f"# Note {i}\n\nThe quokka count was {i}.\n")
    (vault_copy / "archive" / "2024.md").unlink()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    cli = [sys.executable, "-m", "memsearch.cli"]
    watcher = subprocess.Popen(
        [*cli, "watch", str(vault_copy), "--interval", "0.2", "--debounce", "0.3"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    jobs = [
        subprocess.Popen(
            [*cli, "reindex", str(vault_copy)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for _ in range(2)
    ]
    # While they run, the vault keeps changing.
    time.sleep(0.5)
    for i in range(5):
        write(vault_copy, f"journal/2025-04-0{i + 1}.md", f"# 2025-04-0{i + 1}\n\nA wombat on day {i}.\n")
        time.sleep(0.3)
    outs = [job.communicate(timeout=120) for job in jobs]
    assert [job.returncode for job in jobs] == [0, 0], outs
    assert all(err == "" for _, err in outs), outs
    # Let the watcher take the last changes, then stop it the way a service manager does.
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if "journal/2025-04-05.md" in committed_state(vault_copy)["manifest"]["files"]:
            break
        time.sleep(0.3)
    time.sleep(1.0)
    watcher.terminate()
    _, werr = watcher.communicate(timeout=30)
    assert watcher.returncode == 0 and "Traceback" not in werr, werr
    repo = repo_of(vault_copy)
    # One linear history, a clean work tree, no damage.
    parents = [line.split() for line in git(repo, "rev-list", "--parents", "HEAD").splitlines()]
    assert all(len(p) == 2 for p in parents[:-1]) and len(parents[-1]) == 1
    assert git(repo, "status", "--porcelain", "--ignored") == ""
    git(repo, "fsck", "--no-progress")
    # Nothing left to do, and the index is what a clean build of the vault gives.
    again = index_vault(vault_copy)
    assert again.commit is None
    clean = tmp_path / "clean"
    shutil.copytree(vault_copy, clean, ignore=shutil.ignore_patterns(".memsearch"))
    index_vault(clean)
    ours, theirs = committed_state(vault_copy)["manifest"], committed_state(clean)["manifest"]
    assert {p: e["sha256"] for p, e in ours["files"].items()} == {
        p: e["sha256"] for p, e in theirs["files"].items()
    }
    assert ours["gaps"] == [] and theirs["gaps"] == []
    strip = lambda rs: [sorted((r["path"], r["start_line"], round(r["score"], 4)) for r in q) for q in rs]  # noqa: E731
    assert strip(results(vault_copy)) == strip(results(clean))
