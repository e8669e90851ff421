"""memsearch.scripts: which writing systems a text's letters are in."""

from hypothesis import given
from hypothesis import strategies as st

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


def test_the_fast_share_agrees_with_the_letter_count():
    from memsearch.scripts import non_latin_share

    texts = ["abc déf Straße", "签名密钥 の서울 ภาษา дом", "12 !! __", "ẞ ǅ"]
    shares = script_shares(texts)
    assert abs(non_latin_share(texts) - (1 - shares["Latin"])) < 1e-9
    assert non_latin_share(["123"]) == 0.0 and non_latin_share(["签"]) == 1.0


@given(st.text(alphabet=st.characters(max_codepoint=0x7F)), st.text(max_size=30))
def test_an_ascii_text_is_counted_as_every_letter_one_by_one(ascii_text, any_text):
    """The count of an ASCII text (most passages) is read without a loop: the same as each letter's
    script counted one by one, for it and for any text."""
    from collections import Counter

    from memsearch.scripts import script_counts

    for text in (ascii_text, any_text, ascii_text + any_text):
        assert script_counts(text) == Counter(script_of(ch) for ch in text if ch.isalpha())
