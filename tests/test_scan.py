"""memsearch.scan: reading the vault's files, never waiting on one that is no regular file."""

from pathlib import Path

from memsearch.api import index_vault, open_index


def test_a_fifo_named_like_a_note_is_skipped_not_waited_on(vault_copy):
    """Opening a FIFO for reading waits for a writer: the scan must name it and go on."""
    import os
    import threading

    os.mkfifo(vault_copy / "pipe.md")
    done: dict = {}
    worker = threading.Thread(target=lambda: done.update(report=index_vault(vault_copy, embed=False)))
    worker.daemon = True
    worker.start()
    worker.join(timeout=60)
    assert not worker.is_alive(), "index_vault hung on a FIFO"
    reasons = {s.path: s.reason for s in done["report"].skipped}
    assert "not a regular file" in reasons["pipe.md"]
    assert open_index(vault_copy).search("sign_ed25519", k=1).results[0].path == "reference/redflag.md"


def test_prefetch_passes_over_what_it_cannot_open(tmp_path):
    """The read-ahead hint never blocks (a FIFO) and never fails (a missing file, a folder)."""
    import os
    import threading

    from memsearch.scan import prefetch

    (tmp_path / "note.md").write_text("hello")
    os.mkfifo(tmp_path / "pipe.md")
    (tmp_path / "folder.md").mkdir()
    paths = [str(tmp_path / n) for n in ("pipe.md", "folder.md", "missing.md", "note.md")]
    worker = threading.Thread(target=prefetch, args=(paths,), daemon=True)
    worker.start()
    worker.join(timeout=30)
    assert not worker.is_alive(), "prefetch blocked"


def test_a_note_saved_as_utf16_is_read_as_the_text_it_holds(tmp_path):
    """Windows Notepad's "Unicode" is UTF-16 with a byte-order mark: its NUL bytes are half of
    every letter, not binary content. Such a note is indexed, found and opened by its lines, as
    ripgrep reads it; UTF-16 without a mark is still refused, and says why."""
    from memsearch.api import open_memory

    vault = tmp_path / "vault"
    (vault / "reference").mkdir(parents=True)
    text = "# Boiler\n\nThe boiler's reset code is Ë-42; the engineer is Zoë.\n"
    (vault / "reference/boiler.md").write_bytes(text.encode("utf-16"))  # with its mark, LE here
    (vault / "reference/kettle.md").write_bytes(
        b"\xfe\xff" + "# Kettle\n\nDescaled in May.\n".encode("utf-16-be")
    )
    (vault / "reference/unmarked.md").write_bytes("# Unmarked\n\nno mark\n".encode("utf-16-le"))
    report = index_vault(vault, embed=False)
    assert {s.path: s.reason for s in report.skipped} == {
        "reference/unmarked.md": "binary content (NUL bytes) in a markdown file; not indexed"
    }
    engine = open_index(vault)
    found = engine.search("boiler reset code", k=1).results[0]
    assert (found.path, found.start_line) == ("reference/boiler.md", 1), found
    assert engine.search("descaled", k=1).results[0].path == "reference/kettle.md"
    opened = open_memory(vault, "reference/boiler.md:3")
    assert opened["ok"] and opened["text"].strip().endswith("the engineer is Zoë."), opened


def test_a_name_with_a_line_break_is_skipped_with_its_reason(vault_copy):
    # Indexed, it split every line of `files` and `table` output that named it in two, and no ref
    # to it could be opened.
    # So did a tab (the field separator), and an escape sequence was acted on by the terminal, or
    # stripped from the path shown: `escred.md`, which `memsearch open` could not find.
    # A direction override ("bidi\u202eevil.md") showed the name reversed, as a path it is not.
    names = ("new\nline.md", "esc\x1b[31mred.md", "tab\there.md", "para\u2029graph.md", "bidi\u202eevil.md")
    for name in names:
        (vault_copy / name).write_text("# New\nnewline zebra\n")
    report = index_vault(vault_copy, embed=False)
    reasons = {s.path: s.reason for s in report.skipped}
    for shown in (name.encode("unicode_escape").decode() for name in names):
        assert "holds a line break or another control character" in reasons[shown], reasons
    assert all(path.isprintable() for path in open_index(vault_copy).index.manifest["files"])
    (vault_copy / "chef é – 🧑\u200d🍳.md").write_text("# Fine\nzebra\n")  # a joiner is no control
    index_vault(vault_copy, embed=False)
    assert "chef é – 🧑\u200d🍳.md" in open_index(vault_copy).index.manifest["files"]


def test_a_note_and_a_query_in_either_unicode_form_meet(vault_copy):
    # Saved decomposed (NFD: u + a combining diaeresis), "Zürich" was indexed as "zu" and "rich",
    # and a query typed the usual way (NFC) found it by meaning alone; the graph named "zu".
    import unicodedata

    nfd = unicodedata.normalize("NFD", "# Trip\n\nThe Zürich office moved to Kreis 5.\n")
    (vault_copy / "reference" / "trip.md").write_text(nfd, encoding="utf-8")
    index_vault(vault_copy, embed=False)
    engine = open_index(vault_copy)
    for query in ("Zürich", unicodedata.normalize("NFD", "Zürich")):
        hits = engine.search(query, k=3, strategies=["keyword"]).results
        assert hits and hits[0].path == "reference/trip.md", query
    assert (vault_copy / "reference" / "trip.md").read_bytes() == nfd.encode("utf-8")  # left as saved
    assert "zu" not in {e for r in engine.search("Zürich office", k=5).results for e in r.entities}


def _git(cwd, *args, date: str | None = None) -> None:
    import os
    import subprocess

    env = {**os.environ, "GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@b", "GIT_COMMITTER_NAME": "a"}
    env["GIT_COMMITTER_EMAIL"] = "a@b"
    if date:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = date
    subprocess.run(["git", "-C", str(cwd), *args], check=True, capture_output=True, env=env)


def _untracked(work_tree) -> str:
    import subprocess

    status = ["git", "-C", str(work_tree), "status", "--porcelain", "--untracked-files=all"]
    return subprocess.run(status, capture_output=True, text=True, check=True).stdout


def test_a_vault_in_a_folder_of_a_git_repository_is_dated_by_its_commits_and_its_index_excluded(tmp_path):
    # A vault that was a folder of a repository (a monorepo's notes/) was dated by mtime, and its
    # index folder (every note's text and vector) showed as untracked, one `git add .` from a commit;
    # a name git quotes ("café.md") was dated by mtime in a vault at the repository's root too.
    from datetime import UTC, datetime

    from memsearch.scan import git_commit_times

    repo = tmp_path / "repo"
    vault = repo / "notes"
    vault.mkdir(parents=True)
    (vault / "café.md").write_text("# Café\n\nThe espresso machine was descaled.\n")
    (vault / 'say "hi".md').write_text("# Hi\n\nA greeting.\n")
    (repo / "README.md").write_text("# Repo\n")
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "notes", date="2020-01-01T00:00:00Z")
    dated = datetime(2020, 1, 1, tzinfo=UTC)
    assert git_commit_times(vault) == {"café.md": dated, 'say "hi".md': dated}
    assert git_commit_times(repo)["notes/café.md"] == dated
    assert git_commit_times(vault, ["café.md"]) == {"café.md": dated}

    index_vault(vault, embed=False)
    until = open_index(vault).search("espresso machine descaled", k=3, until="2021-01-01")
    assert [r.path for r in until.results] == ["café.md"]
    assert ".memsearch" not in _untracked(repo)
    assert "/notes/.memsearch/" in (repo / ".git" / "info" / "exclude").read_text()


def test_a_vault_in_a_git_worktree_gets_its_index_excluded(tmp_path):

    repo, tree = tmp_path / "repo", tmp_path / "tree"
    repo.mkdir()
    (repo / "note.md").write_text("# Note\n\nA line.\n")
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "one")
    _git(repo, "worktree", "add", "-q", str(tree))
    assert (tree / ".git").is_file()
    index_vault(tree, embed=False)
    assert ".memsearch" not in _untracked(tree)


def test_a_note_swapped_for_a_fifo_while_it_is_read_is_never_waited_on(tmp_path):
    """A FIFO renamed over a note between the scan's stat and its open blocked the open for ever
    (the watcher's and the cron job's scan hung). Races for two seconds: each read must end."""
    import os
    import threading
    import time

    from memsearch.scan import Skipped, VaultFile, read_file

    vault = tmp_path / "vault"
    vault.mkdir()
    note, plain, pipe = vault / "x.md", tmp_path / "plain.md", tmp_path / "pipe.md"
    stop = time.monotonic() + 2.0
    seen: list[object] = []

    def swap() -> None:
        while time.monotonic() < stop:
            plain.write_text("# X\n\nA line.\n")
            os.replace(plain, note)
            os.mkfifo(pipe)
            os.replace(pipe, note)

    def read() -> None:
        while time.monotonic() < stop:
            seen.append(read_file(vault, note, "x.md"))

    threads = [threading.Thread(target=swap, daemon=True), threading.Thread(target=read, daemon=True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not any(thread.is_alive() for thread in threads), "a read waited on a FIFO"
    assert seen and all(isinstance(got, VaultFile | Skipped) for got in seen)
    assert any(isinstance(got, Skipped) and "not a regular file" in got.reason for got in seen)


def test_the_filesystem_root_is_refused_as_a_vault(monkeypatch):
    # `memsearch index /` (or a server started from / with the current folder as its vault) made
    # /.memsearch and walked the whole filesystem, silently.
    import pytest
    from click.testing import CliRunner

    from memsearch.cli import main
    from memsearch.errors import VaultError
    from memsearch.scan import check_vault
    from memsearch.tool import memory_search

    with pytest.raises(VaultError, match="is the filesystem's root"):
        check_vault(Path("/"))
    monkeypatch.chdir("/")
    for args in (["index", "/", "--no-embed"], ["search", "anything"], ["status", "."]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 1 and "filesystem's root" in result.output, (args, result.output)
    answer = memory_search("anything", vault="/")
    assert answer["code"] == "vault_missing" and "filesystem's root" in answer["error"]
    assert not Path("/.memsearch").exists()


def test_dating_by_commits_survives_any_name_in_the_history(tmp_path):
    # A name of bytes other than UTF-8 anywhere in the history (a deleted file's) raised under
    # `git log -z` and every note fell back to its mtime; one opening with \x01 crashed the index.
    import os
    from datetime import UTC, datetime

    from memsearch.scan import git_commit_times

    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "note.md").write_text("# Note\n\nA line.\n")
    odd = [os.fsdecode(os.path.join(os.fsencode(vault), b"bad\xff.md")), str(vault / "\x01x.md")]
    for name in odd:
        Path(name).write_text("x\n")
    _git(vault, "init", "-q")
    _git(vault, "add", ".")
    _git(vault, "commit", "-qm", "one", date="2020-01-01T00:00:00Z")
    for name in odd:
        _git(vault, "rm", "-q", Path(name).name)
    _git(vault, "commit", "-qm", "two", date="2021-01-01T00:00:00Z")
    assert git_commit_times(vault)["note.md"] == datetime(2020, 1, 1, tzinfo=UTC)
    index_vault(vault, embed=False)
    found = open_index(vault).search("a line", k=3, until="2020-06-01").results
    assert [r.path for r in found] == ["note.md"]


def test_a_vault_folder_whose_name_reads_as_a_pattern_gets_its_index_excluded(tmp_path):
    # "notes [work]" read as a character class in .git/info/exclude: the index stayed untracked.
    repo = tmp_path / "repo"
    vault = repo / "notes [work]"
    vault.mkdir(parents=True)
    (vault / "note.md").write_text("# Note\n\nA line.\n")
    _git(repo, "init", "-q")
    index_vault(vault, embed=False)
    assert ".memsearch" not in _untracked(repo)


def test_a_folder_named_like_a_note_leaves_no_file_open(tmp_path):
    # os.open succeeds on a folder, then open() of its descriptor raised and left it open: a
    # watcher that met one at each scan ran out of descriptors.
    import os

    from memsearch.scan import Skipped, read_file

    (tmp_path / "folder.md").mkdir()
    before = len(os.listdir("/proc/self/fd"))
    for _ in range(20):
        got = read_file(tmp_path, tmp_path / "folder.md", "folder.md")
        assert isinstance(got, Skipped) and "not a regular file" in got.reason
    assert len(os.listdir("/proc/self/fd")) <= before


def test_a_note_replaced_by_a_socket_is_no_note_and_its_old_text_is_gone(vault_copy):
    # A socket cannot be opened (ENXIO): it was read as a file unreadable for now, its old text
    # kept and found, pointing at a socket.
    import socket

    (vault_copy / "notes").mkdir(exist_ok=True)
    note = vault_copy / "notes" / "sock.md"
    note.write_text("# Sock\n\nthe word sockoldword\n")
    index_vault(vault_copy, embed=False)
    assert open_index(vault_copy).search("sockoldword", k=1).results[0].path == "notes/sock.md"
    note.unlink()
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        server.bind(str(note))
        report = index_vault(vault_copy, embed=False)
    finally:
        server.close()
    reasons = {s.path: s.reason for s in report.skipped}
    assert "not a regular file" in reasons["notes/sock.md"]
    assert not open_index(vault_copy).search("sockoldword", k=1).results
