import numpy as np
import pytest

from memsearch.index.graph import EntityGraph


def _graph() -> EntityGraph:
    g = EntityGraph()
    g.set_aliases({"RF": "Redflag"})
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


def test_a_possessive_names_what_the_notes_name_without_it():
    """The chunkers read "Pai's flat" as naming Pai; so must a query ("the chemist near Pai's")."""
    g = _graph()
    assert g.find_in_text("which algorithm are Redflag's releases signed with") == ["redflag"]
    assert g.find_in_text("what did RF’s keys sign") == ["redflag"]  # an alias, a typographic apostrophe
    assert g.find_in_text("the signing keys' rotation") == ["signing keys"]
    assert g.named_in_text("Caroline's painting") == [("caroline", "caroline")]


def test_a_name_in_the_other_number_resolves_to_the_one_the_vault_knows():
    g = _graph()
    assert g.find_in_text("when was the signing key rotated") == ["signing keys"]
    assert g.find_in_text("which redflags are signed") == ["redflag"]
    assert g.find_in_text("every signing keys note") == ["signing keys"]  # as written first
    assert g.find_in_text("the teas we drink") == ["tea"]
    assert g.find_in_text("what did James say") == []  # no "jame" either


def test_names_are_not_merged_with_what_only_looks_like_their_other_number():
    g = EntityGraph()
    g.add(0, ["Luca", "news", "Cache", "Policy", "McDonald's", "Pai Kitchen"])
    assert g.find_in_text("what did Lucas say") == []  # a capitalised name keeps its number
    assert g.find_in_text("what's new") == []  # a short word or a stopword too
    assert g.find_in_text("which caches expire") == ["cache"]
    assert g.find_in_text("the new policies") == ["policy"]
    assert g.find_in_text("the McDonald's menu") == ["mcdonald's"]  # kept with its apostrophe
    assert g.find_in_text("dinner at Pai’s Kitchen") == ["pai kitchen"]  # a typographic apostrophe


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


def _rebuilt(g: EntityGraph) -> EntityGraph:
    fresh = EntityGraph()
    fresh._aliases = dict(g._aliases)
    for chunk_id, keys in g._chunk_entities.items():
        fresh.add(chunk_id, keys)
    return fresh


@pytest.mark.parametrize(
    ("stale_share", "table_after"),
    [(0.0, 0.0), (0.05, 0.0), (1.0, 0.0), (0.05, 1.0), (0.05, float("inf"))],
)
def test_walk_after_updates_equals_a_fresh_graph(tmp_path, monkeypatch, stale_share, table_after):
    """Cached neighbours and id arrays never outlive a change: same walk as a graph built anew,
    whether the arrays of the chunk -> entities table are made anew after every change (0.0),
    now and then (0.05), or never, the changed chunks read beside them (1.0); made at the first
    walk (0.0), once counting without them has read the graph's mentions once (1.0), or never."""
    import random

    from memsearch.index import graph as graph_module

    monkeypatch.setattr(graph_module, "MAX_STALE_SHARE", stale_share)
    monkeypatch.setattr(graph_module, "TABLE_AFTER", table_after)
    rnd = random.Random(5)
    names = [f"e{i}" for i in range(40)] + ["hub"]
    g = EntityGraph()
    for i in range(400):
        g.add(i, ["hub", *rnd.sample(names, rnd.randint(0, 4))])
    g.save(tmp_path / "g.json")
    g = EntityGraph.load(tmp_path / "g.json")
    for step in range(60):
        seeds = rnd.sample(names, 2)
        assert np.array_equal(g.walk(seeds, 500), _rebuilt(g).walk(seeds, 500)), step
        if step % 2:
            g.remove(rnd.randrange(400))
        else:
            g.add(rnd.randrange(450), rnd.sample(names, rnd.randint(1, 5)))
    assert g.co_occurrences("hub", "hub") == 0
    assert g.co_occurrences("e1", "hub") == len(g._chunks["e1"] & g._chunks["hub"])


def test_paths_to_names_the_seed_or_the_hop_that_reached_a_chunk():
    from memsearch.index.graph import EntityGraph

    graph = EntityGraph()
    graph.add(0, ["Project Aster", "signing keys"])  # the project note links the component
    graph.add(1, ["signing keys", "Ed25519"])  # the component note links the algorithm
    graph.add(2, ["Ed25519"])  # the algorithm note names neither the project nor "signing keys"
    graph.add(3, ["groceries"])
    assert graph.paths_to(["project aster"], 0) == ["names project aster"]
    assert graph.paths_to(["project aster"], 1) == [  # the stronger way first
        "via project aster -> signing keys",
        "via project aster -> signing keys -> ed25519",
    ]
    assert graph.paths_to(["project aster"], 3) == []


def test_a_note_two_hops_from_the_seed_is_reached_below_the_one_between():
    """The design's chain: the project's note names the signing keys, whose note names Ed25519,
    whose note names neither the project nor the keys. The second hop reaches it, decayed twice,
    and says how."""
    from memsearch.index.graph import EntityGraph

    graph = EntityGraph()
    graph.add(0, ["Project Aster", "signing keys"])
    graph.add(1, ["signing keys", "Ed25519"])
    graph.add(2, ["Ed25519"])
    graph.add(3, ["groceries"])
    scores = dict((h.chunk_id, h.score) for h in graph.search(["project aster"], k=10, n_ids=4))
    assert set(scores) == {0, 1, 2} and scores[0] > scores[1] > scores[2] > 0
    assert graph.paths_to(["project aster"], 2) == ["via project aster -> signing keys -> ed25519"]


def test_a_first_name_alone_stands_for_the_one_two_word_name_it_begins():
    """ "Arjun booked: lands 14 Nov" names the Arjun Raman the query asks about; "Sprout" begins
    two names and stands for neither; a first word no chunk names alone adds nothing."""
    g = EntityGraph()
    g.add(1, ["Arjun Raman", "Priya Raman"])
    g.add(2, ["Arjun"])
    g.add(3, ["Sprout firmware", "Sprout valves", "Sprout"])
    g.add(4, ["Noor Haddad"])
    assert g.with_first_names(["arjun raman"]) == ["arjun raman", "arjun"]
    assert g.with_first_names(["sprout firmware"]) == ["sprout firmware"]
    assert g.with_first_names(["noor haddad"]) == ["noor haddad"]  # no chunk names "Noor" alone
    walked = g.search(g.with_first_names(["arjun raman"]), 5, 8)
    assert 2 in [h.chunk_id for h in walked]
    g.add(5, ["Arjun Mehta"])  # now "Arjun" could be either
    assert g.with_first_names(["arjun raman"]) == ["arjun raman"]


def test_the_walks_kept_between_queries_stay_under_their_bound(monkeypatch):
    """Each seed's walk is kept for the next query, up to MAX_CACHED_REACH chunks in all; past it
    they are dropped, and every walk is still what a graph that kept none gives."""
    import memsearch.index.graph as graph_module

    monkeypatch.setattr(graph_module, "MAX_CACHED_REACH", 40)
    g = EntityGraph()
    for i in range(200):  # a ring: each name shares chunks with the next, a walk reaches ~24
        g.add(i, [f"e{i % 50}", f"e{(i + 1) % 50}"])
    g.add(200, ["e0", "e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8", "e9", "e10", "e11"])
    fresh = [_rebuilt(g).walk([f"e{s}"], 201) for s in range(50)]
    for _ in range(2):
        for s in range(50):
            assert np.array_equal(g.walk([f"e{s}"], 201), fresh[s])
            assert g._reached <= 40
    assert g._reaches  # the walks of 24 chunks were kept, those of more than 40 never


def test_an_alias_of_a_name_that_is_itself_an_alias_stands_for_the_end_of_the_chain():
    # A note's ``aliases: [MQ]`` and a team page's "**Mara Quint** - hydroponics lead": MQ named a
    # key no chunk held once Mara Quint stood for her role.
    g = EntityGraph()
    g.set_aliases({"MQ": "Mara Quint", "Mara Quint": "hydroponics lead"})
    g.add(0, ["Mara Quint"])
    g.add(1, ["MQ"])
    assert g.resolve("MQ") == g.resolve("Mara Quint") == g.resolve("hydroponics lead")
    assert g.chunk_ids(g.resolve("MQ")).tolist() == [0, 1]
    assert g.find_in_text("what does MQ grow") == [g.resolve("Mara Quint")]


def test_aliases_in_a_cycle_stand_for_one_name():
    g = EntityGraph()
    g.set_aliases({"Big Blue": "the autoclave", "the autoclave": "Big Blue"})
    g.add(0, ["Big Blue"])
    g.add(1, ["the autoclave"])
    assert g.resolve("Big Blue") == g.resolve("the autoclave")


def test_names_new_to_a_graph_that_has_answered_a_query_are_counted(monkeypatch):
    """After the first walk, the graph counts entities over arrays; a name it has never seen gets
    a number, and the array of counts grows for it (the add raised IndexError at its 16th name)."""
    from memsearch.index import graph as graph_module

    monkeypatch.setattr(graph_module, "TABLE_AFTER", 0.0)
    g = EntityGraph()
    g.add(0, ["a"])
    g.walk(["a"], 1)
    assert g._table is not None
    for i in range(1, 40):
        g.add(i, ["a", f"e{i}"])
    assert np.array_equal(g.walk(["a"], 40), _rebuilt(g).walk(["a"], 40))
    assert g.chunk_ids("a").tolist() == list(range(40))


def test_a_graph_makes_its_arrays_once_counting_without_them_has_read_it_once():
    """One query's seeds are counted from the table of tuples (a process answering one query does
    not pay for the arrays); once those counts have read as many mentions as the graph holds, the
    arrays are made, and the walks stay the same."""
    g = EntityGraph()
    for i in range(1000):
        g.add(i, [f"e{i % 50}", f"f{i % 70}"])
    before = g.walk(["e1"], 1000)
    assert g._table is None
    seeds = [f"e{i}" for i in range(2, 50)]
    made = next((n for n, seed in enumerate(seeds) if g.walk([seed], 1000) is not None and g._table), None)
    assert made is not None and made > 5  # a few queries' seeds first
    assert np.array_equal(g.walk(["e1"], 1000), before)
