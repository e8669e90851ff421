"""How a ``memsearch`` process writes and ends: names it was given printed whatever their bytes, at
once after a search, and never under onnxruntime's teardown."""

from __future__ import annotations

import contextlib
import functools
import io
import os
import signal
import sys
import traceback
from collections.abc import Callable
from typing import Any, NoReturn, TypeVar, cast

import click

from memsearch.cli.options import EXIT_ERROR
from memsearch.stops import catch_stops, ignore_stops, restore

F = TypeVar("F", bound=Callable[..., Any])

#: Set by :func:`run_console` (the console script): this process is the CLI itself, not a host (a
#: test's CliRunner, an agent calling ``main``) that goes on after the command.
_own_process = False


def print_any_name() -> None:
    """Let stdout and stderr print a name that is not UTF-8 (a path or argument holding such a byte,
    which Python reads as a lone surrogate): as its escape, ``\\udcff``, where a strict stream raised
    UnicodeEncodeError in the middle of a message."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, ValueError, OSError):  # not a text stream we own
            # TextIOWrappers unless replaced (typeshed says TextIO); a replacement without reconfigure
            # raises AttributeError, suppressed
            cast(io.TextIOWrapper, stream).reconfigure(errors="backslashreplace")


def exit_now() -> None:
    """End a search process at once: it wrote nothing but its output, and tearing down the model,
    the HNSW graph and every loaded chunk took 50-300 ms of a cold search (measured at 10k)."""
    if _own_process:
        exit_at_once(0)


def run_console(main: click.Group) -> None:
    """Run ``main`` as the ``memsearch`` console script. A stop from its first moment says so, as
    the command's own words would (:func:`stops_cleanly`): under load, a run's first second is
    Python's imports, and a SIGTERM then ended it silently, a Ctrl-C with click's "Aborted!"."""
    global _own_process, _verb
    _own_process = True
    _verb = next((word for word in sys.argv[1:] if word in main.commands), "")
    caught = catch_stops(_stop)
    try:
        main()
    except Stopped as stop:
        _stopped(caught, stop.signum)
    except SystemExit as exc:  # click ends every command with one, success or not
        if preload_loading():
            code = exc.code
            if code is not None and not isinstance(code, int):  # SystemExit("message"): printed, 1
                click.echo(str(code), err=True)
                code = EXIT_ERROR
            exit_at_once(code or 0)
        raise
    except BaseException:
        if preload_loading():
            traceback.print_exc()
            exit_at_once(EXIT_ERROR)
        raise


def preload_loading() -> bool:
    """Whether the embedder is still loading on its thread: then the process must end without the
    interpreter's teardown (see :func:`memsearch.preload.loading`)."""
    preload = sys.modules.get("memsearch.preload")
    return preload is not None and preload.loading()


def exit_at_once(code: int) -> None:
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(BrokenPipeError, ValueError, OSError):  # the reader left (`| head`)
            stream.flush()
    os._exit(code)


#: What an interrupted index run leaves: said after the signal's name.
INDEX_AS_LEFT = (
    "the index is as its last commit left it (`memsearch log`): run `memsearch {verb} VAULT` again"
)


class Stopped(BaseException):
    """A stop signal arrived: raised where the main thread stood and unwound like Ctrl-C's
    KeyboardInterrupt, which it is not: click reads that as its bare "Aborted!", and CPython ends
    a process that saw one escape an extension's code by SIGINT, whatever code it exited with
    (seen: "interrupted (SIGTERM)" said, then the process killed by SIGINT)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


#: What a stop says: the command's verb and what its stop leaves (see :func:`stops_cleanly`).
_saying: list[tuple[str, str]] = []


def _stop(signum: int, frame: object) -> None:
    if _own_process and preload_loading():  # the model starting: unwinding aborted the process
        _say(signum)
        exit_at_once(128 + signum)
    raise Stopped(signum)


def _say(signum: int) -> None:
    verb, left = _saying[-1] if _saying else (_verb, "")
    words = f"memsearch {verb}".rstrip() + f": interrupted ({signal.Signals(signum).name})"
    click.echo(f"{words}; {left.format(verb=verb)}" if left else words, err=True)


#: The command the console script was given, for a stop before the command's own words are set.
_verb = ""


def _stopped(caught: dict, signum: int) -> NoReturn:
    """Say the stop and exit 128 + the signal. The stops are ignored from here to the process's
    end: a second Ctrl-C while it unwinds and tears down raised in an exit handler or a
    ``__del__`` ("Exception ignored ... Stopped"), or, once the interpreter had put the default
    handlers back, killed it by SIGINT (-2)."""
    ignore_stops(caught)
    _say(signum)
    sys.exit(128 + signum)


def ends_at_once(verb: str) -> Callable[[F], F]:
    """Ctrl-C, SIGTERM or SIGHUP ends the console script's command where it stands, with the one
    line :func:`stops_cleanly` says: for a command whose work runs in an event loop (``mcp``),
    where a stop raised is kept by asyncio's task and the server waited for its client to hang up
    (SIGTERM was no stop while stdin was open). Nothing it holds needs unwinding: an answer is
    read-only, an index it builds is whole commits or none."""

    def decorate(command: F) -> F:
        @functools.wraps(command)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            def end(signum: int, frame: object) -> None:
                _say(signum)
                exit_at_once(128 + signum)

            caught = catch_stops(end) if _own_process else {}
            _saying.append((verb, ""))
            try:
                return command(*args, **kwargs)
            finally:
                _saying.pop()
                restore(caught)

        return wrapper  # type: ignore[return-value]

    return decorate


def stops_cleanly(verb: str, left: str = "") -> Callable[[F], F]:
    """Ctrl-C, SIGTERM or SIGHUP during the command: one line that says so (and ``left``: what the
    stop leaves and what to do), exit 128 + the signal (130, 143, 129), as a shell reports a
    process a signal stopped. (A run's chunking processes leave the signal to it:
    :mod:`memsearch.indexer.forked`.) Without it, Ctrl-C was click's bare "Aborted!" and SIGTERM
    or SIGHUP ended the process where it stood, silently."""

    def decorate(command: F) -> F:
        @functools.wraps(command)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            caught = catch_stops(_stop)
            _saying.append((verb, left))
            stopped = False
            try:
                return command(*args, **kwargs)
            except (Stopped, KeyboardInterrupt) as stop:  # KeyboardInterrupt: where no handler was set
                stopped = True
                _stopped(caught, stop.signum if isinstance(stop, Stopped) else signal.SIGINT)
            finally:
                _saying.pop()
                if not (stopped and _own_process):  # a process that stops keeps ignoring: see _stopped
                    restore(caught)

        return wrapper  # type: ignore[return-value]

    return decorate
