"""The same vectors give the same semantic answers whatever path the index took (issue 15 item 6).

An incremental history (part of the vectors, then the rest, with replacements and removals, saved
and loaded between runs as the indexer does) and a clean build end with the same vectors under other
chunk ids. An index of a few thousand vectors is answered exactly, so the two agree; a graph built
from scratch is built in the order of the vectors' contents, so two clean builds agree too. The
vectors are derived from a few real MiniLM embeddings (mixes of two, with a little noise: thousands
of vectors for the cost of 24 texts); where a graph is tested, it is made small and searched
narrowly so that an approximate answer shows at this size.
"""

from __future__ import annotations

import numpy as np
import pytest

from memsearch.embedders.registry import get_embedder
from memsearch.index import vectors as vectors_module
from memsearch.index.vectors import VectorIndex

TEXTS = [
    "The boiler broke down in January and the plumber came twice.",
    "Maya started learning the cello at the community music school.",
    "We planted tomatoes, basil and peppers along the south fence.",
    "The quarterly budget review moved to the second week of March.",
    "Grandpa's recipe for apple cake uses cardamom and brown butter.",
    "The flight to Lisbon was delayed by four hours because of fog.",
    "Dr. Okafor changed the dosage of the blood pressure medication.",
    "The book club read a novel about a lighthouse keeper in Norway.",
    "Our landlord agreed to replace the leaking kitchen window.",
    "Sam ran his first half marathon in just under two hours.",
    "The team decided to migrate the database to Postgres next sprint.",
    "A fox has been visiting the garden at night, eating the fallen pears.",
    "The car needs new winter tyres before the trip to the mountains.",
    "Lena's thesis defence is scheduled for the fifteenth of June.",
    "We adopted a grey cat from the shelter and named her Pebble.",
    "The roof repair estimate came in at twelve thousand euros.",
    "Priya recommended a podcast about the history of cartography.",
    "The kids built a treehouse with the neighbours over the summer.",
    "Insurance renewal is due and the premium went up eight percent.",
    "The violin teacher suggested practising scales slowly every day.",
    "Our anniversary dinner was at the small Italian place by the river.",
    "The laptop battery swells; the repair shop will replace it for free.",
    "Aunt Ruth is moving to a retirement home near the coast.",
    "The city closed the bridge for maintenance until the end of April.",
]
N_VECTORS = 3000


@pytest.fixture(scope="module")
def vault_vectors() -> np.ndarray:
    """The final vault's vectors, one row per chunk place (row i = the chunk at place i)."""
    base = get_embedder("minilm").embed_documents(TEXTS)
    rng = np.random.default_rng(15)
    a, b = rng.integers(0, len(TEXTS), N_VECTORS), rng.integers(0, len(TEXTS), N_VECTORS)
    weight = rng.random((N_VECTORS, 1)).astype(np.float32)
    mixed = weight * base[a] + (1 - weight) * base[b]
    mixed += 0.08 * rng.standard_normal(mixed.shape).astype(np.float32)
    return (mixed / np.linalg.norm(mixed, axis=1, keepdims=True)).astype(np.float32)


@pytest.fixture
def narrow_graph(monkeypatch):
    """A graph even at a few thousand vectors (an index this small is otherwise searched exactly),
    small, and searched narrowly: approximate answers at this size."""
    monkeypatch.setattr(vectors_module, "EXACT_MAX_ROWS", 0)
    monkeypatch.setattr(vectors_module, "HNSW_M", 4)
    monkeypatch.setattr(vectors_module, "HNSW_EF_CONSTRUCTION", 12)
    monkeypatch.setattr(vectors_module, "HNSW_EF_SEARCH", 10)


def _clean(vault: np.ndarray, folder) -> tuple[VectorIndex, dict[int, int]]:
    folder.mkdir()
    index = VectorIndex(vault.shape[1])
    index.add(list(range(len(vault))), vault)
    index.save(folder)
    return VectorIndex.load(folder, vault.shape[1]), {i: i for i in range(len(vault))}


def _incremental(vault: np.ndarray, tmp_path) -> tuple[VectorIndex, dict[int, int]]:
    """Three index runs, saved and loaded between them, ending at the vault's vectors."""
    dim, n = vault.shape[1], len(vault)
    rng = np.random.default_rng(6)
    order = rng.permutation(n)
    place_of: dict[int, int] = {}  # chunk id -> place in the vault (None-free at the end)
    next_id = 0
    index = VectorIndex(dim)

    def add(places: np.ndarray, rows: np.ndarray) -> None:
        nonlocal next_id
        ids = list(range(next_id, next_id + len(places)))
        next_id += len(places)
        index.add(ids, rows)
        place_of.update(zip(ids, (int(p) for p in places), strict=True))

    def drop(ids: list[int]) -> None:
        index.remove(ids)
        for chunk_id in ids:
            place_of.pop(chunk_id)

    def save_and_load(step: int) -> VectorIndex:
        folder = tmp_path / f"run{step}"
        folder.mkdir()
        index.save(folder)
        return VectorIndex.load(folder, dim)

    # Run 1: half the vault, a tenth of it in an earlier version, and drafts deleted later.
    first = order[: n // 2]
    earlier = set(rng.choice(first, len(first) // 10, replace=False).tolist())
    drafts = rng.standard_normal((100, dim)).astype(np.float32)
    drafts /= np.linalg.norm(drafts, axis=1, keepdims=True)
    noisy = vault[first] + 0.3 * rng.standard_normal((len(first), dim)).astype(np.float32)
    noisy /= np.linalg.norm(noisy, axis=1, keepdims=True)
    add(first, np.where(np.isin(first, list(earlier))[:, None], noisy, vault[first]))
    add(np.full(100, -1), drafts)
    index = save_and_load(1)
    # Run 2: a quarter more; the earlier versions rewritten (fresh ids), the drafts deleted.
    add(order[n // 2 : 3 * n // 4], vault[order[n // 2 : 3 * n // 4]])
    stale = [chunk_id for chunk_id, place in place_of.items() if place in earlier or place == -1]
    drop(stale)
    rewritten = np.array(sorted(earlier))
    add(rewritten, vault[rewritten])
    index.ready()
    index = save_and_load(2)
    # Run 3: the rest; a file renamed (its chunks removed and added again under new ids).
    add(order[3 * n // 4 :], vault[order[3 * n // 4 :]])
    renamed = [chunk_id for chunk_id, place in place_of.items() if place % 97 == 0]
    places = np.array([place_of[chunk_id] for chunk_id in renamed])
    drop(renamed)
    add(places, vault[places])
    index = save_and_load(3)
    return index, place_of


def _compare(
    vault: np.ndarray, one: tuple[VectorIndex, dict], other: tuple[VectorIndex, dict]
) -> tuple[int, int]:
    """Over 150 queries near the vault's vectors: (lists that differ between the two indexes, by
    place and score; lists of the first that are not the exact top 10)."""
    rng = np.random.default_rng(1)
    queries = vault[rng.choice(len(vault), 150, replace=False)]
    queries = queries + 0.2 * rng.standard_normal(queries.shape).astype(np.float32)
    differ = inexact = 0
    for query in queries:
        left, right = (
            [(place[h.chunk_id], h.score) for h in index.search(query, 10)] for index, place in (one, other)
        )
        differ += left != right
        inexact += [place for place, _ in left] != np.argsort(-(vault @ query), kind="stable")[:10].tolist()
    return differ, inexact


def test_an_incremental_index_and_a_clean_build_give_the_same_semantic_lists(vault_vectors, tmp_path):
    """An index of this size is answered exactly: its lists are the vectors' own, whatever path."""
    clean = _clean(vault_vectors, tmp_path / "clean")
    incremental = _incremental(vault_vectors, tmp_path)
    assert sorted(incremental[1].values()) == list(range(len(vault_vectors)))  # the same vault
    assert _compare(vault_vectors, clean, incremental) == (0, 0)


def test_two_clean_builds_of_the_same_vectors_under_other_ids_build_the_same_graph(
    vault_vectors, narrow_graph, tmp_path
):
    """A graph built from scratch (a clean build, a snapshot at ``--at``) does not depend on the
    chunk ids or the order the vectors came in: it is built in the order of their contents."""
    shuffled = np.random.default_rng(4).permutation(len(vault_vectors))
    other = VectorIndex(vault_vectors.shape[1])
    other.add([int(i) + 7000 for i in range(len(vault_vectors))], vault_vectors[shuffled])
    other_place = {int(i) + 7000: int(place) for i, place in enumerate(shuffled)}
    differ, approximate = _compare(
        vault_vectors, _clean(vault_vectors, tmp_path / "one"), (other, other_place)
    )
    assert approximate > 0  # the graph is approximate here, else this proves nothing about it
    assert differ == 0


def test_the_background_sample_does_not_depend_on_the_chunk_ids(vault_vectors):
    """The standout (hence the signal) is read against a sample of the vectors: the same sample
    whichever ids and rows the vectors have."""
    rng = np.random.default_rng(3)
    one, other = VectorIndex(vault_vectors.shape[1]), VectorIndex(vault_vectors.shape[1])
    one.add(list(range(len(vault_vectors))), vault_vectors)
    shuffled = rng.permutation(len(vault_vectors))
    other.add([int(i) + 5000 for i in range(len(vault_vectors))], vault_vectors[shuffled])
    query = vault_vectors[7]
    assert one.background(query) == other.background(query)


def test_a_large_index_reads_its_background_without_hashing_every_vector(vault_vectors, monkeypatch):
    """Above the exact-search size the graph answers and the mapped record stays unread: the
    background sample is a stride of the rows, not an order of all of them by content."""
    monkeypatch.setattr(vectors_module, "EXACT_MAX_ROWS", 1000)
    index = VectorIndex(vault_vectors.shape[1])
    index.add(list(range(len(vault_vectors))), vault_vectors)

    def every_row(_matrix: np.ndarray) -> np.ndarray:
        raise AssertionError("hashed every vector for the background sample")

    monkeypatch.setattr(vectors_module, "content_keys", every_row)
    _, std = index.background(vault_vectors[7])
    assert std > 0 and index.background_size() == vectors_module.BACKGROUND_SAMPLE


def test_above_the_exact_size_a_tie_is_cut_in_vault_order_whichever_graph_answers(
    vault_vectors, monkeypatch, tmp_path
):
    """With the graph answering (the build parameters the engine uses), two chunks of the same
    text tie; a list cut through the tie keeps the one first in the vault, whether the graph was
    patched run by run or built from scratch: the graph is asked for a few more candidates than
    the list holds, and the list is cut by score and place, not in the order the walk met them."""
    monkeypatch.setattr(vectors_module, "EXACT_MAX_ROWS", 0)
    vault = vault_vectors.copy()
    vault[1::10] = vault[::10][: len(vault[1::10])]  # every tenth chunk's text twice, at i and i + 1
    built = [_clean(vault, tmp_path / "clean"), _incremental(vault, tmp_path)]
    assert all(index.needs_graph() for index, _ in built)
    for first in range(0, len(vault), 10):
        for index, place in built:

            def tie_key(ids: np.ndarray, place: dict[int, int] = place) -> np.ndarray:
                return np.array([place[int(i)] for i in ids])

            got = [place[h.chunk_id] for h in index.search(vault[first], 2, tie_key=tie_key)]
            assert got == [first, first + 1], (first, got)
            one = [place[h.chunk_id] for h in index.search(vault[first], 1, tie_key=tie_key)]
            assert one == [first], (first, one)  # the cut runs through the tie


def test_a_patched_graph_settled_answers_as_a_clean_build(vault_vectors, narrow_graph, tmp_path):
    """A graph that index runs patched answers some queries otherwise than one built from scratch;
    settled (the reindex job's work), it is built from scratch and answers as a clean build, and
    it says so after a save and a load."""
    dim = vault_vectors.shape[1]
    clean = _clean(vault_vectors, tmp_path / "clean")
    incremental = _incremental(vault_vectors, tmp_path)
    assert clean[0].settled and not incremental[0].settled
    differ, approximate = _compare(vault_vectors, clean, incremental)
    assert approximate > 0 and differ > 0  # what settling must undo, at this size and breadth
    assert incremental[0].settle() and incremental[0].settled
    assert _compare(vault_vectors, clean, incremental)[0] == 0
    folder = tmp_path / "settled"
    folder.mkdir()
    incremental[0].save(folder)
    again = VectorIndex.load(folder, dim)
    assert vectors_module.saved_graph_settled(folder) and again.settled and not again.settle()
    again.remove([next(iter(incremental[1]))])  # one update patches it again
    assert not again.settled
