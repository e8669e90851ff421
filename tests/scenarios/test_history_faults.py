"""History survives faults: a transient git error fails the run and leaves the repository as it
was; a damaged repository is moved aside, never deleted, and the user is told where."""

import os
import shutil
import stat
from pathlib import Path

import pytest

from memsearch.api import index_vault, log, open_index
from memsearch.errors import IndexCorruptError, IndexWriteError


def _history(vault: Path, edits: int = 3) -> list[str]:
    index_vault(vault, embed=False)
    for n in range(edits):
        (vault / "inbox.md").write_text(f"# Inbox\n\nedit number {n} of the inbox\n")
        index_vault(vault, embed=False)
    return [c["commit"] for c in log(vault)]


def _failing_git(tmp_path: Path, monkeypatch, verb: str, message: str) -> None:
    """A git on PATH that fails ``verb`` with ``message`` (as a full disk makes git fail)."""
    real = shutil.which("git")
    fake = tmp_path / "fakebin"
    fake.mkdir()
    script = fake / "git"
    script.write_text(
        "#!/bin/sh\n"
        f'for a in "$@"; do [ "$a" = {verb} ] && {{ echo "{message}" >&2; exit 128; }}; done\n'
        f'exec {real} "$@"\n'
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{fake}{os.pathsep}{os.environ['PATH']}")


@pytest.mark.parametrize(
    "message",
    ["fatal: Out of diskspace", "error: unable to write file: No space left on device"],
)
def test_a_full_disk_fails_the_run_and_keeps_the_history(vault_copy, tmp_path, monkeypatch, message):
    commits = _history(vault_copy)
    assert len(commits) == 4
    (vault_copy / "inbox.md").write_text("# Inbox\n\na change the full disk must not lose history over\n")
    _failing_git(tmp_path, monkeypatch, "status", message)
    with pytest.raises(IndexWriteError, match="nothing was changed"):
        index_vault(vault_copy, embed=False)
    monkeypatch.undo()
    assert [c["commit"] for c in log(vault_copy)] == commits  # the repository is as it was
    report = index_vault(vault_copy, embed=False)  # once the disk has room, the run carries on
    assert report.commit and [c["commit"] for c in log(vault_copy)][1:] == commits


def test_the_cli_exits_non_zero_on_a_full_disk(vault_copy, tmp_path, monkeypatch):
    from click.testing import CliRunner

    from memsearch.cli import main

    commits = _history(vault_copy, edits=1)
    _failing_git(tmp_path, monkeypatch, "status", "fatal: Out of diskspace")
    for verb in ("index", "reindex"):
        result = CliRunner().invoke(main, [verb, str(vault_copy), "--no-embed"])
        assert result.exit_code == 1, result.output
        assert "Out of diskspace" in result.output and "nothing was changed" in result.output
    monkeypatch.undo()
    assert [c["commit"] for c in log(vault_copy)] == commits


@pytest.mark.parametrize(
    "damage",
    [
        "empty HEAD",
        "missing HEAD",
        "HEAD on another branch",
        "garbled ref",
        "ref to a missing object",
        "HEAD not text",
        "ref not text",
    ],
)
def test_a_broken_head_or_ref_is_repaired_from_the_objects_and_the_history_kept(vault_copy, damage):
    commits = _history(vault_copy)
    git_dir = vault_copy / ".memsearch" / "repo" / ".git"
    head = (git_dir / "HEAD").read_text()
    ref = git_dir / head.strip().removeprefix("ref: ")
    if damage == "empty HEAD":
        (git_dir / "HEAD").write_text("")
    elif damage == "missing HEAD":
        (git_dir / "HEAD").unlink()
    elif damage == "HEAD on another branch":  # a branch that does not exist: a history of its own
        (git_dir / "HEAD").write_text("ref: refs/heads/nonexist\n")
    elif damage == "garbled ref":
        ref.write_text("not a commit id\n")
    elif damage == "HEAD not text":  # a byte no UTF-8 has: readers raised UnicodeDecodeError
        (git_dir / "HEAD").write_bytes(b"ref: refs/heads/m\xffain\n")
    elif damage == "ref not text":
        ref.write_bytes(b"ab\xffcd\n")
    else:
        ref.write_text("0123456789abcdef0123456789abcdef01234567\n")
    if damage in ("HEAD not text", "ref not text"):
        with pytest.raises(IndexCorruptError, match=r"lost its HEAD .* run `memsearch index VAULT`"):
            open_index(vault_copy)
    report = index_vault(vault_copy, embed=False)
    assert any("repaired" in note for note in report.notes), report.notes
    assert not [p for p in (vault_copy / ".memsearch").iterdir() if p.name.startswith("repo.damaged-")]
    assert [c["commit"] for c in log(vault_copy)] == commits  # the whole history, nothing rebuilt
    assert report.commit is None and report.files >= 12  # the vault had not changed since


def test_a_repository_with_no_whole_commit_is_moved_aside_with_its_objects_and_the_user_told(vault_copy):
    commits = _history(vault_copy)
    git_dir = vault_copy / ".memsearch" / "repo" / ".git"
    head = (git_dir / "HEAD").read_text()
    (git_dir / head.strip().removeprefix("ref: ")).write_text("not a commit id\n")
    for commit in commits:  # every commit object unreadable: nothing to repair the branch from
        loose = git_dir / "objects" / commit[:2] / commit[2:]
        loose.chmod(0o600)
        loose.write_bytes(b"junk")
    report = index_vault(vault_copy, embed=False)
    (aside,) = [p for p in (vault_copy / ".memsearch").iterdir() if p.name.startswith("repo.damaged-")]
    assert any(str(aside) in note for note in report.notes), report.notes
    # Nothing was deleted: the old objects are all there.
    for commit in commits:
        assert (aside / ".git" / "objects" / commit[:2] / commit[2:]).exists()
    assert report.files >= 12 and len(log(vault_copy)) == 1  # rebuilt from the vault


def test_a_disk_that_fills_while_the_run_writes_its_files_fails_it_with_the_remedy(vault_copy, monkeypatch):
    """git said nothing yet: the disk filled while the run wrote the index's own files (ENOSPC
    from a write). The run fails with what to do, not a traceback; the history is as it was, and
    the next run, with room again, commits the change."""
    import errno

    from click.testing import CliRunner

    from memsearch.cli import main
    from memsearch.index import worktree

    commits = _history(vault_copy, edits=1)
    (vault_copy / "inbox.md").write_text("# Inbox\n\nwritten while the disk was full\n")
    real_put = worktree.put

    def full(root, rel, data):
        raise OSError(errno.ENOSPC, "No space left on device", str(root / rel))

    monkeypatch.setattr(worktree, "put", full)
    with pytest.raises(IndexWriteError, match="no space left on the device"):
        index_vault(vault_copy, embed=False)
    result = CliRunner().invoke(main, ["index", str(vault_copy), "--no-embed"])
    assert result.exit_code == 1 and "free disk space" in result.output, result.output
    assert "Traceback" not in result.output
    monkeypatch.setattr(worktree, "put", real_put)
    assert [c["commit"] for c in log(vault_copy)] == commits
    report = index_vault(vault_copy, embed=False)
    assert report.commit and [c["commit"] for c in log(vault_copy)][1:] == commits


def test_a_reader_of_a_lost_head_is_told_the_history_is_there_and_how_to_repair_it(vault_copy):
    """Readers never write: before an index run repairs it, search, status and log say the HEAD is
    lost and the history kept, not that the first build never finished (or an empty history)."""
    from memsearch.api import open_index, status
    from memsearch.errors import IndexCorruptError

    commits = _history(vault_copy, edits=1)
    (vault_copy / ".memsearch" / "repo" / ".git" / "HEAD").write_text("")
    for read in (lambda: open_index(vault_copy), lambda: status(vault_copy), lambda: log(vault_copy)):
        with pytest.raises(IndexCorruptError, match=r"lost its HEAD \(its history is still there\)"):
            read()
    index_vault(vault_copy, embed=False)
    assert [c["commit"] for c in log(vault_copy)] == commits
