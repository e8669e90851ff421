"""The bench table's figures, read from a serve worker's passes."""

from __future__ import annotations

import sys
from pathlib import Path

EVAL_DIR = Path(__file__).resolve().parents[2] / "eval"
sys.path.insert(0, str(EVAL_DIR))

import bench  # noqa: E402


def test_the_fused_p50_is_shown_pass_by_pass_beside_their_median():
    # The first pass meets each question's seeds for the first time, the second again: the
    # table's p50 is their median, and the row beside it says which pass was which.
    passes = [{"excl_embed": {"p50": 9.667, "p95": 20.0, "p99": 28.0}}, {"excl_embed": {"p50": 5.69}}]
    serve = {"runs": {"fused": passes, "graph": [{"excl_embed": {"p50": 2.2}}]}}
    assert bench.pass_by_pass(serve, "fused") == "9.67 / 5.69"
    assert bench.pass_by_pass(serve, "graph") == "2.20"
    assert bench._med(bench._lat(serve, "fused", "p50")) == (9.667 + 5.69) / 2
