"""The options every verb shares (issue 14, item 4): the vault as [VAULT], --vault or $MEMSEARCH_VAULT
alike on every verb, --index-dir, and --json."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from memsearch.cli import main

NOW = "2025-04-01T00:00:00+00:00"
#: The verbs that take the vault as a positional VAULT too: those whose only subject is the vault,
#: and those with one subject before it (`search QUERY VAULT`, `open REF VAULT`, `rollback REV VAULT`).
VAULT_VERBS = (
    "index",
    "reindex",
    "watch",
    "status",
    "log",
    "doctor",
    "serve",
    "mcp",
    "interests",
    "search",
    "open",
    "rollback",
)


def test_every_verb_takes_the_vault_the_same_way():
    for name, command in main.commands.items():
        params = {p.name: p for p in command.params}
        vault = params["vault"]
        assert vault.opts == ["--vault"] and vault.envvar == "MEMSEARCH_VAULT", name
        assert ("vault_argument" in params) == (name in VAULT_VERBS), name
        if name != "open":  # open reads the vault's files only
            assert params["index_dir"].opts == ["--index-dir"], name


def test_status_and_log_take_a_positional_vault(indexed_vault):
    runner = CliRunner()
    by_option = runner.invoke(main, ["status", "--vault", str(indexed_vault), "--json"])
    by_argument = runner.invoke(main, ["status", str(indexed_vault), "--json"])
    assert by_argument.exit_code == 0, by_argument.output
    assert json.loads(by_argument.stdout) == json.loads(by_option.stdout)
    log = runner.invoke(main, ["log", str(indexed_vault), "-n", "1"])
    assert log.exit_code == 0 and len(log.stdout.splitlines()) == 1, log.output


def test_search_and_open_take_the_vault_after_their_subject(indexed_vault):
    # `memsearch search x vault` was "Got unexpected extra argument" (issue 15, a first hour).
    runner = CliRunner()
    found = runner.invoke(
        main, ["search", "sign_ed25519", str(indexed_vault), "--now", NOW, "--no-server", "--json"]
    )
    assert found.exit_code == 0, found.output
    hit = json.loads(found.stdout)["results"][0]
    assert hit["path"] == "reference/redflag.md"
    ref = f"{hit['path']}:{hit['start_line']}-{hit['end_line']}"
    opened = runner.invoke(main, ["open", ref, str(indexed_vault)])
    assert opened.exit_code == 0 and "sign_ed25519" in opened.stdout, opened.output


def test_the_vault_from_the_environment(indexed_vault, monkeypatch):
    monkeypatch.setenv("MEMSEARCH_VAULT", str(indexed_vault))
    status = CliRunner().invoke(main, ["status", "--json"])
    assert status.exit_code == 0, status.output
    assert json.loads(status.stdout)["vault"] == str(indexed_vault.resolve())
    found = CliRunner().invoke(main, ["search", "sign_ed25519", "--now", NOW, "--no-server", "--json"])
    assert found.exit_code == 0 and json.loads(found.stdout)["results"], found.output


def test_index_takes_the_vault_as_vault_option_or_environment(vault_copy, monkeypatch):
    runner = CliRunner()
    by_option = runner.invoke(main, ["index", "--vault", str(vault_copy), "--no-embed", "--json"])
    assert by_option.exit_code == 0, by_option.output
    assert json.loads(by_option.stdout)["files"] > 0
    monkeypatch.setenv("MEMSEARCH_VAULT", str(vault_copy))
    again = runner.invoke(main, ["reindex", "--no-embed", "--json"])
    report = json.loads(again.stdout)
    assert again.exit_code == 0 and report["added"] == report["changed"] == [], again.output


def test_a_verb_that_writes_an_index_needs_a_vault_named(monkeypatch):
    monkeypatch.delenv("MEMSEARCH_VAULT", raising=False)
    for verb in ("index", "reindex", "watch"):
        result = CliRunner().invoke(main, [verb])
        assert result.exit_code == 2 and "Missing argument 'VAULT'" in result.output, (verb, result.output)


def test_two_different_vaults_on_one_command_line_is_a_usage_error(indexed_vault, tmp_path):
    result = CliRunner().invoke(main, ["status", str(indexed_vault), "--vault", str(tmp_path)])
    assert result.exit_code == 2 and "two vaults" in result.output
    same = CliRunner().invoke(main, ["status", str(indexed_vault), "--vault", str(indexed_vault)])
    assert same.exit_code == 0, same.output


def test_search_json_is_format_json(indexed_vault):
    args = ["search", "signing keys", "--vault", str(indexed_vault), "--now", NOW, "--no-server"]
    as_json = CliRunner().invoke(main, [*args, "--json"])
    as_format = CliRunner().invoke(main, [*args, "--format", "json"])
    drop = lambda out: {**json.loads(out), "health": None}  # noqa: E731 (timings differ)
    assert as_json.exit_code == 0 and drop(as_json.stdout) == drop(as_format.stdout)
    both = CliRunner().invoke(main, [*args, "--json", "--format", "table"])
    assert both.exit_code == 2 and "two formats" in both.output


@pytest.mark.parametrize("verb", ["forget", "unforget"])
def test_a_verb_with_its_own_subject_takes_the_vault_by_option(verb, indexed_vault):
    # Their PATH... takes every word after it: a trailing VAULT would be read as one more path.
    help_text = CliRunner().invoke(main, [verb, "--help"]).output
    assert "--vault" in help_text and "[VAULT]" not in help_text


@pytest.mark.parametrize(
    "argv, message",
    [
        (["reindex", "VAULT", "--wait", "nan"], "not a finite, non-negative number of seconds"),
        (["rollback", "HEAD", "VAULT", "--wait", "-1"], "not a finite, non-negative number of seconds"),
        (["watch", "VAULT", "--interval", "0"], "not a positive number of seconds"),
        (["status", "--index-dir", ""], "an empty path names no folder"),
        (["status", "VAULT", "--index-dir", "VAULT/journal/2025-03-11.md"], "is a file"),
        # a path no folder can have raised from exists() (RuntimeError, OSError) as a traceback
        (["search", "keys", "--vault", "~nosuchuser-ms/notes"], "a user this system does not have"),
        (["status", "VAULT", "--index-dir", "~nosuchuser-ms/index"], "a user this system does not have"),
        (["log", "a" * 300], "is longer than this system takes"),
        (["forget", "x.md", "--vault", "a" * 300], "is longer than this system takes"),
        (["open", "x.md", "--vault", "VAULT/" + "a" * 300], "is longer than this system takes"),
    ],
)
def test_a_bad_duration_or_folder_is_a_usage_error_naming_it(indexed_vault, argv, message, tmp_path):
    argv = [a.replace("VAULT", str(indexed_vault)) for a in argv]
    result = CliRunner().invoke(main, argv, env={"MEMSEARCH_HOME": str(tmp_path / "home")})
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 2, result.output
    assert message in result.output


def test_a_name_with_a_byte_that_is_not_utf8_is_printed_escaped(indexed_vault, tmp_path):
    """argv's non-UTF-8 bytes reach Python as lone surrogates; echoing one raised UnicodeEncodeError."""
    home = tmp_path / "bad\udcffhome"
    result = CliRunner().invoke(main, ["doctor", str(indexed_vault), "--index-dir", str(home)])
    assert not isinstance(result.exception, UnicodeError), result.exception
    assert "bad\\udcffhome" in result.output


def test_a_query_that_starts_with_a_dash_is_told_to_go_after_the_double_dash(indexed_vault):
    """`memsearch search "-80°C"` reads "-80°C" as an option: the error says to write the query
    after `--`, and that way it is searched."""
    runner = CliRunner()
    refused = runner.invoke(main, ["search", "-80°C", str(indexed_vault), "--no-server"])
    assert refused.exit_code == 2
    assert "after '--'" in refused.stderr and "-- '-80°C'" in refused.stderr, refused.stderr
    found = runner.invoke(
        main, ["search", "--no-server", "--json", "--vault", str(indexed_vault), "--", "-80°C"]
    )
    assert found.exit_code == 0, found.output
    assert json.loads(found.stdout)["query"] == "-80°C"


def test_log_of_a_vault_with_no_index_says_so(vault_copy, tmp_path):
    # It printed nothing and exited 0, as for an index with no changes; status said there was none.
    result = CliRunner().invoke(main, ["log", str(vault_copy)], env={"MEMSEARCH_HOME": str(tmp_path / "h")})
    assert result.exit_code != 0 and "run `memsearch index VAULT` first" in result.output, result.output


def test_an_entity_filter_with_no_name_is_an_error_naming_it(indexed_vault):
    # `--entity ""` filtered for chunks naming "" (none): no results, and nothing said why.
    result = CliRunner().invoke(
        main, ["search", "signing keys", "--vault", str(indexed_vault), "--entity", " "]
    )
    assert result.exit_code != 0 and "an entity filter with no name names nothing" in result.output


@given(st.lists(st.floats(min_value=0.0, max_value=0.5, allow_nan=False), min_size=1, max_size=6))
def test_explained_parts_printed_add_up_to_the_sum_printed_beside_them(parts):
    # 0.124 + 0.254 + 0.216 + 0.070 was printed beside "= sum of shown parts 0.665"
    from memsearch.cli.output import thousandths

    total = sum(parts)
    shown = thousandths(parts, total)
    assert round(sum(shown) * 1000) == round(total * 1000)
    assert all(abs(a - b) < 0.001 + 1e-9 for a, b in zip(shown, parts, strict=True))
