"""Query analysis: which words carry a question's information, and which only frame it."""

import pytest

from memsearch.index.keyword import KeywordIndex
from memsearch.query_terms import (
    SCAFFOLD_WEIGHT,
    asks_about_self,
    asks_for_event,
    identifiers,
    informative,
    is_scaffolding,
    term_weights,
    without_names,
)
from memsearch.tokenize import term_counts


def test_question_form_words_weigh_a_tenth_and_content_words_one():
    weights = term_weights("what happened with the boiler")
    assert weights == {"happen": SCAFFOLD_WEIGHT, "boiler": 1.0}
    assert is_scaffolding("happen") and not is_scaffolding("boiler")


def test_a_repeated_content_word_counts_again():
    assert term_weights("boiler boiler")["boiler"] == 2.0


def test_a_query_of_scaffolding_alone_is_not_informative():
    assert not informative(term_weights("tell me what happened"))
    assert not informative(term_weights("what was I doing"))  # once "two days ago" is the window
    assert informative(term_weights("tell me about the boiler"))
    # "what was going on in August 2024", once August is the window: its form, as "happened" is
    assert not informative(term_weights("what was going on"))
    assert not informative(term_weights("what went on?"))
    assert term_weights("did we go on a trip") == {"go": 1.0, "trip": 1.0}  # a trip is what it asks


def test_a_gloss_shares_the_weight_of_one_word():
    weights = term_weights("what is Amma taking", glosses=("kamala raman",))
    assert weights["kamala"] == weights["raman"] == 0.5
    assert weights["amma"] == 1.0


def test_what_a_query_asks_beyond_the_names_it_writes():
    weights = term_weights("who rides at the back of the Harbour Loop")
    asked = without_names(weights, ["Harbour Loop"])
    assert asked == {t: w for t, w in weights.items() if t not in ("harbour", "loop")}
    assert "back" in asked
    # nothing to tell apart: a query that names nothing, or is nothing but its names
    assert without_names(weights, []) == {}
    assert without_names(term_weights("Harbour Loop"), ["Harbour Loop"]) == {}


def test_scaffolding_cannot_win_a_keyword_hit_over_a_content_match():
    """A reference note that says "happen" must not outrank the entry about the boiler."""
    index = KeywordIndex()
    index.add(0, term_counts("Things happen; this note says what happens when things happen."))
    index.add(1, term_counts("The boiler broke on Tuesday and the engineer came."))
    index.add(2, term_counts("Groceries: milk, bread."))
    hits = index.search(term_weights("what happened with the boiler"), 3)
    assert hits[0].chunk_id == 1
    plain = index.search(["happen", "boiler"], 3)  # unweighted, the scaffolding word wins
    assert plain[0].chunk_id == 0


def test_when_questions_ask_for_a_dated_event():
    assert asks_for_event("When did the steriliser break down?")
    assert asks_for_event("what day was the garden flooded")
    assert not asks_for_event("When should the blood sample be taken?")
    assert not asks_for_event("Who is the vet?")


def test_present_state_questions_and_past_ones_are_told_apart():
    from memsearch.query_terms import asks_for_current

    assert asks_for_current("What's the clinic's phone number now?")
    assert asks_for_current("Which wholesaler do we order from these days?")
    assert asks_for_current("Who is Mum's GP?")
    assert not asks_for_current("What did we use before the new lab?")
    assert not asks_for_current("Which editor did I use in 2023?")
    assert not asks_for_current("Tell me about the trip")
    # the present asked after its subject: "which <thing> do I ...", "what <thing> am I ..."
    assert asks_for_current("which text editor do I use")
    assert asks_for_current("What thyroid dose am I on?")
    assert not asks_for_current("what did I do")
    assert not asks_for_current("which text editor did I use")


def test_a_name_and_its_gloss_are_one_word_missing_only_if_missing_in_both_spellings():
    """王磊 is "Wang Lei" by a note's aliases, and only the latter is in any chunk's text: the
    query's word is in the vault. So is "Wang Lei" when the vault writes only that spelling; a word
    of the query with no other spelling is missing as before."""
    from memsearch.query_terms import Gloss

    index = KeywordIndex()
    index.add(0, term_counts("Wang Lei leads the backend team."))
    index.add(1, term_counts("The release train leaves on Fridays."))
    for weights in (
        term_weights("王磊", glosses=(Gloss("wang lei", written="王磊"),)),
        term_weights("Wang Lei", glosses=(Gloss("王磊", written="wang lei"),)),
    ):
        total, missing = index.query_weight(weights)
        assert total > 0 and missing == 0, weights
    total, missing = index.query_weight(
        term_weights("王磊 quantum", glosses=(Gloss("wang lei", written="王磊"),))
    )
    assert missing == pytest.approx(index.query_weight({"quantum": 1.0})[0])
    # Neither spelling in the vault: the word is missing; a plain gloss (no name) pairs nothing.
    total, missing = index.query_weight(term_weights("李娜", glosses=(Gloss("li na", written="李娜"),)))
    assert missing == pytest.approx(total)
    total, missing = index.query_weight(term_weights("王磊", glosses=("wang lei",)))
    assert 0 < missing < total


@pytest.mark.parametrize(
    ("query", "written"),
    [
        ("What was purchase order PO-7781 for?", ["PO-7781"]),
        ("what did commit a4c91e7 do", ["a4c91e7"]),
        ("How does reserve_slot() stop double bookings?", ["reserve_slot()"]),
        ("Where is TALLY_SLOT_MINUTES set, and __init__?", ["TALLY_SLOT_MINUTES", "__init__"]),
        ("When did kcb_revc.kicad_pcb go to the fab?", ["kcb_revc.kicad_pcb"]),
        ("What happened on the 3rd of March 2024?", []),  # an ordinal and a year
        ("How long at 10C, 12_000 steps, an x-ray?", []),  # a measure, a number, a hyphenated word
        ("Which ESP32 board, and the B12 and MP3 notes?", []),  # model and product names
        ("What runs on the STM32G431?", ["STM32G431"]),  # a part number
        ("用sign_ed25519()签名是什么", ["sign_ed25519()"]),  # inside unspaced script
        ("PO-7781の件", ["PO-7781"]),
    ],
)
def test_an_identifier_is_a_code_that_names_one_thing(query, written):
    assert identifiers(query) == written


@pytest.mark.parametrize(
    ("query", "about_self"),
    [
        ("How should I talk to Tobi?", True),
        ("Am I allowed to make jokes?", True),
        ("Is it OK for me to read Mags's work email?", True),
        ("What do I value most?", True),
        ("Who am I?", True),
        ("What does Tobi fix?", False),
        ("Who should get the shoulder of lamb?", False),  # "should" without "I"
        ("What did I eat?", False),
        ("How early must I phone to be seen today?", False),  # practical, not conduct
        ("May I share Priya's address with the vet?", True),
        ("May I see the garden notes?", False),  # a polite request, not a question of conduct
        ("may I have the budget for May", False),
    ],
)
def test_a_question_about_the_agents_own_conduct_is_told_apart(query, about_self):
    assert asks_about_self(query) is about_self
