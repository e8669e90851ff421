from memsearch.tokenize import tokenize


def test_identifier_kept_whole_and_split_into_parts():
    terms = tokenize("call sign_ed25519() here")
    assert "sign_ed25519" in terms
    assert "sign" in terms and "ed25519" in terms


def test_dotted_and_hash_tokens():
    assert {"foo.bar", "foo", "bar"} <= set(tokenize("foo.bar"))
    assert {"#redflag", "redflag"} <= set(tokenize("#redflag"))


def test_language_names_keep_their_plus_signs_and_sharp():
    """ "C++", "C#", "F#" name languages that "C" and "F" do not: their signs stay on the token
    ("C++17" is also "c++"); a sign followed by a word stays out ("issue#12" is a hashtag)."""
    terms = tokenize("The firmware is C++17, the tool C#, the parser F# and the boot code C.")
    assert {"c++17", "c++", "c#", "f#"} <= set(terms)
    assert tokenize("C++") == ["c++", "c"] and tokenize("c#") == ["c#", "c"]
    assert tokenize("see issue#12") == ["see", "issu", "#12", "12"]
    assert tokenize("a+b") == ["b"] and "x++" in tokenize("x++ then")


def test_camel_case_parts():
    assert {"signingkey", "sign", "key"} <= set(tokenize("signingKey"))


def test_stopwords_dropped_and_words_stemmed():
    assert tokenize("When did they research it?") == ["research"]
    assert tokenize("researched researching") == ["research", "research"]


def test_query_and_document_forms_meet():
    doc = set(tokenize("We rotated the signing keys for sign_ed25519()."))
    assert set(tokenize("sign_ed25519")) <= doc
    assert set(tokenize("signing key")) <= doc


def test_cyrillic_and_greek_words_are_stemmed_in_their_language():
    # The English stemmer leaves "новые холодильники" and "новый холодильник" apart; the query
    # then misses the note that holds its words in another case or number.
    assert set(tokenize("новые холодильники")) <= set(tokenize("Мы купили новый холодильник"))
    assert set(tokenize("κλειδιά")) == set(tokenize("κλειδί"))
    assert tokenize("signing keys") == ["sign", "key"]
    # A word mixing Greek with Latin letters or digits is a name (PPARα, 16α), not Greek: whole.
    assert tokenize("PPARα binds 16α") == ["pparα", "bind", "16α"]


def test_the_script_stemmers_stem_as_the_pure_python_ones():
    # PyStemmer's Russian and Greek against snowballstemmer's own: an index built with either
    # meets queries stemmed by the other.
    import Stemmer
    from snowballstemmer.greek_stemmer import GreekStemmer
    from snowballstemmer.russian_stemmer import RussianStemmer

    russian = [
        "новые",
        "новый",
        "холодильники",
        "холодильника",
        "купили",
        "купить",
        "дачи",
        "дача",
        "отвезли",
        "субботу",
    ]
    greek = ["κλειδιά", "κλειδί", "υπογραφές", "υπογραφή", "έκδοση", "εκδόσεις"]
    assert Stemmer.Stemmer("russian").stemWords(russian) == [RussianStemmer().stemWord(w) for w in russian]
    assert Stemmer.Stemmer("greek").stemWords(greek) == [GreekStemmer().stemWord(w) for w in greek]


def test_the_c_stemmer_is_in_use_and_stems_as_the_pure_python_one():
    # PyStemmer (a dependency) is snowballstemmer's C backend; an index built where only the
    # pure-Python stemmer is installed must still meet queries stemmed by the C one.
    import importlib
    import re
    from pathlib import Path

    import Stemmer

    from memsearch import tokenize as tok
    from memsearch.languages import LANGUAGES, MARKERS

    text = "\n".join(p.read_text() for p in sorted(Path(tok.__file__).parent.rglob("*.py")))
    extra = "running generously agreed rotated signing ponies caresses sensational conditional dying"
    extra += " Wohnungen überwiesen Vermieters presentamos diapositivas inversores réunions giornate"
    words = set(re.findall(r"[^\W\d_]+", text.lower())) | set(extra.lower().split()) | {"naïveté"}
    words = sorted(words.union(*MARKERS.values()))
    assert len(words) > 1000
    for language in LANGUAGES:  # each language's C stemmer in use, stemming as the pure-Python one
        assert isinstance(tok._STEMMERS[language], Stemmer.Stemmer)
        module = importlib.import_module(f"snowballstemmer.{language}_stemmer")
        reference = getattr(module, f"{language.capitalize()}Stemmer")()
        assert Stemmer.Stemmer(language).stemWords(words) == [reference.stemWord(w) for w in words]


def test_term_counts_are_the_counts_of_tokenize_in_its_order(monkeypatch):
    # term_counts expands each distinct raw token once, through a bounded cache of expansions;
    # with the bound tiny (the cache emptied again and again) the counts must not change.
    from collections import Counter

    from hypothesis import given, settings
    from hypothesis import strategies as st

    from memsearch import tokenize as tok

    monkeypatch.setattr(tok, "_MAX_EXPANSIONS", 3)
    monkeypatch.setattr(tok, "_EXPANSIONS", {language: {} for language in tok.LANGUAGES})
    words = st.sampled_from(
        ["sign_ed25519()", "#tag", "Signing", "signingKey", "the", "keys", "foo.bar", "é"]
    )
    texts = st.lists(st.one_of(words, st.text(max_size=12)), max_size=30).map(" ".join)

    @settings(max_examples=300, deadline=None)
    @given(texts)
    def check(text):
        assert list(tok.term_counts(text).items()) == list(Counter(tok.tokenize(text)).items())
        assert all(len(cache) <= 3 for cache in tok._EXPANSIONS.values())

    check()


# Scripts without spaces (issue 17): character bigrams, identifiers whole, Korean particles.


def test_english_corpus_terms_are_those_captured_before_cjk_segmentation():
    # The keyword index of a vault without CJK or Thai must not change at all: the terms of the
    # fixture vault, the benchmark vault's prose and code and other spaced scripts, as main
    # tokenized them before (tests/fixtures/tokens/english.json, from tests/english_tokens.py).
    # The Greek and Cyrillic lines were captured again when those scripts took their own stemmers.
    # The accented Latin lines (other/0, other/1) were captured again when an accented word stopped
    # being cut as camelCase at its accent ("réunion" had been "réunion", "r", "union").
    import json

    import english_tokens

    captured = json.loads(english_tokens.FIXTURE.read_text())
    compared = 0
    for name, text in english_tokens.corpus().items():
        want = captured.get(name)
        if want is None or want["text"] != english_tokens.terms_of(text)["text"]:
            continue  # a text added or edited since the capture says nothing about the tokenizer
        assert english_tokens.terms_of(text) == want, name
        compared += 1
    assert compared >= 30


def _substrings(run: str, shortest: int = 2) -> list[str]:
    return [run[i:j] for i in range(len(run)) for j in range(i + shortest, len(run) + 1)]


def test_every_substring_of_an_unspaced_run_meets_the_document():
    doc = "今天我们讨论了签名密钥的轮换计划，决定每九十天更换一次。来週の月曜日に東京で会議があります。"
    held = set(tokenize(doc))
    for run in ("今天我们讨论了签名密钥的轮换计划", "来週の月曜日に東京で会議があります"):
        for query in _substrings(run):
            assert set(tokenize(query)) <= held, query
    assert set(tokenize("签名密钥")) == {"签名", "名密", "密钥"}
    assert tokenize("饺") == ["饺"]  # a lone character is its own term
    assert not set(tokenize("密签")) <= held  # bigrams keep order: not a bag of characters


def test_identifiers_in_cjk_prose_stay_whole():
    terms = tokenize("王磊用sign_ed25519()签名了v1.2.3版本，见#release标签和foo.bar模块")
    assert {"sign_ed25519", "sign", "ed25519", "v1.2.3", "#release", "foo.bar"} <= set(terms)
    assert {"王磊", "签名", "版本", "标签", "模块"} <= set(terms)
    assert not [t for t in terms if "sign" in t and len(t) > len("sign_ed25519")]


def test_japanese_punctuation_and_name_separators_split_runs():
    terms = tokenize("「東京」・ジョン・スミス、会議。")
    assert "東京" in terms and "ジョ" in terms and "スミ" in terms
    assert not [t for t in terms if any(c in t for c in "「」・、。")]


def test_thai_words_are_whole_runs_with_their_vowel_signs():
    # Thai vowel signs and tone marks are not \w: before, ภาษาไทย fell apart at each one.
    terms = tokenize("ภาษาไทยง่าย")
    assert "ษา" in terms and "ง่" in terms and "่า" in terms
    assert set(tokenize("ไทย")) <= set(terms)


def test_korean_words_lose_their_particles():
    doc = set(tokenize("서울 사무실에서 예산 회의를 했다. API를 썼고 예산회의록을 정리했다."))
    assert {"서울", "사무", "무실", "예산", "회의", "api"} <= doc
    assert "사무실에서" not in doc and "회의를" not in doc
    assert set(tokenize("예산 회의")) <= doc  # the query form meets the inflected document
    assert set(tokenize("회의록")) <= doc  # part of the compound 예산회의록, by its bigrams
    assert tokenize("회의") == ["회의"]  # a two-syllable word keeps its last syllable (의)


def test_both_tokenizer_paths_agree_on_cjk_text():
    from memsearch import tokenize as tok

    text = "用sign_ed25519()签名。晚饭吃了饺子 a饺b #東京 ภาษาไทย 서울에서"
    assert tok.tokenize(text) == [t for raw in tok.raw_tokens(text) for t in tok._expansion(raw, "english")]
    assert list(tok.term_counts(text)) == list(dict.fromkeys(tok.tokenize(text)))


def test_an_accented_word_is_not_cut_as_camel_case_at_its_accent():
    # The camelCase split knows ASCII letters only: "réunion" had become "réunion", "r", "union".
    assert tokenize("réunion Fahrräder naïveté", "english") == ["réunion", "fahrräder", "naïveté"]
    assert tokenize("signingKey") == ["signingkey", "sign", "key"]


def test_a_text_is_written_in_its_script_or_in_the_language_its_function_words_name():
    from memsearch.tokenize import language_of, language_shares

    assert language_of("今天我们讨论了签名密钥，用sign_ed25519()签名。") == "Chinese characters"
    assert language_of("Wir sind in die neue Wohnung gezogen, und sie ist sehr schön.") == "german"
    assert language_of("Zwei Fahrräder gekauft.") == "english"  # too short to tell: English
    assert language_of("The Tokyo trip: 東京") == "english"  # a name in another script is quoted
    shares = language_shares(["我家的猫很可爱", "Wir haben die Wohnung gestern gesehen und sie ist schön."])
    assert list(shares) == ["german", "Chinese characters"] and abs(sum(shares.values()) - 1) < 1e-9
    assert language_shares(["123 !!"]) == {}


def test_accents_fold_on_latin_letters_only():
    from memsearch.tokenize import fold_accents

    assert fold_accents("vänern") == "vanern" and fold_accents("café") == "cafe"
    assert fold_accents("zoë") == "zoe" and fold_accents("ōsaka") == "osaka"
    assert fold_accents("が") == "が"  # kana's voicing mark changes the word
    assert fold_accents("ed25519") == "ed25519"


def test_a_spelling_folds_its_accents_and_hyphens():
    from memsearch.tokenize import fold_spelling

    assert fold_spelling("wi-fi") == "wifi" and fold_spelling("e-mail") == "email"
    assert fold_spelling("café-crème") == "cafecreme" and fold_spelling("po-7781") == "po7781"
    assert fold_spelling("sign_ed25519") == "sign_ed25519"  # an identifier's underscore stays


def test_a_greek_letter_among_latin_letters_or_digits_is_spelled_out():
    from memsearch.tokenize import fold_spelling

    assert fold_spelling("nf-κb") == fold_spelling("nf-kappab") == "nfkappab"
    assert fold_spelling("tnf-α") == "tnfalpha" and fold_spelling("β1") == "beta1"
    assert fold_spelling("α") == "alpha"
    assert fold_spelling("καλημέρα") == "καλημέρα"  # a Greek word is no symbol
