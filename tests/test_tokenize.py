from memsearch.tokenize import tokenize


def test_identifier_kept_whole_and_split_into_parts():
    terms = tokenize("call sign_ed25519() here")
    assert "sign_ed25519" in terms
    assert "sign" in terms and "ed25519" in terms


def test_dotted_and_hash_tokens():
    assert {"foo.bar", "foo", "bar"} <= set(tokenize("foo.bar"))
    assert {"#redflag", "redflag"} <= set(tokenize("#redflag"))


def test_camel_case_parts():
    assert {"signingkey", "sign", "key"} <= set(tokenize("signingKey"))


def test_stopwords_dropped_and_words_stemmed():
    assert tokenize("When did they research it?") == ["research"]
    assert tokenize("researched researching") == ["research", "research"]


def test_query_and_document_forms_meet():
    doc = set(tokenize("We rotated the signing keys for sign_ed25519()."))
    assert set(tokenize("sign_ed25519")) <= doc
    assert set(tokenize("signing key")) <= doc


def test_the_c_stemmer_is_in_use_and_stems_as_the_pure_python_one():
    # PyStemmer (a dependency) is snowballstemmer's C backend; an index built where only the
    # pure-Python stemmer is installed must still meet queries stemmed by the C one.
    import re
    from pathlib import Path

    import Stemmer
    from snowballstemmer.english_stemmer import EnglishStemmer

    from memsearch import tokenize as tok

    assert isinstance(tok._stemmer, Stemmer.Stemmer)
    text = "\n".join(p.read_text() for p in sorted(Path(tok.__file__).parent.rglob("*.py")))
    extra = "running generously agreed rotated signing ponies caresses sensational conditional dying"
    words = sorted({w.lower() for w in re.findall(r"[^\W\d_]+", text)} | set(extra.split()) | {"naïveté"})
    assert len(words) > 1000
    assert Stemmer.Stemmer("english").stemWords(words) == [EnglishStemmer().stemWord(w) for w in words]


def test_term_counts_are_the_counts_of_tokenize_in_its_order(monkeypatch):
    # term_counts expands each distinct raw token once, through a bounded cache of expansions;
    # with the bound tiny (the cache emptied again and again) the counts must not change.
    from collections import Counter

    from hypothesis import given, settings
    from hypothesis import strategies as st

    from memsearch import tokenize as tok

    monkeypatch.setattr(tok, "_MAX_EXPANSIONS", 3)
    monkeypatch.setattr(tok, "_EXPANSIONS", {})
    words = st.sampled_from(
        ["sign_ed25519()", "#tag", "Signing", "signingKey", "the", "keys", "foo.bar", "é"]
    )
    texts = st.lists(st.one_of(words, st.text(max_size=12)), max_size=30).map(" ".join)

    @settings(max_examples=300, deadline=None)
    @given(texts)
    def check(text):
        assert list(tok.term_counts(text).items()) == list(Counter(tok.tokenize(text)).items())
        assert len(tok._EXPANSIONS) <= 3

    check()
