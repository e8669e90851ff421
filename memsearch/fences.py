"""Fenced code blocks (``` and ~~~): which lines belong to which fence.

A fence opens with three or more backticks or tildes (any indentation, so fences inside list
items count) and closes with a line of the same character, at least as long, and nothing else.
An unterminated fence runs to the end of the file. Chunk boundaries never fall inside a fence.
"""

from __future__ import annotations

import re

_OPEN_RE = re.compile(r"^[ \t]*(`{3,}|~{3,})(.*)$")
_CLOSE_RE = re.compile(r"^[ \t]*(`{3,}|~{3,})[ \t]*$")

NOT_FENCED = -1


def fence_ids(lines: list[str], start: int = 0) -> list[int]:
    """For each line, the number of the fence it belongs to (opener and closer included), else -1.

    Lines before ``start`` (the frontmatter) are never fenced.
    """
    ids = [NOT_FENCED] * len(lines)
    fence = -1
    i = start
    while i < len(lines):
        m = _OPEN_RE.match(lines[i])
        if m is None or (m.group(1)[0] == "`" and "`" in m.group(2)):
            i += 1
            continue
        fence += 1
        marker = m.group(1)
        ids[i] = fence
        i += 1
        while i < len(lines):
            ids[i] = fence
            close = _CLOSE_RE.match(lines[i])
            i += 1
            if close and close.group(1)[0] == marker[0] and len(close.group(1)) >= len(marker):
                break
    return ids


def unfenced_lines(text: str) -> list[str]:
    """The lines of ``text`` outside fenced code blocks (fenced lines become empty strings)."""
    lines = text.split("\n")
    ids = fence_ids(lines)
    return [line if ids[i] == NOT_FENCED else "" for i, line in enumerate(lines)]
