"""One incremental update of an index, from the last commit to a new one (with the lock held).

Incremental: each file's sha256 is compared with the manifest of the index's last commit.
Unchanged files keep their chunk ids, shards and vectors; changed and added files are chunked
again under fresh ids (ids are never reused: hnswlib's label reuse is buggy); removed files are
dropped; a renamed file costs no embedding (vectors are cached by the text's hash). Keyword
context uses neighbouring chunks of the same file only, so each file's work stands alone; the
entity alias map is global, so it is rebuilt from every file's aliases when one changes.
"""

from __future__ import annotations

import contextlib
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from memsearch.config import Settings
from memsearch.embedders import choose_embedder, embedder_for
from memsearch.index import in_memory, snapshots
from memsearch.index.forget_list import load_forget_list, path_hash
from memsearch.index.format import (
    FILES_SUBDIR,
    FORMAT_VERSION,
    MANIFEST,
    MODAL_SUBDIR,
    SHAPE_FIELDS,
    embed_sha,
    encode_manifest_head,
    encode_shard,
    encode_vectors,
    modal_file,
    modal_files,
    modal_fingerprint,
    shape_of,
    shard_file,
    shard_name,
    vector_file,
    vector_rows,
)
from memsearch.index.keyword import PackedTerms
from memsearch.index.vectors import VectorIndex
from memsearch.index.versioning import crashpoint
from memsearch.index.worktree import put, put_buckets
from memsearch.indexer.prepare import (
    MomentVectors,
    chunk_files,
    drop_forgotten,
    embed_text,
    fallback,
    is_folder,
    moment_vectors,
    scan_vault,
    settle_dimensions,
)
from memsearch.indexer.report import IndexReport, Progress
from memsearch.indexer.vectors import VectorWork, chunk_ids, embed_texts, ids_of, language_advice
from memsearch.indexer.writer import (
    Base,
    DeferredLoadError,
    commit_message,
    same_index,
    settings_fingerprint,
)
from memsearch.models import Chunk, ParsedFile, chunk_replace
from memsearch.paths import IndexLayout
from memsearch.scan import (
    Skipped,
    VaultFile,
    git_commit_times,
    walk_order,
)


def recorded_dimensions(manifest: dict, modalities: tuple[str, ...]) -> dict[str, int]:
    """Each modality's dimension as the index records it (those still read)."""
    recorded = manifest.get("modalities") or {}
    return {m: int(recorded[m]["dim"]) for m in modalities if m in recorded}


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
    vectors: MomentVectors = field(default_factory=dict)  # a moment's sidecar vectors, by modality


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
            or old.get("settings_fingerprint") != settings_fingerprint(settings)
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
    def _scan(
        self, only: list[str] | None
    ) -> tuple[dict[str, VaultFile], dict[str, str], set[str], set[str]]:
        """(files read, skipped {path: reason}, paths looked at, unreadable files and folders)."""
        self.forget = load_forget_list(self.home, self.vault)
        return scan_vault(self.vault, only, self.forget, self.notify, self.settings.modalities)

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
        if self.full:
            # A rebuild from scratch (the settings, the format or the index changed) starts from
            # nothing: limited to the files a watcher saw change, it dropped every other one.
            only = None
        t = time.perf_counter()
        files, skipped, looked, unreadable = self._scan(only)
        timings["scan"] = time.perf_counter() - t

        # 2. what changed: by content hash, then by the fallback timestamp the content lacks
        t = time.perf_counter()
        old_files = self.old_files
        if self.full:
            unchanged: list[str] = []
            todo = list(files)
        elif old_manifest.get("forgotten_names", "") != self.forget.names_fingerprint() and only is None:
            # The forgotten names changed since the index was built (an unforget, or a forget list
            # from the vault's copy): any file may hold chunks that now go or come back.
            unchanged = []
            todo = list(files)
        else:
            # A file a live preview holds is indexed again even when it is back to its committed
            # text: the live index holds the preview's chunks, not the commit's, nor their vectors.
            unchanged = [
                p
                for p, vf in files.items()
                if old_files.get(p, {}).get("sha256") == vf.sha256 and p not in self.live
            ]
            same = set(unchanged)
            todo = [p for p in files if p not in same]
        # Moments this index holds with their sidecars unread (redacted when it read them) that are
        # redacted no more (``memsearch unredact``): read again, though their files are unchanged.
        back = set(old_manifest.get("redacted", ())) - self.forget.redacted
        if back and unchanged:
            again = {p for p in unchanged if path_hash(p) in back}
            if again:
                unchanged = [p for p in unchanged if p not in again]
                todo += sorted(again)
        # A file or folder the system refused to read (permissions, an I/O error) keeps what the index
        # holds of it: its memories are not known to have changed, and nothing indexed is lost. A
        # full rebuild starts from nothing: it cannot keep them, and says so.
        folders = tuple(p for p in unreadable if is_folder(p))
        refused = {p for p in old_files if p in unreadable or p.startswith(folders)}
        said = (
            "; this full rebuild could not keep what the index held of {}"
            if self.full
            else "; what the index holds of {} is kept"
        )
        for path in sorted(refused & skipped.keys()):
            skipped[path] += said.format("it")
        for folder in folders:
            if inside := sum(1 for p in refused if p.startswith(folder)):
                skipped[folder or "./"] += said.format(f"its {inside} file(s)")
        if self.full:
            refused = set()
        gone = [p for p in old_files if p not in files and (only is None or p in looked) and p not in refused]
        restamp_candidates = [p for p in unchanged if old_files[p].get("stamp")]
        need_times = sorted(set(todo) | set(restamp_candidates))
        commit_times = self._commit_times(need_times, only is None)
        restamped: list[str] = []
        for p in restamp_candidates:
            if old_files[p]["stamp"] != fallback(files[p], commit_times)[0]:
                restamped.append(p)

        work: dict[str, _FileWork] = {}
        warnings: list[str] = []
        ordered = [files[p] for p in sorted(todo, key=walk_order)]
        fallbacks = [fallback(vf, commit_times) for vf in ordered]
        chunked = chunk_files(ordered, self.settings, fallbacks)
        # Each modality's vector size: the index's where it holds vectors of it (an incremental run),
        # else what most of this run's sidecars of it have (settle_dimensions).
        dimensions = {} if self.full else recorded_dimensions(old_manifest, self.settings.modalities)
        terms: list[PackedTerms] | None
        for n, (vf, got) in enumerate(zip(ordered, chunked, strict=True), 1):
            path = vf.path
            if isinstance(got, str):  # one file must never stop the vault: name it and go on
                skipped[path] = got
                continue
            pf, terms, stamp = got
            pf, vectors = moment_vectors(self.vault, pf, self.settings.modalities, dimensions, self.forget)
            chunks = list(pf.chunks)
            kept = drop_forgotten(chunks, self.forget)  # naming a forgotten entity: never indexed again
            if len(kept) != len(chunks):
                chunks, terms = kept, None  # neighbours changed: terms again from what is kept
            work[path] = _FileWork(path, vf.sha256, pf, chunks, stamp, terms=terms, vectors=vectors)
            self.notify("chunk", n, len(todo))
        settled = settle_dimensions([(item.parsed, item.vectors) for item in work.values()], dimensions)
        for item, (pf, vectors) in zip(work.values(), settled, strict=True):
            item.parsed, item.vectors = pf, (vectors if item.chunks else {})
        for path in list(skipped):
            if path in old_files and path not in gone and path not in refused:
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
            if item.vectors:
                entry["modal"] = sorted(item.vectors)
            new_files[path] = entry
        # A modality opted out since, or a moment redacted since (``memsearch redact``), loses its
        # stored vectors now, even where the moment's file is unchanged.
        modal_dropped: dict[str, list[str]] = {}
        for path, entry in new_files.items():
            if path in work or not entry.get("modal"):
                continue
            off = [
                m
                for m in entry["modal"]
                if m not in self.settings.modalities or self.forget.is_redacted(path)
            ]
            if off:
                modal_dropped[path] = off
                kept_modal = [m for m in entry["modal"] if m not in off]
                new_files[path] = {k: v for k, v in entry.items() if k != "modal"}
                if kept_modal:
                    new_files[path]["modal"] = kept_modal
        restamp_work: dict[str, list[Chunk]] = {}
        for path in restamped:
            fallback_stamp = fallback(files[path], commit_times)
            ids = new_files[path]["chunks"]
            restamp_work[path] = [
                chunk_replace(
                    self.data.chunks[cid], timestamp=fallback_stamp[1], timestamp_source=fallback_stamp[0][0]
                )
                if self.data.chunks[cid].timestamp_source in ("git", "mtime")
                else self.data.chunks[cid]
                for cid in ids
            ]
            new_files[path] = {**new_files[path], "stamp": fallback_stamp[0]}
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
                # commit's chunks).
                for path in sorted((set(gone) | set(changed) | set(live)) - reuse):
                    now = live[path].ids if path in live else old_files[path]["chunks"]
                    in_memory.remove_chunks(self.data, now)
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
            # A moment's sidecar vectors under its chunk (a live preview's already are: the same rows).
            for path in sorted(work, key=walk_order):
                if work[path].vectors:
                    in_memory.add_modal(self.data, work[path].ids[0], work[path].vectors)
            for path, off in modal_dropped.items():
                in_memory.drop_modal(self.data, new_files[path]["chunks"], off)
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
        manifest: dict[str, Any] = {
            "format": FORMAT_VERSION,
            "vault": str(self.vault),
            "built_at": datetime.now(tz=UTC).isoformat(timespec="seconds"),
            "embedder": vec.info,
            "settings_fingerprint": settings_fingerprint(self.settings),
            "index_settings": {k: getattr(self.settings, k) for k in SHAPE_FIELDS},
            "files": dict(sorted(new_files.items())),
            "skipped": dict(sorted(skipped.items())),
            "gaps": all_gaps,
            "embedder_error": vec.error if all_gaps or vec.ran else None,
            "embedder_note": vec.note,
            "next_id": self.next_id,
            "forgotten_names": (
                self.forget.names_fingerprint() if only is None else old_manifest.get("forgotten_names", "")
            ),
        }
        # Which moments' sidecars this index left unread (hashes, as the forget list keeps them): a
        # run after an unredact reads those again. One left unread and not read by this run (a run
        # over some files only) stays recorded.
        unread = set(self.forget.redacted)
        if back:
            unread |= {h for p in new_files if p not in work and (h := path_hash(p)) in back}
        if unread:  # only where there are any: an index without redactions keeps its head as it was
            manifest["redacted"] = sorted(unread)
        modalities = self._modalities(new_files, old_manifest)
        if modalities:  # only where there are any: an index without sidecars keeps its head as it was
            manifest["modalities"] = modalities
        if not vec.ran and all_gaps:
            manifest["embedder_error"] = old_manifest.get("embedder_error")
        if not vec.ran or vec.switch_failed:  # the run's own note goes in its report, not the index
            manifest["embedder_note"] = old_manifest.get("embedder_note") if not self.full else vec.note
        if vec.switch_failed and not all_gaps:  # what the other embedder said is this run's news
            manifest["embedder_error"] = old_manifest.get("embedder_error")
        commit = self._write(manifest, work, gone, restamped, vec, added, changed, set(modal_dropped))
        timings["save"] = time.perf_counter() - t
        if self.loaded or commit:
            self.data.manifest = manifest if commit else (self.base.manifest or manifest)
        if commit:
            self.data.commit = commit
        elif self.base.data is not None and not self.full:
            self.data.commit = self.base.data.commit
        warnings = [f"{p}: {w}" for p, e in sorted(manifest["files"].items()) for w in e.get("warnings", ())]
        # Only what this run chunked is read: a reindex that changed nothing says nothing again.
        chunked_texts = [c.text for item in work.values() for c in item.chunks]
        advice = language_advice(chunked_texts, vec.info, self.vault)
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
            notes=tuple(self.base.notes) + ((advice,) if advice else ()),
        )

    def _modalities(self, files: dict[str, dict], old: dict) -> dict[str, dict]:
        """The manifest's ``modalities``: each modality some moment has a vector of, with its
        dimension and fingerprint (from the index in memory, else as the last commit recorded it)."""
        used = sorted({m for entry in files.values() for m in entry.get("modal", ())})
        out = {}
        for modality in used:
            held = self.data.modal.get(modality) if self.loaded else None
            dim = held.dim if held is not None else int(old["modalities"][modality]["dim"])
            out[modality] = {"dim": dim, "fingerprint": modal_fingerprint(modality, dim)}
        return out

    def _shape(self) -> Settings:
        return shape_of(self.base.manifest or {})

    def _commit_times(self, paths: list[str], whole: bool) -> dict[str, datetime]:
        if not paths:
            return {}
        if whole:
            return git_commit_times(self.vault)
        return git_commit_times(self.vault, paths)

    # -- 4. vectors -------------------------------------------------------------------------
    def _embed(
        self, new_files: dict[str, dict], work: dict[str, _FileWork], scope: set[str] | None, **how: Any
    ) -> VectorWork:
        """Embed what needs a vector: every chunk after a change of embedder, else the new chunks
        and the old gaps (of the files in ``scope``, if given); ``embed_texts`` decides the embedder
        and keeps its soft seams."""
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
        out = VectorWork(info=dict(previous), gaps=set(old_gaps))
        if not texts and not everything:
            if out.gaps:  # a removed chunk is no gap
                out.gaps &= set(self.data.chunks) if self.loaded else chunk_ids(new_files)
            return out  # the embedder's record stays as the run that embedded last wrote it
        started = time.perf_counter()
        made = embed_texts(
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
        got, info = made.rows, made.info
        out.ran, out.info, out.note, out.error = True, info, made.note, made.error
        out.embedded = made.embedded
        out.embed_s = time.perf_counter() - started
        failed_ids = {ids[i] for i in made.failed}
        # A switch of embedder that failed keeps the one the index has: its vectors come back from
        # the cache as they were, and a chunk it cannot serve again keeps the vector it has. Nothing
        # to rewrite, nothing to commit but what was a gap and is filled now.
        kept = (
            everything
            and not (self.full or how["reembed"])
            and bool(previous.get("fingerprint"))
            and info.get("fingerprint") == previous.get("fingerprint")
        )
        with self.guard:
            if everything and not kept:
                dim = int(info["dim"]) if info.get("dim") else None
                self.data.vectors = VectorIndex(dim) if dim and got is not None else None
                embedded_ids = ids_of(got, ids)
                out.gaps = {cid for cid in self.data.chunks if cid not in embedded_ids}
                out.rewrite_all = True
            else:
                if kept:
                    out.info, out.switch_failed = dict(previous), True
                held = self.data.vectors
                lost = {cid for cid in failed_ids if held is None or cid not in held}
                out.gaps = (old_gaps - set(ids)) | lost
                if got is not None and self.data.vectors is None and info.get("dim"):
                    self.data.vectors = VectorIndex(int(info["dim"]))
            if got is not None and self.data.vectors is not None:
                positions, matrix = got
                if kept:  # the rows it holds are these vectors already: add only what it lacked
                    new = [n for n, i in enumerate(positions) if ids[i] not in self.data.vectors]
                    positions, matrix = [positions[n] for n in new], matrix[new]
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
        vec: VectorWork,
        added: list[str],
        changed: list[str],
        modal_dropped: set[str],
    ) -> str | None:
        repo = self.base.repo
        root = repo.path
        old = self.base.manifest
        staged: list[str] = []
        if self.full:  # everything is written again: nothing of an unreadable commit stays behind
            for sub in ("shards", "vectors", MODAL_SUBDIR, FILES_SUBDIR):
                if (root / sub).exists():
                    shutil.rmtree(root / sub)
                    staged.append(sub)
        for path in gone:
            entry = self.old_files.get(path)
            if entry is None or self.full:
                continue
            for rel in (
                shard_file(entry["shard"]),
                vector_file(entry["shard"]),
                *modal_files(entry).values(),
            ):
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
                staged.append(put(root, shard_file(name), encode_shard(rows)))
                crashpoint("shard")
            vectors_rel = self._put_vectors(root, name, entry)
            if vectors_rel:
                staged.append(vectors_rel)
            crashpoint("vectors")
        for path in sorted(set(work) | modal_dropped, key=walk_order):
            staged += self._put_modal(root, files[path], self.old_files.get(path, {}))
        if old is not None and same_index(old, manifest) and not staged:
            return None
        touched = None if self.full else set(work) | set(gone) | set(restamped) | vector_paths | modal_dropped
        staged += put_buckets(root, manifest, touched)
        crashpoint("buckets")
        staged.append(put(root, MANIFEST, encode_manifest_head(manifest)))
        crashpoint("manifest")
        message = commit_message(
            added, sorted(set(changed) | set(restamped), key=walk_order), gone, vec, manifest, old
        )
        commit = repo.commit(staged, message)
        if commit is None:
            return None
        self.data.commit = commit
        self.data.manifest = manifest
        changed_files = len(set(work) | set(gone) | set(restamped) | vector_paths | modal_dropped)
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

    def _put_modal(self, root: Path, entry: dict, old_entry: dict) -> list[str]:
        """Write a moment's sidecar vectors (one file a modality) and delete those it no longer
        has; the paths to stage."""
        staged = []
        for modality in sorted(set(old_entry.get("modal", ())) - set(entry.get("modal", ()))):
            target = root / modal_file(entry["shard"], modality)
            if target.exists():
                target.unlink()
                staged.append(modal_file(entry["shard"], modality))
        for modality in entry.get("modal", ()):
            row = self.data.modal[modality].by_id[entry["chunks"][0]]
            staged.append(put(root, modal_file(entry["shard"], modality), encode_vectors(row.reshape(1, -1))))
        return staged

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
        matrix = np.stack([vectors.by_id[cid] for cid in rows])
        return put(root, rel, encode_vectors(matrix))
