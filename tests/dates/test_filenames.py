"""memsearch.dates.filenames: a date encoded in a file name or path."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memsearch.dates import date_from_filename


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("journal/2023-05-08-session-01.md", utc(2023, 5, 8)),
        ("2023-05-08.md", utc(2023, 5, 8)),
        ("20230508-notes.md", utc(2023, 5, 8)),
        ("journal/2023/05/08.md", utc(2023, 5, 8)),
        ("journal/2023/5/8-evening.md", utc(2023, 5, 8)),
        ("archive/2024-03.md", utc(2024, 3, 1)),
        ("journal/2023/05/notes.md", utc(2023, 5, 1)),
        ("notes_2023_05_08.md", utc(2023, 5, 8)),
        ("journal\\2023-05-08.md", utc(2023, 5, 8)),
        ("2023-05-08/summary.md", utc(2023, 5, 8)),
        ("archive/2020-01-01/2023-05-08.md", utc(2023, 5, 8)),  # the file name wins
        # periodic notes: an ISO week gives its Monday, a quarter its first day
        ("journal/2025-W46.md", utc(2025, 11, 10)),
        ("weekly/2025-w01.md", utc(2024, 12, 30)),
        ("2026W02 review.md", utc(2026, 1, 5)),
        ("reviews/2025-Q4.md", utc(2025, 10, 1)),
        ("2024-q1-plan.md", utc(2024, 1, 1)),
        # a timestamp id (Zettelkasten, Zettlr, Obsidian's unique notes) gives its moment
        ("zettels/202311141230 Spaced repetition.md", utc(2023, 11, 14, 12, 30)),
        ("20240302091500 Interleaving.md", utc(2024, 3, 2, 9, 15)),
        ("inbox/202401010000.md", utc(2024, 1, 1)),
    ],
)
def test_date_from_filename(path: str, expected: datetime) -> None:
    assert date_from_filename(path) == expected


@pytest.mark.parametrize(
    "path",
    [
        "notes/readme.md",
        "reference/python-3.11.2.md",
        "contacts/5551234567.md",
        "x/2023-02-30.md",
        "x/2023-13-01.md",
        "x/18000101.md",
        "journal/session-01.md",
        "x/2025-W54.md",
        "x/2025-Q5.md",
        "reference/m2025w46x.md",
        "x/202311142460 late.md",
        "x/202311141299.md",
        "contacts/441234567890.md",
        "x/2023111412300.md",
        "",
    ],
)
def test_date_from_filename_rejects(path: str) -> None:
    assert date_from_filename(path) is None
