"""``index_vault``: bring a vault's index up to date, under the write lock, as one commit."""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import os
import re
import subprocess
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from memsearch.config import Settings
from memsearch.embedders import check_spec
from memsearch.errors import ConfigError, IndexWriteError, UnsafeIndexHomeError
from memsearch.index import snapshots
from memsearch.index.backend import backend_from_config, parse_backend, read_backend
from memsearch.index.in_memory import IndexData
from memsearch.index.loading import head_commit, load_commit
from memsearch.indexer.report import IndexReport, Progress
from memsearch.indexer.update import Update
from memsearch.indexer.writer import (
    DeferredLoadError,
    open_for_write,
)
from memsearch.lock import DEFAULT_LOCK_TIMEOUT, index_lock
from memsearch.paths import (
    check_home,
    default_home,
    others_in_home,
    read_manifest_head,
    tighten_private_dir,
    unwritable_home,
)
from memsearch.retrieval import push, record_backend
from memsearch.scan import (
    check_vault,
    in_git_work_tree,
    walk_order,
)
from memsearch.signals import after_index


def _exclude_from_vault_git(vault: Path, index_home: Path) -> None:
    """A vault in a git work tree (the repository's root or a folder of it; a worktree too) gets
    the index folder in the repository's exclude file (it showed as untracked, one `git add .`
    from committing every note's text and vector). Never fails a run."""
    if not in_git_work_tree(vault):
        return
    try:
        out = subprocess.run(
            ["git", "-C", str(vault), "rev-parse", "--show-toplevel", "--git-path", "info/exclude"],
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        ).stdout.splitlines()
    except (OSError, subprocess.SubprocessError, UnicodeDecodeError):
        return
    if len(out) != 2:
        return
    top, exclude = Path(out[0]), vault / out[1]  # the exclude file's path is the vault's (-C)
    try:
        rel = Path(os.path.realpath(index_home)).relative_to(os.path.realpath(top)).as_posix()
    except ValueError:
        return  # the index lives outside the work tree
    line = "/" + re.sub(r"([\\*?\[\]])", r"\\\1", rel) + "/"  # a pattern: "notes [work]" as written
    with contextlib.suppress(OSError, UnicodeDecodeError):
        text = exclude.read_text(encoding="utf-8") if exclude.exists() else ""
        if line in text.splitlines():
            return
        exclude.parent.mkdir(exist_ok=True)
        with open(exclude, "a", encoding="utf-8") as fh:
            fh.write(("" if not text or text.endswith("\n") else "\n") + f"# memsearch's index\n{line}\n")


def _refuse_a_home_of_other_files(index_home: Path) -> None:
    """An index home is made owner-only, written in, and kept out of the vault's git: one that holds
    other files (``--index-dir`` given the vault, its journal folder, the home folder) would have
    had them hidden from git (the journal: every new entry untracked) and made 0700, silently."""
    others = others_in_home(index_home)
    if others:
        shown = ", ".join(others[:3]) + (f" and {len(others) - 3} more" if len(others) > 3 else "")
        raise UnsafeIndexHomeError(
            f"the index home {index_home} already holds files that are not an index ({shown}): an"
            " index home is made owner-only and kept out of the vault's git; give --index-dir (or"
            " $MEMSEARCH_HOME) a new or empty folder. Nothing was changed"
        )


def _refuse_another_vaults_index(vault: Path, index_home: Path) -> None:
    """An index home outside the vault that holds the index of another vault, still there, is not
    this vault's to replace (``--index-dir`` given the wrong folder: every note of the other vault
    was removed from it, exit 0). One whose vault is gone is taken over (the vault moved, or was
    renamed), as is one inside the vault (a vault copied with its index)."""
    with contextlib.suppress(ValueError):
        Path(os.path.abspath(index_home)).relative_to(os.path.abspath(vault))
        return
    recorded = read_manifest_head(index_home).get("vault")
    if not isinstance(recorded, str) or not recorded:
        return
    try:
        other = os.path.isdir(recorded) and not os.path.samefile(recorded, vault)
    except OSError:
        return
    if other:
        raise ConfigError(
            f"the index at {index_home} is the index of the vault {recorded}, not of {vault}: index"
            f" {vault} into another folder (--index-dir), or give {recorded} as the vault. Nothing was"
            " changed"
        )


def index_vault(
    vault: Path,
    settings: Settings | None = None,
    progress: Progress | None = None,
    index_home: Path | None = None,
    embed: bool = True,
    embedder: str | None = None,
    reembed: bool = False,
    *,
    paths: Iterable[str | Path] | None = None,
    lock_timeout: float | None = DEFAULT_LOCK_TIMEOUT,
    what: str = "memsearch index",
    keep: list | None = None,
    backend: str | None = None,
    settle: bool = False,
    since: str | None = None,
) -> IndexReport:
    """Bring the vault's index up to date: only what changed is chunked, embedded and committed.

    ``embedder`` is a spec (``minilm``, ``ollama``, ``ollama:nomic-embed-text:256``); without
    one, ``$MEMSEARCH_EMBEDDER``, the vault config, then the embedder the index was built with
    decide (see :mod:`memsearch.embedders`). ``embed=False`` embeds nothing but still takes
    every vector the cache holds. ``reembed=True`` ignores the cache and embeds every chunk
    again (after the model changed under the same name, e.g. a new ``ollama pull``).
    ``paths`` limits the update to those files (vault-relative or absolute; a missing one is
    removed from the index), as ``watch`` does; by default the whole vault is scanned.

    Waits up to ``lock_timeout`` seconds for another writer (``None``: for ever), then raises
    :class:`~memsearch.errors.LockBusyError`.

    ``keep``: a one-item list holding the index this run ended with (or None); passed again, it
    spares the next run loading the last commit's snapshot when that commit is still the last
    (``watch`` keeps its index between batches this way).

    ``backend``: where the keyword and vector strategies run from now on (``milvus://HOST:PORT``,
    a Milvus Lite ``*.db`` file, or ``builtin``), recorded in the index home; without it, the one
    recorded, else ``[backend]`` in ``memsearch.toml``. The backend's collection is brought level
    with the index after the run; what cannot be pushed is recorded and pushed by the next run.

    ``settle``: rebuild from scratch a vector graph that updates patched (the reindex job does), so
    that the answers no longer depend on the order the updates came in.

    ``since``: the commit the caller's last run left (``watch``: the report's ``head``). When the
    index is at another under the lock, another writer moved it (a rollback, an unforget), and the
    run reads the whole vault, whatever ``paths`` says: the files named are not all that differ.
    """
    started = time.perf_counter()
    vault = check_vault(vault)
    settings = (settings or Settings()).with_vault_config(vault)
    index_home = Path(index_home) if index_home else default_home(vault)
    check_home(index_home)  # refused as it is found: making it 0700 now would hide a swap
    _refuse_a_home_of_other_files(index_home)
    _refuse_another_vaults_index(vault, index_home)
    try:
        tighten_private_dir(index_home)
    except OSError as exc:  # a read-only vault or disk: say where the index can go instead
        raise unwritable_home(index_home, exc) from exc
    _exclude_from_vault_git(vault, index_home)
    chosen = parse_backend(backend, vault) if backend is not None else None
    if embedder is not None and embedder.strip():
        check_spec(embedder)
    with _full_disk_fails_the_run(index_home), index_lock(index_home, timeout=lock_timeout, what=what):
        left_behind = None  # what leaving a backend could not take out of it
        if backend is not None:
            left_behind = record_backend(index_home, chosen)
        elif read_backend(index_home) is None:
            configured = backend_from_config(vault)
            if configured is not None:
                record_backend(index_home, configured)
        live = keep[0] if keep else None
        if keep:
            keep[0] = None  # changed in place below: kept again only if the run completes
        only = _scan_paths(vault, paths) if paths is not None else None
        if only is not None and since is not None and head_commit(index_home) != since:
            only = None
        how: dict[str, Any] = {"embed": embed, "embedder": embedder, "reembed": reembed, "started": started}
        base = open_for_write(index_home, live=live, defer_load=True)
        run = Update(vault, settings, index_home, base, progress)
        try:
            report = run.apply(only, **how)
        except DeferredLoadError:  # the last commit cannot be loaded after all: as if known at once
            base = open_for_write(index_home, live=live)
            run = Update(vault, settings, index_home, base, progress)
            report = run.apply(only, **how)
        if keep is not None:
            keep[:] = [run.data if run.loaded and run.data.commit == base.repo.head() else None]
        loaded_commit = base.data.commit if base.data is not None else None
        if report.commit is None and live is None and run.loaded and loaded_commit:
            # The commit it loaded, left as it was: with its snapshot saved, the next run that finds
            # nothing changed need not load the index at all (save_snapshot keeps one that exists).
            with contextlib.suppress(OSError):
                snapshots.save_snapshot(index_home, run.data)
        if settle:
            settled = _settle_graphs(index_home, run.data if run.loaded else None)
            if settled:
                report = dataclasses.replace(report, notes=(*report.notes, settled))
        # signals: new memories that match a standing interest (after_index never raises); a run
        # that changed nothing hands over a loader, called only if earlier matches wait for a retry
        after_index(vault, index_home, settings, run.data if run.loaded else lambda: run.data)
        # the backend's collection, derived from the index (never raises: what failed is pending)
        behind = push(index_home, run.data if run.loaded else lambda: run.data, head_commit(index_home))
        if behind:
            note = f"{behind}; searches use the built-in indexes meanwhile, the next index run pushes it"
            report = dataclasses.replace(report, notes=(*report.notes, note))
        if left_behind:
            report = dataclasses.replace(report, notes=(*report.notes, left_behind))
        report = dataclasses.replace(report, head=head_commit(index_home))
    return report


@contextlib.contextmanager
def _full_disk_fails_the_run(index_home: Path) -> Iterator[None]:
    """A disk (or quota) that fills while the run writes is an :class:`IndexWriteError` with what
    to do, as git's own "out of diskspace" is: the run committed nothing, and the next one, once
    there is room, writes its files again from the vault."""
    try:
        yield
    except OSError as exc:
        if exc.errno not in (errno.ENOSPC, errno.EDQUOT):
            raise
        raise IndexWriteError(
            f"no space left on the device of {index_home} ({exc.filename or exc.strerror}); nothing was"
            " committed: free disk space and run it again"
        ) from exc


def _settle_graphs(index_home: Path, data: IndexData | None) -> str | None:
    """Make the last commit's snapshot hold vector graphs built from scratch, if updates patched
    them; what was done, or None.

    An index run patches the graph it loaded (a rebuild costs ~80 s at 100k vectors: too slow for
    every write), and a patched graph may miss a few neighbours that one built from scratch finds,
    or the reverse. Rebuilt here, by the quiet cron job, an incrementally kept index answers as a
    clean build of the same vault does. Under the write lock (~80 s at 100k vectors, only when
    something patched the graph): a forget must not purge a commit while its text is being saved
    again as a snapshot. Never fails the run: what went wrong is its note.
    """
    commit = head_commit(index_home)
    if commit is None or snapshots.graphs_settled(index_home, commit):
        return None
    try:
        if data is None or data.commit != commit:
            data = load_commit(index_home, commit, cache=False)
        graphs = [index for index in (data.vectors, *data.modal.values()) if index is not None]
        rebuilt = [index for index in graphs if index.settle()]
        if any(index.needs_graph() for index in graphs):
            # Saved even when nothing was patched here: the commit had no snapshot (readers would
            # patch the last one's graph with its changes), or one whose graph could not be read.
            snapshots.save_snapshot(index_home, data, replace=True)
    except Exception as exc:  # a cache: the answers stand as they are until the next reindex
        return f"vector graph not rebuilt ({type(exc).__name__}: {exc}); the next reindex tries again"
    if not rebuilt:  # no graph (answered exactly), or one already built from scratch
        return None
    return f"vector graph rebuilt from scratch ({sum(len(index) for index in rebuilt)} vectors)"


def _scan_paths(vault: Path, paths: Iterable[str | Path]) -> list[str]:
    out = []
    for p in paths:
        path = Path(p)
        if path.is_absolute():
            try:
                path = path.resolve().relative_to(vault) if path.exists() else path.relative_to(vault)
            except ValueError:
                continue  # outside the vault: never indexed
        out.append(path.as_posix())
    return sorted(set(out), key=walk_order)
