"""YAML frontmatter: found by line, loaded safely, never fatal.

A file has frontmatter when its first line is ``---`` and a later line is ``---`` (or ``...``).
What lies between is loaded by PyYAML's safe loader (on libyaml's parser when PyYAML has it);
anything that is not a clean mapping (bad YAML, tags that would construct objects, a list, an
unterminated block) leaves the whole file as plain text and says why in a warning.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

import yaml

_OPEN_RE = re.compile(r"^\ufeff?---[ \t]*$")
_CLOSE_RE = re.compile(r"^(?:---|\.\.\.)[ \t]*$")
#: libyaml's parser under the safe constructor where PyYAML was built with it: ``safe_load``'s
#: results, ~10x faster (it was a sixth of chunking).
_BASE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _SafeLoader(_BASE_LOADER):  # type: ignore[misc,valid-type]
    """The safe loader, with an impossible date (``updated: 2025-02-30``) kept as its text: it threw
    the whole block away, the note's title, aliases and tags with it."""


def _timestamp(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> Any:
    try:
        return yaml.constructor.SafeConstructor.construct_yaml_timestamp(loader, node)
    except (ValueError, OverflowError):
        return loader.construct_scalar(node)


_SafeLoader.add_constructor("tag:yaml.org,2002:timestamp", _timestamp)
_SAFE_LOADER = _SafeLoader


@dataclass(frozen=True)
class Frontmatter:
    data: dict[str, Any] = field(default_factory=dict)  # JSON-safe values
    body_start: int = 0  # 0-based index of the first line after the block
    warnings: tuple[str, ...] = ()


def split_frontmatter(lines: list[str]) -> Frontmatter:
    """The frontmatter of a file given as lines (no line ends)."""
    if not lines or not _OPEN_RE.match(lines[0]):
        return Frontmatter()
    close = next((i for i in range(1, len(lines)) if _CLOSE_RE.match(lines[i])), None)
    if close is None:
        return Frontmatter(
            warnings=("malformed frontmatter: opening '---' has no closing '---' (read as plain text)",)
        )
    block = "\n".join(lines[1:close])
    try:
        loaded = yaml.load(block, Loader=_SAFE_LOADER) if block.strip() else {}
    except yaml.YAMLError as exc:
        reason = " ".join(str(exc).split())[:160]
        return Frontmatter(warnings=(f"malformed frontmatter: invalid YAML ({reason}) (read as plain text)",))
    except (ValueError, TypeError, OverflowError, RecursionError) as exc:  # e.g. a bad timestamp
        return Frontmatter(warnings=(f"malformed frontmatter: {exc} (read as plain text)",))
    if loaded is None:
        loaded = {}
    if not isinstance(loaded, dict):
        kind = type(loaded).__name__
        return Frontmatter(
            warnings=(f"malformed frontmatter: YAML is a {kind}, not a mapping (read as plain text)",)
        )
    raw = {str(k): v for k, v in loaded.items()}
    data = jsonable(raw)
    return Frontmatter(data=data, body_start=close + 1)


#: YAML anchors can make a value recursive or exponentially large; copies stop here.
_MAX_DEPTH = 16
_MAX_NODES = 5000


def jsonable(value: Any) -> Any:
    """A JSON-safe copy of a YAML value: dates become ISO strings, sets lists, bytes text."""
    return _jsonable(value, 0, [_MAX_NODES])


def _jsonable(value: Any, depth: int, budget: list[int]) -> Any:
    budget[0] -= 1
    if isinstance(value, dict | list | tuple | set | frozenset) and (depth >= _MAX_DEPTH or budget[0] <= 0):
        return None
    if isinstance(value, dict):
        return {str(k): _jsonable(v, depth + 1, budget) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_jsonable(v, depth + 1, budget) for v in value]
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)
