"""Opening a memory: the lines a pointer names (``path:START-END``), bounded, never outside the vault.

:func:`open_memory` is ``memory_open``'s answer (the agent's tool, the MCP server and ``memsearch
open`` give the same one): a JSON-ready dict with ``ok``, ``status`` and ``message``; a refusal is an
answer too, with ``code`` and ``error`` (:func:`failure`). :func:`open_lines` raises instead. The
argument checks here (:func:`text_argument`, :func:`whole_number`) are the ones every tool argument
goes through: lenient where a model's habit is harmless ("5" for 5), clear where it is not.
"""

from __future__ import annotations

import difflib
import errno
import hashlib
import os
import re
from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from typing import Any

from memsearch.errors import (
    ConfigError,
    IndexCorruptError,
    IndexMissingError,
    MemsearchError,
    QueryError,
    RevisionError,
    VaultError,
)
from memsearch.scan import (
    MAX_FILE_BYTES,
    check_vault,
    decode_memory,
    iter_markdown,
    link_refusal,
    notebook_kind,
    notebook_root,
)

#: memory_open returns at most this many lines and characters per call (about 4k tokens), and says
#: where to continue: a whole chapter must not flood the agent's context.
MAX_OPEN_LINES = 200
MAX_OPEN_CHARS = 16_000
#: Longest path memory_open accepts (a path longer than this is not a memory's).
MAX_PATH_CHARS = 1024


class BadArgument(QueryError):
    """A tool argument has the wrong type or value."""


class PathRefused(MemsearchError):
    """memory_open was asked for something that is not a memory inside the vault."""


class NotFound(MemsearchError):
    """memory_open was asked for a file the vault does not have."""


_CODES: tuple[tuple[type[BaseException], str], ...] = (
    (BadArgument, "bad_argument"),
    (PathRefused, "path_refused"),
    (NotFound, "not_found"),
    (QueryError, "bad_argument"),
    (RevisionError, "bad_argument"),  # `at` names no commit: the argument, not the index
    (IndexMissingError, "index_missing"),
    (IndexCorruptError, "index_corrupt"),
    (VaultError, "vault_missing"),
    (ConfigError, "config_error"),
    (MemsearchError, "error"),
)


def failure(exc: BaseException, **extra: Any) -> dict[str, Any]:
    """A structured answer for an error: what kind, what happened, what to do next."""
    code = next((c for kind, c in _CODES if isinstance(exc, kind)), "internal_error")
    message = str(exc) if isinstance(exc, MemsearchError) else f"{type(exc).__name__}: {exc}"
    if code == "bad_argument" and not message.startswith("bad argument"):
        message = f"bad argument {message}"
    if code == "internal_error":
        message = (
            f"memory search failed unexpectedly ({message}); the memory itself is safe."
            " Try again, or ask a person to run `memsearch status`"
        )
    extra = {key: as_text(value) if isinstance(value, str) else value for key, value in extra.items()}
    return {"ok": False, "status": "error", "code": code, "error": message, "message": message, **extra}


def as_text(value: str) -> str:
    """``value`` with a lone surrogate (not text: no UTF-8 writer takes it) written as ``\\ud800``."""
    return value.encode("utf-8", "backslashreplace").decode("utf-8")


def _not_text(value: str) -> str | None:
    """The first character of ``value`` that is not text (a lone surrogate), else None."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        return value[exc.start]
    return None


def whole_number(name: str, value: Any, low: int = 1, high: int | None = None) -> int:
    number: int | None = None
    if isinstance(value, bool):
        number = None
    elif isinstance(value, int):
        number = value
    elif isinstance(value, float) and value.is_integer():
        number = int(value)
    elif isinstance(value, str) and value.strip().lstrip("+").isdigit() and len(value.strip()) <= 18:
        number = int(value.strip())
    span = f"from {low} to {high}" if high else f"of at least {low}"
    if number is None or number < low:
        shown = repr(value) if len(repr(value)) <= 80 else repr(value)[:76] + "...'"
        raise BadArgument(f"bad argument {name}: expected a whole number {span}, got {shown}")
    return number


def text_argument(name: str, value: Any, required: bool = False) -> str | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise BadArgument(
                f"bad argument {name}: it is required and must be non-empty text,"
                ' e.g. {"query": "who approved the new signing key"}'
            )
        return None
    if not isinstance(value, str):
        raise BadArgument(f"bad argument {name}: expected text, got {type(value).__name__} {value!r}")
    bad = _not_text(value)
    if bad is not None:
        raise BadArgument(f"bad argument {name}: it holds {bad!r}, a lone surrogate that is not text")
    return value.strip()


# --- memory_open: refuse anything that is not a memory inside the vault (markdown, a notebook's) ---

_REF_RE = re.compile(r"^(?P<path>.+?):(?P<start>\d+)(?:-(?P<end>\d+))?$")
_MARKDOWN = (".md", ".markdown")


def parse_ref(ref: str) -> tuple[str, int | None, int | None]:
    """``path[:START[-END]]`` -> (path, start, end); a bare ``path:N`` is the single line N."""
    match = _REF_RE.match(ref)
    if not match:
        path, colon, lines = ref.rpartition(":")
        # "x.md:-3", "x.md:x", "x.md:1-"; not "a.md:b.md", a name a file may have
        if colon and path.lower().endswith(_MARKDOWN) and "." not in lines:
            raise BadArgument(
                f"bad argument ref: {ref!r} names lines as {lines!r}; after the path give LINE or"
                " START-END, numbered from 1 (journal/2025-03-11.md:6-9)"
            )
        return ref, None, None
    start = int(match["start"])
    end = int(match["end"]) if match["end"] else start
    return match["path"], start, end


def safe_vault_path(vault: Path, rel: str) -> tuple[str, Path]:
    """The vault-relative posix path and the real file for ``rel``, or :class:`PathRefused`."""
    if "\x00" in rel or len(rel) > MAX_PATH_CHARS:
        raise PathRefused("refused: that is not a path to a memory (NUL byte or too long)")
    if rel.startswith(("/", "\\", "~")) or re.match(r"^[A-Za-z]:[\\/]", rel):
        raise PathRefused(
            f"refused: {rel!r} is an absolute path; give the path relative to the memory vault,"
            " as memory_search returns it (e.g. journal/2025-03-11.md)"
        )
    # A backslash separates folders in a ref written the Windows way; a name may hold one too.
    own_name = "\\" in rel and os.path.isfile(vault / rel)  # False for a name too long to be one
    parts = PurePosixPath(rel if own_name else rel.replace("\\", "/")).parts
    if ".." in parts:
        raise PathRefused(f"refused: {rel!r} climbs out of the memory vault ('..'); only vault files open")
    if not parts:
        raise PathRefused("refused: no file named; give a path such as journal/2025-03-11.md")
    if any(p.startswith(".") for p in parts):
        raise PathRefused(
            f"refused: {rel!r} is inside a hidden folder or file (the index, git, editor state),"
            " which is not memory"
        )
    clean = "/".join(parts)
    root = vault.resolve()
    if not parts[-1].lower().endswith(_MARKDOWN) and notebook_kind(clean, notebook_root(root)) is None:
        raise PathRefused(
            f"refused: {rel!r} is not a markdown memory (.md) nor a notebook's session or moment file;"
            " only memories open"
        )
    full = root.joinpath(*parts)
    real = Path(os.path.realpath(full))
    if os.path.islink(full) or (real != full and os.path.lexists(full)):  # a link: as the index follows one
        refused = link_refusal(root, os.fspath(full))
        if refused:
            raise PathRefused(f"refused: {clean!r}: {refused}")
    try:
        is_file = real.is_file()
    except OSError as exc:  # e.g. a name over 255 bytes: no such file can exist
        if exc.errno == errno.ENAMETOOLONG:
            raise NotFound(
                f"not found: the vault has no file {clean!r} (a file or folder name is at most 255 bytes)"
            ) from None
        raise PathRefused(f"refused: {clean!r} cannot be read ({exc.strerror or exc})") from None
    if not is_file and os.path.lexists(real):  # a FIFO, a device, a folder: there, but no memory
        kind = "a folder" if real.is_dir() else "not a regular file"
        raise PathRefused(f"refused: {clean!r} is {kind}; only markdown files are memories")
    if not is_file:
        hint = [match for match in _close_matches(root, clean) if match != clean]
        raise NotFound(
            f"not found: the vault has no file {clean!r}"
            + (f"; did you mean {', '.join(hint)}?" if hint else "; run memory_search to find the path")
        )
    return clean, real


def _as_indexed(vault: Path, rel: str, data: bytes) -> str:
    """The file's hash as the index records it: a notebook moment's has its sidecars' digest folded
    in (compared with the file's alone, every moment with sidecars read as changed since indexed)."""
    digest = hashlib.sha256(data).hexdigest()
    if notebook_kind(rel, notebook_root(vault)) != "moment":
        return digest
    # Imported here: the config and the sidecars are for a moment's answer only.
    from memsearch.config import Settings
    from memsearch.sidecars import fold_hash, sidecars_digest

    try:
        modalities = Settings().with_vault_config(vault).modalities
    except ConfigError:
        return digest
    return fold_hash(digest, sidecars_digest(vault, rel, modalities))


def _close_matches(root: Path, rel: str) -> list[str]:
    try:
        known = [p.relative_to(root).as_posix() for p in iter_markdown(root)[:20_000]]
    except OSError:
        return []
    return difflib.get_close_matches(rel, known, n=3, cutoff=0.6)


def open_lines(
    vault: Path,
    ref: str,
    start_line: int | None = None,
    end_line: int | None = None,
    *,
    max_lines: int = MAX_OPEN_LINES,
    max_chars: int = MAX_OPEN_CHARS,
    manifest: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Lines ``start..end`` (1-based, inclusive) of a vault markdown file, bounded; raises if refused."""
    # Imported here: memsearch.chunkers imports numpy and every chunker (~300 ms measured with
    # -X importtime), which the tool's definitions and memory_search's answers never need.
    from memsearch.chunkers.document import split_lines

    rel, ref_start, ref_end = parse_ref(ref)
    rel, real = safe_vault_path(vault, rel)
    start = start_line if start_line is not None else ref_start
    end = end_line if end_line is not None else (ref_end if start_line is None else None)
    try:
        data = real.read_bytes() if real.stat().st_size <= MAX_FILE_BYTES else None
    except OSError as exc:  # unreadable (permissions), or gone since it was checked
        raise PathRefused(f"refused: {rel!r} cannot be read ({exc.strerror or exc})") from None
    if data is None:
        raise PathRefused(f"refused: {rel!r} is over {MAX_FILE_BYTES // 1_048_576} MB, not a memory to read")
    text = decode_memory(data, errors="replace")  # UTF-16 with its mark too, as the index read it
    if "\x00" in text[:8192]:
        raise PathRefused(f"refused: {rel!r} holds binary content, not a readable memory")
    lines = split_lines(text)
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()  # a final newline ends the last line; it does not start another
    total = len(lines)
    notes: list[str] = []
    if start is not None and start < 1:  # ":0" read as no start made the end "before line 1"
        raise BadArgument(f"bad argument start_line: lines are numbered from 1, not {start}")
    start = start or 1
    if start > max(total, 1):
        raise BadArgument(f"bad argument start_line: {rel} has {total} lines, so line {start} does not exist")
    if end is not None and end < start:
        raise BadArgument(f"bad argument end_line: {end} is before start_line {start}")
    last = total if end is None else min(end, total)
    if end is not None and end > total:
        notes.append(f"{rel} has {total} lines; read to the end")
    stop = min(last, start + max_lines - 1)
    picked: list[str] = []
    used = 0
    for number in range(start, stop + 1):
        line = lines[number - 1] if total else ""
        cost = len(line) + (1 if picked else 0)
        if used + cost > max_chars:
            if not picked:  # one enormous line: give its head rather than nothing
                picked.append(line[:max_chars])
                notes.append(f"line {number} is longer than {max_chars} characters; cut")
            break
        picked.append(line)
        used += cost
    shown_end = start + len(picked) - 1
    truncated = shown_end < last
    answer: dict[str, Any] = {
        "ok": True,
        "status": "ok",
        "path": rel,
        "start_line": start,
        "end_line": shown_end,
        "total_lines": total,
        "ref": f"{rel}:{start}-{shown_end}",
        "text": "\n".join(picked),
        "truncated": truncated or any("cut" in n for n in notes),
        "next": f"{rel}:{shown_end + 1}-{last}" if truncated else None,
    }
    if truncated:
        notes.append(
            f"cut at {len(picked)} lines (the limit is {max_lines} lines or {max_chars} characters);"
            f" call memory_open with {answer['next']!r} to read on"
        )
    if manifest is not None:
        indexed = manifest.get("files", {}).get(rel, {}).get("sha256")
    else:  # no index loaded here (`memsearch open`, a tool yet to search): the one on disk
        from memsearch.index.loading import indexed_file  # numpy and the index: only when asked
        from memsearch.paths import default_home

        indexed = (indexed_file(default_home(vault), rel) or {}).get("sha256")
    if indexed and indexed != _as_indexed(vault, rel, data):
        notes.append(
            f"{rel} changed since the index was built; line anchors from an earlier memory_search may"
            " have shifted: search again for the current ones (a change reported with update_file is"
            " searchable at once; any other, after the next `memsearch index`)"
        )
    answer["message"] = f"{rel} lines {start}-{shown_end} of {total}" + (
        "; " + "; ".join(notes) if notes else ""
    )
    answer["warnings"] = notes
    return answer


def _as_written(ref: Any, path: Any) -> str | None:
    """The ref (or path) as given, unstripped, where it is text."""
    given = ref if ref is not None else path
    return given if isinstance(given, str) and given.strip() else None


def open_memory(
    vault: str | Path,
    path: Any = None,
    start_line: Any = None,
    end_line: Any = None,
    *,
    ref: Any = None,
    manifest: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """``memory_open``'s answer: the lines ``ref`` (or ``path``) names, bounded, or a refusal. Never raises.

    ``ref`` (a result's ref, as the tool's description names it) and ``path`` are the same argument:
    ``PATH``, ``PATH:LINE`` or ``PATH:START-END`` (1-based, inclusive); ``start_line``/``end_line``
    override the ref's. ``manifest`` (the loaded index's) adds a warning when the file changed since
    it was indexed (line anchors may have shifted).
    """
    written = _as_written(ref, path)
    try:
        given = text_argument("ref", ref, required=False)
        if given is not None and path is not None and given != path:
            raise BadArgument("bad argument ref: give ref or path, not two different ones")
        ref = given if given is not None else text_argument("path", path, required=False)
        if ref is None:
            raise BadArgument(
                "bad argument path: give a result's ref such as 'journal/2025-03-11.md:6-9'"
                " or a vault-relative path"
            )
        start = None if start_line is None else whole_number("start_line", start_line)
        end = None if end_line is None else whole_number("end_line", end_line)
        folder = check_vault(Path(vault))
        try:
            return open_lines(folder, ref, start, end, manifest=manifest)
        except NotFound as missing:
            if written is None or written == ref:
                raise
            try:  # the space around it may be the file's own (" lead.md"), not an agent's stray one
                return open_lines(folder, written, start, end, manifest=manifest)
            except MemsearchError:
                raise missing from None
    except Exception as exc:  # an agent's tool never raises: the answer says what went wrong
        return failure(exc, path=path if isinstance(path, str) else None, text="")
