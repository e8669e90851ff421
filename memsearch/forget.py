"""Forgetting: remove memories from every index, from the caches and, on request, from history.

``forget(vault, paths=[...])`` drops whole files; ``forget(vault, entity="Ed")`` drops every chunk
naming that entity (resolved through the vault's aliases). Either way, one commit removes their
shards, vectors and manifest entries (keyword, vectors, graph and time are all derived from
those), and:

* the forget list (``<index home>/forgotten.json``, owner-only) records a sha256 of each forgotten
  path and of each forgotten entity key, never the path, the name or the text. The vault is ground
  truth and is never written, so a forgotten file still in the vault is skipped by every later
  ``index``/``reindex``/``watch`` (named in ``skipped`` with the reason "forgotten"), and chunks
  naming a forgotten entity are dropped when their file is chunked again. Trade-off: while such a
  file stays in the vault, its *path* shows in the manifest's skipped list (the vault shows it
  too); its text and vectors are never indexed again.
* the embedding cache loses the vectors of the forgotten texts (rows deleted by text hash, then
  ``VACUUM`` and a WAL checkpoint, so the bytes leave the file), every derived snapshot is
  dropped (rebuilt from the new commit), and the signal state forgets their hashes and events.

Without ``purge_history`` older commits still hold the forgotten memories (``search --at`` an
older commit, or ``rollback``, sees them; the next index run forgets them again). With it, every
commit is rewritten without them (shards, vectors, manifest entries, the path in commit messages),
reflogs are expired and ``git gc --prune=now --aggressive`` drops the old objects, so no commit and
no cache holds their text or vectors. The rewritten commits have new ids: ``memsearch log`` lists
them, and relative revisions (``HEAD~3``) keep pointing at the same states, now without the
forgotten memories.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memsearch.errors import IndexMissingError, MemsearchError
from memsearch.index import in_memory, loading
from memsearch.index.format import (
    FILES_SUBDIR,
    MANIFEST,
    decode_manifest,
    decode_vectors,
    encode_manifest_head,
    encode_vectors,
    manifest_buckets,
    shard_file,
    vector_file,
    vector_rows,
)
from memsearch.index.graph import normalize as normalize_entity
from memsearch.index.versioning import IndexRepo, _git_env, crashpoint
from memsearch.lock import DEFAULT_LOCK_TIMEOUT, index_lock
from memsearch.paths import IndexLayout, atomic_write, default_home
from memsearch.scan import check_vault

FORGET_FORMAT = 1
FORGOTTEN_REASON = "forgotten (memsearch forget); remove it from the vault or keep it unindexed"


def _h(value: str) -> str:
    return hashlib.sha256(value.encode("utf-8")).hexdigest()


def path_hash(rel: str) -> str:
    return _h("path:" + rel)


def entity_hash(key: str) -> str:
    return _h("entity:" + normalize_entity(key))


# -- the forget list ----------------------------------------------------------------------------

#: The vault's own copy of the forget list (hashes only), beside ``memsearch.toml``: every index of
#: the vault (another ``--index-dir``, another ``MEMSEARCH_HOME``) honours it.
VAULT_FORGET_FILE = ".memsearch-forgotten.json"
#: Written before a purge touches anything and removed when it is whole: a run that finds it
#: finishes the purge (a kill -9 part-way must not leave the text in history or the cache).
#: Longest name (in words) whose spellings are looked for in a chunk's text.
MAX_PHRASE_WORDS = 6
_WORD = re.compile(r"\w+")
_POSSESSIVE = re.compile(r"['\u2019]s\b")


def words(text: str) -> list[str]:
    """A text's words as a name is matched: NFKC, casefolded, possessive 's dropped, punctuation gone."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return _WORD.findall(_POSSESSIVE.sub(" ", folded))


def phrase_hash(parts: list[str] | tuple[str, ...]) -> str:
    return _h("phrase:" + " ".join(parts))


def name_variants(name: str) -> set[tuple[str, ...]]:
    """The word sequences a multi-word name is written as: its order, the surname first
    ("Vask (Quillon)", "Vask, Quillon" for "Quillon Vask"); case and a possessive are already
    folded by :func:`words`. A one-word name is matched as an entity only (as a plain word it
    would take every chunk using that word)."""
    parts = tuple(words(name))
    if len(parts) < 2 or len(parts) > MAX_PHRASE_WORDS:
        return set()
    return {parts, (parts[-1], *parts[:-1]), tuple(reversed(parts))}


@dataclass
class ForgetList:
    paths: set[str] = field(default_factory=set)  # path_hash of each forgotten file
    entities: set[str] = field(default_factory=set)  # entity_hash of each forgotten entity key
    phrases: set[str] = field(default_factory=set)  # phrase_hash of each spelling of a forgotten name
    phrase_words: set[int] = field(default_factory=set)  # how many words those spellings have
    purged: set[str] = field(default_factory=set)  # path/entity hashes forgotten with --purge-history
    #: path hash -> path, for forgets that were not purged (``forget --list`` names them; the
    #: commits still do). Kept in the index home only, never in the vault's copy.
    names: dict[str, str] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.paths or self.entities)

    def has_path(self, rel: str) -> bool:
        return path_hash(rel) in self.paths

    def names_entity(self, entities: Any, aliases: dict[str, str] | None = None) -> bool:
        if not self.entities:
            return False
        for name in entities:
            key = normalize_entity(name)
            if entity_hash(key) in self.entities:
                return True
            if aliases and key in aliases and entity_hash(aliases[key]) in self.entities:
                return True
        return False

    def mentions(self, text: str) -> bool:
        """Whether ``text`` writes a forgotten name in one of its spellings (by hash: no name is kept)."""
        if not self.phrases or not text:
            return False
        seq = words(text)
        for n in self.phrase_words:
            for i in range(len(seq) - n + 1):
                if phrase_hash(seq[i : i + n]) in self.phrases:
                    return True
        return False

    def drops(self, entities: Any, text: str, aliases: dict[str, str] | None = None) -> bool:
        """Whether a chunk (its entities, its header and text) is forgotten."""
        return self.names_entity(entities, aliases) or self.mentions(text)

    def add_entity(self, keys: set[str]) -> None:
        self.entities |= {entity_hash(k) for k in keys if k}
        for key in keys:
            for parts in name_variants(key):
                self.phrases.add(phrase_hash(parts))
                self.phrase_words.add(len(parts))

    def merge(self, other: ForgetList) -> None:
        self.paths |= other.paths
        self.entities |= other.entities
        self.phrases |= other.phrases
        self.phrase_words |= other.phrase_words
        self.purged |= other.purged
        for h, name in other.names.items():
            self.names.setdefault(h, name)

    def to_json(self, *, with_names: bool) -> bytes:
        data: dict[str, Any] = {
            "format": FORGET_FORMAT,
            "paths": sorted(self.paths),
            "entities": sorted(self.entities),
            "phrases": sorted(self.phrases),
            "phrase_words": sorted(self.phrase_words),
            "purged": sorted(self.purged),
        }
        if with_names:
            data["names"] = {h: n for h, n in sorted(self.names.items()) if h in self.paths}
        return (json.dumps(data, indent=1) + "\n").encode()


def _read_list(path: Path) -> ForgetList:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ForgetList()
    if not isinstance(data, dict):
        return ForgetList()

    def strings(key: str) -> set[str]:
        value = data.get(key, ())
        return {v for v in value if isinstance(v, str)} if isinstance(value, list) else set()

    names = data.get("names") if isinstance(data.get("names"), dict) else {}
    lengths = data.get("phrase_words", ())
    return ForgetList(
        strings("paths"),
        strings("entities"),
        strings("phrases"),
        {n for n in lengths if isinstance(n, int) and 0 < n <= MAX_PHRASE_WORDS}
        if isinstance(lengths, list)
        else set(),
        strings("purged"),
        {h: n for h, n in names.items() if isinstance(h, str) and isinstance(n, str)},
    )


def vault_forget_file(vault: Path) -> Path:
    return Path(vault) / VAULT_FORGET_FILE


def load_forget_list(home: Path, vault: Path | None = None) -> ForgetList:
    """The index home's forget list, with the vault's own copy (hashes only) when ``vault`` is given."""
    forget = _read_list(IndexLayout(home).forget_list)
    if vault is not None:
        forget.merge(_read_list(vault_forget_file(vault)))
    return forget


def save_forget_list(home: Path, forget: ForgetList, vault: Path | None = None) -> str | None:
    """Write the index home's list and, with ``vault``, the vault's copy (hashes only, no names).

    Returns a warning when the vault's copy could not be written (a read-only vault): the index
    home's list still holds, but another index of the vault would not know.
    """
    atomic_write(IndexLayout(home).forget_list, forget.to_json(with_names=True))
    if vault is None:
        return None
    target = vault_forget_file(vault)
    try:
        if not forget and not target.exists():
            return None
        atomic_write(target, forget.to_json(with_names=False))
    except OSError as exc:
        return (
            f"could not write the vault's forget list {target} ({exc.strerror or exc}): this index"
            " honours the forget, another index of the vault would not"
        )
    return None


# -- the report ---------------------------------------------------------------------------------


@dataclass
class ForgetReport:
    files: list[str]
    chunks: int
    commit: str | None
    cache_rows: int = 0
    snapshots_dropped: int = 0
    purged: bool = False
    rewritten: int = 0  # commits rewritten by --purge-history
    not_found: list[str] = field(default_factory=list)
    earlier_names: int = 0  # names the file had before (renames) found in history and purged too
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "files": self.files,
            "chunks": self.chunks,
            "commit": self.commit,
            "cache_rows": self.cache_rows,
            "snapshots_dropped": self.snapshots_dropped,
            "purged": self.purged,
            "rewritten": self.rewritten,
            "not_found": self.not_found,
            "earlier_names": self.earlier_names,
            "warnings": self.warnings,
        }

    def summary(self) -> str:
        where = f"commit {self.commit[:12]}" if self.commit else "no commit (nothing indexed to forget)"
        out = (
            f"forgot {len(self.files)} file(s) and {self.chunks} chunk(s); {where};"
            f" {self.cache_rows} cached vectors deleted, {self.snapshots_dropped} snapshots dropped"
        )
        if self.purged:
            out += f"; history purged ({self.rewritten} commits rewritten, new ids"
            if self.earlier_names:
                out += f", {self.earlier_names} earlier name(s) of the file(s) too"
            out += ")"
        return out


# -- one tree without the forgotten memories ------------------------------------------------------


class _Pruner:
    """Takes the forgotten memories out of one commit's files (a dict of path -> bytes getter)."""

    def __init__(self, forget: ForgetList, dim: int | None) -> None:
        self.forget = forget
        self.dim = dim
        self.embed_shas: set[str] = set()  # texts whose vectors go from the cache
        self.content_hashes: set[str] = set()  # for the signal state
        self.paths: set[str] = set()  # forgotten paths seen (for messages and the signal inbox)
        self.chunks = 0

    def prune(self, files: dict[str, dict], read: Any, dim: int | None) -> tuple[dict, dict, set[str]]:
        """``(new file table, {repo path: new bytes or None to delete}, touched manifest paths)``."""
        aliases = in_memory.alias_map(files)
        out = dict(files)
        writes: dict[str, bytes | None] = {}
        touched: set[str] = set()
        for path, entry in files.items():
            name = entry["shard"]
            shard_rel, vec_rel = shard_file(name), vector_file(name)
            whole = self.forget.has_path(path)
            if not whole and not (self.forget.entities or self.forget.phrases):
                continue
            raw = read(shard_rel)
            lines = [ln for ln in (raw or b"").splitlines() if ln.strip()]
            keep_lines, keep_ids, drop_ids = [], [], set()
            for line in lines:
                data = json.loads(line)
                said = f"{data.get('header', '')}\n{data.get('text', '')}"
                if whole or self.forget.drops(data.get("entities", ()), said, aliases):
                    drop_ids.add(data["id"])
                    if data.get("embed_sha256"):
                        self.embed_shas.add(data["embed_sha256"])
                    header, text = data.get("header", ""), data.get("text", "")
                    self.content_hashes.add(_h(f"{header}\n{text}"))
                else:
                    keep_lines.append(line)
                    keep_ids.append(data["id"])
            if not drop_ids and not whole:
                continue
            touched.add(path)
            self.chunks += len(drop_ids)
            if whole or not keep_ids:
                if whole:
                    self.paths.add(path)
                    del out[path]
                else:
                    out[path] = {**entry, "chunks": []}
                    out[path].pop("gaps", None)
                    writes[shard_rel] = b""
                if whole:
                    writes[shard_rel] = None
                writes[vec_rel] = None
                continue
            new_entry = {**entry, "chunks": keep_ids}
            gaps = [cid for cid in entry.get("gaps", ()) if cid in set(keep_ids)]
            if gaps:
                new_entry["gaps"] = gaps
            else:
                new_entry.pop("gaps", None)
            out[path] = new_entry
            writes[shard_rel] = b"".join(ln + b"\n" for ln in keep_lines)
            vec_raw = read(vec_rel)
            if vec_raw is not None and dim:
                matrix = decode_vectors(vec_raw, int(dim))
                rows = vector_rows(entry)
                keep_rows = [i for i, cid in enumerate(rows) if cid not in drop_ids]
                if keep_rows:
                    writes[vec_rel] = encode_vectors(matrix[keep_rows])
                else:
                    writes[vec_rel] = None
        return out, writes, touched


def _relative(vault: Path, p: str | Path) -> str:
    path = Path(p)
    if path.is_absolute():
        with contextlib.suppress(ValueError):
            return path.resolve().relative_to(vault.resolve()).as_posix()
        with contextlib.suppress(ValueError):
            return path.relative_to(vault).as_posix()
        return path.as_posix()
    return path.as_posix().strip("/")


class NothingToForgetError(MemsearchError):
    """A path to forget names nothing indexed and nothing in the vault (a typo, most often)."""


def _lookup(vault: Path, manifest: dict, rel: str) -> list[str]:
    """What ``rel`` names: indexed files (itself or under it as a folder), else the file in the
    vault or in the skipped list (not indexed, but there: forgetting it keeps it out)."""
    files, skipped = manifest["files"], manifest.get("skipped", {})
    folder = rel.rstrip("/") + "/"
    hit = [f for f in files if f == rel or f.startswith(folder)]
    if hit or not rel:
        return hit
    hit = [f for f in skipped if f == rel or f.startswith(folder)]
    if not hit and (vault / rel).is_file():
        hit = [rel]
    return hit


def forget(
    vault: str | Path,
    paths: list[str | Path] | tuple = (),
    entity: str | None = None,
    *,
    index_home: str | Path | None = None,
    purge_history: bool = False,
    lock_timeout: float | None = DEFAULT_LOCK_TIMEOUT,
    force: bool = False,
) -> ForgetReport:
    """Forget files (``paths``: files or folders, vault-relative or absolute) and/or an entity.

    A path that names nothing (not indexed, not in the vault) is refused with
    :class:`NothingToForgetError` unless ``force`` (then it is never indexed, should it appear).
    """
    from memsearch.indexer import open_for_write

    vault = check_vault(Path(vault))
    home = Path(index_home) if index_home else default_home(vault)
    if not paths and not entity:
        raise MemsearchError("nothing to forget: name files (PATH...) or an entity (--entity NAME)")
    if not IndexRepo(home).exists():
        raise IndexMissingError(f"no index at {home}; run `memsearch index VAULT` first")
    with index_lock(home, timeout=lock_timeout, what="memsearch forget"):
        base = open_for_write(home)  # finishes a purge a killed run left half done, too
        repo = base.repo
        manifest = base.manifest
        if manifest is None or repo.head() is None:
            raise IndexMissingError(f"no index at {home} yet; run `memsearch index VAULT` first")
        files: dict[str, dict] = manifest["files"]
        forget_now = ForgetList()
        report_files: list[str] = []
        not_found: list[str] = []
        for p in paths:
            rel = _relative(vault, p)
            hit = _lookup(vault, manifest, rel)
            if not hit:
                not_found.append(rel or str(p))
                if rel:  # not indexed now, but never to be indexed either
                    forget_now.paths.add(path_hash(rel))
            for f in hit:
                forget_now.paths.add(path_hash(f))
                if f in files:
                    report_files.append(f)
        if not_found and not force:
            raise NothingToForgetError(
                f"found nothing to forget at {', '.join(repr(p) for p in not_found)}: no file or folder"
                " of that name is indexed or in the vault (`memsearch status` shows what is); check the"
                " name, or pass --force to keep that path from ever being indexed. Nothing was changed"
            )
        if entity:
            aliases = in_memory.alias_map(files)
            key = normalize_entity(entity)
            canonical = aliases.get(key, key)
            keys = {canonical, key} | {a for a, c in aliases.items() if c == canonical}
            keys.add(normalize_entity(" ".join(words(entity))))  # "Quillon Vask's" -> the name
            forget_now.add_entity(keys)
        # The whole forget list applies (an earlier forget's files stay out of this commit too).
        forget = load_forget_list(home, vault)
        forget.merge(forget_now)
        if purge_history:  # the path is kept nowhere once its history is purged
            forget.purged |= forget_now.paths | forget_now.entities
            for h in forget_now.paths:
                forget.names.pop(h, None)
        else:
            for f in [*report_files, *not_found]:
                if f and path_hash(f) in forget_now.paths:
                    forget.names[path_hash(f)] = f
        warning = save_forget_list(home, forget, vault)
        inbox = _inbox(vault, home)
        if purge_history:
            _mark_pending(home, inbox)
        crashpoint("forget-list-saved")
        message = functools.partial(_message, report_files, entity, purge=purge_history)
        report = _apply(
            home, repo, manifest, forget, purge=purge_history, message=message, inbox=inbox, vault=vault
        )
        report.files = sorted(report_files)
        report.not_found = not_found
        if warning:
            report.warnings.append(warning)
        return report


@dataclass
class Forgotten:
    """One forgotten path as ``forget --list`` shows it: by path where it can be named, never by content."""

    path: str | None  # None: purged, and no file of the vault has that name now
    hash: str
    purged: bool
    in_vault: bool

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "sha256": self.hash, "purged": self.purged, "in_vault": self.in_vault}


def _vault_names(vault: Path, wanted: set[str]) -> dict[str, str]:
    """path hash -> vault-relative path, for the vault's files (hidden folders left out) among ``wanted``."""
    found: dict[str, str] = {}
    for root, dirs, names in os.walk(vault):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in names:
            rel = (Path(root) / name).relative_to(vault).as_posix()
            h = path_hash(rel)
            if h in wanted:
                found[h] = rel
    return found


def list_forgotten(vault: str | Path, index_home: str | Path | None = None) -> tuple[list[Forgotten], int]:
    """What is forgotten: ``([paths], number of forgotten entity keys)``. A path forgotten without
    a purge is named (the history still names it); a purged one only if the vault has a file of
    that name, else by a prefix of its hash."""
    vault = check_vault(Path(vault))
    home = Path(index_home) if index_home else default_home(vault)
    forget = load_forget_list(home, vault)
    in_vault = _vault_names(vault, forget.paths)
    out = []
    for h in sorted(forget.paths):
        name = forget.names.get(h) or in_vault.get(h)
        out.append(Forgotten(name, h, h in forget.purged, h in in_vault))
    out.sort(key=lambda f: (f.path is None, f.path or "", f.hash))
    entities = len(forget.entities)
    return out, entities


def unforget(
    vault: str | Path,
    paths: list[str | Path] | tuple,
    *,
    index_home: str | Path | None = None,
    force: bool = False,
    lock_timeout: float | None = DEFAULT_LOCK_TIMEOUT,
) -> list[str]:
    """Undo the forget of ``paths``: the next index run indexes them again from the vault.

    A path forgotten with ``--purge-history`` is refused unless ``force`` (its history cannot come
    back; with ``force`` only the vault's file may be indexed again). Returns the paths unforgotten.
    """
    vault = check_vault(Path(vault))
    home = Path(index_home) if index_home else default_home(vault)
    if not paths:
        raise MemsearchError("nothing to unforget: name the forgotten files (`memsearch forget --list`)")
    with index_lock(home, timeout=lock_timeout, what="memsearch unforget"):
        forget = load_forget_list(home, vault)
        rels = [_relative(vault, p) for p in paths]
        for rel in rels:
            h = path_hash(rel)
            if h not in forget.paths:
                raise MemsearchError(
                    f"{rel!r} is not forgotten (`memsearch forget --list` shows what is); nothing was changed"
                )
            if h in forget.purged and not force:
                raise MemsearchError(
                    f"{rel!r} was forgotten with --purge-history: what the index held of it is gone and"
                    " cannot come back; pass --force to let the vault's file be indexed again. Nothing"
                    " was changed"
                )
        for rel in rels:
            h = path_hash(rel)
            forget.paths.discard(h)
            forget.purged.discard(h)
            forget.names.pop(h, None)
        # Both copies are written whole (the vault's copy without names): the path leaves both.
        atomic_write(IndexLayout(home).forget_list, forget.to_json(with_names=True))
        target = vault_forget_file(vault)
        if target.exists():
            atomic_write(target, forget.to_json(with_names=False))
        return rels


def _inbox(vault: Path, home: Path) -> Path:
    """Where signal events go (``[signals] inbox`` of memsearch.toml, else the index home's)."""
    from memsearch.signals import load_signal_config

    try:
        return load_signal_config(vault, home).inbox
    except Exception:  # an unreadable config must not stop a forget: the default inbox at least
        return IndexLayout(home).signal_inbox


def _mark_pending(home: Path, inbox: Path, keys: set[str] | None = None) -> None:
    data = {"format": 1, "started": int(time.time()), "inbox": str(inbox), "keys": sorted(keys or ())}
    atomic_write(IndexLayout(home).purge_pending, (json.dumps(data) + "\n").encode())


def _read_pending(home: Path) -> dict[str, Any] | None:
    path = IndexLayout(home).purge_pending
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = {}  # torn by a kill: the purge is still owed, with what the forget list says
    return data if isinstance(data, dict) else {}


def finish_pending_purge(home: Path) -> str | None:
    """Finish a ``forget --purge-history`` a killed run left part done (call with the lock held,
    after :meth:`IndexRepo.recover`). Returns a note for the run's report, or None if none was owed."""
    pending = _read_pending(home)
    if pending is None:
        return None
    repo = IndexRepo(home)
    head = repo.head()
    forget = load_forget_list(home)
    inbox = Path(pending.get("inbox") or IndexLayout(home).signal_inbox)
    keys = {k for k in pending.get("keys", ()) if isinstance(k, str)}
    if head is None or not repo.exists():
        _purge_cache(home, keys, forget.paths)
        IndexLayout(home).purge_pending.unlink(missing_ok=True)
        return "finished an interrupted `memsearch forget --purge-history` (the index had no commit)"
    manifest = loading.committed_manifest(repo, head)

    def message(chunks: int) -> str:
        return f"forget: finish an interrupted purge ({chunks} chunks), history purged\n"

    report = _apply(home, repo, manifest, forget, purge=True, message=message, inbox=inbox, keys=keys)
    return (
        "finished an interrupted `memsearch forget --purge-history`"
        f" ({report.rewritten} commits rewritten, {report.cache_rows} cached vectors deleted)"
    )


def _apply(
    home: Path,
    repo: IndexRepo,
    manifest: dict,
    forget: ForgetList,
    *,
    purge: bool,
    message: Callable[[int], str],
    inbox: Path,
    vault: Path | None = None,
    keys: set[str] | None = None,
) -> ForgetReport:
    """Take every memory of ``forget`` out of HEAD (one commit), and with ``purge`` out of every
    commit, then out of the snapshots, the embedding cache and the signal log. Each step can be
    done again: a purge killed at any point is finished by doing it all again."""
    from memsearch.indexer.writer import put, put_buckets

    files: dict[str, dict] = manifest["files"]
    dim = (manifest.get("embedder") or {}).get("dim")
    pruner = _Pruner(forget, dim)
    root = repo.path
    new_files, writes, touched = pruner.prune(
        files, lambda rel: (root / rel).read_bytes() if (root / rel).exists() else None, dim
    )
    staged: list[str] = []
    for rel, data in writes.items():
        if data is None:
            if (root / rel).exists():
                (root / rel).unlink()
                staged.append(rel)
        else:
            staged.append(put(root, rel, data))
    skipped = manifest.get("skipped", {})
    hidden = [p for p in skipped if forget.has_path(p) and skipped[p] != FORGOTTEN_REASON]
    if touched or hidden:
        new_manifest = dict(manifest)
        new_manifest["files"] = dict(sorted(new_files.items()))
        new_manifest["skipped"] = {
            p: (FORGOTTEN_REASON if forget.has_path(p) else r) for p, r in skipped.items()
        }
        for p in pruner.paths:
            if vault is not None and (vault / p).exists():
                new_manifest["skipped"][p] = FORGOTTEN_REASON
        new_manifest["skipped"] = dict(sorted(new_manifest["skipped"].items()))
        new_manifest["gaps"] = sorted(c for e in new_files.values() for c in e.get("gaps", ()))
        staged += put_buckets(root, new_manifest, touched)
        staged.append(put(root, MANIFEST, encode_manifest_head(new_manifest)))
    commit = repo.commit(staged, message(pruner.chunks)) if staged else None
    report = ForgetReport([], pruner.chunks, commit)
    cache_keys = set(keys or ())
    if purge:
        history = _History(repo)
        earlier = _earlier_names(repo, forget, history)
        if earlier:  # recorded before the rewrite: a run finishing it must know them too
            forget.paths |= earlier
            forget.purged |= earlier
            save_forget_list(home, forget, vault)
        report.earlier_names = len(earlier)
        cache_keys |= _history_keys(repo, forget, history)
        _mark_pending(home, inbox, cache_keys)
        crashpoint("purge-scanned")
        report.rewritten = _purge_history(repo, forget, pruner)
        report.purged = True
        report.commit = repo.head()  # the rewrite gave every commit a new id: print the real one
    crashpoint("purge-history-done")
    report.snapshots_dropped = _drop_snapshots(home)
    report.cache_rows = _purge_cache(home, pruner.embed_shas | cache_keys, forget.paths)
    crashpoint("purge-cache-done")
    _purge_signals(home, pruner, forget, inbox)
    crashpoint("purge-signals-done")
    IndexLayout(home).purge_pending.unlink(missing_ok=True)
    head = repo.head()
    if head:
        with contextlib.suppress(Exception):
            loading.load_commit(home, head)  # the new HEAD's snapshot, built from the commit
    return report


def _message(files: list[str], entity: str | None, chunks: int, purge: bool) -> str:
    """Names what was forgotten; after a purge only by hash (the history keeps no trace of it)."""
    if purge:
        what = [f"{len(files)} file(s)"] + (["an entity"] if entity else [])
        body = [f"  path sha256 {path_hash(f)[:16]}" for f in files]
        if entity:
            body.append(f"  entity sha256 {entity_hash(entity)[:16]}")
        return f"forget {' and '.join(what)} ({chunks} chunks), history purged\n\n" + "\n".join(body) + "\n"
    named = [f"-{f}" for f in files[:3]] + ([f"entity {entity!r}"] if entity else [])
    more = f" and {len(files) - 3} more" if len(files) > 3 else ""
    body = [f"  {f}" for f in files]
    if entity:
        body.append(f"  every chunk naming {entity!r}")
    return f"forget {' '.join(named)}{more} ({chunks} chunks)\n\n" + "\n".join(body) + "\n"


# -- caches and signal state --------------------------------------------------------------------


def _drop_snapshots(home: Path) -> int:
    """Drop every snapshot under the index home's cache, not only this repository's: a folder
    left by the repository at another path (the index home moved or copied) holds the text too."""
    root = IndexLayout(home).snapshots
    n = 0
    if root.is_dir():
        for tag in root.iterdir():
            if tag.is_dir():
                n += sum(1 for e in tag.iterdir() if not e.name.startswith("."))
        shutil.rmtree(root, ignore_errors=True)
    return n


def _purge_cache(home: Path, keys: set[str], paths: set[str] = frozenset()) -> int:  # type: ignore[assignment]
    """Delete the cached vectors of ``keys`` (text hashes) and of every text embedded for a
    forgotten path (``paths``: path hashes, from the cache's origins table: a vector embedded by
    a run that never committed is in no commit), then compact the file so the bytes leave it."""
    from memsearch.index.embedding_cache import ORIGINS_TABLE

    path = IndexLayout(home).embedding_cache
    if not path.exists():
        return 0
    deleted = 0
    conn = sqlite3.connect(path, isolation_level=None, timeout=30)
    try:
        wanted = set(keys)
        has_origins = conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (ORIGINS_TABLE,)
        ).fetchone()
        ordered_paths = sorted(paths)
        if has_origins:
            for start in range(0, len(ordered_paths), 500):
                part = ordered_paths[start : start + 500]
                marks = ",".join("?" * len(part))
                rows = conn.execute(f"SELECT key FROM {ORIGINS_TABLE} WHERE origin IN ({marks})", part)
                wanted |= {row[0] for row in rows}
        ordered = sorted(wanted)
        for start in range(0, len(ordered), 500):
            part = ordered[start : start + 500]
            marks = ",".join("?" * len(part))
            deleted += conn.execute(f"DELETE FROM vectors WHERE key IN ({marks})", part).rowcount
            if has_origins:
                conn.execute(f"DELETE FROM {ORIGINS_TABLE} WHERE key IN ({marks})", part)
        conn.execute("PRAGMA secure_delete=ON")
        for attempt in range(20):  # a reader in another process may hold the file for a moment
            try:
                conn.execute("VACUUM")
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                break
            except sqlite3.OperationalError:
                if attempt == 19:
                    raise MemsearchError(
                        f"the embedding cache {path} is busy: its rows of the forgotten memories are"
                        " deleted but the file was not compacted; run `memsearch forget` again"
                        " when no other memsearch process is running"
                    ) from None
                time.sleep(0.25)
    finally:
        conn.close()
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(OSError):
            os.chmod(f"{path}{suffix}", 0o600)
    return deleted


def _purge_signals(home: Path, pruner: _Pruner, forget: ForgetList, inbox: Path) -> None:
    """The signal state forgets the chunks' hashes; the signal log loses every event about a
    forgotten file or that writes a forgotten name (in any of its fields, in any spelling)."""
    from memsearch.signals import load_state, save_state

    shorts = {h[:16] for h in pruner.content_hashes}
    state = load_state(home)
    if state is not None and shorts:
        state["seen"] = [h for h in state.get("seen", []) if h not in shorts]
        state["fired"] = {
            k: v for k, v in state.get("fired", {}).items() if not any(s in k or s == v for s in shorts)
        }
        save_state(home, state)
    for log_file in {Path(inbox), IndexLayout(home).signal_inbox}:
        if log_file.is_file():
            _purge_log(log_file, forget)
    last = IndexLayout(home).signal_last_run
    if last.exists() and (pruner.paths or pruner.chunks):
        last.unlink(missing_ok=True)


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _purge_log(log_file: Path, forget: ForgetList) -> None:
    raw = log_file.read_bytes()
    kept: list[bytes] = []
    for line in raw.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            kept.append(line)
            continue
        target = event.get("target") if isinstance(event, dict) else None
        if isinstance(target, str) and forget.has_path(target):
            continue
        texts = _strings(event)
        payload = event.get("payload") if isinstance(event, dict) else None
        entities = payload.get("entities", []) if isinstance(payload, dict) else []
        if forget.names_entity(e for e in entities if isinstance(e, str)) or any(
            forget.mentions(t) for t in texts
        ):
            continue
        if forget.entities and any(entity_hash(t) in forget.entities for t in texts if len(t) <= 100):
            continue
        kept.append(line)
    new = b"".join(ln + b"\n" for ln in kept)
    if new != raw:
        atomic_write(log_file, new)


# -- rewriting history --------------------------------------------------------------------------


def _git(repo: IndexRepo, *args: str, input: bytes | None = None, env: dict | None = None) -> bytes:
    full = {**_git_env(), **(env or {})}
    cmd = ["sh", "-c", 'umask 077 && exec git "$@"', "git", "-C", str(repo.path), *args]
    proc = subprocess.run(cmd, input=input, capture_output=True, env=full, check=False)
    if proc.returncode != 0:
        raise MemsearchError(
            f"git {args[0]} failed in {repo.path}: {proc.stderr.decode('utf-8', 'replace').strip()}"
        )
    return proc.stdout


class _History:
    """Every commit's file table and shard texts, read once (for the scans before a rewrite)."""

    def __init__(self, repo: IndexRepo) -> None:
        self.repo = repo
        out = _git(repo, "rev-list", "--reverse", "--topo-order", "--parents", "HEAD").decode()
        self.commits = [line.split() for line in out.splitlines()]
        self._files: dict[str, dict[str, dict] | None] = {}
        self._trees: dict[str, dict[str, str]] = {}
        self._blobs: dict[str, list[dict]] = {}

    def files(self, sha: str) -> dict[str, dict] | None:
        if sha not in self._files:
            try:
                self._files[sha] = loading.committed_manifest(self.repo, sha)["files"]
            except Exception:  # a commit of an older format or without a manifest holds no file table
                self._files[sha] = None
        return self._files[sha]

    def shard(self, sha: str, entry: dict) -> list[dict]:
        """The chunk records of one file's shard at ``sha`` (read once per blob)."""
        if sha not in self._trees:
            self._trees[sha] = self.repo.tree(sha, "shards")
        blob = self._trees[sha].get(shard_file(entry["shard"]))
        if blob is None:
            return []
        if blob not in self._blobs:
            raw = self.repo.read_blobs([blob])[blob]
            records = []
            for line in raw.splitlines():
                with contextlib.suppress(ValueError):
                    records.append(json.loads(line))
            self._blobs[blob] = records
        return self._blobs[blob]

    def texts(self, sha: str, entry: dict) -> set[str]:
        return {
            r.get("embed_sha256") or _h(f"{r.get('header', '')}\n{r.get('text', '')}")
            for r in self.shard(sha, entry)
        }


def _earlier_names(repo: IndexRepo, forget: ForgetList, history: _History | None = None) -> set[str]:
    """Path hashes of the names a forgotten file had before: a commit that adds a forgotten path
    and drops another whose content, or any chunk's text, it shares is a rename (followed back
    through every earlier rename). Those names are forgotten with it."""
    history = history or _History(repo)
    found: set[str] = set()

    def gone(rel: str) -> bool:
        return forget.has_path(rel) or path_hash(rel) in found

    changed = True
    while changed:
        changed = False
        for sha, *parents in reversed(history.commits):
            now = history.files(sha)
            if now is None:
                continue
            for parent in parents:
                before = history.files(parent)
                if before is None:
                    continue
                added = [p for p in now if p not in before and gone(p)]
                if not added:
                    continue
                for q in [q for q in before if q not in now and not gone(q)]:
                    for p in added:
                        same = now[p].get("sha256") and now[p].get("sha256") == before[q].get("sha256")
                        if same or history.texts(sha, now[p]) & history.texts(parent, before[q]):
                            found.add(path_hash(q))
                            changed = True
                            break
    return found


def _history_keys(repo: IndexRepo, forget: ForgetList, history: _History | None = None) -> set[str]:
    """The text hashes of every forgotten chunk in any commit (their vectors leave the cache even
    if a purge is killed after the rewrite, when no commit names them any more)."""
    history = history or _History(repo)
    keys: set[str] = set()
    for sha, *_parents in history.commits:
        files = history.files(sha)
        if not files:
            continue
        aliases = in_memory.alias_map(files) if forget.entities else None
        for rel, entry in files.items():
            whole = forget.has_path(rel)
            if not whole and not (forget.entities or forget.phrases):
                continue
            for r in history.shard(sha, entry):
                said = f"{r.get('header', '')}\n{r.get('text', '')}"
                if r.get("embed_sha256") and (whole or forget.drops(r.get("entities", ()), said, aliases)):
                    keys.add(r["embed_sha256"])
    return keys


def _drop_leftovers(repo: IndexRepo) -> None:
    """What a rewrite or a gc killed part way leaves in the git folder (temporary index files,
    half-written packs and objects): they may hold the old objects' bytes."""
    for entry in repo.git_dir.glob("tmp*"):
        if entry.is_dir():
            shutil.rmtree(entry, ignore_errors=True)
    objects = repo.git_dir / "objects"
    for pattern in ("pack/.tmp-*", "pack/tmp_*", "tmp_obj_*", "*/tmp_obj_*", "incoming-*"):
        for entry in objects.glob(pattern):
            if entry.is_dir():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                entry.unlink(missing_ok=True)


def _purge_history(repo: IndexRepo, forget: ForgetList, pruner: _Pruner) -> int:
    """Rewrite every commit without the forgotten memories; expire reflogs; gc. Returns commits rewritten."""
    _drop_leftovers(repo)
    commits = [
        line.split()
        for line in _git(repo, "rev-list", "--reverse", "--topo-order", "--parents", "HEAD")
        .decode()
        .splitlines()
    ]
    mapping: dict[str, str] = {}
    rewritten = 0
    with tempfile.TemporaryDirectory(dir=repo.git_dir) as tmp:
        index_file = os.path.join(tmp, "index")
        for sha, *parents in commits:
            tree = repo.tree(sha)
            blobs = repo.read_blobs(list(tree.values()))

            def read(rel: str, tree: dict = tree, blobs: dict = blobs) -> bytes | None:
                return blobs[tree[rel]] if rel in tree else None

            head_raw = read(MANIFEST)
            changes: dict[str, bytes | None] = {}
            if head_raw is not None:
                bucket_raws = [read(p) for p in sorted(tree) if p.startswith(FILES_SUBDIR + "/")]
                manifest = decode_manifest(head_raw, [b for b in bucket_raws if b is not None])
                dim = (manifest.get("embedder") or {}).get("dim")
                new_files, writes, touched = pruner.prune(manifest["files"], read, dim)
                changes.update(writes)
                skipped = manifest.get("skipped", {})
                hidden = [p for p in skipped if forget.has_path(p)]
                if touched or hidden:
                    manifest["files"] = new_files
                    for p in hidden:
                        pruner.paths.add(p)
                        skipped.pop(p)
                    changes[MANIFEST] = encode_manifest_head(manifest)
                    for rel, data in manifest_buckets(manifest, touched).items():
                        changes[rel] = data or None
            message = _git(repo, "log", "-1", "--format=%B", sha).decode("utf-8", "replace")
            new_message = _redact(message, pruner.paths)
            new_parents = [mapping.get(p, p) for p in parents]
            if not changes and new_message == message and new_parents == parents:
                mapping[sha] = sha
                continue
            rewritten += 1
            env = {"GIT_INDEX_FILE": index_file}
            _git(repo, "read-tree", sha, env=env)
            lines = []
            for rel, data in changes.items():
                if data is None:
                    if rel in tree:
                        lines.append(f"0 {'0' * 40}\t{rel}")
                else:
                    blob = _git(repo, "hash-object", "-w", "--stdin", input=data).decode().strip()
                    lines.append(f"100644 {blob}\t{rel}")
            if lines:
                _git(repo, "update-index", "--index-info", input=("\n".join(lines) + "\n").encode(), env=env)
            new_tree = _git(repo, "write-tree", env=env).decode().strip()
            dates = _git(
                repo, "log", "-1", "--format=%an%x00%ae%x00%ad%x00%cn%x00%ce%x00%cd", "--date=raw", sha
            )
            an, ae, ad, cn, ce, cd = dates.decode().rstrip("\n").split("\x00")
            cenv = {
                "GIT_AUTHOR_NAME": an,
                "GIT_AUTHOR_EMAIL": ae,
                "GIT_AUTHOR_DATE": ad,
                "GIT_COMMITTER_NAME": cn,
                "GIT_COMMITTER_EMAIL": ce,
                "GIT_COMMITTER_DATE": cd,
            }
            args = ["commit-tree", new_tree]
            for p in new_parents:
                args += ["-p", p]
            mapping[sha] = _git(repo, *args, "-F", "-", input=new_message.encode(), env=cenv).decode().strip()
    crashpoint("purge-commits-written")
    head = repo.head()
    if head and mapping.get(head, head) != head:
        _git(repo, "update-ref", "refs/heads/main", mapping[head])
    crashpoint("purge-ref-moved")
    _git(repo, "read-tree", "--reset", "-u", "HEAD")
    # Nothing may still reach an old object: other refs, reflogs, a filter-branch backup.
    for ref in _git(repo, "for-each-ref", "--format=%(refname)").decode().split():
        if ref != "refs/heads/main":
            _git(repo, "update-ref", "-d", ref)
    shutil.rmtree(repo.git_dir / "refs" / "original", ignore_errors=True)
    for name in ("ORIG_HEAD", "FETCH_HEAD", "COMMIT_EDITMSG"):
        (repo.git_dir / name).unlink(missing_ok=True)
    _git(repo, "reflog", "expire", "--expire=now", "--all")
    crashpoint("purge-before-gc")
    _git(repo, "gc", "--prune=now", "--aggressive", "--quiet")
    _git(repo, "prune", "--expire=now")
    _drop_leftovers(repo)
    _owner_only(repo.git_dir)
    return rewritten


def _redact(message: str, paths: set[str]) -> str:
    for p in sorted(paths, key=len, reverse=True):
        message = message.replace(p, f"(forgotten {path_hash(p)[:12]})")
    return message


def _owner_only(root: Path) -> None:
    for dirpath, _dirnames, filenames in os.walk(root):
        with contextlib.suppress(OSError):
            os.chmod(dirpath, 0o700)
        for name in filenames:
            with contextlib.suppress(OSError):
                os.chmod(os.path.join(dirpath, name), 0o600)
