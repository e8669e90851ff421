"""A notebook's YAML files as memories: one chunk a moment, a few a session (docs/notebook.md).

The notebook (schema 1.0, as its owners publish it) keeps ``sessions/<session>.yaml`` and
``sessions/<session>/moments/<moment>.yaml``. A **moment** is one chunk: its text, concepts,
retrieval keys and actions, pointing at the lines of its ``moment:`` mapping, dated by its
``timestamp``. A **session** gives a chunk for its task and condensed history, and one for each
decision, pending thread and escalation, each pointing at its own lines.

A notebook chunk's text is what the memory says, gathered from its YAML (the moment's text, then
``concepts: ...``), not the YAML lines themselves: the signatures and bookkeeping keys would only
be noise to the keyword and semantic strategies. Its line range still names the YAML that holds it,
so ``memory_open`` shows the agent the real file.

Entities connect it in the graph: a moment names its concepts, retrieval keys, its own id and the
ids of its parent, children and linked moments; a session's chunks name the session id, the moments
they cite, and (the task chunk) the session's links. Two chunks naming the same id share an edge,
so the graph's walk goes from a moment to its parent, children and linked moments, in any session.

``index.yaml`` gives no chunk: its concepts are already entities of the moments that carry them,
and its counts and dates are bookkeeping that goes stale; it is only read to tell a notebook.
"""

from __future__ import annotations

import math
from datetime import UTC, date, datetime
from pathlib import PurePosixPath
from typing import Any, cast

from yaml.nodes import Node

from memsearch import dates
from memsearch import entities as ent
from memsearch.chunkers.document import split_lines
from memsearch.chunkers.notebook_yaml import line_span, load_bounded, mapping_get, sequence_items
from memsearch.errors import UnreadableMemoryError
from memsearch.models import Chunk, ParsedFile, Territory, chunk_from_fields

#: Schema versions of the notebook this reader knows.
SCHEMA_VERSIONS = frozenset({"1.0"})
#: Timestamp sources of notebook chunks: a moment's own time (its entry's date), a session's.
MOMENT_SOURCE = "moment"
SESSION_SOURCE = "session"


def notebook_file_kind(rel_path: str) -> str:
    """``moment`` for ``.../sessions/<s>/moments/<m>.yaml``, else ``session``."""
    parts = rel_path.split("/")
    return "moment" if len(parts) >= 4 and parts[-2] == "moments" and parts[-4] == "sessions" else "session"


def chunk_notebook_file(rel_path: str, text: str, territory: Territory) -> ParsedFile:
    """A notebook file's chunks; :class:`UnreadableMemoryError` (the file is skipped, named with the
    reason) for malformed YAML, a bomb, an unknown schema version or a missing required field."""
    loaded = load_bounded(text)
    lines = split_lines(text)
    if notebook_file_kind(rel_path) == "moment":
        return _moment(rel_path, loaded.node, loaded.data, lines, territory)
    return _session(rel_path, loaded.node, loaded.data, lines, territory)


# -- moments -------------------------------------------------------------------------------------


def _moment(rel_path: str, root: Node, data: Any, lines: list[str], territory: Territory) -> ParsedFile:
    moment = data.get("moment") if isinstance(data, dict) else None
    if not isinstance(moment, dict):
        raise UnreadableMemoryError("not a notebook moment (no `moment:` mapping at the top); not indexed")
    _check_version(moment)
    moment_id = _name(moment.get("id"))
    if not moment_id and isinstance(moment.get("id"), list | dict):
        given = moment["id"]
        shown = "[" + ", ".join(map(str, given)) + "]" if isinstance(given, list) else "a mapping"
        raise UnreadableMemoryError(f"moment `id` {shown} is no name; write one id, as its file is named")
    if not moment_id:
        raise UnreadableMemoryError("moment has no `id`; add one to index it")
    warnings: list[str] = []
    stem = PurePosixPath(rel_path).stem
    if moment_id != stem:
        warnings.append(f"moment id {moment_id!r} differs from its file name {stem!r}")
    modalities = moment.get("modalities")
    said = _text(modalities.get("text")) if isinstance(modalities, dict) else ""
    concepts = _names(moment.get("concepts"), "concepts", warnings)
    keys = _names(moment.get("retrieval_keys"), "retrieval_keys", warnings)
    actions = _names(moment.get("actions_taken"), "actions_taken", warnings)
    if not said and not concepts and not keys:
        raise UnreadableMemoryError(
            "moment has no `modalities.text`, concepts or retrieval keys; not indexed"
        )
    when = _when(moment.get("timestamp"))
    if when is None:
        warnings.append("moment has no readable `timestamp` (dated by the file instead)")
    importance = _number(moment, "importance", 0.0, 1.0, warnings)
    decay_rate = _number(moment, "decay_rate", 0.0, None, warnings)
    related = [_name(moment.get("parent_moment")), *_names(moment.get("child_moments"))]
    related += _names(moment.get("linked_to"))
    parts = [said]
    if concepts:
        parts.append("concepts: " + ", ".join(concepts))
    if keys:
        parts.append("retrieval keys: " + ", ".join(keys))
    if actions:
        parts.append("actions taken: " + "; ".join(actions))
    body = "\n".join(p for p in parts if p)
    pair = mapping_get(root, "moment")
    start, end = line_span(pair[0], pair[1], lines) if pair else (1, max(len(lines), 1))
    session_id = _name(moment.get("session_id"))
    entities = [*concepts, *keys, moment_id, *(r for r in related if r)]
    chunk = _chunk(
        rel_path,
        (start, end),
        territory,
        heading=moment_id,
        header=f"notebook moment {moment_id}" + (f" (session {session_id})" if session_id else ""),
        text=body,
        when=when,
        source=MOMENT_SOURCE,
        entities=[*entities, *ent.extract_entities(said, ent.vocabulary(said))],
        importance=importance,
        decay_rate=decay_rate,
    )
    return ParsedFile(rel_path, moment_id, {}, {}, (chunk,), tuple(warnings))


# -- sessions ------------------------------------------------------------------------------------


def _session(rel_path: str, root: Node, data: Any, lines: list[str], territory: Territory) -> ParsedFile:
    session = data.get("notebook") if isinstance(data, dict) else None
    pair = mapping_get(root, "notebook")
    if not isinstance(session, dict) or pair is None:
        raise UnreadableMemoryError("not a notebook session (no `notebook:` mapping at the top); not indexed")
    if "schema_version" not in session:
        raise UnreadableMemoryError('session has no `schema_version`; add schema_version: "1.0" to index it')
    _check_version(session)
    node = pair[1]
    session_id = _name(session.get("session_id")) or PurePosixPath(rel_path).stem
    when = _when(session.get("last_touched")) or _when(session.get("created_at"))
    warnings: list[str] = []
    chunks = []
    seen: set[tuple[int, int]] = set()

    def add(
        span: tuple[int, int], heading: str, text: str, entities: list[str], stamp: datetime | None
    ) -> None:
        if span in seen:  # two parts on the same lines (a one-line flow mapping): one chunk
            warnings.append(f"lines {span[0]}-{span[1]} hold more than one part; only the first is indexed")
            return
        seen.add(span)
        chunks.append(
            _chunk(
                rel_path,
                span,
                territory,
                heading=heading,
                header=f"notebook session {session_id}",
                text=text,
                when=stamp or when,
                source=MOMENT_SOURCE if stamp else SESSION_SOURCE,
                entities=[session_id, *entities, *ent.extract_entities(text, ent.vocabulary(text))],
            )
        )

    # The task and its condensed history: one chunk over the lines from `task` to the history.
    # The cast: mypy does not narrow a second session.get() by the isinstance check of the first.
    context = cast(dict[Any, Any], session.get("context")) if isinstance(session.get("context"), dict) else {}
    task, status = _text(session.get("task")), _text(session.get("task_status"))
    history = _text(context.get("condensed_history"))
    nodes = [mapping_get(node, key) for key in ("task", "task_status")]
    context_pair = mapping_get(node, "context")
    if context_pair is not None:
        nodes.append(mapping_get(context_pair[1], "condensed_history"))
    present = [p for p in nodes if p is not None]
    if (task or history) and present:
        first = min(present, key=lambda p: p[0].start_mark.index)
        last = max(present, key=lambda p: p[1].end_mark.index)
        span = (line_span(first[0], first[1], lines)[0], line_span(last[0], last[1], lines)[1])
        text = "\n".join(
            p for p in (f"task: {task}" if task else "", f"status: {status}" if status else "", history) if p
        )
        links = [_link_name(link) for link in _names(session.get("links"))]
        recent = _names(context.get("recent_moments"))
        add(span, "task", text, [*recent, *(link for link in links if link)], None)
    else:
        warnings.append("session has no `task` or `context.condensed_history`")

    for n, (item, item_node) in enumerate(_items(node, "decisions", session), 1):
        what = _text(item.get("what")) if isinstance(item, dict) else ""
        if not what:
            warnings.append(
                f"decision #{n} (line {item_node.start_mark.line + 1}) has no `what`; not indexed"
            )
            continue
        turn = _name(item.get("turn"))
        result = _text(item.get("result"))
        text = f"decision{f' (turn {turn})' if turn else ''}: {what}" + (
            f"\nresult: {result}" if result else ""
        )
        add(line_span(item_node, item_node, lines), "decision", text, _cited(item), None)

    for n, (item, item_node) in enumerate(_items(node, "pending", session), 1):
        what = _text(item)
        if not what:
            warnings.append(
                f"pending item #{n} (line {item_node.start_mark.line + 1}) is not text; not indexed"
            )
            continue
        add(line_span(item_node, item_node, lines), "pending", f"pending: {what}", [], None)

    for n, (item, item_node) in enumerate(_items(node, "escalations", session), 1):
        reason = _text(item.get("reason")) if isinstance(item, dict) else ""
        if not reason:
            warnings.append(
                f"escalation #{n} (line {item_node.start_mark.line + 1}) has no `reason`; not indexed"
            )
            continue
        to, response = _text(item.get("to")), _text(item.get("response_summary"))
        text = f"escalation{f' to {to}' if to else ''}: {reason}" + (
            f"\nresponse: {response}" if response else ""
        )
        add(line_span(item_node, item_node, lines), "escalation", text, _cited(item), _when(item.get("when")))

    if not chunks:
        raise UnreadableMemoryError(
            "session has no task, history, decision, pending item or escalation; not indexed"
        )
    chunks.sort(key=lambda c: c.start_line)
    return ParsedFile(rel_path, session_id, {}, {}, tuple(chunks), tuple(warnings))


def _items(node: Node, key: str, session: dict) -> list[tuple[Any, Node]]:
    """(value, node) of each item of the session's list ``key`` (empty when absent or not a list)."""
    values = session.get(key)
    pair = mapping_get(node, key)
    if not isinstance(values, list) or pair is None:
        return []
    return list(zip(values, sequence_items(pair[1]), strict=False))


def _cited(item: Any) -> list[str]:
    """The moment a decision or escalation names (``moment_id``), as an entity."""
    moment_id = _name(item.get("moment_id")) if isinstance(item, dict) else ""
    return [moment_id] if moment_id else []


def _link_name(link: str) -> str:
    """The entity a session's link names: a path's stem (a moment's id, a note's name, as a
    markdown link to the note names it), else the link as written."""
    stem = PurePosixPath(link.strip()).stem if "/" in link or "." in link else link.strip()
    return stem


# -- shared --------------------------------------------------------------------------------------


def _check_version(mapping: dict) -> None:
    if "schema_version" not in mapping:
        return
    version = str(mapping["schema_version"]).strip()
    if version not in SCHEMA_VERSIONS:
        raise UnreadableMemoryError(
            f"unknown notebook schema_version {version!r} (this memsearch reads "
            f"{', '.join(sorted(SCHEMA_VERSIONS))}); not indexed"
        )


def _chunk(
    rel_path: str,
    span: tuple[int, int],
    territory: Territory,
    *,
    heading: str,
    header: str,
    text: str,
    when: datetime | None,
    source: str,
    entities: list[str],
    importance: float | None = None,
    decay_rate: float | None = None,
) -> Chunk:
    return chunk_from_fields(
        dict(
            importance=importance,
            decay_rate=decay_rate,
            path=rel_path,
            start_line=span[0],
            end_line=span[1],
            heading=heading,
            territory=territory.label,
            fact_type=territory.fact_type,
            timestamp=when,
            timestamp_source=source if when is not None else "none",
            entities=tuple(ent.unique_entities(entities)),
            text=text,
            header=header,
        )
    )


def _text(value: Any) -> str:
    """A scalar as text, its whitespace runs kept as written (lines of a block scalar stay lines)."""
    if value is None or isinstance(value, dict | list):
        return ""
    return str(value).strip()


def _name(value: Any) -> str:
    """A name or id (a scalar), on one line."""
    return " ".join(_text(value).split())


def _names(value: Any, field: str = "", warnings: list[str] | None = None) -> list[str]:
    """A list of names (a single scalar is a list of one); what is not a scalar is left out, and
    so is a boolean: YAML reads an unquoted yes, no, on, off, true or false as one, and its word is
    lost (named in ``warnings`` under ``field``: the moment is indexed without it)."""
    items = value if isinstance(value, list) else [value]
    if warnings is not None and any(isinstance(v, bool) for v in items):
        warnings.append(
            f"moment `{field}` holds true/false, which YAML reads from an unquoted yes, no, on or off;"
            " quote the word to keep it"
        )
    return [name for name in (_name(v) for v in items if not isinstance(v, bool)) if name]


def _number(mapping: dict, key: str, low: float, high: float | None, warnings: list[str]) -> float | None:
    """``mapping[key]`` as a finite number in [low, high], else None (named in ``warnings`` when
    it is there but not such a number: the moment is indexed without it)."""
    value = mapping.get(key)
    if value is None:
        return None
    number = float(value) if isinstance(value, int | float) and not isinstance(value, bool) else math.nan
    if not math.isfinite(number) or number < low or (high is not None and number > high):
        bound = f"{low:g}..{high:g}" if high is not None else f">= {low:g}"
        warnings.append(f"moment `{key}` {value!r} is not a number {bound}; ignored")
        return None
    return number


def _when(value: Any) -> datetime | None:
    """A YAML timestamp (PyYAML gives a datetime or a date) or a date written as text, in UTC."""
    if isinstance(value, datetime):
        value = value if value.tzinfo else value.replace(tzinfo=UTC)
        return value if dates.held_in_utc(value) else None  # 9999-12-31T23:00-12:00
    if isinstance(value, date):
        return datetime(value.year, value.month, value.day, tzinfo=UTC)
    if isinstance(value, str):
        return dates.parse_datetime(value)
    return None
