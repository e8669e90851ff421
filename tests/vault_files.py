"""A vault of notes for a test: real files under a folder (``{relative path: text}``)."""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from memsearch.api import Memsearch, index_vault, open_index


def write_vault(vault: Path, files: Mapping[str, str], saved: float | None = None) -> list[Path]:
    """The files, written under ``vault`` (UTF-8); their paths. ``saved``: every file's mtime (a
    POSIX time), where a test's clock must not find them newer than its ``now``."""
    paths = []
    for rel, text in files.items():
        path = vault / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        if saved is not None:
            os.utime(path, (saved, saved))
        paths.append(path)
    return paths


@contextmanager
def indexed_vault(vault: Path, files: Mapping[str, str], saved: float | None = None) -> Iterator[Memsearch]:
    """The files written under ``vault`` (as :func:`write_vault`), indexed with the embedded model,
    and opened; closed after."""
    write_vault(vault, files, saved)
    index_vault(vault)
    with open_index(vault) as opened:
        yield opened
