"""memsearch.speakers: the turns of a transcript are their speakers', and a question naming one
weighs that speaker's own turns up (real files, a real index)."""

from __future__ import annotations

import pytest

from memsearch.api import index_vault, open_index
from memsearch.speakers import ASKING_WEIGHT, SPEAKER_WEIGHT, asks, transcript_replies, transcript_speakers

TRANSCRIPT = (
    "# 8 May 2023\n\n"
    "Caroline: I went to a support group yesterday and it was so powerful.\n\n"
    "Melanie: That sounds lovely. I took the kids to the pottery class on Sunday.\n\n"
    "Caroline: Pottery! What did you make there?\n\n"
    "Melanie: A bowl with a dog painted on it, for the kitchen.\n\n"
    "Caroline: I am researching adoption agencies for next year.\n\n"
    "Melanie: Good luck with the agencies, let me know how it goes.\n"
)
JOURNAL = (
    "# 2025-03-02\n\nKettle: descaled, and the filter changed.\n\n"
    "Recheck: Friday, with Caroline.\n\nBought seed trays and compost for the beds.\n"
)


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    vault = tmp_path_factory.mktemp("speakers") / "vault"
    for rel, text in {
        "journal/2023-05-08-session-01.md": TRANSCRIPT,
        "journal/2025-03-02.md": JOURNAL,
    }.items():
        (vault / rel).parent.mkdir(parents=True, exist_ok=True)
        (vault / rel).write_text(text, encoding="utf-8")
    index_vault(vault)
    with open_index(vault) as opened:
        yield opened


def test_each_turn_of_a_transcript_is_its_speakers_and_a_journal_has_none(engine):
    index = engine.index
    speakers = transcript_speakers(index)
    by_line = {index.chunks[cid].start_line: s for cid, s in speakers.items()}
    assert set(by_line.values()) == {index.graph.resolve("Caroline"), index.graph.resolve("Melanie")}
    assert len(by_line) == 6  # every turn, the first one with its session heading
    assert all(index.chunks[cid].path.endswith("session-01.md") for cid in speakers)


def test_a_question_naming_a_speaker_weighs_their_turns_up(engine):
    response = engine.search("What did Melanie make at the pottery class?", k=10, chunks=True, explain=True)
    weights = {
        r.start_line: r.explanation["territory_weight"]
        for r in response.results
        if r.path.endswith("session-01.md")
    }
    melanie, caroline = weights[5], weights[1]  # "Melanie: That sounds lovely ...", "Caroline: I went ..."
    assert melanie > caroline and melanie == pytest.approx(caroline * SPEAKER_WEIGHT)
    assert any("spoken by" in note for note in response.health.notes)


def test_a_question_naming_both_speakers_weighs_every_turn_alike(engine):
    response = engine.search("What did Caroline and Melanie talk about?", k=10, chunks=True, explain=True)
    weights = {  # the turn that asks aside (test_a_question_turn_hands_its_answer_to_the_reply)
        r.explanation["territory_weight"]
        for r in response.results
        if r.path.endswith("session-01.md") and r.start_line != 7
    }
    assert len(weights) == 1 and next(iter(weights)) > 1.0  # every turn weighed up alike (journal: 1)


def test_a_turn_asks_when_it_ends_with_a_question():
    assert asks("Caroline: Pottery! What did you make there?")
    assert asks("Jon: Are they yours? [shares a photo of dancers]")
    assert asks("王磊：你去哪儿了？")
    assert not asks("Melanie: What a day. I made a bowl.")


def test_a_question_turn_hands_its_answer_to_the_reply(engine):
    index = engine.index
    replies = transcript_replies(index)
    lines = {index.chunks[q].start_line: index.chunks[a].start_line for q, a in replies.items()}
    assert lines == {7: 9}  # "Caroline: Pottery! What did you make there?" -> "Melanie: A bowl ..."
    response = engine.search("What did Melanie make at the pottery class?", k=10, chunks=True, explain=True)
    by_line = {r.start_line: r for r in response.results if r.path.endswith("session-01.md")}
    asking, reply = by_line[7].explanation, by_line[9].explanation
    assert "replies" in reply["strategies"] and "replies" not in asking["strategies"]
    assert asking["territory_weight"] == pytest.approx(ASKING_WEIGHT)  # Caroline asks; Melanie is named
    order = list(by_line)  # the results' lines, best first
    assert order.index(9) < order.index(7)
    # Named by no one: the asking turn weighs less than the turns around it, and the reply gains a
    # share of the question's score.
    response = engine.search("what was made at the pottery class", k=10, chunks=True, explain=True)
    by_line = {r.start_line: r.explanation for r in response.results if r.path.endswith("session-01.md")}
    assert by_line[7]["territory_weight"] < by_line[9]["territory_weight"] == by_line[5]["territory_weight"]
    lift = by_line[9]["strategies"]["replies"]
    assert lift["contribution"] > 0 and lift["raw_score"] == pytest.approx(
        by_line[7]["fused_score"] / ASKING_WEIGHT, rel=1e-4
    )


def test_an_answer_does_not_depend_on_whether_an_earlier_query_read_the_replies(engine, monkeypatch):
    """The replies are read once a question turn stands among a query's first fused passages; a
    question turn further down lifts nothing, whether or not an earlier query read them."""
    import memsearch.search.fuse as fuse_module

    monkeypatch.setattr(fuse_module, "ASKING_HEAD", 1)
    engine.index.derived.pop("transcript replies", None)

    def answer(query: str) -> list[tuple[int, float]]:
        results = engine.search(query, k=10, chunks=True, all_results=True).results
        return [(r.start_line, r.score) for r in results if r.path.endswith("session-01.md")]

    first = answer("adoption agencies next year")
    assert 7 in [line for line, _ in first]  # the question turn is among the results, not first
    assert engine.index.kept_if_current("transcript replies") is None
    assert answer("what did you make there")[0][0] == 7  # a question turn first: the replies read
    assert engine.index.kept_if_current("transcript replies")
    assert answer("adoption agencies next year") == first
