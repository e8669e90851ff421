"""Hostile and broken input: the chunkers, the query parser and the indexer never crash or hang.

CI runs a fixed budget with fixed seeds; set MEMSEARCH_FUZZ_EXAMPLES (e.g. 5000) for a longer run.
The number of inputs tried is printed in the test summary ("fuzz: ... inputs").
"""

from __future__ import annotations

import os
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest
from fuzz_counts import COUNTS
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from memsearch.api import index_vault, open_index
from memsearch.chunkers import chunk_file
from memsearch.config import Settings
from memsearch.errors import QueryError
from memsearch.index.graph import EntityGraph
from memsearch.query import parse_query

EXAMPLES = int(os.environ.get("MEMSEARCH_FUZZ_EXAMPLES", "150"))
SEED = 20261130
#: Every single input must finish well inside this (a hang is a failure, not a slow test).
PER_INPUT_SECONDS = 5.0
SETTINGS = Settings(max_chunk_chars=300)
PATHS = [
    "system/covenant/x.md",
    "reference/x.md",
    "journal/2025-03-11.md",
    "aster/ledger/2025-03.md",
    "literature/book.md",
    "archive/2024.md",
    "notes/x.md",
]

fuzz = settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=False
)

# Markdown-shaped lines, with the hostile kinds of text the issue names mixed in.
_unicode_bits = st.sampled_from(
    [
        "\u200f",
        "\u200b",
        "\u202e",
        "e\u0301",
        "\U0001f600",
        "\u05e9\u05dc\u05d5\u05dd",
        "\ufeff",
        "\x00",
        "\t",
    ]
)
_line = st.one_of(
    st.text(max_size=80),
    st.sampled_from(
        [
            "---",
            "```",
            "~~~",
            "```python",
            "# Title",
            "## Section",
            "### Deep",
            "",
            " ",
            "- item",
            "> quote",
            "- 2025-03-26T14:02Z observed",
            "## 2024-03-26",
            "# 1:56 pm on 8 May, 2023",
            "[[Link|alias]]",
            "#tag and #123",
            "title: [unclosed",
            "tags: !!python/object/apply:os.system ['true']",
            "a: &a [*a]",
            "**Caroline**: hi",
            "2025-02-30 not a date",
            "| a | b |",
        ]
    ),
    st.builds(lambda a, b: a + b, st.text(max_size=20), _unicode_bits),
)
_document = st.lists(_line, max_size=60).map("\n".join)


def _check_chunks(text: str, parsed) -> None:
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    covered: set[int] = set()
    last_end = 0
    for chunk in parsed.chunks:
        assert 1 <= chunk.start_line <= chunk.end_line <= len(lines)
        assert chunk.start_line > last_end, "chunks overlap or are out of order"
        last_end = chunk.end_line
        assert chunk.text == "\n".join(lines[chunk.start_line - 1 : chunk.end_line])
        covered.update(range(chunk.start_line, chunk.end_line + 1))
    uncovered = [i for i, line in enumerate(lines, 1) if line.strip() and i not in covered]
    if uncovered:
        # Only a frontmatter block at the top may stay out of the chunks.
        assert lines[0].strip() == "---", uncovered
        close = next(i for i, line in enumerate(lines[1:], 2) if line.strip() in ("---", "..."))
        assert max(uncovered) <= close, uncovered


@seed(SEED)
@fuzz
@given(
    st.sampled_from(PATHS),
    st.one_of(_document, st.text(), st.binary().map(lambda b: b.decode("utf-8", "replace"))),
)
def test_chunkers_survive_any_text(path, text):
    COUNTS["chunker inputs"] += 1
    started = time.monotonic()
    parsed = chunk_file(path, text, SETTINGS)
    assert time.monotonic() - started < PER_INPUT_SECONDS
    _check_chunks(text, parsed)


@seed(SEED)
@fuzz
@given(
    st.one_of(st.text(), _document),
    st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30)),
)
def test_query_parser_survives_any_text(query, now):
    COUNTS["query inputs"] += 1
    graph = EntityGraph()
    graph.add(0, ["Redflag", "Ed Kowalski"])
    try:
        parsed = parse_query(query, graph, now=now.replace(tzinfo=UTC))
    except QueryError as exc:
        assert "empty" in str(exc)
        return
    if parsed.window is not None:
        assert parsed.window.start < parsed.window.end


@pytest.mark.parametrize(
    ("name", "text"),
    [
        (  # billion laughs: nine levels of four aliases each
            "yaml bomb",
            "---\na: &a [x, x, x, x, x, x, x, x, x]\n"
            + "".join(
                f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 4)}]\n" for i in range(9)
            )
            + "---\n# Bomb\n\nbody\n",
        ),
        (
            "object tag",
            "---\ntitle: !!python/object/apply:os.system ['touch /tmp/memsearch-pwned']\n---\nbody\n",
        ),
        ("unterminated frontmatter", "---\ntitle: x\n# never closed\n\nbody\n"),
        ("unterminated fence", "# A\n\n```python\ndef f():\n\n    return 1\n"),
        ("huge line", "# Huge\n\n" + "word " * 400_000),
        ("deep nesting", "\n".join(">" * i + " level" for i in range(2000))),
        ("deep list", "\n".join("  " * i + "- item" for i in range(2000))),
        ("only blank", "\n\n   \n\t\n"),
        ("control characters", "# \x00\x01\x02\n\n\x0b\x0c\x1c\u2028text\u2029\n"),
    ],
)
def test_named_hostile_files(name, text):
    COUNTS["named hostile files"] += 1
    for path in PATHS:
        started = time.monotonic()
        parsed = chunk_file(path, text, Settings())
        assert time.monotonic() - started < 3 * PER_INPUT_SECONDS, name
        _check_chunks(text, parsed)
    assert not Path("/tmp/memsearch-pwned").exists()


def test_hostile_vault_is_indexed_around_what_cannot_be(tmp_path, monkeypatch):
    vault = tmp_path / "vault"
    (vault / "notes").mkdir(parents=True)
    (vault / "notes" / "good.md").write_text("# Good\n\nThe quokka keeps a ledger.\n")
    (vault / "binary.md").write_bytes(bytes(range(256)) * 4)
    (vault / "big.md").write_bytes(b"# Big\n\n" + b"x" * (50 * 1024 * 1024))
    (vault / "loop").symlink_to(vault, target_is_directory=True)
    outside = tmp_path / "secret.md"
    outside.write_text("# Secret\n\noutside the vault\n")
    (vault / "escape.md").symlink_to(outside)
    (vault / "vanishing.md").write_text("# Vanishing\n\ngone before it is read\n")

    import memsearch.scan as scan

    real_read = scan.read_file

    def read_then_vanish(vault_root, path, rel=None):
        if Path(path).name == "vanishing.md":
            Path(path).unlink()
        return real_read(vault_root, path, rel)

    monkeypatch.setattr(scan, "read_file", read_then_vanish)
    monkeypatch.setattr("memsearch.indexer.prepare.read_file", read_then_vanish)
    started = time.monotonic()
    report = index_vault(vault, embed=False)
    assert time.monotonic() - started < 60
    reasons = {s.path: s.reason for s in report.skipped}
    assert "binary" in reasons["binary.md"]
    assert "MB" in reasons["big.md"]
    assert "outside the vault" in reasons["escape.md"]
    assert "vanishing.md" in reasons
    engine = open_index(vault)
    assert engine.search("quokka ledger", k=1).results[0].path == "notes/good.md"
    assert not engine.search("outside the vault", k=5, strategies=["keyword"]).results


def test_many_tiny_files(tmp_path):
    """A vault of many tiny files (100,000 with MEMSEARCH_FUZZ_TINY_FILES=100000)."""
    count = int(os.environ.get("MEMSEARCH_FUZZ_TINY_FILES", "3000"))
    vault = tmp_path / "vault"
    for i in range(count):
        folder = vault / f"d{i % 50}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"n{i}.md").write_text(f"note {i} about item{i}\n")
    COUNTS["tiny files indexed"] += count
    report = index_vault(vault, embed=False)
    assert report.files == count and report.chunks == count and not report.skipped
    assert open_index(vault).search(f"item{count - 1}", k=1).results[0].path.endswith(f"n{count - 1}.md")
