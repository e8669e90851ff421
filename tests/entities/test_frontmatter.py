"""memsearch.entities.frontmatter: the entities and aliases a file's frontmatter declares."""

from __future__ import annotations

from memsearch.entities import frontmatter_entities


def test_frontmatter_sources_strings_and_lists():
    fm = {
        "title": "Redflag",
        "tags": "security, #signing crypto",
        "entities": ["Ed25519", "HSM"],
        "people": ["[[Ed Kowalski]]", "Mara Lin"],
        "project": "redflag",
        "aliases": ["RF", "red flag"],
        "other": "Ignored Name",
    }
    names, aliases = frontmatter_entities(fm)
    expected = ["Redflag", "security", "signing", "crypto", "Ed25519", "HSM", "Ed Kowalski", "Mara Lin"]
    assert names == [*expected, "RF", "red flag"]
    assert aliases == {"RF": "Redflag", "red flag": "Redflag"}


def test_frontmatter_aliases_map_to_the_given_title_when_frontmatter_has_none():
    names, aliases = frontmatter_entities({"aliases": "Ed, EK"}, title="Ed Kowalski")
    assert aliases == {"Ed": "Ed Kowalski", "EK": "Ed Kowalski"}
    assert names == ["Ed Kowalski", "Ed", "EK"]


def test_frontmatter_odd_values_are_ignored():
    fm = {"tags": [None, {"a": 1}, 3, ["nested"]], "people": True, "project": 7.5}
    assert frontmatter_entities(fm) == (["nested"], {})  # a number is no name, as with #123
    assert frontmatter_entities("not a dict") == ([], {})  # type: ignore[arg-type]
