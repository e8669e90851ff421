"""``add_vectors``: a notebook moment's vector saved as its sidecar file, beside its YAML.

The vault is the source of truth: the vector is written where the notebook's own tools would put it
(``moments/<moment_id>.<modality>.npy``, one 1-D float32 array as ``numpy.save`` writes it), and
the moment is then indexed again from the vault like any edited file.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

import numpy as np

from memsearch.errors import MemsearchError
from memsearch.indexer.prepare import is_moment
from memsearch.models import Chunk
from memsearch.paths import atomic_write
from memsearch.sidecars import MAX_DIMENSION, MODALITY_NAME, query_vector, sidecar_path


def moment_file(vault: Path, chunks: Iterable[Chunk], moment_id: str) -> str:
    """The vault-relative path of the indexed moment ``moment_id`` (its file is named by its id)."""
    found = sorted(
        {c.path for c in chunks if PurePosixPath(c.path).stem == moment_id and is_moment(vault, c.path)}
    )
    if not found:
        raise MemsearchError(
            f"no indexed notebook moment has the id {moment_id!r}; index the notebook first"
            " (`memsearch index VAULT`), or check the id"
        )
    if len(found) > 1:
        raise MemsearchError(f"moment id {moment_id!r} names {len(found)} moment files: {', '.join(found)}")
    return found[0]


def write_sidecar(
    vault: Path,
    chunks: Iterable[Chunk],
    moment_id: str,
    modality: str,
    vector: object,
    modalities: tuple[str, ...],
    dimensions: dict[str, int],
) -> str:
    """Check ``vector`` as a sidecar is checked and save it as the moment's ``modality`` sidecar;
    returns the moment file's vault-relative path (to index again)."""
    if not isinstance(modality, str) or not MODALITY_NAME.fullmatch(modality):
        raise MemsearchError(f"{modality!r} is not a modality name (lower-case letters, digits and _)")
    if modality not in modalities:
        raise MemsearchError(
            f"the vault does not read {modality} vectors (opted out, or not declared in memsearch.toml's"
            f" [modalities]); its modalities: {', '.join(modalities) or 'none'}"
        )
    rel = moment_file(vault, chunks, moment_id)
    size = int(np.size(vector)) if isinstance(vector, list | tuple | np.ndarray) else 0
    if size > MAX_DIMENSION:
        raise MemsearchError(f"the {modality} vector has {size} values; it must have 1 to {MAX_DIMENSION}")
    # The same checks a query vector takes: flat, finite, not all zeros, the index's dimension.
    got = query_vector(modality, vector, dimensions.get(modality, size))
    if isinstance(got, str):
        raise MemsearchError(f"{got}; no vector was saved for {moment_id}")
    buffer = io.BytesIO()
    np.save(buffer, np.asarray(vector, dtype=np.float32).reshape(-1), allow_pickle=False)
    atomic_write(vault / sidecar_path(rel, modality), buffer.getvalue())
    return rel
