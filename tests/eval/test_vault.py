"""The vault benchmark's report of where fusion loses what a strategy alone had, and ``--why``."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

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


def classes_at(**hit3: float) -> dict:
    return {"classes": {c: {"hit@3": v} for c, v in hit3.items()}, "latency": {}}


def test_the_bounds_say_which_held_out_bound_a_run_meets():
    summary = {
        "runs": {
            "fused": classes_at(exact=1.0, paraphrase=0.3, alias=0.9, overall=0.86),
            "semantic": classes_at(exact=0.7, paraphrase=0.4, alias=0.5, overall=0.5),
            "keyword": classes_at(exact=1.0, paraphrase=0.1, alias=0.9, overall=0.6),
            "no-semantic": classes_at(exact=1.0, paraphrase=0.05, alias=0.9, overall=0.8),
            "no-graph": classes_at(exact=1.0, paraphrase=0.3, alias=0.85, overall=0.85),
        },
        "signal": {
            "none_flagged_none_or_thin": 0.9,
            "answerable_flagged_none": 0.0,
            "answerable_flagged_thin": 0.21,
        },
    }
    met = {b["bound"]: (b["measured"], b["met"]) for b in vault.bounds(summary)}
    assert met["exact hit@3 >= 0.80"] == ("1.000", True)
    assert met["paraphrase hit@3 >= 0.65"] == ("0.300", False)
    assert met["overall hit@3 >= 0.85"] == ("0.860", True)
    assert met["paraphrase: fused hit@3 >= the best strategy alone"] == ("0.300 vs semantic 0.400", False)
    assert met["alias: fused hit@3 >= the best strategy alone"][1]  # a tie with keyword is no loss
    assert met["none class flagged none or thin >= 0.90"][1] and not met["answerable flagged thin <= 0.20"][1]
    assert met["without semantic, some class drops >= 0.10"] == ("paraphrase 0.300 -> 0.050", True)
    assert met["without graph, some class drops >= 0.10"] == ("alias 0.900 -> 0.850", False)
    assert not any("without keyword" in bound or "without time" in bound for bound in met)  # not run
    signal = {**summary["signal"], "by_class": {}, "top_score_none": None, "top_score_answerable": None}
    report = vault.report({**summary, "signal": signal, "fusion": None, "why": {}})
    assert "## against the held-out bounds (8 of 12 met)" in report


def test_no_single_strategy_run_no_section():
    per_query = [outcome("pa-1", "fused", 5), outcome("pa-1", "no-graph", 1)]
    fusion = vault.fusion_against_lists(per_query, {"pa-1": "paraphrase"})
    assert fusion["by_class"] == {} and fusion["losses"] == []
    assert vault.fusion_report(fusion) == []


def test_why_shows_each_lists_part_of_the_real_engines_answer_and_the_parts_add_up(indexed_vault):
    from memsearch.api import open_index

    q = {
        "id": "ec-1",
        "class": "entity_chain",
        "query": "what algorithm does Project Aster sign its releases with",
        "gold": ["reference/ed25519.md", "reference/nowhere.md"],
        "now": "2025-06-01T12:00:00",
    }
    response = vault.explained_search(open_index(indexed_vault), q)
    paths = [r.path for r in response.results]
    rank = paths.index("reference/ed25519.md") + 1
    # The first result alone, and the gold file wherever it is below it.
    top = 1 if rank > 1 else 0
    lines = vault.why_lines(q, response, top=top)
    assert lines[0] == f"### ec-1 (entity_chain): {q['query']}"
    assert f"gold: reference/ed25519.md {rank}, reference/nowhere.md -" in lines
    rows = [line for line in lines if re.match(r"\| \d+ \|", line)]
    assert [int(row.split("|")[1]) for row in rows] == sorted({*range(1, top + 1), rank})
    fused_scores = []
    for row in rows:
        _, place, path, score, lists, ranked, _ = (cell.strip() for cell in row.split("|"))
        result = response.results[int(place) - 1]
        assert path == ("* " if result.path in q["gold"] else "") + result.path
        # Each list's part as shown; capped scores aside, they add up to the result's score.
        parts = [float(p) for p in re.findall(r"\+([0-9.]+)", lists)]
        assert set(re.findall(r"(\w+) \d+, w ", lists)) == set(result.explanation["strategies"])
        if not result.explanation["score"]["capped"]:
            assert sum(parts) == pytest.approx(float(score), abs=0.002 * len(parts))
        # What ranked it: its fused score, the sum of each list's contribution (x1000).
        fused, terms = ranked.split(" = ")
        contributions = dict(re.findall(r"(\w+) ([0-9.]+)", terms))
        assert set(contributions) == set(result.explanation["strategies"])
        assert float(fused) == pytest.approx(result.explanation["fused_score"] * 1000, abs=0.05)
        assert sum(map(float, contributions.values())) == pytest.approx(
            float(fused), abs=0.05 * len(contributions)
        )
        fused_scores.append(float(fused))
    assert fused_scores == sorted(fused_scores, reverse=True)
    assert any(row.split("|")[2].strip().startswith("* reference/ed25519.md") for row in rows)


def test_why_names_a_question_that_is_not_in_the_set(tmp_path):
    data = tmp_path / "data"
    (data / "vault").mkdir(parents=True)
    (data / "vault" / "note.md").write_text("# Note\n\nHello.\n", encoding="utf-8")
    question = {"id": "ex-1", "query": "hello", "class": "exact", "now": "2025-01-01", "gold": ["note.md"]}
    (data / "queries.jsonl").write_text(json.dumps(question) + "\n", encoding="utf-8")
    args = SimpleNamespace(
        cache_dir=str(tmp_path / "cache"),
        data=str(data),
        classes=None,
        limit_queries=None,
        why=["ex-1", "pa-99"],
    )
    with pytest.raises(SystemExit, match="--why: no question pa-99 among"):
        vault.main(args)


def test_a_run_of_questions_about_nothing_alone_is_judged_by_its_signal_only():
    nothing = {"classes": {"none": {"n": 3}, "overall": {"n": 0}}, "latency": {}}
    summary = {
        "runs": {"fused": nothing, "semantic": nothing, "no-graph": nothing},
        "signal": {
            "none_flagged_none_or_thin": 1.0,
            "answerable_flagged_none": None,
            "answerable_flagged_thin": None,
            "by_class": {"none": {"none": 3}},
            "top_score_none": None,
            "top_score_answerable": None,
        },
    }
    met = {b["bound"]: (b["measured"], b["met"]) for b in vault.bounds(summary)}
    assert met == {"none class flagged none or thin >= 0.90": ("1.000", True)}
    report = vault.report({**summary, "fusion": None, "why": {}})
    assert "## against the held-out bounds (1 of 1 met)" in report
