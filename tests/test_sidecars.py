"""A moment's vector sidecars: read with numpy (no pickle), checked, and folded into its hash."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from notebook_fixture import SIDECAR_DIMENSIONS, sidecar_vector

from memsearch.sidecars import (
    DEFAULT_MODALITIES,
    MAX_SIDECAR_BYTES,
    Sidecar,
    fold_hash,
    read_moment_sidecars,
    read_sidecar,
    sidecar_path,
    sidecars_digest,
)

MOMENT = "notebook/sessions/s-alpha/moments/m-0101.yaml"


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    folder = tmp_path / "notebook" / "sessions" / "s-alpha" / "moments"
    folder.mkdir(parents=True)
    (tmp_path / MOMENT).write_text("moment: {id: m-0101}\n")
    return tmp_path


def save(vault: Path, modality: str, array: object) -> str:
    rel = sidecar_path(MOMENT, modality)
    np.save(vault / rel, array, allow_pickle=True)
    return rel


def test_sidecar_path_sits_beside_the_moment():
    assert sidecar_path(MOMENT, "audio") == "notebook/sessions/s-alpha/moments/m-0101.audio.npy"


def test_a_good_sidecar_is_read_as_float32(vault):
    rel = save(vault, "audio", sidecar_vector("m-0101", "audio").astype(np.float64))
    got = read_sidecar(vault, rel, "audio", SIDECAR_DIMENSIONS["audio"])
    assert isinstance(got, Sidecar)
    assert got.vector.dtype == np.float32 and got.vector.shape == (SIDECAR_DIMENSIONS["audio"],)
    np.testing.assert_allclose(got.vector, sidecar_vector("m-0101", "audio"), rtol=1e-6)


@pytest.mark.parametrize(
    ("array", "reason"),
    [
        (np.ones((4, 4), dtype=np.float32), "must be 1-D"),
        (np.arange(16, dtype=np.int32), "not a float array"),
        (np.array([1.0, np.nan, 2.0], dtype=np.float32), "NaN or infinite"),
        (np.array([1.0, np.inf], dtype=np.float32), "NaN or infinite"),
        (np.array([1e300, 1.0]), "NaN or infinite"),  # finite as float64, inf as float32
        (np.zeros(8, dtype=np.float32), "all zeros"),
        (np.array([], dtype=np.float32), "it must have 1 to"),
        (np.array([{"x": 1}], dtype=object), "not a plain numeric .npy array"),
    ],
)
def test_a_bad_sidecar_is_named_with_its_reason(vault, array, reason):
    rel = save(vault, "audio", array)
    got = read_sidecar(vault, rel, "audio")
    assert isinstance(got, str)
    assert got.startswith(rel + ":") and reason in got


def test_an_object_array_is_never_unpickled(vault, tmp_path):
    class Boom:
        def __reduce__(self):
            return (Path.write_text, (tmp_path / "pwned", "x"))

    rel = sidecar_path(MOMENT, "image")
    np.save(vault / rel, np.array([Boom()], dtype=object), allow_pickle=True)
    (tmp_path / "pwned").unlink(missing_ok=True)  # saving ran nothing, but be sure
    got = read_sidecar(vault, rel, "image")
    assert isinstance(got, str) and not (tmp_path / "pwned").exists()


def test_wrong_dimension_against_the_recorded_one(vault):
    rel = save(vault, "joint", sidecar_vector("m-0101", "audio"))  # 16 values, joint has 32
    got = read_sidecar(vault, rel, "joint", SIDECAR_DIMENSIONS["joint"])
    assert isinstance(got, str)
    assert "16 values" in got and "have 32" in got


def test_not_an_npy_file_and_too_large(vault):
    rel = sidecar_path(MOMENT, "audio")
    (vault / rel).write_bytes(b"this is not numpy")
    assert "not a .npy file" in read_sidecar(vault, rel, "audio")
    np.save(vault / rel, np.ones(MAX_SIDECAR_BYTES // 4 + 64, dtype=np.float32))
    assert "byte limit" in read_sidecar(vault, rel, "audio")


def test_read_moment_sidecars_keeps_the_good_and_names_the_bad(vault):
    save(vault, "audio", sidecar_vector("m-0101", "audio"))
    save(vault, "image", np.ones((2, 2), dtype=np.float32))
    good, reasons = read_moment_sidecars(vault, MOMENT, DEFAULT_MODALITIES, {})
    assert [s.modality for s in good] == ["audio"]
    assert len(reasons) == 1 and "m-0101.image.npy" in reasons[0] and "1-D" in reasons[0]


def test_the_digest_changes_with_a_sidecar_and_is_empty_without(vault):
    assert sidecars_digest(vault, MOMENT, DEFAULT_MODALITIES) == ""
    assert fold_hash("abc", "") == "abc"  # a moment without sidecars keeps its file's hash
    save(vault, "audio", sidecar_vector("m-0101", "audio"))
    first = sidecars_digest(vault, MOMENT, DEFAULT_MODALITIES)
    assert first and fold_hash("abc", first) != "abc"
    assert sidecars_digest(vault, MOMENT, DEFAULT_MODALITIES) == first  # unchanged: the same
    save(vault, "audio", sidecar_vector("m-0102", "audio"))
    assert sidecars_digest(vault, MOMENT, DEFAULT_MODALITIES) != first
    save(vault, "image", sidecar_vector("m-0101", "image"))
    assert sidecars_digest(vault, MOMENT, ("audio",)) != sidecars_digest(vault, MOMENT, DEFAULT_MODALITIES)
