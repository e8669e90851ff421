"""memsearch.links: a note is found by what the notes linking to it say about it (anchor text)."""

from __future__ import annotations

import pytest
from vault_files import write_vault

from memsearch.links import anchor_hits, follow_links
from memsearch.query_terms import term_weights

NOTES = {
    "reference/sprout-flow-sensor.md": (
        "# Sprout flow sensor\n\n"
        "Hall-effect turbine meter on the main line, 396 pulses a litre.\n\n"
        "- the litres-per-minute figure in the log is smoothed - see [[ema-filter]]\n"
        "- noisy edges near the valve driver are rejected - see [[debouncing]]\n"
        "- the EMA filter runs once a second: [EMA](ema-filter.md)\n"
    ),
    "reference/ema-filter.md": (
        "# EMA filter\n\nOne multiply-add per sample and no buffer; a = 0.2 gives about 4 s of lag.\n"
    ),
    "reference/debouncing.md": "# Debouncing\n\nTwo edges closer than 5 ms count as one.\n",
    "reference/watering.md": (
        "# Watering schedule\n\nThe beds are watered at dawn; the flow of each zone is logged for\n"
        "the season. Why we moved to the sensor from a timer is in\n[[sprout-flow-sensor]]\n"
    ),
    "journal/2025-03-02.md": "# 2025-03-02\n\nCleaned the filter of the kitchen tap.\n",
    "reference/relay.md": (
        "# Relay\n\n## Wiring\n\nThe relay wiring is drawn in [[relay]] and on [[relay-datasheet]].\n\n"
        "## Mounting\n\nOn the DIN rail beside the meter.\n\n## Coil\n\nTwelve volts, 30 mA.\n\n"
        "## Contacts\n\nRated 10 A at 250 V.\n\n## Housing\n\nGrey plastic, clip-on lid.\n\n"
        "## Bought\n\nFrom the electrical wholesaler in 2023.\n\n"
        "## Spares\n\nKeep two spare fuses in the drawer.\n"
    ),
    "reference/wiki-syntax.md": (
        "# Wiki syntax\n\nHow a wikilink is written:\n\n```\nexample:\n\n"
        "the lag of the moving average: [[ema-filter]]\n```\n"
    ),
}


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    """The NOTES indexed without vectors (the links are keyword and graph work), searched read-only."""
    from memsearch.api import index_vault, open_index

    vault = tmp_path_factory.mktemp("links") / "vault"
    write_vault(vault, NOTES)
    index_vault(vault, embed=False)
    return open_index(vault)


@pytest.fixture(scope="module")
def index(engine):
    return engine.index


def _indexed(vault, notes: dict[str, str]):
    """A vault of ``notes`` (path -> text) written and indexed without vectors."""
    from memsearch.api import index_vault

    write_vault(vault, notes)
    index_vault(vault, embed=False)
    return vault


def _chunk_of(index, path: str) -> int:
    return min(cid for cid, c in index.chunks.items() if c.path == path)


def test_a_link_reaches_the_note_it_points_at_by_the_words_around_it(index):
    """Smoothing, Sprout and flow are words of the linking line and its note's title, none of the
    EMA filter note's own."""
    weights = term_weights("how is the Sprout flow reading smoothed")
    found = follow_links(index, weights, [_chunk_of(index, "reference/sprout-flow-sensor.md")])
    ema = _chunk_of(index, "reference/ema-filter.md")
    assert ema in found
    assert found[ema].path == "reference/sprout-flow-sensor.md" and found[ema].line == 5
    assert 0 < found[ema].share < 1
    # The debouncing line says nothing the query asks beyond the note's title: it reaches the note
    # only through the title's words, and less than the smoothing line does.
    hits = anchor_hits(found)
    assert hits[0].chunk_id == ema


def test_an_anchor_counts_for_what_the_note_does_not_say_itself(index):
    """ "EMA filter" is in the anchor and in the note: a link adds nothing to it."""
    weights = term_weights("EMA filter")
    found = follow_links(index, weights, [_chunk_of(index, "reference/sprout-flow-sensor.md")])
    assert _chunk_of(index, "reference/ema-filter.md") not in found


def test_an_anchor_is_the_paragraph_hard_wrapped_prose_spreads_over_lines(index):
    """The link sits alone on its line; the words that describe it begin two lines above."""
    weights = term_weights("why did we move to the sensor")
    found = follow_links(index, weights, [_chunk_of(index, "reference/watering.md")])
    sensor = _chunk_of(index, "reference/sprout-flow-sensor.md")
    assert sensor in found and found[sensor].line == 5  # the link's own line


def test_a_link_inside_fenced_code_is_no_anchor(index):
    weights = term_weights("the lag of the moving average")
    assert follow_links(index, weights, [_chunk_of(index, "reference/wiki-syntax.md")]) == {}


def test_a_paragraph_of_many_links_is_an_index_not_an_anchor(tmp_path):
    from memsearch.api import index_vault, open_index
    from memsearch.links import MAX_LINKS_PER_ANCHOR

    vault = tmp_path / "vault"
    (vault / "reference").mkdir(parents=True)
    many = MAX_LINKS_PER_ANCHOR + 1
    (vault / "reference/hub.md").write_text(
        "# Hub\n\nEvery sensor note: " + " ".join(f"[[sensor-{i}]]" for i in range(many)) + "\n\n"
        "The flow meter is calibrated in [[sensor-0]].\n"
    )
    for i in range(many):
        (vault / f"reference/sensor-{i}.md").write_text(f"# Sensor {i}\n\nA part.\n")
    index_vault(vault, embed=False)
    index = open_index(vault).index
    found = follow_links(
        index, term_weights("every sensor note flow meter calibrated"), [_chunk_of(index, "reference/hub.md")]
    )
    assert [index.chunks[cid].path for cid in found] == ["reference/sensor-0.md"]
    assert found[_chunk_of(index, "reference/sensor-0.md")].line == 5


def test_links_to_nothing_indexed_and_to_the_file_itself_reach_nothing(index):
    """The relay's wiring links its own note (whose last section holds the fuses, far from the
    wiring's words) and a sheet no note is: neither link reaches a passage."""
    weights = term_weights("spare fuses in the drawer for the relay wiring datasheet")
    wiring = min(
        cid for cid, c in index.chunks.items() if c.path == "reference/relay.md" and "wiring" in c.text
    )
    assert follow_links(index, weights, [wiring]) == {}


def test_the_graph_list_ranks_the_linked_note_and_explain_names_the_link(engine):
    question = "what smoothing does the Sprout flow reading get"
    alone = engine.search(question, k=3, strategies=["graph"], all_results=True, explain=True)
    assert alone.results[0].path == "reference/ema-filter.md"
    assert "linked from reference/sprout-flow-sensor.md:5" in alone.results[0].explanation["graph_paths"]
    fused = engine.search(question, k=3, all_results=True)
    assert "reference/ema-filter.md" in [r.path for r in fused.results]


def test_a_partial_keyword_head_lets_the_graph_list_lead_where_its_links_add(engine):
    """A question only partly matched by the text heads, whose link adds to what it reaches: the
    graph list weighs the graph lead (fusion.graph_lead); one the keyword head holds whole does not."""
    from memsearch.search.weigh import GRAPH_LEAD

    def graph_weight(question: str) -> float | None:
        response = engine.search(question, k=10, all_results=True, explain=True)
        for result in response.results:
            if "graph" in result.explanation["strategies"]:
                return result.explanation["strategies"]["graph"]["weight"]
        return None

    # "lag" and "coefficient" are in no passage: the keyword head holds under half the query
    assert graph_weight("what lag coefficient smooths the Sprout flow reading") == GRAPH_LEAD
    assert graph_weight("Sprout flow sensor turbine meter pulses litre") != GRAPH_LEAD


def test_a_head_matched_on_the_names_alone_lets_the_graph_list_lead(tmp_path):
    """The Harbour Loop's note holds most of the question through the name it writes, but little
    of what it asks about it (who rides at the back): the graph list, which follows its link to the
    sweep rider, weighs the graph lead. A question the note answers beyond the name does not."""
    from memsearch.api import open_index
    from memsearch.search.weigh import GRAPH_LEAD

    notes = {
        "reference/harbour-loop.md": (
            "# Harbour Loop\n\nThe Harbour Loop is our Sunday club ride, 42 km round the bay from the"
            " ferry steps.\n\n- the Harbour Loop is ridden as one group, and the [[sweep-rider]]"
            " closes it\n"
        ),
        "reference/sweep-rider.md": (
            "# Sweep rider\n\nCarries the pump, a spare tube and the first-aid kit; nobody is dropped.\n"
        ),
        "reference/ferry.md": "# Ferry\n\nThe ferry steps are by the old harbour wall.\n",
        "reference/kit-list.md": "# Kit list\n\nLights, a bell, a lock.\n",
        "journal/2025-03-02.md": "# 2025-03-02\n\nRode the loop alone in the rain.\n",
    }
    engine = open_index(_indexed(tmp_path / "vault", notes))

    def weights(question: str) -> dict[str, float]:
        keyword = engine.search(question, k=10, all_results=True, strategies=["keyword"])
        assert keyword.results[0].path == "reference/harbour-loop.md"  # the head is the named note
        response = engine.search(question, k=10, all_results=True, explain=True)
        return {
            name: part["weight"]
            for result in response.results
            for name, part in result.explanation["strategies"].items()
        }

    assert weights("who rides at the very back of the Harbour Loop")["graph"] == GRAPH_LEAD
    assert weights("how many km round the bay is the Harbour Loop club ride")["graph"] < GRAPH_LEAD


def test_the_note_a_first_result_links_for_what_the_question_asks_climbs_towards_it(tmp_path):
    """The Kettle note matches the question mostly by its name; its Heat section links the
    technique for the board's heat, which shares no word with the question. The link's anchor
    adds "board" to it (what the question asks beyond the name), so the technique climbs: a
    "links" part, linked from the Kettle note. A link whose anchor adds only the hub's own name
    (the Lights section) lifts nothing."""
    from memsearch.api import open_index

    notes = {
        "reference/kettle.md": (
            "---\ntitle: Kettle\n---\n# Kettle\n\nAn e-assist for the co-op's cargo bikes.\n\n"
            "## Heat\n\nThe firmware backs the current off as the board warms: [[thermal-derating]].\n\n"
            "## Lights\n\nKettle's lamps: [[lamp-wiring]].\n"
        ),
        "reference/thermal-derating.md": (
            "# Thermal derating\n\nReduce the allowed motor current as the power stage heats, rather"
            " than cutting out.\n"
        ),
        "reference/lamp-wiring.md": "# Lamp wiring\n\nTwo LEDs on the 6 V rail, fused at 1 A.\n",
        "journal/2025-03-02.md": "# 2025-03-02\n\nRode the cargo bike to the market.\n",
    }
    with open_index(_indexed(tmp_path / "vault", notes)) as engine:
        response = engine.search("What does Kettle do when its driver board overheats?", k=10, explain=True)
    by_path = {r.path: r for r in response.results}
    technique = by_path["reference/thermal-derating.md"]
    assert "links" in technique.explanation["strategies"]
    assert technique.explanation["graph_paths"][0].startswith("linked from reference/kettle.md:")
    paths = [r.path for r in response.results]
    assert paths.index("reference/thermal-derating.md") < paths.index("reference/lamp-wiring.md")
    lamp = by_path.get("reference/lamp-wiring.md")
    assert lamp is None or "links" not in lamp.explanation["strategies"]


def test_a_passage_edited_in_place_is_followed_by_its_new_links(tmp_path):
    """The anchors read from a passage are kept between queries, and read again once its file
    changes under the same engine: the new link is followed, the old one no longer."""
    from memsearch.api import open_index

    vault = _indexed(tmp_path / "vault", NOTES)
    engine = open_index(vault)
    weights = term_weights("how is the Sprout flow reading smoothed")

    def reached() -> set[str]:
        start = _chunk_of(engine.index, "reference/sprout-flow-sensor.md")
        return {engine.index.chunks[t].path for t in follow_links(engine.index, weights, [start])}

    assert "reference/ema-filter.md" in reached()
    (vault / "reference/sprout-flow-sensor.md").write_text(
        "# Sprout flow sensor\n\nThe litres-per-minute figure is smoothed - see [[debouncing]]\n",
        encoding="utf-8",
    )
    engine.update_file("reference/sprout-flow-sensor.md")
    assert reached() == {"reference/debouncing.md"}


SHARES_OF_A_PROCESS = """
import sys
from memsearch.api import open_index
from memsearch.links import follow_links
from memsearch.query_terms import term_weights

index = open_index(sys.argv[1]).index
weights = term_weights("how is the Sprout flow reading smoothed in the log once a second")
start = min(cid for cid, c in index.chunks.items() if c.path == "reference/sprout-flow-sensor.md")
for target, anchor in sorted(follow_links(index, weights, [start]).items()):
    print(target, anchor.line, repr(anchor.share), repr(anchor.asked_share))
"""


def test_an_anchor_adds_the_same_share_in_every_process(tmp_path):
    """The words an anchor adds are a set, whose order changes with each process's string hashing;
    their weights are summed in one order, so the share (and the ranking it moves) is the same bit
    for bit whichever process asks."""
    import os
    import subprocess
    import sys

    vault = _indexed(tmp_path / "vault", NOTES)
    outputs = set()
    for seed in range(8):
        env = {**os.environ, "PYTHONHASHSEED": str(seed)}
        done = subprocess.run(
            [sys.executable, "-c", SHARES_OF_A_PROCESS, str(vault)],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        outputs.add(done.stdout)
    assert len(outputs) == 1 and next(iter(outputs)).strip()


ASTER_NOTES = {
    "reference/project-aster.md": (
        "---\ntitle: Project Aster\n---\n# Project Aster\n\nThe release pipeline for the desktop app."
        " Builds run nightly; a tagged build becomes a release after review.\n\nRelease artifacts are"
        " protected with our [[signing-keys]]; the process is owned by Mara Lin. Packaging notes live"
        " in [[packaging]].\n"
    ),
    "reference/signing-keys.md": (
        "# Signing keys\n\nThe key pair lives on a hardware token in the office safe. Keys are rotated"
        " every two years.\n\nThe algorithm is described in [[ed25519]].\n"
    ),
    "reference/ed25519.md": (
        "# Ed25519\n\nAn elliptic-curve signature scheme over Curve25519. Signatures are 64 bytes.\n"
    ),
    "reference/packaging.md": "# Packaging\n\nFlatpak and a tarball for Linux, a DMG for macOS.\n",
    "journal/2025-03-26.md": (
        "# 2025-03-26\n\nRotated the signing keys with Mara; the first build signed with the new pair"
        " was 1.14.0.\n"
    ),
}


def test_a_head_lacking_the_rarest_word_asked_lets_the_graph_list_lead(tmp_path):
    """The project's note holds the name, "release" and "signing" (its link's text): over half of
    what the question asks beyond the name, but not "algorithm", as rare a word as "release" and
    what the question is most specifically about: the head is a partial match, and the graph
    list, which follows the project's link to the signing keys and theirs to the algorithm, leads.
    Named with a time, the question is the window's to answer, and the head is judged by its share
    alone."""
    from memsearch.api import open_index
    from memsearch.search.weigh import GRAPH_LEAD

    engine = open_index(_indexed(tmp_path / "vault", ASTER_NOTES))
    question = "what algorithm does Project Aster sign its releases with"
    keyword = engine.search(question, k=10, all_results=True, strategies=["keyword"])
    head = keyword.results[0].path
    assert head == "reference/project-aster.md"

    def graph_weight(text: str) -> float:
        response = engine.search(text, k=10, all_results=True, explain=True, now="2025-10-20T12:00:00")
        return next(
            part["weight"]
            for result in response.results
            for name, part in result.explanation["strategies"].items()
            if name == "graph"
        )

    assert graph_weight(question) == GRAPH_LEAD
    assert graph_weight(question + " in March 2025") < GRAPH_LEAD


def test_a_paragraph_linking_several_notes_lends_each_link_its_own_sentence(tmp_path):
    """ "Release artifacts are protected with our [[signing-keys]]; ... Packaging notes live in
    [[packaging]]": what the paragraph says of the releases is said of the signing keys, not of
    the packaging note, which the question's words reach only through the project's name."""
    from memsearch.api import open_index

    engine = open_index(_indexed(tmp_path / "vault", ASTER_NOTES))
    index = engine.index
    weights = term_weights("how are the release artifacts protected")
    found = follow_links(index, weights, [_chunk_of(index, "reference/project-aster.md")])
    by_path = {index.chunks[target].path: anchor for target, anchor in found.items()}
    assert by_path["reference/signing-keys.md"].share > 0.5
    assert "reference/packaging.md" not in by_path or by_path["reference/packaging.md"].share < 0.1


def test_a_sentence_linking_two_notes_lends_neither_the_others_name(tmp_path):
    """ "Address people by the name they prefer (see [[mara-okafor|Mara]] and [[Tomasz Wielgus]])":
    the word Mara names her note, and is no anchor word of Tomasz's: "who is Mara" reaches his note
    through the sentence's other words only, never through her name."""
    from memsearch.api import open_index

    notes = {
        "system/speaking.md": (
            "# How I speak\n\nAddress people by the name they prefer (see [[mara-okafor|Mara]] and"
            " [[Tomasz Wielgus]]).\n"
        ),
        "reference/mara-okafor.md": "# Mara Okafor\n\nPrincipal investigator of the lab.\n",
        "reference/Tomasz Wielgus.md": "# Tomasz Wielgus\n\nPostdoc; owns the cryostat.\n",
    }
    engine = open_index(_indexed(tmp_path / "vault", notes))
    index = engine.index
    start = [_chunk_of(index, "system/speaking.md")]
    found = follow_links(index, term_weights("who is Mara"), start)
    assert _chunk_of(index, "reference/Tomasz Wielgus.md") not in found
    preferred = follow_links(index, term_weights("what name does Tomasz prefer"), start)
    assert _chunk_of(index, "reference/Tomasz Wielgus.md") in preferred


def test_a_link_a_sentence_split_would_cut_keeps_its_paragraph(tmp_path):
    """ "[[Dr. Park]]" holds a full stop and a space: cut there, neither half names the note; the
    link is still followed, with the whole paragraph as its anchor."""
    from memsearch.api import open_index

    notes = {
        "reference/rabbits.md": (
            "# Rabbits\n\nHold a rabbit with its back supported, as [[Dr. Park]] showed us. The"
            " carrier is described in [[carrier]].\n"
        ),
        "reference/Dr. Park.md": "# Dr. Park\n\nExotics vet.\n",
        "reference/carrier.md": "# Carrier\n\nA top-opening box with a towel.\n",
    }
    engine = open_index(_indexed(tmp_path / "vault", notes))
    index = engine.index
    found = follow_links(
        index, term_weights("who showed us how to hold a rabbit"), [_chunk_of(index, "reference/rabbits.md")]
    )
    assert {index.chunks[target].path for target in found} >= {"reference/Dr. Park.md"}
