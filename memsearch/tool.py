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

import json
import os
import threading
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

from memsearch.config import DEFAULT_K, Settings
from memsearch.errors import IndexMissingError
from memsearch.index.versioning import IndexRepo
from memsearch.models import FACT_TYPES
from memsearch.opening import (
    MAX_OPEN_CHARS,
    MAX_OPEN_LINES,
    BadArgument,
    as_text,
    failure,
    open_memory,
    text_argument,
    whole_number,
)
from memsearch.paths import default_home
from memsearch.scan import check_vault

#: Most results one call returns: a model reads every one of them, and pointers past 50 are noise.
MAX_K = 50
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
        "vectors": {
            "type": "object",
            "additionalProperties": {"type": "array", "items": {"type": "number"}},
            "description": (
                'Find notebook moments by vector: {modality: [numbers]}, e.g. {"audio": [...]}, each'
                " of the dimension the index's vectors of that modality have. With a query, both"
                " count; without one, the vectors alone."
            ),
        },
    },
    # `query`, `vectors` or both: the answer says so if neither is given (a top-level anyOf is
    # refused by some frameworks' tool schemas).
    "required": [],
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


def _api() -> ModuleType:
    """:mod:`memsearch.api`, imported when a tool is first called: it imports numpy, hnswlib and the
    engine (``import memsearch.tool`` takes ~0.1 s without it, ~0.4 s with it, measured with
    ``-X importtime``), which a framework registering :func:`tool_definitions` never needs."""
    import memsearch.api

    return memsearch.api


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
    text = text_argument("fact_type", value)
    if text is None:
        return None
    if text.lower() not in FACT_TYPES:
        raise BadArgument(f"bad argument fact_type: expected 'world' or 'experience', got {value!r}")
    return text.lower()


def _vectors(value: Any) -> dict[str, list[float]] | None:
    """The ``vectors`` argument: ``{modality: [numbers]}`` (the engine checks names and dimensions)."""
    if value is None or value == {}:
        return None
    if not isinstance(value, Mapping) or not all(isinstance(m, str) for m in value):
        raise BadArgument(
            'bad argument vectors: expected an object of modality to numbers, e.g. {"audio": [0.1, 0.2]}'
        )
    out = {}
    for modality, numbers in value.items():
        if not isinstance(numbers, list | tuple) or not all(
            isinstance(x, int | float) and not isinstance(x, bool) for x in numbers
        ):
            raise BadArgument(f"bad argument vectors: {modality!r} must be a list of numbers")
        try:
            out[modality] = [float(x) for x in numbers]
        except OverflowError:  # an integer past what a float holds (10**400)
            raise BadArgument(
                f"bad argument vectors: {modality!r} holds a number too large for a vector"
            ) from None
    return out


def _degradation(health: dict[str, Any]) -> list[str]:
    out = []
    for name, why in health.get("failed", {}).items():
        out.append(f"{name} search is degraded: {why}")
    return out


def _expanded(path: Any) -> Any:
    """``path`` with its ``~`` expanded; as given where it cannot be (``~nosuchuser``, a number):
    the tools never raise, so the first call answers why it names no vault."""
    try:
        return Path(path).expanduser()
    except (TypeError, RuntimeError, ValueError):
        return path


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
        self.vault_arg = _expanded(vault or os.environ.get("MEMSEARCH_VAULT") or ".")
        self.index_dir = _expanded(index_dir) if index_dir else None
        self.settings = settings
        self.auto_index = auto_index
        self._engine: Any = None
        self._lock = threading.RLock()

    # -- plumbing --

    def _vault(self) -> Path:
        _folder_argument("vault", self.vault_arg)
        _folder_argument("index_dir", self.index_dir)
        return check_vault(self.vault_arg)

    def _index_home(self, vault: Path) -> Path:
        return self.index_dir or default_home(vault)

    def engine(self, notes: list[str] | None = None) -> Any:
        """The loaded index (a :class:`memsearch.api.Memsearch`), fresh after every reindex: a new
        commit is loaded into it (:func:`memsearch.api.refreshed`), not the whole engine reopened."""
        api = _api()
        with self._lock:
            vault = self._vault()
            if self._engine is not None:
                # None: a reindex is swapping the folder in, and the loaded index still answers.
                self._engine = api.refreshed(self._engine, self.settings)
                return self._engine
            if self.auto_index and IndexRepo(self._index_home(vault)).head() is None:
                report = api.index_vault(vault, self.settings, index_dir=self.index_dir)
                if notes is not None:
                    notes.append(
                        f"there was no index yet: built one now ({report.files} files,"
                        f" {report.chunks} chunks)"
                    )
            try:
                self._engine = api.open_index(vault, self.settings, self.index_dir)
            except IndexMissingError as exc:
                raise IndexMissingError(
                    f"no memory index for the vault {vault} yet: a person or a cron job runs"
                    f" `memsearch index {vault}` to build it (seconds for a small vault), or start"
                    " the MCP server with --auto-index to build it on the first search"
                ) from exc
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
        vectors: Any = None,
        **unknown: Any,
    ) -> dict[str, Any]:
        """Ranked pointers to where the memories live; never their text. Never raises.

        ``at``: a commit (an earlier answer's ``commit``) to answer from; every answer names its commit.
        ``vectors``: ``{modality: [numbers]}`` to find notebook moments by (the query is then optional).
        """
        try:
            vectors = _vectors(vectors)
            return self._search(
                query, k, fact_type, entities, territory, since, until, now, unknown, at, vectors
            )
        except Exception as exc:  # the agent's memory must never take the agent down
            return failure(exc, query=query if isinstance(query, str) else None, results=[])

    def _search(
        self, query, k, fact_type, entities, territory, since, until, now, unknown, at=None, vectors=None
    ) -> dict[str, Any]:
        warnings: list[str] = []
        text = text_argument("query", query, required=not vectors)
        k = DEFAULT_K if k is None else whole_number("k", k, 1, MAX_K)
        if k > MAX_K:
            warnings.append(f"k={k} is more than {MAX_K}; returned the best {MAX_K}")
            k = MAX_K
        filters = {
            "fact_type": _fact_type(fact_type),
            "entities": _entities(entities),
            "territory": text_argument("territory", territory),
            "since": text_argument("since", since),
            "until": text_argument("until", until),
        }
        if unknown:
            warnings.append(
                f"ignored unknown argument(s) {', '.join(sorted(map(as_text, unknown)))}; the arguments are"
                " query, k, fact_type, entities, territory, since, until, now, at, vectors"
            )
        if vectors:
            filters["vectors"] = vectors
        with self._lock:  # one search at a time: the MCP server answers calls from worker threads
            return self._search_locked(text, k, filters, now, warnings, text_argument("at", at))

    def _pinned(self, at: str) -> Any:
        """The index as commit ``at`` had it (the last few kept loaded: a pinned conversation asks again)."""
        vault = self._vault()
        commit = IndexRepo(self._index_home(vault)).resolve(at)
        pinned = self.__dict__.setdefault("_pinned_engines", {})
        if commit not in pinned:
            while len(pinned) >= 2:
                pinned.pop(next(iter(pinned)))
            pinned[commit] = _api().open_index(vault, self.settings, self.index_dir, at=commit)
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
                "signal": "none",  # as every answer says it (the API's, the CLI's)
                "signal_reason": "the vault holds no memory yet",
                "results": [],
                "health": {},
                "warnings": warnings,
            }
        response = engine.search(text, k, now=text_argument("now", now), **filters)
        data = response.to_dict()
        for result in data["results"]:
            result["ref"] = f"{result['path']}:{result['start_line']}-{result['end_line']}"
        health = data["health"]
        degraded = _degradation(health)
        warnings = degraded + list(health.get("notes", [])) + warnings
        active = {name: value for name, value in filters.items() if value and name != "vectors"}
        signal, reason = data.get("signal"), data.get("signal_reason")
        if data["results"]:
            status = "ok"
            found = len(data["results"])
            message = (
                f"{found} {'memory' if found == 1 else 'memories'} found, best first;"
                " open one with memory_open(path=<its ref>) to read it"
            )
            if signal == "thin":
                message = f"low scores: the signal is thin ({reason}); {message}"
        else:
            status = "no_results"
            message = NO_RESULTS
            if signal == "none" and reason:  # a filter's reason begins as this message does: once
                message += f" ({reason.removeprefix('no results: ')})"
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
        manifest = self._engine.index.manifest if self._engine is not None else None
        answer = open_memory(self.vault_arg, path, start_line, end_line, ref=ref, manifest=manifest)
        if answer["ok"] and unknown:
            answer["warnings"].append(
                f"ignored unknown argument(s) {', '.join(sorted(map(as_text, unknown)))}"
            )
        return answer

    def call(self, name: str, arguments: Mapping[str, Any] | str | None = None) -> dict[str, Any]:
        """Dispatch one tool call by name; ``arguments`` is a dict or a JSON object string. Never raises."""
        try:
            if isinstance(arguments, str):
                arguments = json.loads(arguments) if arguments.strip() else {}
            arguments = dict(arguments or {})
        except (ValueError, TypeError) as exc:
            return failure(BadArgument(f"bad arguments: expected a JSON object ({exc})"), results=[])
        except RecursionError:  # json's parser recurses once per bracket: 100k '[' end it
            return failure(
                BadArgument("bad arguments: expected a JSON object (nested too deeply)"), results=[]
            )
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


def _folder_argument(name: str, value: Any) -> None:
    """BadArgument unless ``value`` is a path (or None): a number or bytes failed "unexpectedly"."""
    if value is not None and not isinstance(value, str | os.PathLike):
        shown = repr(value) if len(repr(value)) <= 60 else repr(value)[:56] + "..."
        raise BadArgument(f"bad argument {name}: expected a folder's path, got {shown}")


def _shared(vault: str | Path | None, index_dir: str | Path | None) -> MemoryTools:
    _folder_argument("vault", vault)
    _folder_argument("index_dir", index_dir)
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
