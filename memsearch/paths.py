"""Where a vault's index lives, without importing the engine (numpy, hnswlib, ...).

The CLI's fast path (``memsearch search`` through ``memsearch serve``) must find the index home in
a few microseconds; :func:`memsearch.index.store.default_home` (whose module imports numpy) calls
this one.
"""

from __future__ import annotations

import os
from pathlib import Path


def default_home(vault: Path) -> Path:
    """Where a vault's index lives: ``$MEMSEARCH_HOME/<name>-<hash>`` if set, else ``vault/.memsearch``.

    ``vault`` is the resolved vault folder (as :func:`memsearch.scan.check_vault` returns it).
    """
    home = os.environ.get("MEMSEARCH_HOME")
    if home:
        import hashlib

        tag = hashlib.sha256(str(vault.resolve()).encode()).hexdigest()[:10]
        return Path(home).expanduser() / f"{vault.resolve().name}-{tag}"
    return vault / ".memsearch"


def private_dir(path: Path) -> Path:
    """Make ``path`` and every missing parent it needs owner-only (0700) folders whatever the umask
    (``Path.mkdir(parents=True)`` made the parents 0777 under umask 000: another user could swap
    the index home inside one). A folder that already exists is left as it is."""
    path = Path(path)
    missing: list[Path] = []
    folder = path
    while not os.path.lexists(folder) and folder.parent != folder:
        missing.append(folder)
        folder = folder.parent
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=0o700)
        except FileExistsError:  # another process made it at the same moment
            continue
        os.chmod(folder, 0o700)  # mkdir's mode is filtered by the umask
    return path


def resolved_vault(vault: str | Path) -> Path | None:
    """The vault folder as :func:`memsearch.scan.check_vault` names it, or None if it is no folder."""
    path = Path(vault).expanduser()
    return path.resolve() if path.is_dir() else None


def manifest_head_path(index_home: Path) -> Path:
    """The index's ``manifest.json`` (embedder, settings, next id) in its repository's work tree."""
    return Path(index_home) / "repo" / "manifest.json"
