"""`memsearch watch`: catches up on start, follows writes (also by rename), batches, stops cleanly."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

from memsearch.api import index_vault, log
from memsearch.watch import Watcher, look
from tests.versioning_helpers import committed_state, write


def _files(vault):
    return set(committed_state(vault)["manifest"]["files"])


def _wait_for(predicate, seconds=30.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False


def _start_watch(vault, **popen) -> subprocess.Popen:
    """`memsearch watch VAULT` in a process of its own, looking every 0.1 s, without embedding."""
    return subprocess.Popen(
        [sys.executable, "-m", "memsearch.cli", "watch", str(vault), "--interval", "0.1", "--no-embed"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **popen,
    )


def test_look_sees_what_the_index_covers(vault_copy):
    (vault_copy / ".hidden").mkdir()
    write(vault_copy, ".hidden/secret.md", "no\n")
    write(vault_copy, "notes/.draft.md", "no\n")
    write(vault_copy, "notes/plain.txt", "no\n")
    seen = look(vault_copy)
    assert "inbox.md" in seen and "reference/people/ed-kowalski.md" in seen
    assert not {p for p in seen if "hidden" in p or "draft" in p or p.endswith(".txt")}


def test_a_watcher_catches_up_follows_changes_and_stops(vault_copy):
    index_vault(vault_copy, embed=False)
    write(vault_copy, "journal/2025-03-20.md", "# 2025-03-20\n\nWritten while nobody watched.\n")
    reports = []
    watcher = Watcher(vault_copy, interval=0.1, debounce=0.3, embed=False, on_report=reports.append)
    thread = threading.Thread(target=watcher.run, kwargs={"max_seconds": 60})
    thread.start()
    try:
        assert _wait_for(lambda: "journal/2025-03-20.md" in _files(vault_copy))  # the catch-up
        commits = len(log(vault_copy))
        # A burst of writes to several files is one batch, one commit.
        for i in range(4):
            write(vault_copy, f"notes/burst-{i}.md", f"# Burst {i}\n\nzebracorn {i}\n")
            time.sleep(0.05)
        assert _wait_for(lambda: {f"notes/burst-{i}.md" for i in range(4)} <= _files(vault_copy))
        assert len(log(vault_copy)) == commits + 1
        # An editor that saves by writing a temporary file and renaming it over the original.
        target = vault_copy / "reference" / "redflag.md"
        tmp = vault_copy / "reference" / ".redflag.md.swp"
        tmp.write_text(target.read_text().replace("Keys rotate every quarter.", "Keys rotate weekly."))
        os.replace(tmp, target)
        before = committed_state(vault_copy)["manifest"]["files"]["reference/redflag.md"]["sha256"]
        assert _wait_for(
            lambda: (
                committed_state(vault_copy)["manifest"]["files"]["reference/redflag.md"]["sha256"] != before
            )
        )
        # A deletion.
        (vault_copy / "inbox.md").unlink()
        assert _wait_for(lambda: "inbox.md" not in _files(vault_copy))
    finally:
        watcher.stop()
        thread.join(10)
    assert not thread.is_alive()
    assert all(r.commit for r in reports[1:])  # every batch after the catch-up changed something
    assert index_vault(vault_copy, embed=False).commit is None  # nothing was missed


def test_the_watch_command_stops_on_sigterm_sigint_and_sighup(vault_copy):
    index_vault(vault_copy, embed=False)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):  # SIGHUP killed it mid-batch (129)
        proc = _start_watch(vault_copy)
        assert proc.stderr.readline().startswith("watching ")
        write(vault_copy, f"notes/{sig.name}.md", f"# {sig.name}\n\nseen by the watcher\n")
        assert _wait_for(lambda name=sig.name: f"notes/{name}.md" in _files(vault_copy))
        started = time.monotonic()
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=20)
        assert proc.returncode == 0 and "Traceback" not in err, err
        assert time.monotonic() - started < 5
        assert f"notes/{sig.name}.md" in out


def test_a_watch_started_under_nohup_outlives_its_terminal(vault_copy):
    # nohup ignores SIGHUP so that closing the terminal leaves the command running; the watch
    # caught it all the same and stopped.
    index_vault(vault_copy, embed=False)
    proc = _start_watch(vault_copy, preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN))
    assert proc.stderr.readline().startswith("watching ")
    proc.send_signal(signal.SIGHUP)
    write(vault_copy, "notes/after-hangup.md", "# After\n\nwritten once the terminal closed\n")
    assert _wait_for(lambda: "notes/after-hangup.md" in _files(vault_copy)), "the watch stopped on SIGHUP"
    assert proc.poll() is None
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err


def test_a_watcher_catches_up_after_another_writer_moved_the_index(vault_copy):
    # A rollback made the index an older state of the vault while the watcher ran: its next batch
    # indexed only the file it saw change, and the rolled-back file stayed stale (so did a file
    # unforgotten meanwhile: skipped as forgotten).
    from memsearch.api import rollback

    index_vault(vault_copy, embed=False)
    write(vault_copy, "journal/2025-03-20.md", "# 2025-03-20\n\nquetzal sighting\n")
    index_vault(vault_copy, embed=False)
    watcher = Watcher(vault_copy, interval=0.1, debounce=0.3, embed=False)
    thread = threading.Thread(target=watcher.run, kwargs={"max_seconds": 60})
    thread.start()
    try:
        assert _wait_for(lambda: watcher.batches >= 1)  # the catch-up (nothing to do)
        rollback(vault_copy, "HEAD~1")
        assert "journal/2025-03-20.md" not in _files(vault_copy)
        write(vault_copy, "notes/ibex.md", "# Ibex\n\nibex\n")
        assert _wait_for(lambda: "notes/ibex.md" in _files(vault_copy))
        assert "journal/2025-03-20.md" in _files(vault_copy)
    finally:
        watcher.stop()
        thread.join()


def test_the_watch_command_says_why_it_skipped_a_file(vault_copy):
    # One stray byte took a journal out of the index, and the watcher said only "-1 files"; a new
    # binary file was skipped without a word (`memsearch index` names each, with its reason).
    index_vault(vault_copy, embed=False)
    proc = _start_watch(vault_copy)
    try:
        assert proc.stderr.readline().startswith("watching ")
        with open(vault_copy / "journal" / "2025-03-11.md", "ab") as f:
            f.write(b"\xff")
        (vault_copy / "notes").mkdir(exist_ok=True)
        (vault_copy / "notes" / "photo.md").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
        assert _wait_for(lambda: "journal/2025-03-11.md" not in _files(vault_copy))
        time.sleep(1.0)
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=20)
    assert "skipped journal/2025-03-11.md: " in err and "skipped notes/photo.md: " in err, err
