"""The agent's tools: ``memory_search`` (where does a memory live?) and ``memory_open`` (read it).

Each tool is a plain Python function, a JSON tool definition (name, a description written for the
model, a JSON Schema of its arguments) and, through :mod:`memsearch.mcp_server`, an MCP tool.

The tools never raise into the agent. Every answer is a JSON-ready dict with ``ok``, ``status`` and a
readable ``message``; a failure adds ``code`` (what kind) and ``error`` (what happened and what to do):

>>> tools = MemoryTools("~/vault")
>>> tools.memory_search("who approved the new signing key", k=5)["results"][0]["ref"]
'reference/redflag.md:32-35'
>>> tools.memory_open("reference/redflag.md:32-35")["text"]
'## Contacts\\n...'

Frameworks register :func:`tool_definitions` as they are (``style="anthropic"``, ``"openai"`` or
``"mcp"``) and route calls to :meth:`MemoryTools.call`.
"""

from __future__ import annotations

import difflib
import errno
import hashlib
import json
import os
import re
import threading
from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from typing import Any

from memsearch.config import DEFAULT_K, Settings
from memsearch.errors import (
    ConfigError,
    IndexCorruptError,
    IndexMissingError,
    MemsearchError,
    QueryError,
    VaultError,
)
from memsearch.models import FACT_TYPES
from memsearch.paths import default_home

#: Most results one call returns: a model reads every one of them, and pointers past 50 are noise.
MAX_K = 50
#: memory_open returns at most this many lines and characters per call (about 4k tokens), and says
#: where to continue: a whole chapter must not flood the agent's context.
MAX_OPEN_LINES = 200
MAX_OPEN_CHARS = 16_000
#: Longest path memory_open accepts (a path longer than this is not a memory's).
MAX_PATH_CHARS = 1024

NO_RESULTS = "no results: nothing resonates with this query"

MEMORY_SEARCH_DESCRIPTION = (
    "Search your long-term memory (a vault of markdown notes, journal entries, ledgers, references) "
    "and get back WHERE the relevant memories live: ranked pointers with a path, a line range, a "
    "score from 0 to 1, the fact type and the entities that connected them. It never returns the "
    "memory's text: call memory_open with a result's `ref` to read it. "
    "Ask in plain words or exact terms: names, identifiers and dates ('last week', 'on March 5', "
    "'in 2024') are understood. Filters narrow the search: fact_type 'world' (settled knowledge: "
    "people, projects, technical facts) or 'experience' (lived events, conversations, reflections); "
    "entities (each one must be named by the memory); territory (a folder such as 'journal/'); "
    "since/until (ISO dates). Every answer has `ok`, a `signal` ('strong', 'thin' or 'none', with "
    "`signal_reason`) and a `message`: read the message, it says when nothing resonates (no "
    "results), when the signal is thin (low scores: treat the results as guesses), when part of "
    "the search was degraded, or what to do about an error."
)

MEMORY_OPEN_DESCRIPTION = (
    "Read a memory that memory_search pointed to: give a result's `ref` (path:START-END) or a "
    "vault-relative path with optional start_line/end_line (1-based, inclusive), and get those lines "
    "of the markdown file. Only files inside the memory vault can be opened. Long ranges are cut "
    f"at {MAX_OPEN_LINES} lines or {MAX_OPEN_CHARS} characters; the answer's `next` is the ref that "
    "continues where it stopped."
)

MEMORY_SEARCH_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {
            "type": "string",
            "minLength": 1,
            "description": "What you are trying to remember: a question, words, names or exact terms.",
        },
        "k": {
            "type": "integer",
            "minimum": 1,
            "maximum": MAX_K,
            "default": DEFAULT_K,
            "description": "How many results to return (one per file, best first).",
        },
        "fact_type": {
            "type": "string",
            "enum": list(FACT_TYPES),
            "description": "Only 'world' knowledge or only lived 'experience'.",
        },
        "entities": {
            "type": "array",
            "items": {"type": "string"},
            "description": "Only memories that name every one of these people, projects or tags.",
        },
        "territory": {
            "type": "string",
            "description": "Only this part of the vault: a folder prefix such as 'journal/' or 'reference/'.",
        },
        "since": {
            "type": "string",
            "description": "Only memories dated at or after this time (ISO, e.g. 2025-03-01).",
        },
        "until": {
            "type": "string",
            "description": "Only memories dated at or before this time (ISO, e.g. 2025-03-31).",
        },
        "now": {
            "type": "string",
            "description": (
                "The time 'now' is for recency and words such as 'last week' (ISO); default: the clock."
            ),
        },
        "at": {
            "type": "string",
            "description": (
                "Search the index as this commit had it (an answer's `commit`): pin a conversation to"
                " the memory of its first turn. Default: the current index."
            ),
        },
    },
    "required": ["query"],
}

MEMORY_OPEN_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "ref": {
            "type": "string",
            "minLength": 1,
            "description": "A result's ref such as 'journal/2025-03-11.md:6-9' (or give it as `path`).",
        },
        "path": {
            "type": "string",
            "minLength": 1,
            "description": "A result's ref such as 'journal/2025-03-11.md:6-9', or a vault-relative path.",
        },
        "start_line": {
            "type": "integer",
            "minimum": 1,
            "description": "First line to read (1-based); default: the ref's start, else line 1.",
        },
        "end_line": {
            "type": "integer",
            "minimum": 1,
            "description": "Last line to read (inclusive); default: the ref's end, else as far as allowed.",
        },
    },
    "required": [],  # `ref` or `path` (the same argument): the answer says so if neither is given
}

TOOLS: tuple[dict[str, Any], ...] = (
    {"name": "memory_search", "description": MEMORY_SEARCH_DESCRIPTION, "schema": MEMORY_SEARCH_SCHEMA},
    {"name": "memory_open", "description": MEMORY_OPEN_DESCRIPTION, "schema": MEMORY_OPEN_SCHEMA},
)


def tool_definitions(style: str = "anthropic") -> list[dict[str, Any]]:
    """The tools' JSON definitions in the shape a framework registers as is.

    ``anthropic``: ``{"name", "description", "input_schema"}``;
    ``openai``: ``{"type": "function", "function": {"name", "description", "parameters"}}``;
    ``mcp``: ``{"name", "description", "inputSchema"}``.
    """
    out = []
    for tool in TOOLS:
        schema = json.loads(json.dumps(tool["schema"]))  # a deep copy the caller may change
        if style == "anthropic":
            out.append({"name": tool["name"], "description": tool["description"], "input_schema": schema})
        elif style == "openai":
            out.append(
                {
                    "type": "function",
                    "function": {
                        "name": tool["name"],
                        "description": tool["description"],
                        "parameters": schema,
                    },
                }
            )
        elif style == "mcp":
            out.append({"name": tool["name"], "description": tool["description"], "inputSchema": schema})
        else:
            raise ValueError(f"style {style!r} is not one of anthropic, openai, mcp")
    return out


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
    extra = {key: _as_text(value) if isinstance(value, str) else value for key, value in extra.items()}
    return {"ok": False, "status": "error", "code": code, "error": message, "message": message, **extra}


def _as_text(value: str) -> str:
    """``value`` with a lone surrogate (not text: no UTF-8 writer takes it) written as ``\\ud800``."""
    return value.encode("utf-8", "backslashreplace").decode("utf-8")


def _not_text(value: str) -> str | None:
    """The first character of ``value`` that is not text (a lone surrogate), else None."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        return value[exc.start]
    return None


# --- argument checks: lenient where a model's habit is harmless ("5" for 5), clear where it is not ---


def _whole_number(name: str, value: Any, low: int = 1, high: int | None = None) -> int:
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


def _text(name: str, value: Any, required: bool = False) -> str | None:
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


def _entities(value: Any) -> list[str] | None:
    if value is None or value == "" or value == []:
        return None
    if isinstance(value, str):
        value = value.split(",")
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise BadArgument(
            f'bad argument entities: expected a list of names such as ["Ed Kowalski"], got {value!r}'
        )
    names = [v.strip() for v in value if v.strip()]
    return names or None


def _fact_type(value: Any) -> str | None:
    text = _text("fact_type", value)
    if text is None:
        return None
    if text.lower() not in FACT_TYPES:
        raise BadArgument(f"bad argument fact_type: expected 'world' or 'experience', got {value!r}")
    return text.lower()


def _degradation(health: dict[str, Any]) -> list[str]:
    out = []
    for name, why in health.get("failed", {}).items():
        out.append(f"{name} search is degraded: {why}")
    return out


# --- memory_open: refuse anything that is not a markdown memory inside the vault ---

_REF_RE = re.compile(r"^(?P<path>.+?):(?P<start>\d+)(?:-(?P<end>\d+))?$")
_MARKDOWN = (".md", ".markdown")


def parse_ref(ref: str) -> tuple[str, int | None, int | None]:
    """``path[:START[-END]]`` -> (path, start, end); a bare ``path:N`` is the single line N."""
    match = _REF_RE.match(ref)
    if not match:
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
    parts = PurePosixPath(rel.replace("\\", "/")).parts
    if ".." in parts:
        raise PathRefused(f"refused: {rel!r} climbs out of the memory vault ('..'); only vault files open")
    if not parts:
        raise PathRefused("refused: no file named; give a path such as journal/2025-03-11.md")
    if any(p.startswith(".") for p in parts):
        raise PathRefused(
            f"refused: {rel!r} is inside a hidden folder or file (the index, git, editor state),"
            " which is not memory"
        )
    if not parts[-1].lower().endswith(_MARKDOWN):
        raise PathRefused(f"refused: {rel!r} is not a markdown memory (.md); only memories open")
    from memsearch.scan import link_refusal

    clean = "/".join(parts)
    root = vault.resolve()
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
    if not is_file:
        hint = _close_matches(root, clean)
        raise NotFound(
            f"not found: the vault has no file {clean!r}"
            + (f"; did you mean {', '.join(hint)}?" if hint else "; run memory_search to find the path")
        )
    return clean, real


def _close_matches(root: Path, rel: str) -> list[str]:
    from memsearch.scan import iter_markdown

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
    from memsearch.chunkers.document import split_lines
    from memsearch.scan import MAX_FILE_BYTES

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
    if b"\x00" in data[:8192]:
        raise PathRefused(f"refused: {rel!r} holds binary content, not a readable memory")
    lines = split_lines(data.decode("utf-8-sig", errors="replace"))
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()  # a final newline ends the last line; it does not start another
    total = len(lines)
    notes: list[str] = []
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
    indexed = (manifest or {}).get("files", {}).get(rel, {}).get("sha256")
    if indexed and indexed != hashlib.sha256(data).hexdigest():
        notes.append(
            f"{rel} changed since the index was built; line anchors from memory_search may have"
            " shifted (the next `memsearch index` catches up)"
        )
    answer["message"] = f"{rel} lines {start}-{shown_end} of {total}" + (
        "; " + "; ".join(notes) if notes else ""
    )
    answer["warnings"] = notes
    return answer


class MemoryTools:
    """The two tools bound to one vault; the index is loaded once and reloaded when a reindex swaps it.

    ``auto_index``: when the vault has no index yet, build one on the first search instead of answering
    with ``index_missing``. Thread-safe: calls are serialised.
    """

    def __init__(
        self,
        vault: str | Path | None = None,
        *,
        index_dir: str | Path | None = None,
        settings: Settings | None = None,
        auto_index: bool = False,
    ) -> None:
        self.vault_arg = Path(vault or os.environ.get("MEMSEARCH_VAULT") or ".").expanduser()
        self.index_dir = Path(index_dir).expanduser() if index_dir else None
        self.settings = settings
        self.auto_index = auto_index
        self._engine: Any = None
        self._stamp: str | None = None
        self._lock = threading.RLock()

    # -- plumbing --

    def _vault(self) -> Path:
        from memsearch.scan import check_vault

        return check_vault(self.vault_arg)

    def _index_home(self, vault: Path) -> Path:
        return self.index_dir or default_home(vault)

    def _manifest_stamp(self, vault: Path) -> str | None:
        """The commit the index serves now (a new commit = an update to load); None: no index."""
        from memsearch.index import loading  # here: memsearch.index.loading imports numpy (~170 ms)

        return loading.head_commit(self._index_home(vault))

    def engine(self, notes: list[str] | None = None) -> Any:
        """The loaded index (a :class:`memsearch.api.Memsearch`), fresh after every reindex."""
        from memsearch.api import index_vault, open_index

        with self._lock:
            vault = self._vault()
            stamp = self._manifest_stamp(vault)
            if stamp is None and self.auto_index:
                report = index_vault(vault, self.settings, index_dir=self.index_dir)
                if notes is not None:
                    notes.append(
                        f"there was no index yet: built one now ({report.files} files,"
                        f" {report.chunks} chunks)"
                    )
                stamp = self._manifest_stamp(vault)
            if stamp is None and self._engine is not None:
                return self._engine  # a reindex is swapping the folder in: the old index still answers
            if self._engine is not None and stamp == getattr(self._engine.index, "commit", None):
                self._stamp = stamp  # the engine made this commit itself (update_file)
            if self._engine is None or stamp != self._stamp:
                try:
                    self._engine = open_index(vault, self.settings, self.index_dir)
                except IndexMissingError as exc:
                    raise IndexMissingError(
                        f"no memory index for the vault {vault} yet: a person or a cron job runs"
                        f" `memsearch index {vault}` to build it (seconds for a small vault), or start"
                        " the MCP server with --auto-index to build it on the first search"
                    ) from exc
                self._stamp = stamp
            return self._engine

    # -- the tools --

    def memory_search(
        self,
        /,
        query: Any = None,
        k: Any = DEFAULT_K,
        fact_type: Any = None,
        entities: Any = None,
        territory: Any = None,
        since: Any = None,
        until: Any = None,
        *,
        now: Any = None,
        at: Any = None,
        **unknown: Any,
    ) -> dict[str, Any]:
        """Ranked pointers to where the memories live; never their text. Never raises.

        ``at``: a commit (an earlier answer's ``commit``) to answer from; every answer names its commit.
        """
        try:
            return self._search(query, k, fact_type, entities, territory, since, until, now, unknown, at)
        except Exception as exc:  # the agent's memory must never take the agent down
            return failure(exc, query=query if isinstance(query, str) else None, results=[])

    def _search(
        self, query, k, fact_type, entities, territory, since, until, now, unknown, at=None
    ) -> dict[str, Any]:
        warnings: list[str] = []
        text = _text("query", query, required=True)
        k = DEFAULT_K if k is None else _whole_number("k", k, 1, MAX_K)
        if k > MAX_K:
            warnings.append(f"k={k} is more than {MAX_K}; returned the best {MAX_K}")
            k = MAX_K
        filters = {
            "fact_type": _fact_type(fact_type),
            "entities": _entities(entities),
            "territory": _text("territory", territory),
            "since": _text("since", since),
            "until": _text("until", until),
        }
        if unknown:
            warnings.append(
                f"ignored unknown argument(s) {', '.join(sorted(unknown))}; the arguments are"
                " query, k, fact_type, entities, territory, since, until, now, at"
            )
        with self._lock:  # one search at a time: the MCP server answers calls from worker threads
            return self._search_locked(text, k, filters, now, warnings, _text("at", at))

    def _pinned(self, at: str) -> Any:
        """The index as commit ``at`` had it (the last few kept loaded: a pinned conversation asks again)."""
        from memsearch.api import open_index
        from memsearch.index.versioning import IndexRepo

        vault = self._vault()
        commit = IndexRepo(self._index_home(vault)).resolve(at)
        pinned = self.__dict__.setdefault("_pinned_engines", {})
        if commit not in pinned:
            while len(pinned) >= 2:
                pinned.pop(next(iter(pinned)))
            pinned[commit] = open_index(vault, self.settings, self.index_dir, at=commit)
        return pinned[commit]

    def _search_locked(self, text, k, filters, now, warnings, at=None) -> dict[str, Any]:
        engine = self._pinned(at) if at else self.engine(warnings)
        if not engine.index.chunks:
            message = (
                f"the memory vault is empty: no markdown memory is indexed in {engine.vault}."
                " Write memories as .md files, then run `memsearch index VAULT`"
            )
            return {
                "ok": True,
                "status": "empty_vault",
                "degraded": False,
                "message": message,
                "query": text,
                "results": [],
                "health": {},
                "warnings": warnings,
            }
        response = engine.search(text, k, now=_text("now", now), **filters)
        data = response.to_dict()
        for result in data["results"]:
            result["ref"] = f"{result['path']}:{result['start_line']}-{result['end_line']}"
        health = data["health"]
        degraded = _degradation(health)
        warnings = degraded + list(health.get("notes", [])) + warnings
        active = {name: value for name, value in filters.items() if value}
        signal, reason = data.get("signal"), data.get("signal_reason")
        if data["results"]:
            status = "ok"
            message = (
                f"{len(data['results'])} memories found, best first;"
                " open one with memory_open(path=<its ref>) to read it"
            )
            if signal == "thin":
                message = f"low scores: the signal is thin ({reason}); {message}"
        else:
            status = "no_results"
            message = NO_RESULTS
            if signal == "none" and reason:
                message += f" ({reason})"
            if active:
                used = ", ".join(f"{n}={v}" for n, v in active.items())
                message += f" with these filters ({used}); try without them"
        if degraded:
            message = "; ".join([message, *degraded])
        return {
            "ok": True,
            "status": status,
            "degraded": bool(health.get("degraded")),
            "message": message,
            "commit": getattr(engine.index, "commit", None),  # what `at` takes to ask this index again
            **data,
            "warnings": warnings,
        }

    def memory_open(
        self,
        /,
        path: Any = None,
        start_line: Any = None,
        end_line: Any = None,
        *,
        ref: Any = None,
        **unknown: Any,
    ) -> dict[str, Any]:
        """The text of a memory's lines (bounded), or a clear refusal. Never raises.

        ``ref`` (a result's ref, as the description names it) and ``path`` are the same argument."""
        try:
            given = _text("ref", ref, required=False)
            if given is not None and path is not None and given != path:
                raise BadArgument("bad argument ref: give ref or path, not two different ones")
            ref = given if given is not None else _text("path", path, required=False)
            if ref is None:
                raise BadArgument(
                    "bad argument path: give a result's ref such as 'journal/2025-03-11.md:6-9'"
                    " or a vault-relative path"
                )
            start = None if start_line is None else _whole_number("start_line", start_line)
            end = None if end_line is None else _whole_number("end_line", end_line)
            manifest = self._engine.index.manifest if self._engine is not None else None
            answer = open_lines(self._vault(), ref, start, end, manifest=manifest)
            if unknown:
                answer["warnings"].append(f"ignored unknown argument(s) {', '.join(sorted(unknown))}")
            return answer
        except Exception as exc:
            return failure(exc, path=path if isinstance(path, str) else None, text="")

    def call(self, name: str, arguments: Mapping[str, Any] | str | None = None) -> dict[str, Any]:
        """Dispatch one tool call by name; ``arguments`` is a dict or a JSON object string. Never raises."""
        try:
            if isinstance(arguments, str):
                arguments = json.loads(arguments) if arguments.strip() else {}
            arguments = dict(arguments or {})
        except (ValueError, TypeError) as exc:
            return failure(BadArgument(f"bad arguments: expected a JSON object ({exc})"), results=[])
        names = [key for key in arguments if not isinstance(key, str)]
        if names:
            return failure(
                BadArgument(f"bad arguments: argument names must be text, got {names[0]!r}"), results=[]
            )
        try:
            if name == "memory_search":
                return self.memory_search(**arguments)
            if name == "memory_open":
                return self.memory_open(**arguments)
        except Exception as exc:  # each tool catches its own errors: this is a last net, never used
            return failure(exc, results=[])
        return failure(
            BadArgument(f"unknown tool {name!r}; the tools are memory_search and memory_open"),
            results=[],
        )


_SHARED: dict[tuple[str, str | None], MemoryTools] = {}
_SHARED_LOCK = threading.Lock()


def _shared(vault: str | Path | None, index_dir: str | Path | None) -> MemoryTools:
    key = (str(vault or os.environ.get("MEMSEARCH_VAULT") or "."), str(index_dir) if index_dir else None)
    with _SHARED_LOCK:
        if key not in _SHARED:
            _SHARED[key] = MemoryTools(key[0], index_dir=index_dir)
        return _SHARED[key]


def memory_search(
    query: Any = None,
    k: Any = DEFAULT_K,
    fact_type: Any = None,
    entities: Any = None,
    territory: Any = None,
    since: Any = None,
    until: Any = None,
    *,
    vault: str | Path | None = None,
    index_dir: str | Path | None = None,
    **options: Any,
) -> dict[str, Any]:
    """The ``memory_search`` tool on ``vault`` (default ``$MEMSEARCH_VAULT``). Never raises."""
    try:
        tools = _shared(vault, index_dir)
    except Exception as exc:
        return failure(exc, results=[])
    return tools.memory_search(query, k, fact_type, entities, territory, since, until, **options)


def memory_open(
    path: Any = None,
    start_line: Any = None,
    end_line: Any = None,
    *,
    vault: str | Path | None = None,
    index_dir: str | Path | None = None,
    **unknown: Any,
) -> dict[str, Any]:
    """The ``memory_open`` tool on ``vault`` (default ``$MEMSEARCH_VAULT``). Never raises."""
    try:
        tools = _shared(vault, index_dir)
    except Exception as exc:
        return failure(exc, text="")
    return tools.memory_open(path, start_line, end_line, **unknown)  # ref= travels in unknown
