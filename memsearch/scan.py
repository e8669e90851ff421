"""Scan: find the vault's memories (its markdown files, and a notebook's YAML sessions and moments),
read them safely, and say why any were skipped."""

from __future__ import annotations

import codecs
import errno
import hashlib
import os
import re
import stat
import subprocess
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from memsearch.errors import VaultError
from memsearch.paths import is_gone

MARKDOWN_SUFFIXES = (".md", ".markdown")
#: A notebook's files (docs/notebook.md): ``sessions/<id>.yaml`` and
#: ``sessions/<id>/moments/<id>.yaml`` under its root, which is the vault's ``notebook/`` folder or,
#: when the vault is a notebook itself (its ``index.yaml`` says ``notebook_index:``), the vault.
NOTEBOOK_SUFFIXES = (".yaml", ".yml")
NOTEBOOK_FOLDER = "notebook/"
NOTEBOOK_INDEX = "index.yaml"
#: Bytes of ``index.yaml`` read to tell a notebook (its top key comes first).
_NOTEBOOK_SNIFF_BYTES = 65_536
#: Folders that are never memory: version control, our own index, editor state.
IGNORED_DIRS = frozenset({".git", ".memsearch", ".obsidian", ".trash", "node_modules", "__pycache__"})
#: Larger files are skipped with a reason rather than stalling an index (a memory is not 50 MB).
MAX_FILE_BYTES = 20 * 1024 * 1024


@dataclass(frozen=True)
class VaultFile:
    path: str  # posix, relative to the vault
    text: str
    sha256: str
    mtime: float


@dataclass(frozen=True)
class Skipped:
    path: str
    reason: str
    #: The system refused to read it (permissions, an I/O error): what it holds is not known to have
    #: changed, so what the index holds of it is kept.
    unreadable: bool = False


def unusable_path(path: str | Path) -> str | None:
    """Why ``path`` can name no folder on this system (``~nosuchuser/notes``: no such user's home; a
    name longer than the file system takes), else None: what a plain ``exists()`` raises on."""
    try:
        os.stat(Path(path).expanduser())  # pathlib raises on an unknown user's ~, os.path does not
    except RuntimeError:
        return f"{str(path)[:80]!r} names the home folder of a user this system does not have"
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG:
            return f"{str(path)[:80]!r}... is longer than this system takes ({len(str(path))} characters)"
    except ValueError:  # a NUL byte
        return f"{str(path)[:80]!r} holds a NUL byte, which no path can"
    return None


def check_vault(vault: Path) -> Path:
    if unusable := unusable_path(vault):
        raise VaultError(f"the vault path {unusable}; pass the folder that holds your markdown memory")
    vault = Path(vault).expanduser()
    if not vault.exists():
        raise VaultError(f"vault {vault} does not exist; pass the folder that holds your markdown memory")
    if not vault.is_dir():
        raise VaultError(f"vault {vault} is not a folder; pass the folder that holds your markdown memory")
    resolved = vault.resolve()
    if resolved == Path(resolved.anchor):  # a server started from / with the current folder as vault
        raise VaultError(
            f"the vault {vault} is the filesystem's root: pass the folder that holds your markdown"
            " memory (--vault, or $MEMSEARCH_VAULT)"
        )
    return resolved


def notebook_root(vault: Path) -> str | None:
    """The vault-relative prefix of the vault's notebook: ``"notebook/"`` for a ``notebook/`` folder
    holding ``index.yaml`` and ``sessions/``, ``""`` when the vault is a notebook itself (an
    ``index.yaml`` whose top key is ``notebook_index``, beside ``sessions/``), else None."""
    top = Path(vault)
    if (top / NOTEBOOK_FOLDER / "sessions").is_dir() and (top / NOTEBOOK_FOLDER / NOTEBOOK_INDEX).is_file():
        return NOTEBOOK_FOLDER
    index = top / NOTEBOOK_INDEX
    if not (top / "sessions").is_dir() or not index.is_file() or index.is_symlink():
        return None
    try:
        with open(index, "rb") as fh:
            head = fh.read(_NOTEBOOK_SNIFF_BYTES).decode("utf-8", "replace")
    except OSError:
        return None
    # A line test, not a parse: telling a notebook must not read a hostile YAML file in full.
    return "" if any(line.startswith("notebook_index:") for line in head.splitlines()) else None


def notebook_kind(rel: str, root: str | None) -> str | None:
    """``"session"`` or ``"moment"`` for a notebook file under the notebook ``root`` (see
    :func:`notebook_root`), else None (any other YAML file of a notebook is not a memory)."""
    if root is None or not rel.startswith(root) or not rel.lower().endswith(NOTEBOOK_SUFFIXES):
        return None
    parts = rel[len(root) :].split("/")
    if any(not p or p.startswith(".") or p == ".." for p in parts) or parts[0] != "sessions":
        return None
    if len(parts) == 2:
        return "session"
    if len(parts) == 4 and parts[2] == "moments":
        return "moment"
    return None


def iter_markdown(vault: Path) -> list[Path]:
    """Markdown files under the vault, sorted; symlinks are not followed (no loops, nothing outside)."""
    return [Path(full) for full, _rel in walk_markdown(vault)]


def walk_markdown(vault: Path, unreadable: list[Skipped] | None = None) -> list[tuple[str, str]]:
    """:func:`iter_markdown` as ``(absolute path, vault-relative posix path)`` strings (a scan of
    10k files spent ~0.5 s building and relativising ``Path`` objects). A folder the system will
    not list is added to ``unreadable`` (as ``folder/``, with why), where one is given."""
    found: list[tuple[str, str]] = []
    top = os.fspath(vault)
    for root, dirs, files in os.walk(top, onerror=_refusals(top, unreadable), followlinks=False):
        dirs[:] = sorted(d for d in dirs if d not in IGNORED_DIRS and not d.startswith("."))
        prefix = os.path.relpath(root, top).replace(os.sep, "/") + "/" if root != top else ""
        for name in sorted(files):
            if name.lower().endswith(MARKDOWN_SUFFIXES) and not name.startswith("."):
                found.append((os.path.join(root, name), prefix + name))
    return found


def _refusals(top: str, unreadable: list[Skipped] | None) -> Callable[[OSError], None]:
    """``os.walk``'s ``onerror``: a folder it cannot list, into ``unreadable`` as ``folder/``."""

    def refused(exc: OSError) -> None:
        if unreadable is not None and exc.filename is not None and not is_gone(exc):
            rel = os.path.relpath(os.fsdecode(exc.filename), top).replace(os.sep, "/")
            folder = "" if rel == "." else _shown(rel) + "/"
            reason = f"cannot read this folder: {exc.strerror or exc}"
            unreadable.append(Skipped(folder, reason, unreadable=True))

    return refused


def walk_memories(vault: Path, unreadable: list[Skipped] | None = None) -> list[tuple[str, str]]:
    """:func:`walk_markdown`, and the notebook's session and moment files (if the vault has a
    notebook), in the same walk order."""
    found = walk_markdown(vault, unreadable)
    root = notebook_root(vault)
    if root is None:
        return found
    top = os.fspath(vault)
    sessions = os.path.join(top, root, "sessions")
    for folder, dirs, files in os.walk(sessions, onerror=_refusals(top, unreadable), followlinks=False):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        prefix = os.path.relpath(folder, top).replace(os.sep, "/") + "/"
        for name in sorted(files):
            rel = prefix + name
            if notebook_kind(rel, root) is not None:
                found.append((os.path.join(folder, name), rel))
    found.sort(key=lambda item: walk_order(item[1]))
    return found


#: Files announced to the kernel ahead of the reader. A cold scan of 9,317 files (eval/bench.py's
#: 100k vault, page cache dropped) read them one by one in 5.6 s, announced in 0.4 s: the disk then
#: serves many reads at once. A window, not the whole vault, so a vault larger than memory is not
#: read into the cache only to be evicted before its turn.
PREFETCH_WINDOW = 1024


def prefetch(paths: Sequence[str]) -> None:
    """Ask the kernel to start reading these files now (``posix_fadvise`` WILLNEED, where it
    exists); nothing is read here and nothing fails: a file that cannot be opened is skipped."""
    advise = getattr(os, "posix_fadvise", None)
    if advise is None:
        return
    for path in paths:
        try:
            # Non-blocking: opening a FIFO that happens to be named *.md must not wait for a writer.
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            continue
        try:
            advise(fd, 0, 0, os.POSIX_FADV_WILLNEED)
        except OSError:
            pass
        finally:
            os.close(fd)


def read_file(vault: Path, path: Path | str, rel: str | None = None) -> VaultFile | Skipped:
    """One vault file, read and hashed, or why it is skipped; ``rel``: its vault-relative path."""
    full = os.fspath(path)
    if rel is None:
        rel = Path(full).relative_to(vault).as_posix()
    if not _encodable(rel):
        return Skipped(printable_path(rel), "its name (or its folder's) is not UTF-8; rename it to index it")
    if not rel.isprintable() and _UNSHOWABLE.search(rel):
        # Every answer is a line per result, its fields split by tabs: a line break or a tab would
        # split it; an escape sequence is acted on by the terminal, or stripped from the path shown.
        return Skipped(
            _shown(rel),
            "its name (or its folder's) holds a line break or another control character (or a"
            " direction override), which would break, hide or reverse every line that names it;"
            " rename it to index it",
        )
    try:
        info = os.lstat(full)
        linked = stat.S_ISLNK(info.st_mode)
        if linked:
            refused = link_refusal(vault, full)
            if refused:
                return Skipped(rel, refused)
        # A socket cannot be opened at all (ENXIO, read as a file unreadable for now: its old text
        # was kept); a FIFO or device is named before it is opened, and again by what was opened.
        if not stat.S_ISREG((os.stat(full) if linked else info).st_mode):
            return Skipped(rel, _NOT_REGULAR)
        # What is read is what was opened (fstat): a file swapped for a FIFO after a stat would
        # block the open or the read for ever; opened without blocking, the FIFO is named and left.
        fd = os.open(full, os.O_RDONLY | os.O_NONBLOCK | (0 if linked else os.O_NOFOLLOW))
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):  # swapped since the stat
                return Skipped(rel, _NOT_REGULAR)
            if info.st_size > MAX_FILE_BYTES:
                return Skipped(rel, _too_big(info.st_size))
            with open(fd, "rb", closefd=False) as fh:
                data = fh.read()
        finally:
            os.close(fd)
    except OSError as exc:
        return Skipped(rel, f"cannot read: {exc.strerror or exc}", unreadable=not is_gone(exc))
    utf16 = data.startswith(UTF16_MARKS)  # its NUL bytes are half of its letters: read its text for NULs
    if not utf16 and b"\x00" in data[:8192]:
        return Skipped(rel, _BINARY)
    try:
        text = decode_memory(data)
    except UnicodeDecodeError as exc:
        encoding = "UTF-16" if utf16 else "UTF-8"
        return Skipped(rel, f"not {encoding} (byte {exc.start}); re-save the file as UTF-8 to index it")
    if utf16 and "\x00" in text[:8192]:
        return Skipped(rel, _BINARY)
    return VaultFile(rel, composed(text), hashlib.sha256(data).hexdigest(), info.st_mtime)


_NOT_REGULAR = "not a regular file (a FIFO, socket or device); not indexed"


def _too_big(size: int) -> str:
    limit = MAX_FILE_BYTES / 1_048_576
    return (
        f"file is {size / 1_048_576:.1f} MB, over the {limit:g} MB limit; split it into several notes"
        " to index it"
    )


def composed(text: str) -> str:
    """``text`` in Unicode's composed form (NFC): macOS and some editors write "Zürich" as u and a
    combining diaeresis (NFD), which the tokenizer cut at the mark ("zu", "rich") and no query
    typed the usual way met. Line breaks are kept, so line anchors hold."""
    return (
        text
        if text.isascii() or unicodedata.is_normalized("NFC", text)
        else unicodedata.normalize("NFC", text)
    )


#: Why a file with a NUL character in its first 8 KiB is not indexed (UTF-16's zero bytes are not NULs).
_BINARY = "binary content (NUL bytes) in a markdown file; not indexed"


#: The byte-order marks of UTF-16 (what Windows Notepad saves as "Unicode"): a file that opens with
#: one is read as UTF-16, as ripgrep reads it; its NUL bytes are half of every ASCII letter.
UTF16_MARKS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


def decode_memory(data: bytes, errors: str = "strict") -> str:
    """A memory file's text: UTF-16 when it opens with that byte-order mark, else UTF-8 (a UTF-8
    byte-order mark dropped). ``errors`` as :meth:`bytes.decode`'s."""
    if data.startswith(UTF16_MARKS):
        return data.decode("utf-16", errors)
    return data.decode("utf-8-sig", errors)


def link_refusal(vault: Path, full: str) -> str | None:
    """Why the file at ``full`` (a symlink, or a path through one) is not followed, else None.

    A link is followed only to a regular markdown file inside the vault and outside hidden and
    ignored folders and files (``.git``, ``.env``, any dot-file, the index folder): what a scan of
    the vault would index itself. ``vault`` is resolved. ``memory_open`` decides by the same rule.
    """
    try:
        info = os.stat(full)  # follows the link: ELOOP for a loop, ENOENT for a dangling one
    except OSError as exc:
        return _broken_link(exc)
    try:
        parts = Path(os.path.realpath(full)).relative_to(vault).parts
    except ValueError:
        return "symlink points outside the vault; not followed"
    if any(p.startswith(".") or p in IGNORED_DIRS for p in parts):
        return "symlink points into a hidden or ignored file or folder (.git, .env, ...); not followed"
    if not stat.S_ISREG(info.st_mode) or not parts or not parts[-1].lower().endswith(MARKDOWN_SUFFIXES):
        return "symlink points to something that is not a markdown file; not followed"
    return None


def folder_link(vault: Path, rel: str) -> str | None:
    """Why ``rel`` is not read because a folder on its way is a symlink, else None. A scan never
    follows a linked folder (it would bring in what lies outside the vault, or a second name for a
    note), so a path given alone (``update_file``, ``index --paths``, ``watch``) must not either."""
    here = os.fspath(vault)
    folders = rel.split("/")[:-1]
    for n, folder in enumerate(folders, 1):
        here = os.path.join(here, folder)
        if os.path.islink(here):
            return (
                f"its folder {'/'.join(folders[:n])}/ is a symlink, which a scan does not follow; not indexed"
            )
    return None


def _encodable(rel: str) -> bool:
    try:
        rel.encode("utf-8")
    except UnicodeEncodeError:  # a byte of the name that is not UTF-8, kept as a surrogate by os
        return False
    return True


#: A control character (C0, DEL, C1) or a line or paragraph separator in a name: it cannot be shown
#: on a line of output as it is.
#: Control characters, line and paragraph separators, and the bidirectional embeddings, overrides
#: and isolates: "bidi\u202eevil.md" shows reversed on a terminal, as a path it is not. (Not the
#: joiners: Persian writes words with U+200C, emoji sequences join with U+200D.)
_UNSHOWABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _shown(rel: str) -> str:
    """``rel`` as a line of output can show it: :func:`printable_path`, line breaks as ``\\n``, every
    other control character as its escape (``\\x1b``)."""
    shown = printable_path(rel).replace("\n", "\\n").replace("\r", "\\r")
    return _UNSHOWABLE.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), shown)


def printable_path(rel: str) -> str:
    """``rel`` as it can be printed and stored: a name's bytes that are not UTF-8 shown as ``\\xff``."""
    return os.fsencode(rel).decode("utf-8", "backslashreplace")


def _broken_link(exc: OSError) -> str:
    if exc.errno == errno.ELOOP:
        return "symlink loop (the link leads back to itself); not followed"
    if is_gone(exc):
        return "dangling symlink (its target does not exist); not followed"
    return f"symlink cannot be followed: {exc.strerror or exc}"


def in_git_work_tree(vault: Path) -> bool:
    """Whether ``vault`` is a git repository's work tree or a folder of one (a ``.git`` folder, or
    the ``.git`` file of a worktree or submodule, in it or above it)."""
    here = Path(os.path.abspath(vault))
    return any(os.path.lexists(folder / ".git") for folder in (here, *here.parents))


def git_commit_times(vault: Path, paths: list[str] | None = None) -> dict[str, datetime]:
    """Last commit time of every file tracked in the git repository the vault is (or is a folder
    of), by vault-relative path (one git call); with ``paths``, of those files only (an update of a
    few files need not read all history)."""
    if paths is not None and not paths:
        return {}
    if not in_git_work_tree(vault):
        return {}
    limit = ["--", *paths] if paths else []
    # -z: names as they are ("café.md" is otherwise quoted and escaped); --relative: the vault's
    # files only, named from the vault (git names them from the repository's root).
    log = ["log", "-z", "--format=%x00%x01%ct", "--name-only", "--no-renames", "--relative"]
    try:
        out = subprocess.run(
            # "-- .": the vault's own history only (a folder of a large repository need not diff
            # every commit of it).
            ["git", "-C", str(vault), *log, *(limit or ["--", "."])],
            capture_output=True,
            encoding="utf-8",
            errors="surrogateescape",  # a name of other bytes, in any commit, is read, not fatal
            timeout=60,
            check=True,
        ).stdout
    except (OSError, subprocess.SubprocessError, UnicodeDecodeError):
        return {}
    times: dict[str, datetime] = {}
    when: datetime | None = None
    for field in out.split("\x00"):
        field = field.lstrip("\n")
        if field.startswith("\x01") and field[1:].isdigit():
            when = datetime.fromtimestamp(int(field[1:]), tz=UTC)
        elif field and when is not None:
            times.setdefault(field, when)  # newest commit comes first
    return times


def walk_order(rel_path: str) -> tuple[tuple[int, str], ...]:
    """Sort key that puts vault-relative paths in :func:`iter_markdown`'s order.

    A folder's own files come before its subfolders, each sorted by name; an incremental update
    that orders files this way does what a full scan would (alias precedence, new chunk ids).
    """
    parts = rel_path.split("/")
    return (*((1, p) for p in parts[:-1]), (0, parts[-1]))
