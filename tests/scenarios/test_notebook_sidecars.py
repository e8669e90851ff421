"""A moment's vector sidecars are part of the moment: an edited sidecar re-indexes it, an unchanged
one re-adds nothing, and a bad one leaves the moment's text indexed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from notebook_fixture import moment_path, sidecar_vector, write_notebook, write_sidecars

from memsearch.api import index_vault

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
