"""memsearch.dates.text: a date written in the vault, as a whole string or at the start of a line."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memsearch.dates import (
    find_leading_datetime,
    held_in_utc,
    parse_datetime,
    utc_from_timestamp,
)


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


# --------------------------------------------------------------------------- parse_datetime


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2023-05-08", utc(2023, 5, 8)),
        ("2023-05-08T14:02", utc(2023, 5, 8, 14, 2)),
        ("2023-05-08 14:02:11Z", utc(2023, 5, 8, 14, 2, 11)),
        ("2023-05-08T14:02:11.250Z", datetime(2023, 5, 8, 14, 2, 11, 250000, tzinfo=UTC)),
        ("2023-05-08T14:02:00+02:00", datetime(2023, 5, 8, 14, 2, tzinfo=timezone(timedelta(hours=2)))),
        (
            "2023-05-08T14:02:00-0530",
            datetime(2023, 5, 8, 14, 2, tzinfo=timezone(-timedelta(hours=5, minutes=30))),
        ),
        ("2023-05-08 14:02 UTC", utc(2023, 5, 8, 14, 2)),
        ("8 May 2023", utc(2023, 5, 8)),
        ("8 May, 2023", utc(2023, 5, 8)),
        ("8th of May 2023", utc(2023, 5, 8)),
        ("May 8, 2023", utc(2023, 5, 8)),
        ("May 8th 2023", utc(2023, 5, 8)),
        ("Sept. 3, 2023", utc(2023, 9, 3)),
        ("Monday, 8 May 2023", utc(2023, 5, 8)),
        ("Tuesday, March 26, 2024", utc(2024, 3, 26)),
        ("1:56 pm on 8 May, 2023", utc(2023, 5, 8, 13, 56)),
        ("12:05 am on 1 January, 2024", utc(2024, 1, 1, 0, 5)),
        ("10 am on 8 May 2023", utc(2023, 5, 8, 10)),
        ("8 May 2023 at 2:30 pm", utc(2023, 5, 8, 14, 30)),
        ("8 May 2023, 14:30", utc(2023, 5, 8, 14, 30)),
        ("2023/05/08", utc(2023, 5, 8)),
        ("2023/5/8", utc(2023, 5, 8)),
        ("May 2023", utc(2023, 5, 1)),
        ("december, 2024", utc(2024, 12, 1)),
        ("2023-05", utc(2023, 5, 1)),
        ("  May 8, 2023  \n", utc(2023, 5, 8)),
        ("MAY 8, 2023", utc(2023, 5, 8)),
        ("2024-02-29", utc(2024, 2, 29)),
    ],
)
def test_parse_datetime_accepts(text: str, expected: datetime) -> None:
    got = parse_datetime(text)
    assert got == expected
    assert got is not None and got.tzinfo is not None
    assert got.utcoffset() == expected.utcoffset()


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "2023",  # a bare year is too ambiguous
        "May",
        "May I ask",
        "the march of time",
        "3.11.2",
        "version 3.11.2",
        "555-123-4567",
        "+1 555 123 4567",
        "2023-05-08 25:99",
        "2023-05-08T24:00",
        "2023-02-30",
        "30 Feb 2023",
        "2023-02-29",
        "2023-13-01",
        "2023-00",
        "13:00 pm on 8 May 2023",
        "8 May 2023 and then some",
        "on 8 May 2023",
        "hello world",
        "12345678",
        "May 8",  # no year: not a datetime on its own
        "2023-05-08T14:02+25:00",
    ],
)
def test_parse_datetime_rejects(text: str) -> None:
    assert parse_datetime(text) is None


def test_parse_datetime_never_raises_on_non_strings() -> None:
    assert parse_datetime(None) is None  # type: ignore[arg-type]
    assert parse_datetime(20230508) is None  # type: ignore[arg-type]


# --------------------------------------------------------------------------- find_leading_datetime


@pytest.mark.parametrize(
    ("line", "expected", "rest"),
    [
        ("- 2025-03-26T14:02Z observed the build fail", utc(2025, 3, 26, 14, 2), " observed the build fail"),
        ("2025-03-26 14:02 — deploy", utc(2025, 3, 26, 14, 2), " — deploy"),
        ("[2025-03-26 14:02] note", utc(2025, 3, 26, 14, 2), "] note"),
        ("## 2024-03-26", utc(2024, 3, 26), ""),
        ("## Tuesday, 26 March 2024", utc(2024, 3, 26), ""),
        ("# 1:56 pm on 8 May, 2023", utc(2023, 5, 8, 13, 56), ""),
        ("**2025-03-26** bold", utc(2025, 3, 26), "** bold"),
        ("* 2025-03-26: x", utc(2025, 3, 26), ": x"),
        ("  - 2025-03-26 indented", utc(2025, 3, 26), " indented"),
        ("- [ ] 2025-03-26 todo", utc(2025, 3, 26), " todo"),
        ("1. 2025-03-26 first", utc(2025, 3, 26), " first"),
        ("> 2025-03-26 quoted", utc(2025, 3, 26), " quoted"),
        ("### May 8, 2023 — session", utc(2023, 5, 8), " — session"),
        ("- **2025-03-26 09:15** standup", utc(2025, 3, 26, 9, 15), "** standup"),
        (
            "2025-03-26T14:02:00+01:00 restart",
            datetime(2025, 3, 26, 14, 2, tzinfo=timezone(timedelta(hours=1))),
            " restart",
        ),
        ("## May 2023", utc(2023, 5, 1), ""),
        ("2025/03/26, morning", utc(2025, 3, 26), ", morning"),
    ],
)
def test_find_leading_datetime(line: str, expected: datetime, rest: str) -> None:
    found = find_leading_datetime(line)
    assert found is not None
    value, end = found
    assert value == expected
    assert line[end:] == rest


@pytest.mark.parametrize(
    "line",
    [
        "",
        "plain text line",
        "2023 was a good year",
        "May I ask a question",
        "March on, soldiers",
        "the march of time",
        "v2025-03-26 tag",
        "2025-03-26abc",
        "3.11.2 release",
        "555-123-4567 call back",
        "2025-03-26 25:99 broken clock",
        "2023-02-30 no such day",
        "we met on 2025-03-26",  # not at the start
        "## Notes from 2024-03-26",
        "12:30 lunch",
    ],
)
def test_find_leading_datetime_rejects(line: str) -> None:
    assert find_leading_datetime(line) is None


# --------------------------------------------------------------------------- properties


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_find_leading_datetime_never_raises(text: str) -> None:
    found = find_leading_datetime(text)
    if found is not None:
        value, end = found
        assert value.tzinfo is not None
        assert 0 < end <= len(text)


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_parse_datetime_never_raises(text: str) -> None:
    value = parse_datetime(text)
    assert value is None or value.tzinfo is not None


@pytest.mark.parametrize(
    "text",
    [
        "9999-12-31T23:00:00-12:00",
        "9999-12-31 23:30-01:00",
        "0001-01-01T00:00:00+14:00",
        "1 January 0001 00:30 +01:00",
    ],
)
def test_a_date_utc_cannot_hold_is_no_date(text: str) -> None:
    # In UTC these fall in the year 10000 or the year 0: every index of time reads its dates there.
    assert parse_datetime(text) is None
    assert find_leading_datetime(f"- {text} the far entry") is None


def test_a_timestamp_reads_back_within_the_years_a_datetime_has() -> None:
    far = datetime(9999, 12, 31, 23, tzinfo=timezone(-timedelta(hours=12))).timestamp()
    assert utc_from_timestamp(far) == utc(9999, 12, 31, 23, 59, 59)
    assert utc_from_timestamp(-1e18) == datetime.min.replace(tzinfo=UTC)
    assert utc_from_timestamp(0.0) == datetime(1970, 1, 1, tzinfo=UTC)
    assert held_in_utc(datetime(9999, 12, 31, 11, tzinfo=timezone(-timedelta(hours=12))))
    assert not held_in_utc(datetime(9999, 12, 31, 13, tzinfo=timezone(-timedelta(hours=12))))
