"""What every command shares: the vault and index options, the output options, errors -> exit codes.

Declared once, used by every verb (as sqlite-utils' ``output_options``): the vault is ``--vault``
(default ``$MEMSEARCH_VAULT``, else the current folder) and, on every verb whose only subject is
the vault, a positional ``[VAULT]`` too; ``--index-dir`` names the index folder (default
``VAULT/.memsearch``, or ``$MEMSEARCH_HOME/<name>-<hash>`` when ``$MEMSEARCH_HOME`` is set).
"""

from __future__ import annotations

import functools
import json
import math
import re
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any, NoReturn, TypeVar

import click

from memsearch.errors import MemsearchError
from memsearch.scan import unusable_path

F = TypeVar("F", bound=Callable[..., Any])

FORMATS = ("files", "json", "table")
EXIT_ERROR = 1  # an error the message explains (a bad query, date or vault, no index, ...)
EXIT_USAGE = 2  # an argument the command does not take (click's usage errors), or an unexpected error
#: Exit codes of `memsearch reindex` (cron reads them).
EXIT_DEGRADED = 3  # indexed, but chunks still lack vectors: the embedder failed
EXIT_LOCKED = 75  # another writer held the lock for the whole wait (EX_TEMPFAIL)

VAULT_ENVVAR = "MEMSEARCH_VAULT"


def api() -> ModuleType:
    """:mod:`memsearch.api`, imported by the command that runs, not with the CLI: it imports numpy,
    hnswlib and the engine (~0.3 s of ``python -X importtime``), which ``memsearch search`` through a
    running ``memsearch serve`` and every ``--help`` never need. The CLI's only deferred import."""
    import memsearch.api

    return memsearch.api


#: An argument the API's message begins with, named as the CLI's option ("now:" is ``--now``).
_API_ARGUMENT = re.compile(r"^(now|since|until|territory|fact_type): ")


def fail(exc: Exception) -> NoReturn:
    """Print ``memsearch: <message>`` on stderr and exit: 1 for a MemsearchError, else 2."""
    message = _API_ARGUMENT.sub(lambda m: "--" + m[1].replace("_", "-") + ": ", str(exc))
    click.echo(f"memsearch: {message}", err=True)
    sys.exit(EXIT_ERROR if isinstance(exc, MemsearchError) else EXIT_USAGE)


def exits_on_error(command: F) -> F:
    """A MemsearchError raised by the command is its message on stderr and exit 1 (:func:`fail`)."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except MemsearchError as exc:
            fail(exc)

    return wrapper  # type: ignore[return-value]


def choose_vault(positional: Path | None, option: Path | None, required: bool) -> Path:
    """The vault a command was given: VAULT, else ``--vault``, else ``$MEMSEARCH_VAULT``, else ``.``
    (unless ``required``). VAULT and a different ``--vault`` on one command line is a usage error."""
    ctx = click.get_current_context()
    from_command_line = ctx.get_parameter_source("vault") == click.core.ParameterSource.COMMANDLINE
    if positional is not None and option is not None and from_command_line and positional != option:
        raise click.UsageError(f"two vaults given: VAULT {positional} and --vault {option}; give one")
    chosen = positional if positional is not None else option
    if chosen is None:
        if required:
            raise click.UsageError(f"Missing argument 'VAULT' (or --vault, or ${VAULT_ENVVAR}).")
        chosen = Path(".")
    return chosen


class QueryCommand(click.Command):
    """A command whose subject is free text: a query that starts with a dash ("-80°C") is read as
    an unknown option, so the error says to write it after ``--``."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        given = list(args)  # the parser consumes the list it is given
        try:
            return super().parse_args(ctx, args)
        except click.NoSuchOption as exc:
            name = exc.option_name or ""
            written = next((a for a in given if a.startswith(name) and not a.startswith("--")), None)
            if written is not None and not name.startswith("--"):
                # click declares message Final; the error is reworded in place so that it keeps its
                # option name, suggestions and context
                exc.message = (  # type: ignore[misc]
                    f"No such option: {name!r}. A query that starts with '-' goes after '--':"
                    f" memsearch {ctx.info_name} [OPTIONS] -- {written!r}"
                )
            raise


class Folder(click.Path):
    """A folder's path: never empty (``--index-dir ""`` made the current folder the index home),
    never a file."""

    def __init__(self) -> None:
        super().__init__(path_type=Path, file_okay=False)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value.strip():
            self.fail("an empty path names no folder; give one (. is the current folder)", param, ctx)
        if isinstance(value, str) and (unusable := unusable_path(value)):
            self.fail(unusable, param, ctx)
        return super().convert(value, param, ctx)


FOLDER = Folder()


def vault_options(
    *, positional: bool = True, required: bool = False, index_dir: bool = True
) -> Callable[[F], F]:
    """``[VAULT]`` (when ``positional``), ``--vault`` and ``--index-dir``: the command gets ``vault``
    (a Path, chosen by :func:`choose_vault`) and ``index_dir`` (a Path or None).

    ``required``: no current-folder default (the verbs that write an index from cron, where the
    current folder is rarely the vault: ``index``, ``reindex``, ``watch``).
    """
    default = f"${VAULT_ENVVAR}" + ("" if required else " or the current folder")

    def decorate(command: F) -> F:
        @functools.wraps(command)
        def wrapper(
            *args: Any, vault_argument: Path | None = None, vault: Path | None = None, **kwargs: Any
        ) -> Any:
            return command(*args, vault=choose_vault(vault_argument, vault, required), **kwargs)

        decorated: Any = wrapper
        if index_dir:
            decorated = click.option(
                "--index-dir",
                type=FOLDER,
                help="Where the index lives (default VAULT/.memsearch, or under $MEMSEARCH_HOME).",
            )(decorated)
        decorated = click.option(
            "--vault",
            "vault",
            type=FOLDER,
            envvar=VAULT_ENVVAR,
            help=f"The vault (default: {'VAULT, else ' if positional else ''}{default}).",
        )(decorated)
        if positional:
            decorated = click.argument("vault_argument", metavar="[VAULT]", required=False, type=FOLDER)(
                decorated
            )
        return decorated

    return decorate


def json_option(help: str = "Print as JSON.") -> Callable[[F], F]:
    """``--json``: the command gets ``as_json``."""
    return click.option("--json", "as_json", is_flag=True, help=help)


class Seconds(click.ParamType):
    """A duration in seconds: a finite number, not negative (above 0 where ``positive``). NaN and
    infinity pass click's float and FloatRange, and then broke the lock wait and the sleeps."""

    name = "seconds"

    def __init__(self, positive: bool = False) -> None:
        self.positive = positive

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not math.isfinite(seconds) or seconds < 0 or (self.positive and seconds == 0):
            self.fail(
                f"{value!r} is not a {'positive' if self.positive else 'finite, non-negative'} "
                "number of seconds",
                param,
                ctx,
            )
        return seconds


def wait_option(help: str = "Seconds to wait for another writer.") -> Callable[[F], F]:
    """``--wait SECONDS``: the command gets ``wait`` (None: the API's default wait)."""
    return click.option("--wait", "wait", type=Seconds(), default=None, help=help)


def lock_wait(wait: float | None) -> dict[str, float]:
    """The API's ``lock_timeout`` keyword for ``--wait`` (none given: the API's default)."""
    return {} if wait is None else {"lock_timeout": wait}


def echo_json(data: Any, *, indent: int | None = 2, ensure_ascii: bool = False) -> None:
    """``data`` as JSON on stdout (``ensure_ascii``: as ``json.dumps`` by default, ``\\u`` escapes)."""
    click.echo(json.dumps(data, ensure_ascii=ensure_ascii, indent=indent))
