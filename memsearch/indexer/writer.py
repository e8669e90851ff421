"""The write side of the index repository: open it for a write (create, recover, set a damaged one
aside, finish an interrupted purge, load the last commit), put files in its work tree, name a
commit, and roll back to an earlier state.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memsearch.chunkers import CHUNKER_VERSION
from memsearch.config import Settings
from memsearch.errors import IndexMissingError, IndexWriteError, MemsearchError
from memsearch.index import in_memory, loading, snapshots
from memsearch.index.format import FORMAT_VERSION, MANIFEST, encode_manifest_head
from memsearch.index.versioning import IndexRepo, crashpoint
from memsearch.index.worktree import put
from memsearch.indexer.vectors import VectorWork
from memsearch.lock import DEFAULT_LOCK_TIMEOUT, index_lock
from memsearch.paths import IndexLayout, default_home
from memsearch.purge import finish_pending_purge
from memsearch.scan import (
    check_vault,
)

#: A commit message names at most this many files per list; the rest are counted.
MESSAGE_FILES = 20


@dataclass
class Base:
    """What a writer starts from: the repository, its last commit's manifest and index."""

    repo: IndexRepo
    manifest: dict[str, Any] | None
    data: in_memory.IndexData | None
    notes: list[str]
    #: With ``defer_load``: loads ``data`` when the update first needs it (an unchanged vault never does).
    loader: Callable[[], in_memory.IndexData] | None = None


class DeferredLoadError(Exception):
    """The last commit's index, loaded late, could not be read: the run starts again, eagerly."""


def open_for_write(home: Path, live: in_memory.IndexData | None = None, *, defer_load: bool = False) -> Base:
    """The index repository ready for a write (call with the lock held).

    Creates it (an old single-folder index is simply rebuilt), discards what an interrupted
    writer left, and loads the last commit's index (its snapshot, else rebuilt from the commit).
    A commit that cannot be read leaves ``data`` None: the update rebuilds from the vault.
    ``live``: an index already loaded in memory, used as it is when it reflects the last commit.
    ``defer_load``: leave loading the index to the update, which loads it only if something changed
    (an unchanged run at 100k chunks spared ~3.5 s of loading).
    """
    repo = IndexRepo(home)
    notes: list[str] = []
    if repo.path.exists():  # a broken HEAD or branch is put back from the objects before anything else
        notes.extend(repo.repair())
    if repo.path.exists() and not repo.exists():  # no HEAD: a first init cut short, or damage
        _set_aside(repo, "it has no HEAD", notes)
    if not repo.exists():
        repo.init()
        if IndexLayout(home).legacy_index.exists():
            notes.append("the index was in the old single-folder layout: rebuilt as a repository")
        return Base(repo, None, None, notes)
    try:
        notes.extend(repo.recover())
    except IndexWriteError:  # the disk is full, a lock is held: the repository stays as it is
        raise
    except Exception as exc:  # a repository git cannot work with: start it again from the vault
        _set_aside(repo, f"it could not be used: {exc}", notes)
        repo.init()
        return Base(repo, None, None, notes)
    try:  # a `forget --purge-history` killed part way: its text must not stay in history
        finished = finish_pending_purge(home)
    except IndexWriteError:
        raise
    except MemsearchError as exc:
        raise MemsearchError(
            f"an interrupted `memsearch forget --purge-history` could not be finished: {exc}"
        ) from exc
    if finished:
        notes.append(finished)
    head = repo.head()
    if head is None:
        return Base(repo, None, None, notes)
    if live is not None and live.commit == head and live.manifest.get("format") == FORMAT_VERSION:
        return Base(repo, live.manifest, live, notes)
    try:
        manifest = loading.committed_manifest(repo, head)
    except Exception as exc:
        if not repo.has_tree(head):
            _set_aside(repo, f"it lost its last commit: {exc}", notes)
            repo.init()
            return Base(repo, None, None, notes)
        notes.append(f"the last commit's manifest cannot be read ({exc}); rebuilt from the vault")
        return Base(repo, None, None, notes)
    if defer_load and snapshots.has_snapshot(home, head):
        # Deferred only over a snapshot: without one, loading is what checks (and repairs) the commit.
        return Base(repo, manifest, None, notes, loader=lambda: loading.load_commit(home, head))
    try:
        # No snapshot saved here for a commit a few files past the last one: a run that changes
        # something commits again at once (at 100k chunks that save was 4 s of a 7 s one-file
        # run); one that changes nothing saves it afterwards (see index_vault).
        data = loading.load_commit(home, head, cache_small=False)
    except Exception as exc:
        notes.append(f"the last commit cannot be read ({exc}); its files are indexed again from the vault")
        return Base(repo, manifest, None, notes)
    return Base(repo, manifest, data, notes)


def _set_aside(repo: IndexRepo, why: str, notes: list[str]) -> None:
    """Move a damaged repository out of the way, never delete it: its history may still be read
    from its objects. A folder git never wrote an object into (a first init cut short) goes."""
    objects = repo.git_dir / "objects"
    if not objects.is_dir() or not any(p.is_file() for p in objects.rglob("*")):
        shutil.rmtree(repo.path)
        return
    aside = repo.path.with_name(f"{repo.path.name}.damaged-{time.strftime('%Y%m%dT%H%M%S')}")
    n = 1
    while aside.exists():
        aside, n = aside.with_name(f"{aside.name.split('~')[0]}~{n}"), n + 1
    os.rename(repo.path, aside)
    notes.append(
        f"the index repository could not be used ({why}); it was moved aside to {aside} with its"
        " history (the new index starts a new history; `git -C` that folder to read the old one,"
        " delete it when done) and the index was rebuilt from the vault"
    )


def same_index(old: dict, new: dict) -> bool:
    """Whether two manifests record the same index (the build time aside)."""

    def strip(m: dict) -> dict:  # when, where from and who chose: recorded with a change, never alone
        kept = {k: v for k, v in m.items() if k not in ("built_at", "vault")}
        if isinstance(kept.get("embedder"), dict):  # "default" on a first run is "index" on the next
            kept["embedder"] = {k: v for k, v in kept["embedder"].items() if k != "chosen_by"}
        return kept

    return json.dumps(strip(old), sort_keys=True) == json.dumps(strip(new), sort_keys=True)


def _names(label: str, paths: list[str]) -> list[str]:
    if not paths:
        return []
    shown = paths[:MESSAGE_FILES]
    more = len(paths) - len(shown)
    return [
        f"{label} ({len(paths)}):",
        *(f"  {p}" for p in shown),
        *([f"  ... and {more} more"] if more else []),
    ]


def commit_message(
    added: list[str],
    changed: list[str],
    removed: list[str],
    vec: VectorWork,
    manifest: dict,
    old: dict | None = None,
) -> str:
    """Subject naming the files (or counting them), then every list (long ones cut, with a count)."""
    named = [("+", p) for p in added] + [("~", p) for p in changed] + [("-", p) for p in removed]
    if named and len(named) <= 3:
        subject = "index " + " ".join(f"{sign}{p}" for sign, p in named)
    elif named:
        subject = (
            f"index +{len(added)} ~{len(changed)} -{len(removed)} files ({named[0][0]}{named[0][1]}, ...)"
        )
    elif vec.filled:
        subject = f"vectors: {vec.filled} embedding gaps filled"
    elif vec.rewrite_all:
        subject = f"vectors: re-embedded with {manifest['embedder'].get('spec')}"
    elif old is not None and old.get("embedder") != manifest.get("embedder"):
        info = manifest.get("embedder") or {}
        subject = f"embedder {info.get('spec')} (chosen by {info.get('chosen_by')})"
    else:
        subject = "index: manifest updated"
    body = [*_names("added", added), *_names("changed", changed), *_names("removed", removed)]
    if vec.filled and named:
        body.append(f"{vec.filled} embedding gaps filled")
    if manifest.get("gaps"):
        why = manifest.get("embedder_error")
        body.append(f"{len(manifest['gaps'])} chunks await vectors" + (f" ({why})" if why else ""))
    if vec.note:
        body.append(vec.note)
    return subject + ("\n\n" + "\n".join(body) if body else "") + "\n"


def settings_fingerprint(settings: Settings) -> str:
    shape = (
        CHUNKER_VERSION,
        settings.territories,
        settings.max_chunk_chars,
        settings.context_neighbours,
        settings.context_weight,
        settings.context_decay,
        settings.embed_neighbours,
    )
    return hashlib.sha256(repr(shape).encode()).hexdigest()[:16]


def rollback(
    vault: Path,
    rev: str,
    index_home: Path | None = None,
    lock_timeout: float | None = DEFAULT_LOCK_TIMEOUT,
) -> str | None:
    """Make the index as ``rev`` had it current again, as a new commit (history is kept whole).

    Returns the new commit, or None when ``rev`` already is the current state. The vault is not
    touched: the next ``index``/``reindex``/``watch`` brings the index back in line with it.
    """
    vault = check_vault(vault)
    home = Path(index_home) if index_home else default_home(vault)
    if not IndexRepo(home).exists():  # before the lock, which would make the index home
        raise IndexMissingError(f"no index at {home}; run `memsearch index VAULT` first")
    with index_lock(home, timeout=lock_timeout, what="memsearch rollback"):
        repo = IndexRepo(home)
        if not repo.exists():
            raise IndexMissingError(f"no index at {home}; run `memsearch index VAULT` first")
        repo.recover()
        target = repo.resolve(rev)
        head = repo.head()
        if head is None or target == head:
            return None
        current = loading.committed_manifest(repo, head)
        wanted = loading.committed_manifest(repo, target)
        changed = repo.changed_paths(target, head)
        if not changed:
            return None
        subject = next(iter(repo.log(1, target)), None)
        repo.checkout_tree(target)
        manifest = dict(wanted)
        # chunk ids handed out since stay used: a live index never sees an id twice
        manifest["next_id"] = max(int(current.get("next_id", 0) or 0), int(wanted.get("next_id", 0) or 0))
        manifest["built_at"] = datetime.now(tz=UTC).isoformat(timespec="seconds")
        put(repo.path, MANIFEST, encode_manifest_head(manifest))
        crashpoint("rollback-manifest")
        message = f"rollback to {target[:12]}" + (f": {subject.subject}" if subject else "") + "\n"
        commit = repo.commit(sorted({*changed, MANIFEST}), message)
        if commit is None:
            return None
        with contextlib.suppress(Exception):
            data = loading.load_commit(home, target)
            data.commit, data.manifest = commit, manifest
            snapshots.save_snapshot(home, data)
        snapshots.prune_snapshots(home, keep={commit})
        return commit
