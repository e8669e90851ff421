"""``memsearch redact MOMENT_ID``: a notebook moment's sidecar vectors out of the index, its text kept.

The notebook promises that a moment's audio and image (every non-text modality) can be taken back
while what it says stays searchable. One commit removes the moment's vectors of every modality
(``modal/<modality>/...`` in the index repository, :mod:`memsearch.index.format`); the redacted
list (in the forget list, :mod:`memsearch.index.forget_list`: a sha256 of the moment file's path,
never the path) keeps its sidecars unread by every later run while they stay in the vault; with
``purge_history`` every older commit is rewritten without them, as ``memsearch forget`` does
(:func:`memsearch.purge.forget_everywhere`).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path, PurePosixPath

from memsearch.errors import IndexMissingError, MemsearchError
from memsearch.forget import forget_and_push
from memsearch.index import loading
from memsearch.index.forget_list import (
    ForgetList,
    load_forget_list,
    path_hash,
    save_forget_list,
    vault_forget_file,
)
from memsearch.index.in_memory import IndexData
from memsearch.index.versioning import IndexRepo, crashpoint
from memsearch.indexer import open_for_write
from memsearch.indexer.prepare import is_moment
from memsearch.lock import DEFAULT_LOCK_TIMEOUT, index_lock
from memsearch.paths import default_home
from memsearch.purge import ForgetReport, mark_pending, signal_inbox
from memsearch.scan import check_vault


class NoSuchMomentError(MemsearchError):
    """A moment id to redact names no indexed notebook moment."""


def moment_paths(
    vault: Path, files: dict[str, dict], moment_id: str, declared: Mapping[str, str] | None = None
) -> list[str]:
    """The indexed moment files of ``moment_id``: the one named by it (a moment's file is named by its
    id), and any that declares it though named otherwise (``declared``: :func:`declared_ids`; the
    index warns of such a file, and a redaction by the id must reach it too)."""
    named = {p for p in files if PurePosixPath(p).stem == moment_id and is_moment(vault, p)}
    named |= {p for p, declared_id in (declared or {}).items() if declared_id == moment_id and p in files}
    return sorted(named)


def declared_ids(vault: Path, data: IndexData | None) -> dict[str, str]:
    """Each indexed moment file's declared id (its chunk's heading), where it differs from its name."""
    if data is None:
        return {}
    return {
        chunk.path: chunk.heading
        for chunk in data.chunks.values()
        if chunk.heading != PurePosixPath(chunk.path).stem and is_moment(vault, chunk.path)
    }


def redact(
    vault: str | Path,
    moment_ids: list[str] | tuple[str, ...],
    *,
    index_home: str | Path | None = None,
    purge_history: bool = False,
    lock_timeout: float | None = DEFAULT_LOCK_TIMEOUT,
) -> ForgetReport:
    """Take the sidecar vectors of every modality of the moments ``moment_ids`` out of the index
    (their text stays), and keep them out of every later run; ``purge_history``: out of every
    older commit too. NoSuchMomentError (nothing changed) when an id names no indexed moment."""
    vault = check_vault(Path(vault))
    home = Path(index_home) if index_home else default_home(vault)
    if not moment_ids:
        raise MemsearchError("nothing to redact: name the moment (MOMENT_ID...)")
    if not IndexRepo(home).exists():
        raise IndexMissingError(f"no index at {home}; run `memsearch index VAULT` first")
    with index_lock(home, timeout=lock_timeout, what="memsearch redact"):
        base = open_for_write(home)  # finishes a purge a killed run left half done, too
        repo, manifest = base.repo, base.manifest
        if manifest is None or repo.head() is None:
            raise IndexMissingError(f"no index at {home} yet; run `memsearch index VAULT` first")
        found: list[str] = []
        declared = declared_ids(vault, base.data)
        for moment_id in moment_ids:
            hit = moment_paths(vault, manifest["files"], moment_id, declared)
            if not hit:
                raise NoSuchMomentError(
                    f"no indexed notebook moment has the id {moment_id!r} (`memsearch search` finds"
                    " moments; a moment's file is sessions/<session>/moments/<id>.yaml). Nothing was changed"
                )
            found += hit
        forget = load_forget_list(home, vault)
        hashes = {path_hash(p) for p in found}
        now = ForgetList(redacted=hashes, redacted_purged=hashes if purge_history else set())
        forget.merge(now)
        crashpoint("redact-list-unsaved")
        warning = save_forget_list(home, forget, vault)
        inbox = signal_inbox(vault, home)
        if purge_history:
            mark_pending(home, inbox)

        def message(_chunks: int) -> str:
            body = "".join(f"  moment path sha256 {path_hash(p)[:16]}\n" for p in found)
            purged = ", history purged" if purge_history else ""
            return f"redact {len(found)} moment(s): their sidecar vectors of every modality{purged}\n\n{body}"

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
            backend_note="the next `memsearch index` brings the backend in line",
        )
        report.files = found
        return report


def unredact(
    vault: str | Path,
    moment_ids: list[str] | tuple[str, ...],
    *,
    index_home: str | Path | None = None,
    force: bool = False,
    lock_timeout: float | None = DEFAULT_LOCK_TIMEOUT,
) -> list[str]:
    """Undo :func:`redact` for ``moment_ids``: their entries leave the redacted list (both copies),
    so the next index run reads their sidecars again (the index records which moments it left
    unread: :mod:`memsearch.indexer.update` reads those again even where the files are unchanged).
    Returns the moment files unredacted.

    A redaction made with ``purge_history`` is refused unless ``force`` (the history it purged stays
    gone; with ``force`` only the vault's sidecars may be indexed again), as ``unforget`` refuses a
    purged forget. An id that names no redacted moment changes nothing (MemsearchError).
    """
    vault = check_vault(Path(vault))
    home = Path(index_home) if index_home else default_home(vault)
    if not moment_ids:
        raise MemsearchError("nothing to unredact: name the redacted moment (MOMENT_ID...)")
    if not IndexRepo(home).exists():
        raise IndexMissingError(f"no index at {home}; run `memsearch index VAULT` first")
    with index_lock(home, timeout=lock_timeout, what="memsearch unredact"):
        repo = IndexRepo(home)
        head = repo.head()
        if head is None:
            raise IndexMissingError(f"no index at {home} yet; run `memsearch index VAULT` first")
        files = loading.committed_manifest(repo, head)["files"]
        forget = load_forget_list(home, vault)
        # a file named otherwise that declares the id was redacted with it: it comes back with it
        # (the commit is loaded to read declared ids only when a redacted moment is named otherwise)
        named_otherwise = any(
            forget.is_redacted(p) and PurePosixPath(p).stem not in moment_ids and is_moment(vault, p)
            for p in files
        )
        declared = declared_ids(vault, loading.load_commit(home, head)) if named_otherwise else {}
        found: list[str] = []
        for moment_id in moment_ids:
            hit = [p for p in moment_paths(vault, files, moment_id, declared) if forget.is_redacted(p)]
            if not hit:
                raise NoSuchMomentError(
                    f"no redacted notebook moment has the id {moment_id!r} (`memsearch redact` redacts"
                    " one; a moment's file is sessions/<session>/moments/<id>.yaml). Nothing was changed"
                )
            purged = [p for p in hit if path_hash(p) in forget.redacted_purged]
            if purged and not force:
                raise MemsearchError(
                    f"{moment_id!r} was redacted with --purge-history: the vectors the index held of it"
                    " are gone and cannot come back; pass --force to let the vault's sidecars be indexed"
                    " again. Nothing was changed"
                )
            found += hit
        for rel in found:
            forget.redacted.discard(path_hash(rel))
            forget.redacted_purged.discard(path_hash(rel))
        warning = save_forget_list(home, forget, vault)
        if warning:  # the vault's copy still redacts them, and every run reads it: say so
            raise MemsearchError(
                f"the vault's forget list {vault_forget_file(vault)} could not be written; it still"
                " redacts the moment(s), and every index run honours it: make it writable and run"
                " `memsearch unredact` again"
            )
        return found
