"""memory_open and `memsearch open`: one hop from a pointer to its lines, never out of the vault."""

import json
import os

import pytest
from click.testing import CliRunner

from memsearch.cli import main
from memsearch.opening import MAX_OPEN_LINES, parse_ref
from memsearch.tool import MemoryTools, memory_open


@pytest.fixture
def tools(vault_copy):
    return MemoryTools(vault_copy)


def _lines(vault, rel, start, end):
    return "\n".join((vault / rel).read_text(encoding="utf-8").splitlines()[start - 1 : end])


def test_parse_ref():
    assert parse_ref("journal/a.md:6-9") == ("journal/a.md", 6, 9)
    assert parse_ref("journal/a.md:6") == ("journal/a.md", 6, 6)
    assert parse_ref("journal/a.md") == ("journal/a.md", None, None)
    assert parse_ref("notes/10:30 call.md") == ("notes/10:30 call.md", None, None)


def test_a_search_result_opens_in_one_hop(indexed_vault):
    tools = MemoryTools(indexed_vault)
    hit = tools.memory_search("sign_ed25519()", k=1)["results"][0]
    opened = tools.memory_open(hit["ref"])
    assert opened["ok"] and opened["path"] == hit["path"]
    assert (opened["start_line"], opened["end_line"]) == (hit["start_line"], hit["end_line"])
    assert opened["text"] == _lines(indexed_vault, hit["path"], hit["start_line"], hit["end_line"])
    assert "def sign_ed25519" in opened["text"]
    assert opened["truncated"] is False and opened["next"] is None


def test_line_arguments_and_whole_file(tools, vault_copy):
    rel = "journal/2025-03-11.md"
    total = len((vault_copy / rel).read_text().splitlines())
    by_args = tools.memory_open(rel, start_line=6, end_line=7)
    assert by_args["text"] == _lines(vault_copy, rel, 6, 7)
    assert tools.memory_open(rel, start_line="6", end_line="7")["text"] == by_args["text"]
    single = tools.memory_open(f"{rel}:6")
    assert single["text"] == _lines(vault_copy, rel, 6, 6)
    whole = tools.memory_open(rel)
    assert whole["start_line"] == 1 and whole["end_line"] == whole["total_lines"] == total
    past_end = tools.memory_open(f"{rel}:15-999")
    assert past_end["ok"] and past_end["end_line"] == total and past_end["warnings"]


def test_long_ranges_are_bounded_and_say_where_to_continue(tools, vault_copy):
    (vault_copy / "archive" / "long.md").write_text("".join(f"line {i}\n" for i in range(1, 1001)))
    first = tools.memory_open("archive/long.md")
    assert first["truncated"] and first["end_line"] == MAX_OPEN_LINES
    assert first["next"] == f"archive/long.md:{MAX_OPEN_LINES + 1}-1000"
    second = tools.memory_open(first["next"])
    assert second["text"].splitlines()[0] == f"line {MAX_OPEN_LINES + 1}"
    (vault_copy / "archive" / "wide.md").write_text("x" * 100_000 + "\nshort\n")
    wide = tools.memory_open("archive/wide.md")
    assert wide["truncated"] and len(wide["text"]) <= 16_000


@pytest.mark.parametrize(
    "path",
    [
        "../secret.md",
        "journal/../../secret.md",
        "/etc/passwd",
        "~/.ssh/id_ed25519",
        "C:\\Windows\\win.ini",
        ".memsearch/index/manifest.json",
        ".git/config",
        "memsearch.toml",
        "journal/\x00.md",
        "a" * 5000 + ".md",
    ],
)
def test_paths_outside_the_vault_are_refused(tools, path):
    answer = tools.memory_open(path)
    json.dumps(answer)
    assert answer["ok"] is False and answer["code"] == "path_refused"
    assert answer["error"].startswith("refused") and answer["text"] == ""


def test_symlinks_out_of_the_vault_are_refused(tools, vault_copy, tmp_path):
    secret = tmp_path / "outside.md"
    secret.write_text("the outside world\n")
    os.symlink(secret, vault_copy / "journal" / "escape.md")
    os.symlink(tmp_path, vault_copy / "linked-dir")
    for path in ("journal/escape.md", "linked-dir/outside.md"):
        answer = tools.memory_open(path)
        assert answer["code"] == "path_refused" and "outside" in answer["error"], path
    os.symlink(vault_copy / "inbox.md", vault_copy / "journal" / "inside.md")
    assert tools.memory_open("journal/inside.md")["ok"]  # a link that stays inside is fine


def test_missing_file_suggests_close_paths(tools):
    answer = tools.memory_open("journal/2025-03-12.md")
    assert answer["code"] == "not_found" and "journal/2025-03-11.md" in answer["error"]


def test_a_fifo_or_a_folder_named_like_a_note_is_refused_for_what_it_is(tools, vault_copy):
    """There, but no memory: said as such, never "no file ...; did you mean <the same name>?"."""
    os.mkfifo(vault_copy / "fifo.md")
    (vault_copy / "folder.md").mkdir()
    for rel, kind in (("fifo.md", "not a regular file"), ("folder.md", "a folder")):
        answer = tools.memory_open(rel)
        assert answer["code"] == "path_refused" and kind in answer["error"], answer
        assert "did you mean" not in answer["error"]


@pytest.mark.parametrize(
    "arguments",
    [
        {},
        {"path": 7},
        {"path": "journal/2025-03-11.md", "start_line": "six"},
        {"path": "journal/2025-03-11.md", "start_line": 0},
        {"path": "journal/2025-03-11.md", "start_line": 9, "end_line": 3},
        {"path": "journal/2025-03-11.md:500-510"},
    ],
)
def test_bad_open_arguments(tools, arguments):
    answer = tools.call("memory_open", arguments)
    assert answer["ok"] is False and answer["code"] == "bad_argument" and answer["message"]


@pytest.mark.parametrize(
    ("ref", "said"),
    [
        # ":0" said "end_line: 0 is before start_line 1", which the caller never gave
        ("journal/2025-03-11.md:0", "lines are numbered from 1, not 0"),
        ("journal/2025-03-11.md:0-0", "lines are numbered from 1, not 0"),
        # these were refused as "not a markdown memory (.md)"
        ("journal/2025-03-11.md:-3", "names lines as '-3'"),
        ("journal/2025-03-11.md:x", "names lines as 'x'"),
        ("journal/2025-03-11.md:1-", "names lines as '1-'"),
        ("journal/2025-03-11.md:", "names lines as ''"),
    ],
)
def test_a_bad_line_range_is_named_as_one(tools, ref, said):
    answer = tools.memory_open(ref)
    assert answer["code"] == "bad_argument" and said in answer["error"], answer


def test_a_changed_file_warns_that_anchors_may_have_shifted(vault_copy):
    from memsearch.api import index_vault

    index_vault(vault_copy, embed=False)
    tools = MemoryTools(vault_copy)
    tools.memory_search("keys")  # loads the index (and its manifest)
    path = vault_copy / "journal" / "2025-03-11.md"
    path.write_text("new first line\n" + path.read_text())
    answer = tools.memory_open("journal/2025-03-11.md:6-9")
    assert answer["ok"] and any("changed since the index" in w for w in answer["warnings"])
    # what to do: search again (it told an agent that had reported the write with update_file to
    # wait for `memsearch index`)
    assert any("search again for the current ones" in w for w in answer["warnings"]), answer


def test_cli_open_of_a_changed_file_warns_without_a_search_first(vault_copy):
    """`memsearch open` loads no index, yet reads the file's indexed hash from the one on disk:
    a stale anchor's shifted lines come with the warning, an unchanged file's without."""
    from memsearch.api import index_vault

    index_vault(vault_copy, embed=False)
    rel = "journal/2025-03-11.md"
    unchanged = CliRunner().invoke(main, ["open", f"{rel}:6-9", "--vault", str(vault_copy)])
    assert unchanged.exit_code == 0 and "changed since the index" not in unchanged.stderr
    path = vault_copy / rel
    path.write_text("new first line\n" + path.read_text())
    result = CliRunner().invoke(main, ["open", f"{rel}:6-9", "--vault", str(vault_copy)])
    assert result.exit_code == 0 and "changed since the index" in result.stderr
    assert any("changed since the index" in w for w in MemoryTools(vault_copy).memory_open(rel)["warnings"])


def test_module_function(vault_copy):
    answer = memory_open("inbox.md:1", vault=vault_copy)
    assert answer["text"] == "# Inbox"


def test_cli_open_prints_the_lines(vault_copy):
    rel = "journal/2025-03-11.md"
    result = CliRunner().invoke(main, ["open", f"{rel}:6-7", "--vault", str(vault_copy)])
    assert result.exit_code == 0, result.output
    assert result.stdout == _lines(vault_copy, rel, 6, 7) + "\n"
    as_json = CliRunner().invoke(main, ["open", rel, "--vault", str(vault_copy), "--json"])
    assert json.loads(as_json.stdout)["total_lines"] == len((vault_copy / rel).read_text().splitlines())


def test_cli_open_refuses_with_a_message_and_exit_1(vault_copy):
    result = CliRunner().invoke(main, ["open", "../../etc/passwd", "--vault", str(vault_copy)])
    assert result.exit_code == 1
    assert "refused" in result.stderr and result.stdout == ""


def test_cli_open_says_where_to_continue(vault_copy):
    (vault_copy / "archive" / "long.md").write_text("".join(f"line {i}\n" for i in range(1, 1001)))
    result = CliRunner().invoke(main, ["open", "archive/long.md", "--vault", str(vault_copy)])
    assert result.exit_code == 0
    assert "archive/long.md:201-1000" in result.stderr


def test_a_notebook_result_opens_and_other_yaml_is_refused(tmp_path):
    from notebook_fixture import write_notebook

    from memsearch.api import index_vault

    vault = tmp_path / "vault"
    write_notebook(vault / "notebook")
    (vault / "config.yaml").write_text("secret: 1\n")
    index_vault(vault, embed=False)
    tools = MemoryTools(vault)
    hit = tools.memory_search("grinding noise", k=1)["results"][0]
    assert hit["path"].startswith("notebook/sessions/s-beta/moments/")
    opened = tools.memory_open(hit["ref"])
    assert opened["ok"] and opened["text"] == _lines(vault, hit["path"], hit["start_line"], hit["end_line"])
    assert "grinding" in opened["text"]
    assert tools.memory_open("notebook/sessions/s-beta.yaml:1-3")["ok"]
    for other in ("config.yaml", "notebook/index.yaml"):
        refused = tools.memory_open(other)
        assert refused["ok"] is False and refused["code"] == "path_refused"


def test_a_name_with_its_own_space_or_backslash_opens_as_it_is_found(vault_copy):
    # Found by search but not opened: the ref was stripped (" lead.md" -> "lead.md") and a
    # backslash taken for a folder's ("back\slash.md" -> back/slash.md). A Windows-style ref to a
    # note in a folder, and a ref with an agent's stray spaces, still open.
    (vault_copy / " lead.md").write_text("# Lead\nleading space giraffe\n")
    (vault_copy / "back\\slash.md").write_text("# Back\nbackslash okapi\n")
    for ref, line in ((" lead.md:2", "leading space giraffe"), ("back\\slash.md:2", "backslash okapi")):
        answer = memory_open(ref, vault=vault_copy)
        assert answer["ok"] and answer["text"] == line, (ref, answer)
        result = CliRunner().invoke(main, ["open", ref, "--vault", str(vault_copy)])
        assert result.exit_code == 0 and result.stdout == line + "\n", (ref, result.output)
    assert memory_open("journal\\2025-03-11.md:1", vault=vault_copy)["ok"]
    assert memory_open("  inbox.md:1 ", vault=vault_copy)["text"] == "# Inbox"


def test_refs_that_only_look_like_bad_ranges_open_or_say_not_found(vault_copy):
    # "a.md:b.md" is a name a file may have; a Windows-style ref whose names are long asked the
    # file system for one name over 255 bytes (internal_error); a missing file with a stray space
    # was answered as a bad line range.
    (vault_copy / "a.md:b.md").write_text("# Colon\ncolon name\n")
    assert memory_open("a.md:b.md", vault=vault_copy)["text"] == "# Colon\ncolon name"
    folder = vault_copy / ("d" * 120)
    folder.mkdir()
    (folder / ("f" * 140 + ".md")).write_text("# Long\nlong names\n")
    answer = memory_open("d" * 120 + "\\" + "f" * 140 + ".md:2", vault=vault_copy)
    assert answer["ok"] and answer["text"] == "long names", answer
    assert memory_open("nosuch.md:1 ", vault=vault_copy)["code"] == "not_found"
