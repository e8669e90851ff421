"""Taking what the forget list names out of everything the index home holds: HEAD (one commit), with
a purge every older commit, then the snapshots, the embedding cache and the signal state and log.

Each step can be done again: a purge killed at any point is marked pending and finished by doing it
all again, by the next writer that opens the repository (:func:`finish_pending_purge`).
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memsearch import signals
from memsearch.index import embedding_cache, loading, snapshots
from memsearch.index.forget_list import (
    FORGOTTEN_COPY_REASON,
    FORGOTTEN_REASON,
    ForgetList,
    load_forget_list,
    save_forget_list,
)
from memsearch.index.format import (
    MANIFEST,
    encode_manifest_head,
)
from memsearch.index.history import History, Pruner, earlier_names, history_keys, purge_history
from memsearch.index.versioning import IndexRepo, crashpoint
from memsearch.index.worktree import put, put_buckets
from memsearch.paths import IndexLayout, atomic_write
from memsearch.signals import load_signal_config


@dataclass
class ForgetReport:
    files: list[str]
    chunks: int
    commit: str | None
    cache_rows: int = 0
    snapshots_dropped: int = 0
    purged: bool = False
    rewritten: int = 0  # commits rewritten by --purge-history
    modal_vectors: int = 0  # notebook sidecar vectors taken out of HEAD
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
            "modal_vectors": self.modal_vectors,
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


def signal_inbox(vault: Path, home: Path) -> Path:
    """Where signal events go (``[signals] inbox`` of memsearch.toml, else the index home's)."""
    try:
        return load_signal_config(vault, home).inbox
    except Exception:  # an unreadable config must not stop a forget: the default inbox at least
        return IndexLayout(home).signal_inbox


def mark_pending(home: Path, inbox: Path, keys: set[str] | None = None, *, purge: bool = True) -> None:
    """Record a forget under way (``purge``: with its history), so that a run after a kill finishes
    it: ``keys``, the cached vectors to delete, are known only before its commit."""
    data = {
        "format": 1,
        "started": int(time.time()),
        "inbox": str(inbox),
        "keys": sorted(keys or ()),
        "purge": purge,
    }
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
    if pending.get("purge") is False:  # a plain forget killed after its list was saved: its caches
        rows = embedding_cache.purge(IndexLayout(home).embedding_cache, keys, forget.paths)
        snapshots.drop_all(home)
        IndexLayout(home).purge_pending.unlink(missing_ok=True)
        return f"finished an interrupted `memsearch forget` ({rows} cached vectors deleted)"
    if head is None or not repo.exists():
        embedding_cache.purge(IndexLayout(home).embedding_cache, keys, forget.paths)
        IndexLayout(home).purge_pending.unlink(missing_ok=True)
        return "finished an interrupted `memsearch forget --purge-history` (the index had no commit)"
    manifest = loading.committed_manifest(repo, head)

    def message(chunks: int) -> str:
        return f"forget: finish an interrupted purge ({chunks} chunks), history purged\n"

    report = forget_everywhere(
        home, repo, manifest, forget, purge=True, message=message, inbox=inbox, keys=keys
    )
    return (
        "finished an interrupted `memsearch forget --purge-history`"
        f" ({report.rewritten} commits rewritten, {report.cache_rows} cached vectors deleted)"
    )


def forget_everywhere(
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
    files: dict[str, dict] = manifest["files"]
    dim = (manifest.get("embedder") or {}).get("dim")
    pruner = Pruner(forget, dim)
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
        # A modality no moment has a vector of any more leaves the head too (docs/notebook.md).
        used = {m for e in new_files.values() for m in e.get("modal", ())}
        modalities = {m: v for m, v in (manifest.get("modalities") or {}).items() if m in used}
        new_manifest.pop("modalities", None)
        if modalities:
            new_manifest["modalities"] = modalities
        # The index now holds what these names leave (an unforget must bring their chunks back).
        new_manifest["forgotten_names"] = forget.names_fingerprint()
        # The moments whose sidecars the index now leaves unread (``memsearch unredact`` and the
        # next index run read them again); those already recorded stay until a run reads them.
        unread = set(manifest.get("redacted", ())) | forget.redacted
        new_manifest.pop("redacted", None)
        if unread:
            new_manifest["redacted"] = sorted(unread)
        new_manifest["skipped"] = {
            p: (FORGOTTEN_REASON if forget.has_path(p) else r) for p, r in skipped.items()
        }
        for p in pruner.paths:
            if vault is not None and (vault / p).exists():
                # as the next index run says it, or that run commits the rewording alone
                reason = FORGOTTEN_REASON if forget.has_path(p) else FORGOTTEN_COPY_REASON
                new_manifest["skipped"][p] = reason
        new_manifest["skipped"] = dict(sorted(new_manifest["skipped"].items()))
        new_manifest["gaps"] = sorted(c for e in new_files.values() for c in e.get("gaps", ()))
        staged += put_buckets(root, new_manifest, touched)
        staged.append(put(root, MANIFEST, encode_manifest_head(new_manifest)))
    if not purge and pruner.embed_shas:  # a kill after the commit would leave their vectors cached
        mark_pending(home, inbox, pruner.embed_shas | set(keys or ()), purge=False)
    commit = repo.commit(staged, message(pruner.chunks)) if staged else None
    report = ForgetReport([], pruner.chunks, commit, modal_vectors=pruner.modal_vectors)
    cache_keys = set(keys or ())
    if purge:
        history = History(repo)
        earlier = earlier_names(repo, forget, history)
        if earlier:  # recorded before the rewrite: a run finishing it must know them too
            forget.paths |= earlier
            forget.purged |= earlier
            save_forget_list(home, forget, vault)
        report.earlier_names = len(earlier)
        cache_keys |= history_keys(repo, forget, history)
        mark_pending(home, inbox, cache_keys)
        crashpoint("purge-scanned")
        report.rewritten = purge_history(repo, forget, pruner)
        report.purged = True
        report.commit = repo.head()  # the rewrite gave every commit a new id: print the real one
    crashpoint("purge-history-done")
    report.snapshots_dropped = snapshots.drop_all(home)
    cache = IndexLayout(home).embedding_cache
    report.cache_rows = embedding_cache.purge(cache, pruner.embed_shas | cache_keys, forget.paths)
    crashpoint("purge-cache-done")
    signals.purge(home, pruner.content_hashes, forget, inbox, bool(pruner.paths or pruner.chunks))
    crashpoint("purge-signals-done")
    IndexLayout(home).purge_pending.unlink(missing_ok=True)
    head = repo.head()
    if head:
        with contextlib.suppress(Exception):
            loading.load_commit(home, head)  # the new HEAD's snapshot, built from the commit
    return report
