"""The CLI: a thin layer with the API's verbs, driven through click's runner and as a real process."""

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from memsearch.cli import main

NOW = "2025-04-01T00:00:00+00:00"


def test_search_json_has_the_documented_shape(indexed_vault):
    result = CliRunner().invoke(
        main,
        [
            "search",
            "sign_ed25519",
            "--vault",
            str(indexed_vault),
            "--format",
            "json",
            "--now",
            NOW,
            "-k",
            "3",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["query"] == "sign_ed25519"
    assert {"ran", "failed", "skipped", "degraded"} <= set(data["health"])
    first = data["results"][0]
    assert {"path", "start_line", "end_line", "score", "territory", "fact_type", "entities"} <= set(first)
    assert first["path"] == "reference/redflag.md"
    assert 1 <= first["start_line"] <= first["end_line"]


def test_files_format_prints_one_anchor_per_line(indexed_vault):
    result = CliRunner().invoke(
        main, ["search", "Berlin", "--vault", str(indexed_vault), "--format", "files"]
    )
    assert result.exit_code == 0
    lines = result.stdout.strip().splitlines()
    assert lines and all(":" in line.split("\t")[0] for line in lines)


def test_explain_table_shows_contributions(indexed_vault):
    result = CliRunner().invoke(
        main,
        ["search", "who rotated the keys", "--vault", str(indexed_vault), "--format", "table", "--explain"],
    )
    assert result.exit_code == 0
    assert "contribution" in result.stdout and "territory weight" in result.stdout


def test_a_query_beside_batch_is_refused_not_dropped(indexed_vault, tmp_path):
    batch = tmp_path / "queries.jsonl"
    batch.write_text(json.dumps({"query": "sign_ed25519"}) + "\n")
    result = CliRunner().invoke(
        main, ["search", "canal walk", "--batch", str(batch), "--vault", str(indexed_vault)]
    )
    assert result.exit_code == 2 and "not both" in result.output and "'canal walk'" in result.output
    # with --batch there is no QUERY: a lone folder where it goes is the VAULT (it was refused,
    # though the README writes `memsearch search ... VAULT`)
    named = CliRunner().invoke(main, ["search", "--batch", str(batch), str(indexed_vault), "--no-server"])
    assert named.exit_code == 0, named.output
    assert json.loads(named.stdout.splitlines()[0])["results"][0]["path"] == "reference/redflag.md"
    # ... unless --vault names another: then it is a query beside the batch
    other = CliRunner().invoke(
        main, ["search", "--batch", str(batch), str(tmp_path), "--vault", str(indexed_vault)]
    )
    assert other.exit_code == 2 and "not both" in other.output


@pytest.mark.parametrize("bad", [["--since", "nope"], ["--territory", "../.."], ["--fact-type", "opinion"]])
def test_a_bad_filter_beside_batch_is_refused_once(indexed_vault, tmp_path, bad):
    # it failed every line with the same error, and the batch exited 0
    batch = tmp_path / "queries.jsonl"
    batch.write_text(json.dumps({"query": "sign_ed25519"}) + "\n" + json.dumps({"query": "canal"}) + "\n")
    result = CliRunner().invoke(main, ["search", "--batch", str(batch), "--vault", str(indexed_vault), *bad])
    assert result.exit_code != 0 and result.stdout == "", result.output


def test_batch_answers_one_line_per_query(indexed_vault, tmp_path):
    batch = tmp_path / "queries.jsonl"
    batch.write_text(
        json.dumps({"id": "a", "query": "sign_ed25519", "k": 2, "now": NOW})
        + "\n"
        + json.dumps({"id": "b", "query": "canal walk", "territory": "journal/"})
        + "\n"
        + json.dumps({"id": "c", "query": ""})
        + "\n"
        + "not json\n"
    )
    result = CliRunner().invoke(
        main, ["search", "--batch", str(batch), "--vault", str(indexed_vault), "--format", "json", "--chunks"]
    )
    assert result.exit_code == 0, result.output
    answers = [json.loads(line) for line in result.stdout.strip().splitlines()]
    assert [a["id"] for a in answers] == ["a", "b", "c", None]
    assert len(answers[0]["results"]) == 2 and answers[0]["results"][0]["path"] == "reference/redflag.md"
    assert all(r["path"].startswith("journal/") for r in answers[1]["results"])
    assert "empty" in answers[2]["error"]
    assert "line 4" in answers[3]["error"]


def test_errors_name_the_argument_and_exit_nonzero(tmp_path):
    runner = CliRunner()
    missing = runner.invoke(main, ["index", str(tmp_path / "nope")])
    assert missing.exit_code == 1 and "does not exist" in missing.stderr
    no_index = runner.invoke(main, ["search", "x", "--vault", str(tmp_path)])
    assert no_index.exit_code == 1 and "memsearch index" in no_index.stderr


def test_a_vault_given_before_the_query_is_named_with_the_order_to_use(indexed_vault, monkeypatch):
    """`memsearch search VAULT QUERY` (the order of `grep`'s cousins the other way round): the words
    are not a folder and the vault is, so the error says which comes first, not that a folder of
    those words does not exist."""
    monkeypatch.chdir(indexed_vault.parent)
    result = CliRunner().invoke(main, ["search", indexed_vault.name, "who rotated the signing keys"])
    assert result.exit_code == 2
    assert "QUERY comes before VAULT" in result.stderr
    assert f"memsearch search 'who rotated the signing keys' {indexed_vault.name}" in result.stderr


def test_a_query_too_long_for_a_file_name_with_a_missing_vault_is_the_missing_vault(tmp_path):
    """The check for a vault given first reads the query as a path: one longer than a file name
    may be is no folder, and the error is the vault's, not a traceback."""
    result = CliRunner().invoke(main, ["search", "a" * 300, str(tmp_path / "nope")])
    assert result.exit_code == 1 and "does not exist" in result.stderr


def test_empty_query_is_a_clear_error(indexed_vault):
    result = CliRunner().invoke(main, ["search", "  ", "--vault", str(indexed_vault)])
    assert result.exit_code == 1 and "empty" in result.stderr


def test_status_reports_where_and_what(indexed_vault):
    result = CliRunner().invoke(main, ["status", "--vault", str(indexed_vault), "--json"])
    assert result.exit_code == 0
    info = json.loads(result.stdout)
    assert info["chunks"] > 0 and info["vectors"] == info["chunks"] and info["gaps"] == 0
    assert info["index_mode"] == "0o700"


def test_installed_command_runs_as_a_process(indexed_vault):
    """The console script a user types, not just the click object."""
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "memsearch.cli",
            "search",
            "Mara Lin",
            "--vault",
            str(indexed_vault),
            "-k",
            "2",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert len(proc.stdout.strip().splitlines()) == 2


def test_search_in_its_own_process_prints_all_and_exits_cleanly(indexed_vault):
    """The console script ends a search with os._exit (no teardown): every line must be out first."""
    # One reference time for both: recency moves scores between two calls a few ms apart.
    args = ["search", "signing keys", "--vault", str(indexed_vault), "--no-server", "--format", "json"]
    args += ["--now", "2026-12-01T00:00:00+00:00"]
    in_process = CliRunner().invoke(main, args)
    done = subprocess.run([sys.executable, "-m", "memsearch.cli", *args], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["results"] == json.loads(in_process.output)["results"]


def test_explain_in_the_default_format_prints_the_explanation(indexed_vault):
    args = ["search", "who rotated the keys", "--vault", str(indexed_vault), "--explain"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0
    first = result.stdout.splitlines()
    assert "\t" in first[0] and any("contribution" in line and "confidence" in line for line in first)
    assert any("shown score" in line and "sum of shown parts" in line for line in first)


def test_explain_says_how_the_query_was_read(indexed_vault):
    """A nickname's other names and a time window are notes: on stderr beside the paths, on stdout in
    the table, in the JSON's health; a name's other names only with --explain (the agent's tool reads
    the notes as warnings)."""
    args = [
        "search",
        "what did RF sign last week",
        "--vault",
        str(indexed_vault),
        "--now",
        NOW,
        "--no-server",
    ]
    files = CliRunner().invoke(main, [*args, "--format", "files", "--explain"])
    assert files.exit_code == 0, files.output
    assert "note: 'rf' also searched as 'redflag'" in files.stderr
    assert "note: time window from the query: 'last week'" in files.stderr
    assert "note:" not in files.stdout
    table = CliRunner().invoke(main, [*args, "--format", "table", "--explain"])
    assert "note: 'rf' also searched as 'redflag'" in table.stdout
    plain = CliRunner().invoke(main, [*args, "--format", "files"])
    assert "note:" not in plain.output
    data = json.loads(CliRunner().invoke(main, [*args, "--format", "json", "--explain"]).stdout)
    assert any("also searched as 'redflag'" in note for note in data["health"]["notes"])
    plain = json.loads(CliRunner().invoke(main, [*args, "--format", "json"]).stdout)
    assert not any("also searched as" in note for note in plain["health"]["notes"])


def test_nothing_resonates_is_said_and_all_shows_the_results(indexed_vault):
    args = ["search", "xylophone quantum banana", "--vault", str(indexed_vault), "--no-server"]
    table = CliRunner().invoke(main, [*args, "--format", "table"])
    assert table.exit_code == 0 and "nothing resonates" in table.stdout
    files = CliRunner().invoke(main, [*args, "--format", "files"])
    assert files.stdout == "" and "nothing resonates" in files.stderr
    shown = CliRunner().invoke(main, [*args, "--format", "json", "--all"])
    data = json.loads(shown.stdout)
    assert data["signal"] == "none" and data["signal_reason"] and data["results"]
    # the table shown anyway says so too (it said nothing of the signal)
    table_all = CliRunner().invoke(main, [*args, "--format", "table", "--all"])
    assert "nothing resonates" in table_all.stdout and data["results"][0]["path"] in table_all.stdout


def test_a_search_the_built_in_indexes_answered_for_the_backend_says_so(vault_copy, tmp_path):
    # A backend behind the index (its push pending, or a write since): the built-in indexes answer,
    # and the files and table formats said nothing of it (only --json and --explain did).
    pytest.importorskip("pymilvus")
    from memsearch.api import index_vault
    from memsearch.index.backend import parse_backend, write_backend

    index_vault(vault_copy, embed=False)
    write_backend(vault_copy / ".memsearch", parse_backend(str(tmp_path / "m.db"), vault_copy))
    for fmt in ("files", "table"):
        result = CliRunner().invoke(
            main, ["search", "signing keys", "--vault", str(vault_copy), "--format", fmt, "--no-server"]
        )
        assert result.exit_code == 0, result.output
        assert "degraded: " in result.stderr and "behind the index" in result.stderr, result.stderr


def test_status_says_a_backend_behind_the_index_is_pending(vault_copy, tmp_path):
    # After a rollback (or any commit the backend missed) searches said "behind the index" while
    # status said nothing was pending.
    pytest.importorskip("pymilvus")
    from memsearch.api import index_vault
    from memsearch.index.backend import parse_backend, write_backend

    index_vault(vault_copy, embed=False)
    write_backend(vault_copy / ".memsearch", parse_backend(str(tmp_path / "m.db"), vault_copy))
    result = CliRunner().invoke(main, ["status", "--vault", str(vault_copy), "--json"])
    assert result.exit_code == 0, result.output
    assert "not the index" in (json.loads(result.output)["backend"]["pending"] or "")
