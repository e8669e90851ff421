"""A notebook (YAML sessions and moments) indexed by the real engine beside the markdown vault."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from notebook_fixture import MOMENTS, write_notebook

from memsearch.api import index_vault, open_index

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
    assert top.explanation["territory_weight"] == pytest.approx(1.4)
