"""The compiled keyword loops (memsearch/_speedups.c) give what their Python references give.

Both run on the same inputs here: the same terms in the same order, and the same weights bit for
bit, so an index is the same whichever built it. Where the install could not build the compiled
module (no C compiler) only the comparisons are skipped; the switch (memsearch/speedups.py) is
checked everywhere, and ``MEMSEARCH_NO_SPEEDUPS=1`` runs the rest of the suite on the Python twins
(.ci/run does).
"""

import dataclasses
import functools
import os
import shutil
import subprocess
import sys
import sysconfig
from array import array

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memsearch import entities, speedups
from memsearch import tokenize as tok
from memsearch.config import Settings
from memsearch.entities import extract
from memsearch.index import keyword_terms

#: The twin-identity tests compare the compiled twins in use with the Python ones: without a compiler
#: at install (or with MEMSEARCH_NO_SPEEDUPS set) there is nothing to compare.
needs_compiled = pytest.mark.skipif(
    not speedups.ENABLED, reason="memsearch._speedups not built (no C compiler at install) or disabled"
)

TERMS = st.sampled_from(["sign", "ed25519", "key", "#tag", "ada", "lovelac", "x", "é", "signing_key", "z"])
COUNTS = st.dictionaries(TERMS, st.integers(1, 50), max_size=8)


def _bound_twins() -> dict[str, bool]:
    """For each caller of a twin: whether it is bound to the compiled one."""
    compiled = speedups.compiled
    return {
        "count_terms": compiled is not None and tok._count_terms is compiled.count_terms,
        "raw_token_counts": compiled is not None and tok._raw_token_counts is compiled.raw_token_counts,
        "vocabulary_words": compiled is not None and extract.vocabulary_words is compiled.vocabulary_words,
        "split_words": compiled is not None and extract.split_words is compiled.split_words,
        "merge_terms": keyword_terms.packed_terms is keyword_terms.packed_terms_c,
    }


def test_every_caller_runs_the_twin_the_switch_chose():
    # One switch (memsearch/speedups.py) for all five: no caller falls back on its own.
    assert _bound_twins() == dict.fromkeys(_bound_twins(), speedups.ENABLED)
    if not speedups.ENABLED:
        assert tok._count_terms is tok.count_terms_py
        assert tok._raw_token_counts is tok.raw_token_counts_py
        assert extract.vocabulary_words is entities.vocabulary_words_py
        assert extract.split_words == extract.TOKEN_SPLIT_RE.split
        assert keyword_terms.packed_terms is keyword_terms.packed_terms_py


def _has_c_compiler() -> bool:
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(cc) is not None


@pytest.mark.skipif(os.environ.get(speedups.DISABLE_ENV, "") not in ("", "0"), reason="disabled on purpose")
def test_the_compiled_module_is_built_and_used_where_a_compiler_is_at_hand():
    # A silent fallback would leave chunking ~25% more costly with nothing failing; only an
    # install without a C compiler may run the Python twins unasked.
    if not _has_c_compiler():
        pytest.skip("no C compiler: the install runs the Python twins")
    assert speedups.BUILT and speedups.ENABLED
    assert all(_bound_twins().values())


def test_the_environment_variable_turns_the_compiled_twins_off():
    probe = (
        "from memsearch import entities, speedups, tokenize as tok;"
        "from memsearch.index import keyword_terms;"
        "from memsearch.entities import extract;"
        "assert not speedups.ENABLED and speedups.compiled is None;"
        "assert tok._count_terms is tok.count_terms_py and tok._raw_token_counts is tok.raw_token_counts_py;"
        "assert extract.vocabulary_words is entities.vocabulary_words_py;"
        "assert extract.split_words == extract.TOKEN_SPLIT_RE.split;"
        "assert keyword_terms.packed_terms is keyword_terms.packed_terms_py"
    )
    env = {**os.environ, speedups.DISABLE_ENV: "1"}
    subprocess.run([sys.executable, "-c", probe], env=env, check=True)


@needs_compiled
@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(TERMS, st.text(max_size=10)), max_size=40))
def test_count_terms_matches_python(raw_tokens):
    from memsearch._speedups import count_terms

    raws: dict[str, int] = {}
    for raw in raw_tokens:
        raws[raw] = raws.get(raw, 0) + 1
    expansions = {raw: tok._expansion(raw, "german") for raw in raw_tokens[::2]}  # some cached, some not
    missed: list[str] = []

    def expand(raw):
        missed.append(raw)
        return tok._expansion(raw, "german")

    got = count_terms(raws, dict(expansions), expand)
    python_missed = list(missed)
    missed.clear()
    want = tok.count_terms_py(raws, dict(expansions), expand)
    assert list(got.items()) == list(want.items())
    assert all(type(v) is int for v in got.values())
    assert missed == python_missed  # a raw token not cached is expanded once, in the same order


def _same(got, want):
    assert got[0] == want[0]  # terms, in order
    assert got[1].tobytes() == want[1].tobytes()  # float32 weights, bit for bit
    assert got[2] == want[2] and type(got[2]) is float  # the length: the same float64


@needs_compiled
@settings(max_examples=400, deadline=None)
@given(
    header=COUNTS,
    texts=st.lists(COUNTS, min_size=1, max_size=7),
    pick=st.integers(0, 6),
    neighbours=st.integers(0, 3),
    weight=st.sampled_from([0.0, 0.5, 0.3, 0.1, 1.0, 0.7]),
    decay=st.booleans(),
)
def test_merge_terms_matches_python(header, texts, pick, neighbours, weight, decay):
    shape = dataclasses.replace(
        Settings(), context_neighbours=neighbours, context_weight=weight, context_decay=decay
    )
    i = pick % len(texts)
    got = keyword_terms.packed_terms_c(header, i, shape, texts)
    _same(got, keyword_terms.packed_terms_py(header, i, shape, texts))
    assert isinstance(got[1], array) and got[1].typecode == "f"


@needs_compiled
def test_whole_files_give_the_same_terms_either_way(monkeypatch):
    # Every chunk of the fixture vault, and of a long file with many neighbours and repeated words.
    from conftest import FIXTURE_VAULT

    from memsearch.chunkers import chunk_file

    files = {p.relative_to(FIXTURE_VAULT).as_posix(): p.read_text() for p in FIXTURE_VAULT.rglob("*.md")}
    files["journal/long.md"] = "\n\n".join(
        f"## 2025-03-{1 + d % 28:02d}\n\nSigned sign_ed25519() with key {d}; signing keys rotated. "
        * (d % 3 + 1)
        for d in range(40)
    )
    shape = Settings()
    compiled, python = [], []
    for rel, text in sorted(files.items()):
        chunks = list(chunk_file(rel, text, shape).chunks)
        compiled.append(keyword_terms.file_keyword_terms(chunks, shape))
        with monkeypatch.context() as patch:
            patch.setattr(keyword_terms, "packed_terms", keyword_terms.packed_terms_py)
            patch.setattr(tok, "_count_terms", tok.count_terms_py)
            patch.setattr(tok, "_raw_token_counts", tok.raw_token_counts_py)
            python.append(keyword_terms.file_keyword_terms(chunks, shape))
    assert sum(map(len, compiled)) > 60
    for got_file, want_file in zip(compiled, python, strict=True):
        for got, want in zip(got_file, want_file, strict=True):
            _same(got, want)


@needs_compiled
def test_bad_input_raises_a_python_error_not_a_crash():
    from memsearch._speedups import count_terms, merge_terms

    with pytest.raises(TypeError):
        count_terms({"a": 1}, {"a": ["a"]}, tok._expansion)  # an expansion must be a tuple
    with pytest.raises(IndexError):
        merge_terms({}, [{}], 3, 2, 0.5, False)
    with pytest.raises(TypeError):
        merge_terms({}, [{"a": 1}, None], 0, 2, 0.5, False)


def _both_vocabularies(prose):
    from memsearch._speedups import vocabulary_words

    from memsearch import entities

    return vocabulary_words(prose), entities.vocabulary_words_py(prose)


@needs_compiled
def test_vocabulary_words_match_the_regexes_on_every_code_point():
    # The C scan reads letters, word characters, decimal digits, lower and upper case as Python's
    # re and str do: each code point in the places where those classes decide something.
    points = [chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
    for start in range(0, len(points), 4096):
        prose = "".join(
            f"w {c}{c}a, {c}Qb {c}x) Q{c}-z {c}9 a’{c} _{c}; Zz{c}' " for c in points[start : start + 4096]
        )
        got, want = _both_vocabularies(prose)
        assert got == want, start


@needs_compiled
@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("aZé ÉßİǅΣς9²_-',;)’.\n\tx")) | st.characters(), max_size=80))
def test_vocabulary_words_match_the_regexes(prose):
    got, want = _both_vocabularies(prose)
    assert got == want


@needs_compiled
def test_vocabulary_of_the_fixture_vault_is_the_same_either_way(monkeypatch):
    from conftest import FIXTURE_VAULT

    from memsearch import entities

    texts = [p.read_text() for p in sorted(FIXTURE_VAULT.rglob("*.md"))]
    compiled = [entities.vocabulary(t) for t in texts]
    monkeypatch.setattr(extract, "vocabulary_words", entities.vocabulary_words_py)
    assert compiled == [entities.vocabulary(t) for t in texts]
    assert sum(len(v.lower) + len(v.names) for v in compiled) > 300


SCANNED = [
    *"aZé9²_#@.-:/()'’,;)+ \n\tßİǅ",
    "()",
    "#x",
    "a.b",
    "-x",
    "x-",
    "Ab-Cd",
    "@@",
    "__",
    "++",
    "C#",
    "C++1",
]


@needs_compiled
def test_raw_token_counts_and_split_words_match_the_regexes_on_every_code_point():
    from memsearch._speedups import raw_token_counts, split_words

    points = [chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
    for start in range(0, len(points), 4096):
        text = "".join(
            f"#{c}a @{c} x.{c}y {c}() a-{c} {c}’s _{c}: {c}++1{c} x#{c} {c}# "
            for c in points[start : start + 4096]
        )
        assert raw_token_counts(text) == tok.raw_token_counts_py(text), start
        assert split_words(text) == extract.TOKEN_SPLIT_RE.split(text), start


@needs_compiled
@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(SCANNED) | st.characters(), max_size=60).map("".join))
def test_raw_token_counts_and_split_words_match_the_regexes(text):
    from memsearch._speedups import raw_token_counts, split_words

    got = raw_token_counts(text)
    assert list(got.items()) == list(tok.raw_token_counts_py(text).items())
    assert split_words(text) == extract.TOKEN_SPLIT_RE.split(text)


@needs_compiled
def test_entities_of_the_fixture_vault_are_the_same_either_way(monkeypatch):
    from conftest import FIXTURE_VAULT

    texts = [p.read_text() for p in sorted(FIXTURE_VAULT.rglob("*.md"))]
    compiled = [entities.extract_entities(t) for t in texts]
    monkeypatch.setattr(extract, "split_words", extract.TOKEN_SPLIT_RE.split)
    monkeypatch.setattr(extract, "vocabulary_words", entities.vocabulary_words_py)
    assert compiled == [entities.extract_entities(t) for t in texts]
    assert sum(map(len, compiled)) > 40


@needs_compiled
def test_both_twins_cut_raw_tokens_at_the_same_length():
    from memsearch import _speedups

    assert _speedups.MAX_TOKEN_CHARS == tok.MAX_TOKEN_CHARS
    cap = tok.MAX_TOKEN_CHARS
    texts = [
        "x" * 300_000,
        "#" + "t" * (cap + 5),
        "a." + "b" * cap + "()",
        "y" * (cap - 2) + "()",
        "z" * (cap - 1) + "() " + "z" * (cap - 1) + "(",
        ("w" * (cap + 1) + " ") * 3 + "w" * cap,
    ]
    for text in texts:
        got = _speedups.raw_token_counts(text)
        assert list(got.items()) == list(tok.raw_token_counts_py(text).items())
        assert all(len(raw) <= cap for raw in got)
    assert tok.term_counts("x" * 300_000) == {"x" * cap: 1}


LONG_RUNS = st.text(st.sampled_from("ab_.#()-"), min_size=60, max_size=140)


@needs_compiled
@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(SCANNED) | st.characters() | LONG_RUNS, max_size=12).map("".join))
def test_raw_token_counts_match_the_regexes_around_the_cut(text):
    from memsearch._speedups import raw_token_counts

    assert list(raw_token_counts(text).items()) == list(tok.raw_token_counts_py(text).items())


NGRAM_SAMPLES = [*"签名密钥東京のカ・ー々〆ภาษาไทย่ั", "\U00020000", "\u0e3f", "\u30fb", "\u309a", "서울"]


@needs_compiled
def test_raw_token_counts_cut_unspaced_runs_as_python_does_on_every_code_point():
    # Runs of one, two and three of each code point, beside word characters, tags and identifiers:
    # the C table of unspaced scripts (NGRAM_RANGES) must be the Python one, code point by code point.
    from memsearch._speedups import raw_token_counts

    points = [chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
    for start in range(0, len(points), 4096):
        text = "".join(f"{c} a{c}{c}b #{c}{c}{c} x_{c}() 東{c}: " for c in points[start : start + 4096])
        assert list(raw_token_counts(text).items()) == list(tok.raw_token_counts_py(text).items()), start


@needs_compiled
@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(SCANNED + NGRAM_SAMPLES) | st.characters(), max_size=60).map("".join))
def test_raw_token_counts_match_python_on_mixed_scripts(text):
    from memsearch._speedups import raw_token_counts

    assert list(raw_token_counts(text).items()) == list(tok.raw_token_counts_py(text).items())
    language = tok.text_language(text)
    expand = functools.partial(tok._expansion, language=language)
    assert tok.term_counts(text) == tok.count_terms_py(tok.raw_token_counts_py(text), {}, expand)
