"""The keyword tokenizer: identifiers stay whole *and* match by their parts.

``sign_ed25519()`` yields ``sign_ed25519`` (exact jargon) plus ``sign`` and ``ed25519``
(so a query for "ed25519 signing" still reaches it). ``#tag`` yields ``#tag`` and ``tag``;
``foo.bar`` yields ``foo.bar``, ``foo`` and ``bar``; ``signingKey`` yields ``signingkey``,
``signing`` and ``key``. Plain words are lowercased, stopwords dropped and Snowball-stemmed
(English), which is what BEIR's strong BM25 baselines do.
"""

from __future__ import annotations

import re
from collections import _count_elements  # type: ignore[attr-defined]
from collections.abc import Callable
from functools import lru_cache

import snowballstemmer

from memsearch import speedups

# A compound token: word characters joined by identifier punctuation (_ . - : / @ #), optional
# leading '#' or '@', optional trailing "()" of a call.
_TOKEN = re.compile(r"[#@]?\w+(?:[._\-:/@]\w+)*(?:\(\))?", re.UNICODE)
_PARTS = re.compile(r"[^\W_]+", re.UNICODE)
#: A raw token keeps at most this many characters (a sha256 in hex fits): one unbroken 300,000-
#: character line once made every term of the index as wide as itself in ``keyword.npz`` (30 GiB).
#: Queries are cut the same way, so a long token still meets its own prefix.
MAX_TOKEN_CHARS = 64
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")

#: Short English stopword list (Lucene's plus question words): they carry no "where" signal.
STOPWORDS = frozenset(
    """
    a an and are as at be but by for if in into is it no not of on or such that the their then there
    these they this to was will with i me my we our you your he him his she her its them what which
    who whom when where why how do does did done have has had am been being were would could should
    can may might must shall so than too very just about from up down out over under again further
    once here all any both each few more most other some own same only s t don also yes yeah oh ok
    okay hey hi really like get got
    """.split()  # noqa: SIM905
)

# With PyStemmer installed (a dependency) this is Snowball's C stemmer, else the pure-Python one: the
# same algorithm and the same stems (tests/test_tokenize.py compares them), so an index built with
# either is read by the other.
_stemmer = snowballstemmer.stemmer("english")


@lru_cache(maxsize=200_000)
def _stem(word: str) -> str:
    return _stemmer.stemWord(word)


#: Each raw token's terms, kept as a plain dict (a hit costs a third of an ``lru_cache`` hit, and
#: chunking looks up every distinct token of every chunk); emptied when it reaches the bound.
_EXPANSIONS: dict[str, tuple[str, ...]] = {}
_MAX_EXPANSIONS = 200_000


def _expand(raw: str) -> tuple[str, ...]:
    """All terms one raw token contributes, whole form first."""
    got = _EXPANSIONS.get(raw)
    if got is None:
        if len(_EXPANSIONS) >= _MAX_EXPANSIONS:
            _EXPANSIONS.clear()
        got = _EXPANSIONS[raw] = _expansion(raw)
    return got


def _expansion(raw: str) -> tuple[str, ...]:
    word = raw[:-2] if raw.endswith("()") else raw
    lower = word.lower()
    parts = _PARTS.findall(word)
    simple = len(parts) == 1 and parts[0] == word
    if simple:
        camel = _CAMEL.findall(word)
        if len(camel) > 1 and not word.isupper():
            whole = lower
            return (whole, *(_stem(p.lower()) for p in camel if p.lower() not in STOPWORDS))
        if lower in STOPWORDS:
            return ()
        return (_stem(lower),)
    terms = [lower]
    if lower.startswith(("#", "@")) and len(parts) == 1:
        terms.append(_stem(parts[0].lower()))
        return tuple(terms)
    for part in parts:
        p = part.lower()
        if p not in STOPWORDS:
            terms.append(_stem(p))
    return tuple(dict.fromkeys(terms))


def tokenize(text: str) -> list[str]:
    """Terms for BM25, in order of appearance (repeats kept: they are term frequency)."""
    out: list[str] = []
    extend = out.extend
    for raw in _TOKEN.findall(text):  # no groups in the pattern: whole matches, no Match objects
        extend(_expand(raw[:MAX_TOKEN_CHARS]))
    return out


def term_counts(text: str) -> dict[str, int]:
    """``Counter(tokenize(text))`` as a plain dict: the same counts in the same order, from each
    distinct raw token once (a chunk repeats its words: this is twice as fast as expanding each)."""
    return _count_terms(_raw_token_counts(text), _EXPANSIONS, _expand)


def raw_token_counts_py(text: str) -> dict[str, int]:
    """``Counter(_TOKEN.findall(text))`` as a plain dict, each token cut to :data:`MAX_TOKEN_CHARS`:
    the reference for ``memsearch._speedups.raw_token_counts``."""
    raws: dict[str, int] = {}
    found = _TOKEN.findall(text)
    if any(len(raw) > MAX_TOKEN_CHARS for raw in found):
        found = [raw[:MAX_TOKEN_CHARS] for raw in found]
    _count_elements(raws, found)  # Counter's C core, without Counter's Python layers
    return raws


def count_terms_py(
    raws: dict[str, int], expansions: dict[str, tuple[str, ...]], expand: Callable[[str], tuple[str, ...]]
) -> dict[str, int]:
    """Each raw token's terms, counted: the reference for ``memsearch._speedups.count_terms``."""
    counts: dict[str, int] = {}
    get = counts.get
    for raw, n in raws.items():
        terms = expansions.get(raw)
        if terms is None:
            terms = expand(raw)
        for term in terms:
            counts[term] = get(term, 0) + n
    return counts


# The compiled twins (memsearch/_speedups.c) where memsearch.speedups says they run.
_count_terms = speedups.pick("count_terms", count_terms_py)
_raw_token_counts = speedups.pick("raw_token_counts", raw_token_counts_py)
