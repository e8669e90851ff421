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
from typing import Any, TypeVar, cast

import click

from memsearch.cli.options import EXIT_ERROR

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
    """Run ``main`` as the ``memsearch`` console script."""
    global _own_process
    _own_process = True
    try:
        main()
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


def stops_cleanly(verb: str, left: str = "") -> Callable[[F], F]:
    """Ctrl-C, SIGTERM or SIGHUP during the command: one line that says so (and ``left``: what the
    stop leaves and what to do), exit 128 + the signal (130, 143, 129), as a shell reports a
    process a signal stopped. (A run's chunking processes leave the signal to it:
    :func:`memsearch.indexer.prepare.chunk_files`.) Without it, Ctrl-C was click's bare "Aborted!"
    and SIGTERM or SIGHUP ended the process where it stood, silently."""

    def decorate(command: F) -> F:
        @functools.wraps(command)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            received: list[int] = []

            def stop(signum: int, frame: object) -> None:
                received.append(signum)
                if _own_process and preload_loading():  # the model starting: unwinding aborted the process
                    said(signum)
                    exit_at_once(128 + signum)
                raise KeyboardInterrupt

            def said(signum: int) -> None:
                words = f"memsearch {verb}: interrupted ({signal.Signals(signum).name})"
                click.echo(f"{words}; {left.format(verb=verb)}" if left else words, err=True)

            previous: dict[int, Any] = {}
            for signum in (signal.SIGINT, *_STOPS):
                try:
                    previous[signum] = signal.signal(signum, stop)
                except ValueError:  # not the main thread (a test's runner): the default stands
                    break
            try:
                return command(*args, **kwargs)
            except KeyboardInterrupt:
                for again in (signal.SIGINT, *_STOPS):  # a second one: no traceback
                    with contextlib.suppress(ValueError):
                        signal.signal(again, signal.SIG_IGN)
                signum = received[0] if received else signal.SIGINT
                said(signum)
                sys.exit(128 + signum)
            finally:
                for signum, handler in previous.items():
                    signal.signal(signum, handler)

        return wrapper  # type: ignore[return-value]

    return decorate


#: The signals that stop a command as Ctrl-C does (SIGHUP: its terminal closed), where they exist.
_STOPS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))
