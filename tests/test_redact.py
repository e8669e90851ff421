"""Privacy of a notebook's vectors: ``memsearch redact MOMENT_ID`` takes a moment's sidecar vectors
(every modality) out and keeps its text; ``memsearch forget --concept NAME`` takes every moment tagged
with it; with ``--purge-history`` no byte of those vectors is left in the index folder, ``.git``
included (the byte-level check of tests/test_forget.py, over every modality)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
from click.testing import CliRunner
from index_bytes import every_byte
from notebook_fixture import moment_path, sidecar_vector, write_notebook, write_sidecars

from memsearch.api import index_vault, log, open_index
from memsearch.cli import main

MOMENT = "notebook/sessions/s-alpha/moments/m-0101.yaml"
TEXT = "Rotated the signing key after the audit flagged the old one as weak."
MODALITIES = ("audio", "image", "joint")


def stored_vectors(vault: Path, path: str) -> list[bytes]:
    """The bytes of the vectors the index holds for the moment at ``path``, every modality."""
    index = open_index(vault).index
    cid = index.manifest["files"][path]["chunks"][0]
    return [index.modal[m].by_id[cid].tobytes() for m in MODALITIES if cid in index.modal.get(m, {})]


def notebook_vault(tmp_path: Path) -> tuple[Path, list[bytes]]:
    """A vault with the fixture notebook and its sidecars, indexed twice (m-0101's audio edited in
    between, so history holds two of its audio vectors); the bytes of every m-0101 vector so far."""
    vault = tmp_path / "vault"
    write_notebook(vault / "notebook")
    write_sidecars(vault / "notebook")
    index_vault(vault)
    secret = stored_vectors(vault, MOMENT) + [sidecar_vector("m-0101", m).tobytes() for m in MODALITIES]
    edited = -sidecar_vector("m-0101", "audio")
    np.save(moment_path(vault / "notebook", "s-alpha", "m-0101").with_suffix(".audio.npy"), edited)
    index_vault(vault)
    secret += [*stored_vectors(vault, MOMENT), edited.tobytes()]
    secret = list(dict.fromkeys(secret))  # the fixture's vectors are unit already: stored as saved
    assert len(secret) >= 4  # two audio vectors (the edited one in history), the image, the joint
    return vault, secret


def find(home: Path, wanted: list[bytes]) -> list[str]:
    """Where any of ``wanted`` (or its first 8 floats) is found under ``home``."""
    return [where for where, data in every_byte(home) for w in wanted if w in data or w[:32] in data]


def test_redact_with_purge_leaves_no_byte_of_any_modality_and_keeps_the_text(tmp_path):
    vault, secret = notebook_vault(tmp_path)
    home = vault / ".memsearch"
    other = stored_vectors(vault, "notebook/sessions/s-alpha/moments/m-0102.yaml")
    assert find(home, secret)  # the check can see them: they are there before
    n_commits = len(log(vault))

    run = CliRunner().invoke(main, ["redact", "m-0101", "--vault", str(vault), "--purge-history"])
    assert run.exit_code == 0, run.output
    assert "redacted 1 moment(s): 3 vector(s) removed" in run.output and "history purged" in run.output

    assert find(home, secret) == []
    assert len(log(vault)) == n_commits + 1
    # its text stays searchable; its vectors are gone at every (rewritten) commit; others stay
    engine = open_index(vault)
    assert MOMENT in [r.path for r in engine.search("signing key audit flagged", k=5).results]
    assert [mid for mid in MODALITIES if len(engine.index.modal[mid]) != 11] == []
    assert set(stored_vectors(vault, "notebook/sessions/s-alpha/moments/m-0102.yaml")) == set(other)
    for i in range(len(log(vault))):
        old = open_index(vault, at=f"HEAD~{i}").index
        if MOMENT in old.manifest["files"]:
            cid = old.manifest["files"][MOMENT]["chunks"][0]
            assert not any(cid in index for index in old.modal.values())
    # the redacted list holds a hash, never the path; later runs keep the sidecars unread
    assert MOMENT.encode() not in (home / "forgotten.json").read_bytes()
    assert b"m-0101" not in (vault / ".memsearch-forgotten.json").read_bytes()
    path = vault / MOMENT
    path.write_text(path.read_text(encoding="utf-8").replace("weak.", "weak, again."), encoding="utf-8")
    report = index_vault(vault)
    assert MOMENT in report.changed
    assert find(home, secret) == []
    assert open_index(vault).index.manifest["files"][MOMENT].get("modal") is None
    fsck = subprocess.run(["git", "-C", str(home / "repo"), "fsck", "--strict"], capture_output=True)
    assert fsck.returncode == 0, fsck.stderr


def test_redact_without_purge_is_one_commit_and_history_keeps_them(tmp_path):
    vault, secret = notebook_vault(tmp_path)
    home = vault / ".memsearch"
    run = CliRunner().invoke(main, ["redact", "m-0101", "--vault", str(vault)])
    assert run.exit_code == 0, run.output
    head = open_index(vault).index
    assert not any(head.manifest["files"][MOMENT]["chunks"][0] in i for i in head.modal.values())
    before = open_index(vault, at="HEAD~1").index
    assert all(before.manifest["files"][MOMENT]["chunks"][0] in i for i in before.modal.values())
    assert find(home, secret)  # not purged: the older commits still hold them

    run = CliRunner().invoke(main, ["redact", "m-9999", "--vault", str(vault)])
    assert run.exit_code == 1 and "m-9999" in run.output and "Nothing was changed" in run.output


def test_forget_concept_with_purge_leaves_no_byte_of_its_moments_vectors_or_text(tmp_path):
    vault, secret = notebook_vault(tmp_path)
    home = vault / ".memsearch"
    assert find(home, secret) and any(TEXT.encode() in data for _, data in every_byte(home))

    run = CliRunner().invoke(
        main, ["forget", "--concept", "keyrotation", "--vault", str(vault), "--purge-history"]
    )
    assert run.exit_code == 0, run.output

    assert find(home, secret) == []
    assert not [where for where, data in every_byte(home) if TEXT.encode() in data]
    engine = open_index(vault)
    assert MOMENT not in [r.path for r in engine.search("signing key audit flagged", k=10).results]
    assert {m: len(i) for m, i in engine.index.modal.items()} == dict.fromkeys(MODALITIES, 11)
    index_vault(vault)  # the files stay in the vault: later runs keep the moment (and its vectors) out
    assert find(home, secret) == []


def test_redact_reaches_every_moment_that_declares_the_id(tmp_path):
    # A moment file named otherwise that declares the same id (the index warns that its id differs
    # from its file name): redact by the id took out only the file named by it, and a search by its
    # audio still found the other.
    import shutil

    vault = tmp_path / "vault"
    write_notebook(vault / "notebook")
    write_sidecars(vault / "notebook")
    original = moment_path(vault / "notebook", "s-alpha", "m-0101")
    twin = original.with_name("m-twin.yaml")
    shutil.copy(original, twin)
    for modality in MODALITIES:
        shutil.copy(original.with_suffix(f".{modality}.npy"), twin.with_suffix(f".{modality}.npy"))
    index_vault(vault)
    run = CliRunner().invoke(main, ["redact", "m-0101", "--vault", str(vault)])
    assert run.exit_code == 0, run.output
    index = open_index(vault).index
    twin_path = MOMENT.replace("m-0101.yaml", "m-twin.yaml")
    for path in (MOMENT, twin_path):
        cid = index.manifest["files"][path]["chunks"][0]
        assert not any(cid in vectors for vectors in index.modal.values()), path
    run = CliRunner().invoke(main, ["unredact", "m-0101", "--vault", str(vault)])
    assert run.exit_code == 0 and "m-twin.yaml" in run.output, run.output
