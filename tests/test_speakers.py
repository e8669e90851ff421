"""memsearch.speakers: the turns of a transcript are their speakers', and a question naming one
weighs that speaker's own turns up (real files, a real index)."""

from __future__ import annotations

import pytest

from memsearch.api import index_vault, open_index
from memsearch.speakers import SPEAKER_WEIGHT, transcript_speakers

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
    melanie, caroline = weights[5], weights[7]  # "Melanie: That sounds lovely ...", "Caroline: Pottery! ..."
    assert melanie > caroline and melanie == pytest.approx(caroline * SPEAKER_WEIGHT)
    assert any("spoken by" in note for note in response.health.notes)


def test_a_question_naming_both_speakers_weighs_every_turn_alike(engine):
    response = engine.search("What did Caroline and Melanie talk about?", k=10, chunks=True, explain=True)
    weights = {
        r.explanation["territory_weight"] for r in response.results if r.path.endswith("session-01.md")
    }
    assert len(weights) == 1 and next(iter(weights)) > 1.0  # every turn weighed up alike (journal: 1)
