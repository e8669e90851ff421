"""The vault benchmark's report of where fusion loses what a strategy alone had."""

from __future__ import annotations

import sys
from pathlib import Path

EVAL_DIR = Path(__file__).resolve().parent.parent.parent / "eval"
sys.path.insert(0, str(EVAL_DIR))

import vault  # noqa: E402


def outcome(qid: str, run: str, rank: int | None) -> dict:
    return {"id": qid, "run": run, "rank": rank, "top": []}


def test_a_loss_is_a_gold_file_a_strategy_alone_ranks_in_its_top_3_and_fused_does_not():
    per_query = [
        # lost: semantic alone ranks it 2nd, fused 5th
        outcome("pa-1", "fused", 5),
        outcome("pa-1", "semantic", 2),
        outcome("pa-1", "keyword", None),
        # gained: fused 1st, no list alone in its top 3
        outcome("ec-1", "fused", 1),
        outcome("ec-1", "graph", 4),
        outcome("ec-1", "keyword", None),
        # neither: both fused and keyword have it
        outcome("ex-1", "fused", 3),
        outcome("ex-1", "keyword", 1),
        # fused without a list is no single strategy: not a loss
        outcome("al-1", "fused", 6),
        outcome("al-1", "no-graph", 1),
        outcome("al-1", "graph", 9),
        # the none class has no gold to lose
        outcome("no-1", "fused", None),
        outcome("no-1", "semantic", None),
    ]
    classes = {"pa-1": "paraphrase", "ec-1": "entity_chain", "ex-1": "exact", "al-1": "alias", "no-1": "none"}
    fusion = vault.fusion_against_lists(per_query, classes)
    assert fusion["by_class"] == {
        "exact": {},
        "paraphrase": {"losses": 1},
        "entity_chain": {"gains": 1},
        "alias": {},
    }
    assert fusion["losses"] == [{"id": "pa-1", "class": "paraphrase", "fused": 5, "alone": {"semantic": 2}}]
    report = "\n".join(vault.fusion_report(fusion))
    assert "| paraphrase | 1 | 0 |" in report and "| exact | 0 | 0 |" in report
    assert "pa-1 (fused 5, semantic 2)" in report


def test_no_single_strategy_run_no_section():
    per_query = [outcome("pa-1", "fused", 5), outcome("pa-1", "no-graph", 1)]
    fusion = vault.fusion_against_lists(per_query, {"pa-1": "paraphrase"})
    assert fusion["by_class"] == {} and fusion["losses"] == []
    assert vault.fusion_report(fusion) == []
