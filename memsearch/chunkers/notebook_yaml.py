"""A notebook file's YAML, loaded safely and within bounds, with the lines each part came from.

PyYAML's safe loader constructs no object from a tag (``!!python/object`` is an error), but on
its own it does not bound what a file costs: an alias (``*a``) names a node already read, and ten
levels of ten aliases each ("billion laughs") stand for 10^10 nodes in a file of a few hundred
bytes. Composing the file is linear (an alias is a shared node); what expands is every pass over
the result. So the file is composed first, its *expanded* size counted over the node graph (each
shared node counted once per use, memoised), and only a file under :data:`MAX_EXPANDED_NODES` is
constructed. A file over :data:`MAX_NOTEBOOK_BYTES` is not parsed at all: a moment is a few KB.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from memsearch.errors import UnreadableMemoryError

#: Largest notebook file parsed (a moment or a session is a few KB; this is hundreds of them).
MAX_NOTEBOOK_BYTES = 1_048_576
#: Nodes a file may stand for once its aliases are expanded (a 1 MB file of plain YAML holds far
#: fewer; a billion-laughs file stands for billions).
MAX_EXPANDED_NODES = 200_000
#: libyaml's parser under the safe constructor where PyYAML has it (several times faster).
_BASE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _SafeLoader(_BASE_LOADER):  # type: ignore[misc,valid-type]
    """The safe loader, with a timestamp the calendar has not (``2026-02-30``, ``25:00``) kept as
    the text it is: the chunker then says the moment has no readable date and dates it by its
    file, where PyYAML would fail the whole file for it."""


def _timestamp_or_text(loader: Any, node: ScalarNode) -> Any:
    try:
        return loader.construct_yaml_timestamp(node)
    except (ValueError, OverflowError):
        return loader.construct_scalar(node)


_SafeLoader.add_constructor("tag:yaml.org,2002:timestamp", _timestamp_or_text)


@dataclass(frozen=True)
class LoadedYaml:
    """A file's YAML: the root node (for line numbers) and the Python values it constructs."""

    node: Node
    data: Any


def load_bounded(text: str) -> LoadedYaml:
    """``text`` as YAML (safe loader), or :class:`UnreadableMemoryError` naming why not: too large,
    malformed (with its line), an alias expansion over the bound, recursive, nested too deep."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_NOTEBOOK_BYTES:
        raise UnreadableMemoryError(
            f"notebook file is {size // 1024} KB, over the {MAX_NOTEBOOK_BYTES // 1024} KB limit; not indexed"
        )
    loader = _SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            raise UnreadableMemoryError("empty YAML file; nothing to index")
        expanded_size(node)
        data = loader.construct_document(node)
    except yaml.YAMLError as exc:
        raise UnreadableMemoryError(f"malformed YAML ({_describe(exc)}); fix the file to index it") from exc
    except RecursionError as exc:
        raise UnreadableMemoryError("YAML nested too deeply to read; not indexed") from exc
    finally:
        loader.dispose()
    return LoadedYaml(node, data)


def expanded_size(root: Node, limit: int = MAX_EXPANDED_NODES) -> int:
    """Nodes ``root`` stands for with every alias expanded; :class:`UnreadableMemoryError` past
    ``limit`` or on a node that contains itself (an alias to an enclosing anchor)."""
    sizes: dict[int, int] = {}
    on_path: set[int] = set()
    # Iterative post-order: a file nested a few thousand levels deep must not exhaust the stack.
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        key = id(node)
        if children_done:
            on_path.discard(key)
            total = 1 + sum(sizes[id(child)] for child in _children(node))
            if total > limit:
                raise UnreadableMemoryError(
                    f"YAML stands for over {limit:,} nodes once its aliases are expanded (a 'billion"
                    " laughs' file, or too large a notebook file); not indexed"
                )
            sizes[key] = total
            continue
        if key in sizes:
            continue
        if key in on_path:
            raise UnreadableMemoryError(
                "YAML alias refers to a node that contains it (recursive); not indexed"
            )
        on_path.add(key)
        stack.append((node, True))
        for child in _children(node):
            if id(child) in on_path:
                raise UnreadableMemoryError(
                    "YAML alias refers to a node that contains it (recursive); not indexed"
                )
            if id(child) not in sizes:
                stack.append((child, False))
    return sizes[id(root)]


def _children(node: Node) -> list[Node]:
    if isinstance(node, SequenceNode):
        return list(node.value)
    if isinstance(node, MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def _describe(exc: yaml.YAMLError) -> str:
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    return f"line {mark.line + 1}: {problem}" if mark is not None else str(problem)


def mapping_get(node: Node, key: str) -> tuple[Node, Node] | None:
    """(key node, value node) of ``key`` in a mapping node, else None."""
    if not isinstance(node, MappingNode):
        return None
    for key_node, value_node in node.value:
        if isinstance(key_node, ScalarNode) and key_node.value == key:
            return key_node, value_node
    return None


def sequence_items(node: Node | None) -> list[Node]:
    return list(node.value) if isinstance(node, SequenceNode) else []


def line_span(first: Node, last: Node, lines: list[str]) -> tuple[int, int]:
    """1-based inclusive lines from ``first``'s start to the end of ``last`` (trailing blank and
    comment lines left out). A block collection's own end mark lies at the next token (often the
    next item's line), so the end is read from its last scalar, whose mark is exact."""
    start = first.start_mark.line
    tail = last
    while isinstance(tail, MappingNode | SequenceNode) and tail.value and not tail.flow_style:
        child = tail.value[-1]
        tail = child[1] if isinstance(child, tuple) else child
    mark = tail.end_mark
    end = mark.line if mark.column == 0 else mark.line + 1  # exclusive 0-based == inclusive 1-based
    end = min(max(end, start + 1), len(lines))  # an alias's marks are its anchor's: clamp
    while end > start + 1 and (not lines[end - 1].strip() or lines[end - 1].lstrip().startswith("#")):
        end -= 1
    return start + 1, max(end, start + 1)
