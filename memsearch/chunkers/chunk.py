"""Chunking: one file's text -> its memories (``Chunk``), territory-aware.

:func:`chunk_file` does, in order:

1. pick the territory (``settings.territory_for``) and split the text into lines;
2. read the frontmatter (safe YAML; malformed frontmatter is plain text plus a warning);
3. cut the body with the territory's strategy (``sections``, ``journal``, ``ledger``,
   ``chapters``, ``archive``: one module each), which also dates what its content dates;
4. split over-long chunks at their best breaks (:mod:`memsearch.chunkers.splitting`);
5. fill in each chunk's fact type, timestamp fallbacks (frontmatter ``date``/``created``/
   ``updated``, then the file name), heading, header and entities.

Invariants (property-tested): chunk text is exactly its lines joined by ``\\n``; chunks are
sorted and disjoint, never start or end on a blank line, never split a fenced code block, and
together hold every non-blank line after the frontmatter.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import PurePosixPath
from typing import Any

from memsearch import dates
from memsearch import entities as ent
from memsearch.chunkers import archive, chapters, journal, ledger, notebook, sections
from memsearch.chunkers.document import Doc, Segment, split_lines
from memsearch.chunkers.frontmatter import split_frontmatter
from memsearch.chunkers.splitting import split_range
from memsearch.config import Settings
from memsearch.errors import ChunkingError, UnreadableMemoryError
from memsearch.models import FACT_TYPES, ParsedFile, chunk_from_fields
from memsearch.scan import NOTEBOOK_SUFFIXES

#: Raised whenever the same file gives other chunks than before (boundaries, entities, aliases):
#: an index made by an older chunker is then chunked again in full by the next run.
#: 2: a note's own name among its entities; aliases its prose defines.
#: 3: keyword terms of Chinese, Japanese, Thai as bigrams, Korean without particles (the terms
#: are kept per chunk: an index made before would not meet the queries of the new tokenizer).
#: 4: Cyrillic and Greek words stemmed as Russian and Greek.
#: 5: Latin-script words stemmed in their text's language (German, Spanish, French, ...: memsearch.languages).
#: 6: dates in Chinese numerals (a heading ``# 2025年三月一日`` dates its section).
#: 7: a month word that begins a name is kept ("April Jones", "Jun Park" were "Jones", "Park").
#: 8: archived notes and books carry their file name as an entity, as sectioned notes do.
#: 9: ``Maureen Hargreaves ("Mrs H")`` defines an alias in prose.
#: 10: setext headings ("Title" over "=====", "Section" over "-----") are headings.
#: 11: bold words inside a sentence define no glossary term, and a definition ends before an arrow
#:     or a link ("**OOH** - out of hours -> [[out-of-hours]]"); a time of day is no term.
#: 12: an entity's key has no full stop closing a word ("Dr. Okafor" is found as "dr okafor").
#: 13: weekly and quarterly notes are dated by their names ("2025-W46", "2025-Q4").
#: 14: a language's name keeps its signs ("C++", "C++17", "C#" are not "c").
#: 15: a note named by a timestamp id is dated by it ("202311141230 Leitner boxes").
#: 16: a note is read in Unicode's composed form (NFC): one saved decomposed (NFD) was indexed as
#:     "zu", "rich" for "Zürich" (scan.composed).
#: 17: a lone carriage return in a file of line feeds is a character of its line, as grep and sed
#:     count (a progress bar pasted from a terminal put every later anchor lines down).
#: 18: an impossible date in frontmatter ("updated: 2025-02-30") is kept as text, not the whole
#:     block dropped; a wikilink in a table ("[[heron\|the pipeline]]") names "heron"; a "---"
#:     alone between entries is no chunk; a setext title joins its first chapter.
#: 19: a verb opening a sentence is not part of the name after it ("Restarted HPX" names HPX).
#: 20: a note that is all frontmatter is one chunk of it (it was none: its words were nowhere).
#: 21: "Born 1961", "Married Ann Berg": a person's card opens its lines with common words.
#: 22: a verb that is a noun too opens a name when it is not inflected ("Post Office", "Shipped
#:     HPX").
#: 23: a note's frontmatter description (or summary) is searchable, in its first passage's header.
#: 24: a notebook moment's concepts or keys that YAML read as booleans (an unquoted yes, no, on,
#:     off) are no names ("False" was an entity of the moment).
#: 25: frontmatter that says nothing it can (``fact_type: banana``, ``aliases: 5``, ``tags: {a: b}``)
#:     is named in the file's warnings.
CHUNKER_VERSION = 25

#: The chunking strategies whose notes are subjects a link can name (:func:`note_identity`).
SUBJECT_STRATEGIES = frozenset({"sections", "archive", "chapters"})

STRATEGIES: dict[str, Callable[[Doc], list[Segment]]] = {
    "sections": sections.segments,
    "journal": journal.segments,
    "ledger": ledger.segments,
    "chapters": chapters.segments,
    "archive": archive.segments,
}
#: Strategies whose chunks are dated entries: their header names the date when the text does not.
_DATED_ENTRIES = frozenset({"journal", "ledger", "archive"})
#: Frontmatter keys that date a file, most telling first.
_DATE_KEYS = ("date", "created", "updated")
#: Frontmatter keys that describe the whole note in a sentence or two (basic-memory, Obsidian).
_DESCRIPTION_KEYS = ("description", "summary")
#: Longest description kept in a header.
MAX_DESCRIPTION_CHARS = 400
#: Longest header; each part of it is cut to _MAX_PART first.
MAX_HEADER_CHARS = 200
_MAX_PART = 80


def chunk_file(rel_path: str, text: str, settings: Settings) -> ParsedFile:
    """The chunks, title, frontmatter and aliases of one vault file.

    Never raises on content: what cannot be read as intended is read as plain text and named in
    ``ParsedFile.warnings``. A ``ChunkingError`` means a bug here, not a bad file.
    """
    try:
        return _chunk_file(rel_path, text, settings)
    except UnreadableMemoryError:
        raise  # the file's content, not a bug: the caller skips the file with this reason
    except Exception as exc:
        raise ChunkingError(
            f"{rel_path}: could not be chunked ({type(exc).__name__}: {exc}); "
            "the rest of the vault is still indexed; please report this file as a memsearch bug"
        ) from exc


def _chunk_file(rel_path: str, text: str, settings: Settings) -> ParsedFile:
    territory = settings.territory_for(rel_path)
    if rel_path.lower().endswith(NOTEBOOK_SUFFIXES):  # only a notebook's YAML files are scanned
        return notebook.chunk_notebook_file(rel_path, text, territory)
    lines = split_lines(text)
    fm = split_frontmatter(lines)
    warnings = list(fm.warnings)
    doc = Doc(lines, fm.body_start)

    title, title_line = _title(rel_path, fm.data, doc)
    strategy = territory.strategy
    if strategy == "notebook":  # a markdown file inside a notebook: an ordinary note
        strategy = "sections"
    if strategy not in STRATEGIES:
        warnings.append(f"unknown chunk strategy {strategy!r} (cut by sections instead)")
        strategy = "sections"
    segments = STRATEGIES[strategy](doc)

    pieces: list[Segment] = []
    for seg in segments:
        for a, b in split_range(doc, seg.start, seg.end, settings.max_chunk_chars):
            pieces.append(Segment(a, b, seg.timestamp, seg.source, seg.date_text))
    if strategy == "archive":
        archive.date_chunks(doc, pieces)  # a piece of a month is dated by its own first line
    if not pieces and fm.body_start and any(not doc.blank[i] for i in range(1, fm.body_start - 1)):
        # A note that is all frontmatter (a person's card: title, aliases, a description) was no
        # chunk at all, its words nowhere to be found: its block is its one passage.
        pieces.append(Segment(0, fm.body_start - 1))

    fact_type = _fact_type(fm.data, territory.fact_type, warnings)
    file_date = _file_date(rel_path, fm.data, warnings)
    fm_entities, fm_aliases = ent.frontmatter_entities(fm.data, title=title, warnings=warnings)
    identity = note_identity(rel_path, strategy, title)
    if identity:
        fm_entities = [identity, *fm_entities]
    body_text = "\n".join(lines[fm.body_start :])
    aliases = {**ent.prose_aliases(body_text), **fm_aliases}  # frontmatter says it first
    vocab = ent.vocabulary(body_text)

    # The note's description says what all of it is about, in words its body may not use: the
    # note's first passage carries it in its header, searched as the title is (a passage that holds
    # the frontmatter block has it in its text already).
    description = _description(fm.data)
    chunks = []
    for i, piece in enumerate(pieces):
        if piece.timestamp is None and file_date is not None:
            piece.timestamp, piece.source, piece.date_text = file_date
        body = "\n".join(lines[piece.start : piece.end + 1])
        header = _header(doc, piece, body, title, title_line, strategy in _DATED_ENTRIES)
        if i == 0 and description and piece.start >= fm.body_start:
            header = f"{header}\n{description}" if header else description
        chunks.append(
            chunk_from_fields(
                dict(
                    path=rel_path,
                    start_line=piece.start + 1,
                    end_line=piece.end + 1,
                    heading=_heading(doc, piece, strategy, title),
                    territory=territory.label,
                    fact_type=fact_type,
                    timestamp=piece.timestamp,
                    timestamp_source=piece.source if piece.timestamp is not None else "none",
                    entities=tuple(ent.unique_entities([*ent.extract_entities(body, vocab), *fm_entities])),
                    text=body,
                    header=header,
                )
            )
        )
    return ParsedFile(
        path=rel_path,
        title=title,
        frontmatter=fm.data,
        aliases=aliases,
        chunks=tuple(chunks),
        warnings=tuple(warnings),
    )


def note_identity(rel_path: str, strategy: str, title: str = "") -> str | None:
    """The entity a note *is*: its file name, as a ``[[wikilink]]`` or a markdown link to it names it.

    Every chunk of the note carries it, so a link to the note connects to all of it in the graph
    (a link from a project note reaches the component note's sections, and their links beyond).
    Notes cut by sections (reference, system, the inner voice's notes...), archived notes and
    books are subjects ("see [[tally-postgres-plan]]", "read her [[the-lantern-fox]]"); a journal
    day or a ledger month is named by its date, a chapter file by its place in a book ("02-fog"),
    and a file named by a date is no subject anywhere.
    """
    if strategy not in SUBJECT_STRATEGIES:
        return None
    stem = PurePosixPath(rel_path).stem
    if dates.date_from_filename(rel_path) is not None or not any(ch.isalpha() for ch in stem):
        return None
    if strategy == "chapters" and stem[:1].isdigit():
        return None
    # Shown as the note's title where the title is the same name ("Redflag" for redflag.md).
    return title if ent.normalize_entity(title) == ent.normalize_entity(stem) else stem


def _title(rel_path: str, fm: dict[str, Any], doc: Doc) -> tuple[str, int | None]:
    """Frontmatter ``title``, else the first ``# `` heading (and its line), else the file stem."""
    value = fm.get("title")
    if isinstance(value, str | int | float) and str(value).strip():
        return " ".join(str(value).split()), None
    heading = doc.first_title_heading
    if heading is not None:
        return heading.text, heading.line
    return PurePosixPath(rel_path).stem, None


def _fact_type(fm: dict[str, Any], default: str, warnings: list[str]) -> Any:
    """Frontmatter ``fact_type`` if it is one, else the territory's (a value that is none is named
    in ``warnings``: ``fact_type: banana`` was ignored without a word)."""
    value = fm.get("fact_type")
    if isinstance(value, str) and value.strip().lower() in FACT_TYPES:
        return value.strip().lower()
    if value is not None:
        choices = " or ".join(sorted(FACT_TYPES))
        warnings.append(
            f"frontmatter `fact_type` {value!r} is not {choices}; the territory's ({default}) is used"
        )
    return default


def _file_date(rel_path: str, fm: dict[str, Any], warnings: list[str]) -> tuple[datetime, str, str] | None:
    """(timestamp, source, date as written) from frontmatter, else from the file name; a date key
    whose value is no date the calendar and UTC hold is warned about (``2025-13-45``,
    ``9999-12-31T23:00-12:00``: the year 10000 in UTC)."""
    lowered = {k.lower(): v for k, v in fm.items()}
    for key in _DATE_KEYS:
        value = lowered.get(key)
        if isinstance(value, str) and (when := dates.parse_datetime(value)):
            return when, "frontmatter", value.strip()
        if value is not None and value != "":
            warnings.append(f"frontmatter `{key}` {str(value)[:60]!r} is not a date (ignored)")
    when = dates.date_from_filename(rel_path)
    if when is not None:
        return when, "filename", when.date().isoformat()
    return None


def _heading(doc: Doc, piece: Segment, strategy: str, title: str) -> str:
    """The nearest heading in force at the chunk's content; else the chapter title or the entry's date."""
    for heading in reversed(doc.headings_at_content(piece.start, piece.end)):
        if heading.text:
            return heading.text
    if strategy == "chapters":
        return title
    if piece.source in ("line", "heading"):
        return piece.date_text
    return ""


def _description(fm: dict[str, Any]) -> str | None:
    """The frontmatter's description of the note (``description``, else ``summary``), on one line."""
    for key in _DESCRIPTION_KEYS:
        value = fm.get(key)
        if isinstance(value, str) and value.strip():
            return _shorten(" ".join(value.split()), MAX_DESCRIPTION_CHARS)
    return None


def _header(doc: Doc, piece: Segment, body: str, title: str, title_line: int | None, dated: bool) -> str:
    """File title > enclosing headings (not those in the chunk itself) [— the entry's date]."""
    path = [h for h in doc.enclosing[piece.start] if h.text]
    parts: list[str] = []
    in_force = doc.headings_at_content(piece.start, piece.end)
    # a title taken from the first "# " heading gives way to the "# " heading this chunk is under
    title_in_path = title_line is not None and any(h.level == 1 for h in in_force)
    title_in_chunk = title_line is not None and piece.start <= title_line <= piece.end
    if title and not title_in_path and not title_in_chunk:
        parts.append(title)
    parts.extend(h.text for h in path)
    deduped: list[str] = []
    for part in parts:
        part = _shorten(" ".join(part.split()), _MAX_PART)
        if not deduped or deduped[-1].casefold() != part.casefold():
            deduped.append(part)
    header = " > ".join(deduped)
    if len(header) > MAX_HEADER_CHARS and len(deduped) > 2:
        header = " > ".join([deduped[0], "…", deduped[-1]])
    when = " ".join(piece.date_text.split())
    if (
        dated
        and piece.timestamp is not None
        and when
        and when.casefold() not in header.casefold()
        and when.casefold() not in body.casefold()
    ):
        header = f"{header} — {_shorten(when, _MAX_PART)}" if header else _shorten(when, _MAX_PART)
    return _shorten(header, MAX_HEADER_CHARS)


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
