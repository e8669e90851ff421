"""The evaluation harness (eval/), on tiny synthetic inputs built here, never the real datasets."""

from __future__ import annotations

import json
import math
import re
import sys
from argparse import Namespace
from pathlib import Path
from types import SimpleNamespace

import pytest

EVAL_DIR = Path(__file__).resolve().parent.parent.parent / "eval"
sys.path.insert(0, str(EVAL_DIR))

import beir  # noqa: E402
import harness  # noqa: E402
import ir_metrics  # noqa: E402
import locomo  # noqa: E402
import vault as vault_eval  # noqa: E402

# ------------------------------------------------------------------------------------------ fixtures


def synthetic_conversation() -> dict:
    return {
        "sample_id": "conv-x",
        "conversation": {
            "speaker_a": "Ada",
            "speaker_b": "Bo",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Ada", "dia_id": "D1:1", "text": "I adopted a greyhound called Pixel."},
                {
                    "speaker": "Bo",
                    "dia_id": "D1:2",
                    "text": "Look at this!\nSo   green.",
                    "img_url": ["http://example.invalid/x.jpg"],
                    "blip_caption": "a photo of a fern on a windowsill",
                },
                {"speaker": "Ada", "dia_id": "D1:3", "text": "Lovely fern."},
            ],
            "session_2_date_time": "9:05 am on 12 June, 2023",
            "session_2": [
                {"speaker": "Bo", "dia_id": "D2:1", "text": "I ran the Lisbon marathon on Sunday."},
                {
                    "speaker": "Ada",
                    "dia_id": "D2:2",
                    "text": "Congratulations!",
                    "blip_caption": "medal on a table",
                },
            ],
            # a date with no turn list, as in conv-26: must not become a session
            "session_3_date_time": "10:00 am on 1 July, 2023",
        },
        "qa": [
            {
                "question": "What dog did Ada adopt?",
                "answer": "a greyhound",
                "evidence": ["D1:1"],
                "category": 4,
            },
            {
                "question": "Which marathon did Bo run?",
                "answer": "Lisbon",
                "evidence": ["D2:01; D9:9"],
                "category": 2,
            },
            {"question": "Something unanswerable?", "answer": "", "evidence": [], "category": 3},
            {"question": "Points nowhere?", "answer": "", "evidence": ["D7:7"], "category": 1},
            {
                "question": "Did Ada run a marathon?",
                "adversarial_answer": "yes",
                "evidence": ["D2:1"],
                "category": 5,
            },
        ],
    }


class StandInEngine:
    """A toy engine: word overlap, one chunk per paragraph (chunks=True) or per file (chunks=False)."""

    def __init__(self, vault: Path):
        self.chunks: list[tuple[str, int, int, set[str]]] = []
        self.files: dict[str, set[str]] = {}
        for path in sorted(vault.rglob("*.md")):
            rel = path.relative_to(vault).as_posix()
            lines = path.read_text(encoding="utf-8").splitlines()
            self.files[rel] = set()
            for i, line in enumerate(lines, start=1):
                words = set(re.findall(r"\w+", line.lower()))
                self.files[rel] |= words
                if words:
                    self.chunks.append((rel, i, i, words))
        self.calls: list[dict] = []

    def search(self, query, k=10, *, chunks=False, now=None, strategies=None, **_):
        self.calls.append({"query": query, "k": k, "chunks": chunks, "now": now, "strategies": strategies})
        q = set(re.findall(r"\w+", query.lower()))
        if chunks:
            scored = [(len(q & w), (p, s, e)) for p, s, e, w in self.chunks]
        else:
            scored = [(len(q & w), (p, 1, 1)) for p, w in self.files.items()]
        scored = sorted((x for x in scored if x[0] > 0), key=lambda x: -x[0])[:k]
        results = tuple(
            SimpleNamespace(path=p, start_line=s, end_line=e, score=sc) for sc, (p, s, e) in scored
        )
        health = SimpleNamespace(timings_ms={"embed": 2.0, "total": 5.0}, degraded=False, failed={})
        return SimpleNamespace(results=results, health=health)


class StandInBackend:
    cache_subdir = "cache"

    def __init__(self):
        self.engines: list[StandInEngine] = []
        self.indexed: list[Path] = []

    def index(self, vault, settings, index_dir):
        self.indexed.append(index_dir)
        assert (index_dir / "cache").is_dir()  # the shared embedding cache is linked in
        n = len(list(vault.rglob("*.md")))
        return harness.IndexStats(files=n, chunks=n, embedded=0, seconds=0.01, wall_seconds=0.01)

    def open(self, vault, settings, index_dir):
        self.engines.append(StandInEngine(vault))
        return self.engines[-1]


# ----------------------------------------------------------------------------------- locomo: the vault


def test_vault_writer_records_the_line_that_holds_each_turn(tmp_path):
    conv = locomo.parse_conversation(synthetic_conversation(), 0)
    rendered = locomo.render_conversation(conv)
    assert sorted(rendered.files) == ["journal/2023-05-08-session-01.md", "journal/2023-06-12-session-02.md"]
    harness.sync_vault(tmp_path, rendered.files, managed_dirs=["journal"])
    expected = {
        "D1:1": "Ada: I adopted a greyhound called Pixel.",
        "D1:2": "Bo: Look at this! So green. [shares a photo of a fern on a windowsill]",
        "D1:3": "Ada: Lovely fern.",
        "D2:1": "Bo: I ran the Lisbon marathon on Sunday.",
        "D2:2": "Ada: Congratulations! [shares a photo of medal on a table]",
    }
    assert set(rendered.turn_lines) == set(expected)
    for dia_id, text in expected.items():
        path, line = rendered.turn_lines[dia_id]
        on_disk = (tmp_path / path).read_text(encoding="utf-8").splitlines()
        assert on_disk[line - 1] == text
        assert dia_id not in "\n".join(on_disk)
    first = (tmp_path / "journal/2023-05-08-session-01.md").read_text(encoding="utf-8")
    assert first.startswith("# 1:56 pm on 8 May, 2023\n\nAda: I adopted")
    assert "\n\n\n" not in first and first.count("\n\n") == 3


def test_sessions_follow_turn_lists_and_now_is_the_last_session():
    conv = locomo.parse_conversation(synthetic_conversation(), 0)
    assert [s.number for s in conv.sessions] == [1, 2]
    assert conv.now is not None and conv.now.replace(tzinfo=None).isoformat() == "2023-06-12T09:05:00"


def test_evidence_normalisation():
    raw = ["D8:6; D9:17", "D9:1 D4:4 D4:6", "D:11:26", "D", "D30:05", "D8:6"]
    assert locomo.normalise_evidence(raw) == ["D8:6", "D9:17", "D9:1", "D4:4", "D4:6", "D11:26", "D30:5"]
    assert locomo.normalise_evidence("D2:01") == ["D2:1"]
    assert locomo.normalise_evidence(None) == []


def test_questions_drop_dangling_ids_and_skip_those_without_evidence():
    conv = locomo.parse_conversation(synthetic_conversation(), 0)
    by_q = {q.question: q for q in conv.questions}
    assert by_q["Which marathon did Bo run?"].evidence == ("D2:1",)
    assert by_q["Which marathon did Bo run?"].dropped == ("D9:9",)
    assert "Something unanswerable?" not in by_q and "Points nowhere?" not in by_q
    assert conv.skipped == {"no_evidence": 1, "evidence_points_at_no_turn": 1}


# --------------------------------------------------------------------------------------- metrics


def test_any_at_k_needs_the_line_inside_a_top_k_span_of_the_same_path():
    spans = [("a.md", 1, 3), ("b.md", 5, 5), ("c.md", 10, 20)]
    assert ir_metrics.any_at_k(spans, [("c.md", 20)], 3)
    assert not ir_metrics.any_at_k(spans, [("c.md", 20)], 2)
    assert ir_metrics.any_at_k(spans, [("x.md", 1), ("b.md", 5)], 2)
    assert not ir_metrics.any_at_k(spans, [("b.md", 4), ("a.md", 4)], 3)
    assert not ir_metrics.any_at_k(spans, [("z.md", 2)], 3)
    assert ir_metrics.first_hit_rank(spans, [("c.md", 10), ("a.md", 1)]) == 1


def words(n: int, tag: str = "w") -> str:
    return " ".join(f"{tag}{i}" for i in range(n))


def test_any_at_300w_reads_in_rank_order_and_counts_the_straddling_line():
    files = {
        "a.md": [words(100), words(100), words(90)],  # 290 words
        "b.md": [words(20), words(5), ""],  # starts at 290 (counts), ends at 310; the next line does not
        "c.md": [words(1)],
    }
    reader = files.__getitem__
    spans = [("a.md", 1, 3), ("b.md", 1, 2), ("c.md", 1, 1)]
    assert ir_metrics.any_within_words(spans, [("b.md", 1)], reader)
    assert not ir_metrics.any_within_words(spans, [("b.md", 2)], reader)
    assert not ir_metrics.any_within_words(spans, [("c.md", 1)], reader)
    seen, read = ir_metrics.read_in_rank_order(spans, reader)
    assert read == 310 and seen == {("a.md", 1), ("a.md", 2), ("a.md", 3), ("b.md", 1)}
    # a line that starts exactly at the limit is not read
    exact = {"a.md": [words(150), words(150)], "b.md": [words(1)]}
    assert not ir_metrics.any_within_words([("a.md", 1, 2), ("b.md", 1, 1)], [("b.md", 1)], exact.__getitem__)
    # a result later in the ranking than a long one is read only within the budget
    assert ir_metrics.any_within_words([("c.md", 1, 1), ("a.md", 1, 3)], [("a.md", 3)], reader)
    assert ir_metrics.words_in_spans(spans[:2], reader) == 315


def test_ndcg_at_10_against_hand_computed_values():
    qrels = {"d1": 1, "d2": 1, "d3": 1}
    # DCG = 1/log2(2) + 1/log2(4) = 1.5; IDCG = 1 + 1/log2(3) + 1/log2(4)
    expected = 1.5 / (1 + 1 / math.log2(3) + 0.5)
    assert ir_metrics.ndcg_at_k(["d1", "x", "d2"], qrels, 10) == pytest.approx(expected)
    assert ir_metrics.ndcg_at_k(["d1", "x", "d2"], qrels, 10) == pytest.approx(0.703918, abs=1e-6)
    graded = {"a": 2, "b": 1}
    # DCG = 1 + 2/log2(3) = 2.261860; IDCG = 2 + 1/log2(3) = 2.630930; 2.261860 / 2.630930 = 0.859719
    assert ir_metrics.ndcg_at_k(["b", "a"], graded, 10) == pytest.approx(0.859719, abs=1e-6)
    assert ir_metrics.ndcg_at_k([f"x{i}" for i in range(10)] + ["d1"], qrels, 10) == 0.0
    assert ir_metrics.ndcg_at_k(["d1", "d1", "d2"], {"d1": 1, "d2": 1}, 10) == pytest.approx(1.0)
    assert ir_metrics.ndcg_at_k(["d1"], {"d1": 0}, 10) == 0.0


def test_recall_at_100():
    ranked = ["r1"] + [f"x{i}" for i in range(98)] + ["r2", "r3"]  # r2 at rank 100, r3 at 101
    assert ir_metrics.recall_at_k(ranked, {"r1": 1, "r2": 1, "r3": 1, "n": 0}, 100) == pytest.approx(2 / 3)
    assert ir_metrics.recall_at_k([], {"r1": 1}, 100) == 0.0


def test_percentile_interpolates_like_numpy():
    assert ir_metrics.percentile([1, 2, 3, 4], 50) == 2.5
    assert ir_metrics.percentile([10.0], 95) == 10.0
    assert ir_metrics.percentile([], 50) is None


# ------------------------------------------------------------------------------------ settings, cache


def test_set_overrides_are_typed_like_the_settings():
    from memsearch.config import Settings

    s = harness.apply_overrides(
        Settings(),
        harness.parse_overrides(["context_neighbours=0", "strategy_weights.graph=0.5", "rrf_k=30"]),
    )
    assert s.context_neighbours == 0 and s.rrf_k == 30
    assert s.strategy_weights["graph"] == 0.5 and s.strategy_weights["keyword"] == 1.0
    with pytest.raises(SystemExit):
        harness.apply_overrides(Settings(), {"no_such_field": "1"})
    with pytest.raises(SystemExit):
        harness.apply_overrides(Settings(), {"rrf_k": "sixty"})
    # query-time settings share an index, index-time ones do not
    assert harness.index_fingerprint(s) != harness.index_fingerprint(Settings())
    assert harness.index_fingerprint(
        harness.apply_overrides(Settings(), {"rrf_k": "5"})
    ) == harness.index_fingerprint(Settings())


def test_sync_vault_leaves_unchanged_files_alone(tmp_path):
    first = harness.sync_vault(tmp_path, {"journal/a.md": "x\n", "journal/b.md": "y\n"}, ["journal"])
    assert first["written"] == 2
    mtime = (tmp_path / "journal/a.md").stat().st_mtime_ns
    again = harness.sync_vault(tmp_path, {"journal/a.md": "x\n"}, ["journal"])
    assert again == {"files": 1, "written": 0, "removed": 1}
    assert (tmp_path / "journal/a.md").stat().st_mtime_ns == mtime and not (
        tmp_path / "journal/b.md"
    ).exists()


# ------------------------------------------------------------------------------------- end to end


def test_locomo_end_to_end_with_a_stand_in_engine(tmp_path, capsys):
    data = tmp_path / "data" / "conversations.json"
    data.parent.mkdir()
    data.write_text(json.dumps([synthetic_conversation()]), encoding="utf-8")
    args = Namespace(
        data=str(data.parent),
        limit_conversations=None,
        limit_questions=None,
        no_adversarial=False,
        k=50,
        strategies=["keyword", "fused"],
        set=["context_neighbours=0"],
        cache_dir=str(tmp_path / "cache"),
        out=str(tmp_path / "results"),
        per_query=True,
        reindex=False,
    )
    backend = StandInBackend()
    payload = locomo.main(args, backend=backend)
    fused = payload["runs"]["fused"]
    assert (
        fused["overall"]["n"] == 2
        and fused["overall"]["any@10"] == 1.0
        and fused["overall"]["any@300w"] == 1.0
    )
    assert fused["by_category"]["5"]["n"] == 1
    assert fused["latency"]["excl_embed_ms"]["p50"] == 3.0 and fused["latency"]["incl_embed_ms"]["p50"] == 5.0
    calls = backend.engines[0].calls
    assert {c["strategies"] for c in calls} == {("keyword",), None}
    assert all(c["chunks"] and c["now"].isoformat().startswith("2023-06-12T09:05") for c in calls)
    written = list((tmp_path / "results").glob("locomo-*.json"))
    assert (
        len(written) == 1
        and json.loads(written[0].read_text())["meta"]["settings"]["context_neighbours"] == 0
    )
    assert "| fused |" in capsys.readouterr().out
    # a re-run reuses the index; another index-time setting builds its own; a query-time one does not
    locomo.main(args, backend=backend)
    assert len(backend.indexed) == 1
    args.set = ["context_neighbours=2", "rrf_k=10"]
    locomo.main(args, backend=backend)
    assert len(backend.indexed) == 2 and backend.indexed[0] != backend.indexed[1]
    assert (backend.indexed[0] / "cache").resolve() == (backend.indexed[1] / "cache").resolve()
    args.set, args.reindex = ["context_neighbours=2"], True
    locomo.main(args, backend=backend)
    assert len(backend.indexed) == 3 and backend.indexed[2] == backend.indexed[1]


def synthetic_beir(root: Path) -> None:
    (root / "qrels").mkdir(parents=True)
    docs = [
        {"_id": "10", "title": "Greyhounds", "text": "Greyhounds are fast dogs.\nThey sleep a lot."},
        {"_id": "a/b c", "title": "", "text": "Ferns like shade and humid air."},
        {"_id": "A/B C", "title": "Marathons", "text": "The Lisbon marathon is run in October."},
    ]
    (root / "corpus.jsonl").write_text("\n".join(json.dumps(d) for d in docs) + "\n", encoding="utf-8")
    queries = [
        {"_id": "q1", "text": "fast dogs"},
        {"_id": "q2", "text": "ferns shade"},
        {"_id": "q3", "text": "x"},
    ]
    (root / "queries.jsonl").write_text("\n".join(json.dumps(q) for q in queries) + "\n", encoding="utf-8")
    (root / "qrels" / "test.tsv").write_text(
        "query-id\tcorpus-id\tscore\nq1\t10\t1\nq2\ta/b c\t2\nq2\tA/B C\t1\nq3\t10\t0\n", encoding="utf-8"
    )


def test_beir_documents_map_back_to_their_ids():
    files, path_to_doc = beir.render_corpus(
        [beir.Document("a/b c", "", "text"), beir.Document("A/B C", "T", "x"), beir.Document("10", "Ten", "")]
    )
    assert sorted(path_to_doc.values()) == ["10", "A/B C", "a/b c"]
    assert len({p.lower() for p in files}) == 3 and all(p.startswith("reference/") for p in files)
    assert files["reference/10.md"] == "# Ten\n"
    by_doc = {d: p for p, d in path_to_doc.items()}
    assert files[by_doc["a/b c"]] == "# a/b c\n\ntext\n"


def test_beir_end_to_end_with_a_stand_in_engine(tmp_path):
    root = tmp_path / "scifact-like"
    synthetic_beir(root)
    args = Namespace(
        data=str(root),
        split="test",
        limit_queries=None,
        limit_docs=None,
        strategies=["semantic", "fused"],
        set=[],
        cache_dir=str(tmp_path / "cache"),
        out=str(tmp_path / "results"),
        per_query=False,
        reindex=False,
    )
    payload = beir.main(args, backend=StandInBackend())
    fused = payload["runs"]["fused"]
    assert fused["n"] == 2 and payload["skipped_queries"]["no_relevant_doc"] == 1
    # q1: its one relevant doc first -> 1.0. q2: only "a/b c" (gain 2) is found, at rank 1:
    # 2 / (2 + 1/log2 3)
    assert fused["ndcg@10"] == pytest.approx(round((1 + 2 / (2 + 1 / math.log2(3))) / 2, 4))
    assert fused["recall@100"] == pytest.approx(0.75)


def test_locomo_through_the_real_engine(tmp_path):
    """The harness against memsearch.api itself (no stand-in), on the synthetic conversation."""
    pytest.importorskip("memsearch.api")
    data = tmp_path / "conversations.json"
    data.write_text(json.dumps([synthetic_conversation()]), encoding="utf-8")
    args = Namespace(
        data=str(data),
        limit_conversations=None,
        limit_questions=None,
        no_adversarial=True,
        k=10,
        strategies=["keyword", "fused"],
        set=[],
        cache_dir=str(tmp_path / "cache"),
        out=str(tmp_path / "results"),
        per_query=True,
        reindex=False,
    )
    payload = locomo.main(args)
    keyword = payload["runs"]["keyword"]
    assert keyword["overall"]["n"] == 2 and keyword["overall"]["any@10"] == 1.0
    assert payload["index"]["chunks"] >= 5 and payload["index"]["reused"] == 0
    for run in ("keyword", "fused"):
        latency = payload["runs"][run]["latency"]
        assert latency["errors"] == 0 and latency["timed_by_engine"] == 2
        assert latency["excl_embed_ms"]["p50"] <= latency["incl_embed_ms"]["p50"]
    assert locomo.main(args)["index"]["reused"] == 1


# ------------------------------------------------------------------------------------------ vault


def test_vault_scoring_ranks_rivals_and_classes():
    paths = ["a.md", "old.md", "gold.md"]
    assert vault_eval.first_rank(paths, ["gold.md", "x.md"]) == 3
    assert vault_eval.outranked(paths, ["gold.md"], ["old.md"])
    assert not vault_eval.outranked(paths, ["a.md"], ["old.md"])
    assert vault_eval.outranked(["old.md"], ["gold.md"], ["old.md"])  # gold missing ranks last
    figures = vault_eval.class_figures([{"rank": 1}, {"rank": 3}, {"rank": None}, {"rank": 11}])
    mrr = round((1 + 1 / 3) / 4, 4)
    assert figures == {"n": 4, "hit@1": 0.25, "hit@3": 0.5, "hit@10": 0.5, "mrr@10": mrr}
    assert vault_eval.strategies_for("fused") is None
    assert vault_eval.strategies_for("no-graph") == ("semantic", "keyword", "time")
    assert vault_eval.strategies_for("time") == ("time",)


def test_vault_through_the_real_engine(tmp_path):
    """The vault runner against memsearch.api itself, on the repository's fixture vault."""
    pytest.importorskip("memsearch.api")
    import shutil

    data = tmp_path / "data"
    shutil.copytree(Path(__file__).parent.parent / "fixtures" / "vault", data / "vault")
    now = "2025-04-01T00:00:00"
    questions = [
        {
            "id": "ex-1",
            "query": "sign_ed25519",
            "class": "exact",
            "now": now,
            "gold": ["reference/redflag.md"],
        },
        {"id": "no-1", "query": "xylophone quantum banana", "class": "none", "now": now, "gold": []},
    ]
    (data / "queries.jsonl").write_text("".join(json.dumps(q) + "\n" for q in questions), encoding="utf-8")
    args = Namespace(
        data=str(data),
        classes=None,
        limit_queries=None,
        runs=["fused", "keyword", "no-keyword"],
        set=[],
        cache_dir=str(tmp_path / "cache"),
        out=str(tmp_path / "results"),
        per_query=True,
        reindex=False,
    )
    payload = vault_eval.main(args)
    assert payload["runs"]["keyword"]["classes"]["exact"]["hit@1"] == 1.0
    assert payload["runs"]["fused"]["classes"]["overall"]["n"] == 1  # none is not answerable
    assert payload["signal"]["by_class"]["none"] == {"none": 1}
    assert payload["signal"]["none_flagged_none_or_thin"] == 1.0
    assert {o["run"] for o in payload["per_query"]} == {"fused", "keyword", "no-keyword"}
