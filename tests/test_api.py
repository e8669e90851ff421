"""The engine end to end on the fixture vault: real chunks, real embeddings, real HNSW."""

from pathlib import Path

import pytest

from memsearch.api import index_vault, open_index
from memsearch.errors import QueryError, VaultError

NOW = "2025-04-01T00:00:00+00:00"


@pytest.fixture(scope="module")
def engine(indexed_vault):
    return open_index(indexed_vault)


def test_index_report_counts_every_file(vault_copy):
    report = index_vault(vault_copy)
    n_files = len(list(vault_copy.rglob("*.md")))
    assert report.files == n_files
    assert report.chunks > n_files
    assert report.embedded == report.chunks or report.embedded > 0
    assert report.skipped == ()
    again = index_vault(vault_copy)
    assert again.embedded == 0  # unchanged text is never embedded twice
    assert again.chunks == report.chunks


def test_exact_identifier_finds_its_file(engine):
    response = engine.search("sign_ed25519()", k=3, now=NOW)
    top = response.results[0]
    assert top.path == "reference/redflag.md"
    lines = (Path(engine.vault) / top.path).read_text().splitlines()[top.start_line - 1 : top.end_line]
    assert any("def sign_ed25519" in line for line in lines)


def test_each_strategy_runs_alone(engine):
    for strategy in ("semantic", "keyword", "graph", "time"):
        response = engine.search("Redflag signing keys", k=5, now=NOW, strategies=[strategy])
        assert response.health.ran == (strategy,)
        assert response.results, strategy


def test_graph_walk_reaches_chunks_whose_words_differ(engine):
    """'RF' is an alias of Redflag; the walk reaches the Ed25519 note, which never says RF or Redflag."""
    response = engine.search("RF", k=10, now=NOW, strategies=["graph"], chunks=True)
    paths = [r.path for r in response.results]
    assert "reference/redflag.md" in paths
    ed = [r for r in response.results if r.path == "reference/ed25519.md"]
    assert ed
    text = (Path(engine.vault) / "reference/ed25519.md").read_text()
    assert "redflag" not in text.lower().replace("redflag.md", "")


def test_dates_in_the_query_rank_chunks_near_them(engine):
    response = engine.search("what happened on March 5", k=3, now=NOW, strategies=["time"], chunks=True)
    top = response.results[0]
    assert top.path == "aster/ledger/2025-03.md"
    line = (Path(engine.vault) / top.path).read_text().splitlines()[top.start_line - 1]
    assert "2025-03-05" in line


def test_fused_results_are_grouped_scored_and_explained(engine):
    response = engine.search("who approved the new Ed25519 key?", k=5, now=NOW, explain=True)
    paths = [r.path for r in response.results]
    assert len(paths) == len(set(paths))  # one result per file by default
    scores = [r.score for r in response.results]
    assert scores == sorted(scores, reverse=True)
    assert all(0.0 <= s <= 1.0 for s in scores)
    for r in response.results:
        parts = r.explanation["strategies"]
        total = sum(p["contribution"] for p in parts.values())
        assert total == pytest.approx(r.explanation["fused_score"], rel=1e-9)
    assert set(response.health.ran) >= {"semantic", "keyword"}


def test_chunks_mode_returns_several_chunks_of_one_file(engine):
    response = engine.search("signing keys rotation", k=10, now=NOW, chunks=True)
    paths = [r.path for r in response.results]
    assert len(paths) > len(set(paths))


def test_filters(engine):
    journal = engine.search("signing keys", k=10, now=NOW, territory="journal/", chunks=True)
    assert journal.results and all(r.path.startswith("journal/") for r in journal.results)
    world = engine.search("signing keys", k=10, now=NOW, fact_type="world", chunks=True)
    assert world.results and all(r.fact_type == "world" for r in world.results)
    mara = engine.search("keys", k=10, now=NOW, entities=["Mara Lin"], chunks=True)
    assert mara.results and all("mara lin" in {e.lower() for e in r.entities} for r in mara.results)
    window = engine.search("keys", k=10, now=NOW, since="2025-03-04", until="2025-03-06", chunks=True)
    assert window.results
    assert all("2025-03-04" <= (r.timestamp or "")[:10] <= "2025-03-06" for r in window.results)


def test_until_a_date_alone_keeps_that_whole_day(tmp_path):
    """--since 2025-03-10 --until 2025-03-10 is that day, its 09:12 and 16:02 ledger lines too."""
    vault = tmp_path / "vault"
    (vault / "aster" / "ledger").mkdir(parents=True)
    (vault / "aster" / "ledger" / "2025-03.md").write_text(
        "# 2025-03\n\n- 2025-03-09 18:40 observed the boiler pressure at 1.2 bar\n"
        "- 2025-03-10 09:12 observed the boiler pressure at 1.4 bar\n"
        "- 2025-03-10 16:02 observed the boiler pressure at 0.9 bar\n"
        "- 2025-03-11 08:05 observed the boiler pressure at 1.3 bar\n"
    )
    index_vault(vault)
    engine = open_index(vault)
    response = engine.search(
        "boiler pressure", k=10, now=NOW, since="2025-03-10", until="2025-03-10", chunks=True
    )
    assert sorted((r.timestamp or "")[:16] for r in response.results) == [
        "2025-03-10T09:12",
        "2025-03-10T16:02",
    ]
    timed = engine.search("boiler pressure", k=10, now=NOW, until="2025-03-10T12:00", chunks=True)
    assert sorted((r.timestamp or "")[:16] for r in timed.results) == ["2025-03-09T18:40", "2025-03-10T09:12"]


def test_bad_queries_are_clear_errors(engine):
    with pytest.raises(QueryError, match="empty"):
        engine.search("   ")
    with pytest.raises(QueryError, match="since"):
        engine.search("keys", since="not a date")
    with pytest.raises(QueryError, match="fact_type"):
        engine.search("keys", fact_type="opinion")
    for k in (0, -1, "ten", 2.5, True):  # a plain MemsearchError, not the query's
        with pytest.raises(QueryError, match="k must be"):
            engine.search("keys", k=k)


@pytest.mark.parametrize(
    ("arguments", "named"),
    [
        ({"query": 5}, "query must be text"),
        ({"query": "keys", "territory": 5}, "territory must be text"),
        ({"query": "keys", "territory": ["journal/"]}, "territory must be text"),
        ({"query": "keys", "fact_type": 1}, "fact_type must be text"),
        ({"query": "keys", "strategies": [1]}, "strategies must be a list"),
        ({"query": "keys", "entities": 7}, "entities must be a list"),
    ],
)
def test_an_argument_of_another_type_is_refused_by_its_name(engine, arguments, named):
    # territory=5 raised AttributeError; search(5) said "the query is empty"
    with pytest.raises(QueryError, match=named):
        engine.search(**arguments)


def test_one_strategy_named_as_text_is_that_strategy(engine):
    # strategies="keyword" was read letter by letter: "unknown strategy 'k'"
    assert engine.search("sign_ed25519", strategies="keyword").health.ran == ("keyword",)
    # any collection of names is names; "" is all of them, as None is
    assert engine.search("sign_ed25519", strategies={"keyword"}).health.ran == ("keyword",)
    assert engine.search("sign_ed25519", strategies="").health.ran == engine.search("sign_ed25519").health.ran


def test_missing_vault_is_a_clear_error(tmp_path):
    with pytest.raises(VaultError, match="does not exist"):
        index_vault(tmp_path / "nowhere")


def test_bad_files_are_named_and_the_rest_is_indexed(vault_copy):
    (vault_copy / "binary.md").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00")
    (vault_copy / "latin1.md").write_bytes("caf\xe9 notes".encode("latin-1"))
    (vault_copy / "empty.md").write_text("")
    (vault_copy / "broken.md").write_text(
        "---\ntitle: [unclosed\n---\n# Broken\n\nStill searchable: zanzibar.\n"
    )
    report = index_vault(vault_copy)
    reasons = {s.path: s.reason for s in report.skipped}
    assert "binary" in reasons["binary.md"]
    assert "UTF-8" in reasons["latin1.md"]
    assert any("broken.md" in w for w in report.warnings)
    engine = open_index(vault_copy)
    assert engine.search("zanzibar", k=1).results[0].path == "broken.md"
    assert engine.search("sign_ed25519", k=1).results[0].path == "reference/redflag.md"


def test_without_vectors_search_is_degraded_not_broken(vault_copy):
    index_vault(vault_copy, embed=False)
    response = open_index(vault_copy).search("signing keys", k=5, now=NOW)
    assert response.results
    assert "semantic" in response.health.failed
    assert response.health.degraded
    assert "keyword" in response.health.ran


def test_save_then_load_gives_the_same_ranking(indexed_vault):
    first = open_index(indexed_vault).search("Berlin canal walk", k=5, now=NOW, chunks=True)
    second = open_index(indexed_vault).search("Berlin canal walk", k=5, now=NOW, chunks=True)
    assert [r.to_dict() for r in first.results] == [r.to_dict() for r in second.results]


def test_a_named_time_window_lifts_chunks_inside_it(engine):
    now = "2025-03-20T00:00:00+00:00"

    def in_window(response):
        return ["2025-03-10" <= (r.timestamp or "")[:10] <= "2025-03-17" for r in response.results]

    plain = engine.search("what happened", k=4, now=now, chunks=True)
    windowed = engine.search("what happened last week", k=4, now=now, chunks=True)
    assert sum(in_window(windowed)[:3]) >= 2
    assert sum(in_window(windowed)) > sum(in_window(plain))
    assert any("last week" in note for note in windowed.health.notes)


def test_a_low_score_means_a_thin_signal(engine):
    nonsense = engine.search("xylophone quantum banana", k=3, now=NOW, all_results=True)
    strong = engine.search("Ed25519 signing keys rotation", k=3, now=NOW)
    assert nonsense.signal.level == "none" and strong.signal.level == "strong"
    assert nonsense.results[0].score < 0.35
    assert strong.results[0].score > 0.5
    assert nonsense.results[0].score < strong.results[0].score / 2


def test_when_nothing_resonates_the_response_says_so_and_holds_no_results(engine):
    response = engine.search("xylophone quantum banana", k=3, now=NOW)
    assert response.results == ()
    assert response.signal.level == "none" and "no informative word" in response.signal.reason
    data = response.to_dict()
    assert data["signal"] == "none" and data["signal_reason"] == response.signal.reason
    assert engine.search("xylophone quantum banana", k=3, now=NOW, all_results=True).results


def test_the_shown_score_is_the_sum_of_its_explained_parts(engine):
    response = engine.search("who approved the new Ed25519 key?", k=5, now=NOW, explain=True)
    for r in response.results:
        score = r.explanation["score"]
        parts = sum(p["shown"] for p in r.explanation["strategies"].values())
        assert score["sum_of_parts"] == pytest.approx(parts, abs=1e-3)
        assert r.score == pytest.approx(score["shown"], abs=1e-4)
        if not score["capped"]:
            assert r.score == pytest.approx(parts, abs=2e-3)


def test_explain_shows_the_confidence_the_ranking_used(engine):
    response = engine.search("sign_ed25519 rotation", k=3, now=NOW, explain=True)
    shown = {
        name: part["confidence"]
        for r in response.results
        for name, part in r.explanation["strategies"].items()
        if name in ("semantic", "keyword")
    }
    assert set(shown) == {"semantic", "keyword"}
    # Relative confidences average one; an exact identifier makes keyword the surer list.
    assert shown["keyword"] > 1.0 > shown["semantic"]


def test_a_bare_day_matches_that_day_in_every_year(engine):
    """Asked in 2026, "on March 5" still finds the 2025-03-05 entry: a bare day recurs yearly."""
    response = engine.search(
        "what happened on March 5", k=3, now="2026-04-01T00:00:00+00:00", strategies=["time"]
    )
    assert response.results and response.results[0].path == "aster/ledger/2025-03.md"
    assert any("in every year" in note for note in response.health.notes)


def test_a_bare_month_matches_that_month_in_every_year(engine):
    response = engine.search(
        "what did I do in May", k=3, now="2026-04-01T00:00:00+00:00", strategies=["time"]
    )
    assert response.results and response.results[0].path == "journal/2023-05-08-session-01.md"


def test_a_keyword_head_that_holds_little_of_the_query_is_trusted_less(engine):
    """Matched on one word of five, the keyword list gives weight to the semantic one."""

    def keyword_confidence(query: str) -> float:
        response = engine.search(query, k=3, now=NOW, explain=True)
        return next(
            part["confidence"]
            for r in response.results
            for name, part in r.explanation["strategies"].items()
            if name == "keyword"
        )

    covered = keyword_confidence("sign_ed25519 rotation")
    thin = keyword_confidence("sign_ed25519 zebra giraffe walrus okapi")
    assert thin < covered * 0.75


def test_in_a_window_an_entry_outranks_notes_only_edited_then(tmp_path):
    """A journal day in the window ranks above a note that was merely edited in it (frontmatter
    `updated:`), although that edit is more recent: an edit date is not what the note is about. A
    note dated only by its file's mtime is not in the window at all (nothing in it says when)."""
    import os
    from datetime import UTC, datetime

    vault = tmp_path / "vault"
    (vault / "journal").mkdir(parents=True)
    (vault / "aster").mkdir()
    (vault / "journal" / "2025-03-12.md").write_text(
        "# 2025-03-12\n\nReplaced the pump seal on the greenhouse heater; it holds pressure again.\n"
    )
    (vault / "aster" / "heater-notes.md").write_text(
        "---\nupdated: 2025-03-14\n---\n# Heater notes\n\nThe greenhouse heater is a two kilowatt unit.\n"
    )
    checklist = vault / "aster" / "pump-checklist.md"
    checklist.write_text("# Pump checklist\n\nBleed the line, then check the seal for weeping.\n")
    edited = datetime(2025, 3, 15, 12, tzinfo=UTC).timestamp()
    os.utime(checklist, (edited, edited))
    index_vault(vault)
    response = open_index(vault).search(
        "what happened in March 2025", k=3, now=NOW, strategies=["time"], chunks=True
    )
    paths = [r.path for r in response.results]
    assert paths == ["journal/2025-03-12.md", "aster/heater-notes.md"], paths


def test_a_question_that_is_only_its_window_ranks_the_window_first(tmp_path):
    """'What happened last week?': once the window is stripped, only the question form is left for
    keyword and semantic search. A note that says "what happened" (in the covenant, weighted 1.3)
    must not outrank last week's entry."""
    vault = tmp_path / "vault"
    (vault / "journal").mkdir(parents=True)
    (vault / "system" / "covenant").mkdir(parents=True)
    (vault / "system" / "covenant" / "repair.md").write_text(
        "# Repair\n\nWhen something goes wrong I write down what happened, what it cost,"
        " and what happened next.\n"
    )
    (vault / "journal" / "2025-03-12.md").write_text(
        "# 2025-03-12\n\nReplaced the pump seal on the greenhouse heater; it holds pressure again.\n"
    )
    (vault / "journal" / "2025-01-20.md").write_text("# 2025-01-20\n\nSowed the first tomato trays.\n")
    index_vault(vault)
    response = open_index(vault).search("What happened last week?", k=3, now="2025-03-17T09:00:00+00:00")
    assert [r.path for r in response.results][:1] == ["journal/2025-03-12.md"], response.results


def test_a_question_of_scaffolding_alone_runs_no_keyword_search(engine):
    """ "What happened last week": with the week as the window, only the question's form is left."""
    response = engine.search("what happened last week?", k=3, now=NOW)
    assert "question-form" in response.health.skipped["keyword"]
    assert "keyword" in engine.search("what happened to redflag last week?", k=3, now=NOW).health.ran


def test_an_empty_vault_is_no_failure_of_the_semantic_list(tmp_path):
    # It was "semantic search failed: no vectors in the index; run `memsearch index VAULT`", degraded:
    # advice that changed nothing, for a vault with nothing to embed.
    vault = tmp_path / "empty"
    vault.mkdir()
    index_vault(vault)
    with open_index(vault) as opened:
        response = opened.search("redflag")
    assert not response.health.failed and not response.health.degraded
    assert response.health.skipped["semantic"] == "the vault holds no memory yet"
    assert response.signal.level == "none"
