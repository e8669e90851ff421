"""memsearch.entities.extract: the entities of body text, each source and what is skipped."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memsearch.entities import (
    extract_entities,
    normalize_entity,
    unique_entities,
    vocabulary,
)


def test_wikilinks_give_their_target():
    text = "See [[Redflag|the project]], [[Signing keys#Rotation]], ![[Ed25519]] and [[people/Mara Lin]]."
    assert extract_entities(text) == ["Redflag", "Signing keys", "Ed25519", "Mara Lin"]


def test_hash_tags_but_not_headings_numbers_or_url_fragments():
    text = "# Heading\nRotated keys #redflag #project/signing, issue #123, see https://x.org/page#frag a#b"
    assert extract_entities(text) == ["redflag", "project/signing"]


def test_markdown_links_to_vault_files_give_the_stem():
    text = (
        "Read [the page](../reference/redflag.md#signing-keys) and [notes](<my notes.md>) "
        "but not [site](https://example.org/a.md), [anchor](#top) or ![img](pic.png)."
    )
    assert extract_entities(text) == ["redflag", "my notes"]


def test_link_text_names_come_before_the_link_target():
    assert extract_entities("Ask [Ed Kowalski](people/ed-kowalski.md).") == ["Ed Kowalski"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We met Ed Kowalski in New York.", ["Ed Kowalski", "New York"]),
        ("The LGBTQ group uses GitHub and OpenAI tools.", ["LGBTQ", "GitHub", "OpenAI"]),
        ("Went to the University of Oxford with Caroline's sister.", ["University of Oxford", "Caroline"]),
        ("Caroline: Hey Mel! Good to see you!", ["Caroline", "Mel"]),
        ("Yesterday I went out. When Mara came, This was OK.", ["Mara"]),
        ("On Monday in March, I saw nothing.", []),
        ("Rotated the keys. Prefers short notes. Finally done.", []),
        ("- 2025-03-03 09:14 — Opened the rotation for Redflag.", ["Redflag"]),
        ("## Signing Keys and Contacts", []),
        ("## Ed25519 and Mara Lin", ["Ed25519", "Mara Lin"]),
        ("I'm sure Don't matter. It's Ed's call.", ["Ed"]),
    ],
)
def test_capitalised_names(text, expected):
    assert extract_entities(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Met April Jones at the clinic.", ["April Jones"]),
        ("Jun Park joined in Feb.", ["Jun Park"]),
        ("June Carter called.", ["June Carter"]),
        ("Talked to June Carter, then lunch with June Carter.", ["June Carter"]),
        ("A report by April Jones.", ["April Jones"]),
        ("Jan Smith is here.", ["Jan Smith"]),
        # a date, then a name
        ("On 5 June Carter called.", ["Carter"]),
        ("In March Ed came, and in August Priya rang.", ["Ed", "Priya"]),
        ("Back in **June** Priya signed.", ["Priya"]),
        ("On June 5 Ed came. June and July were hot. We met in June 2024.", ["Ed"]),
        # a thing of the month, a heading's topic, a month inside a run
        ("The June Offsite is booked.", ["Offsite"]),
        ("## August Plans", []),
        ("## June Retrospective", []),
        ("Launched June Ed said so.", ["Launched", "Ed"]),
    ],
)
def test_a_month_word_before_a_name_is_a_first_name_unless_a_date_leads_in(text, expected):
    assert extract_entities(text) == expected


def test_connectors_join_names():
    text = "Read Lord of the Rings in Rio de Janeiro with Anna of the team."
    assert extract_entities(text) == ["Lord of the Rings", "Rio de Janeiro", "Anna"]


def test_file_vocabulary_decides_sentence_opening_words():
    file_text = "Sounds good.\nMax barked.\nWe walked my dog Max. It sounds like rain."
    vocab = vocabulary(file_text)
    assert extract_entities("Sounds fun! Max barked.", vocab) == ["Max"]
    # without the file's evidence the lists decide: "Sounds" is an inflection of a common word
    assert extract_entities("Sounds fun! Max barked.") == ["Max"]
    assert extract_entities("Zorblax arrived.", vocabulary("the zorblax is a bird")) == []
    assert extract_entities("## Berlin", vocabulary("We live in Berlin.")) == ["Berlin"]
    assert extract_entities("## Berlin") == []


def test_code_is_skipped_entirely():
    text = "Intro by Mara.\n```python\nsign_ed25519(KeyHandle)  # SecretName\n```\nCall `Token.open` now."
    assert extract_entities(text) == ["Mara"]
    assert extract_entities("~~~\n[[Hidden]] #hidden\n") == []  # unterminated fence runs to the end


def test_emphasis_does_not_hide_names():
    assert extract_entities("Ask **Ed Kowalski** or _Mara Lin_.") == ["Ed Kowalski", "Mara Lin"]


def test_deduplicated_case_insensitively_first_spelling_kept():
    assert extract_entities("#redflag then Redflag then [[redflag]]") == ["redflag"]
    assert unique_entities(["#Signing-Keys", "signing keys", "Signing_keys", "x"]) == ["Signing-Keys", "x"]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("Ab c#[]|()`.-_'’:\n!Ed2@/*~É")), max_size=80))
def test_extraction_never_fails_and_gives_unique_non_empty_keys(text):
    names = extract_entities(text)
    keys = [normalize_entity(n) for n in names]
    assert all(keys) and len(set(keys)) == len(keys)


def test_linked_notes_names_what_one_line_links_to():
    from memsearch.entities import linked_notes

    line = "see [[ema-filter]], [notes](../techniques/debouncing.md) and [[Redflag#Signing keys|keys]]"
    assert linked_notes(line) == ["ema-filter", "Redflag", "debouncing"]
    assert linked_notes("no link here, only [brackets] and (parens)") == []
    assert linked_notes("![[diagram.png]] `[[not a link]]` [site](https://example.com/a.md)") == []


def test_a_wikilink_in_a_table_escapes_its_bar():
    # Obsidian writes ``[[heron\|the pipeline]]`` in a table cell; the entity was "heron\".
    from memsearch.entities import linked_notes

    row = "| [[heron\\|the pipeline]] | owner |"
    assert "heron" in extract_entities(row) and "heron\\" not in extract_entities(row)
    assert linked_notes(row) == ["heron"]


@pytest.mark.parametrize(
    ("line", "name"),
    [
        ("Restarted HPX after the outage.", "HPX"),
        ("Deployed Heron Pipeline to prod.", "Heron Pipeline"),
        ("Rebooted Sprout twice.", "Sprout"),
        ("Ahmed Khan came by.", "Ahmed Khan"),  # a name ending in -ed is no verb
        ("Born 1961 in Bergen.", "Bergen"),  # a person's card: "born" was a name, and seeded the walk
        ("Shipped HPX to prod.", "HPX"),
        ("Restart HPX now.", "HPX"),
        # a verb that is a noun too opens a name when it is not inflected
        ("Harvest Moon was busy.", "Harvest Moon"),
        ("Post Office closed early.", "Post Office"),
        ("Ship Inn was full.", "Ship Inn"),
    ],
)
def test_a_verb_opening_a_sentence_is_not_part_of_the_name_after_it(line, name):
    # "Restarted HPX" was one entity: the note was out of --entity HPX
    assert extract_entities(line) == [name]
