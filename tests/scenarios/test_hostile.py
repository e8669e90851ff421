"""What a hostile (or just unlucky) vault can hold: every file is indexed or skipped with its name
and a reason, in bounded memory, and no file fails a run or a search."""

import json
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from memsearch.cli import main
from memsearch.errors import ConfigError

LONG = 300_000


def _keyword_terms(vault: Path) -> np.ndarray:
    (snapshot,) = sorted((vault / ".memsearch" / "cache" / "snapshots").rglob("keyword.npz"))
    with np.load(snapshot, allow_pickle=False) as data:
        return data["terms"]


def test_one_unbroken_300k_token_neither_blows_up_the_index_nor_fails_a_search(vault_copy):
    # keyword.npz stored its terms as fixed-width strings: one 300,000-character token made every
    # term that wide (370 MB for the 12-file fixture vault, 30 GiB and a MemoryError for a real one).
    from memsearch.api import Memsearch, index_vault
    from memsearch.tokenize import MAX_TOKEN_CHARS

    (vault_copy / "big.md").write_text(
        "# Big\n\n"
        + "x" * LONG
        + "\n\nsee #"
        + "t" * LONG
        + " and [["
        + "W" * LONG
        + "]] and we met Q"
        + "q" * LONG
        + " today\n"
    )
    index_vault(vault_copy)
    terms = _keyword_terms(vault_copy)
    assert terms.dtype.itemsize <= 4 * MAX_TOKEN_CHARS
    assert max(map(len, terms.tolist())) == MAX_TOKEN_CHARS

    with Memsearch(vault_copy) as ms:
        # A query names the token as written: it is cut the same way and meets it.
        hits = ms.search("x" * 1000, k=3, strategies=["keyword"]).results
        assert hits and hits[0].path == "big.md"
        entities = {e for r in ms.search("met today", k=20).results for e in r.entities}
        assert all(len(e) <= 100 for e in entities)
        assert ms.status()["chunks"] > 0

    for args in (["status", "--vault", str(vault_copy)], ["reindex", str(vault_copy)]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, (args, result.output)
    assert _keyword_terms(vault_copy).dtype.itemsize <= 4 * MAX_TOKEN_CHARS


def _hostile_names(vault: Path) -> dict[str, str]:
    """Symlink shapes and a file name that is not UTF-8: {name as reported: what its reason says}."""
    (vault / "loop.md").symlink_to("loop.md")
    (vault / "a.md").symlink_to("b.md")
    (vault / "b.md").symlink_to("a.md")
    (vault / "dangling.md").symlink_to("nothere.md")
    bad = os.path.join(os.fsencode(vault), b"bad\xff.md")
    with open(bad, "wb") as fh:
        fh.write(b"# Bad name\n\nquetzal bytes\n")
    return {
        "loop.md": "symlink loop",
        "a.md": "symlink loop",
        "b.md": "symlink loop",
        "dangling.md": "dangling symlink",
        "bad\\xff.md": "not UTF-8",
    }


def test_symlink_loops_dangling_links_and_non_utf8_names_are_skipped_with_a_reason(vault_copy):
    from memsearch.api import index_vault

    expected = _hostile_names(vault_copy)
    for _ in range(2):  # a first build, then an incremental run over the same vault
        report = index_vault(vault_copy)
        reasons = {s.path: s.reason for s in report.skipped}
        for name, why in expected.items():
            assert why in reasons.get(name, ""), (name, reasons)
        assert report.files >= 12  # everything else was indexed
    # An update naming the files (as watch and `index --paths` do) skips them the same way.
    report = index_vault(vault_copy, paths=["loop.md", "a.md", "dangling.md", "inbox.md"])
    assert {"loop.md", "a.md", "dangling.md"} <= {s.path for s in report.skipped}


def test_the_cli_names_each_skipped_file_and_every_verb_exits_0(vault_copy):
    expected = _hostile_names(vault_copy)
    runner = CliRunner()
    for args in (
        ["index", str(vault_copy)],
        ["index", str(vault_copy)],
        ["reindex", str(vault_copy)],
        ["status", "--vault", str(vault_copy)],
        ["search", "quetzal", "--vault", str(vault_copy), "--no-server"],
    ):
        result = runner.invoke(main, args)
        assert result.exit_code == 0, (args, result.output)
        if args[0] in ("index", "status"):  # reindex, the cron verb, is quiet when nothing changed
            for name, why in expected.items():
                assert any(name in line and why in line for line in result.output.splitlines()), (
                    args,
                    name,
                    result.output,
                )


SECRET = "API_KEY=sk-quillonsecret42"


def _secret_links(vault: Path) -> list[str]:
    """Links a vault may hold to what is not memory; the names of those that must not be followed."""
    (vault / ".env").write_text(SECRET + "\n")
    (vault / ".git").mkdir()
    (vault / ".git" / "config").write_text(f"[remote]\n\ttoken = {SECRET}\n")
    (vault / ".private").mkdir()
    (vault / ".private" / "diary.md").write_text(f"# Diary\n\n{SECRET}\n")
    (vault / "node_modules").mkdir()
    (vault / "node_modules" / "pkg.md").write_text(f"# Pkg\n\n{SECRET}\n")
    (vault / "settings.toml").write_text(f"key = '{SECRET}'\n")
    (vault / "sub").mkdir()
    links = {
        "env.md": ".env",
        "gitconfig.md": ".git/config",
        "diary.md": ".private/diary.md",
        "pkg.md": "node_modules/pkg.md",
        "settings.md": "settings.toml",
        "sub/chained.md": "../env.md",  # a link to a link to .env
        "index.md": ".memsearch/repo/manifest.json",
    }
    for name, target in links.items():
        (vault / name).symlink_to(target)
    (vault / "sub" / "ok.md").symlink_to("../inbox.md")  # a markdown memory in the vault: followed
    return list(links)


def test_a_symlink_is_followed_only_to_a_markdown_memory_inside_the_vault(vault_copy):
    from memsearch.api import Memsearch, index_vault

    refused = _secret_links(vault_copy)
    index_vault(vault_copy)
    report = index_vault(vault_copy)  # the second run sees the index folder a link points into
    reasons = {s.path: s.reason for s in report.skipped}
    for name in refused:
        assert "not followed" in reasons.get(name, ""), (name, reasons)
    with Memsearch(vault_copy) as ms:
        assert not ms.search("quillonsecret42", k=20, strategies=["keyword"]).results
        assert "sub/ok.md" in ms.index.manifest["files"]
    # Nothing the index wrote holds the secret (git objects are compressed: git reads them).
    for path in (vault_copy / ".memsearch").rglob("*"):
        if path.is_file() and "objects" not in path.parts:
            assert b"quillonsecret42" not in path.read_bytes(), path
    repo = str(vault_copy / ".memsearch" / "repo")
    revs = subprocess.run(["git", "-C", repo, "rev-list", "--all"], capture_output=True, text=True).stdout
    grep = subprocess.run(
        ["git", "-C", repo, "grep", "-c", "quillonsecret42", *revs.split()], capture_output=True
    )
    assert revs.split() and grep.returncode == 1 and grep.stdout == b"", grep


def test_memory_open_refuses_what_the_index_would_not_follow(vault_copy):
    from memsearch.tool import MemoryTools

    refused = _secret_links(vault_copy)
    (vault_copy / "self.md").symlink_to("self.md")
    tools = MemoryTools(vault_copy)
    for name in [*refused, "self.md"]:
        answer = tools.memory_open(name)
        assert not answer["ok"] and answer["code"] == "path_refused", (name, answer)
        assert "quillonsecret42" not in json.dumps(answer), name
    assert tools.memory_open("sub/ok.md")["ok"]


def test_a_vault_folder_and_an_embedder_name_with_a_non_utf8_byte_are_indexed_and_searched(
    tmp_path, monkeypatch
):
    """Python reads a non-UTF-8 byte of argv or a path as a surrogate escape; the manifest and the
    snapshot hold such names as JSON escapes (writing them as UTF-8 raised UnicodeEncodeError)."""
    import shutil

    from conftest import FIXTURE_VAULT

    from memsearch.api import index_vault, open_index

    vault = Path(os.fsdecode(os.path.join(os.fsencode(tmp_path), b"vault\xff")))
    shutil.copytree(FIXTURE_VAULT, vault)
    first = index_vault(vault)
    assert first.files >= 12 and not first.skipped
    # An embedder name no backend has, from the environment, keeps the index's own (the soft
    # seam), and says so; named outright, it is refused, and the message holds the name escaped.
    with pytest.raises(ConfigError, match=r"unknown embedder 'bad\\udcffname'"):
        index_vault(vault, embedder="bad\udcffname")
    monkeypatch.setenv("MEMSEARCH_EMBEDDER", "bad\udcffname")
    kept = index_vault(vault)
    assert kept.embedder == first.embedder and "did not switch" in kept.embedder_note
    response = open_index(vault).search("signing keys", k=3)
    assert response.results and "semantic" in response.health.ran


def test_a_date_at_the_edge_of_the_calendar_fails_no_search(vault_copy):
    # In UTC, 9999-12-31T23:00-12:00 is in the year 10000: a note dated so was indexed, then every
    # yearless question and every --until that matched nothing raised; so did --until 9999-12-31.
    far = "---\ndate: 9999-12-31T23:00:00-12:00\n---\n# Far\nthe standup notes\n"
    (vault_copy / "far.md").write_text(far)
    result = CliRunner().invoke(main, ["index", str(vault_copy)])
    assert result.exit_code == 0, result.output
    assert "far.md: frontmatter `date` '9999-12-31T23:00:00-12:00' is not a date" in result.output
    for extra in (
        ["standup on March 3"],
        ["standup", "--until", "2020-01-01"],
        ["standup", "--until", "9999-12-31"],
        ["standup", "--since", "9999-12-31T23:59:59-12:00"],
        ["standup", "--since", "0001-01-01T00:00:00+14:00"],
    ):
        result = CliRunner().invoke(main, ["search", *extra, "--vault", str(vault_copy), "--format", "json"])
        assert result.exit_code == 0, (extra, result.output)
        assert "signal" in json.loads(result.output), extra


def _as_a_user(args: list[str]) -> subprocess.CompletedProcess:
    """``memsearch ARGS`` in a process that file permissions bind: root's are dropped (setpriv)."""
    import shutil
    import sys

    import pytest

    command = [sys.executable, "-m", "memsearch.cli", *args] if args[0] != "-c" else [sys.executable, *args]
    if os.geteuid() == 0:
        drop = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search", "--"]
        if shutil.which("setpriv") is None or subprocess.run([*drop, "true"], capture_output=True).returncode:
            pytest.skip("running as root, and setpriv cannot drop the override: permissions cannot bind")
        command = [*drop, *command]
    return subprocess.run(command, capture_output=True, text=True, timeout=300)


def test_a_file_or_folder_the_system_will_not_read_keeps_what_the_index_holds(vault_copy):
    # Made unreadable (a permission, an I/O error), a file indexed before was removed from the index
    # with "cannot read", and a folder vanished from it without a word: nothing said its files were
    # gone. Nothing indexed is lost: both are named, and their memories are still found.
    from memsearch.api import Memsearch, index_vault

    index_vault(vault_copy)
    locked = [vault_copy / "reference" / "redflag.md", vault_copy / "reference" / "people"]
    for path in locked:
        path.chmod(0)
    try:
        done = _as_a_user(["index", str(vault_copy)])
    finally:
        locked[0].chmod(0o644)
        locked[1].chmod(0o755)
    assert done.returncode == 0, done.stderr
    said = done.stdout + done.stderr
    assert "reference/redflag.md: cannot read: Permission denied; what the index holds of it is kept" in said
    assert (
        "reference/people/: cannot read this folder: Permission denied; what the index holds of its 1" in said
    )
    assert "-0 files" in said and "Traceback" not in said
    with Memsearch(vault_copy) as ms:
        assert {"reference/redflag.md", "reference/people/ed-kowalski.md"} <= set(ms.index.manifest["files"])
        for query, path in (
            ("redflag", "reference/redflag.md"),
            ("Ed Kowalski", "reference/people/ed-kowalski.md"),
        ):
            assert path in {r.path for r in ms.search(query, k=5).results}, query


def test_a_full_rebuild_says_it_could_not_keep_what_it_cannot_read(vault_copy):
    # A changed memsearch.toml rebuilds the index from nothing: a file it cannot read then leaves
    # the index, and the run must say so (it said "kept" while the file was gone).
    from memsearch.api import Memsearch, index_vault

    index_vault(vault_copy)
    (vault_copy / "memsearch.toml").write_text('[[territory]]\nprefix = "projects/"\nweight = 1.1\n')
    locked = vault_copy / "reference" / "redflag.md"
    locked.chmod(0)
    try:
        done = _as_a_user(["index", str(vault_copy)])
    finally:
        locked.chmod(0o644)
    assert done.returncode == 0, done.stderr
    said = done.stdout + done.stderr
    assert "redflag.md: cannot read: Permission denied; this full rebuild could not keep" in said, said
    with Memsearch(vault_copy) as ms:
        assert "reference/redflag.md" not in ms.index.manifest["files"]


def test_a_locked_folder_fails_no_run_of_named_paths_nor_hides_the_vault(vault_copy):
    # `watch` indexes the paths it saw change: a file under a folder it may not enter raised
    # PermissionError from is_file() and ended it. A vault the system will not list emptied the index.
    index_vault_code = (
        "import sys; from memsearch.api import index_vault; "
        "r = index_vault(sys.argv[1], paths=sys.argv[2:] or None, embed=False); "
        "print(sorted(s.path + ': ' + s.reason for s in r.skipped)); print(r.removed)"
    )
    from memsearch.api import Memsearch, index_vault

    index_vault(vault_copy, embed=False)
    people = vault_copy / "reference" / "people"
    people.chmod(0)
    try:
        done = _as_a_user(["-c", index_vault_code, str(vault_copy), "reference/people/ed-kowalski.md"])
    finally:
        people.chmod(0o755)
    assert done.returncode == 0, done.stderr
    assert (
        "reference/people/ed-kowalski.md: cannot read: Permission denied; what the index holds" in done.stdout
    )
    vault_copy.chmod(0o311)  # enter, not list
    try:
        done = _as_a_user(["-c", index_vault_code, str(vault_copy)])
    finally:
        vault_copy.chmod(0o755)
    assert done.returncode == 0, done.stderr
    assert "./: cannot read this folder: Permission denied; what the index holds of its" in done.stdout
    with Memsearch(vault_copy) as ms:
        assert "reference/people/ed-kowalski.md" in ms.index.manifest["files"]
        assert len(ms.index.manifest["files"]) >= 12


def test_forgetting_a_folder_the_scan_could_not_read_is_refused_as_naming_nothing(vault_copy):
    # Its "priv/" skip entry was taken for a forgotten file: the forget said it forgot 0 files, and
    # once the folder was readable again its notes were indexed and found.
    (vault_copy / "priv").mkdir()
    (vault_copy / "priv" / "s.md").write_text("# Secret\nsecret diary\n")
    (vault_copy / "priv").chmod(0)
    try:
        done = _as_a_user(["index", str(vault_copy), "--no-embed"])
    finally:
        (vault_copy / "priv").chmod(0o755)
    assert done.returncode == 0 and "priv/: cannot read this folder" in done.stdout + done.stderr
    result = CliRunner().invoke(main, ["forget", "priv", "--vault", str(vault_copy)])
    assert result.exit_code != 0 and "found nothing to forget" in result.output, result.output
