"""Chunkers: exact line ranges on small inputs, one test per rule, and coverage properties."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memsearch.chunkers import chunk_file
from memsearch.chunkers.document import Doc, split_lines
from memsearch.chunkers.frontmatter import split_frontmatter
from memsearch.config import Settings
from memsearch.errors import ChunkingError
from memsearch.fences import fence_ids
from memsearch.models import ParsedFile

VAULT = Path(__file__).parent.parent / "fixtures" / "vault"
S = Settings()


def parse(path: str, text: str, **changes: object) -> ParsedFile:
    return chunk_file(path, text, replace(S, **changes) if changes else S)


def spans(path: str, text: str, **changes: object) -> list[tuple[int, int]]:
    return [(c.start_line, c.end_line) for c in parse(path, text, **changes).chunks]


def md(*lines: str) -> str:
    return "\n".join(lines) + "\n"


def utc(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)


# ----------------------------------------------------------------------------------------- sections


def test_sections_split_at_h1_and_h2_deeper_headings_stay_inside():
    text = md(
        "Preamble line.",  # 1
        "",
        "# Redflag",  # 3
        "Intro.",
        "",
        "## Signing keys",  # 6
        "Ed25519.",
        "### Rotation",  # 8
        "Quarterly.",
        "## Contacts",  # 10
        "Ed.",
    )
    assert spans("reference/redflag.md", text) == [(1, 1), (3, 4), (6, 9), (10, 11)]


def test_sections_split_at_setext_headings_as_at_atx_ones():
    """ "Boiler\\n======" and "Service\\n-------" are a level-1 and a level-2 heading (CommonMark), in a
    file with CRLF line ends too; a paragraph of two lines above a line of dashes, a list item or a
    table row is no heading."""
    text = md(
        "Boiler notes",  # 1
        "============",
        "",
        "A Vaillant ecoTEC.",
        "",
        "Service",  # 6
        "-------",
        "",
        "Annual, by Zoë Müller.",
        "",
        "Pressure",  # 11
        "--",
        "Refill to 1.4 bar.",
    )
    assert spans("reference/boiler.md", text) == [(1, 4), (6, 9), (11, 13)]
    assert spans("reference/boiler.md", text.replace("\n", "\r\n")) == [(1, 4), (6, 9), (11, 13)]
    parsed = parse("reference/boiler.md", text)
    assert parsed.title == "Boiler notes" and parsed.chunks[1].heading == "Service"
    not_headings = md(
        "# Notes", "", "First line", "second line", "---", "- an item", "---", "| a | b |", "---"
    )
    assert spans("reference/notes.md", not_headings) == [(1, 9)]


def test_a_lone_carriage_return_in_a_file_of_line_feeds_ends_no_line():
    """As grep -n, sed -n and wc -l count: a progress bar pasted from a terminal ("10%\r 100%") put
    every later anchor two lines below its line. A file of carriage returns alone (old Macs) is
    still read line by line."""
    text = md("# Log", "", "## A", "", "p 10%\r p 50%\r p 100%", "done", "", "## B", "", "f")
    assert split_lines(text)[4] == "p 10%\r p 50%\r p 100%"
    assert spans("reference/log.md", text) == [(1, 6), (8, 10)]
    assert spans("reference/log.md", text.replace("\n", "\r\n")) == [(1, 6), (8, 10)]
    old_mac = text.replace("\r", " ").replace("\n", "\r")
    assert spans("reference/log.md", old_mac) == [(1, 6), (8, 10)]


def test_sections_bare_title_joins_its_first_child_section_but_empty_sibling_stays():
    text = md("# Redflag", "", "## Overview", "Text.", "## Empty", "## Next", "More.")
    assert spans("reference/redflag.md", text) == [(1, 4), (5, 5), (6, 7)]


def test_sections_header_is_title_and_heading_path_without_the_chunks_own_heading():
    text = md(
        "---",
        "title: Redflag",
        "---",
        "# Redflag",  # 4
        "Intro.",
        "## Signing keys",  # 6
        "Ed25519 keys.",
        "### Rotation",  # 8
        "Quarterly.",
    )
    pf = parse("reference/redflag.md", text, max_chunk_chars=30)
    by_start = {c.start_line: c for c in pf.chunks}
    assert by_start[4].header == "Redflag"
    assert by_start[6].header == "Redflag"  # "Signing keys" is its own first line
    assert by_start[6].heading == "Signing keys"
    assert by_start[8].header == "Redflag > Signing keys"  # split off by the over-long rule
    assert by_start[8].heading == "Rotation"


def test_sections_header_uses_other_h1_instead_of_title_from_first_heading():
    text = md("# Alpha", "a", "# Beta", "b", "## Sub", "c")
    chunks = parse("notes.md", text).chunks
    assert [c.header for c in chunks] == ["", "", "Beta"]
    assert parse("notes.md", text).title == "Alpha"


def test_sections_timestamp_from_frontmatter_then_filename_then_none():
    fm = md("---", "updated: 2025-01-02", "created: 2024-12-01", "---", "Body.")
    c = parse("reference/x.md", fm).chunks[0]
    assert (c.timestamp, c.timestamp_source) == (utc(2024, 12, 1), "frontmatter")
    c = parse("reference/2025-02-03-notes.md", "Body.\n").chunks[0]
    assert (c.timestamp, c.timestamp_source) == (utc(2025, 2, 3), "filename")
    c = parse("reference/notes.md", "Body.\n").chunks[0]
    assert (c.timestamp, c.timestamp_source) == (None, "none")


@pytest.mark.parametrize("written", ["sometime soon", "9999-12-31T23:00:00-12:00", "2024"])
def test_a_frontmatter_date_that_is_no_date_is_warned_about_and_the_file_dated_otherwise(written):
    # 9999-12-31T23:00-12:00 is the year 10000 in UTC: kept, it failed every yearless search later.
    parsed = parse("reference/2025-02-03-notes.md", md("---", f"date: {written}", "---", "Body."))
    (c,) = parsed.chunks
    assert (c.timestamp, c.timestamp_source) == (utc(2025, 2, 3), "filename")
    assert any("frontmatter `date`" in w and "is not a date" in w for w in parsed.warnings)


def test_sections_dated_heading_dates_its_section():
    text = md("# Notes", "Undated.", "## 2025-03-12 — after the rotation", "It went well.")
    chunks = parse("aster/notes.md", text).chunks
    assert chunks[0].timestamp is None
    assert (chunks[1].timestamp, chunks[1].timestamp_source) == (utc(2025, 3, 12), "heading")


def test_hash_tag_and_headings_inside_fences_are_not_headings():
    text = md("## Real", "#notaheading", "```", "# not a heading", "## nor this", "```", "after")
    assert spans("system/x.md", text) == [(1, 7)]


# ------------------------------------------------------------------------------------------ journal

LOCOMO = (
    "# 1:56 pm on 8 May, 2023\n"
    "\n"
    "Caroline: Hey Mel! Good to see you! How have you been?\n"
    "\n"
    "Melanie: Hey Caroline! Good to see you! I'm swamped with the kids & work. "
    "[shares a photo of a family at the beach]\n"
    "\n"
    "Caroline: I went to a LGBTQ support group yesterday and it was so powerful.\n"
)


def test_journal_locomo_session_gives_one_chunk_per_turn():
    pf = parse("journal/2023-05-08-session-01.md", LOCOMO)
    assert [(c.start_line, c.end_line) for c in pf.chunks] == [(1, 3), (5, 5), (7, 7)]
    assert all(c.timestamp == utc(2023, 5, 8, 13, 56) for c in pf.chunks)
    assert all(c.timestamp_source == "heading" for c in pf.chunks)
    assert all(c.heading == "1:56 pm on 8 May, 2023" for c in pf.chunks)
    # the first turn holds the heading line itself; the others name it in their header
    assert [c.header for c in pf.chunks] == ["", "1:56 pm on 8 May, 2023", "1:56 pm on 8 May, 2023"]
    assert pf.chunks[1].text.startswith("Melanie:")
    assert all(c.fact_type == "experience" and c.territory == "journal" for c in pf.chunks)


def test_journal_blank_lines_and_headings_separate_entries():
    text = md(
        "# 2025-03-11",  # 1
        "",
        "Morning: one.",  # 3
        "still morning.",
        "",
        "Afternoon: two.",  # 6
        "## Evening",  # 7: a heading starts an entry even without a blank line
        "Walked.",
        "",
        "",
        "- a",  # 11: a list with no blank line is one paragraph
        "- b",
    )
    assert spans("journal/x.md", text) == [(1, 4), (6, 6), (7, 8), (11, 12)]


def test_journal_fenced_block_with_blank_lines_stays_in_one_chunk():
    text = md("Code:", "```", "a = 1", "", "b = 2", "```", "", "After.")
    assert spans("journal/x.md", text) == [(1, 6), (8, 8)]


def test_journal_heading_followed_by_heading_joins_the_first_paragraph():
    text = md("# 2025-03-11", "", "## Morning", "", "Coffee.", "", "Tea.")
    pf = parse("journal/x.md", text)
    assert [(c.start_line, c.end_line) for c in pf.chunks] == [(1, 5), (7, 7)]
    assert pf.chunks[0].heading == "Morning"
    assert pf.chunks[1].header == "2025-03-11 > Morning"


def test_journal_timestamp_sources():
    text = md(
        "---",
        "date: 2025-01-05",
        "---",
        "Plain paragraph.",  # 4: frontmatter
        "",
        "2025-01-06 09:00 A dated paragraph.",  # 6: line
        "",
        "# 7 January 2025",  # 8: heading
        "Under the heading.",
        "",
        "May 2025 will be busy.",  # 11: a month at the start never overrides a heading
        "",
        "2025-01-09 Postscript.",  # 13: a full date does
    )
    got = [(c.start_line, c.timestamp, c.timestamp_source) for c in parse("journal/x.md", text).chunks]
    assert got == [
        (4, utc(2025, 1, 5), "frontmatter"),
        (6, utc(2025, 1, 6, 9), "line"),
        (8, utc(2025, 1, 7), "heading"),
        (11, utc(2025, 1, 7), "heading"),
        (13, utc(2025, 1, 9), "line"),
    ]
    c = parse("journal/2025-02-01.md", "Nothing dated.\n").chunks[0]
    assert (c.timestamp, c.timestamp_source, c.header) == (utc(2025, 2, 1), "filename", "2025-02-01")
    c = parse("journal/diary.md", "---\ndate: 2025-01-05\n---\nText.\n").chunks[0]
    assert c.header == "diary — 2025-01-05"  # a dated entry names its date when its text does not


# ------------------------------------------------------------------------------------------- ledger


def test_ledger_one_timed_line_per_chunk_with_continuations():
    text = md(
        "Preamble about this ledger.",  # 1
        "",
        "- 2025-03-03 09:14 — Opened the rotation.",  # 3
        "- 2025-03-05 16:40 — Mara approved the key.",  # 4
        "  - ceremony on the backup token",
        "  continued here",
        "- [2025-03-11 11:02] Rotated the keys.",  # 7
        "",
        "**2025-03-18** Ed asked for a checklist.",  # 9
        "    indented note",
    )
    pf = parse("aster/ledger/2025-03.md", text)
    assert [(c.start_line, c.end_line) for c in pf.chunks] == [(1, 1), (3, 3), (4, 6), (7, 7), (9, 10)]
    got = [(c.timestamp, c.timestamp_source) for c in pf.chunks]
    assert got == [
        (utc(2025, 3, 1), "filename"),
        (utc(2025, 3, 3, 9, 14), "line"),
        (utc(2025, 3, 5, 16, 40), "line"),
        (utc(2025, 3, 11, 11, 2), "line"),
        (utc(2025, 3, 18), "line"),
    ]
    assert pf.chunks[1].heading == "2025-03-03 09:14"


def test_ledger_heading_joins_the_entry_below_it():
    text = md("# Ledger — March 2025", "", "- 2025-03-03 Opened.", "## Week 11", "- 2025-03-11 Rotated.")
    pf = parse("aster/ledger/2025-03.md", text)
    assert [(c.start_line, c.end_line) for c in pf.chunks] == [(1, 3), (4, 5)]
    assert pf.chunks[1].timestamp == utc(2025, 3, 11)
    assert pf.chunks[1].header == "Ledger — March 2025"
    assert pf.chunks[1].heading == "Week 11"


# ----------------------------------------------------------------------------------------- chapters


def test_chapters_split_at_h1_only():
    text = md("---", "title: The Long Key", "---", "# One", "a", "## Scene", "b", "# Two", "c")
    pf = parse("literature/the-long-key.md", text)
    assert [(c.start_line, c.end_line) for c in pf.chunks] == [(4, 7), (8, 9)]
    assert [c.heading for c in pf.chunks] == ["One", "Two"]
    assert [c.header for c in pf.chunks] == ["The Long Key", "The Long Key"]


def test_chapters_file_without_heading_is_one_chapter_titled_by_frontmatter():
    text = md("---", "title: A Short Story", "---", "First paragraph.", "", "Second paragraph.")
    pf = parse("literature/story.md", text)
    assert [(c.start_line, c.end_line) for c in pf.chunks] == [(4, 6)]
    assert pf.chunks[0].heading == "A Short Story"
    assert pf.title == "A Short Story"


def test_chapters_under_a_single_title_are_its_h2_headings_and_the_bare_title_joins_the_first():
    text = md(
        "# The Long Key",  # 1
        "",
        "## Chapter 1: The Drawer",  # 3
        "The token slept in its drawer.",
        "",
        "## Chapter 2: The Audit",  # 6
        "Ninety days later the auditor came.",
        "### A scene",  # 8
        "She asked for the key.",
    )
    pf = parse("literature/the-long-key.md", text)
    assert [(c.start_line, c.end_line) for c in pf.chunks] == [(1, 4), (6, 9)]
    assert [c.heading for c in pf.chunks] == ["Chapter 1: The Drawer", "Chapter 2: The Audit"]
    assert pf.title == "The Long Key"


def test_chapters_preamble_with_content_under_the_title_is_its_own_chunk():
    text = md("# Book", "An epigraph, for the reader.", "## Chapter 1", "a", "## Chapter 2", "b")
    pf = parse("literature/book.md", text)
    assert [(c.start_line, c.end_line) for c in pf.chunks] == [(1, 2), (3, 4), (5, 6)]
    assert [c.heading for c in pf.chunks] == ["Book", "Chapter 1", "Chapter 2"]


def test_chapters_with_a_frontmatter_title_and_no_h1_are_the_h2_headings():
    text = md("---", "title: Letters Home", "---", "## First letter", "a", "", "## Second letter", "b")
    pf = parse("literature/letters.md", text)
    assert [(c.start_line, c.end_line) for c in pf.chunks] == [(4, 5), (7, 8)]
    assert [c.heading for c in pf.chunks] == ["First letter", "Second letter"]
    assert [c.header for c in pf.chunks] == ["Letters Home", "Letters Home"]


def test_chapters_h2_inside_a_fence_is_not_a_chapter():
    text = md("# Book", "## Chapter 1", "```", "## not a chapter", "```", "## Chapter 2", "b")
    assert spans("literature/book.md", text) == [(1, 5), (6, 7)]


def test_chapters_long_chapter_is_split_with_header():
    paragraph = "The token slept in its drawer for ninety days. " * 3
    text = md("# One", paragraph, "", paragraph, "", paragraph, "", paragraph)
    pf = parse("literature/x.md", text, max_chunk_chars=350)
    assert [(c.start_line, c.end_line) for c in pf.chunks] == [(1, 4), (6, 8)]
    assert [c.header for c in pf.chunks] == ["", "One"]
    assert all(c.heading == "One" for c in pf.chunks)


# ------------------------------------------------------------------------------------------ archive


def test_archive_splits_at_separators_and_month_boundaries():
    text = md(
        "# Archive 2024",  # 1
        "## November 2024",  # 2
        "- 2024-11-04 Decided to move off RSA.",
        "- 2024-11-20 Reviewed the proposal.",
        "",
        "---",  # 6 closes the chunk above
        "",
        "Notes from the review.",  # 8
        "## Misc",  # 9: undated heading right above a new month goes with it
        "- 2024-12-02 Ordered tokens.",  # 10
        "- 2024-12-16 First signature.",
        "```",  # 12: a fence is never cut, and dates inside it do not count
        "2025-01-01 not a boundary",
        "```",
        "- 2025-01-03 New year.",  # 15
    )
    pf = parse("archive/2024.md", text)
    assert [(c.start_line, c.end_line) for c in pf.chunks] == [(1, 6), (8, 8), (9, 14), (15, 15)]
    got = [(c.timestamp, c.timestamp_source) for c in pf.chunks]
    assert got == [
        (utc(2024, 11, 1), "heading"),
        (utc(2024, 11, 20), "line"),  # no date of its own: the last one above it
        (utc(2024, 12, 2), "line"),
        (utc(2025, 1, 3), "line"),
    ]
    assert pf.chunks[1].header == "Archive 2024 > November 2024 — 2024-11-20"


def test_archive_separator_at_top_joins_the_chunk_below():
    assert spans("archive/x.md", md("---", "", "First.", "---", "Second.")) == [(1, 4), (5, 5)]


# ---------------------------------------------------------------------------------------- over-long


def test_overlong_prefers_heading_then_blank_then_sentence_then_line():
    a, b = "a" * 40, "b" * 40
    heading = md(a, a, "### H", b, "", b)
    assert spans("system/x.md", heading, max_chunk_chars=100) == [(1, 2), (3, 6)]
    blank = md(a, "", a, a, b)
    assert spans("system/x.md", blank, max_chunk_chars=130) == [(1, 1), (3, 5)]
    sentence = md(a, a + ".", b, b)
    assert spans("system/x.md", sentence, max_chunk_chars=130) == [(1, 2), (3, 4)]
    lines = md(a, a, b, b)
    assert spans("system/x.md", lines, max_chunk_chars=130) == [(1, 2), (3, 4)]


def test_overlong_pieces_are_even_and_keep_header():
    text = md("# Title", *[f"Sentence number {i} is here." for i in range(30)])
    pf = parse("system/x.md", text, max_chunk_chars=300)
    sizes = [len(c.text) for c in pf.chunks]
    assert all(s <= 300 for s in sizes)
    assert max(sizes) - min(sizes) < 60
    assert [c.header for c in pf.chunks[1:]] == ["Title"] * (len(pf.chunks) - 1)


def test_overlong_never_splits_a_fence_and_keeps_unsplittable_whole():
    code = ["```", *[f"line_{i} = {i}" for i in range(20)], "```"]
    text = md("Intro.", *code, "Outro.")
    got = spans("system/x.md", text, max_chunk_chars=60)
    assert got == [(1, 1), (2, 23), (24, 24)]
    long_line = "word " * 100
    assert spans("system/x.md", long_line, max_chunk_chars=50) == [(1, 1)]


# ------------------------------------------------------------------------------- fact type, titles


def test_fact_type_frontmatter_wins_over_territory():
    assert parse("journal/x.md", "Text.\n").chunks[0].fact_type == "experience"
    assert parse("reference/x.md", "Text.\n").chunks[0].fact_type == "world"
    fm = "---\nfact_type: World\n---\nText.\n"
    assert parse("journal/x.md", fm).chunks[0].fact_type == "world"
    bogus = "---\nfact_type: opinion\n---\nText.\n"
    assert parse("journal/x.md", bogus).chunks[0].fact_type == "experience"


def test_title_from_frontmatter_then_first_h1_then_stem():
    assert parse("a/b/note.md", "---\ntitle: Given\n---\n# Heading\n").title == "Given"
    assert parse("a/b/note.md", "## Sub\n# Heading\n").title == "Heading"
    assert parse("a/b/note.md", "## Sub\ntext\n").title == "note"


def test_chunk_entities_are_body_plus_frontmatter():
    text = md("---", "title: Redflag", "aliases: [RF]", "tags: [security]", "---", "Ask Ed Kowalski.")
    pf = parse("reference/redflag.md", text)
    assert pf.aliases == {"RF": "Redflag"}
    assert pf.chunks[0].entities == ("Ed Kowalski", "Redflag", "security", "RF")


@pytest.mark.parametrize("value", ["2025-02-30", "2025-13-45", "2025-02-30T10:00:00"])
def test_an_impossible_date_in_frontmatter_keeps_the_rest_of_it(value):
    # PyYAML's timestamp constructor raised on it, and the whole block was read as plain text: the
    # note's title, aliases and tags with it.
    text = md(
        "---",
        "title: Heron Pipeline",
        "aliases: [HPX]",
        "tags: [ingest]",
        f"updated: {value}",
        "---",
        "Body.",
    )
    pf = parse("reference/heron.md", text)
    assert pf.aliases == {"HPX": "Heron Pipeline"}
    assert pf.frontmatter["updated"] == value
    assert "ingest" in pf.chunks[0].entities


def test_a_thematic_break_between_entries_is_no_chunk_of_its_own():
    # The "---" between two journal entries was a search result that opened on nothing but "---".
    text = md("## 14:00", "", "Reviewed the kestrelbay design.", "", "---", "", "Evening walk by the canal.")
    pf = parse("journal/2025-03-11.md", text)
    assert [c.text for c in pf.chunks] == [
        "## 14:00\n\nReviewed the kestrelbay design.",
        "Evening walk by the canal.",
    ]


def test_a_setext_title_joins_the_first_chapter():
    # Its "===" underline counted as content: the bare title was a chunk of its own.
    text = md(
        "The Setext Book",
        "=" * 15,
        "",
        "Chapter Uno",
        "-" * 11,
        "",
        "Uno text.",
        "",
        "Chapter Dos",
        "-" * 11,
        "",
        "Dos.",
    )
    pf = parse("literature/book.md", text)
    assert [(c.start_line, c.end_line) for c in pf.chunks] == [(1, 7), (9, 12)]


# ------------------------------------------------------------------------------------ bad content


@pytest.mark.parametrize(
    ("front", "problem"),
    [
        ("---\ntitle: [unclosed\n---\n", "invalid YAML"),
        ("---\nx: !!python/object/apply:os.system ['echo hi']\n---\n", "invalid YAML"),
        ("---\n- a\n- b\n---\n", "not a mapping"),
        ("---\ntitle: never closed\n", "no closing"),
    ],
)
def test_malformed_frontmatter_is_plain_text_with_a_warning(front, problem):
    text = front + "Body line.\n"
    pf = parse("reference/x.md", text)
    assert len(pf.warnings) == 1 and "malformed frontmatter" in pf.warnings[0] and problem in pf.warnings[0]
    assert pf.frontmatter == {}
    assert pf.chunks[0].start_line == 1
    assert pf.chunks[-1].text.endswith("Body line.")


def test_frontmatter_values_are_json_safe_and_lines_count_from_the_file_top():
    text = md("---", "date: 2025-03-11", "tags: [a, b]", "---", "", "Body.")
    pf = parse("journal/x.md", text)
    assert pf.frontmatter == {"date": "2025-03-11", "tags": ["a", "b"]}
    assert spans("journal/x.md", text) == [(6, 6)]


@pytest.mark.parametrize("text", ["", "\n\n", "   \n\t\n", "---\n---\n", "---\n\n---\n\n"])
def test_empty_files_give_no_chunks(text):
    for path in ("system/x.md", "journal/x.md", "aster/ledger/x.md", "literature/x.md", "archive/x.md"):
        assert parse(path, text).chunks == ()


def test_a_note_that_is_all_frontmatter_is_one_chunk_of_it():
    # A person's card (a title, aliases, a description) was no chunk: its words were nowhere.
    text = md("---", "title: Solitary Reaper", "aliases: [SR]", "description: On the wyvernstat.", "---")
    for path in ("reference/x.md", "journal/x.md", "archive/x.md"):
        (chunk,) = parse(path, text).chunks
        assert (chunk.start_line, chunk.end_line) == (1, 5) and "wyvernstat" in chunk.text
        assert "Solitary Reaper" in chunk.entities


def test_a_notes_frontmatter_description_is_searched_with_its_first_passage():
    # "description: Hal's physiotherapist" on a card whose body says "Treats the disc trouble":
    # the description's words were nowhere in the index once the note had a body.
    text = md(
        "---",
        "title: Vesna Vukovic",
        "description: Hal's physiotherapist at the Kvitsund clinic.",
        "---",
        "# Vesna Vukovic",
        "",
        "Treats the disc trouble.",
        "",
        "## Hours",
        "",
        "Tuesdays and Thursdays.",
    )
    first, second = parse("reference/people/vesna.md", text).chunks
    assert "physiotherapist" in first.header and "physiotherapist" not in first.text
    assert "physiotherapist" not in second.header
    summary = md("---", "summary: Notes on hide glue.", "---", "Warm it to sixty degrees.")
    (chunk,) = parse("reference/glue.md", summary).chunks
    assert chunk.header.endswith("Notes on hide glue.")


def test_unterminated_fence_runs_to_end_of_file():
    text = md("# A", "text", "```", "# not a heading", "", "## nor this", "", "- 2025-03-03 not an entry")
    for path in ("system/x.md", "journal/x.md", "aster/ledger/x.md", "archive/x.md"):
        assert spans(path, text) == [(1, 8)], path


def test_crlf_input_gives_the_same_chunks_without_carriage_returns():
    for path in ("system/x.md", "journal/x.md"):
        lf = parse(path, LOCOMO)
        crlf = parse(path, LOCOMO.replace("\n", "\r\n"))
        assert [(c.start_line, c.end_line, c.text) for c in crlf.chunks] == [
            (c.start_line, c.end_line, c.text) for c in lf.chunks
        ]
        assert all("\r" not in c.text for c in crlf.chunks)


def test_chunking_error_only_for_bugs():
    with pytest.raises(ChunkingError):
        chunk_file("x.md", None, S)  # type: ignore[arg-type]


# --------------------------------------------------------------------------------- fixture vault


def test_fixture_vault_chunks_cleanly():
    files = sorted(VAULT.rglob("*.md"))
    assert 8 <= len(files) <= 15
    for path in files:
        rel = path.relative_to(VAULT).as_posix()
        text = path.read_text(encoding="utf-8")
        pf = check_invariants(rel, text, S)
        assert pf.warnings == (), rel
        assert pf.chunks, rel


def test_fixture_redflag_signing_keys_section_holds_its_code():
    text = (VAULT / "reference/redflag.md").read_text(encoding="utf-8")
    pf = parse("reference/redflag.md", text)
    keys = next(c for c in pf.chunks if c.heading == "Signing keys")
    assert "sign_ed25519" in keys.text and "### Rotation" in keys.text
    assert {"Ed25519", "Redflag", "RF"} <= set(keys.entities)
    assert pf.aliases == {"RF": "Redflag", "red flag": "Redflag"}


# ------------------------------------------------------------------------------------- properties

PATHS = {
    "sections": "system/x.md",
    "journal": "journal/2025-03-11.md",
    "ledger": "aster/ledger/2025-03.md",
    "chapters": "literature/x.md",
    "archive": "archive/2024.md",
}
LINES = [
    "",
    "",
    "",
    "# Title",
    "## Section",
    "### Deep",
    "#tag line",
    "Plain text line.",
    "Ed Kowalski met Mara in New York.",
    "- 2025-03-14 10:00 rotated keys",
    "  - sub bullet",
    "2025-04-01: a new month",
    "# 8 May 2023",
    "## March 2025",
    "```",
    "~~~",
    "```python",
    "---",
    "...",
    "x" * 90,
    "word " * 30,
    "title: x",
    "   ",
    "> quote",
    "1. item",
    "- [2025-03-15] bracket date",
    "**2025-05-02** bold date",
    "Sentence one. Sentence two!",
]
line_strategy = st.one_of(st.sampled_from(LINES), st.text(alphabet="ab #-`~\r\n.:[]*", max_size=12))


def check_invariants(path: str, text: str, s: Settings) -> ParsedFile:
    """Every rule of a chunking that holds whatever the content."""
    pf = chunk_file(path, text, s)
    lines = split_lines(text)
    body_start = split_frontmatter(lines).body_start
    fences = fence_ids(lines, body_start)
    owner: dict[int, int] = {}
    prev_end = body_start
    if body_start and pf.chunks and pf.chunks[0].start_line == 1:  # a note that is all frontmatter:
        assert len(pf.chunks) == 1 and pf.chunks[0].end_line == body_start  # one chunk of it
        prev_end = 0
    for k, c in enumerate(pf.chunks):
        assert prev_end < c.start_line <= c.end_line <= len(lines)
        prev_end = c.end_line
        assert c.text == "\n".join(lines[c.start_line - 1 : c.end_line])
        assert lines[c.start_line - 1].strip() and lines[c.end_line - 1].strip()
        assert len(c.header) <= 200
        assert c.timestamp is None or c.timestamp.tzinfo is not None
        assert (c.timestamp is None) == (c.timestamp_source == "none")
        for i in range(c.start_line - 1, c.end_line):
            owner[i] = k
        if len(c.text) > s.max_chunk_chars:  # only what has no allowed break inside may stay long
            inner = range(c.start_line, c.end_line)  # 0-based line indexes that could start a piece
            assert not any(
                lines[i].strip() and not (fences[i] >= 0 and fences[i] == fences[i - 1]) for i in inner
            ), (path, c.start_line, c.end_line)
    doc = Doc(lines, body_start)
    for i in range(body_start, len(lines)):
        if lines[i].strip() and not doc.is_break(i):  # a "---" alone between entries holds nothing
            assert i in owner, (path, i + 1, lines[i])
    per_fence: dict[int, set[int]] = {}
    for i, f in enumerate(fences):
        if f >= 0 and lines[i].strip():
            per_fence.setdefault(f, set()).add(owner[i])
    assert all(len(v) == 1 for v in per_fence.values())
    return pf


FRONTMATTERS = [
    "",
    "---\ntitle: T\ndate: 2025-01-02\n---\n",
    "---\n---\n",
    "---\ntitle: [broken\n---\n",
    "---\nx: !!python/name:os.system\n---\n",
    "---\na: &a [*a]\n---\n",
    "---\nnever closed\n",
]


@pytest.mark.parametrize("strategy", sorted(PATHS))
def test_chunks_cover_every_line_once_property(strategy):
    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    @given(
        lines=st.lists(line_strategy, max_size=40),
        limit=st.sampled_from([60, 200, 1500]),
        front=st.sampled_from(FRONTMATTERS),
        newline=st.sampled_from(["\n", "\r\n"]),
    )
    def run(lines, limit, front, newline):
        text = front + newline.join(lines)
        check_invariants(PATHS[strategy], text, replace(S, max_chunk_chars=limit))

    run()


def test_chapters_single_title_file_cuts_at_every_h2_property():
    """Under at most one ``#``, no chunk holds content above an unfenced ``##``: each is a chapter."""

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    @given(
        lines=st.lists(line_strategy, max_size=40),
        title=st.sampled_from(["", "# Book\n", "---\ntitle: Book\n---\n"]),
        limit=st.sampled_from([200, 1500]),
    )
    def run(lines, title, limit):
        text = title + "\n".join(line for line in lines if line != "# Title")
        pf = check_invariants("literature/x.md", text, replace(S, max_chunk_chars=limit))
        all_lines = split_lines(text)
        doc = Doc(all_lines, split_frontmatter(all_lines).body_start)  # levels are 0 inside fences
        if doc.level.count(1) > 1:
            return  # a second "#" heading: then the "#" headings are the chapters
        for c in pf.chunks:
            levels = doc.level[c.start_line - 1 : c.end_line]
            content = [not doc.blank[c.start_line - 1 + k] and not level for k, level in enumerate(levels)]
            for k, level in enumerate(levels):
                if level == 2:
                    assert not any(content[:k]), (c.start_line, c.end_line, c.start_line + k)

    run()


def test_byte_order_mark_does_not_hide_the_title():
    assert parse("x.md", "\ufeff# Title\ntext\n").title == "Title"
    assert parse("x.md", "\ufeff---\ntitle: T\n---\ntext\n").chunks[0].start_line == 4


# ------------------------------------------------------------------------------ a note's own name


def test_every_chunk_of_a_note_carries_the_notes_own_name():
    """A [[link]] to the note names its file: that name on every section connects all of it."""
    text = md(
        "---",
        "title: Hall sensor commutation",
        "---",
        "# Hall sensor commutation",
        "",
        "## How",
        "Six states.",
        "",
        "## Why",
        "Cheap and robust.",
    )
    pf = parse("reference/techniques/hall-sensor-commutation.md", text)
    assert len(pf.chunks) >= 2
    assert all("Hall sensor commutation" in c.entities for c in pf.chunks)


def test_a_note_whose_title_differs_carries_its_file_name():
    pf = parse("reference/places/marine-station.md", md("# Port Calder Marine Station", "", "Labs."))
    assert "marine-station" in pf.chunks[0].entities


def test_dated_entries_and_chapters_carry_no_name_of_their_own():
    journal = parse("journal/2025-03-11.md", md("# 2025-03-11", "", "Walked the canal."))
    chapter = parse("literature/book/02-fog.md", md("# Fog", "", "The fog came in."))
    assert not any("2025" in e for e in journal.chunks[0].entities)
    assert "02-fog" not in chapter.chunks[0].entities


def test_archived_notes_and_books_carry_their_file_name_as_linked_notes_do():
    """A link names them as it names a reference note ("see [[tally-postgres-plan]]"); a chapter
    named by its place in a book ("02-fog") stays nameless."""
    archived = parse("archive/tally-postgres-plan.md", md("## March 2023", "", "We priced Postgres."))
    book = parse("literature/the-lantern-fox.md", md("# The Lantern Fox", "", "## One", "", "A fox."))
    assert "tally-postgres-plan" in archived.chunks[0].entities
    assert all("The Lantern Fox" in c.entities for c in book.chunks)


def test_prose_aliases_join_the_files_aliases_and_frontmatter_wins():
    text = md(
        "---",
        "title: Glossary",
        "aliases: [Gloss]",
        "---",
        "- **KCB** - Kettle controller board",
        "- **Gloss** - something else",
    )
    pf = parse("reference/glossary.md", text)
    assert pf.aliases["KCB"] == "Kettle controller board"
    assert pf.aliases["Gloss"] == "Glossary"


def test_an_older_chunkers_index_is_chunked_again(monkeypatch):
    """The chunker's version is part of the settings fingerprint that decides a full re-chunk."""
    from memsearch.config import Settings
    from memsearch.indexer import writer

    before = writer.settings_fingerprint(Settings())
    monkeypatch.setattr(writer, "CHUNKER_VERSION", writer.CHUNKER_VERSION + 1)
    assert writer.settings_fingerprint(Settings()) != before


@pytest.mark.parametrize(
    ("field", "said"),
    [
        ("fact_type: banana", "frontmatter `fact_type` 'banana' is not experience or world"),
        ("fact_type: 7", "frontmatter `fact_type` 7 is not experience or world"),
        ("aliases: 5", "frontmatter `aliases` holds no name (5)"),
        ("tags: {a: b}", "frontmatter `tags` holds no name (a mapping)"),
    ],
)
def test_frontmatter_that_says_nothing_it_can_is_named_in_the_warnings(field, said):
    # Ignored without a word (a bad date is warned about): the note indexed as if it were not there.
    parsed = chunk_file("reference/x.md", f"---\n{field}\n---\n# X\n\nbody text\n", Settings())
    assert [w for w in parsed.warnings if w.startswith(said)], parsed.warnings
    assert parsed.chunks[0].fact_type == "world" and "body text" in parsed.chunks[0].text
    # A list with a name in it, an empty one, and a valid value say nothing.
    for quiet in ("tags: [rust, 2024]", "aliases: []", "fact_type: World", "tags:"):
        assert chunk_file("reference/x.md", f"---\n{quiet}\n---\n# X\n\nbody\n", Settings()).warnings == ()
