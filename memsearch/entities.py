"""Entities: the names that connect memories in the graph, even when the words differ.

Sources, in a file's frontmatter (:func:`frontmatter_entities`): ``tags``, ``entities``,
``aliases``, ``people``, ``project`` (strings or lists). In body text (:func:`extract_entities`):
``[[wikilinks]]`` (``[[Target|shown]]`` and ``[[Target#section]]`` give ``Target``), ``#tags``,
markdown links to other vault files (``[text](../reference/redflag.md)`` gives ``redflag``),
and capitalised names: runs of Capitalised words (``Ed Kowalski``, ``New York``, ``Lord of the
Rings``), acronyms (``LGBTQ``) and CamelCase (``GitHub``). Fenced code and inline code are skipped
entirely. Stopwords (pronouns, determiners, weekdays, months, interjections...) are never names.
A word capitalised only because it opens a sentence or a Title Case heading is judged by the
file's own :class:`Vocabulary` (seen in lower case elsewhere: a common word; seen capitalised
mid-sentence: a name), then by a common-word list with its inflections.

Display names keep their case; :func:`normalize_entity` is the key the graph uses for a node, and
lists are deduplicated on it (so ``#signing`` and ``Signing`` are one entity).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from urllib.parse import unquote

from memsearch import dates, speedups
from memsearch.chunkers.fences import unfenced_lines

__all__ = [
    "Vocabulary",
    "extract_entities",
    "frontmatter_entities",
    "normalize_entity",
    "unique_entities",
    "vocabulary",
]

# ------------------------------------------------------------------------------------ word lists


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: Never an entity, wherever they stand: pronouns, determiners, question words, conjunctions,
#: prepositions, auxiliaries, interjections, weekdays, months, relative days, markers.
STOPWORDS: frozenset[str] = _words(
    """
    i me my mine myself we us our ours ourselves you your yours yourself yourselves he him his himself
    she her hers herself it its itself they them their theirs themselves one ones someone somebody
    something anyone anybody anything everyone everybody everything noone nobody nothing
    the a an this that these those some any each every all both either neither no none other another
    such own same few many much more most less least several enough
    when what where who whom whose why how which whatever whenever wherever whoever however whether
    and but or nor so yet if then than because though although unless while whereas since until till
    also too very just only even still already again ever never always often sometimes usually
    not yes yeah yep nope no ok okay oh ah aha hey hi hello hiya bye goodbye thanks thank please sorry
    wow whoa oops hmm hm um uh well sure right great good nice cool awesome amazing congrats
    congratulations welcome dear lol haha omg btw fyi imo tbh
    of in on at to for from with by about into onto over under after before during above below
    between among through throughout across along around against without within upon via per
    up down out off near toward towards beyond behind beside besides despite like unlike as
    is am are was were be been being do does did done doing have has had having will would shall
    should can could may might must need ought let lets
    here there now then today tomorrow yesterday tonight soon later earlier recently currently
    monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun
    january february march april june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec
    morning afternoon evening night week weekend month year day
    am pm utc gmt
    todo fixme note notes nb ps re fw fwd tbd tba etc eg ie vs
    mr mrs ms dr prof sir madam
    aw aww awww yup yea yess gotta gonna wanna kinda sorta lemme gotcha woah woohoo woo yoohoo yay
    nah oof mm mmm ooo ooh ouch ugh phew ha hah ahh ahhahha hmmm yum ttyl dang darn c'mon y'all
    sooo kudos cheers bummer anytime looky man go
    """
)

#: Common words that are capitalised only because a sentence starts with them. A run of
#: capitalised words at the start of a sentence loses such words from its front ("Met Ed Kowalski"
#: gives "Ed Kowalski"). Inflections are checked too ("Prefers", "Rotated", "Finds"). Kept out on
#: purpose: words that begin place and organisation names (New, North, San, United, Great...).
COMMON_WORDS: frozenset[str] = _words(
    """
    about after again against ago almost alone along already alright anyway anyhow apparently around
    back bad basically best better big bit certainly clearly close completely definitely different
    early easy else especially eventually ever exactly except excited fine finally first fun funny
    glad happy hard honestly hopefully huge important indeed instead interesting just kind last late
    later least less life likely little long lot lots main maybe meanwhile moreover most mostly
    much next normally now obviously often old once only other others otherwise overall perhaps
    plus possibly pretty probably quick quite rather ready real really recently right same second
    several short similarly simply small so somehow sometimes soon sorry still such suddenly
    supposedly sure thankfully therefore third though thus tired true truly two unfortunately
    useful various way whatever worth yet
    accept add agree allow answer appear apply approve arrive ask attend avoid bake become begin
    believe borrow break bring build buy call care carry catch change check choose clean climb close
    collect come compare complete consider continue cook cost count cover create cut dance decide
    deliver describe design destroy die discover discuss do draw dream drink drive drop eat enjoy
    enter explain fail fall feel fight file fill find finish fix fly follow forget forgive form get
    give go grow guess hand happen hate have hear help hide hike hit hold hope hurt imagine improve
    include join keep kill know land laugh learn leave lend let lie like listen live look lose love
    make manage mark matter mean meet mention mind miss move need notice offer open order organise
    organize own paint pass pay pick place plan play point practise practice prefer prepare present
    print promise prove publish pull push put reach read realise realize receive recommend record
    reduce refuse relax release remember remind remove repeat reply report request rest return
    review ride ring rise rotate run save say search see seem sell send serve set share shop show
    sign sing sit sleep smile solve speak spend stand start stay stop study suggest support suppose
    swim take talk taste teach tell test thank think throw touch train travel treat try turn
    understand update use visit wait wake walk want wash watch wear win wish wonder work worry wrap
    write
    ate became began bought brought built came caught chose did drew drank drove fell felt fought
    flew forgot found gave got grew had heard held hid hit hurt kept knew laid led left lent lost
    made meant met paid put ran rang read rode rose said sang sat saw sent shot showed slept sold
    spent spoke stood swam taught thought threw told took understood went woke won wore wrote
    gone done seen known taken given written spoken
    intro overview summary background context introduction conclusion example examples usage setup
    install installation config configuration detail details status history changelog goal
    problem solution question answer reason rule principle decision lesson thought thoughts
    key release chapter part section appendix entry log ledger contact link reference resource task
    idea misc faq team owner people person related open closed plan step risk issue bug
    memory secret tool inbox token ceremony honesty privacy safety security value values promise
    morning evening afternoon night photo picture family friend friends kid kids work home
    loose note draft archive journal diary thing things maintainer owner
    one two three four five six seven eight nine ten eleven twelve twenty hundred
    sound appreciate super bet crazy impressive finger hang rock lucky cherish wedding exercise rate
    event trip mixed busy trust visual spill unconditional sunflower veggie stuff creativity brave
    gather respect success tackle impressed obstacle guidance mentor capture quality simple blessed
    breath laughter adorable allergy somewhat dyed jealous dairy theme apart tough music everywhere
    game struggle unforgettable confident difficult money epic email vary daily precious somewhere
    mix fit user sad someday explore deadline determined fully wall perseverance special twist story
    green nostalgic afterward comfort candle gorgeous onward onwards research world storm consistency
    sweet twisted celebrate doctor progress treasure incredible embrace fascinated classic invite
    clear safe skilled fresh luxury eager art animal pet book setback challenge proud nature
    absolutely totally exciting excellent fantastic beautiful lovely wonderful glad hopeful awesome
    """
)

#: Endings of verbs, adverbs and abstract nouns: such a word opening a sentence is not a name.
_SUFFIX_RE = re.compile(r"(?:ing|ly|tion|tions|sion|sions|ment|ments|ness|ship|ism|isms)$")
_CONNECTORS = frozenset({"of", "de", "da", "di", "del", "der", "van", "von", "la", "le", "du", "bin", "al"})
_SECOND_CONNECTORS = frozenset({"the", "der", "den", "la", "los", "las"})  # "Lord of the Rings"
_ANY_CONNECTOR = _CONNECTORS | _SECOND_CONNECTORS
_CONTRACTION_RE = re.compile(r"['’](?:t|m|re|ve|ll|d)$", re.IGNORECASE)

# --------------------------------------------------------------------------------------- patterns

_WIKILINK_RE = re.compile(r"!?\[\[([^\[\]\n]+?)\]\]")
_MDLINK_RE = re.compile(
    r"(?<!!)\[([^\[\]\n]*)\]\(\s*(?:<([^<>\n]+)>|([^()\s]+))(?:\s+[\"'][^\"'\n]*[\"'])?\s*\)"
)
_IMAGE_RE = re.compile(r"!\[([^\[\]\n]*)\]\([^()\n]*\)")
_CODE_SPAN_RE = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)")
_URL_RE = re.compile(r"<?(?:[a-zA-Z][a-zA-Z0-9+.-]*://|www\.|mailto:)(?:[^\s<>]*[^\s<>.,;:!?)\]'\"])?>?")
_HTML_RE = re.compile(r"</?[a-zA-Z][^<>\n]*>")
_TAG_RE = re.compile(r"(?<![\w#&/\\.:@\-])#([^\W_][\w/-]*|_[\w/-]+)")
_EMPHASIS_RE = re.compile(r"\*+|~~|(?<!\w)_+|_+(?!\w)")
_LINE_START_RE = re.compile(r"^\s*(?:#{1,6}\s+|>\s*)*(?:(?:[-*+]|\d{1,3}[.)])\s+)?(?:\[[ xX]\]\s+)?")
_TOKEN_RE = re.compile(r"[^\W_][\w'’]*(?:-[^\W_][\w'’]*)*")
_TOKEN_SPLIT_RE = re.compile(f"({_TOKEN_RE.pattern})")  # [gap, word, gap, ..., gap]
_SENTENCE_END_RE = re.compile(r"[.!?:;…—–]|(?:^|\s)-(?:\s|$)")
_WORD_RE = re.compile(r"[^\W\d_][\w'’]*")
# a word right after a word (or a comma) and one space: the middle of a sentence ("my dog Max")
_MID_SENTENCE_WORD_RE = re.compile(r"(?<=[\w,;)] )[^\W\d_][\w'’-]*")
#: First three letters of month and weekday names: a line opening so may open with a date.
_DATE_OPENINGS = _words("jan feb mar apr may jun jul aug sep oct nov dec mon tue wed thu fri sat sun")
_HEADING_LINE_RE = re.compile(r"^ {0,3}#{1,6}(?:\s|$)")
_POSSESSIVE_RE = re.compile(r"['’][sS]$|['’]$")
_SCHEME_RE = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
#: Longer "names" (a 300,000-character [[wikilink]] or #tag) are no names: they are left out of the
#: graph rather than made nodes as long as themselves.
MAX_ENTITY_CHARS = 100
_BREAK = " \u00a6 "  # put where something was removed: ends a run of capitalised words, starts no sentence


def normalize_entity(name: str) -> str:
    """The graph's node key for an entity: casefolded, no ``#``, ``-``/``_`` as spaces, single spaces."""
    return _normalized(name if isinstance(name, str) else str(name))


@lru_cache(maxsize=100_000)  # a vault names the same few entities again and again
def _normalized(name: str) -> str:
    text = unicodedata.normalize("NFKC", name).casefold().strip()
    text = text.lstrip("#")
    if "-" in text or "_" in text:
        text = re.sub(r"[-_]+", " ", text)
    return " ".join(text.split())


def unique_entities(names: Iterable[str]) -> list[str]:
    """Names deduplicated on :func:`normalize_entity`, first spelling and order kept; names over
    :data:`MAX_ENTITY_CHARS` left out."""
    seen: set[str] = set()
    out: list[str] = []
    for name in names:
        display = " ".join(str(name).split()).lstrip("#")
        if len(display) > MAX_ENTITY_CHARS:
            continue
        key = normalize_entity(display)
        if key and key not in seen:
            seen.add(key)
            out.append(display)
    return out


# ---------------------------------------------------------------------------------- frontmatter

_FM_KEYS = {
    "tags": "tags",
    "tag": "tags",
    "entities": "entities",
    "entity": "entities",
    "people": "people",
    "person": "people",
    "project": "project",
    "projects": "project",
    "aliases": "aliases",
    "alias": "aliases",
}


def frontmatter_entities(fm: dict[str, Any], title: str | None = None) -> tuple[list[str], dict[str, str]]:
    """(entities, alias -> canonical name) declared in a file's frontmatter.

    ``aliases`` map to the file's canonical name: frontmatter ``title``, else ``title`` (the
    caller's file title). When a file declares aliases, the canonical name is an entity too.
    """
    found: dict[str, list[str]] = {"tags": [], "entities": [], "people": [], "project": [], "aliases": []}
    if not isinstance(fm, dict):
        return [], {}
    for key, value in fm.items():
        kind = _FM_KEYS.get(str(key).lower())
        if kind:
            found[kind].extend(_fm_values(value, split_spaces=kind == "tags"))
    canonical = fm.get("title") if isinstance(fm.get("title"), str) and fm["title"].strip() else title
    canonical = " ".join(canonical.split()) if canonical else None
    aliases: dict[str, str] = {}
    if canonical and len(canonical) <= MAX_ENTITY_CHARS:
        for alias in found["aliases"]:
            if len(alias) <= MAX_ENTITY_CHARS and normalize_entity(alias) != normalize_entity(canonical):
                aliases.setdefault(alias, canonical)
    names = [canonical] if aliases and canonical else []
    names += [*found["tags"], *found["entities"], *found["people"], *found["project"], *found["aliases"]]
    return unique_entities(names), aliases


def _fm_values(value: Any, *, split_spaces: bool) -> list[str]:
    items = value if isinstance(value, list) else [value]
    out: list[str] = []
    for item in items:
        if isinstance(item, list):
            out.extend(_fm_values(item, split_spaces=split_spaces))
            continue
        if item is None or isinstance(item, dict | bool):
            continue
        text = str(item)
        parts = re.split(r"[,\s]+", text) if split_spaces else text.split(",")
        for part in parts:
            name = _clean_name(part)
            if any(ch.isalpha() for ch in name):
                out.append(name)
    return out


def _clean_name(text: str) -> str:
    text = text.strip().strip("\"'")
    m = re.fullmatch(r"\[\[([^\]]+)\]\]", text)
    if m:
        text = _wikilink_target(m.group(1))
    return " ".join(text.lstrip("#").split())


# ------------------------------------------------------------------------------------ body text


@dataclass(frozen=True)
class Vocabulary:
    """How a whole file capitalises its words: evidence for what is a name and what is not.

    A word that also appears in lower case ("sounds", "nature") is a common word even when a
    sentence opens with it; a word capitalised in the middle of a sentence ("my dog Max") is a
    name even where it opens one. Build it once per file with :func:`vocabulary`.
    """

    lower: frozenset[str] = frozenset()  # casefolded words seen starting in lower case
    names: frozenset[str] = frozenset()  # casefolded words seen capitalised mid-sentence


def vocabulary(text: str) -> Vocabulary:
    """The capitalisation evidence of a text (code, links and headings skipped)."""
    kept = [line for line in unfenced_lines(text) if line.strip() and not _HEADING_LINE_RE.match(line)]
    prose = "\n".join(kept)
    # Each pattern only where its literal can be (the URL pattern tries a scheme at every letter:
    # unguarded, it was a quarter of this function on prose without a single link).
    if "`" in prose:
        prose = _CODE_SPAN_RE.sub(_BREAK, prose)
    if "://" in prose or "www." in prose or "mailto:" in prose:
        prose = _URL_RE.sub(_BREAK, prose)
    lower, mid = _vocabulary_words(prose)
    return Vocabulary(frozenset(lower), frozenset(_clean_token(w).casefold() for w in mid))


def vocabulary_words_py(prose: str) -> tuple[set[str], set[str]]:
    """The casefolded words that start in lower case, and the words capitalised mid-sentence as
    written: the reference for ``memsearch._speedups.vocabulary_words``."""
    # Distinct words first (a C set): a file repeats its words, and each costs a casefold.
    lower = {w.casefold() for w in set(_WORD_RE.findall(prose)) if w[0].islower()}
    mid = {w for w in set(_MID_SENTENCE_WORD_RE.findall(prose)) if w[0].isupper()}
    return lower, mid


# The compiled twins (memsearch/_speedups.c: hand-written scans instead of regex passes) where
# memsearch.speedups says they run.
_split_words = speedups.pick("split_words", _TOKEN_SPLIT_RE.split)
_vocabulary_words = speedups.pick("vocabulary_words", vocabulary_words_py)


def extract_entities(text: str, vocab: Vocabulary | None = None) -> list[str]:
    """Entities named in markdown body text, in first-seen order, deduplicated.

    ``vocab`` (the :func:`vocabulary` of the whole file) sharpens the call on words that open a
    sentence; without it, the text's own vocabulary is used.
    """
    if vocab is None:
        vocab = vocabulary(text)
    found: list[str] = []
    for line in unfenced_lines(text):
        if line.strip():
            found.extend(_line_entities(line, vocab))
    return unique_entities(found)


def _line_entities(line: str, vocab: Vocabulary) -> list[str]:
    found: list[str] = []
    targets: list[str] = []  # link targets go after the names, so "Ed Kowalski" is shown, not "ed-kowalski"
    # Each pattern runs only on a line holding the characters it cannot match without (most lines
    # hold none: the subs were a quarter of chunking).
    if "`" in line:
        line = _CODE_SPAN_RE.sub(_BREAK, line)

    def wikilink(m: re.Match[str]) -> str:
        target = _wikilink_target(m.group(1))
        if target:
            found.append(target)
        return _BREAK

    if "[[" in line:
        line = _WIKILINK_RE.sub(wikilink, line)
    if "![" in line:
        line = _IMAGE_RE.sub(_BREAK, line)

    def mdlink(m: re.Match[str]) -> str:
        target = _link_target(m.group(2) or m.group(3) or "")
        if target:
            targets.append(target)
        return f" {m.group(1)} "

    if "](" in line:
        line = _MDLINK_RE.sub(mdlink, line)
    if "://" in line or "www." in line or "mailto:" in line:
        line = _URL_RE.sub(_BREAK, line)
    if "<" in line:
        line = _HTML_RE.sub(_BREAK, line)
    heading = bool(_HEADING_LINE_RE.match(line))
    if heading:
        line = re.sub(r"^ {0,3}#{1,6}", "", line)

    def tag(m: re.Match[str]) -> str:
        name = m.group(1).rstrip("/-")
        if any(ch.isalpha() for ch in name):
            found.append(name)
        return _BREAK

    if "#" in line:
        line = _TAG_RE.sub(tag, line)
    if "*" in line or "_" in line or "~~" in line:
        line = _EMPHASIS_RE.sub(" ", line)
    found.extend(_capitalised_names(line, vocab, heading=heading))
    return found + targets


def _wikilink_target(inner: str) -> str:
    target = inner.split("|", 1)[0].split("#", 1)[0].split("^", 1)[0].strip()
    target = target.rstrip("/").rsplit("/", 1)[-1]
    if target.lower().endswith(".md"):
        target = target[:-3]
    return " ".join(target.split())


def _link_target(href: str) -> str:
    """The stem of a link to another vault file; "" for web links, anchors, images and the like."""
    href = href.strip()
    if not href or href.startswith("#") or _SCHEME_RE.match(href) or href.startswith("//"):
        return ""
    path = unquote(href.split("#", 1)[0].split("?", 1)[0]).rstrip("/")
    name = path.rsplit("/", 1)[-1]
    for ext in (".md", ".markdown"):
        if name.lower().endswith(ext):
            return name[: -len(ext)].strip()
    return ""


def _words_from(line: str) -> list[str]:
    """The words of a line, split as ``[gap, word, gap, word, ..., gap]`` (one C call: a generator
    of matches was a third of entity extraction).

    Line decoration (heading marks, bullets, quote marks, task boxes) and a leading date
    ("- 2025-03-03 09:14 Opened ...") are skipped: the word after them opens a sentence.
    """
    prefix = _LINE_START_RE.match(line)
    pos = prefix.end() if prefix else 0
    head = line[pos : pos + 3].lstrip("[(*_").casefold()
    if head[:1].isdigit() or head[:3] in _DATE_OPENINGS:
        stamp = dates.find_leading_datetime(line)
        if stamp is not None and line[pos : stamp[1]].strip():
            pos = stamp[1]
    return _split_words(line[pos:] if pos else line)


def _capitalised_names(line: str, vocab: Vocabulary, *, heading: bool = False) -> list[str]:
    """Runs of capitalised words, without stopwords and sentence-initial common words."""
    names: list[str] = []
    run: list[str] = []
    run_initial = False
    connector: list[str] = []  # "of", "de", "of the", "van der" between two capitalised words
    parts = _words_from(line)
    # Most words are lower case outside any run: they cost one look at their gap and one at their
    # first letter. A gap with punctuation ends a run; one that ends a sentence makes the next
    # word an opening one, as does being the first word.
    for i in range(1, len(parts), 2):
        token = parts[i]
        gap = parts[i - 1]
        if gap != " " and gap.strip():
            initial = _SENTENCE_END_RE.search(gap) is not None
            if run:
                names.extend(_run_names(run, run_initial, vocab, everywhere=heading))
                run = []
            connector = []
        else:
            initial = i == 1
        if not run and not token[0].isupper():
            continue
        token = _clean_token(token)
        if token[0].isupper():
            if not run:
                run_initial = initial
            run.extend(connector)
            connector = []
            run.append(token)
        elif run and _continues_connector(connector, token):
            connector.append(token)
        else:
            if run:
                names.extend(_run_names(run, run_initial, vocab, everywhere=heading))
                run = []
            connector = []
    if run:
        names.extend(_run_names(run, run_initial, vocab, everywhere=heading))
    return names


def _continues_connector(connector: list[str], token: str) -> bool:
    low = token.casefold()
    if not connector:
        return low in _CONNECTORS
    return len(connector) == 1 and low in _SECOND_CONNECTORS


def _clean_token(token: str) -> str:
    if "'" in token or "’" in token:
        token = _POSSESSIVE_RE.sub("", token) or token
    if "-" not in token:
        return token
    parts = token.split("-")
    kept = [parts[0]]
    for part in parts[1:]:  # "Ed25519-based" -> "Ed25519"; "Jean-Luc" stays whole
        if not part or not (part[0].isupper() or part[0].isdigit()):
            break
        kept.append(part)
    return "-".join(kept)


def _run_names(run: list[str], initial: bool, vocab: Vocabulary, *, everywhere: bool = False) -> list[str]:
    """Split a run of capitalised words at stopwords; drop what is capitalised only by position.

    ``initial``: the run opens a sentence. ``everywhere``: a Title Case heading, where every
    piece is judged like a sentence opening and a lone word must prove it is a name.
    """
    out: list[str] = []
    piece: list[str] = []
    first_piece = True
    for word in run:
        low = word.casefold()
        if piece and (
            low in _CONNECTORS or (low in _SECOND_CONNECTORS and piece[-1].casefold() in _CONNECTORS)
        ):
            piece.append(word)  # "University of Oxford"; a trailing connector is trimmed on close
            continue
        if _is_stopword(word):
            if piece:
                _close_piece(piece, (first_piece and initial) or everywhere, vocab, everywhere, out)
                piece = []
            first_piece = everywhere  # after "The" or "When", a capital is the name's own
            continue
        piece.append(word)
    if piece:
        _close_piece(piece, (first_piece and initial) or everywhere, vocab, everywhere, out)
    return out


def _close_piece(words: list[str], opening: bool, vocab: Vocabulary, heading: bool, out: list[str]) -> None:
    """The name a piece of a run holds, if any, onto ``out``; ``opening``: judged as opening a sentence."""
    while words and words[-1].casefold() in _ANY_CONNECTOR:
        words = words[:-1]
    if opening:
        if len(words) == 1:
            if not _opening_word_is_name(words[0], vocab, heading=heading):
                words = []
        else:  # "Met Ed Kowalski" -> "Ed Kowalski"; "New York" stays
            while len(words) > 1 and _is_common(words[0]):
                words = words[1:]
            if len(words) == 1 and not _opening_word_is_name(words[0], vocab, heading=heading):
                words = []
    while words and words[0].casefold() in _CONNECTORS:
        words = words[1:]
    name = " ".join(words)
    if len(name) > 1:
        out.append(name)


def _opening_word_is_name(word: str, vocab: Vocabulary, *, heading: bool) -> bool:
    """Is a lone capitalised word that opens a sentence (or a heading) a name?

    Its shape first (LGBTQ, GitHub, Ed25519), then the file's own evidence (seen in lower case:
    no; seen capitalised mid-sentence: yes), then the common-word lists. A heading's lone word
    needs positive evidence: "## Contacts" is a topic.
    """
    if _name_like(word):
        return True
    low = word.casefold()
    if low in vocab.lower:
        return False
    if low in vocab.names:
        return True
    return not heading and not _is_common(word)


def _is_stopword(word: str) -> bool:
    low = word.casefold()
    return (
        low in STOPWORDS
        or len(word) == 1
        or (("'" in low or "’" in low) and _CONTRACTION_RE.search(low) is not None)
    )


def _is_common(word: str) -> bool:
    """A word (or an inflection of one) from the common list; or a typical verb/adverb/noun ending."""
    low = word.casefold().replace("’", "'")
    head = low.split("-", 1)[0]
    if low in STOPWORDS or head in COMMON_WORDS:
        return True
    for base in _bases(head):
        if base in COMMON_WORDS:
            return True
    return bool(_SUFFIX_RE.search(head)) and len(head) >= 6 and not word.isupper()


def _bases(word: str) -> list[str]:
    """Candidate dictionary forms of an inflected word: prefers -> prefer, rotated -> rotate."""
    out = []
    if word.endswith("ies") and len(word) > 4:
        out.append(word[:-3] + "y")
    if word.endswith("es") and len(word) > 3:
        out.append(word[:-2])
    if word.endswith("s") and len(word) > 3 and not word.endswith("ss"):
        out.append(word[:-1])
    if word.endswith("ied") and len(word) > 4:
        out.append(word[:-3] + "y")
    if word.endswith("ed") and len(word) > 4:
        out.extend([word[:-2], word[:-1]])
        if len(word) > 5 and word[-3] == word[-4]:  # stopped -> stop
            out.append(word[:-3])
    if word.endswith("ing") and len(word) > 5:
        out.extend([word[:-3], word[:-3] + "e"])
        if word[-4] == word[-5]:  # running -> run
            out.append(word[:-4])
    return out


def _name_like(word: str) -> bool:
    """Shaped like a name whatever its position: an acronym, CamelCase, or letters with digits."""
    return (
        (word.isupper() and len(word) >= 2)
        or any(ch.isupper() for ch in word[1:])
        or (any(ch.isdigit() for ch in word) and any(ch.isalpha() for ch in word))
    )


# ------------------------------------------------------------------------------ prose aliases

#: A glossary line: ``**TERM** - what it means`` (also ``–``, ``—``, ``:``, ``=``), several a line.
_GLOSSARY = re.compile(r"\*\*([^*\n]{1,40}?)\*\*\s*(?:[-–—:=]|is)\s+([^*\n]{2,120}?)(?=\s*(?:[.;(]|\*\*|$))")
#: ``NAME = "ALIAS"`` and ``NAME aka ALIAS`` / ``also known as`` / ``a.k.a.``: ALIAS names NAME.
_EQUALS_QUOTED = re.compile(r"([A-Za-z][\w' -]{1,40}?)\s*=\s*[\"“]([^\"”\n]{1,40})[\"”]")
_AKA = re.compile(
    r"\b([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,3}),?\s+(?:aka|a\.k\.a\.|also known as|known as)\s+"
    r"[\"“]?([A-Z][\w'-]*(?:\s+[\w'-]+){0,3}?)[\"”]?(?=[\s,.;:)]|$)"
)
#: Words of a definition kept as the name it stands for (a definition is a phrase, not an essay).
MAX_DEFINITION_WORDS = 8


def prose_aliases(text: str) -> dict[str, str]:
    """Alias -> what it stands for, as the prose of a note defines it (code blocks skipped).

    A glossary line ``**PTS** - put to sleep`` makes ``PTS`` stand for "put to sleep";
    ``CD register = "the yellow book"`` and ``Tomasz, aka Tomek`` make the quoted or second
    name an alias of the first. Frontmatter ``aliases:`` say the same of a note's own subject.
    """
    found: dict[str, str] = {}
    for line in unfenced_lines(text):
        if "**" in line:
            for term, meaning in _GLOSSARY.findall(line):
                words = meaning.split(",")[0].split()
                if words and len(words) <= MAX_DEFINITION_WORDS:
                    _add_alias(found, term, " ".join(words))
        if "=" in line:
            for name, alias in _EQUALS_QUOTED.findall(line):
                _add_alias(found, alias, name)
        if "known as" in line or "aka" in line or "a.k.a." in line:
            for name, alias in _AKA.findall(line):
                _add_alias(found, alias, name)
    return found


def _add_alias(found: dict[str, str], alias: str, canonical: str) -> None:
    alias, canonical = _clean_name(alias.strip(" -*\"'")), _clean_name(canonical.strip(" -*\"'"))
    if not alias or not canonical or normalize_entity(alias) == normalize_entity(canonical):
        return
    found.setdefault(alias, canonical)
    # "the Shed Brain" is written "Shed Brain" as often: both name it.
    bare = _ARTICLE.sub("", alias)
    if bare != alias and len(bare) > 1:
        found.setdefault(bare, canonical)


_ARTICLE = re.compile(r"^(?:the|a|an|our|my)\s+", re.IGNORECASE)
