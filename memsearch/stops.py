"""The signals that stop a process, caught where the process was not told to ignore them.

Ctrl-C (SIGINT), ``kill`` (SIGTERM) and a closed terminal (SIGHUP) stop a command, a watch or a
server; each catches them to end cleanly. A signal its starter ignored stays ignored: ``nohup``
ignores SIGHUP so that closing the terminal leaves the process running, and a shell starts a
background job with SIGINT ignored so that Ctrl-C at the prompt leaves it alone.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable
from typing import Any

#: The signals that stop a process, where they exist.
STOPS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)

Handler = Callable[[int, Any], Any] | int | None


def catch_stops(handler: Callable[[int, Any], Any]) -> dict[signal.Signals, Handler]:
    """``handler`` for each stop this process does not ignore; the handlers it replaced (give them
    to :func:`restore`). Nothing outside the main thread, where Python takes no handler."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    previous: dict[signal.Signals, Handler] = {}
    for signum in STOPS:
        if signal.getsignal(signum) is not signal.SIG_IGN:
            previous[signum] = signal.signal(signum, handler)
    return previous


def ignore_stops(caught: dict[signal.Signals, Handler]) -> None:
    """Ignore the stops that were caught: a second Ctrl-C while a stop is said and cleaned up."""
    for signum in caught:
        with contextlib.suppress(ValueError):
            signal.signal(signum, signal.SIG_IGN)


def restore(previous: dict[signal.Signals, Handler]) -> None:
    """The handlers :func:`catch_stops` replaced, back in place."""
    for signum, handler in previous.items():
        if handler is not None:  # None: a handler not set from Python, which cannot be set back
            signal.signal(signum, handler)
