"""Entities named in markdown body text (:func:`extract_entities`) and the capitalisation evidence
of a whole file that sharpens the call (:class:`Vocabulary`, :func:`vocabulary`).

``[[wikilinks]]``, ``#tags``, markdown links to other vault files, and runs of capitalised words;
code, URLs and HTML are skipped. A word capitalised only because it opens a sentence or a Title
Case heading is judged by the file's vocabulary, then by the lists of
:mod:`memsearch.entities.words`. The two hot word scans run on the compiled twins
(``memsearch._speedups``) where :mod:`memsearch.speedups` says so: :data:`split_words` and
:data:`vocabulary_words` are the names bound here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote

from memsearch import dates, speedups
from memsearch.entities.normalize import unique_entities, wikilink_target, without_possessive
from memsearch.entities.words import (
    ANY_CONNECTOR,
    CONNECTORS,
    DATE_LEADS,
    DATE_OPENINGS,
    MONTH_FIRST_NAMES,
    SECOND_CONNECTORS,
    is_common,
    is_stopword,
    name_like,
)
from memsearch.fences import unfenced_lines

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
TOKEN_SPLIT_RE = re.compile(f"({_TOKEN_RE.pattern})")  # [gap, word, gap, ..., gap]
_SENTENCE_END_RE = re.compile(r"[.!?:;…—–]|(?:^|\s)-(?:\s|$)")
_WORD_RE = re.compile(r"[^\W\d_][\w'’]*")
# a word right after a word (or a comma) and one space: the middle of a sentence ("my dog Max")
_MID_SENTENCE_WORD_RE = re.compile(r"(?<=[\w,;)] )[^\W\d_][\w'’-]*")
_HEADING_LINE_RE = re.compile(r"^ {0,3}#{1,6}(?:\s|$)")
_SCHEME_RE = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
_BREAK = " \u00a6 "  # put where something was removed: ends a run of capitalised words, starts no sentence


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
    lower, mid = vocabulary_words(prose)
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
split_words = speedups.pick("split_words", TOKEN_SPLIT_RE.split)
vocabulary_words = speedups.pick("vocabulary_words", vocabulary_words_py)


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
        target = wikilink_target(m.group(1))
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


def linked_notes(line: str) -> list[str]:
    """The notes one line links to, as the links name them (``[[ema-filter]]`` and
    ``[see](../techniques/ema-filter.md)`` both give ``ema-filter``), in order; none for a line
    without a link, an image, a web link or a link inside inline code."""
    if "[[" not in line and "](" not in line:
        return []
    if "`" in line:
        line = _CODE_SPAN_RE.sub(_BREAK, line)
    embeds = "!"  # ![[picture.png]] shows a file, it does not point at a note
    names = [wikilink_target(m.group(1)) for m in _WIKILINK_RE.finditer(line) if m.group(0)[0] != embeds]
    if "](" in line:
        names += [_link_target(m.group(2) or m.group(3) or "") for m in _MDLINK_RE.finditer(line)]
    return [name for name in names if name]


def without_links(line: str, keep: str) -> str:
    """``line`` with every link but those to ``keep`` (a name as :func:`linked_notes` gives it)
    blanked out: in "see [[mara|Mara]] and [[Tomasz]]" the word "Mara" names one note, not the other."""

    def blank(match: re.Match[str], name: str) -> str:
        return match.group(0) if name == keep else _BREAK

    line = _WIKILINK_RE.sub(lambda m: blank(m, wikilink_target(m.group(1))), line)
    if "](" in line:
        line = _MDLINK_RE.sub(lambda m: blank(m, _link_target(m.group(2) or m.group(3) or "")), line)
    return line


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
    if head[:1].isdigit() or head[:3] in DATE_OPENINGS:
        stamp = dates.find_leading_datetime(line)
        if stamp is not None and line[pos : stamp[1]].strip():
            pos = stamp[1]
    return split_words(line[pos:] if pos else line)


def _capitalised_names(line: str, vocab: Vocabulary, *, heading: bool = False) -> list[str]:
    """Runs of capitalised words, without stopwords and sentence-initial common words."""
    names: list[str] = []
    run: list[str] = []
    run_initial = False
    before = ""  # the word just before the run, in the same sentence ("" if none)
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
                names.extend(_run_names(run, run_initial, vocab, everywhere=heading, before=before))
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
                before = "" if initial or i == 1 or gap.strip() else parts[i - 2].casefold()
            run.extend(connector)
            connector = []
            run.append(token)
        elif run and _continues_connector(connector, token):
            connector.append(token)
        else:
            if run:
                names.extend(_run_names(run, run_initial, vocab, everywhere=heading, before=before))
                run = []
            connector = []
    if run:
        names.extend(_run_names(run, run_initial, vocab, everywhere=heading, before=before))
    return names


def _continues_connector(connector: list[str], token: str) -> bool:
    low = token.casefold()
    if not connector:
        return low in CONNECTORS
    return len(connector) == 1 and low in SECOND_CONNECTORS


def _clean_token(token: str) -> str:
    if "'" in token or "’" in token:
        token = without_possessive(token)
    if "-" not in token:
        return token
    parts = token.split("-")
    kept = [parts[0]]
    for part in parts[1:]:  # "Ed25519-based" -> "Ed25519"; "Jean-Luc" stays whole
        if not part or not (part[0].isupper() or part[0].isdigit()):
            break
        kept.append(part)
    return "-".join(kept)


def _run_names(
    run: list[str], initial: bool, vocab: Vocabulary, *, everywhere: bool = False, before: str = ""
) -> list[str]:
    """Split a run of capitalised words at stopwords; drop what is capitalised only by position.

    ``initial``: the run opens a sentence. ``everywhere``: a Title Case heading, where every
    piece is judged like a sentence opening and a lone word must prove it is a name. ``before``:
    the word just before the run in its sentence (a number or "in" makes "June Carter" a date
    and a name). A month word begins a name only where a piece begins, and not in a heading
    ("## June Retrospective" is a topic; a person's own note is named by its title anyway).
    """
    out: list[str] = []
    piece: list[str] = []
    first_piece = True
    for i, word in enumerate(run):
        low = word.casefold()
        if piece and (low in CONNECTORS or (low in SECOND_CONNECTORS and piece[-1].casefold() in CONNECTORS)):
            piece.append(word)  # "University of Oxford"; a trailing connector is trimmed on close
            continue
        # Where a piece begins (after any common words that open the sentence: "Met April
        # Jones"), outside headings, a month word may begin a name.
        begins = not piece or (first_piece and initial and all(is_common(w) for w in piece))
        if is_stopword(word) and not (
            begins and not everywhere and _month_first_name(run, i, run[i - 1].casefold() if i else before)
        ):
            if piece:
                _close_piece(piece, (first_piece and initial) or everywhere, vocab, everywhere, out)
                piece = []
            first_piece = everywhere  # after "The" or "When", a capital is the name's own
            continue
        piece.append(word)
    if piece:
        _close_piece(piece, (first_piece and initial) or everywhere, vocab, everywhere, out)
    return out


def _month_first_name(run: list[str], i: int, before: str) -> bool:
    """Whether the month word ``run[i]`` begins a name ("April Jones", "Jun Park"): a capitalised
    word that is no common word follows it ("## August Plans" is a heading's topic), and no number
    or date word ("in", "since", "5") leads in."""
    if run[i].casefold() not in MONTH_FIRST_NAMES or i + 1 >= len(run):
        return False
    after = run[i + 1]
    if not after[:1].isupper() or is_common(after):
        return False
    return not (before[:1].isdigit() or before in DATE_LEADS)


def _close_piece(words: list[str], opening: bool, vocab: Vocabulary, heading: bool, out: list[str]) -> None:
    """The name a piece of a run holds, if any, onto ``out``; ``opening``: judged as opening a sentence."""
    while words and words[-1].casefold() in ANY_CONNECTOR:
        words = words[:-1]
    if opening:
        if len(words) == 1:
            if not _opening_word_is_name(words[0], vocab, heading=heading):
                words = []
        else:  # "Met Ed Kowalski" -> "Ed Kowalski"; "New York" and "April Jones" stay
            while len(words) > 1 and is_common(words[0]) and words[0].casefold() not in MONTH_FIRST_NAMES:
                words = words[1:]
            if len(words) == 1 and not _opening_word_is_name(words[0], vocab, heading=heading):
                words = []
    while words and words[0].casefold() in CONNECTORS:
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
    if name_like(word):
        return True
    low = word.casefold()
    if low in vocab.lower:
        return False
    if low in vocab.names:
        return True
    return not heading and not is_common(word)
