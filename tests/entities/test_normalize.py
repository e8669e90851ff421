"""memsearch.entities.normalize: the key the graph uses for an entity's node."""

from __future__ import annotations

import pytest

from memsearch.entities import normalize_entity, without_possessive


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("Ed Kowalski", "ed kowalski"),
        ("#Signing_Keys", "signing keys"),
        ("  red-flag   service ", "red flag service"),
        ("STRASSE", "strasse"),
        ("Straße", "strasse"),
        # a word's closing full stop, as a query's words are read ("Dr. Okafor" asked as written)
        ("Dr. Okafor", "dr okafor"),
        ("St. Ives Jr.", "st ives jr"),
        ("U.S. Navy", "u.s navy"),
        ("firmware v1.2", "firmware v1.2"),
    ],
)
def test_normalize_entity(name, key):
    assert normalize_entity(name) == key


@pytest.mark.parametrize(
    ("word", "name"),
    [
        ("Pai's", "Pai"),
        ("Oz’s", "Oz"),
        ("Joneses'", "Joneses"),
        ("OSI'S", "OSI"),
        ("Pai", "Pai"),
        ("'s", "'s"),
    ],
)
def test_without_possessive(word: str, name: str) -> None:
    assert without_possessive(word) == name
