"""``memsearch unredact MOMENT_ID``: a redaction that was not purged taken back, as ``memsearch
unforget`` takes back a forget: the moment leaves the redacted list (the index home's and the vault's
copy) and its sidecars are read again by the next index run, though its files did not change."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from notebook_fixture import sidecar_vector, write_notebook, write_sidecars

from memsearch.api import index_vault, open_index, redact, unredact
from memsearch.cli import main
from memsearch.index.forget_list import VAULT_FORGET_FILE

MOMENT = "notebook/sessions/s-alpha/moments/m-0101.yaml"
MODALITIES = ("audio", "image", "joint")


def indexed(tmp_path: Path) -> Path:
    vault = tmp_path / "vault"
    write_notebook(vault / "notebook")
    write_sidecars(vault / "notebook")
    index_vault(vault)
    return vault


def held(vault: Path) -> list[str]:
    """The modalities the index holds a vector of m-0101 in."""
    index = open_index(vault).index
    cid = index.manifest["files"][MOMENT]["chunks"][0]
    return [m for m in MODALITIES if cid in index.modal.get(m, {})]


def first_by_audio(vault: Path) -> str | None:
    results = open_index(vault).search(vectors={"audio": sidecar_vector("m-0101", "audio").tolist()}).results
    return results[0].path if results else None


def vault_copy(vault: Path) -> dict:
    return json.loads((vault / VAULT_FORGET_FILE).read_text(encoding="utf-8"))


def test_unredact_then_index_reads_the_unchanged_moments_sidecars_again(tmp_path):
    vault = indexed(tmp_path)
    assert held(vault) == list(MODALITIES) and first_by_audio(vault) == MOMENT
    redact(vault, ["m-0101"])
    assert held(vault) == [] and first_by_audio(vault) != MOMENT
    index_vault(vault)  # still redacted: a run leaves them unread
    assert held(vault) == [] and vault_copy(vault).get("redacted")

    run = CliRunner().invoke(main, ["unredact", "m-0101", "--vault", str(vault)])
    assert run.exit_code == 0, run.output
    assert f"unredacted {MOMENT}" in run.output and "memsearch index" in run.output
    assert not vault_copy(vault).get("redacted")
    assert held(vault) == []  # nothing is read before the index run

    report = index_vault(vault)
    assert MOMENT in report.changed
    assert held(vault) == list(MODALITIES) and first_by_audio(vault) == MOMENT
    assert "redacted" not in open_index(vault).index.manifest
    assert not index_vault(vault).changed  # read once: the next run has nothing to do


def test_unredact_with_index_runs_the_index_itself(tmp_path):
    vault = indexed(tmp_path)
    redact(vault, ["m-0101"])
    run = CliRunner().invoke(main, ["unredact", "m-0101", "--vault", str(vault), "--index"])
    assert run.exit_code == 0, run.output
    assert "read again" in run.output
    assert held(vault) == list(MODALITIES) and first_by_audio(vault) == MOMENT


def test_a_moment_not_redacted_or_unknown_is_refused_naming_it(tmp_path):
    vault = indexed(tmp_path)
    for moment_id in ("m-0101", "m-9999"):  # m-0101 is not redacted; m-9999 is no moment
        run = CliRunner().invoke(main, ["unredact", moment_id, "--vault", str(vault)])
        assert run.exit_code == 1, run.output
        assert moment_id in run.output and "Nothing was changed" in run.output
        assert "Traceback" not in run.output


def test_a_purged_redaction_needs_force(tmp_path):
    vault = indexed(tmp_path)
    redact(vault, ["m-0101"], purge_history=True)
    run = CliRunner().invoke(main, ["unredact", "m-0101", "--vault", str(vault)])
    assert run.exit_code == 1 and "--purge-history" in run.output and "--force" in run.output
    assert vault_copy(vault).get("redacted")  # nothing changed
    assert unredact(vault, ["m-0101"], force=True) == [MOMENT]
    index_vault(vault)
    assert held(vault) == list(MODALITIES)  # the vault's sidecars, indexed again


def test_a_run_that_gives_a_preview_back_its_committed_text_keeps_an_unredacted_moment_to_read(tmp_path):
    """A moment unredacted and not in a run over some files stays recorded as unread (the next full
    run reads its sidecars), also where that run gives a preview back its committed chunks: a file
    edited through ``update_file`` and put back before the commit ran."""
    from memsearch.lock import index_lock

    vault = indexed(tmp_path)
    note = vault / "notes" / "plain.md"
    note.parent.mkdir()
    note.write_text("# Plain\n\nA note about kettles.\n", encoding="utf-8")
    index_vault(vault)
    redact(vault, ["m-0101"])
    index_vault(vault)
    unredact(vault, ["m-0101"])
    committed = note.read_text(encoding="utf-8")
    with open_index(vault) as engine:
        with index_lock(engine.index_home, timeout=None):  # the commit waits until the file is back
            note.write_text(committed + "\nA new line about teapots.\n", encoding="utf-8")
            engine.update_file("notes/plain.md")
            note.write_text(committed, encoding="utf-8")
            engine.update_file("notes/plain.md")
        assert engine.wait_for_embeddings(timeout=60)
        assert engine.writes.last_error is None  # the commit went through (it raised KeyError)
        assert engine.search("teapots", k=3, strategies=["keyword"]).results == ()
        assert [r.path for r in engine.search("kettles", k=1, strategies=["keyword"]).results] == [
            "notes/plain.md"
        ]
    assert held(vault) == []  # that run read notes/plain.md only
    index_vault(vault)
    assert held(vault) == list(MODALITIES)
