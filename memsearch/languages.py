"""Which Latin-script language a text is written in, told by its function words: no model, no network.

Snowball stems German, Spanish, French, Italian, Portuguese and Dutch as well as English, but a word's
letters cannot say which of them it belongs to (``presentamos``, ``Wohnungen``); the little words
around it can. Each language has a set of :data:`MARKERS`: frequent function words that are not
also common words of English or of the other languages here (``die`` but not ``in``; ``los`` but not
``de``). A text's language is the one whose markers it uses most, when it uses at least
:data:`MIN_MARKERS` of them and at least twice as many as of English's; otherwise the text does not
say (:func:`decide` returns None) and the caller falls back (a chunk to its file, the file to
English). English stays the default: a text with no markers of another language is English.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

DEFAULT = "english"


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: Each language's markers, lowercase. Left out on purpose: words shared by two of these languages
#: (de, la, en, que, un, a, e, se, es, per) and words that are also English (was, an, am, um, war,
#: son, al, er, hat, van, dove, do, y): a word of English prose or code must not vote.
MARKERS: dict[str, frozenset[str]] = {
    "english": _words(
        "the and of to that with for it on you this have are not be at we they he she had has were"
        " been will would from but or which there their what when my our"
    ),
    "german": _words(
        "der die das und ist nicht ein eine einen einem einer dem den zu auf für sich auch wir"
        " ich haben wird sind wann wie noch nach bei aus oder aber schon wurde werden kein keine"
        " dass sehr heute gestern diese dieser unser unsere habe hatte vom zum zur im ihr uns"
    ),
    "spanish": _words(
        "el los las del una por para pero muy cuando también nosotros hay está están fue lo más"
        " como ya hemos tenemos porque sobre entre desde hasta donde qué cómo cuándo ayer hoy"
        " mañana nuestro nuestra"
    ),
    "french": _words(
        "le les des du et est une qui dans pour pas ne sur au avec ce il elle nous vous je été était"
        " sont avons cette aux leur très aussi chez hier aujourd"
    ),
    "italian": _words(
        "gli della delle degli dei è ho abbiamo che questo questa anche molto perché ieri oggi"
        " nel nella alla sul sulla dalla hanno essere"
    ),
    "portuguese": _words(
        "os da em não uma foi são com também você nós muito ontem hoje amanhã isso esse essa ao pelo pela já"
    ),
    "dutch": _words(
        "het een ik dat niet op zijn voor maar wij ook naar bij wat hebben heb heeft werd wordt"
        " deze dit jullie gisteren vandaag"
    ),
}
LANGUAGES: tuple[str, ...] = tuple(MARKERS)

#: Fewest marker words that name a text's language: one or two is a name or a quotation.
MIN_MARKERS = 3


def _marker_table() -> dict[str, str]:
    table: dict[str, str] = {}
    for language, words in MARKERS.items():
        for word in words:
            if word in table:  # a word in two lists would say two languages: it says none
                raise AssertionError(f"marker {word!r} is in both {table[word]} and {language}")
            table[word] = table[word.capitalize()] = language
    return table


#: Marker word (as written, lowercase or capitalised at a sentence's start) -> its language.
MARKER_LANGUAGE: dict[str, str] = _marker_table()
_MARKER_WORDS = frozenset(MARKER_LANGUAGE)


def tally(raw_counts: Mapping[str, int]) -> dict[str, int]:
    """How many marker words of each language a text holds, from its raw tokens' counts."""
    out: dict[str, int] = {}
    for word in _MARKER_WORDS.intersection(raw_counts):
        language = MARKER_LANGUAGE[word]
        out[language] = out.get(language, 0) + raw_counts[word]
    return out


def tally_tokens(tokens: Iterable[str]) -> dict[str, int]:
    """:func:`tally` of a text given as its raw tokens in order."""
    out: dict[str, int] = {}
    for word in tokens:
        language = MARKER_LANGUAGE.get(word)
        if language is not None:
            out[language] = out.get(language, 0) + 1
    return out


def decide(counts: Mapping[str, int]) -> str | None:
    """The language a :func:`tally` names, or None when it holds too few markers to tell."""
    best, most = DEFAULT, counts.get(DEFAULT, 0)
    for language in LANGUAGES[1:]:  # in LANGUAGES order, so a tie always goes the same way
        if counts.get(language, 0) > most:
            best, most = language, counts[language]
    if most < MIN_MARKERS:
        return None
    if best != DEFAULT and most < 2 * counts.get(DEFAULT, 0):
        return None  # as much English as the other: a quotation, or code-switching
    return best


def combined(tallies: Iterable[Mapping[str, int]]) -> dict[str, int]:
    """The tallies of several texts as one (the chunks of a file)."""
    out: dict[str, int] = {}
    for counts in tallies:
        for language, n in counts.items():
            out[language] = out.get(language, 0) + n
    return out


def display_name(name: str) -> str:
    """A language or script as a sentence names it: ``german`` is German, ``Korean Hangul`` stays."""
    return name[:1].upper() + name[1:]
