"""memsearch.entities.aliases: the aliases a file's prose defines."""

from __future__ import annotations


def test_a_glossary_line_defines_what_an_abbreviation_stands_for():
    from memsearch.entities import prose_aliases

    text = "- **BID** - twice daily. **PRN** - as needed.\n- **PTS** - put to sleep (euthanasia).\n"
    assert prose_aliases(text) == {"BID": "twice daily", "PRN": "as needed", "PTS": "put to sleep"}


def test_quoted_nicknames_and_aka_name_their_thing_and_articles_are_optional():
    from memsearch.entities import prose_aliases

    found = prose_aliases('CD register = "the yellow book" (it is orange)\nTomasz Nowak, aka Tomek, digs.\n')
    assert found["the yellow book"] == found["yellow book"] == "CD register"
    assert found["Tomek"] == "Tomasz Nowak"


def test_a_short_quoted_name_in_brackets_after_a_name_is_its_alias():
    from memsearch.entities import prose_aliases

    text = (
        'Owner: Maureen Hargreaves ("Mrs H"), 3 Orchard Close.\n# Sir Reginald ("Reggie")\n'
        '- texts go out through TextLoom ("your bike is ready")\n'
        '- a patient we do not have ("Bella Morrison"??)\nPriya ("Do not worry about it, really")\n'
    )
    assert prose_aliases(text) == {"Mrs H": "Maureen Hargreaves", "Reggie": "Sir Reginald"}


def test_prose_aliases_skip_code_and_long_definitions():
    from memsearch.entities import prose_aliases

    text = "```\n**x** - not a definition\n```\n**Y** - " + " ".join(["word"] * 12) + "\n"
    assert prose_aliases(text) == {}


def test_bold_words_inside_a_sentence_are_emphasis_not_a_glossary_term():
    """ "until **30 June 2026** - and can be destroyed" stresses a date: the bold term of a glossary
    line opens the line, its list item, or a sentence; and a time of day opens a timetable's line."""
    from memsearch.entities import prose_aliases

    text = (
        "It stays in the cabinet until **30 June 2026** - and can be destroyed after that.\n"
        "Insulin: lente. **U40** - the syringe size.\n"
        "1. **HLCG** - Hollis Lane Community Garden\n"
        "- **04:50 Monday, Friday** - all zones in turn, 12 minutes each\n"
    )
    assert prose_aliases(text) == {"U40": "the syringe size", "HLCG": "Hollis Lane Community Garden"}


def test_a_glossary_definition_ends_before_an_arrow_or_a_link():
    """ "**OOH** - out of hours -> [[out-of-hours]]": the link says where to read on, it is no part
    of what the term stands for."""
    from memsearch.entities import prose_aliases

    text = "- **OOH** - out of hours -> [[out-of-hours]]\n- **PVP** - pre-visit pills → see [[pvp]]\n"
    text += "- **CD** - controlled drug [[controlled-drugs]]\n"
    assert prose_aliases(text) == {"OOH": "out of hours", "PVP": "pre-visit pills", "CD": "controlled drug"}


def test_aliases_close_to_the_end_of_their_chains():
    from memsearch.entities import closed_aliases

    assert closed_aliases({"mq": "mara quint", "mara quint": "hydroponics lead"}) == {
        "mq": "hydroponics lead",
        "mara quint": "hydroponics lead",
    }
    # a cycle stands for its first member; a tail into it too
    assert closed_aliases({"x": "y", "y": "z", "z": "y"}) == {"x": "y", "z": "y"}
    # a glossary's long chain (each name walked once)
    chain = {f"n{i:05d}": f"n{i + 1:05d}" for i in range(3000)}
    closed = closed_aliases(chain)
    assert len(closed) == 3000 and set(closed.values()) == {"n03000"}
