"""A notebook moment's vector sidecars: ``moments/<moment_id>.<modality>.npy`` beside its YAML.

Each sidecar is one 1-D float array saved by ``numpy.save`` (the notebook's own models make them;
memsearch never runs those models). A sidecar is read with ``allow_pickle=False``, so no file can
construct objects, and it is checked before anything keeps it: a bad one is named with its reason
and the moment's text is still indexed. The sidecars' bytes are folded into the moment file's hash,
so an edited, added or removed sidecar re-indexes its moment and an unchanged one re-adds nothing.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

#: The modalities every notebook may carry; a vault's config may declare more names.
DEFAULT_MODALITIES: tuple[str, ...] = ("audio", "image", "joint")

#: What a modality may be called: it is part of a file name (``<moment_id>.<modality>.npy``).
MODALITY_NAME = re.compile(r"[a-z][a-z0-9_]{0,31}")

#: The largest sidecar read (the notebook's joint embedding is 4096-d: 16 KB as float32). A bigger
#: file is refused before it is read, so one mistaken file cannot fill memory.
MAX_SIDECAR_BYTES = 1_048_576

#: The longest vector kept; beyond it a file is refused even under the byte cap.
MAX_DIMENSION = 65_536

SIDECAR_SUFFIX = ".npy"

#: The first bytes of every file ``numpy.save`` writes.
NPY_MAGIC = b"\x93NUMPY"


@dataclass(frozen=True)
class Sidecar:
    """One sidecar read and checked: its vault-relative path, modality and vector (float32, 1-D)."""

    path: str
    modality: str
    vector: np.ndarray


def sidecar_path(moment_rel: str, modality: str) -> str:
    """The vault-relative path of the ``modality`` sidecar of the moment file ``moment_rel``."""
    stem = moment_rel.rsplit(".", 1)[0]
    return f"{stem}.{modality}{SIDECAR_SUFFIX}"


def present_sidecars(vault: Path, moment_rel: str, modalities: tuple[str, ...]) -> dict[str, str]:
    """``{modality: vault-relative path}`` of the sidecars of ``moment_rel`` that exist, in the
    order of ``modalities``; a symlink counts only if it is a regular file (reading a FIFO would wait)."""
    found: dict[str, str] = {}
    for modality in modalities:
        rel = sidecar_path(moment_rel, modality)
        full = vault / rel
        if full.is_file():
            found[modality] = rel
    return found


def sidecars_digest(vault: Path, moment_rel: str, modalities: tuple[str, ...]) -> str:
    """A digest of the moment's sidecars (which exist, and their bytes); ``""`` when it has none.

    Folded into the moment file's hash, it makes a sidecar change a change of the moment. A file
    over the size cap is folded by its size and mtime instead of read: it will be refused anyway.
    """
    present = present_sidecars(vault, moment_rel, modalities)
    if not present:
        return ""
    digest = hashlib.sha256()
    for modality, rel in present.items():
        full = vault / rel
        digest.update(modality.encode("utf-8") + b"\x00")
        try:
            info = os.stat(full)
            if info.st_size > MAX_SIDECAR_BYTES:
                digest.update(f"big:{info.st_size}:{info.st_mtime_ns}".encode())
            else:
                digest.update(full.read_bytes())
        except OSError as exc:
            digest.update(f"unreadable:{exc.errno}".encode())
        digest.update(b"\x00")
    return digest.hexdigest()


def fold_hash(file_sha256: str, sidecar_digest: str) -> str:
    """The moment file's hash with its sidecars' digest folded in (unchanged when it has none, so a
    moment without sidecars keeps the hash its file always had)."""
    if not sidecar_digest:
        return file_sha256
    return hashlib.sha256(f"{file_sha256}+{sidecar_digest}".encode("ascii")).hexdigest()


def read_sidecar(vault: Path, rel: str, modality: str, dimension: int | None = None) -> Sidecar | str:
    """The sidecar at ``rel`` read and checked, or why it is not used (a sentence naming the file,
    its problem and what to do). ``dimension``: the modality's recorded dimension, if it has one."""
    full = vault / rel
    try:
        size = os.stat(full).st_size
        if size > MAX_SIDECAR_BYTES:
            return (
                f"{rel}: {modality} vector file is {size} bytes, over the "
                f"{MAX_SIDECAR_BYTES} byte limit; save a 1-D float32 array with numpy.save"
            )
        data = full.read_bytes()
    except OSError as exc:
        return f"{rel}: cannot read the {modality} vector file: {exc.strerror or exc}"
    if not data.startswith(NPY_MAGIC):  # np.load would take anything else for a pickle
        return f"{rel}: not a .npy file; save a 1-D float32 array with numpy.save"
    try:
        array = np.load(io.BytesIO(data), allow_pickle=False)
    except ValueError as exc:  # an object array needs pickle: refused, never constructed
        return f"{rel}: not a plain numeric .npy array ({exc}); save a 1-D float32 array with numpy.save"
    except Exception as exc:  # numpy raises several kinds for a file that is not .npy
        return f"{rel}: not a .npy file ({type(exc).__name__}); save a 1-D float32 array with numpy.save"
    if not isinstance(array, np.ndarray):
        return f"{rel}: holds several arrays (an .npz); save one 1-D float32 array with numpy.save"
    if array.ndim != 1:
        return f"{rel}: the {modality} vector has shape {array.shape}; it must be 1-D"
    if not np.issubdtype(array.dtype, np.floating):
        return f"{rel}: the {modality} vector is {array.dtype}, not a float array; save it as float32"
    if array.size == 0 or array.size > MAX_DIMENSION:
        return f"{rel}: the {modality} vector has {array.size} values; it must have 1 to {MAX_DIMENSION}"
    with np.errstate(over="ignore"):  # a float64 beyond float32's range becomes inf: refused below
        vector = array.astype(np.float32)
    if not np.all(np.isfinite(vector)):
        return f"{rel}: the {modality} vector holds NaN or infinite values (or values too large for float32)"
    if not np.any(vector):
        return f"{rel}: the {modality} vector is all zeros; it has no direction to compare by"
    if dimension is not None and vector.size != dimension:
        return dimension_reason(rel, modality, vector.size, dimension)
    return Sidecar(rel, modality, vector)


def dimension_reason(rel: str, modality: str, size: int, dimension: int) -> str:
    """Why a ``modality`` vector of ``size`` values is not used where that modality has ``dimension``."""
    return (
        f"{rel}: the {modality} vector has {size} values, but the index's {modality} "
        f"vectors have {dimension}; save it with the dimension of the other {modality} vectors"
    )


def majority_dimensions(sizes: dict[str, list[int]]) -> dict[str, int]:
    """Each modality's dimension when a run records it: the size most of its vectors have (ties: the
    first seen), so one odd file cannot make every other vector of its modality the odd one."""
    out: dict[str, int] = {}
    for modality, seen in sizes.items():
        counts: dict[int, int] = {}
        for size in seen:
            counts[size] = counts.get(size, 0) + 1
        out[modality] = max(counts, key=lambda size: counts[size])  # max keeps the first of a tie
    return out


def unit(vector: np.ndarray) -> np.ndarray:
    """``vector`` scaled to length 1 (float32): the vector indexes rank by inner product, which is
    then the cosine. The checks above refused a zero vector, so the norm is never 0."""
    v = np.asarray(vector, dtype=np.float64)
    return (v / np.linalg.norm(v)).astype(np.float32)


def query_vector(modality: str, values: object, dimension: int | None) -> np.ndarray | str:
    """A query's ``modality`` vector (a list of numbers, or an array) checked as a sidecar is, and
    scaled to length 1; or why it cannot be used. ``dimension``: the index's for that modality
    (None: the index holds no vector of that modality)."""
    if dimension is None:
        return (
            f"the index holds no {modality} vectors (no moment has a sidecar of that modality, or it"
            f" is opted out); there is nothing to compare the query's {modality} vector with"
        )
    try:
        array = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        return f"the {modality} query vector is not a list of numbers"
    if array.ndim != 1 or array.size == 0:
        return f"the {modality} query vector must be a flat list of numbers (got shape {array.shape})"
    if array.size != dimension:
        return (
            f"the {modality} query vector has {array.size} values, but the index's {modality}"
            f" vectors have {dimension}"
        )
    with np.errstate(over="ignore"):
        vector = array.astype(np.float32)
    if not np.all(np.isfinite(vector)):
        return f"the {modality} query vector holds NaN or infinite values"
    if not np.any(vector):
        return f"the {modality} query vector is all zeros; it has no direction to compare by"
    return unit(vector)


def read_moment_sidecars(
    vault: Path, moment_rel: str, modalities: tuple[str, ...], dimensions: dict[str, int]
) -> tuple[list[Sidecar], list[str]]:
    """The moment's sidecars that pass the checks, and a reason for each that does not.

    ``dimensions`` holds each modality's recorded dimension; a modality without one is not checked
    for it here (the caller records the first good vector's dimension and passes it on).
    """
    good: list[Sidecar] = []
    reasons: list[str] = []
    for modality, rel in present_sidecars(vault, moment_rel, modalities).items():
        got = read_sidecar(vault, rel, modality, dimensions.get(modality))
        if isinstance(got, str):
            reasons.append(got)
        else:
            good.append(got)
    return good, reasons
