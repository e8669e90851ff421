"""A moment's vector sidecars are part of the moment: an edited sidecar re-indexes it, an unchanged
one re-adds nothing, and a bad one leaves the moment's text indexed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from notebook_fixture import moment_path, sidecar_vector, write_notebook, write_sidecars

from memsearch.api import index_vault
from memsearch.watch import look

MOMENT = "notebook/sessions/s-alpha/moments/m-0101.yaml"


def test_an_edited_sidecar_reindexes_its_moment_and_nothing_else(tmp_path: Path):
    vault = tmp_path / "vault"
    write_notebook(vault / "notebook")
    write_sidecars(vault / "notebook")
    first = index_vault(vault)
    assert MOMENT in first.added and not first.skipped

    again = index_vault(vault)  # nothing changed, sidecars included
    assert again.commit is None and not again.changed

    sidecar = moment_path(vault / "notebook", "s-alpha", "m-0101").with_suffix(".audio.npy")
    np.save(sidecar, sidecar_vector("m-0102", "audio"))
    edited = index_vault(vault)
    assert edited.changed == (MOMENT,)
    assert edited.embedded == 0  # its text is the same: the embedding cache has it

    sidecar.unlink()  # a sidecar removed is a change of its moment too
    removed = index_vault(vault)
    assert removed.changed == (MOMENT,)


def test_a_bad_sidecar_keeps_the_moment_text_indexed(tmp_path: Path):
    vault = tmp_path / "vault"
    write_notebook(vault / "notebook")
    sidecar = moment_path(vault / "notebook", "s-alpha", "m-0101").with_suffix(".image.npy")
    np.save(sidecar, np.array([np.nan, 1.0], dtype=np.float32))
    report = index_vault(vault)
    assert MOMENT in report.added
    assert MOMENT not in {s.path for s in report.skipped}
    named = [w for w in report.warnings if "m-0101.image.npy" in w]
    assert len(named) == 1 and "NaN or infinite" in named[0]


def test_sidecars_of_one_modality_must_agree_on_their_dimension(tmp_path: Path):
    vault = tmp_path / "vault"
    write_notebook(vault / "notebook")
    write_sidecars(vault / "notebook", ("audio",))
    odd = moment_path(vault / "notebook", "s-gamma", "m-0304").with_suffix(".audio.npy")
    np.save(odd, np.ones(7, dtype=np.float32))  # every other audio vector has 16 values
    report = index_vault(vault)
    named = [w for w in report.warnings if "m-0304.audio.npy" in w]
    assert len(named) == 1 and "7 values" in named[0] and "have 16" in named[0]
    assert not [w for w in report.warnings if ".audio.npy" in w and "m-0304" not in w]


def test_an_opted_out_modality_is_never_read_and_a_declared_one_is(tmp_path: Path):
    vault = tmp_path / "vault"
    write_notebook(vault / "notebook")
    write_sidecars(vault / "notebook", ("audio",))
    folder = moment_path(vault / "notebook", "s-alpha", "m-0101").parent
    np.save(folder / "m-0102.depth.npy", np.ones((2, 2), dtype=np.float32))  # bad, but not declared
    assert not [w for w in index_vault(vault).warnings if ".npy" in w]

    (vault / "memsearch.toml").write_text("[modalities]\naudio = false\ndepth = true\n")
    report = index_vault(vault)
    named = [w for w in report.warnings if ".npy" in w]
    assert len(named) == 1 and "m-0102.depth.npy" in named[0] and "1-D" in named[0]
    # audio is out of the moments' hashes now: every moment with an audio sidecar was looked at again
    assert MOMENT in report.changed

    np.save(folder / "m-0101.audio.npy", np.array([np.nan], dtype=np.float32))  # opted out: unread
    after = index_vault(vault)
    assert after.commit is None and not [w for w in after.warnings if "audio" in w]


def test_watch_sees_a_sidecar_change_as_a_change_of_its_moment(tmp_path: Path):
    vault = tmp_path / "vault"
    write_notebook(vault / "notebook")
    write_sidecars(vault / "notebook", ("audio",))
    before = look(vault)
    assert MOMENT in before and not [p for p in before if p.endswith(".npy")]
    sidecar = moment_path(vault / "notebook", "s-alpha", "m-0101").with_suffix(".audio.npy")
    np.save(sidecar, sidecar_vector("m-0102", "audio"))
    edited = look(vault)
    assert {p for p in edited if edited[p] != before[p]} == {MOMENT}
    sidecar.unlink()
    assert look(vault)[MOMENT] != edited[MOMENT]


def test_opening_a_moment_with_sidecars_says_it_changed_only_when_it_did(tmp_path: Path):
    # The index keeps a moment's hash with its sidecars folded in; memory_open compared it with the
    # file's alone and said every such moment "changed since the index was built".
    from memsearch.tool import MemoryTools, memory_open

    vault = tmp_path / "vault"
    write_notebook(vault / "notebook")
    write_sidecars(vault / "notebook")
    index_vault(vault, embed=False)
    for answer in (
        memory_open(f"{MOMENT}:1-3", vault=vault),
        MemoryTools(vault).memory_open(f"{MOMENT}:1-3"),
    ):
        assert answer["ok"] and not [w for w in answer["warnings"] if "changed since" in w], answer
    path = vault / MOMENT
    path.write_text(path.read_text(encoding="utf-8") + "# an edit\n", encoding="utf-8")
    changed = memory_open(f"{MOMENT}:1-3", vault=vault)
    assert any("changed since the index was built" in w for w in changed["warnings"]), changed
