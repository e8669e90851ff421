"""Any command line a careless user types ends in a message and an exit code, never a traceback.

The command lines are drawn from the CLI's own definition (every verb, every option with its
type), with values of the kinds that broke verbs before: blank and empty text, non-dates, a
non-UTF-8 byte (as Python reads it from argv: a surrogate escape), huge and negative numbers, NaN,
paths that do not exist or are not folders, a right-to-left mark (no NUL byte: argv cannot hold
one). The verbs that run until stopped (serve, watch, mcp) are left out:
their arguments are checked by the same option parsers. The runs share one indexed vault copy
and index home; a forget the fuzzer types is carried out for real on it.

CI runs a fixed budget on a fixed seed; MEMSEARCH_FUZZ_EXAMPLES raises the budget and
MEMSEARCH_FUZZ_SEED draws other command lines.
"""

from __future__ import annotations

import contextlib
import os
import shutil

import click
import pytest
from click.testing import CliRunner
from fuzz_counts import COUNTS
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from memsearch.cli import main
from memsearch.cli.options import EXIT_DEGRADED, EXIT_ERROR, EXIT_USAGE

EXAMPLES = int(os.environ.get("MEMSEARCH_FUZZ_EXAMPLES", "120"))
SEED = int(os.environ.get("MEMSEARCH_FUZZ_SEED", "20261202"))
RUNS_UNTIL_STOPPED = {"serve", "watch", "mcp"}
VERBS = sorted(set(main.commands) - RUNS_UNTIL_STOPPED)
EXPECTED_EXITS = {0, EXIT_ERROR, EXIT_USAGE, EXIT_DEGRADED}

TEXT = [
    "",
    "   ",
    "signing keys",
    "sign_ed25519()",
    "-",
    "--",
    "x" * 5000,
    "\u202e\u200f",
    "bad\udcffbyte",
    "2025-13-45",
    "yesterday",
    "HEAD~99",
    "../../etc/passwd",
    "journal/2025-03-11.md:1",
    "system/",
]
NUMBERS = ["0", "-1", "1", "3", "99999999999999999999", "abc", "1.5"]
FLOATS = ["0", "-1", "0.1", "nan", "inf", "1e308", "abc"]


@pytest.fixture(scope="module")
def fuzz_vault(indexed_vault, tmp_path_factory):
    """A copy of the indexed fixture vault with its own index home: the fuzzer may forget in it."""
    top = tmp_path_factory.mktemp("cli-fuzz")
    vault = top / "vault"
    shutil.copytree(indexed_vault, vault)
    return vault, top / "home"


def _paths(vault) -> list[str]:
    return [
        str(vault),
        str(vault / "nope"),
        str(vault / "journal" / "2025-03-11.md"),
        "",
        "/dev/null",
        "bad\udcff.md",
    ]


def _value(param: click.Parameter, vault) -> st.SearchStrategy[str]:
    kind = param.type
    if isinstance(kind, click.Choice):
        return st.sampled_from([*map(str, kind.choices), "bogus"])
    if isinstance(kind, click.Path):
        return st.sampled_from(_paths(vault))
    if isinstance(kind, (click.types.IntParamType, click.IntRange)):
        return st.sampled_from(NUMBERS)
    if isinstance(kind, (click.types.FloatParamType, click.FloatRange)):
        return st.sampled_from(FLOATS)
    return st.sampled_from(TEXT)


@st.composite
def command_lines(draw, vault) -> list[str]:
    verb = draw(st.sampled_from(VERBS))
    argv = [verb]
    for param in main.commands[verb].params:
        if isinstance(param, click.Argument):
            # Arguments: mostly given, sometimes left out (a missing one is a usage error).
            if draw(st.integers(0, 4)):
                argv.append(draw(_value(param, vault)))
            continue
        if not draw(st.booleans()):
            continue
        option = param.opts[0]
        if getattr(param, "is_flag", False):
            argv.append(option)
        else:
            argv += [option, draw(_value(param, vault))]
    # A stray word or option now and then.
    if draw(st.integers(0, 5)) == 0:
        argv.append(draw(st.sampled_from(["--bogus", "extra", "-k"])))
    return argv


@seed(SEED)
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_any_command_line_ends_in_a_message_and_an_exit_code(fuzz_vault, data):
    vault, home = fuzz_vault
    argv = data.draw(command_lines(vault))
    runner = CliRunner()
    with contextlib.chdir(vault.parent):  # a relative name resolves here, never in the repository
        result = runner.invoke(main, argv, env={"MEMSEARCH_HOME": str(home), "MEMSEARCH_VAULT": str(vault)})
    COUNTS["cli command lines"] = COUNTS.get("cli command lines", 0) + 1
    crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
    assert not crashed, f"{argv!r} raised {result.exception!r}\n{result.output}"
    assert result.exit_code in EXPECTED_EXITS, f"{argv!r} exited {result.exit_code}\n{result.output}"
    assert "Traceback" not in result.output, argv
