"""A notebook (YAML sessions and moments) indexed by the real engine beside the markdown vault."""

from __future__ import annotations

import math
from datetime import UTC, datetime
from pathlib import Path

import pytest
from notebook_fixture import MOMENTS, dump, moment_document, write_notebook

from memsearch.api import index_vault, open_index, reindex

NOW = datetime(2026, 3, 20, tzinfo=UTC)


@pytest.fixture(scope="module")
def notebook_vault(tmp_path_factory) -> Path:
    """A vault with one markdown note and a notebook/ folder, plus bad notebook files, indexed."""
    vault = tmp_path_factory.mktemp("nb") / "vault"
    (vault / "reference").mkdir(parents=True)
    note = "# Garden\n\nThe greenhouse heater needs a new thermostat.\n"
    (vault / "reference" / "garden.md").write_text(note)
    write_notebook(vault / "notebook")
    bad = vault / "notebook" / "sessions" / "s-bad" / "moments"
    bad.mkdir(parents=True)
    (bad / "m-broken.yaml").write_text("moment: [unclosed\n")
    (bad / "m-noid.yaml").write_text("moment:\n  modalities: {text: nobody knows me}\n")
    (vault / "notebook" / "sessions" / "s-future.yaml").write_text("notebook:\n  schema_version: '7.0'\n")
    (vault / "notebook" / "scratch.yaml").write_text("not: a memory\n")  # not a notebook file: not read
    report = index_vault(vault)
    vault.joinpath("report.txt").write_text(repr({s.path: s.reason for s in report.skipped}))
    return vault


def test_moments_and_sessions_are_indexed_and_bad_files_named(notebook_vault):
    report = index_vault(notebook_vault)  # nothing changed: the skipped list is the manifest's
    reasons = {s.path: s.reason for s in report.skipped}
    assert "malformed YAML" in reasons["notebook/sessions/s-bad/moments/m-broken.yaml"]
    assert "no `id`" in reasons["notebook/sessions/s-bad/moments/m-noid.yaml"]
    assert "'7.0'" in reasons["notebook/sessions/s-future.yaml"]
    assert "notebook/scratch.yaml" not in reasons and "notebook/index.yaml" not in reasons
    status = open_index(notebook_vault).status()
    assert status["files"] == 1 + 3 + len(MOMENTS)  # the note, the sessions, the moments


@pytest.mark.parametrize(
    ("query", "moment"),
    [
        ("grinding noise from the server rack fan", "m-0202"),  # its text
        ("espresso machine", "m-0201"),  # a concept
        ("quarterly filing", "m-0302"),  # a retrieval key
    ],
)
def test_a_text_query_finds_a_moment_by_its_text_concepts_and_keys(notebook_vault, query, moment):
    top = open_index(notebook_vault).search(query, k=3, now=NOW, chunks=True).results[0]
    assert top.path.endswith(f"/{moment}.yaml")
    assert (top.territory, top.fact_type) == ("notebook", "experience")


def test_a_session_decision_points_at_its_own_lines(notebook_vault):
    hits = open_index(notebook_vault).search("use ed25519 for the new key", k=5, now=NOW, chunks=True).results
    decision = next(r for r in hits if r.path == "notebook/sessions/s-alpha.yaml" and r.heading == "decision")
    text = (notebook_vault / decision.path).read_text()
    lines = text.split("\n")[decision.start_line - 1 : decision.end_line]
    assert any("use ed25519" in line for line in lines)
    assert not any("publish on the release page" in line for line in lines)


def test_a_notebook_indexed_on_its_own_is_its_own_territory(tmp_path):
    root = write_notebook(tmp_path / "senter-notebook")
    (root / "memsearch.toml").write_text('[[territory]]\nprefix = "notebook/"\nweight = 1.4\nname = "nb"\n')
    report = index_vault(root)
    assert report.files == 3 + len(MOMENTS) and not report.skipped
    engine = open_index(root)
    top = engine.search("espresso machine", k=1, now=NOW, chunks=True, explain=True).results[0]
    assert top.path == "sessions/s-beta/moments/m-0201.yaml"
    assert top.territory == "nb" and top.fact_type == "experience"
    # the configured weight, times the moment's importance prior (0.2: 0.5 + 0.5 * 0.2)
    assert top.explanation["territory_weight"] == pytest.approx(1.4 * 0.6)


# -- incremental and versioned like the rest ---------------------------------------------------------


def _moment_file(root: Path, session: str, moment_id: str) -> Path:
    return root / "sessions" / session / "moments" / f"{moment_id}.yaml"


def _new_moment(root: Path, moment_id: str, text: str) -> Path:
    doc = moment_document("s-gamma", "m-0303")
    doc["moment"].update(id=moment_id, concepts=["zebracorn sighting"], retrieval_keys=[])
    doc["moment"]["modalities"]["text"] = text
    path = _moment_file(root, "s-gamma", moment_id)
    path.write_text(dump(doc))
    return path


def test_new_edited_and_deleted_moments_are_picked_up_and_unchanged_text_embeds_nothing(tmp_path):
    root = write_notebook(tmp_path / "nb")
    first = index_vault(root)
    assert first.embedded == first.chunks  # a fresh index embeds every chunk once
    lunch = _moment_file(root, "s-alpha", "m-0103")
    lunch.write_text(lunch.read_text().replace("noodles for everyone", "dumplings for everyone"))
    edited = index_vault(root)
    assert edited.changed == ("sessions/s-alpha/moments/m-0103.yaml",) and edited.embedded == 1
    _new_moment(root, "m-0305", "Saw a striped horse with a horn at the fair.")
    added = reindex(root)
    assert added.added == ("sessions/s-gamma/moments/m-0305.yaml",) and added.embedded == 1
    _moment_file(root, "s-gamma", "m-0304").unlink()
    removed = index_vault(root)
    assert removed.removed == ("sessions/s-gamma/moments/m-0304.yaml",) and removed.embedded == 0
    # A moment whose searchable text is the same (only its importance and signatures changed) is
    # indexed again, and its vector comes from the cache: nothing is embedded.
    espresso = _moment_file(root, "s-beta", "m-0201")
    espresso.write_text(
        espresso.read_text().replace("importance: 0.2", "importance: 0.3").replace("aaaa", "dddd")
    )
    same_text = index_vault(root)
    assert same_text.changed == ("sessions/s-beta/moments/m-0201.yaml",) and same_text.embedded == 0
    assert index_vault(root).commit is None  # nothing left to do
    engine = open_index(root)
    paths = lambda q: [r.path for r in engine.search(q, k=3, now=NOW, chunks=True).results]  # noqa: E731
    assert paths("dumplings for everyone")[0].endswith("m-0103.yaml")
    assert paths("striped horse with a horn")[0].endswith("m-0305.yaml")
    assert not any(p.endswith("m-0304.yaml") for p in paths("rain on the tin roof"))


def test_update_file_indexes_a_new_moment_at_once(tmp_path):
    root = write_notebook(tmp_path / "nb")
    index_vault(root)
    engine = open_index(root)
    path = _new_moment(root, "m-0306", "The zebracorn parade went past the bakery.")
    update = engine.update_file(path)
    assert update.action == "added" and update.chunks == 1
    hits = engine.search("zebracorn parade", k=3, strategies=["keyword"], chunks=True).results
    assert hits and hits[0].path == "sessions/s-gamma/moments/m-0306.yaml"
    assert engine.wait_for_embeddings(60) and engine.last_error is None
    path.write_text("moment: [broken\n")
    assert engine.update_file(path).action in {"skipped", "removed"}
    assert engine.wait_for_embeddings(60)
    engine.close()


def test_a_watcher_follows_a_new_moment(tmp_path):
    import threading
    import time

    from memsearch.watch import Watcher, look

    root = write_notebook(tmp_path / "nb")
    assert "sessions/s-alpha/moments/m-0101.yaml" in look(root) and "index.yaml" not in look(root)
    index_vault(root, embed=False)
    watcher = Watcher(root, interval=0.1, debounce=0.3, embed=False)
    thread = threading.Thread(target=watcher.run, kwargs={"max_seconds": 60})
    thread.start()
    try:
        time.sleep(0.5)
        _new_moment(root, "m-0307", "A zebracorn statue in the town square.")
        deadline = time.monotonic() + 30
        found = []
        while time.monotonic() < deadline and not found:
            time.sleep(0.2)
            found = open_index(root).search("zebracorn statue", k=1, strategies=["keyword"]).results
        assert found and found[0].path == "sessions/s-gamma/moments/m-0307.yaml"
    finally:
        watcher.stop()
        thread.join(30)


# -- relations in the graph --------------------------------------------------------------------------


def _graph_paths(engine, query: str) -> dict[str, list[str]]:
    response = engine.search(query, k=20, strategies=["graph"], chunks=True, explain=True, all_results=True)
    return {r.path: r.explanation.get("graph_paths", []) for r in response.results}


def test_a_moment_only_linked_from_another_session_is_found_by_the_graph(notebook_vault):
    # m-0302 (session s-gamma) shares no word with m-0101 (s-alpha): only m-0101's linked_to names it
    found = _graph_paths(open_index(notebook_vault), "keyrotation")
    linked = "notebook/sessions/s-gamma/moments/m-0302.yaml"
    assert linked in found
    assert any("keyrotation -> m 0302" in path for path in found[linked])


def test_without_the_link_the_graph_does_not_reach_it(tmp_path):
    root = write_notebook(tmp_path / "nb")
    source = _moment_file(root, "s-alpha", "m-0101")
    source.write_text(source.read_text().replace("linked_to:\n  - m-0302", "linked_to: []"))
    index_vault(root, embed=False)
    assert "sessions/s-gamma/moments/m-0302.yaml" not in _graph_paths(open_index(root), "keyrotation")


def test_parents_children_compaction_summaries_and_session_links_are_edges(notebook_vault):
    engine = open_index(notebook_vault)
    moments = "notebook/sessions/{}/moments/{}.yaml".format
    # a parent's key reaches its child (child_moments), a child's key its parent (parent_moment)
    assert moments("s-beta", "m-0203") in _graph_paths(engine, "fan noise")
    assert moments("s-alpha", "m-0101") in _graph_paths(engine, "public key publication")
    # a compaction summary leads to the moments it names
    summary = _graph_paths(engine, "morning summary")
    assert {moments("s-alpha", "m-0101"), moments("s-alpha", "m-0102")} <= set(summary)
    # a session's links: to a moment of another session, and to a note of the vault
    assert moments("s-gamma", "m-0302") in _graph_paths(engine, "s-alpha")
    assert "reference/garden.md" in _graph_paths(engine, "s-beta")


# -- importance and decay ----------------------------------------------------------------------------


def _twins(root: Path, first: dict, second: dict) -> None:
    """Two moments of the same words (so every strategy ties them), differing only in ``first`` and
    ``second``'s fields; m-a comes first in the vault's order, the tie-breaker."""
    for moment_id, fields in (("m-a", first), ("m-b", second)):
        doc = moment_document("s-gamma", "m-0303")
        doc["moment"].update(id=moment_id, concepts=["hammock"], retrieval_keys=[], importance=None)
        doc["moment"].update({"decay_rate": None, "timestamp": "2026-02-18T09:00:00Z", **fields})
        doc["moment"]["modalities"]["text"] = "Strung the hammock between the two oaks."
        _moment_file(root, "s-gamma", moment_id).write_text(dump(doc))


def test_importance_is_a_prior_on_the_score_shown_in_explain(tmp_path):
    root = write_notebook(tmp_path / "nb")
    _twins(root, {"importance": 0.1}, {"importance": 0.9})
    index_vault(root)
    results = open_index(root).search("hammock oaks", k=2, now=NOW, chunks=True, explain=True).results
    assert [Path(r.path).stem for r in results] == ["m-b", "m-a"]  # the important one, against path order
    important, other = (r.explanation for r in results)
    assert important["importance"] == {"importance": 0.9, "prior": 0.95}
    assert other["importance"] == {"importance": 0.1, "prior": 0.55}
    assert important["territory_weight"] == pytest.approx(1.0 * 0.95)  # the prior rides on it
    assert results[1].score < results[0].score


def test_a_moment_s_decay_rate_replaces_the_territory_half_life_shown_in_explain(tmp_path):
    root = write_notebook(tmp_path / "nb")
    _twins(root, {"decay_rate": 0.5}, {"decay_rate": 0.001})  # a month old at NOW
    index_vault(root)
    results = open_index(root).search("hammock oaks", k=2, now=NOW, chunks=True, explain=True).results
    assert [Path(r.path).stem for r in results] == ["m-b", "m-a"]  # the slow fader, against path order
    slow, fast = (r.explanation for r in results)
    assert slow["decay"] == {"decay_rate": 0.001, "half_life_days": 693.15}
    assert fast["decay"] == {"decay_rate": 0.5, "half_life_days": 1.39}
    recency = {name: e["strategies"]["time"]["raw_score"] for name, e in (("slow", slow), ("fast", fast))}
    age = (NOW - datetime(2026, 2, 18, 9, tzinfo=UTC)).total_seconds() / 86_400
    assert recency["slow"] == pytest.approx(math.exp(-0.001 * age), abs=1e-5)
    assert recency["fast"] == pytest.approx(math.exp(-0.5 * age), abs=1e-5)


def test_a_bad_importance_or_decay_rate_is_named_and_the_moment_indexed(tmp_path):
    root = write_notebook(tmp_path / "nb")
    _twins(root, {"importance": 7, "decay_rate": "fast"}, {})
    report = index_vault(root)
    assert any("m-a.yaml" in w and "`importance` 7" in w for w in report.warnings)
    assert any("m-a.yaml" in w and "`decay_rate` 'fast'" in w for w in report.warnings)
    explanation = open_index(root).search("hammock", k=1, now=NOW, chunks=True, explain=True).results[0]
    assert "importance" not in explanation.explanation and "decay" not in explanation.explanation


# -- forgetting a concept ----------------------------------------------------------------------------


def test_forget_concept_with_purge_leaves_no_byte_of_its_moments(tmp_path):
    from click.testing import CliRunner
    from index_bytes import every_byte

    from memsearch.cli import main

    root = write_notebook(tmp_path / "nb")
    index_vault(root)
    home = root / ".memsearch"
    tagged = [m for m in MOMENTS if "server rack" in m[3]]
    assert len(tagged) == 2  # m-0202 and m-0203
    result = CliRunner().invoke(
        main, ["forget", "--concept", "server rack", "--vault", str(root), "--purge-history"]
    )
    assert result.exit_code == 0, result.output
    engine = open_index(root)
    assert not any("server rack" in c.entities for c in engine.index.chunks.values())
    assert any(c.path.endswith("m-0201.yaml") for c in engine.index.chunks.values())  # the rest stays
    for _session, _id, text, *_ in tagged:
        for where, data in every_byte(home):
            assert text.encode() not in data, where
    index_vault(root)  # the files are still in the notebook: they stay out
    assert not any("grinding" in c.text for c in open_index(root).index.chunks.values())
    both = CliRunner().invoke(main, ["forget", "--concept", "a", "--entity", "b", "--vault", str(root)])
    assert both.exit_code != 0 and "not both" in both.output
