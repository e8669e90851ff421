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
