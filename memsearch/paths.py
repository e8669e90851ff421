"""Where a vault's index lives, and the one place that names every path under it.

An index home holds::

    repo/                  the git-versioned index (memsearch.index.versioning owns it; the
                           tree's own layout is the on-disk format, memsearch.index.format)
    repo/manifest.json     the manifest's head: embedder, settings, next id
    index/                 a pre-repository index, read once and converted
    cache/embeddings.sqlite  vectors by text hash (memsearch.index.embedding_cache)
    cache/snapshots/       loaded indexes saved for a fast start (memsearch.index.snapshots)
    signals/state.json     what the standing interests have seen (memsearch.signals)
    signals/last_run.json  the last signal check, for `memsearch signals`
    signals.jsonl          the default signal inbox
    forgotten.json         the forget list's index copy (memsearch.forget)
    purge-pending.json     a history purge not finished yet (memsearch.forget)
    serve.json             a running `memsearch serve` (memsearch.client, memsearch.server)
    backend.json           the keyword and vector backend, if not built in (memsearch.index.backend)
    lock                   the write lock (memsearch.lock)

Each path is named here once; the module beside it is the only one that reads or writes it. This
module imports nothing of the engine (numpy, hnswlib, ...): the CLI's fast path (``memsearch
search`` through ``memsearch serve``) finds the index home in a few microseconds.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memsearch.errors import IndexWriteError, UnsafeIndexHomeError


def default_home(vault: Path) -> Path:
    """Where a vault's index lives: ``$MEMSEARCH_HOME/<name>-<hash>`` if set, else ``vault/.memsearch``.

    ``vault`` is the resolved vault folder (as :func:`memsearch.scan.check_vault` returns it).
    """
    home = os.environ.get("MEMSEARCH_HOME")
    if home:
        import hashlib

        tag = hashlib.sha256(os.fsencode(vault.resolve())).hexdigest()[:10]  # bytes: any name
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


def is_gone(exc: OSError) -> bool:
    """Whether the error says the file or folder is not there (deleted, a link to nothing), not
    that the system refused it."""
    return exc.errno in (errno.ENOENT, errno.ENOTDIR)


def unwritable_home(home: Path, exc: OSError) -> IndexWriteError:
    """The error for an index home that cannot be made or written (a read-only vault or disk)."""
    return IndexWriteError(
        f"cannot write the index at {home} ({exc.strerror or exc}): keep it elsewhere (--index-dir DIR,"
        " or $MEMSEARCH_HOME) or make that folder writable, and run again; nothing was changed"
    )


def tighten_private_dir(path: Path) -> Path:
    """:func:`private_dir`, and ``path`` made 0700 even if it was there: for the folders the index
    writes in (the index home once :func:`check_home` accepted it, the snapshot cache, the
    repository's work tree)."""
    private_dir(path)
    os.chmod(path, 0o700)
    return path


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file and a rename (owner-only)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def check_home(home: Path) -> None:
    """Refuse an index home another user could write or swap: UnsafeIndexHomeError with the remedy.

    The home itself must be this user's and not writable by group or others (they could replace the
    index, or plant a ``serve.json``); every folder above it must not be writable by others unless
    its sticky bit is set (as /tmp's is: others cannot rename what they do not own). A home not made
    yet is checked through the folders above it. A few ``stat`` calls.
    """
    path = Path(os.path.abspath(Path(home).expanduser()))
    me = os.getuid() if hasattr(os, "getuid") else None
    st: os.stat_result | None = None
    try:
        st = os.stat(path)
    except OSError as exc:
        missed = exc
    if st is None and os.path.islink(path):  # mkdir would fail on it, chmod raise "no such file"
        reach = f"out of reach ({missed.strerror or missed})"
        why = "not there (a disk not mounted?)" if is_gone(missed) else reach
        raise UnsafeIndexHomeError(
            f"the index home {path} is a symlink to {os.readlink(path)}, which is {why}: make it"
            " reachable, remove the link, or keep the index elsewhere (--index-dir, or $MEMSEARCH_HOME)"
        )
    if st is not None and not stat.S_ISDIR(st.st_mode):
        raise UnsafeIndexHomeError(
            f"the index home {path} is a file, not a folder: move it away, or keep the index"
            " elsewhere (--index-dir, or $MEMSEARCH_HOME)"
        )
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
    try:
        path = Path(vault).expanduser()
        return path.resolve() if path.is_dir() else None
    except (RuntimeError, OSError, ValueError):  # "~nosuchuser", a name too long: no folder
        return None


@dataclass(frozen=True)
class IndexLayout:
    """The paths under one index home (see the module docstring for who owns each)."""

    home: Path

    def __post_init__(self) -> None:
        object.__setattr__(self, "home", Path(self.home))

    @property
    def repo(self) -> Path:
        return self.home / "repo"

    @property
    def manifest_head(self) -> Path:
        return self.repo / "manifest.json"

    @property
    def legacy_index(self) -> Path:
        return self.home / "index"

    @property
    def cache(self) -> Path:
        return self.home / "cache"

    @property
    def embedding_cache(self) -> Path:
        return self.cache / "embeddings.sqlite"

    @property
    def snapshots(self) -> Path:
        return self.cache / "snapshots"

    @property
    def signal_state(self) -> Path:
        return self.home / "signals" / "state.json"

    @property
    def signal_last_run(self) -> Path:
        return self.home / "signals" / "last_run.json"

    @property
    def signal_inbox(self) -> Path:
        return self.home / "signals.jsonl"

    @property
    def forget_list(self) -> Path:
        return self.home / "forgotten.json"

    @property
    def purge_pending(self) -> Path:
        return self.home / "purge-pending.json"

    @property
    def server_file(self) -> Path:
        return self.home / "serve.json"

    @property
    def backend(self) -> Path:
        return self.home / "backend.json"

    @property
    def lock(self) -> Path:
        return self.home / "lock"


def _home_names() -> frozenset[str]:
    layout = IndexLayout(Path("home"))
    paths = [
        getattr(layout, name) for name, value in vars(IndexLayout).items() if isinstance(value, property)
    ]
    return frozenset(path.relative_to(layout.home).parts[0] for path in paths)


#: What the top of an index home holds (the module docstring's table): every other name is not ours.
HOME_NAMES = _home_names()


def others_in_home(home: Path) -> list[str]:
    """The names at the top of ``home`` that no index writes (hidden ones aside: ``.DS_Store``, a
    temporary file), sorted; [] when it is missing, empty, or an index home."""
    try:
        names = os.listdir(home)
    except OSError:
        return []
    return sorted(name for name in names if not name.startswith(".") and name not in HOME_NAMES)


def read_manifest_head(index_home: Path) -> dict[str, Any]:
    """``manifest.json`` alone (format, embedder, settings, next id; no file table): one small read;
    {} when the index has none yet. A pre-repository index keeps it under ``index/``."""
    layout = IndexLayout(index_home)
    for path in (layout.manifest_head, layout.legacy_index / "manifest.json"):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict):
            return data
    return {}
