"""Links as evidence: a note is found by what the notes that link to it say about it.

"What value did we settle on for smoothing Sprout's flow reading?" is answered by the note on the
EMA filter, which says neither Sprout nor flow; the Sprout flow sensor's note does, on the line
that links it: "the litres-per-minute figure in the log is smoothed - see [[ema-filter]]". That
line is the link's anchor text, the linking note's description of the note it points at, and
anchor text finds what a page's own words do not (Craswell, Hawking & Robertson, SIGIR 2001).

The walk starts where the text lists found the query's words or meaning: the passages they rank
first. Each of their paragraphs (or list items) that links a note is an anchor (each sentence that
links one, when the paragraph links several), read with its passage's header (the linking note's
title and heading: "Sprout flow sensor"). The linked note is known by its file name, as a wikilink
or a markdown link names it (every passage of a note carries that entity); of its passages, the one
the query's words match best (else its first) is the one the link reaches.

An anchor counts for what it adds: the share of the query's informative weight (each term's weight
times its idf) in words of the anchor that the reached passage itself does not hold. A link whose
anchor only repeats the note's own words tells nothing the keyword list does not already know. The
same share of what the query asks beyond the names it writes is kept too: the linking note's title
is usually such a name ("Sprout"), which every link on that note would otherwise add alike.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from memsearch.entities import linked_notes, normalize_entity, without_links
from memsearch.fences import unfenced_lines
from memsearch.index.in_memory import IndexData
from memsearch.models import Chunk, Hit
from memsearch.tokenize import text_language, tokenize

#: A line that opens a block of its own: a heading, a list item, a quote.
_BLOCK_START = re.compile(r"^\s*(?:#{1,6}\s|[-*+]\s|\d{1,3}[.)]\s|>)")

_HEADING = re.compile(r"^\s*#{1,6}\s")

#: Where a sentence (or a clause after a semicolon) ends inside a paragraph.
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+")

#: A paragraph that links more notes than this is an index of them, not a description of one (and
#: following each of its links would cost a millisecond a hundred).
MAX_LINKS_PER_ANCHOR = 20

#: Names whose notes' passages are kept between queries (cleared when the index changes).
MAX_KEPT_NAMES = 4096
#: Passages whose anchors are kept read (the cache starts again past it).
MAX_KEPT_PASSAGES = 65_536

#: Passages of each text list whose links are followed: the head of the list, where the query's
#: evidence is (deeper, an anchor would be a stranger's description).
BRIDGES = 10


#: A passage's anchors: (words of the anchor and its heading, ((linked note's key, line), ...)) each.
PassageAnchors = tuple[tuple[frozenset[str], tuple[tuple[str, int], ...]], ...]


@dataclass(frozen=True)
class Anchor:
    """The best anchor that reached a passage: where it is and how much of the query it adds."""

    target: int  # chunk id of the linked note's passage
    share: float  # of the query's informative weight, in the anchor's words the passage lacks
    path: str  # the linking file
    line: int  # the anchor's line in it
    asked_share: float = 0.0  # the same, of what the query asks beyond the names it writes


def follow_links(
    index: IndexData,
    query_weights: Mapping[str, float],
    starts: Sequence[int],
    allowed: np.ndarray | None = None,
    asked: Mapping[str, float] | None = None,
) -> dict[int, Anchor]:
    """The passages the links on ``starts`` (chunk ids, best first) reach, each with its best
    anchor: ``{target chunk id: Anchor}``. Targets outside ``allowed`` (a mask over chunk ids) and
    a file's links to itself are left out. ``asked``: the query's terms beyond the names it writes
    (:func:`memsearch.query_terms.without_names`), for each anchor's ``asked_share`` (without them,
    it is its ``share``)."""
    keyword = index.keyword
    weights = {term: w * keyword.term_idf(term) for term, w in query_weights.items()}
    total = sum(weights.values())
    if total <= 0:
        return {}
    asked_terms = set(asked or weights) & weights.keys()
    asked_total = sum(weights[term] for term in sorted(asked_terms))
    anchors: list[tuple[str, frozenset[str], str, int]] = []  # (linked note's key, words, path, line)
    # Each passage's anchors are read once and kept until the index changes, not on every query
    # that starts from it.
    kept: dict[int, PassageAnchors] = index.kept("link_anchors", lambda _index: {})
    if len(kept) > MAX_KEPT_PASSAGES:
        kept.clear()
    for chunk_id in dict.fromkeys(starts):
        chunk = index.chunks.get(chunk_id)
        if chunk is None:
            continue
        passage = kept.get(chunk_id)
        if passage is None:
            passage = kept[chunk_id] = _anchors_of(chunk)
        for every_word, links in passage:
            words = every_word.intersection(weights)
            if words:
                anchors.extend((key, words, chunk.path, line) for key, line in links)
    if not anchors:
        return {}
    reached = _passages(index, {(key, path) for key, _, path, _ in anchors}, query_weights, allowed)
    targets = np.asarray(sorted(set(reached.values())), dtype=np.int64)
    # Which of the query's terms each reached passage holds itself: one pass a term.
    held: dict[int, set[str]] = {int(t): set() for t in targets}
    for term in weights:
        for target in targets[keyword.scores_of({term: 1.0}, targets) > 0].tolist():
            held[target].add(term)
    found: dict[int, Anchor] = {}
    for key, words, path, line in anchors:
        target = reached.get((key, path))
        if target is None:
            continue
        # Summed in one order: a set's order changes with each process's string hashing, and so
        # would the last bit of the share, and with it a tie in the ranking.
        adds = sorted(words - held[target])
        share = sum(weights[term] for term in adds) / total
        if share > 0 and share > (found[target].share if target in found else 0.0):
            asked_share = (
                sum(weights[term] for term in adds if term in asked_terms) / asked_total
                if asked_total
                else 0.0
            )
            found[target] = Anchor(target, share, path, line, asked_share)
    return found


def _anchors_of(chunk: Chunk) -> PassageAnchors:
    """(the anchor's words with its section's heading, stemmed as the keyword index stems the
    passage; (linked note's key, line) of each note it links) for each paragraph, item or heading
    of the passage that links at most ``MAX_LINKS_PER_ANCHOR`` notes; for each sentence that links
    a note, when its paragraph links several."""
    if "[[" not in chunk.text and "](" not in chunk.text:
        return ()
    language = text_language(chunk.text)  # the keyword index stemmed the chunk's words so
    header = set(tokenize(chunk.header, language))
    out: list[tuple[frozenset[str], tuple[tuple[str, int], ...]]] = []
    for offset, block in _blocks(chunk.text):
        text = " ".join(line.strip() for line in block)
        names = linked_notes(text)
        if not names or len(names) > MAX_LINKS_PER_ANCHOR:
            continue
        # The line each link is on (a link broken over two lines: the paragraph's first).
        lines: dict[str, int] = {}
        for i, row in enumerate(block):
            for name in linked_notes(row):
                lines.setdefault(name, i)
        links = tuple(
            (key, chunk.start_line + offset + lines.get(name, 0))
            for name in dict.fromkeys(names)
            if (key := normalize_entity(name))
        )
        if len(links) == 1:
            out.append((frozenset(header.union(tokenize(text, language))), links))
            continue
        # A paragraph linking several notes says what each is in the sentence that links it: its
        # other sentences are about the other notes ("... protected with our [[signing-keys]].
        # Packaging notes live in [[packaging]].").
        seen: set[str] = set()
        for sentence in _SENTENCE_END.split(text):
            named = {normalize_entity(name): name for name in linked_notes(sentence)}
            if len(named) == 1:
                if mine := tuple(link for link in links if link[0] in named):
                    out.append((frozenset(header.union(tokenize(sentence, language))), mine))
                    seen.update(named)
                continue
            # A sentence linking several notes: each link's anchor is the sentence without the
            # other links, whose words name their own notes ("see [[mara|Mara]] and [[Tomasz]]").
            for key, name in named.items():
                if mine := tuple(link for link in links if link[0] == key):
                    words = tokenize(without_links(sentence, name), language)
                    out.append((frozenset(header.union(words)), mine))
                    seen.add(key)
        # A link the split cut through ("[[Dr. Park]]") keeps the whole paragraph.
        if rest := tuple(link for link in links if link[0] not in seen):
            out.append((frozenset(header.union(tokenize(text, language))), rest))
    return tuple(out)


def _blocks(text: str) -> list[tuple[int, list[str]]]:
    """The text's paragraphs, list items and headings, each as (offset of its first line, its
    lines): a link's anchor is the paragraph (or item) around it, which hard-wrapped prose spreads
    over lines. Fenced code is no prose: its lines are blank here."""
    blocks: list[tuple[int, list[str]]] = []
    after_heading = False
    for offset, line in enumerate(unfenced_lines(text)):
        starts_block = not line.strip() or after_heading or _BLOCK_START.match(line) is not None
        if not blocks or starts_block or not blocks[-1][1]:
            blocks.append((offset, []))
        if line.strip():
            blocks[-1][1].append(line)
        after_heading = _HEADING.match(line) is not None
    return [(offset, lines) for offset, lines in blocks if lines]


def anchor_hits(anchors: Mapping[int, Anchor]) -> list[Hit]:
    """The anchors' targets as a ranked list, best share first (ties: chunk id)."""
    return [Hit(a.target, a.share) for a in sorted(anchors.values(), key=lambda a: (-a.share, a.target))]


def _passages(
    index: IndexData,
    links: set[tuple[str, str]],
    query_weights: Mapping[str, float],
    allowed: np.ndarray | None,
) -> dict[tuple[str, str], int]:
    """For each (note name, linking path): the passage of the note of that file name the query's
    words match best, else its first; absent when no indexed note other than the linking file has
    that name (or the filters leave none of it)."""
    candidates: dict[tuple[str, str], list[int]] = {}
    notes = index.kept("note_passages", _NotePassages)
    for key, linking_path in links:
        ids = [
            cid
            for cid in notes.passages(key)
            if index.chunks[cid].path != linking_path
            and (allowed is None or (cid < len(allowed) and allowed[cid]))
        ]
        if ids:
            candidates[(key, linking_path)] = ids
    every = np.asarray(sorted({cid for ids in candidates.values() for cid in ids}), dtype=np.int64)
    score = dict(zip(every.tolist(), index.keyword.scores_of(query_weights, every).tolist(), strict=True))

    def place(cid: int) -> tuple[float, str, int]:
        chunk = index.chunks[cid]
        return -score[cid], chunk.path, chunk.start_line

    return {link: min(ids, key=place) for link, ids in candidates.items()}


class _NotePassages:
    """The passages of the notes of each file name the links ask for, kept on the index until its
    chunk table changes (``IndexData.kept``): a name many passages carry (a project every note
    links) is sorted out once, not on every query."""

    def __init__(self, index: IndexData) -> None:
        self.index = index
        self.by_name: dict[str, tuple[int, ...]] = {}

    def passages(self, key: str) -> tuple[int, ...]:
        """The chunk ids of the passages of files called ``key`` (as a graph key), in id order."""
        found = self.by_name.get(key)
        if found is None:
            chunks = self.index.chunks
            found = tuple(
                cid
                for cid in self.index.graph.chunk_ids(key).tolist()
                if (chunk := chunks.get(cid)) is not None and _file_key(chunk.path) == key
            )
            if len(self.by_name) >= MAX_KEPT_NAMES:
                self.by_name.clear()
            self.by_name[key] = found
        return found


def names_a_note(index: IndexData, key: str) -> bool:
    """Whether a note of the vault is named after entity ``key`` (a graph key): a file of that name
    whose passages name it, as a link to it would reach."""
    return bool(index.kept("note_passages", _NotePassages).passages(key))


@lru_cache(maxsize=65_536)
def _file_key(path: str) -> str:
    """The graph key of a file's name (``reference/ema-filter.md`` -> ``ema filter``)."""
    return normalize_entity(path.rsplit("/", 1)[-1].rsplit(".", 1)[0])
