"""Follow a vault's changes and keep its index up to date: ``memsearch watch VAULT``.

The vault is polled: every ``interval`` seconds each markdown file's (mtime, size, inode) is
compared with the last look. Polling costs a walk of the vault's folders (about 20 ms for 10,000
files here) and is robust where notification APIs are not: an editor that saves by writing a
temporary file and renaming it over the original changes the inode, network and container
mounts work alike, and nothing is missed while the queue of a notifier would overflow.

Changes are debounced and batched: a batch is indexed once no file has changed for ``debounce``
seconds (a save in several writes is one update), or after ``max_delay`` seconds of continuous
change. Each batch is one incremental update of the files it names (one commit), under the
index's write lock, so a ``reindex`` from cron and a watcher never interleave. On start the
watcher catches up: an incremental update of the whole vault, for what changed while it was
not running, and again when another writer moved the index since its last batch (a rollback,
an unforget: the files a batch names are then not all that differ). SIGINT, SIGTERM or SIGHUP
stops it after the batch in hand.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

from memsearch.config import Settings
from memsearch.errors import LockBusyError, MemsearchError
from memsearch.indexer import IndexReport, index_vault
from memsearch.scan import (
    IGNORED_DIRS,
    MARKDOWN_SUFFIXES,
    NOTEBOOK_SUFFIXES,
    check_vault,
    notebook_kind,
    notebook_root,
)
from memsearch.sidecars import SIDECAR_SUFFIX
from memsearch.stops import catch_stops, restore

#: Seconds between two looks at the vault.
POLL_INTERVAL = 0.5
#: A batch goes once nothing has changed for this long (an editor's save is often several writes).
DEBOUNCE_SECONDS = 1.0
#: ... or once changes have kept coming for this long (a busy vault still gets indexed).
MAX_DELAY_SECONDS = 10.0

Stamp = tuple[int, int, int]


def look(vault: Path) -> dict[str, Stamp]:
    """``{vault-relative path: (mtime_ns, size, inode)}`` of the markdown files the index covers,
    and of the notebook's session and moment files. A moment's vector sidecars are part of it (their
    bytes are in its hash): their stamps are folded into the moment's third element, so an edited,
    added or removed sidecar changes its moment's stamp."""
    found: dict[str, Stamp] = {}
    sidecars: dict[str, list[Stamp]] = {}  # moment path without its suffix: its sidecars' stamps
    root = notebook_root(vault)
    stack = [(vault, "")]
    while stack:
        folder, prefix = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            name = entry.name
            if name.startswith("."):
                continue
            try:
                if entry.is_dir(follow_symlinks=False):
                    if name not in IGNORED_DIRS:
                        stack.append((Path(entry.path), f"{prefix}{name}/"))
                elif name.lower().endswith(MARKDOWN_SUFFIXES) or (
                    notebook_kind(prefix + name, root) is not None
                ):
                    st = entry.stat()
                    found[prefix + name] = (st.st_mtime_ns, st.st_size, st.st_ino)
                elif name.endswith(SIDECAR_SUFFIX) and name.count(".") >= 2 and root is not None:
                    st = entry.stat()
                    stem = name[: -len(SIDECAR_SUFFIX)].rsplit(".", 1)[0]  # <moment_id>.<modality>.npy
                    sidecars.setdefault(prefix + stem, []).append((st.st_mtime_ns, st.st_size, st.st_ino))
            except OSError:
                continue
    for stem, stamps in sidecars.items():
        for suffix in NOTEBOOK_SUFFIXES:
            moment = stem + suffix
            if moment in found and notebook_kind(moment, root) == "moment":
                mtime, size, inode = found[moment]
                # int tuples hash the same in every process: a digest of the sidecars' stamps
                found[moment] = (mtime, size, hash((inode, *sorted(stamps))))
    return found


class Watcher:
    """Keeps one vault's index current until :meth:`stop` (or SIGINT/SIGTERM/SIGHUP in the main thread)."""

    def __init__(
        self,
        vault: str | Path,
        settings: Settings | None = None,
        index_dir: str | Path | None = None,
        *,
        interval: float = POLL_INTERVAL,
        debounce: float = DEBOUNCE_SECONDS,
        max_delay: float = MAX_DELAY_SECONDS,
        embed: bool = True,
        on_report: Callable[[IndexReport], None] | None = None,
        on_error: Callable[[Exception], None] | None = None,
    ) -> None:
        self.vault = check_vault(Path(vault))
        self.settings = settings
        self.index_dir = Path(index_dir) if index_dir else None
        self.interval, self.debounce, self.max_delay = interval, debounce, max_delay
        self.embed = embed
        self.on_report = on_report or (lambda report: None)
        self.on_error = on_error or (lambda exc: None)
        self.batches = 0
        self._stop = threading.Event()
        self._kept: list = [None]  # the index after the last batch (spares loading it again)
        self._head: str | None = None  # the index's commit after the last batch

    def stop(self) -> None:
        self._stop.set()

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()

    def _index(self, paths: list[str] | None, what: str) -> bool:
        """One incremental update (None: the whole vault); False if it must be tried again."""
        while not self._stop.is_set():
            try:
                report = index_vault(
                    self.vault,
                    self.settings,
                    index_home=self.index_dir,
                    embed=self.embed,
                    paths=paths,
                    lock_timeout=1.0,  # short waits, so a stop request is heard while another writer works
                    what=what,
                    keep=self._kept,
                    # another writer moved the index since the last batch: the whole vault, read
                    # under the lock (a rollback while this batch waited for it counts too)
                    since=self._head,
                )
            except LockBusyError:
                continue
            except MemsearchError as exc:
                self.on_error(exc)
                return False
            self._head = report.head
            self.batches += 1
            self.on_report(report)
            return True
        return False

    def run(self, max_seconds: float | None = None) -> None:
        """Catch up, then follow changes until stopped (or ``max_seconds`` have passed)."""
        handlers = catch_stops(self._on_stop)  # SIGHUP too: killed by it, a watch cut its batch short
        deadline = None if max_seconds is None else time.monotonic() + max_seconds
        try:
            seen = look(self.vault)
            self._index(None, "memsearch watch (catch-up)")
            pending: set[str] = set()
            first = last = 0.0
            while not self._stop.is_set():
                if deadline is not None and time.monotonic() >= deadline:
                    break
                self._stop.wait(self.interval)
                now_seen = look(self.vault)
                changed = {p for p in now_seen.keys() | seen.keys() if now_seen.get(p) != seen.get(p)}
                seen = now_seen
                now = time.monotonic()
                if changed:
                    if not pending:
                        first = now
                    pending |= changed
                    last = now
                if pending and (now - last >= self.debounce or now - first >= self.max_delay):
                    batch = sorted(pending)
                    if self._index(batch, "memsearch watch"):
                        pending.clear()
        finally:
            restore(handlers)

    def _on_stop(self, signum: int, frame: object) -> None:
        self.stop()


def watch(vault: str | Path, **options: object) -> Watcher:
    """Run a :class:`Watcher` in this thread until it is stopped; returns it (its ``batches``)."""
    max_seconds = options.pop("max_seconds", None)
    watcher = Watcher(vault, **options)  # type: ignore[arg-type]
    watcher.run(max_seconds=max_seconds)  # type: ignore[arg-type]
    return watcher
