"""An entity's written form made into its display name and its graph key.

:func:`normalize_entity` is the key the graph uses for a node (casefolded, no ``#``, ``-``/``_``
as spaces, no full stop closing a word); :func:`unique_entities` deduplicates on it; :func:`clean_name` and
:func:`wikilink_target` turn a written ``#tag``, ``"quoted"`` or ``[[link|shown]]`` into the
name itself. Shared by the frontmatter, body-text and alias readers.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

#: Longer "names" (a 300,000-character [[wikilink]] or #tag) are no names: they are left out of the
#: graph rather than made nodes as long as themselves.
MAX_ENTITY_CHARS = 100
#: A full stop closing a word ("Dr.", "Jr."): the graph reads a query's words without it.
_CLOSING_STOP = re.compile(r"\.+(?=\s|$)")


def normalize_entity(name: str) -> str:
    """The graph's node key for an entity: casefolded, no ``#``, ``-``/``_`` as spaces, no full stop
    closing a word, single spaces."""
    return _normalized(name if isinstance(name, str) else str(name))


@lru_cache(maxsize=100_000)  # a vault names the same few entities again and again
def _normalized(name: str) -> str:
    text = unicodedata.normalize("NFKC", name).casefold().strip()
    text = text.lstrip("#")
    if "-" in text or "_" in text:
        text = re.sub(r"[-_]+", " ", text)
    if "." in text:  # a word's closing full stop, as the graph reads a query's words: "dr. okafor"
        text = _CLOSING_STOP.sub("", text)
    return " ".join(text.split())


_POSSESSIVE = re.compile(r"['’][sS]$|['’]$")


def without_possessive(word: str) -> str:
    """A word without its possessive ending ("Pai's", "Oz’s", "the Joneses'"): the name it is of."""
    return _POSSESSIVE.sub("", word) or word


def unique_entities(names: Iterable[str]) -> list[str]:
    """Names deduplicated on :func:`normalize_entity`, first spelling and order kept; names over
    :data:`MAX_ENTITY_CHARS` left out."""
    seen: set[str] = set()
    out: list[str] = []
    for name in names:
        display = " ".join(str(name).split()).lstrip("#")
        if len(display) > MAX_ENTITY_CHARS:
            continue
        key = normalize_entity(display)
        if key and key not in seen:
            seen.add(key)
            out.append(display)
    return out


def clean_name(text: str) -> str:
    text = text.strip().strip("\"'")
    m = re.fullmatch(r"\[\[([^\]]+)\]\]", text)
    if m:
        text = wikilink_target(m.group(1))
    return " ".join(text.lstrip("#").split())


def wikilink_target(inner: str) -> str:
    # In a table, Obsidian writes the label's bar escaped: ``[[heron\|the pipeline]]``.
    target = inner.split("|", 1)[0].removesuffix("\\").split("#", 1)[0].split("^", 1)[0].strip()
    target = target.rstrip("/").rsplit("/", 1)[-1]
    if target.lower().endswith(".md"):
        target = target[:-3]
    return " ".join(target.split())
