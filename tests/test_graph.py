import numpy as np

from memsearch.index.graph import EntityGraph


def _graph() -> EntityGraph:
    g = EntityGraph()
    g.add_aliases({"RF": "Redflag"})
    g.add(0, ["Redflag", "signing keys"])
    g.add(1, ["signing keys", "Ed25519"])
    g.add(2, ["Ed25519"])
    g.add(3, ["tea"])
    for i in range(4, 40):  # "Caroline" is a hub: named in almost every chunk
        g.add(i, ["Caroline", f"topic{i}"])
    g.add(40, ["Caroline", "Redflag"])
    return g


def test_walk_reaches_chunks_whose_words_differ():
    g = _graph()
    hits = g.search(["redflag"], k=10, n_ids=41)
    ids = [h.chunk_id for h in hits]
    assert ids[0] in (0, 40)
    assert 1 in ids  # redflag -> signing keys -> (chunk 1 names signing keys and Ed25519)
    assert 3 not in ids


def test_aliases_resolve_to_one_node():
    g = _graph()
    assert g.find_in_text("what did RF sign?") == ["redflag"]
    assert g.resolve("rf") == "redflag"


def test_hubs_are_damped():
    g = _graph()
    assert g.idf("caroline") < g.idf("ed25519")
    scores = g.walk(["caroline", "ed25519"], 41)
    assert scores[2] > scores[5]


def test_remove_drops_edges_and_nodes():
    g = _graph()
    g.remove(3)
    assert not g.known("tea")
    g.remove(1)
    assert g.co_occurrences("signing keys", "ed25519") == 0
    assert g.co_occurrences("redflag", "signing keys") == 1


def test_save_load_round_trip(tmp_path):
    g = _graph()
    g.save(tmp_path / "g.json")
    h = EntityGraph.load(tmp_path / "g.json")
    assert np.array_equal(g.walk(["redflag"], 41), h.walk(["redflag"], 41))
    assert h.find_in_text("RF keys") == ["redflag"]
