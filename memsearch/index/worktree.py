"""Files written into the index repository's work tree, to be staged and committed.

Written in place, not through a temporary file and a rename: the work tree is read by no one
(readers read commits), and what a killed writer leaves half-written
:meth:`~memsearch.index.versioning.IndexRepo.recover` discards.
"""

from __future__ import annotations

import os
from pathlib import Path

from memsearch.index.format import manifest_buckets
from memsearch.paths import tighten_private_dir


def put(root: Path, rel: str, data: bytes) -> str:
    target = root / rel
    if not target.parent.exists():
        for folder in reversed(target.relative_to(root).parents[:-1]):
            if not (root / folder).exists():
                tighten_private_dir(root / folder)
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
    return rel


def put_buckets(root: Path, manifest: dict, touched: set[str] | None) -> list[str]:
    """Write the manifest buckets holding ``touched`` files (all if None); the paths to stage."""
    staged = []
    for rel, data in manifest_buckets(manifest, touched).items():
        if data:
            staged.append(put(root, rel, data))
        elif (root / rel).exists():
            (root / rel).unlink()
            staged.append(rel)
    return staged
