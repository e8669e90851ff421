"""The signal: strong, thin or none, read from evidence that does not depend on a score scale."""

from dataclasses import replace

import pytest

from memsearch.models import Evidence
from memsearch.resonance import MISSING_SHARE_THIN, NEAR_Z, STANDOUT_Z, judge


def test_nothing_matched_is_none():
    assert judge(Evidence(results=0)).level == "none"


def test_nothing_near_the_window_a_question_asks_for_says_so():
    """ "What happened last week?" asks only for its window: with nothing dated near it, the
    reason names the window, not the words."""
    signal = judge(Evidence(results=0, window_entries=0))
    assert signal.level == "none" and "time window" in signal.reason


def test_a_query_whose_words_the_vault_holds_is_strong():
    signal = judge(Evidence(results=5, informative_terms=3, missing_share=0.0, semantic_z=2.0))
    assert signal.level == "strong" and "informative words" in signal.reason


def test_unknown_words_with_nothing_close_in_meaning_are_none():
    signal = judge(Evidence(results=5, informative_terms=2, missing_share=1.0, semantic_z=NEAR_Z - 1))
    assert signal.level == "none" and "no informative word" in signal.reason


def test_unknown_words_but_a_standout_in_meaning_is_strong():
    """A paraphrase shares no word with its answer; its answer stands out in meaning."""
    signal = judge(Evidence(results=5, informative_terms=2, missing_share=1.0, semantic_z=STANDOUT_Z))
    assert signal.level == "strong" and "stands out" in signal.reason


@pytest.mark.parametrize("entities", [0, 1])
def test_partly_unknown_words_without_a_standout_are_thin(entities):
    evidence = Evidence(
        results=5, informative_terms=4, missing_share=0.5, semantic_z=STANDOUT_Z - 1, entities=entities
    )
    signal = judge(evidence)
    assert signal.level == "thin" and "50%" in signal.reason


def test_a_named_entity_keeps_a_foreign_query_from_none():
    evidence = Evidence(results=5, informative_terms=2, missing_share=1.0, semantic_z=1.0, entities=1)
    assert judge(evidence).level == "thin"


def test_a_time_window_with_entries_is_strong_without_informative_words():
    signal = judge(Evidence(results=5, missing_share=None, window_entries=4))
    assert signal.level == "strong" and "4 entries are dated" in signal.reason
    one = judge(Evidence(results=1, missing_share=None, window_entries=1))
    assert one.reason == "1 entry is dated in the query's time window"


def test_a_time_window_with_only_entries_near_it_is_thin_and_says_so():
    """ "What happened on March 10?" with entries the day before and after, none that day."""
    signal = judge(Evidence(results=2, missing_share=None, window_entries=0, semantic_z=1.0))
    assert signal.level == "thin" and "time window" in signal.reason


def test_a_query_of_no_informative_word_with_nothing_close_in_meaning_is_none():
    """ "the" or "?!?": no word to find and no passage near in meaning; "who am I" near the
    agent's identity note is thin, as is one that names a known entity."""
    alone = Evidence(
        results=5, missing_share=None, semantic_z=NEAR_Z - 1.5, semantic_sample=400, form_only=True
    )
    signal = judge(alone)
    assert signal.level == "none" and "no informative words" in signal.reason
    assert judge(replace(alone, semantic_z=NEAR_Z)).level == "thin"
    assert judge(replace(alone, entities=1)).level == "thin"
    assert judge(replace(alone, semantic_z=None)).level == "thin"  # no semantic list to judge by
    # words not weighed (the keyword strategy did not run, or vectors alone): nothing known to lack
    assert judge(replace(alone, form_only=False)).level == "thin"


def test_a_question_about_the_self_answered_from_the_selfs_notes_is_strong():
    """ "Who am I" shares no word with the identity note and MiniLM puts it barely above the vault
    (a form-only query nothing is close to would be none): its first result in system/ answers it."""
    who = Evidence(
        results=5,
        missing_share=None,
        semantic_z=NEAR_Z - 1.5,
        semantic_sample=400,
        form_only=True,
        self_territory="system",
    )
    signal = judge(who)
    assert signal.level == "strong" and "about the self" in signal.reason and "system" in signal.reason
    assert judge(replace(who, self_territory=None)).level == "none"
    # a question about conduct, partly in words the vault lacks: the covenant's note answers it
    conduct = replace(who, form_only=False, missing_share=0.5, self_territory="covenant")
    assert judge(conduct).level == "strong"
    assert judge(replace(conduct, self_territory=None)).level == "thin"


def test_the_boundary_of_missing_share():
    below = Evidence(results=3, informative_terms=4, missing_share=MISSING_SHARE_THIN - 0.01, semantic_z=0.0)
    at = Evidence(results=3, informative_terms=4, missing_share=MISSING_SHARE_THIN, semantic_z=0.0)
    assert judge(below).level == "strong" and judge(at).level == "thin"


def test_the_signal_serialises_with_its_evidence():
    data = judge(Evidence(results=1, missing_share=0.123456)).to_dict()
    assert data["level"] in ("strong", "thin", "none")
    assert data["evidence"]["missing_share"] == 0.1235


def test_a_vault_too_small_to_show_a_standout_is_thin_not_none():
    """Among 12 cosines the best is at most sqrt(11) = 3.3 sd above their mean, below NEAR_Z: "nothing
    is close in meaning" cannot be known, so the results are shown as thin."""
    tiny = Evidence(results=5, informative_terms=2, missing_share=1.0, semantic_z=3.1, semantic_sample=12)
    signal = judge(tiny)
    assert signal.level == "thin" and "too few passages (12)" in signal.reason
    big = Evidence(results=5, informative_terms=2, missing_share=1.0, semantic_z=3.1, semantic_sample=1024)
    assert judge(big).level == "none"


def test_unknown_words_near_a_passage_in_another_script_are_thin_not_none():
    """Words are evidence of absence in their own language only."""
    asked_across = Evidence(
        results=5, informative_terms=2, missing_share=1.0, semantic_z=2.0, other_script="Japanese kana"
    )
    signal = judge(asked_across)
    assert signal.level == "thin" and "another script (Japanese kana)" in signal.reason
    same_script = Evidence(results=5, informative_terms=2, missing_share=1.0, semantic_z=2.0)
    assert judge(same_script).level == "none"


def test_an_identifier_the_vault_holds_is_strong_whatever_words_it_lacks():
    """ "What was purchase order PO-7781 for?" in a vault that writes "PO-7781" but never "purchase":
    the code names one thing, and the vault holds it."""
    words = {"results": 5, "informative_terms": 4, "missing_share": 0.45, "semantic_z": 3.0}
    signal = judge(Evidence(**words, identifiers=1))
    assert signal.level == "strong" and "identifier" in signal.reason
    assert judge(Evidence(**words, identifiers=1, identifiers_missing=1)).level == "thin"
