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


def check_home(home: Path) -> None:
    """Refuse an index home another user could write or swap: UnsafeIndexHomeError with the remedy.

    The home itself must be this user's and not writable by group or others (they could replace the
    index, or plant a ``serve.json``); every folder above it must not be writable by others unless
    its sticky bit is set (as /tmp's is: others cannot rename what they do not own). A home not made
    yet is checked through the folders above it. A few ``stat`` calls.
    """
    from memsearch.errors import UnsafeIndexHomeError

    path = Path(os.path.abspath(Path(home).expanduser()))
    me = os.getuid() if hasattr(os, "getuid") else None
    try:
        st = os.stat(path)
    except OSError:
        st = None
    if st is not None and me is not None:
        if st.st_uid != me:
            raise UnsafeIndexHomeError(
                f"the index home {path} belongs to another user (uid {st.st_uid}): they could change"
                " the index or read what is written there; use an index home of your own"
                " (--index-dir, or $MEMSEARCH_HOME), or `chown` it if it is yours"
            )
        if st.st_mode & 0o022:
            raise UnsafeIndexHomeError(
                f"the index home {path} can be written by other users (mode {st.st_mode & 0o7777:04o}):"
                f" they could replace the index or plant a server file; run `chmod 700 {path}`"
                " (or choose another --index-dir / $MEMSEARCH_HOME)"
            )
    for folder in path.parents:
        try:
            mode = os.stat(folder).st_mode
        except OSError:
            continue
        if mode & 0o002 and not mode & 0o1000:
            raise UnsafeIndexHomeError(
                f"the folder {folder} above the index home {path} can be written by other users"
                f" (mode {mode & 0o7777:04o}, no sticky bit): they could swap the index home for"
                f" their own; run `chmod o-w {folder}` (or `chmod +t {folder}`), or choose another"
                " --index-dir / $MEMSEARCH_HOME"
            )


def resolved_vault(vault: str | Path) -> Path | None:
    """The vault folder as :func:`memsearch.scan.check_vault` names it, or None if it is no folder."""
    path = Path(vault).expanduser()
    return path.resolve() if path.is_dir() else None


def manifest_head_path(index_home: Path) -> Path:
    """The index's ``manifest.json`` (embedder, settings, next id) in its repository's work tree."""
    return Path(index_home) / "repo" / "manifest.json"
