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
