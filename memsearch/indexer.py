"""Index a vault: scan -> chunk -> timestamps -> keyword, graph, time -> vectors -> commit.

Incremental: each file's sha256 is compared with the manifest of the index's last commit.
Unchanged files keep their chunk ids, shards and vectors; changed and added files are chunked
again under fresh ids (ids are never reused: hnswlib's label reuse is buggy); removed files are
dropped; a renamed file costs no embedding (vectors are cached by the text's hash). Keyword
context uses neighbouring chunks of the same file only, so each file's work stands alone; the
entity alias map is global, so it is rebuilt from every file's aliases when one changes.

Every update that changes anything is one commit of the index repository (see
:mod:`memsearch.index.format`), under the write lock (:mod:`memsearch.lock`); an update that
changes nothing commits nothing.

Every stage is forgiving of one bad file: it is skipped with a reason that names it, and the
rest of the vault is indexed. An embedder failure never fails an index: the chunks without a
vector are recorded as gaps, the other three strategies serve them at once, and the next run
fills the gaps (the embedding cache makes unchanged text free).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import multiprocessing
import os
import shutil
import sys
import threading
import time
from array import array
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from memsearch.chunkers import CHUNKER_VERSION, chunk_file
from memsearch.config import Settings
from memsearch.errors import IndexWriteError, MemsearchError
from memsearch.index import in_memory, loading, snapshots
from memsearch.index.format import (
    FILES_SUBDIR,
    FORMAT_VERSION,
    MANIFEST,
    SHAPE_FIELDS,
    embed_sha,
    encode_manifest_head,
    encode_shard,
    encode_vectors,
    manifest_buckets,
    shape_of,
    shard_file,
    shard_name,
    vector_file,
    vector_rows,
)
from memsearch.index.keyword import PackedTerms
from memsearch.index.keyword_terms import file_keyword_terms
from memsearch.index.vectors import VectorIndex
from memsearch.index.versioning import IndexRepo, crashpoint
from memsearch.lock import DEFAULT_LOCK_TIMEOUT, index_lock
from memsearch.models import Chunk, ParsedFile, chunk_from_row, chunk_replace, chunk_row
from memsearch.paths import IndexLayout, check_home, default_home, tighten_private_dir
from memsearch.scan import (
    PREFETCH_WINDOW,
    Skipped,
    VaultFile,
    check_vault,
    git_commit_times,
    prefetch,
    read_file,
    walk_markdown,
    walk_order,
)

#: progress(stage, done, total)
Progress = Callable[[str, int, int], None]
#: A commit message names at most this many files per list; the rest are counted.
MESSAGE_FILES = 20


@dataclass(frozen=True)
class IndexReport:
    vault: str
    index_home: str
    files: int
    chunks: int
    embedded: int  # vectors computed in this run (cache misses)
    gaps: int  # chunks left without a vector (embedder failed); filled by the next run
    skipped: tuple[Skipped, ...]
    warnings: tuple[str, ...]
    seconds: float
    timings: dict[str, float] = field(default_factory=dict)
    embedder_error: str | None = None
    reused: int = 0  # chunks with a vector not computed in this run (kept, or from the cache)
    embedder: str | None = None  # the spec of the embedder the index was built with
    embedder_note: str | None = None  # e.g. that the embedder changed and everything was re-embedded
    commit: str | None = None  # the index commit this run made (None: nothing changed)
    added: tuple[str, ...] = ()  # files new to the index in this run
    changed: tuple[str, ...] = ()  # files indexed again (content or fallback timestamp changed)
    removed: tuple[str, ...] = ()  # files dropped from the index
    filled: int = 0  # embedding gaps filled in this run
    notes: tuple[str, ...] = ()  # e.g. an interrupted update that was discarded and redone

    @property
    def changed_anything(self) -> bool:
        return self.commit is not None

    def summary(self) -> str:
        """One line: what this run changed."""
        named = (
            [f"+{p}" for p in self.added] + [f"~{p}" for p in self.changed] + [f"-{p}" for p in self.removed]
        )
        counts = f"+{len(self.added)} ~{len(self.changed)} -{len(self.removed)} files"
        parts = [f"{counts} ({' '.join(named)})" if 0 < len(named) <= 3 else counts]
        if self.filled:
            parts.append(f"{self.filled} gaps filled")
        if self.embedded:
            parts.append(f"{self.embedded} embedded")
        parts.append(f"{self.files} files, {self.chunks} chunks")
        if self.gaps:
            parts.append(f"{self.gaps} gaps")
        where = f"commit {self.commit[:12]}" if self.commit else "no commit"
        return f"{', '.join(parts)}; {where} in {self.seconds:.1f}s"

    def to_dict(self) -> dict:
        return {
            "vault": self.vault,
            "index_home": self.index_home,
            "files": self.files,
            "chunks": self.chunks,
            "embedded": self.embedded,
            "gaps": self.gaps,
            "skipped": [{"path": s.path, "reason": s.reason} for s in self.skipped],
            "warnings": list(self.warnings),
            "seconds": round(self.seconds, 3),
            "timings": {k: round(v, 3) for k, v in self.timings.items()},
            "embedder_error": self.embedder_error,
            "reused": self.reused,
            "embedder": self.embedder,
            "embedder_note": self.embedder_note,
            "commit": self.commit,
            "added": list(self.added),
            "changed": list(self.changed),
            "removed": list(self.removed),
            "filled": self.filled,
            "notes": list(self.notes),
        }


def embed_text(chunks: list[Chunk], i: int, settings: Settings) -> str:
    """What is embedded for chunk i: header, text, and optionally its neighbours."""
    n = settings.embed_neighbours
    before = [chunks[j].text for j in range(max(0, i - n), i)] if n else []
    after = [chunks[j].text for j in range(i + 1, min(len(chunks), i + n + 1))] if n else []
    parts = [chunks[i].header, *before, chunks[i].text, *after]
    return "\n".join(p for p in parts if p)


def _exclude_from_vault_git(vault: Path, index_home: Path) -> None:
    """A vault that is a git repository gets the index folder in its ``.git/info/exclude`` (it
    showed as untracked, one `git add .` from committing every vector). Never fails a run."""
    git_dir = vault / ".git"
    if not git_dir.is_dir():
        return
    try:
        rel = Path(os.path.abspath(index_home)).relative_to(os.path.abspath(vault)).as_posix()
    except ValueError:
        return  # the index lives outside the vault
    line = f"/{rel}/"
    exclude = git_dir / "info" / "exclude"
    with contextlib.suppress(OSError, UnicodeDecodeError):
        text = exclude.read_text(encoding="utf-8") if exclude.exists() else ""
        if line in text.splitlines():
            return
        exclude.parent.mkdir(exist_ok=True)
        with open(exclude, "a", encoding="utf-8") as fh:
            fh.write(("" if not text or text.endswith("\n") else "\n") + f"# memsearch's index\n{line}\n")


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
    """
    started = time.perf_counter()
    vault = check_vault(vault)
    settings = (settings or Settings()).with_vault_config(vault)
    index_home = Path(index_home) if index_home else default_home(vault)
    check_home(index_home)  # refused as it is found: making it 0700 now would hide a swap
    tighten_private_dir(index_home)
    _exclude_from_vault_git(vault, index_home)
    with index_lock(index_home, timeout=lock_timeout, what=what):
        live = keep[0] if keep else None
        if keep:
            keep[0] = None  # changed in place below: kept again only if the run completes
        only = _scan_paths(vault, paths) if paths is not None else None
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
        # signals: new memories that match a standing interest (after_index never raises); a run
        # that changed nothing hands over a loader, called only if earlier matches wait for a retry
        from memsearch.signals import after_index

        after_index(vault, index_home, settings, run.data.chunks if run.loaded else lambda: run.data.chunks)
    return report


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


# -- the write side: open, recover, update, commit ----------------------------------------------


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
    from memsearch.forget import finish_pending_purge

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
        if not _object_ok(repo, head):
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


def _object_ok(repo: IndexRepo, commit: str) -> bool:
    import subprocess

    from memsearch.index.versioning import _git_env

    proc = subprocess.run(
        ["git", "-C", str(repo.path), "cat-file", "-e", f"{commit}^{{tree}}"],
        capture_output=True,
        env=_git_env(),
        check=False,
    )
    return proc.returncode == 0


@dataclass
class LivePreview:
    """A file as a live index already holds it, ahead of the repository (``update_file``)."""

    sha256: str
    ids: list[int]
    chunks: list[Chunk]
    aliases: dict[str, str] = field(default_factory=dict)


@dataclass
class _FileWork:
    """One file indexed again in this run."""

    path: str
    sha256: str
    parsed: ParsedFile
    chunks: list[Chunk]
    stamp: list[str] | None  # [source, iso] of the fallback timestamp its chunks took, if any
    ids: list[int] = field(default_factory=list)
    terms: list[PackedTerms] | None = None  # each chunk's keyword terms, if made with the chunks


class Update:
    """One incremental update of an index (with the lock held), from ``base`` to a new commit.

    ``data`` is the index being changed in memory; ``guard`` is held around every change of it
    (a live engine passes its lock so searches never see half a change). ``live`` names the files
    the live index already changed (``update_file``): what it holds for them replaces the
    manifest's, and a preview that matches the file on disk is committed as it is (same ids).
    ``allocate(n)`` hands out the first of ``n`` fresh chunk ids (a live engine shares its counter
    with the previews); ``snapshot=False`` leaves the snapshot to whoever loads the commit next.
    """

    def __init__(
        self,
        vault: Path,
        settings: Settings,
        home: Path,
        base: Base,
        progress: Progress | None = None,
        *,
        guard: Any = None,
        live: dict[str, LivePreview] | None = None,
        allocate: Callable[[int], int] | None = None,
        snapshot: bool = True,
    ) -> None:
        self.vault, self.settings, self.home, self.base = vault, settings, home, base
        self.notify = progress or (lambda stage, done, total: None)
        self.guard = guard or contextlib.nullcontext()
        self.live = dict(live or {})
        self.allocate = allocate
        self.snapshot = snapshot
        old = base.manifest
        self._loader = base.loader if base.data is None else None
        self.full = (
            old is None
            or (base.data is None and self._loader is None)
            or old.get("format") != FORMAT_VERSION
            or old.get("settings_fingerprint") != _settings_fingerprint(settings)
            or "next_id" not in old
        )
        self.old_files: dict[str, dict] = {} if old is None else dict(old.get("files", {}))
        self.next_id = int((old or {}).get("next_id", 0) or 0)
        self._data: in_memory.IndexData | None
        if old is not None and not self.full:
            self._data = base.data  # None until first needed, when the load was deferred
        else:
            self._data = in_memory.empty_index()
            self._loader = None
        if old is not None and self.full:
            # ids already used stay used, even by a manifest from before next_id was recorded
            used = [cid for e in self.old_files.values() for cid in e.get("chunks", ())]
            self.next_id = max(self.next_id, max(used, default=-1) + 1)

    @property
    def data(self) -> in_memory.IndexData:
        """The index being changed; a deferred load happens here, the first time it is needed."""
        if self._data is None:
            assert self._loader is not None
            try:
                self._data = self._loader()
            except Exception as exc:
                raise DeferredLoadError(str(exc)) from exc
        return self._data

    @property
    def loaded(self) -> bool:
        """Whether the index is in memory (a run that changed nothing never loads it)."""
        return self._data is not None

    # -- 1. scan ------------------------------------------------------------------------------
    def _scan(self, only: list[str] | None) -> tuple[dict[str, VaultFile], dict[str, str], set[str]]:
        """(files read, skipped {path: reason}, paths looked at)."""
        vault = self.vault
        found: list[tuple[str, str]]  # (absolute path, vault-relative path)
        if only is None:
            found = walk_markdown(vault)
            looked = {rel for _, rel in found}
        else:
            found = []
            for rel in only:
                path = vault / rel
                if _indexable(vault, rel) and (path.is_file() or path.is_symlink()):
                    found.append((str(path), rel))
            looked = set(only)
        files: dict[str, VaultFile] = {}
        skipped: dict[str, str] = {}
        from memsearch.forget import FORGOTTEN_REASON, load_forget_list

        self.forget = load_forget_list(self.home, vault)
        window = PREFETCH_WINDOW
        for n, (full, rel) in enumerate(found, 1):
            if n % window == 1:  # the next window's reads start while this one is read
                start = 0 if n == 1 else n - 1 + window
                prefetch([f for f, _ in found[start : n - 1 + 2 * window]])
            if self.forget.paths and self.forget.has_path(rel):
                skipped[rel] = FORGOTTEN_REASON  # `memsearch forget`: never indexed again
                continue
            got = read_file(vault, full, rel)
            if isinstance(got, Skipped):
                skipped[got.path] = got.reason
            else:
                files[got.path] = got
            self.notify("scan", n, len(found))
        return files, skipped, looked

    # -- the run ----------------------------------------------------------------------------
    def apply(
        self,
        only: list[str] | None = None,
        *,
        embed: bool = True,
        embedder: str | None = None,
        reembed: bool = False,
        started: float | None = None,
        pending_note: str | None = None,
    ) -> IndexReport:
        started = time.perf_counter() if started is None else started
        timings: dict[str, float] = {}
        old_manifest = self.base.manifest or {}
        t = time.perf_counter()
        files, skipped, looked = self._scan(only)
        timings["scan"] = time.perf_counter() - t

        # 2. what changed: by content hash, then by the fallback timestamp the content lacks
        t = time.perf_counter()
        old_files = self.old_files
        if self.full:
            unchanged: list[str] = []
            todo = list(files)
        else:
            unchanged = [p for p, vf in files.items() if old_files.get(p, {}).get("sha256") == vf.sha256]
            same = set(unchanged)
            todo = [p for p in files if p not in same]
        gone = [p for p in old_files if p not in files and (only is None or p in looked)]
        restamp_candidates = [p for p in unchanged if old_files[p].get("stamp")]
        need_times = sorted(set(todo) | set(restamp_candidates))
        commit_times = self._commit_times(need_times, only is None)
        restamped: list[str] = []
        for p in restamp_candidates:
            if old_files[p]["stamp"] != _fallback(files[p], commit_times)[0]:
                restamped.append(p)

        work: dict[str, _FileWork] = {}
        warnings: list[str] = []
        ordered = [files[p] for p in sorted(todo, key=walk_order)]
        fallbacks = [_fallback(vf, commit_times) for vf in ordered]
        chunked = _chunk_files(ordered, self.settings, fallbacks)
        for n, (vf, got) in enumerate(zip(ordered, chunked, strict=True), 1):
            path = vf.path
            if isinstance(got, str):  # one file must never stop the vault: name it and go on
                skipped[path] = got
                continue
            pf, terms, stamp = got
            chunks = list(pf.chunks)
            if self.forget.entities:  # chunks naming a forgotten entity (any spelling) are not indexed again
                kept = [c for c in chunks if not self.forget.drops(c.entities, f"{c.header}\n{c.text}")]
                if len(kept) != len(chunks):
                    chunks, terms = kept, None  # neighbours changed: terms again from what is kept
            work[path] = _FileWork(path, vf.sha256, pf, chunks, stamp, terms=terms)
            self.notify("chunk", n, len(todo))
        for path in list(skipped):
            if path in old_files and path not in gone:
                gone.append(path)
        timings["chunk"] = time.perf_counter() - t

        # 3. keyword, graph, time: in memory, under fresh ids
        t = time.perf_counter()
        added = sorted((p for p in work if p not in old_files), key=walk_order)
        changed = sorted((p for p in work if p in old_files), key=walk_order)
        new_files: dict[str, dict] = {} if self.full else {p: dict(e) for p, e in old_files.items()}
        for p in gone:
            new_files.pop(p, None)
        live = self.live if not self.full else {}
        reuse = {
            p
            for p, item in work.items()
            if p in live and live[p].sha256 == item.sha256 and live[p].chunks == item.chunks
        }
        for path in sorted(work, key=walk_order):
            item = work[path]
            if path in reuse:
                item.ids = list(live[path].ids)
            else:
                start = self.allocate(len(item.chunks)) if self.allocate else self.next_id
                item.ids = list(range(start, start + len(item.chunks)))
            self.next_id = max(self.next_id, max(item.ids, default=self.next_id - 1) + 1)
            entry: dict[str, Any] = {
                "sha256": item.sha256,
                "chunks": item.ids,
                "shard": shard_name(path),
            }
            if item.parsed.aliases:
                entry["aliases"] = dict(item.parsed.aliases)
            if item.stamp:
                entry["stamp"] = item.stamp
            if item.parsed.warnings:
                entry["warnings"] = list(item.parsed.warnings)
            new_files[path] = entry
        restamp_work: dict[str, list[Chunk]] = {}
        for path in restamped:
            stamp = _fallback(files[path], commit_times)
            ids = new_files[path]["chunks"]
            restamp_work[path] = [
                chunk_replace(self.data.chunks[cid], timestamp=stamp[1], timestamp_source=stamp[0][0])
                if self.data.chunks[cid].timestamp_source in ("git", "mtime")
                else self.data.chunks[cid]
                for cid in ids
            ]
            new_files[path] = {**new_files[path], "stamp": stamp[0]}
        # The graph resolved names under the alias map of what the index held (the commit, and
        # the live index's previews): rebuilt only when the new map differs from that one.
        held = {p: dict(e) for p, e in old_files.items()}
        for p, preview in live.items():
            entry = held.setdefault(p, {})
            if preview.aliases:
                entry["aliases"] = preview.aliases
            else:
                entry.pop("aliases", None)
        aliases_changed = in_memory.alias_map(held) != in_memory.alias_map(new_files)
        rebuild_graph = aliases_changed or self.full  # then the graph is made once, at the end
        with self.guard:
            if not self.full:
                # What the live index holds for each touched file goes (a preview, else the
                # commit's chunks); a preview of a file now back to its committed text gives way
                # to the committed chunks again.
                for path in sorted((set(gone) | set(changed) | set(live)) - reuse):
                    now = live[path].ids if path in live else old_files[path]["chunks"]
                    in_memory.remove_chunks(self.data, now)
                    if path in live and path in old_files and path not in work and path not in gone:
                        back = self._committed_chunks(path)
                        in_memory.add_file_chunks(self.data, old_files[path]["chunks"], back, self._shape())
            for path in sorted(work, key=lambda p: work[p].ids[:1] or [0]):
                if path in reuse:
                    continue
                item = work[path]
                in_memory.add_file_chunks(
                    self.data, item.ids, item.chunks, self.settings, item.terms, graph=not rebuild_graph
                )
                item.terms = None  # in the keyword index now (at 100k chunks they held ~0.5 GB)
            for path, chunks in restamp_work.items():
                in_memory.restamp_chunks(self.data, new_files[path]["chunks"], chunks)
            if rebuild_graph:
                in_memory.rebuild_graph(self.data, new_files)
        timings["keyword_graph_time"] = time.perf_counter() - t

        # 4. vectors: from the cache where the text was embedded before, else from the embedder
        t = time.perf_counter()
        scope = None if only is None else set(only)
        vec = self._embed(new_files, work, scope, embed=embed, embedder=embedder, reembed=reembed)
        if self.snapshot and self.loaded and self.data.vectors is not None:
            with self.guard:
                self.data.vectors.ready()  # the HNSW graph is vector work: timed here, not in save
        # "embed": the embedder and its cache; "vectors": putting them in the HNSW graph.
        timings["embed"] = vec.embed_s
        timings["vectors"] = time.perf_counter() - t - vec.embed_s
        if pending_note and vec.error and not embed:
            vec.error = pending_note

        # 5. the manifest and the files that changed, then one commit
        t = time.perf_counter()
        all_gaps = sorted(vec.gaps)
        for entry in new_files.values():
            gaps = [cid for cid in entry["chunks"] if cid in vec.gaps]
            if gaps:
                entry["gaps"] = gaps
            else:
                entry.pop("gaps", None)
        if only is not None:
            kept_skips = {p: r for p, r in old_manifest.get("skipped", {}).items() if p not in looked}
            skipped = {**kept_skips, **skipped}
        manifest = {
            "format": FORMAT_VERSION,
            "vault": str(self.vault),
            "built_at": datetime.now(tz=UTC).isoformat(timespec="seconds"),
            "embedder": vec.info,
            "settings_fingerprint": _settings_fingerprint(self.settings),
            "index_settings": {k: getattr(self.settings, k) for k in SHAPE_FIELDS},
            "files": dict(sorted(new_files.items())),
            "skipped": dict(sorted(skipped.items())),
            "gaps": all_gaps,
            "embedder_error": vec.error if all_gaps or vec.ran else None,
            "embedder_note": vec.note,
            "next_id": self.next_id,
        }
        if not vec.ran and all_gaps:
            manifest["embedder_error"] = old_manifest.get("embedder_error")
        if not vec.ran:
            manifest["embedder_note"] = old_manifest.get("embedder_note") if not self.full else vec.note
        commit = self._write(manifest, work, gone, restamped, vec, added, changed)
        timings["save"] = time.perf_counter() - t
        if self.loaded or commit:
            self.data.manifest = manifest if commit else (self.base.manifest or manifest)
        if commit:
            self.data.commit = commit
        elif self.base.data is not None and not self.full:
            self.data.commit = self.base.data.commit
        warnings = [f"{p}: {w}" for p, e in sorted(manifest["files"].items()) for w in e.get("warnings", ())]
        if self.loaded:
            n_chunks = len(self.data.chunks)
            n_vectors = len(self.data.vectors) if self.data.vectors is not None else 0
        else:  # unchanged: the manifest says what the index holds
            n_chunks = sum(len(e["chunks"]) for e in manifest["files"].values())
            n_vectors = n_chunks - len(all_gaps) if (manifest["embedder"] or {}).get("dim") else 0
        return IndexReport(
            vault=str(self.vault),
            index_home=str(self.home),
            files=len(manifest["files"]),
            chunks=n_chunks,
            embedded=vec.embedded,
            gaps=len(all_gaps),
            reused=max(0, n_vectors - vec.embedded),
            embedder=(manifest["embedder"] or {}).get("spec"),
            embedder_note=vec.note,
            skipped=tuple(Skipped(p, r) for p, r in manifest["skipped"].items()),
            warnings=tuple(warnings),
            seconds=time.perf_counter() - started,
            timings=timings,
            embedder_error=manifest["embedder_error"] if all_gaps or vec.ran else None,
            commit=commit,
            added=tuple(added),
            changed=tuple(sorted(set(changed) | set(restamped), key=walk_order)),
            removed=tuple(sorted(gone, key=walk_order)),
            filled=vec.filled,
            notes=tuple(self.base.notes),
        )

    def _shape(self) -> Settings:
        return shape_of(self.base.manifest or {})

    def _committed_chunks(self, path: str) -> list[Chunk]:
        manifest = self.base.manifest or {}
        commit = self.base.data.commit if self.base.data is not None else None
        chunks, _ = loading.read_files(self.base.repo, commit, manifest, [path])[path]
        return [c for _, c in chunks]

    def _commit_times(self, paths: list[str], whole: bool) -> dict[str, datetime]:
        if not paths:
            return {}
        if whole:
            return git_commit_times(self.vault)
        return git_commit_times(self.vault, paths)

    # -- 4. vectors -------------------------------------------------------------------------
    def _embed(
        self, new_files: dict[str, dict], work: dict[str, _FileWork], scope: set[str] | None, **how: Any
    ) -> _Vectors:
        """Embed what needs a vector: every chunk after a change of embedder, else the new chunks
        and the old gaps (of the files in ``scope``, if given); ``_vectors`` decides the embedder
        and keeps its soft seams."""
        from memsearch.embedders import choose_embedder, embedder_for

        old = self.base.manifest or {}
        previous = old.get("embedder") or {}
        want_fp = None
        with contextlib.suppress(Exception):
            choice = choose_embedder(self.vault, how["embedder"], self.settings, self.home)
            want_fp = embedder_for(choice.spec, self.vault).fingerprint
        everything = (
            self.full
            or how["reembed"]
            or not previous.get("fingerprint")
            or want_fp != previous.get("fingerprint")
            or (
                not self._has_vectors()
                and any(e["chunks"] for e in new_files.values())
                and not old.get("gaps")
            )
        )
        old_gaps = set(old.get("gaps", ())) if not self.full else set()
        from memsearch.forget import path_hash

        texts: list[str] = []
        ids: list[int] = []
        origins: list[str] = []  # whose text each is, by path hash: a forget finds its vectors by it
        for path in sorted(new_files, key=lambda p: new_files[p]["chunks"][:1] or [0]):
            entry = new_files[path]
            fresh = path in work
            if not (everything or fresh or any(cid in old_gaps for cid in entry["chunks"])):
                continue
            if not (everything or fresh) and scope is not None and path not in scope:
                continue
            chunks = work[path].chunks if fresh else [self.data.chunks[cid] for cid in entry["chunks"]]
            for i, cid in enumerate(entry["chunks"]):
                if everything or fresh or cid in old_gaps:
                    texts.append(embed_text(chunks, i, self.settings))
                    ids.append(cid)
                    origins.append(path_hash(path))
        out = _Vectors(info=dict(previous), gaps=set(old_gaps))
        if not texts and not everything:
            if out.gaps:  # a removed chunk is no gap
                out.gaps &= set(self.data.chunks) if self.loaded else _chunk_ids(new_files)
            return out  # the embedder's record stays as the run that embedded last wrote it
        started = time.perf_counter()
        got, embedded, _reused, failed, error, info, note = _embed_texts(
            self.vault,
            self.settings,
            self.home,
            texts,
            self.notify,
            how["embedder"],
            embed=how["embed"],
            reembed=how["reembed"],
            origins=origins,
        )
        out.ran, out.info, out.note, out.error, out.embedded = True, info, note, error, embedded
        out.embed_s = time.perf_counter() - started
        failed_ids = {ids[i] for i in failed}
        with self.guard:
            if everything:
                dim = int(info["dim"]) if info.get("dim") else None
                self.data.vectors = VectorIndex(dim) if dim and got is not None else None
                embedded_ids = _ids_of(got, ids)
                out.gaps = {cid for cid in self.data.chunks if cid not in embedded_ids}
                out.rewrite_all = True
            else:
                out.gaps = (old_gaps - set(ids)) | failed_ids
                if got is not None and self.data.vectors is None and info.get("dim"):
                    self.data.vectors = VectorIndex(int(info["dim"]))
            if got is not None and self.data.vectors is not None:
                positions, matrix = got
                if len(positions):
                    self.data.vectors.add([ids[i] for i in positions], matrix)
        out.gaps &= set(self.data.chunks)
        out.filled = len((old_gaps & set(self.data.chunks)) - out.gaps)
        return out

    def _has_vectors(self) -> bool:
        if self.loaded:
            return self.data.vectors is not None
        # Not loaded: the index is the last commit's, whose vectors exist if its embedder had a dim.
        return bool(((self.base.manifest or {}).get("embedder") or {}).get("dim"))

    # -- 5. write and commit ------------------------------------------------------------------
    def _write(
        self,
        manifest: dict,
        work: dict[str, _FileWork],
        gone: list[str],
        restamped: list[str],
        vec: _Vectors,
        added: list[str],
        changed: list[str],
    ) -> str | None:
        repo = self.base.repo
        root = repo.path
        old = self.base.manifest
        staged: list[str] = []
        if self.full:  # everything is written again: nothing of an unreadable commit stays behind
            for sub in ("shards", "vectors", FILES_SUBDIR):
                if (root / sub).exists():
                    shutil.rmtree(root / sub)
                    staged.append(sub)
        for path in gone:
            entry = self.old_files.get(path)
            if entry is None or self.full:
                continue
            for rel in (shard_file(entry["shard"]), vector_file(entry["shard"])):
                target = root / rel
                if target.exists():
                    target.unlink()
                    staged.append(rel)
            crashpoint("removed")
        files = manifest["files"]
        vector_paths = set(files) if vec.rewrite_all else set()
        vector_paths |= {
            p for p, e in files.items() if set(e["chunks"]) & vec.touched_gaps(self.old_files, p)
        }
        for path in sorted(set(work) | set(restamped) | vector_paths, key=walk_order):
            entry = files[path]
            name = entry["shard"]
            if path in work or path in restamped:
                chunks = work[path].chunks if path in work else [self.data.chunks[c] for c in entry["chunks"]]
                rows = [
                    (cid, chunk, embed_sha(embed_text(chunks, i, self.settings)))
                    for i, (cid, chunk) in enumerate(zip(entry["chunks"], chunks, strict=True))
                ]
                staged.append(_put(root, shard_file(name), encode_shard(rows)))
                crashpoint("shard")
            rel = self._put_vectors(root, name, entry)
            if rel:
                staged.append(rel)
            crashpoint("vectors")
        if old is not None and _same(old, manifest) and not staged:
            return None
        touched = None if self.full else set(work) | set(gone) | set(restamped) | vector_paths
        staged += _put_buckets(root, manifest, touched)
        crashpoint("buckets")
        staged.append(_put(root, MANIFEST, encode_manifest_head(manifest)))
        crashpoint("manifest")
        message = commit_message(
            added, sorted(set(changed) | set(restamped), key=walk_order), gone, vec, manifest, old
        )
        commit = repo.commit(staged, message)
        if commit is None:
            return None
        self.data.commit = commit
        self.data.manifest = manifest
        changed_files = len(set(work) | set(gone) | set(restamped) | vector_paths)
        unsaved = None if self.full else self.data.unsaved_files
        self.data.unsaved_files = None if unsaved is None else unsaved + changed_files
        if self.snapshot and snapshots.snapshot_due(self.data):
            with contextlib.suppress(OSError):
                snapshots.save_snapshot(self.home, self.data)
        snapshots.prune_snapshots(self.home, keep={commit})
        with contextlib.suppress(Exception):
            repo.maintain()
        legacy = IndexLayout(self.home).legacy_index
        if legacy.is_dir() and (legacy / MANIFEST).exists():
            shutil.rmtree(legacy, ignore_errors=True)
        return commit

    def _put_vectors(self, root: Path, name: str, entry: dict) -> str | None:
        """Write (or delete) one file's vectors; the path to stage, None if nothing was there."""
        rel = vector_file(name)
        target = root / rel
        rows = vector_rows(entry)
        vectors = self.data.vectors
        if vectors is None or not rows:
            if target.exists():
                target.unlink()
                return rel
            return None
        matrix = np.stack([vectors._vectors[cid] for cid in rows])
        return _put(root, rel, encode_vectors(matrix))


@dataclass
class _Vectors:
    info: dict
    gaps: set[int]
    ran: bool = False
    note: str | None = None
    error: str | None = None
    embedded: int = 0
    filled: int = 0
    rewrite_all: bool = False
    embed_s: float = 0.0  # in the embedder and its cache (the rest of stage 4 is the HNSW graph)

    def touched_gaps(self, old_files: dict[str, dict], path: str) -> set[int]:
        """Chunk ids of ``path`` that were gaps before and are not now (their vectors came in)."""
        before = set(old_files.get(path, {}).get("gaps", ()))
        return before - self.gaps


def _chunk_ids(files: dict[str, dict]) -> set[int]:
    return {cid for entry in files.values() for cid in entry["chunks"]}


def _ids_of(got: tuple[list[int], np.ndarray] | None, ids: list[int]) -> set[int]:
    return set() if got is None else {ids[i] for i in got[0]}


def _put(root: Path, rel: str, data: bytes) -> str:
    target = root / rel
    if not target.parent.exists():
        for folder in reversed(target.relative_to(root).parents[:-1]):
            if not (root / folder).exists():
                tighten_private_dir(root / folder)
    # Written in place, not through a temporary file and a rename: the work tree is read by no one
    # (readers read commits), and what a killed writer leaves half-written `recover` discards.
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
    return rel


def _put_buckets(root: Path, manifest: dict, touched: set[str] | None) -> list[str]:
    """Write the manifest buckets holding ``touched`` files (all if None); the paths to stage."""
    staged = []
    for rel, data in manifest_buckets(manifest, touched).items():
        if data:
            staged.append(_put(root, rel, data))
        elif (root / rel).exists():
            (root / rel).unlink()
            staged.append(rel)
    return staged


def _indexable(vault: Path, rel: str) -> bool:
    from memsearch.scan import IGNORED_DIRS, MARKDOWN_SUFFIXES

    parts = rel.split("/")
    if any(p in IGNORED_DIRS or p.startswith(".") for p in parts[:-1]) or parts[-1].startswith("."):
        return False
    return parts[-1].lower().endswith(MARKDOWN_SUFFIXES) and ".." not in parts


def _fallback(vf: VaultFile, commit_times: dict[str, datetime]) -> tuple[list[str], datetime]:
    """The timestamp a chunk without one takes: the file's last commit, else its mtime."""
    when, source = commit_times.get(vf.path), "git"
    if when is None:
        when, source = datetime.fromtimestamp(vf.mtime, tz=UTC), "mtime"
    return [source, when.isoformat()], when


#: A run chunks at least this many files before it spreads them over processes (a fork and its
#: pipe cost ~20 ms; one file ~1.5 ms to chunk).
PARALLEL_MIN_FILES = 200
#: ``MEMSEARCH_WORKERS=1`` keeps chunking in the calling process; a number caps the processes.
WORKERS_ENV = "MEMSEARCH_WORKERS"


#: What a chunk without a timestamp of its own takes: ([source, iso], when) (see ``_fallback``).
Fallback = tuple[list[str], datetime]
#: A file chunked: its chunks (those without a timestamp given the fallback), each chunk's keyword
#: terms, and the fallback's [source, iso] if a chunk took it.
Chunked = tuple[ParsedFile, list[PackedTerms], list[str] | None]


def _chunk_or_reason(vf: VaultFile, settings: Settings, fallback: Fallback) -> Chunked | str:
    """A file's chunks, timestamped, and each chunk's keyword terms (tokenizing is half the work:
    it goes where the chunking goes), or why the file could not be chunked."""
    try:
        parsed = chunk_file(vf.path, vf.text, settings)
    except Exception as exc:
        return f"could not be chunked ({type(exc).__name__}: {exc})"
    terms = file_keyword_terms(list(parsed.chunks), settings)  # (timestamps only change: terms stand)
    chunks, stamp = _stamp(parsed.chunks, fallback)
    if stamp is not None:
        parsed = dataclasses.replace(parsed, chunks=tuple(chunks))
    return parsed, terms, stamp


def _chunk_workers(n_files: int) -> int:
    """How many processes chunk ``n_files`` files: 1 unless many files, several cores, and a
    single-threaded process (forking one with threads can copy a lock another thread held)."""
    try:
        cap = int(os.environ.get(WORKERS_ENV, "0") or 0)
    except ValueError:
        cap = 0
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    workers = min(cores, cap) if cap > 0 else cores
    if (
        workers < 2
        or n_files < PARALLEL_MIN_FILES
        or threading.active_count() > 1
        or not sys.platform.startswith("linux")  # fork elsewhere (macOS) can break native libraries
    ):
        return 1
    return workers


def _chunk_files(
    files: list[VaultFile], settings: Settings, fallbacks: list[Fallback]
) -> Iterator[Chunked | str]:
    """Each file's chunks (or why it could not be chunked), in order; over forked processes when
    there are enough files to pay for them (chunking is pure CPU, and files are independent)."""
    workers = _chunk_workers(len(files))
    if workers == 1:
        yield from (_chunk_or_reason(vf, settings, fb) for vf, fb in zip(files, fallbacks, strict=True))
        return
    chunksize = max(1, min(64, len(files) // (workers * 8)))
    tasks = zip(files, fallbacks, strict=True)
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        for got in pool.imap(partial(_chunk_for_pipe, settings=settings), tasks, chunksize):
            yield got if isinstance(got, str) else _from_pipe(got)


def _chunk_for_pipe(task: tuple[VaultFile, Fallback], settings: Settings) -> tuple | str:
    """:func:`_chunk_or_reason` in the shape a chunking process sends it back: each chunk as a tuple
    of its fields, and the file's keyword terms flat (one tuple of terms; arrays of their weights,
    of each chunk's count and length). Pickled as objects, a chunk and its terms took ~20 us to
    unpickle (the parent did it while both cores chunked); as tuples and arrays, under a quarter."""
    vf, fallback = task
    got = _chunk_or_reason(vf, settings, fallback)
    if isinstance(got, str):
        return got
    parsed, terms, stamp = got
    rows = [chunk_row(c) for c in parsed.chunks]
    words: list[str] = []
    weights = array("f")
    sizes = array("q")
    lengths = array("d")
    for chunk_terms, tfs, length in terms:
        words.extend(chunk_terms)
        weights.extend(tfs)
        sizes.append(len(chunk_terms))
        lengths.append(length)
    head = (parsed.path, parsed.title, parsed.frontmatter, parsed.aliases, parsed.warnings)
    return head, rows, (tuple(words), weights, sizes, lengths), stamp


def _from_pipe(sent: tuple) -> Chunked:
    """What :func:`_chunk_for_pipe` sent, as :func:`_chunk_or_reason` returned it."""
    (path, title, frontmatter, aliases, warnings), rows, (words, weights, sizes, lengths), stamp = sent
    chunks = [chunk_from_row(row) for row in rows]
    terms: list[PackedTerms] = []
    start = 0
    for size, length in zip(sizes, lengths, strict=True):
        end = start + size
        terms.append((words[start:end], weights[start:end], length))
        start = end
    parsed = ParsedFile(
        path=path,
        title=title,
        frontmatter=frontmatter,
        aliases=aliases,
        chunks=tuple(chunks),
        warnings=warnings,
    )
    return parsed, terms, stamp


def _stamp(chunks: Iterable[Chunk], fallback: Fallback) -> tuple[list[Chunk], list[str] | None]:
    """The chunks, those without a timestamp given the fallback's; its [source, iso] if one took it."""
    chunks = list(chunks)
    if all(c.timestamp for c in chunks):
        return chunks, None
    stamp, when = fallback
    return [
        c if c.timestamp else chunk_replace(c, timestamp=when, timestamp_source=stamp[0]) for c in chunks
    ], stamp


def _same(old: dict, new: dict) -> bool:
    """Whether two manifests record the same index (the build time aside)."""

    def strip(m: dict) -> dict:  # when and where from: recorded with a change, never one alone
        return {k: v for k, v in m.items() if k not in ("built_at", "vault")}

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
    vec: _Vectors,
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
        body.append(f"{len(manifest['gaps'])} chunks await vectors ({manifest.get('embedder_error')})")
    if vec.note:
        body.append(vec.note)
    return subject + ("\n\n" + "\n".join(body) if body else "") + "\n"


def _embed_texts(
    vault: Path,
    settings: Settings,
    index_home: Path,
    texts: list[str],
    notify: Progress,
    explicit: str | None,
    *,
    embed: bool,
    reembed: bool,
    origins: list[str] | None = None,
) -> tuple[tuple[list[int], np.ndarray] | None, int, int, list[int], str | None, dict, str | None]:
    """:func:`_vectors`, returning ``(positions with a vector, their rows)`` instead of an index."""
    holder: dict[str, Any] = {}

    def keep(ok_ids: list[int], matrix: np.ndarray) -> None:
        holder["got"] = (ok_ids, matrix)

    vectors, embedded, reused, failed, error, info, note = _vectors(
        vault,
        settings,
        index_home,
        texts,
        notify,
        explicit,
        embed=embed,
        reembed=reembed,
        sink=keep,
        origins=origins,
    )
    got = holder.get("got")
    if vectors is None:
        got = None
    return got, embedded, reused, failed, error, info, note


def _vectors(
    vault: Path,
    settings: Settings,
    index_home: Path,
    texts: list[str],
    notify: Progress,
    explicit: str | None,
    *,
    embed: bool,
    reembed: bool,
    sink: Callable[[list[int], np.ndarray], None] | None = None,
    origins: list[str] | None = None,
) -> tuple[VectorIndex | None, int, int, list[int], str | None, dict, str | None]:
    """Stage 4: ``(vectors, embedded, reused, gap chunk ids, embedder error, manifest record, note)``.

    Chunk ids are the positions in ``texts``; ``sink(positions, rows)`` also receives the vectors
    as plain rows. The embedder is a soft seam: whatever it could
    not embed is a gap (the vectors it did compute are kept, in the index and the cache), and
    nothing here raises for its sake.

    Every vector comes from one embedder (one fingerprint), so an index never mixes two. A
    change of embedder re-embeds every chunk with the new one (the cache serves any text it
    embedded before); if the new one cannot be made, or leaves more chunks without a vector
    than the previous one would, the index keeps the previous embedder this run and says so
    (what the new one did embed is cached, so the next attempt starts there).
    """
    from memsearch.embedders import choose_embedder, embedder_for, index_manifest_embedder
    from memsearch.index.embedding_cache import EmbeddingCache, EmbedOutcome, embed_texts_with_cache

    choice = choose_embedder(vault, explicit, settings, index_home)
    previous = index_manifest_embedder(index_home)
    all_ids = list(range(len(texts)))

    def record(embedder, spec: str, source: str) -> dict:
        describe = getattr(embedder, "describe", None)
        return {
            "spec": getattr(embedder, "spec", spec),
            "chosen_by": source,
            "name": embedder.name,
            "dim": int(embedder.dim),
            "fingerprint": embedder.fingerprint,
            **({"details": describe()} if callable(describe) else {}),
        }

    def run(embedder, again: bool = reembed) -> EmbedOutcome:
        with EmbeddingCache(IndexLayout(index_home).embedding_cache) as cache:
            return embed_texts_with_cache(
                embedder,
                cache,
                texts,
                progress=lambda d, n: notify("embed", d, n),
                reembed=again,
                allow_embed=embed,
                origins=origins,
            )

    def keep_previous() -> tuple[object, EmbedOutcome] | None:
        """The previous embedder and its outcome, if it can still serve this index."""
        spec = previous.get("spec")
        if not spec or not texts:
            return None
        try:
            old = embedder_for(str(spec), vault)
            if old.fingerprint != previous.get("fingerprint"):
                return None
            return old, run(old, again=False)
        except Exception:
            return None

    info: dict = {"spec": choice.spec, "chosen_by": choice.source}
    error: str | None = None
    embedder, outcome = None, None
    try:
        embedder = embedder_for(choice.spec, vault)
        info = record(embedder, choice.spec, choice.source)
    except Exception as exc:  # a bad spec or config: keyword, graph and time still index
        error = f"{type(exc).__name__}: {exc}"
    changed = bool(previous.get("fingerprint")) and previous.get("fingerprint") != info.get("fingerprint")
    note = None
    if embedder is not None and texts:
        try:
            outcome = run(embedder)
        except Exception as exc:  # an unreadable cache: no vectors this run, everything else indexes
            error = f"{type(exc).__name__}: {exc}"
    if changed:
        new_gaps = len(texts) if outcome is None else len(outcome.failed)
        kept = keep_previous() if new_gaps else None
        if kept is not None and len(kept[1].failed) < new_gaps:
            old, old_outcome = kept
            why = error if outcome is None else (outcome.error or "")
            note = (
                f"did not switch to embedder {info.get('spec')}: it left {new_gaps} of {len(texts)} chunks"
                f" without a vector ({why}); the index keeps {previous.get('spec')}. What"
                f" {info.get('spec')} embedded is cached: run `memsearch index --embedder"
                f" {info.get('spec')}` again when it answers"
            )
            embedder, outcome, error = old, old_outcome, None
            info = record(old, str(previous.get("spec")), "index (switch failed)")
        else:
            note = (
                f"embedder changed from {previous.get('spec')} ({previous['fingerprint']}) to"
                f" {info.get('spec')} ({info.get('fingerprint')}): every chunk has a vector of the new"
                " embedder or is a gap; no vector of the old one is kept"
            )
    if outcome is None:
        return None, 0, 0, all_ids if error else [], error, info, note
    ok_ids = [i for i in all_ids if outcome.ok[i]]
    vectors = None
    if ok_ids and embedder is not None:
        vectors = VectorIndex(int(embedder.dim))
        vectors.add(ok_ids, outcome.vectors[outcome.ok])
        if sink is not None:  # the raw rows, for a caller that merges them into its own index
            sink(ok_ids, outcome.vectors[outcome.ok])
    return vectors, outcome.embedded, outcome.reused, outcome.failed, outcome.error, info, note


def _settings_fingerprint(settings: Settings) -> str:
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
    with index_lock(home, timeout=lock_timeout, what="memsearch rollback"):
        repo = IndexRepo(home)
        if not repo.exists():
            from memsearch.errors import IndexMissingError

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
        _put(repo.path, MANIFEST, encode_manifest_head(manifest))
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
