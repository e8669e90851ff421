"""A small vault in Chinese, Japanese, Korean, Thai and English, indexed with the real engine:
what a new user types finds the note that holds it (issue 17)."""

import shutil
from pathlib import Path

import pytest

from memsearch.api import Memsearch, index_vault

MULTILINGUAL_VAULT = Path(__file__).resolve().parent.parent / "fixtures" / "multilingual"
NOW = "2025-03-20T12:00:00+00:00"


@pytest.fixture(scope="module")
def engine(tmp_path_factory) -> Memsearch:
    vault = tmp_path_factory.mktemp("multilingual") / "vault"
    shutil.copytree(MULTILINGUAL_VAULT, vault)
    index_vault(vault)
    return Memsearch(vault)


# The table: every one of these found nothing before, except the Korean ones.
KEYWORD_QUERIES = [
    ("签名密钥", "journal/2025-03-01.md"),
    ("饺子", "journal/2025-03-01.md"),
    ("轮换计划", "journal/2025-03-01.md"),
    ("東京", "journal/2025-03-10.md"),
    ("新幹線", "journal/2025-03-10.md"),
    ("会議", "journal/2025-03-10.md"),
    ("品川駅", "journal/2025-03-10.md"),
    ("예산", "journal/2025-03-12.md"),
    ("회의", "journal/2025-03-12.md"),
    ("회의록", "journal/2025-03-12.md"),
    ("ตลาดน้ำ", "journal/2025-03-14.md"),
    ("sign_ed25519", "journal/2025-03-01.md"),
    ("数据库迁移", "reference/release-pipeline.md"),
    ("経費精算", "reference/tokyo-trip.md"),
]


@pytest.mark.parametrize(("query", "path"), KEYWORD_QUERIES)
def test_a_substring_of_unspaced_text_finds_its_note_by_keyword(engine, query, path):
    response = engine.search(query, k=3, strategies=["keyword"], now=NOW)
    assert response.signal.level == "strong", response.signal
    assert path in [r.path for r in response.results][:3]


def test_a_query_in_no_note_finds_nothing(engine):
    # The characters of 签名 in the other order, and a Chinese word the vault never writes.
    for query in ("密签", "火锅"):
        response = engine.search(query, k=3, strategies=["keyword"], now=NOW)
        assert response.signal.level == "none" and not response.results, query


# Dates in local notation: the diary's headings date its sections, and a query naming a day in
# local notation ranks what the same query names in ISO form would.
DATED_QUERIES = [
    ("2025年3月5日", "2025-03-05", "notes/diary.md"),
    ("2025年3月6日医生说了什么", "2025-03-06 医生说了什么", "notes/diary.md"),
    ("2025년 3월 7일", "2025-03-07", "notes/diary.md"),
    ("8. März 2025", "2025-03-08", "notes/diary.md"),
    ("3月10日の会議", "March 10 会議", "journal/2025-03-10.md"),
    ("先週の会議", "last week 会議", "journal/2025-03-14.md"),
]


@pytest.mark.parametrize(("query", "iso", "path"), DATED_QUERIES)
def test_a_local_date_ranks_as_its_iso_form(engine, query, iso, path):
    local = engine.search(query, k=4, strategies=["time"], now=NOW, chunks=True)
    standard = engine.search(iso, k=4, strategies=["time"], now=NOW, chunks=True)
    assert path in [r.path for r in local.results]
    ranked = [(r.path, r.start_line) for r in local.results]
    assert ranked == [(r.path, r.start_line) for r in standard.results]


def test_the_diary_sections_are_dated_by_their_local_headings(engine):
    from memsearch.chunkers import chunk_file
    from memsearch.config import Settings

    text = (MULTILINGUAL_VAULT / "notes/diary.md").read_text()
    stamps = [c.timestamp.date().isoformat() for c in chunk_file("notes/diary.md", text, Settings()).chunks]
    assert stamps == ["2025-03-05", "2025-03-06", "2025-03-07", "2025-03-08"]


def test_an_alias_joins_a_name_in_another_script(engine):
    # wang-lei.md says 王磊 is also "Wang Lei": an English query reaches the Chinese journal.
    for query in ("Wang Lei", "王磊"):
        response = engine.search(query, k=3, strategies=["keyword"], now=NOW)
        paths = [r.path for r in response.results]
        assert "reference/wang-lei.md" in paths and "journal/2025-03-01.md" in paths, (query, paths)
    graph = engine.search("Wang Lei", k=3, strategies=["graph"], now=NOW)
    assert graph.results and graph.results[0].path == "reference/wang-lei.md"
    assert {"王磊", "Wang Lei"} <= set(graph.results[0].entities)
