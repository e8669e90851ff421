"""One surface (issue 15, item 5): --format in --batch, "no results" said with the filter's reason,
a territory outside the vault refused, memory_search's now/at and the commit it answered from,
memory_open's ref, and .memsearch/ excluded from a git vault."""

from __future__ import annotations

import json
import shutil
import subprocess

from click.testing import CliRunner

from memsearch.api import index_vault, log
from memsearch.cli import main
from memsearch.tool import MEMORY_OPEN_SCHEMA, MEMORY_SEARCH_SCHEMA, MemoryTools

NOW = "2025-04-01T00:00:00+00:00"


def _search(vault, *args: str):
    return CliRunner().invoke(main, ["search", *args, "--vault", str(vault), "--now", NOW, "--no-server"])


def test_batch_honours_the_format(indexed_vault, tmp_path):
    batch = tmp_path / "b.jsonl"
    batch.write_text(json.dumps({"id": "a", "query": "signing keys"}) + "\n")
    files = _search(indexed_vault, "--batch", str(batch), "--format", "files")
    assert files.exit_code == 0, files.output
    assert not files.stdout.lstrip().startswith("{")
    assert ".md:" in files.stdout
    table = _search(indexed_vault, "--batch", str(batch), "--format", "table")
    assert " 1. " in table.stdout and not table.stdout.lstrip().startswith("{")
    as_json = _search(indexed_vault, "--batch", str(batch), "--format", "json")
    assert json.loads(as_json.stdout.splitlines()[0])["id"] == "a"


def test_batch_errors_follow_the_format_and_a_deeply_nested_line_is_one_lines_error(indexed_vault, tmp_path):
    """A line that is not JSON (here 100,000 '[': json's parser recurses once per bracket) or that
    holds a bad field is that line's error, named once, in the format asked for; the later lines
    are answered."""
    batch = tmp_path / "b.jsonl"
    lines = [
        "[" * 100_000,
        json.dumps({"query": "signing keys", "k": "five"}),
        json.dumps({"query": "ed25519"}),
    ]
    batch.write_text("\n".join(lines) + "\n")
    as_json = _search(indexed_vault, "--batch", str(batch))
    assert as_json.exit_code == 0, as_json.output
    answers = [json.loads(line) for line in as_json.stdout.splitlines()]
    assert answers[0]["error"] == "line 1: not a JSON object (nested too deeply)"
    assert answers[1]["error"].startswith("line 2: k must be") and answers[2]["results"]
    for fmt in ("files", "table"):
        got = _search(indexed_vault, "--batch", str(batch), "--format", fmt)
        assert got.exit_code == 0 and "{" not in got.stdout, got.stdout
        assert got.stdout.count("# line") == 3 and ".md:" in got.stdout
        errors = got.stderr.splitlines()
        assert errors[0] == "line 1: not a JSON object (nested too deeply)", errors
        assert errors[1].startswith("line 2: k must be") and "line 2: line 2" not in got.stderr


def test_no_results_is_said_with_the_filters_reason(indexed_vault):
    got = _search(
        indexed_vault, "signing keys", "--format", "files", "--since", "2025-03-01", "--until", "2024-01-01"
    )
    assert got.exit_code == 0 and got.stdout == ""
    assert "no results" in got.stderr and "later than" in got.stderr
    got = _search(indexed_vault, "signing keys", "--format", "files", "--territory", "nosuch/")
    assert "no results" in got.stderr and "nosuch/" in got.stderr
    table = _search(indexed_vault, "signing keys", "--format", "table", "--territory", "nosuch/")
    assert "no results" in table.stdout and "nosuch/" in table.stdout
    as_json = json.loads(
        _search(indexed_vault, "signing keys", "--format", "json", "--territory", "nosuch/").stdout
    )
    assert as_json["results"] == [] and "nosuch/" in as_json["signal_reason"]
    # A window after every memory: the reason names it and where the memories are.
    got = _search(indexed_vault, "signing keys", "--format", "files", "--since", "2030-01-01")
    assert "no memory is dated from 2030-01-01" in got.stderr and "memories run from" in got.stderr
    told = MemoryTools(indexed_vault).call("memory_search", {"query": "signing keys", "since": "2030-01-01"})
    assert told["status"] == "no_results" and told["message"].count("no results") == 1, told["message"]
    for outside in ("../..", "/etc", "journal/../../x"):
        refused = _search(indexed_vault, "signing keys", "--territory", outside)
        assert refused.exit_code == 1 and "outside the vault" in refused.output, (outside, refused.output)


def test_memory_search_takes_now_and_at_and_names_its_commit(vault_copy):
    index_vault(vault_copy)
    (vault_copy / "journal" / "late.md").write_text("# Late\n\nThe zeppelin hangar lease was signed.\n")
    index_vault(vault_copy)
    assert {"now", "at"} <= set(MEMORY_SEARCH_SCHEMA["properties"])
    tools = MemoryTools(vault_copy)
    head, before = log(vault_copy)[0]["commit"], log(vault_copy)[1]["commit"]
    now_answer = tools.call("memory_search", {"query": "zeppelin hangar lease", "now": NOW})
    assert now_answer["ok"] and now_answer["commit"] == head and not now_answer["warnings"], now_answer
    assert any(r["path"] == "journal/late.md" for r in now_answer["results"])
    old = tools.call("memory_search", {"query": "zeppelin hangar lease", "at": before[:12]})
    assert old["ok"] and old["commit"] == before, old
    assert not any(r["path"] == "journal/late.md" for r in old["results"])
    bad = tools.call("memory_search", {"query": "x", "at": "nosuchrev"})
    assert not bad["ok"] and bad["code"] == "bad_argument" and "nosuchrev" in bad["message"]


def test_memory_open_takes_ref(indexed_vault):
    assert "ref" in MEMORY_OPEN_SCHEMA["properties"]
    tools = MemoryTools(indexed_vault)
    ref = tools.call("memory_search", {"query": "signing keys"})["results"][0]["ref"]
    by_ref = tools.call("memory_open", {"ref": ref})
    assert by_ref["ok"] and by_ref["text"] and not by_ref["warnings"], by_ref
    assert by_ref["text"] == tools.call("memory_open", {"path": ref})["text"]


def test_a_git_vault_gets_the_index_folder_excluded(vault_copy):
    shutil.rmtree(vault_copy / ".memsearch", ignore_errors=True)
    subprocess.run(["git", "init", "-q", str(vault_copy)], check=True)
    index_vault(vault_copy)
    status = subprocess.run(
        ["git", "-C", str(vault_copy), "status", "--porcelain", "--untracked-files=all"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert ".memsearch" not in status.stdout
    exclude = (vault_copy / ".git" / "info" / "exclude").read_text()
    assert "/.memsearch/" in exclude
    index_vault(vault_copy)
    assert (vault_copy / ".git" / "info" / "exclude").read_text().count("/.memsearch/") == 1
