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
import os
import posixpath
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memsearch.errors import IndexMissingError, MemsearchError
from memsearch.index import in_memory, loading
from memsearch.index.forget_list import (
    ForgetList,
    content_hash,
    entity_hash,
    folder_hash,
    load_forget_list,
    path_hash,
    save_forget_list,
    vault_forget_file,
    words,
)
from memsearch.index.graph import normalize as normalize_entity
from memsearch.index.history import Pruner
from memsearch.index.versioning import IndexRepo, crashpoint
from memsearch.indexer import open_for_write
from memsearch.lock import DEFAULT_LOCK_TIMEOUT, index_lock
from memsearch.paths import IndexLayout, atomic_write, default_home
from memsearch.purge import ForgetReport, forget_everywhere, mark_pending, signal_inbox
from memsearch.retrieval import push
from memsearch.scan import check_vault


class NothingToForgetError(MemsearchError):
    """A path to forget names nothing indexed and nothing in the vault (a typo, most often)."""


def _relative(vault: Path, p: str | Path, outside: bool = False) -> str:
    """``p`` as the manifest writes it: vault-relative. A path outside the vault (``/etc/passwd``,
    ``../../notes.md``) is refused with :class:`NothingToForgetError`, ``--force`` or not: no such
    file is ever indexed, and the forget list was written a hash of it and the caches dropped.
    ``outside``: such a path is given back as written (to unforget what an older version kept)."""
    path = Path(p)
    if path.is_absolute():
        with contextlib.suppress(ValueError):
            inside = path.resolve().relative_to(vault.resolve()).as_posix()
            return "" if inside == "." else inside
        with contextlib.suppress(ValueError):
            inside = path.relative_to(vault).as_posix()
            return "" if inside == "." else inside
    else:
        inside = posixpath.normpath(path.as_posix())  # "notes/../a.md" is a.md
        if inside != ".." and not inside.startswith("../"):
            return "" if inside == "." else inside.strip("/")
    if outside:
        return path.as_posix()
    raise NothingToForgetError(
        f"{str(p)!r} is outside the vault {vault}: name the vault's files and folders, by their path"
        " in the vault or in full. Nothing was changed"
    )


def _lookup(vault: Path, manifest: dict, rel: str) -> list[str]:
    """What ``rel`` names: indexed files (itself or under it as a folder), else the file in the
    vault or in the skipped list (not indexed, but there: forgetting it keeps it out)."""
    files, skipped = manifest["files"], manifest.get("skipped", {})
    folder = rel.rstrip("/") + "/"
    hit = [f for f in files if f == rel or f.startswith(folder)]
    if hit or not rel:
        return hit
    # not a folder the scan could not read ("priv/"): forgetting it names none of its files
    hit = [f for f in skipped if not f.endswith("/") and (f == rel or f.startswith(folder))]
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
        rels = [_relative(vault, p) for p in paths]  # refused before anything changes
        if "" in rels:
            raise NothingToForgetError(
                f"{str(paths[rels.index('')])!r} names the whole vault: forget its files or folders by"
                " name (a whole index is deleted with its folder). Nothing was changed"
            )
        folders: list[str] = []  # forgotten as folders: what is written there later stays out too
        for p, rel in zip(paths, rels, strict=True):
            hit = _lookup(vault, manifest, rel)
            if not hit:  # not indexed now, but never to be indexed either (as a file or a folder)
                not_found.append(rel or str(p))
                forget_now.paths |= {path_hash(rel), folder_hash(rel)}
                folders.append(rel)
                continue
            # A folder's files are forgotten through the folder's hash alone: `unforget` of the
            # folder takes back what this forget did, and a file forgotten on its own stays.
            key = path_hash(rel) if hit == [rel] else folder_hash(rel)
            forget_now.paths.add(key)
            if hit != [rel]:
                folders.append(rel)
            for f in hit:
                if f in files:
                    report_files.append(f)
                for digest in _digests(vault, files, f):  # its text stays out under another name too
                    forget_now.add_content(key, digest)
        if not_found and not force:
            raise NothingToForgetError(
                f"found nothing to forget at {', '.join(repr(p) for p in not_found)}: no file or folder"
                " of that name is indexed or in the vault (`memsearch status` shows what is); check the"
                " name, or pass --force to keep that path from ever being indexed. Nothing was changed"
            )
        # The whole forget list applies (an earlier forget's files stay out of this commit too).
        forget = load_forget_list(home, vault)
        if entity:
            aliases = in_memory.alias_map(files)
            key = normalize_entity(entity)
            canonical = aliases.get(key, key)
            keys = {canonical, key} | {a for a, c in aliases.items() if c == canonical}
            name = ForgetList()  # the name alone: the paths given with it must not pass for it
            name.add_entity(keys | _name_keys(entity))
            forget_now.merge(name)
            if not force and not _names_anything(name, forget, files, repo.path, manifest):
                raise NothingToForgetError(
                    f"found nothing naming {entity!r} to forget: no indexed chunk names it, an alias"
                    " of it or a spelling of it (`memsearch search --entity NAME` shows what does);"
                    " check the spelling, or pass --force to keep the name from ever being indexed."
                    " Nothing was changed"
                )
        forget.merge(forget_now)
        if purge_history:  # the path is kept nowhere once its history is purged
            forget.purged |= forget_now.paths | forget_now.entities
            for h in forget_now.paths:
                forget.names.pop(h, None)
        else:
            for f in [*report_files, *not_found]:
                if f and path_hash(f) in forget_now.paths:
                    forget.names[path_hash(f)] = f
            for folder in folders:
                forget.names[folder_hash(folder)] = folder.rstrip("/") + "/"
        crashpoint("forget-list-unsaved")  # a kill here: the forget did not happen, nothing half done
        warning = save_forget_list(home, forget, vault)
        inbox = signal_inbox(vault, home)
        if purge_history:
            mark_pending(home, inbox)
        crashpoint("forget-list-saved")
        message = functools.partial(_message, report_files, entity, purge=purge_history)
        report = forget_and_push(
            home,
            repo,
            manifest,
            forget,
            purge=purge_history,
            message=message,
            inbox=inbox,
            vault=vault,
            warning=warning,
            backend_note="the next `memsearch index` deletes the forgotten rows there",
        )
        # Indexed copies of a forgotten text go with it (forget_now.has_content): say which.
        held = forget_now.has_content
        copies = sorted(f for f, e in files.items() if f not in report_files and held(e.get("sha256", "")))
        if copies:
            report.warnings.append(
                f"also forgot {', '.join(copies)}: the same text as a forgotten file (`memsearch unforget"
                " PATH` of one takes that text back)"
            )
        report.files = sorted([*report_files, *copies])
        report.not_found = not_found
        return report


def forget_and_push(
    home: Path,
    repo: IndexRepo,
    manifest: dict,
    forget: ForgetList,
    *,
    purge: bool,
    message: Callable[[int], str],
    inbox: Path,
    vault: Path,
    warning: str | None,
    backend_note: str,
) -> ForgetReport:
    """The forget list (saved, ``warning`` if its vault copy was not) applied to HEAD and, with
    ``purge``, to the history (:func:`memsearch.purge.forget_everywhere`); then the vault's backend
    collection brought level now, not at the next run (``backend_note`` says when it will be
    if it could not be)."""
    report = forget_everywhere(
        home, repo, manifest, forget, purge=purge, message=message, inbox=inbox, vault=vault
    )
    if warning:
        report.warnings.append(warning)
    head = repo.head()
    behind = push(home, lambda: loading.load_commit(home, head), head, compact=True) if head else None
    if behind:
        report.warnings.append(f"{behind}; {backend_note}")
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
    """path hash -> vault-relative path, for the vault's files and folders (``folder/``; hidden
    folders left out) among ``wanted``."""
    found: dict[str, str] = {}
    for root, dirs, names in os.walk(vault):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in dirs:
            rel = (Path(root) / name).relative_to(vault).as_posix()
            if folder_hash(rel) in wanted:
                found[folder_hash(rel)] = rel + "/"
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


def _names_anything(
    wanted: ForgetList, forgotten: ForgetList, files: dict[str, dict], root: Path, manifest: dict
) -> bool:
    """Whether forgetting ``wanted``'s name takes a chunk out of HEAD, or the name is forgotten
    already (a forget asked again, to purge its history say). A typo must not pass for a forget."""
    for mine, theirs in ((wanted.entities, forgotten.entities), (wanted.phrases, forgotten.phrases)):
        if mine and mine <= theirs:  # a one-word name has no phrases: an empty set proves nothing
            return True
    dry = Pruner(wanted, (manifest.get("embedder") or {}).get("dim"))
    dry.prune(files, lambda rel: (root / rel).read_bytes() if (root / rel).exists() else None, dry.dim)
    return dry.chunks > 0


def _name_keys(entity: str) -> set[str]:
    """The keys a name is forgotten (and unforgotten) under: as written, and its words alone
    ("Quillon Vask's" -> "quillon vask")."""
    return {k for k in (normalize_entity(entity), normalize_entity(" ".join(words(entity)))) if k}


def unforget(
    vault: str | Path,
    paths: list[str | Path] | tuple,
    *,
    entity: str | None = None,
    index_home: str | Path | None = None,
    force: bool = False,
    lock_timeout: float | None = DEFAULT_LOCK_TIMEOUT,
) -> list[str]:
    """Undo the forget of ``paths`` and/or of ``entity`` (a name, or an alias of it, as it was
    forgotten): the next index run indexes them again from the vault.

    What was forgotten with ``--purge-history`` is refused unless ``force`` (its history cannot come
    back; with ``force`` only the vault's files may be indexed again). A spelling that another
    forgotten name shares stays forgotten. Returns what was unforgotten (paths, then ``entity``).
    """
    vault = check_vault(Path(vault))
    home = Path(index_home) if index_home else default_home(vault)
    if not paths and not entity:
        raise MemsearchError(
            "nothing to unforget: name the forgotten files or --entity NAME (`memsearch forget --list`)"
        )
    if not IndexLayout(home).forget_list.exists() and not vault_forget_file(vault).exists():
        # Before the lock, which would make the index home: "nothing was changed" must hold.
        raise MemsearchError(
            f"nothing is forgotten in {vault} (`memsearch forget --list` shows what is); nothing was changed"
        )
    with index_lock(home, timeout=lock_timeout, what="memsearch unforget"):
        forget = load_forget_list(home, vault)
        if entity:
            _check_entity_forgotten(forget, entity, force)
        rels = [_relative(vault, p, outside=True) for p in paths]
        taken: list[tuple[set[str], str | None]] = []  # per path: its hashes, or a text taken back
        for rel in rels:
            hashes = {path_hash(rel), folder_hash(rel)} & forget.paths if rel else set()
            hashes = hashes or _named_under(forget, rel)  # a folder forgotten file by file (older lists)
            text = None
            if not hashes:
                if folder := forget.folder_of(rel):
                    raise MemsearchError(
                        f"{rel!r} is in the forgotten folder {folder}: unforget the folder (`memsearch"
                        f" unforget {folder}`), then forget what must stay forgotten; nothing was changed"
                    )
                text = next((d for d in _digests(vault, {}, rel) if forget.has_content(d)), None)
                if text is None:
                    raise MemsearchError(
                        f"{rel!r} is not forgotten (`memsearch forget --list` shows what is); nothing was"
                        " changed"
                    )
            kept_by = {k for k, kept in forget.contents.items() if text and content_hash(text) in kept}
            owners = hashes | kept_by
            if owners & forget.purged and not force:
                raise MemsearchError(
                    f"{rel!r} was forgotten with --purge-history: what the index held of it is gone and"
                    " cannot come back; pass --force to let the vault's file be indexed again. Nothing"
                    " was changed"
                )
            taken.append((hashes, text))
        for hashes, text in taken:
            forget.paths -= hashes
            forget.purged -= hashes
            for h in hashes:
                forget.names.pop(h, None)
                forget.drop_contents(h)
            if text is not None:
                forget.drop_content(text)
        if entity:
            forget.remove_entity(_name_keys(entity))
            rels.append(entity)
        # Both copies are written whole (the vault's copy without names): the path leaves both.
        atomic_write(IndexLayout(home).forget_list, forget.to_json(with_names=True))
        target = vault_forget_file(vault)
        if target.exists():
            atomic_write(target, forget.to_json(with_names=False))
        return rels


def _digests(vault: Path, files: dict[str, dict], rel: str) -> set[str]:
    """The digests of ``rel``'s text as the index has it and as the vault has it now (edited since
    the last index run, it would come back renamed under either). A file with nothing to say has
    none: an empty note's twins are not its copies."""
    found: set[str] = set()
    entry = files.get(rel)
    if entry is not None and isinstance(entry.get("sha256"), str) and entry.get("chunks"):
        found.add(entry["sha256"])
    with contextlib.suppress(OSError):
        data = (vault / rel).read_bytes()
        if data.strip():
            found.add(hashlib.sha256(data).hexdigest())
    return found


def _named_under(forget: ForgetList, rel: str) -> set[str]:
    """The hashes of the files a list written before folder forgets kept for the folder ``rel``
    (each file by its path, named): unforgetting the folder takes them back."""
    prefix = rel.rstrip("/") + "/" if rel else ""
    return {h for h, name in forget.names.items() if prefix and name.startswith(prefix) and h in forget.paths}


def _check_entity_forgotten(forget: ForgetList, entity: str, force: bool) -> None:
    hashes = {entity_hash(k) for k in _name_keys(entity)}
    if not hashes & forget.entities:
        raise MemsearchError(
            f"{entity!r} is not a forgotten name (give it as it was forgotten, or an alias of it);"
            " nothing was changed"
        )
    named = [g for g in forget.groups if g.entities & hashes]
    purged = set().union(*(g.entities for g in named)) if named else hashes
    if purged & forget.purged and not force:
        raise MemsearchError(
            f"{entity!r} was forgotten with --purge-history: what the index held of it is gone and"
            " cannot come back; pass --force to let the vault's mentions be indexed again. Nothing"
            " was changed"
        )


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
