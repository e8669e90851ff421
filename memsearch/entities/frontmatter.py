"""Entities and aliases a file's frontmatter declares (:func:`frontmatter_entities`).

``tags``, ``entities``, ``aliases``, ``people`` and ``project`` (and their singulars), each a
string or a list; ``aliases`` map to the file's canonical name.
"""

from __future__ import annotations

import re
from typing import Any

from memsearch.entities.normalize import MAX_ENTITY_CHARS, clean_name, normalize_entity, unique_entities

_FM_KEYS = {
    "tags": "tags",
    "tag": "tags",
    "entities": "entities",
    "entity": "entities",
    "people": "people",
    "person": "people",
    "project": "project",
    "projects": "project",
    "aliases": "aliases",
    "alias": "aliases",
}


def frontmatter_entities(
    fm: dict[str, Any], title: str | None = None, warnings: list[str] | None = None
) -> tuple[list[str], dict[str, str]]:
    """(entities, alias -> canonical name) declared in a file's frontmatter.

    ``aliases`` map to the file's canonical name: frontmatter ``title``, else ``title`` (the
    caller's file title). When a file declares aliases, the canonical name is an entity too.
    A key that holds something but no name at all (``aliases: 5``, ``tags: {a: b}``) is named in
    ``warnings``: the note is indexed without it.
    """
    found: dict[str, list[str]] = {"tags": [], "entities": [], "people": [], "project": [], "aliases": []}
    if not isinstance(fm, dict):
        return [], {}
    for key, value in fm.items():
        kind = _FM_KEYS.get(str(key).lower())
        if kind:
            names = _fm_values(value, split_spaces=kind == "tags")
            found[kind].extend(names)
            if not names and warnings is not None and value not in (None, "", [], {}):
                shown = "a mapping" if isinstance(value, dict) else repr(value)[:40]
                warnings.append(
                    f"frontmatter `{key}` holds no name ({shown}); write a name or a list of names"
                )
    canonical = fm.get("title") if isinstance(fm.get("title"), str) and fm["title"].strip() else title
    canonical = " ".join(canonical.split()) if canonical else None
    aliases: dict[str, str] = {}
    if canonical and len(canonical) <= MAX_ENTITY_CHARS:
        for alias in found["aliases"]:
            if len(alias) <= MAX_ENTITY_CHARS and normalize_entity(alias) != normalize_entity(canonical):
                aliases.setdefault(alias, canonical)
    names = [canonical] if aliases and canonical else []
    names += [*found["tags"], *found["entities"], *found["people"], *found["project"], *found["aliases"]]
    return unique_entities(names), aliases


def _fm_values(value: Any, *, split_spaces: bool) -> list[str]:
    items = value if isinstance(value, list) else [value]
    out: list[str] = []
    for item in items:
        if isinstance(item, list):
            out.extend(_fm_values(item, split_spaces=split_spaces))
            continue
        if item is None or isinstance(item, dict | bool):
            continue
        text = str(item)
        parts = re.split(r"[,\s]+", text) if split_spaces else text.split(",")
        for part in parts:
            name = clean_name(part)
            if any(ch.isalpha() for ch in name):
                out.append(name)
    return out
