"""One file made ready for the index: read, chunked, timestamped, with its keyword terms.

A chunk without a timestamp of its own takes the file's last commit time, else its mtime (the
*fallback*). Many files are chunked over forked processes when there are enough of them to pay
for the processes; each file's work stands alone.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import threading
from array import array
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import numpy as np

from memsearch.chunkers import chunk_file
from memsearch.config import Settings
from memsearch.errors import IndexWriteError, UnreadableMemoryError
from memsearch.index.forget_list import FORGOTTEN_COPY_REASON, FORGOTTEN_REASON, ForgetList
from memsearch.index.keyword import PackedTerms
from memsearch.index.keyword_terms import file_keyword_terms
from memsearch.indexer.forked import ProcessEnded, in_forked_processes
from memsearch.indexer.report import Progress
from memsearch.models import Chunk, ParsedFile, chunk_from_row, chunk_replace, chunk_row
from memsearch.scan import (
    IGNORED_DIRS,
    MARKDOWN_SUFFIXES,
    NOTEBOOK_SUFFIXES,
    PREFETCH_WINDOW,
    Skipped,
    VaultFile,
    folder_link,
    git_commit_times,
    notebook_kind,
    notebook_root,
    prefetch,
    read_file,
    walk_memories,
)
from memsearch.sidecars import (
    DEFAULT_MODALITIES,
    dimension_reason,
    fold_hash,
    majority_dimensions,
    read_moment_sidecars,
    sidecars_digest,
    unit,
)


def embed_text(chunks: list[Chunk], i: int, settings: Settings) -> str:
    """What is embedded for chunk i: header, text, and optionally its neighbours."""
    n = settings.embed_neighbours
    before = [chunks[j].text for j in range(max(0, i - n), i)] if n else []
    after = [chunks[j].text for j in range(i + 1, min(len(chunks), i + n + 1))] if n else []
    parts = [chunks[i].header, *before, chunks[i].text, *after]
    return "\n".join(p for p in parts if p)


def indexable(vault: Path, rel: str) -> bool:
    """Whether ``rel`` is a memory the index covers: a markdown file outside hidden and ignored
    folders, or a notebook's session or moment file."""
    parts = rel.split("/")
    if any(p in IGNORED_DIRS or p.startswith(".") for p in parts[:-1]) or parts[-1].startswith("."):
        return False
    if ".." in parts:
        return False
    if parts[-1].lower().endswith(NOTEBOOK_SUFFIXES):
        return notebook_kind(rel, notebook_root(vault)) is not None
    return parts[-1].lower().endswith(MARKDOWN_SUFFIXES)


def fallback(vf: VaultFile, commit_times: dict[str, datetime]) -> tuple[list[str], datetime]:
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


#: What a chunk without a timestamp of its own takes: ([source, iso], when) (see ``fallback``).
Fallback = tuple[list[str], datetime]


#: A file chunked: its chunks (those without a timestamp given the fallback), each chunk's keyword
#: terms, and the fallback's [source, iso] if a chunk took it.
Chunked = tuple[ParsedFile, list[PackedTerms], list[str] | None]


def chunk_or_reason(vf: VaultFile, settings: Settings, fallback: Fallback) -> Chunked | str:
    """A file's chunks, timestamped, and each chunk's keyword terms (tokenizing is half the work:
    it goes where the chunking goes), or why the file could not be chunked."""
    try:
        parsed = chunk_file(vf.path, vf.text, settings)
    except UnreadableMemoryError as exc:  # a notebook file's content: the reason says what to fix
        return str(exc)
    except Exception as exc:
        return f"could not be chunked ({type(exc).__name__}: {exc})"
    terms = file_keyword_terms(list(parsed.chunks), settings)  # (timestamps only change: terms stand)
    chunks, stamp = stamp_chunks(parsed.chunks, fallback)
    if stamp is not None:
        parsed = dataclasses.replace(parsed, chunks=tuple(chunks))
    return parsed, terms, stamp


def chunk_workers(n_files: int) -> int:
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


def chunk_files(
    files: list[VaultFile], settings: Settings, fallbacks: list[Fallback]
) -> Iterator[Chunked | str]:
    """Each file's chunks (or why it could not be chunked), in order; over forked processes when
    there are enough files to pay for them (chunking is pure CPU, and files are independent)."""
    workers = chunk_workers(len(files))
    if workers == 1:
        yield from (chunk_or_reason(vf, settings, fb) for vf, fb in zip(files, fallbacks, strict=True))
        return
    batch = max(1, min(64, len(files) // (workers * 8)))
    chunk = partial(chunk_for_pipe, settings=settings)
    try:
        for got in in_forked_processes(chunk, list(zip(files, fallbacks, strict=True)), workers, batch):
            yield got if isinstance(got, str) else from_pipe(got)
    except ProcessEnded as exc:
        raise IndexWriteError(
            f"a chunking process ended before its work was done ({exc}): the run changed "
            f"nothing; run it again, with {WORKERS_ENV}=1 to chunk in one process"
        ) from None


def chunk_for_pipe(task: tuple[VaultFile, Fallback], settings: Settings) -> tuple | str:
    """:func:`chunk_or_reason` in the shape a chunking process sends it back: each chunk as a tuple
    of its fields, and the file's keyword terms flat (one tuple of terms; arrays of their weights,
    of each chunk's count and length). Pickled as objects, a chunk and its terms took ~20 us to
    unpickle (the parent did it while both cores chunked); as tuples and arrays, under a quarter."""
    vf, fallback = task
    got = chunk_or_reason(vf, settings, fallback)
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


def from_pipe(sent: tuple) -> Chunked:
    """What :func:`chunk_for_pipe` sent, as :func:`chunk_or_reason` returned it."""
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


def stamp_chunks(chunks: Iterable[Chunk], fallback: Fallback) -> tuple[list[Chunk], list[str] | None]:
    """The chunks, those without a timestamp given the fallback's; its [source, iso] if one took it."""
    chunks = list(chunks)
    if all(c.timestamp for c in chunks):
        return chunks, None
    stamp, when = fallback
    return [
        c if c.timestamp else chunk_replace(c, timestamp=when, timestamp_source=stamp[0]) for c in chunks
    ], stamp


def read_memory(
    vault: Path, full: str, rel: str, forget: ForgetList, modalities: tuple[str, ...] = DEFAULT_MODALITIES
) -> VaultFile | Skipped:
    """The file at ``full`` (``rel`` in the vault), read, or why it is not indexed: a forgotten path
    is never read again (``memsearch forget``). A moment's hash covers its ``modalities``' sidecars."""
    if forget.paths and forget.has_path(rel):
        return Skipped(rel, FORGOTTEN_REASON)
    got = read_file(vault, full, rel)
    if isinstance(got, VaultFile) and is_moment(vault, rel):  # its sidecars are part of it
        digest = sidecars_digest(vault, rel, modalities)
        got = dataclasses.replace(got, sha256=fold_hash(got.sha256, digest))
    if isinstance(got, VaultFile) and forget.has_content(got.sha256):  # renamed, or copied
        return Skipped(rel, FORGOTTEN_COPY_REASON)
    return got


#: A moment's sidecar vectors as the index keeps them: ``{modality: unit float32 vector}``.
MomentVectors = dict[str, np.ndarray]


def moment_vectors(
    vault: Path,
    parsed: ParsedFile,
    modalities: tuple[str, ...],
    dimensions: dict[str, int],
    forget: ForgetList,
) -> tuple[ParsedFile, MomentVectors]:
    """A moment's usable sidecar vectors (scaled to length 1), and ``parsed`` with a warning for
    each sidecar that cannot be used (the moment's text is indexed all the same). ``dimensions``:
    the modalities whose dimension is recorded (the index's); the others are settled by
    :func:`settle_dimensions` once the run has read them all. A redacted moment's sidecars are
    never read (``memsearch redact``)."""
    if not is_moment(vault, parsed.path) or forget.is_redacted(parsed.path):
        return parsed, {}
    good, reasons = read_moment_sidecars(vault, parsed.path, modalities, dimensions)
    vectors = {sidecar.modality: unit(sidecar.vector) for sidecar in good}
    if not reasons:
        return parsed, vectors
    return dataclasses.replace(parsed, warnings=(*parsed.warnings, *reasons)), vectors


def settle_dimensions(
    items: list[tuple[ParsedFile, MomentVectors]], dimensions: dict[str, int]
) -> list[tuple[ParsedFile, MomentVectors]]:
    """The run's moments with each modality's vectors of one dimension: the recorded one, else the
    one most of the run's vectors have; a vector of another is left out, and named in its file's
    warnings. ``dimensions`` takes the dimensions settled."""
    sizes: dict[str, list[int]] = {}
    for _, vectors in items:
        for modality, vector in vectors.items():
            if modality not in dimensions:
                sizes.setdefault(modality, []).append(vector.size)
    dimensions.update(majority_dimensions(sizes))
    out = []
    for parsed, vectors in items:
        odd = {m: v for m, v in vectors.items() if v.size != dimensions[m]}
        if odd:
            stem = parsed.path.rsplit(".", 1)[0]
            reasons = [dimension_reason(f"{stem}.{m}.npy", m, v.size, dimensions[m]) for m, v in odd.items()]
            parsed = dataclasses.replace(parsed, warnings=(*parsed.warnings, *reasons))
            vectors = {m: v for m, v in vectors.items() if m not in odd}
        out.append((parsed, vectors))
    return out


def with_sidecar_warnings(
    vault: Path, parsed: ParsedFile, modalities: tuple[str, ...], dimensions: dict[str, int]
) -> ParsedFile:
    """``parsed`` with a warning for each sidecar of its moment that cannot be used (the vectors
    themselves: :func:`moment_vectors`)."""
    parsed, vectors = moment_vectors(vault, parsed, modalities, dimensions, ForgetList())
    return settle_dimensions([(parsed, vectors)], dimensions)[0][0]


def is_moment(vault: Path, rel: str) -> bool:
    """Whether ``rel`` is a notebook moment file (the suffix first: a markdown file costs no stat)."""
    return rel.lower().endswith(NOTEBOOK_SUFFIXES) and notebook_kind(rel, notebook_root(vault)) == "moment"


def drop_forgotten(chunks: list[Chunk], forget: ForgetList) -> list[Chunk]:
    """The chunks that name no forgotten entity, in any spelling (their header and text included)."""
    if not forget.entities:
        return chunks
    return [c for c in chunks if not forget.drops(c.entities, f"{c.header}\n{c.text}")]


@dataclass(frozen=True)
class Prepared:
    """One file ready for the index: its parse and its chunks, timestamped, the forgotten dropped."""

    file: VaultFile
    parsed: ParsedFile
    chunks: list[Chunk]
    vectors: MomentVectors = dataclasses.field(default_factory=dict)  # a moment's sidecar vectors


def prepare_file(
    vault: Path, rel: str, settings: Settings, forget: ForgetList, dimensions: dict[str, int] | None = None
) -> Prepared | Skipped:
    """``rel`` read, chunked, timestamped (its last commit, else its mtime) and without what was
    forgotten, as a full index run would index it; or why it is not indexed. ``dimensions``: each
    modality's dimension in the index (a sidecar of another is named and left out)."""
    full = vault / rel
    if not (full.is_file() or full.is_symlink()):
        if os.path.lexists(full):  # a folder named like a note, or a FIFO: there, but no memory
            return Skipped(rel, "not a regular file (a folder, FIFO, socket or device); not indexed")
        return Skipped(rel, "the file is gone")
    if linked := folder_link(vault, rel):
        return Skipped(rel, linked)
    got = read_memory(vault, str(full), rel, forget, settings.modalities)
    if isinstance(got, Skipped):
        return got
    try:
        parsed = chunk_file(rel, got.text, settings)
    except UnreadableMemoryError as exc:
        return Skipped(rel, str(exc))
    except Exception as exc:  # one file must never break the caller
        return Skipped(rel, f"could not be chunked ({type(exc).__name__}: {exc})")
    times = git_commit_times(vault, [rel]) if not all(c.timestamp for c in parsed.chunks) else {}
    chunks, _ = stamp_chunks(parsed.chunks, fallback(got, times))
    dims = dict(dimensions or {})
    parsed, vectors = moment_vectors(vault, parsed, settings.modalities, dims, forget)
    parsed, vectors = settle_dimensions([(parsed, vectors)], dims)[0]
    kept = drop_forgotten(chunks, forget)
    return Prepared(got, parsed, kept, vectors if kept else {})


def scan_vault(
    vault: Path,
    only: list[str] | None,
    forget: ForgetList,
    notify: Progress,
    modalities: tuple[str, ...] = DEFAULT_MODALITIES,
) -> tuple[dict[str, VaultFile], dict[str, str], set[str], set[str]]:
    """Stage 1 of a run: every memory of the vault read (or only the paths ``only`` names), with
    what was skipped and why; ``(files read, skipped {path: reason}, paths looked at, unreadable)``:
    the files and folders (``folder/``) the system refused to read, whose memories are not known
    to have changed."""
    found: list[tuple[str, str]]  # (absolute path, vault-relative path)
    refused: list[Skipped] = []
    skipped_alone: list[Skipped] = []  # paths given alone that a whole scan would not read
    if only is None:
        found = walk_memories(vault, refused)
        looked = {rel for _, rel in found}
    else:
        found = []
        for rel in only:
            path = vault / rel
            try:
                there = indexable(vault, rel) and (path.is_file() or path.is_symlink())
                linked = folder_link(vault, rel) if there else None
            except OSError as exc:  # its folder refuses to be read: `watch` must not die of it
                refused.append(Skipped(rel, f"cannot read: {exc.strerror or exc}", unreadable=True))
                continue
            if linked:  # not there, as a whole scan has it: an index that held it lets it go
                skipped_alone.append(Skipped(rel, linked))
            elif there:
                found.append((str(path), rel))
        looked = set(only)
    files: dict[str, VaultFile] = {}
    skipped: dict[str, str] = {item.path: item.reason for item in [*refused, *skipped_alone]}
    window = PREFETCH_WINDOW
    for n, (full, rel) in enumerate(found, 1):
        if n % window == 1:  # the next window's reads start while this one is read
            start = 0 if n == 1 else n - 1 + window
            prefetch([f for f, _ in found[start : n - 1 + 2 * window]])
        got = read_memory(vault, full, rel, forget, modalities)
        if isinstance(got, Skipped):
            skipped[got.path] = got.reason
            if got.unreadable:
                refused.append(got)
        else:
            files[got.path] = got
        notify("scan", n, len(found))
    # a folder as "folder/", the vault itself as "./" (in the set of what was refused: "")
    skipped.update((folder.path or "./", folder.reason) for folder in refused if is_folder(folder.path))
    return files, skipped, looked, {item.path for item in refused}


def is_folder(refused: str) -> bool:
    """Whether a path :func:`scan_vault` says was refused is a folder's (``""``: the vault's)."""
    return not refused or refused.endswith("/")
