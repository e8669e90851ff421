"""The index a search reads, in memory, and the edits that keep it in step with the vault.

:class:`IndexData` holds every chunk with its keyword, graph, time and vector indexes, the
manifest of the commit it reflects and that commit. The functions here change one in place (a
file's chunks removed, added or restamped; the entity graph rebuilt when the alias map changes),
the same way for an index built from a commit (:mod:`memsearch.index.loading`) and for one an
update or a live edit changes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from memsearch.config import Settings
from memsearch.entities import closed_aliases
from memsearch.errors import IndexCorruptError
from memsearch.index.graph import EntityGraph
from memsearch.index.graph import normalize as normalize_entity_key
from memsearch.index.keyword import KeywordIndex, PackedTerms
from memsearch.index.keyword_terms import file_keyword_terms
from memsearch.index.temporal import TimeIndex
from memsearch.index.vectors import VectorIndex
from memsearch.models import Chunk, entry_dated, half_life_days, save_dated
from memsearch.scan import walk_order

T = TypeVar("T")


@dataclass
class IndexData:
    """Everything a search needs, in memory; ``commit`` is the repository commit it reflects."""

    chunks: dict[int, Chunk]
    keyword: KeywordIndex
    graph: EntityGraph
    time: TimeIndex
    vectors: VectorIndex | None
    manifest: dict[str, Any] = field(default_factory=dict)
    commit: str | None = None
    #: Files changed since the snapshot this index was loaded from (None: no snapshot behind it).
    unsaved_files: int | None = None
    #: What a reader derives from this index and keeps with it (the search's filter columns): it
    #: goes when the index does, and each reader checks that what it kept still fits.
    derived: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    #: A notebook moment's sidecar vectors, one index per modality (its own dimension), by chunk
    #: id (the moment's chunk): docs/notebook.md.
    modal: dict[str, VectorIndex] = field(default_factory=dict)

    def kept(
        self, name: str, build: Callable[[IndexData], T], refresh: Callable[[T, IndexData], T] | None = None
    ) -> T:
        """What a reader derives from this index under ``name`` (``build(self)``), built again when
        the chunk table changed (or brought up to date, ``refresh(kept, self)``, where the reader
        can do that for less): every chunk set or removed moves the time index's version, which
        (with the table's size) is the key."""
        key = self._version()
        held = self.derived.get(name)
        if held is None:
            held = self.derived[name] = (key, build(self))
        elif held[0] != key:
            held = self.derived[name] = (key, refresh(held[1], self) if refresh else build(self))
        return held[1]

    def kept_if_current(self, name: str) -> Any | None:
        """What :meth:`kept` holds under ``name`` if the chunk table has not changed since, else
        None, without building it (for a reader that decides first whether it needs it)."""
        held = self.derived.get(name)
        return held[1] if held is not None and held[0] == self._version() else None

    def _version(self) -> tuple[int, int, int, int]:
        """The chunk table's version: every chunk set or removed moves the time index's."""
        return (id(self.chunks), len(self.chunks), id(self.time), self.time.version)

    @property
    def n_ids(self) -> int:
        """1 + the largest chunk id. Every chunk is in the time index (dated or not), which keeps
        this bound per version: no pass over the chunk table on each query, open or refresh."""
        return self.time.id_bound()


def alias_map(files: Mapping[str, Mapping[str, Any]]) -> dict[str, str]:
    """The entity alias map the manifest's files declare, applied in scan order (later files win),
    each alias standing for the end of its chain (:func:`closed_aliases`)."""
    combined: dict[str, str] = {}
    for path in alias_order(files):
        for alias, canonical in files[path]["aliases"].items():
            a, c = normalize_entity_key(alias), normalize_entity_key(canonical)
            if a and c and a != c:
                combined[a] = c
    return closed_aliases(combined)


def alias_order(files: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The files that declare aliases, in scan order (the order a full scan applies them)."""
    return sorted((p for p, e in files.items() if e.get("aliases")), key=walk_order)


# -- changing an index in memory -----------------------------------------------------------------


def remove_chunks(data: IndexData, ids: Iterable[int]) -> None:
    """Drop the chunks ``ids`` (those the index holds, each once) from every part of the index."""
    ids = list(dict.fromkeys(i for i in ids if i in data.chunks))  # an id named twice is dropped once
    for cid in ids:
        data.keyword.remove(cid)
        data.graph.remove(cid)
        data.time.remove(cid)
        del data.chunks[cid]
    if data.vectors is not None and ids:
        data.vectors.remove(ids)
    if ids:  # a moment's sidecar vectors go with its chunk
        for index in data.modal.values():
            index.remove(ids)


def add_modal(data: IndexData, chunk_id: int, vectors: Mapping[str, Any]) -> None:
    """A moment's sidecar vectors (``{modality: normalised float32 vector}``) under its chunk id; a
    modality's index is made by its first vector (its dimension: the caller checked they agree)."""
    for modality, vector in vectors.items():
        index = data.modal.get(modality)
        if index is None:
            index = data.modal[modality] = VectorIndex(len(vector))
        index.add([chunk_id], vector.reshape(1, -1))


def drop_modal(data: IndexData, chunk_ids: Iterable[int], modalities: Iterable[str]) -> None:
    """The ``modalities`` vectors of ``chunk_ids`` out of the index (an opt-out, a redaction)."""
    ids = list(chunk_ids)
    for modality in modalities:
        index = data.modal.get(modality)
        if index is not None:
            index.remove(ids)
            if not len(index):
                del data.modal[modality]


def add_file_chunks(
    data: IndexData,
    ids: list[int],
    chunks: list[Chunk],
    shape: Settings,
    terms: list[PackedTerms] | None = None,
    *,
    graph: bool = True,
) -> None:
    """Index one file's chunks under ``ids`` (keyword with its neighbours' context, graph, time);
    ``terms``: their keyword terms if already made (by the process that chunked the file);
    ``graph=False``: not in the graph (a caller about to rebuild it from every chunk)."""
    if terms is None:
        terms = file_keyword_terms(chunks, shape)
    for cid, chunk, chunk_terms in zip(ids, chunks, terms, strict=True):
        data.chunks[cid] = chunk
        data.keyword.add_packed(cid, chunk_terms)
        if graph:
            data.graph.add(cid, chunk.entities)
        _set_time(data, cid, chunk)


def restamp_chunks(data: IndexData, ids: list[int], chunks: list[Chunk]) -> None:
    """New timestamps (and nothing else) for chunks already indexed under ``ids``."""
    for cid, chunk in zip(ids, chunks, strict=True):
        data.chunks[cid] = chunk
        _set_time(data, cid, chunk)


def _set_time(data: IndexData, cid: int, chunk: Chunk) -> None:
    """A chunk's entry in the time index: its stamp, whether it is timeless, dated, its half-life."""
    data.time.set(
        cid,
        chunk.timestamp,
        timeless=chunk.fact_type == "world",
        entry=entry_dated(chunk),
        saved=save_dated(chunk),
        half_life=half_life_days(chunk),
    )


def rebuild_graph(data: IndexData, files: Mapping[str, Mapping[str, Any]]) -> None:
    """The entity graph again from every chunk, under the alias map of ``files`` (aliases changed)."""
    graph = EntityGraph()
    graph.set_aliases(alias_map(files))
    for cid in sorted(data.chunks):
        graph.add(cid, data.chunks[cid].entities)
    data.graph = graph


def empty_index(dim: int | None = None) -> IndexData:
    """An index of no chunks (with a vector index of ``dim`` if given)."""
    return IndexData({}, KeywordIndex(), EntityGraph(), TimeIndex(), VectorIndex(dim) if dim else None, {})


def check_gaps(data: IndexData, manifest: Mapping[str, Any]) -> None:
    """Raise IndexCorruptError unless ``data`` holds a vector for every chunk but the manifest's gaps."""
    expected = len(data.chunks) - len(manifest.get("gaps", ()))
    have = len(data.vectors) if data.vectors is not None else 0
    if have != expected:
        raise IndexCorruptError(
            f"the index holds {have} vectors where the manifest expects {expected};"
            " run `memsearch index VAULT` to rebuild it"
        )
