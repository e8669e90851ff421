"""eval/multilingual.py: the multilingual vault benchmark, run on its own data with the default
embedder (the keyword and time strategies: the goals of issue 17 that need no extra)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

EVAL_DIR = Path(__file__).resolve().parent.parent.parent / "eval"
sys.path.insert(0, str(EVAL_DIR))

import multilingual  # noqa: E402


def test_every_question_is_well_formed_and_its_gold_is_in_the_vault():
    queries = multilingual.load_queries(multilingual.QUERIES)
    assert {q["class"] for q in queries} == set(multilingual.CLASSES)
    assert len({q["id"] for q in queries}) == len(queries)
    for q in queries:
        assert all((multilingual.VAULT / path).is_file() for path in q["gold"]), q["id"]
        assert bool(q["gold"]) == (q["class"] != "none"), q["id"]


def test_first_rank_is_the_rank_of_the_first_gold_file():
    assert multilingual.first_rank(["a", "b", "c"], ["c", "b"]) == 2
    assert multilingual.first_rank(["a"], ["z"]) is None


def test_the_benchmark_meets_the_keyword_and_date_goals_with_the_default_install(tmp_path):
    argv = ["--embedders", "minilm", "--runs", "keyword", "time", "--out", str(tmp_path)]
    assert multilingual.main(argv) == 0
    (written,) = tmp_path.glob("multilingual-*.json")
    figures = json.loads(written.read_text())["results"]["minilm"]["figures"]
    assert figures["keyword"]["exact_cjk"]["hit@3"] >= 0.95  # exact CJK terms inside unsegmented text
    assert figures["time"]["local_date"]["hit@3"] >= 0.8  # dates in local notation
    assert figures["keyword"]["none"]["hit@3"] == 1.0  # questions about nothing flagged
