"""The keyword tokenizer: identifiers stay whole *and* match by their parts.

``sign_ed25519()`` yields ``sign_ed25519`` (exact jargon) plus ``sign`` and ``ed25519``
(so a query for "ed25519 signing" still reaches it). ``#tag`` yields ``#tag`` and ``tag``;
``foo.bar`` yields ``foo.bar``, ``foo`` and ``bar``; ``signingKey`` yields ``signingkey``,
``signing`` and ``key``. Plain words are lowercased, stopwords dropped and Snowball-stemmed, which
is what BEIR's strong BM25 baselines do: in the language of their text (German, Spanish, French,
Italian, Portuguese, Dutch, told by its function words: :mod:`memsearch.languages`), else English;
Cyrillic and Greek words by their script.

Scripts written without spaces between words (Chinese, Japanese, Thai: :data:`NGRAM_RANGES`) are
cut into overlapping character bigrams (a run of one character is itself a term), for documents
and queries alike, so any query of two or more characters of a run meets it wherever a word
boundary falls; an identifier inside such prose (``用sign_ed25519()签名``) still stays whole.
Korean, which puts spaces between words, keeps its words with a trailing particle stripped
(``회의를`` is ``회의``), and a word of three or more syllables is cut into bigrams (compounds).
Text with none of these characters is tokenized exactly as before (tests/test_tokenize.py holds
an English corpus to the terms captured before this segmentation).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter, _count_elements  # type: ignore[attr-defined]
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache, partial

import snowballstemmer

from memsearch import languages, speedups
from memsearch.languages import DEFAULT as DEFAULT_LANGUAGE
from memsearch.languages import LANGUAGES
from memsearch.scripts import WRITTEN_IN_SHARE, script_counts, script_of, script_shares

# A compound token: word characters joined by identifier punctuation (_ . - : / @ #), optional
# leading '#' or '@', and an optional ending: the "()" of a call, or the signs of a language's
# name ("C++", "C++17", "C#"; a '#' followed by a word is that word's hashtag).
_ENDING = r"(?:\(\)|\+\+[0-9]*|#(?!\w))?"
_TOKEN = re.compile(rf"[#@]?\w+(?:[._\-:/@]\w+)*{_ENDING}", re.UNICODE)

#: The code points of scripts written without spaces, as inclusive ranges: each run of them is cut
#: into character bigrams. Their punctuation (、。「」・) stays out; Thai's vowel signs and tone
#: marks (not \w) stay in, so a Thai word is one run. memsearch/_speedups.c holds the same table.
NGRAM_RANGES: tuple[tuple[int, int], ...] = (
    (0x0E01, 0x0E3A),  # Thai letters and vowel signs
    (0x0E40, 0x0E4E),  # Thai leading vowels, tone marks
    (0x0E50, 0x0E59),  # Thai digits
    (0x3005, 0x3007),  # 々 〆 〇
    (0x3021, 0x3029),  # Hangzhou numerals
    (0x3041, 0x3096),  # Hiragana
    (0x3099, 0x309F),  # kana voicing marks, ゝ ゞ ゟ
    (0x30A1, 0x30FA),  # Katakana (not ・ U+30FB, the separator of names)
    (0x30FC, 0x30FF),  # ー ヽ ヾ ヿ
    (0x31F0, 0x31FF),  # Katakana phonetic extensions
    (0x3400, 0x4DBF),  # CJK extension A
    (0x4E00, 0x9FFF),  # CJK unified ideographs
    (0xF900, 0xFAFF),  # CJK compatibility ideographs
    (0xFF66, 0xFF9F),  # halfwidth Katakana
    (0x20000, 0x323AF),  # CJK extensions B to H, compatibility supplement
)
_NGRAM_CLASS = "".join(f"\\U{lo:08x}-\\U{hi:08x}" for lo, hi in NGRAM_RANGES)
_NGRAM_CHAR = re.compile(f"[{_NGRAM_CLASS}]")
# Where the text holds such a run: the compound token of word characters that are not n-gram
# characters (an identifier ends where the prose around it begins), or a run of n-gram characters.
_WORD = f"[^\\W{_NGRAM_CLASS}]"
#: A compound word as written, outside unspaced script: word characters joined by identifier
#: punctuation, an optional ending ("sign_ed25519()" in "用sign_ed25519()签名", "C++").
COMPOUND = re.compile(f"{_WORD}+(?:[._\\-:/@]{_WORD}+)*{_ENDING}")
_SCRIPT_TOKEN = re.compile(f"[#@]?{COMPOUND.pattern}|[{_NGRAM_CLASS}]+")

#: Hangul syllables and jamo: Korean words, whose trailing particles are stripped.
_HANGUL = re.compile("[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]")
_HANGUL_WORD = re.compile("[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]+")
#: Korean case and topic particles, longest first. A one-syllable particle is stripped only from a
#: word of three or more syllables (회의 "meeting" keeps its 의), a longer one from any longer word.
KOREAN_PARTICLES = (
    "에서는", "에게서", "으로는", "에서도", "까지는", "부터는",
    "에서", "에게", "한테", "까지", "부터", "으로", "처럼", "보다", "이나", "이랑", "하고", "과는", "와는",
    "은", "는", "이", "가", "을", "를", "의", "에", "도", "로", "와", "과", "만", "랑",
)  # fmt: skip
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

# With PyStemmer installed (a dependency) these are Snowball's C stemmers, else the pure-Python ones:
# the same algorithm and the same stems (tests/test_tokenize.py compares them), so an index built
# with either is read by the other. A text's words take its language's stemmer
# (:mod:`memsearch.languages` tells it by the text's function words; English when they do not say).
_STEMMERS = {name: snowballstemmer.stemmer(name) for name in LANGUAGES}

#: A word written wholly in one of these scripts is stemmed by the language that writes most text in
#: it (Cyrillic: Russian; Greek): its inflections (холодильники, холодильник) then meet as one term.
#: A word that mixes in Latin letters or digits (pparα, 16α, an identifier) is no word of that
#: language. A Latin-script word takes the stemmer of its text's language.
_SCRIPT_STEMMERS = {"Cyrillic": snowballstemmer.stemmer("russian"), "Greek": snowballstemmer.stemmer("greek")}


@lru_cache(maxsize=200_000)
def _stem(word: str, language: str) -> str:
    if not word.isascii():
        # Digits count as a script of their own ("other"); combining accents (U+0301) as none.
        scripts = {script_of(ch) for ch in word if ch.isalnum()}
        if len(scripts) == 1:
            stemmer = _SCRIPT_STEMMERS.get(scripts.pop())
            if stemmer is not None:
                return stemmer.stemWord(word)
    return _STEMMERS[language].stemWord(word)


#: Each raw token's terms by language, kept as plain dicts (a hit costs a third of an ``lru_cache``
#: hit, and chunking looks up every distinct token of every chunk); each emptied at the bound.
_EXPANSIONS: dict[str, dict[str, tuple[str, ...]]] = {name: {} for name in LANGUAGES}
_MAX_EXPANSIONS = 200_000


def _expand(raw: str, language: str = DEFAULT_LANGUAGE) -> tuple[str, ...]:
    """All terms one raw token contributes in a text of ``language``, whole form first."""
    cache = _EXPANSIONS[language]
    got = cache.get(raw)
    if got is None:
        if len(cache) >= _MAX_EXPANSIONS:
            cache.clear()
        got = cache[raw] = _expansion(raw, language)
    return got


#: ``_expand`` for each language, as the compiled ``count_terms`` calls it (one argument).
_EXPANDERS: dict[str, Callable[[str], tuple[str, ...]]] = {
    name: partial(_expand, language=name) for name in LANGUAGES
}


def _expansion(raw: str, language: str) -> tuple[str, ...]:
    if raw.isascii():  # str.isascii is a flag check: English pays no regex here
        return _spaced_expansion(raw, language)
    if _NGRAM_CHAR.match(raw) is not None:
        return (raw,)  # a bigram (or a lone character) of unspaced script: a term as it is
    if _HANGUL.search(raw) is not None:
        return _korean_expansion(raw, language)
    return _spaced_expansion(raw, language)


def is_unspaced_character(term: str) -> bool:
    """Whether ``term`` is one character of a script written without spaces (``猫``, ``駅``): the
    index holds such a character only inside its bigrams, unless a run was that one character."""
    return len(term) == 1 and _NGRAM_CHAR.match(term) is not None


def is_character_bigram(term: str) -> bool:
    """Whether ``term`` is two characters of unspaced script (``签名``, ``東京``) or two Hangul
    syllables (``예산``; a longer Korean word is cut into such bigrams): terms that may be cut across
    a word's boundary."""
    return len(term) == 2 and all(_NGRAM_CHAR.match(ch) or _HANGUL.match(ch) for ch in term)


#: Hiragana: in text that mixes it with kanji or katakana, the script of Japanese grammar (particles
#: の は に, verb endings), while the content is written in the other two.
_HIRAGANA = re.compile("[\u3041-\u3096\u309d\u309e]")


def is_hiragana(ch: str) -> bool:
    return _HIRAGANA.match(ch) is not None


def strip_korean_particle(word: str) -> str:
    """``word`` without one trailing Korean particle (``사무실에서`` -> ``사무실``)."""
    for particle in KOREAN_PARTICLES:
        if word.endswith(particle):
            stem = word[: -len(particle)]
            if (len(particle) > 1 and stem) or len(stem) >= 2:
                return stem
            return word
    return word


def _korean_expansion(raw: str, language: str) -> tuple[str, ...]:
    word = strip_korean_particle(raw)
    if _HANGUL.search(word) is None:
        return _spaced_expansion(word, language)  # an identifier or English word with a particle: "API를"
    if _HANGUL_WORD.fullmatch(word) is None:
        return _spaced_expansion(word, language)  # Hangul mixed with Latin or digits: as a spaced word
    if len(word) < 3:
        return (word,)
    # A long word is often a compound written without a space (예산회의록): as its bigrams, like
    # an unspaced run, it meets each of its parts, and a query of the whole word meets it too.
    return tuple(dict.fromkeys(word[i : i + 2] for i in range(len(word) - 1)))


def _spaced_expansion(raw: str, language: str) -> tuple[str, ...]:
    word = raw[:-2] if raw.endswith("()") else raw
    lower = word.lower()
    parts = _PARTS.findall(word)
    simple = len(parts) == 1 and parts[0] == word
    if simple:
        # camelCase is an identifier's, and its pattern knows only ASCII letters: in "Fahrräder"
        # or "réunion" it would cut the word at its accented letter ("fahrr", "der"; "r", "union").
        camel = _CAMEL.findall(word) if word.isascii() else ()
        if len(camel) > 1 and not word.isupper():
            whole = lower
            return (whole, *(_stem(p.lower(), language) for p in camel if p.lower() not in STOPWORDS))
        if lower in STOPWORDS:
            return ()
        return (_stem(lower, language),)
    terms = [lower]
    if "++" in lower and not lower.endswith("++"):  # "C++17" is C++ too
        terms.append(lower[: lower.index("++") + 2])
    if lower.startswith(("#", "@")) and len(parts) == 1:
        terms.append(_stem(parts[0].lower(), language))
        return tuple(terms)
    for part in parts:
        p = part.lower()
        if p not in STOPWORDS:
            terms.append(_stem(p, language))
    return tuple(dict.fromkeys(terms))


def tokenize(text: str, language: str | None = None) -> list[str]:
    """Terms for BM25, in order of appearance (repeats kept: they are term frequency); Latin-script
    words stemmed as ``language``, by default the language the text's own function words name."""
    raws = raw_tokens(text)
    if language is None:
        language = languages.decide(languages.tally_tokens(raws)) or DEFAULT_LANGUAGE
    out: list[str] = []
    extend = out.extend
    for raw in raws:
        extend(_expand(raw[:MAX_TOKEN_CHARS], language))
    return out


def text_language(text: str) -> str:
    """The language ``text``'s function words name (:mod:`memsearch.languages`), else English."""
    return languages.decide(languages.tally_tokens(raw_tokens(text))) or DEFAULT_LANGUAGE


def language_of(text: str, max_chars: int = 300) -> str:
    """What ``text`` is written in, read from its opening: a script other than Latin that holds
    :data:`~memsearch.scripts.WRITTEN_IN_SHARE` of its letters or more ("Chinese characters",
    "Cyrillic"), else the language its function words name, English when they name none (a short
    note that says too little is taken as English)."""
    shares = script_shares([text], max_chars)
    others = [(share, name) for name, share in shares.items() if name not in ("Latin", "other")]
    if others and max(others)[0] >= WRITTEN_IN_SHARE:
        return max(others)[1]
    return text_language(text[:max_chars])


def language_shares(texts: Iterable[str], max_chars: int = 2_000_000) -> dict[str, float]:
    """Each language's share of the letters of ``texts`` (read up to ``max_chars`` in all), largest
    first: letters outside the Latin script count for their script, Latin letters for the language
    their text's function words name (English when they name none); {} without letters."""
    counts: Counter[str] = Counter()
    budget = max_chars
    for text in texts:
        piece = text[:budget]
        budget -= len(piece)
        letters = script_counts(piece)
        latin = letters.pop("Latin", 0)
        counts.update(letters)
        if latin:
            counts[text_language(piece)] += latin
        if budget <= 0:
            break
    total = sum(counts.values())
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return {name: n / total for name, n in ranked} if total else {}


#: Letters accents are folded from: Latin up to IPA. (Folding elsewhere would change words: the
#: voicing mark of kana, が -> か, is a combining mark too.)
_FOLDABLE_BELOW = 0x250


def fold_accents(term: str) -> str:
    """``term`` without the accents of its Latin letters ("vänern" -> "vanern", "café" -> "cafe");
    a term with a letter of another script is returned as it is."""
    if term.isascii() or any(ord(ch) >= _FOLDABLE_BELOW for ch in term):
        return term
    bare = "".join(ch for ch in unicodedata.normalize("NFD", term) if not unicodedata.combining(ch))
    return unicodedata.normalize("NFC", bare)


#: The names of the Greek letters, as a symbol among Latin letters or digits is spelled out
#: ("NF-κB" and "NF-kappaB", "TNF-α" and "TNF-alpha", "β1").
_GREEK_NAMES = {
    **{chr(c): unicodedata.name(chr(c)).rsplit(" ", 1)[-1].lower() for c in range(0x3B1, 0x3CA)},
    "λ": "lambda",  # Unicode writes it LAMDA
}
_GREEK_LETTER = re.compile("[α-ω]")
_LATIN_OR_DIGIT = re.compile("[0-9a-z]")


def fold_spelling(term: str) -> str:
    """``term`` as its other spellings fold to it: without the accents of its Latin letters
    (:func:`fold_accents`), without hyphens, and a Greek letter used as a symbol spelled out
    ("vänern" -> "vanern", "wi-fi" -> "wifi", "po-7781" -> "po7781", "nf-κb" -> "nfkappab"). A word
    written wholly in Greek is Greek, not symbols: it keeps its letters."""
    if _GREEK_LETTER.search(term) and (len(term) == 1 or _LATIN_OR_DIGIT.search(term)):
        term = _GREEK_LETTER.sub(lambda m: _GREEK_NAMES[m.group(0)], term)
    return fold_accents(term).replace("-", "")


def resolved_tokenize(
    text: str,
    held: Callable[[str], bool],
    held_in: Callable[[str, str], bool],
    spellings: Callable[[str], Sequence[str]] | None = None,
) -> list[str]:
    """:func:`tokenize` for a query, where a word the index holds in none of its terms takes its
    terms in another language, if a chunk written in that language holds them: ``held(term)``
    says whether any chunk holds a term, ``held_in(term, language)`` whether a chunk of that
    language does.

    A query is often too short to say its language ("Wohnungen in Kreuzberg"), while the notes it
    looks for were stemmed as theirs (``wohnung``). A word the index holds as the query's own
    language stems it keeps that stem, so a query over an English vault is tokenized exactly as
    :func:`tokenize` does it; a foreign stem that only English chunks hold by chance (German
    ``routers`` is ``rout``) is no match.

    A word held in no language's terms takes the vault's spellings of it with other accents or
    hyphens (``spellings(term)``: "vanern" for a vault that writes "Vänern", "wi-fi" for one that
    writes "Wi-Fi", and the other way round). A hyphenated word whose whole form no chunk holds
    takes the spellings of that form and of each part no chunk holds in their places, beside its
    held parts: "follow-up" is "followup" too, where "follow" alone is held; "NF-κB" is "NF-kappaB".
    """
    raws = raw_tokens(text)
    own = languages.decide(languages.tally_tokens(raws)) or DEFAULT_LANGUAGE
    out: list[str] = []
    for raw in raws:
        raw = raw[:MAX_TOKEN_CHARS]
        terms: Sequence[str] = _expand(raw, own)
        if terms and not any(held(t) for t in terms):
            for language in LANGUAGES:
                other = _expand(raw, language)
                if other != terms and any(held(t) and held_in(t, language) for t in other):
                    terms = other
                    break
            else:
                respelled = [spelling for t in terms for spelling in spellings(t)] if spellings else []
                terms = respelled or terms
        elif spellings and "-" in raw and terms and not held(terms[0]):
            terms = [s for t in terms for s in ((t,) if held(t) else spellings(t) or (t,))]
        out.extend(terms)
    return out


def raw_tokens(text: str) -> list[str]:
    """The raw tokens of ``text`` in order (not yet cut to :data:`MAX_TOKEN_CHARS`): the compound
    tokens of :data:`_TOKEN`, and each run of unspaced script as its character bigrams."""
    if text.isascii() or _NGRAM_CHAR.search(text) is None:
        return _TOKEN.findall(text)  # no groups in the pattern: whole matches, no Match objects
    out: list[str] = []
    for raw in _SCRIPT_TOKEN.findall(text):
        if _NGRAM_CHAR.match(raw) is None or len(raw) == 1:
            out.append(raw)
        else:
            out.extend(raw[i : i + 2] for i in range(len(raw) - 1))
    return out


def term_counts(text: str, language: str | None = None) -> dict[str, int]:
    """``Counter(tokenize(text, language))`` as a plain dict: the same counts in the same order, from
    each distinct raw token once (a chunk repeats its words: this is twice as fast as expanding each)."""
    raws = _raw_token_counts(text)
    if language is None:
        language = languages.decide(languages.tally(raws)) or DEFAULT_LANGUAGE
    return _count_terms(raws, _EXPANSIONS[language], _EXPANDERS[language])


def file_term_counts(texts: Sequence[str]) -> tuple[list[dict[str, int]], list[str]]:
    """Each text's term counts and language, for the chunks of one file: a chunk whose own words do
    not say its language (a short list item, a heading) takes the language of all of them together,
    else English."""
    raws = [_raw_token_counts(text) for text in texts]
    tallies = [languages.tally(r) for r in raws]
    found = [languages.decide(t) for t in tallies]
    if None in found:
        whole = languages.decide(languages.combined(tallies)) or DEFAULT_LANGUAGE
        found = [language or whole for language in found]
    chosen = [language or DEFAULT_LANGUAGE for language in found]
    counts = [
        _count_terms(r, _EXPANSIONS[lang], _EXPANDERS[lang]) for r, lang in zip(raws, chosen, strict=True)
    ]
    return counts, chosen


def raw_token_counts_py(text: str) -> dict[str, int]:
    """``Counter(raw_tokens(text))`` as a plain dict, each token cut to :data:`MAX_TOKEN_CHARS`:
    the reference for ``memsearch._speedups.raw_token_counts``."""
    raws: dict[str, int] = {}
    found = raw_tokens(text)
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
