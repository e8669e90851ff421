"""Which words of a query carry its information, and which are the question's scaffolding.

"What happened with the boiler", "tell me about Dana", "what do I remember of Lisbon": the words of
the question form (``happen``, ``tell``, ``remember``; ``什么``, ``いつ``, ``언제``) are no evidence of
*where* a memory lives, yet BM25 gives a rare one a high idf, so on its own it can win a keyword
hit ("happen" in a reference note). Each query term gets a weight: 1 for a content word,
:data:`SCAFFOLD_WEIGHT` for a word of the question form. The words are few and generic (the verbs
and nouns that frame a question to a memory, not any vault's vocabulary); everything else is
judged by the vault's own statistics (BM25's idf), and :func:`coverage` says how much of the
query's informative weight a hit holds.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

from memsearch.tokenize import COMPOUND, resolved_tokenize, tokenize

#: What a scaffolding term still counts for: enough to break ties between real matches, never
#: enough to make a hit by itself.
SCAFFOLD_WEIGHT = 0.1

#: The words that frame a question to one's memory: asking, remembering, happening, saying, and
#: the vague nouns of "anything about". Stemmed as the keyword index stems. Not "use": it is what
#: many questions ask ("the use of statins", "what does Caroline use to paint"); on this list it
#: cost SciFact nDCG@10 0.7256 -> 0.7223 and LoCoMo any@10 0.822 -> 0.820, and moved nothing on
#: either agent vault (eval/run.py, 2026-12-04).
SCAFFOLDING_WORDS = [
    "happen",
    "happened",
    "happening",
    "happens",
    "occur",
    "occurred",
    "tell",
    "told",
    "say",
    "said",
    "says",
    "mention",
    "mentioned",
    "talk",
    "talked",
    "remember",
    "remembered",
    "recall",
    "recalled",
    "forget",
    "forgot",
    "forgotten",
    "think",
    "thought",
    "know",
    "knew",
    "write",
    "wrote",
    "written",
    "note",
    "noted",
    "notes",
    "jot",
    "jotted",
    "thing",
    "things",
    "stuff",
    "anything",
    "something",
    "everything",
    "lot",
    "kind",
    "sort",
    "bit",
    "ever",
    "currently",
    "current",
    "moment",
    "nowadays",
    "recent",
    "recently",
    "latest",
    "decide",
    "decided",
    "doing",
    # The question words of Chinese, Japanese and Korean (what, when, where, how long, how, who)
    # and Japanese polite endings: unspaced, they are bigrams of the question like any other.
    "什么",
    "时候",
    "多久",
    "哪里",
    "哪儿",
    "怎么",
    "いつ",
    "どこ",
    "なに",
    "ですか",
    "ました",
    "어디서",
    "언제",
    "뭐",
    "무엇",
    "누구",
]

_SCAFFOLD_TERMS = frozenset(t for word in SCAFFOLDING_WORDS for t in tokenize(word))
#: "What was going on in August", "what went on at the club": the question's form, as "happening"
#: is (a word at a time, "go" is what many questions ask: "where did we go").
_GOING_ON = re.compile(
    r"\b(?:go(?:es|ing)?|went)\s+on\b(?!\s+(?:a|an|the|my|our|his|her|their)\b)", re.IGNORECASE
)


def is_scaffolding(term: str) -> bool:
    return term in _SCAFFOLD_TERMS


class Gloss(str):
    """What a name the query writes stands for (or the vault's other names for it), searched as
    keywords beside it; ``written`` is the name as the query writes it (``王磊`` for the gloss
    ``wang lei``). The two are one word of the question in two spellings."""

    written: str

    def __new__(cls, text: str, written: str) -> Gloss:
        gloss = super().__new__(cls, text)
        gloss.written = written
        return gloss

    # str's stub fixes __getnewargs__ to one argument; a Gloss is made again from two.
    def __getnewargs__(self) -> tuple[str, str]:  # type: ignore[override]  # copied and pickled whole
        return str(self), self.written


class TermWeights(dict[str, float]):
    """A query's term -> weight map (:func:`term_weights`), and which of its terms are other
    spellings of one word: each pair of ``alternatives`` is the terms of a name the query writes
    and the terms of its gloss. A word is missing from the vault only if it is missing in every
    spelling (:meth:`memsearch.index.keyword.KeywordIndex.query_weight`)."""

    def __init__(self) -> None:
        super().__init__()
        self.alternatives: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
        self.glossed: dict[str, float] = {}  # the weight each term took from glosses

    def written(self) -> dict[str, float]:
        """The weights of the query's own words, without what its glosses added."""
        return {
            term: weight - self.glossed.get(term, 0.0)
            for term, weight in self.items()
            if weight - self.glossed.get(term, 0.0) > 1e-9
        }


class Vocabulary(Protocol):
    """What an index says of its terms: whether any chunk holds one, and any chunk of a language."""

    def holds(self, term: str) -> bool: ...

    def held_in(self, term: str, language: str) -> bool: ...

    def spellings(self, term: str) -> Sequence[str]: ...


def term_weights(text: str, glosses: Iterable[str] = (), vocabulary: Vocabulary | None = None) -> TermWeights:
    """The query's keyword terms, each with its weight (a repeated term counts again).

    Each gloss (what an alias of the query stands for) adds its terms sharing the weight of one
    word: the alias was one word of the question, its expansion must not outweigh the rest.
    With the index's ``vocabulary``, a word no chunk holds as the query's language stems it
    takes its stem in the language of the notes that hold it
    (:func:`memsearch.tokenize.resolved_tokenize`). A :class:`Gloss` that says which name of the
    query it glosses makes the two ``alternatives`` of one word.
    """

    def terms_of(words: str) -> list[str]:
        if vocabulary is None:
            return tokenize(words)
        return resolved_tokenize(words, vocabulary.holds, vocabulary.held_in, vocabulary.spellings)

    weights = TermWeights()
    for term in terms_of(_GOING_ON.sub(" ", text)):
        weights[term] = weights.get(term, 0.0) + (SCAFFOLD_WEIGHT if term in _SCAFFOLD_TERMS else 1.0)
    for gloss in glosses:
        terms = [t for t in tokenize(gloss) if t not in _SCAFFOLD_TERMS]
        for term in terms:
            weights[term] = weights.get(term, 0.0) + 1.0 / len(terms)
            weights.glossed[term] = weights.glossed.get(term, 0.0) + 1.0 / len(terms)
        if isinstance(gloss, Gloss) and terms:
            written = tuple(t for t in dict.fromkeys(terms_of(gloss.written)) if t in weights)
            if written:
                weights.alternatives.append((written, tuple(dict.fromkeys(terms))))
    return weights


def without_names(weights: Mapping[str, float], names: Iterable[str]) -> dict[str, float]:
    """The query's term weights without the terms of the entity names it writes: what it asks
    *about* the entities it names ("the rules for the rider at the back" of "the Harbour Loop").

    Empty when the query is all names or names nothing (then there is nothing to tell apart).
    """
    named = {term for name in names for term in tokenize(name)}
    rest = {term: w for term, w in weights.items() if term not in named}
    return rest if named and len(rest) < len(weights) else {}


#: What joins the parts of a code ("PO-7781", "tally:2025.07.1", "SRV/0913/OR").
_JOINERS = frozenset(".-:/@")
#: A code written without joiners is at least this long (a short commit hash, "a4c91e7").
CODE_LENGTH = 6
#: An ordinal or a measure ("3rd", "29th", "10C", "55km"): digits and letters, but a quantity, not
#: the name of one thing.
_QUANTITY = re.compile(r"\d+[^\W\d_]+")


def identifiers(text: str) -> list[str]:
    """The identifiers a query writes, as written: codes that name one thing ("PO-7781",
    "E_SCHED_OVERLAP", "sign_ed25519()", commit "a4c91e7", "hw/valves_v2.pdf"): a word with an
    inner underscore or a call's brackets; or one mixing letters and digits that is no ordinal or
    measure ("3rd", "10C") and is joined by identifier punctuation or runs to :data:`CODE_LENGTH`
    characters. A short model or product name ("ESP32", "B12", "MP3") is what notes are about, not
    the name of one record; plain words and numbers are not codes either: "order", "2024", "x-ray"."""
    found = []
    for match in COMPOUND.finditer(text):
        word = match.group(0)
        has_digit = any(ch.isdigit() for ch in word)
        has_letter = any(ch.isalpha() for ch in word)
        coded = ("_" in word and has_letter) or word.endswith("()")
        joined = len(word) >= CODE_LENGTH or any(ch in _JOINERS for ch in word)
        if coded or (has_digit and has_letter and joined and not _QUANTITY.fullmatch(word)):
            found.append(word)
    return list(dict.fromkeys(found))


def informative(weights: Mapping[str, float]) -> bool:
    """Whether the query holds at least one content term (not only its question form)."""
    return any(w >= 1.0 for w in weights.values())


#: "When did the boiler break", "when was I switched on": the question asks for a dated event,
#: which lives in an entry (a journal day, a ledger line, a dated section), not in settled notes.
_EVENT_QUESTION = re.compile(
    r"\b(?:when|what day|what date|which day|how long ago)\s+(?:did|was|were|had|have)\b", re.IGNORECASE
)


def asks_for_event(text: str) -> bool:
    """Whether the question asks when something happened."""
    return _EVENT_QUESTION.search(text) is not None


#: "What's the phone number now", "who is my GP", "which wholesaler do we use", "which text editor
#: do I use", "what thyroid dose am I on": the question asks for the present state of something,
#: which a newer memory states if memories disagree.
_CURRENT_QUESTION = re.compile(
    r"^\s*(?:(?:what|who|which|where|how\s+\w+|when)(?:'s|\s+(?:is|are|am|do|does)\b)"
    r"|(?:is|are|do|does)\b"
    r"|(?:what|which)\s+(?:[\w'-]+\s+){1,3}?(?:do|does|am|is|are)\s+(?:i|we|you|he|she|they|it)\b)"
    r"|\b(?:now|these days|nowadays|currently|at the moment|at present|still)\b",
    re.IGNORECASE,
)
#: "used to", "before", "originally", "in 2023", "back when": the question asks about the past.
_PAST_QUESTION = re.compile(
    r"\b(?:used to|before|originally|at first|back (?:when|then|in)|previous(?:ly)?|former(?:ly)?"
    r"|old|earlier|in (?:19|20)\d\d|last year|ago)\b",
    re.IGNORECASE,
)


#: "Should I", "am I allowed to", "is it OK for me to", "what do I value", "who am I": the question is
#: about the agent's own conduct or self, which its system/ and covenant territories hold.
_SELF_QUESTION = re.compile(
    # "may I see/have ..." asks politely for something; "may I share ..." whether it is right
    r"\b(?:should (?:i|we)|am i (?:allowed|meant|supposed|permitted)"
    r"|may i(?! (?:see|have|get|look|read|check|ask|know|open|find|view)\b)|ought i"
    r"|is it (?:ok|okay|right|fine) (?:for me )?to|what do i (?:value|believe|stand for)|who am i)\b",
    re.IGNORECASE,
)


def asks_about_self(text: str) -> bool:
    """Whether the question asks about the agent's own conduct or self ("how should I talk to Tobi",
    "am I allowed to make jokes")."""
    return _SELF_QUESTION.search(text) is not None


def asks_for_current(text: str) -> bool:
    """Whether the question asks how things are now (not about an event or the past)."""
    return _CURRENT_QUESTION.search(text) is not None and _PAST_QUESTION.search(text) is None
