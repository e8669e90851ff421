"""One writer at a time: an ``fcntl.flock`` on ``<index home>/lock`` around every write.

Every writer (``index_vault``, ``Memsearch.update_file``'s background commits, ``reindex``, each
``watch`` batch, ``rollback``) holds it while it changes the index repository; readers never take
it (they read a committed snapshot, which no writer changes). The kernel drops the lock when its
holder dies, even by ``kill -9``, so a crashed writer never leaves the index locked.

flock locks belong to an open file description, so two opens of the lock file in one process
would block each other: within a process the lock is one shared, re-entrant object per index
home, guarded by a thread lock, and only its first holder takes the flock.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from memsearch.errors import LockBusyError
from memsearch.paths import IndexLayout, check_home, private_dir, unwritable_home

#: How long a writer waits for another one by default (a first index of a large vault embeds for
#: minutes; an hourly cron job that waits a quarter of an hour still never piles up).
DEFAULT_LOCK_TIMEOUT = 900.0
#: Poll interval while waiting (flock has no timeout of its own).
POLL_SECONDS = 0.05


class _HomeLock:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.thread_lock = threading.RLock()
        self.depth = 0
        self.fd: int | None = None


_LOCKS: dict[str, _HomeLock] = {}
_LOCKS_GUARD = threading.Lock()


def _home_lock(home: Path) -> _HomeLock:
    key = os.path.realpath(home)
    with _LOCKS_GUARD:
        lock = _LOCKS.get(key)
        if lock is None:
            lock = _LOCKS[key] = _HomeLock(IndexLayout(Path(key)).lock)
        return lock


def holder(home: Path) -> str:
    """Who holds (or last held) the lock, as its holder wrote it: ``pid 123 (memsearch reindex)``."""
    try:
        return IndexLayout(home).lock.read_text(encoding="utf-8").strip() or "another process"
    except OSError:
        return "another process"


@contextlib.contextmanager
def index_lock(
    home: Path, timeout: float | None = DEFAULT_LOCK_TIMEOUT, what: str = "memsearch"
) -> Iterator[None]:
    """Hold the index home's write lock; ``timeout=0`` does not wait, ``None`` waits for ever.

    Raises :class:`LockBusyError` (saying who holds it) when it cannot be had in time.
    """
    home = Path(home)
    lock = _home_lock(home)
    deadline = None if timeout is None else time.monotonic() + max(timeout, 0.0)
    if not lock.thread_lock.acquire(timeout=-1 if deadline is None else max(timeout or 0.0, 0.0)):
        raise LockBusyError(_busy_message(home, timeout))
    try:
        if lock.depth == 0:
            check_home(home)  # before anything is written there
            try:
                private_dir(home)
                fd = os.open(lock.path, os.O_RDWR | os.O_CREAT, 0o600)
            except OSError as exc:
                raise unwritable_home(home, exc) from exc
            try:
                while True:
                    try:
                        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                        break
                    except BlockingIOError:
                        if deadline is not None and time.monotonic() >= deadline:
                            raise LockBusyError(_busy_message(home, timeout)) from None
                        time.sleep(POLL_SECONDS)
                os.ftruncate(fd, 0)
                os.write(
                    fd, f"pid {os.getpid()} ({what}) since {time.strftime('%Y-%m-%dT%H:%M:%S')}\n".encode()
                )
            except BaseException:
                os.close(fd)
                raise
            lock.fd = fd
        lock.depth += 1
        try:
            yield
        finally:
            lock.depth -= 1
            if lock.depth == 0 and lock.fd is not None:
                fd, lock.fd = lock.fd, None
                with contextlib.suppress(OSError):
                    fcntl.flock(fd, fcntl.LOCK_UN)
                os.close(fd)
    finally:
        lock.thread_lock.release()


def try_lock(home: Path, what: str = "memsearch") -> contextlib.AbstractContextManager[bool]:
    """``with try_lock(home) as got:`` - the lock if it is free right now (``got``), else nothing."""

    @contextlib.contextmanager
    def attempt() -> Iterator[bool]:
        try:
            with index_lock(home, timeout=0, what=what):
                yield True
                return
        except LockBusyError:
            pass
        yield False

    return attempt()


def _busy_message(home: Path, timeout: float | None) -> str:
    waited = "" if not timeout else f" after waiting {timeout:.0f} s"
    return (
        f"the index at {home} is being written by {holder(home)}{waited}; another `memsearch index`,"
        " `reindex` or `watch` holds its lock. Try again later, or pass --wait SECONDS to wait longer"
    )
