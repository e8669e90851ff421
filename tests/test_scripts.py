"""memsearch.scripts: which writing systems a text's letters are in."""

from memsearch.scripts import script_of, script_shares


def test_each_letter_counts_for_its_script():
    assert script_of("a") == script_of("é") == script_of("ẞ") == "Latin"
    assert script_of("签") == script_of("𠀀") == "Chinese characters"
    assert script_of("の") == script_of("カ") == "Japanese kana"
    assert script_of("서") == "Korean Hangul" and script_of("ก") == "Thai" and script_of("д") == "Cyrillic"
    shares = script_shares(["abcd", "签名", "12 34 !!"])  # digits and punctuation are no letters
    assert shares == {"Latin": 4 / 6, "Chinese characters": 2 / 6}
    assert list(shares) == ["Latin", "Chinese characters"]  # largest first
    assert script_shares(["", "123"]) == {}


def test_reading_stops_at_the_budget():
    assert script_shares(["ab" * 10, "签" * 100], max_chars=20) == {"Latin": 1.0}
