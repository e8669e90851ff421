"""Aliases a note's prose defines (:func:`prose_aliases`): glossary lines, ``NAME = "ALIAS"``,
``NAME aka ALIAS`` and ``NAME ("ALIAS")``.

Each maps an alias to the name it stands for, as frontmatter ``aliases:`` do for a note's own
subject (the chunker joins the two, frontmatter first); code blocks are skipped.
"""

from __future__ import annotations

import re

from memsearch.entities.normalize import clean_name, normalize_entity
from memsearch.fences import unfenced_lines

#: A glossary line: ``**TERM** - what it means`` (also ``–``, ``—``, ``:``, ``=``), several a line.
#: The meaning ends at a sentence's end, a bracket, the next term, or an arrow or link saying where
#: to read on (``-> [[out-of-hours]]``).
_GLOSSARY = re.compile(
    r"\*\*([^*\n]{1,40}?)\*\*\s*(?:[-–—:=]|is)\s+([^*\n]{2,120}?)(?=\s*(?:[.;(]|\*\*|->|→|\[\[|$))"
)
#: What may stand before a glossary term: nothing but a list marker, or a sentence's end. Bold words
#: inside a sentence are emphasis ("until **30 June 2026** - and can be destroyed after that").
_TERM_OPENS = re.compile(r"(?:^\s*(?:(?:[-*+]|\d{1,3}[.)])\s+)?|[.;:!?)]\s+)$")
#: A bold time of day opens a timetable's line ("**04:50 Monday** - all zones in turn"), not a term.
_TIME_OF_DAY = re.compile(r"^\d{1,2}[:.]\d{2}\b")
#: ``NAME = "ALIAS"`` and ``NAME aka ALIAS`` / ``also known as`` / ``a.k.a.``: ALIAS names NAME.
_EQUALS_QUOTED = re.compile(r"([A-Za-z][\w' -]{1,40}?)\s*=\s*[\"“]([^\"”\n]{1,40})[\"”]")
_AKA = re.compile(
    r"\b([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,3}),?\s+(?:aka|a\.k\.a\.|also known as|known as)\s+"
    r"[\"“]?([A-Z][\w'-]*(?:\s+[\w'-]+){0,3}?)[\"”]?(?=[\s,.;:)]|$)"
)
#: ``Maureen Hargreaves ("Mrs H")``: a name, then a short quoted name in brackets (capitalised, at
#: most three words, no sentence in it: ``TextLoom ("your bike is ready")`` quotes a message).
_PAREN_QUOTED = re.compile(
    r"\b([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,3})\s+\(\s*[\"“]([A-Z][\w'-]*(?:\s+[\w'-]+){0,2})[\"”]\s*\)"
)
#: Words of a definition kept as the name it stands for (a definition is a phrase, not an essay).
MAX_DEFINITION_WORDS = 8


def prose_aliases(text: str) -> dict[str, str]:
    """Alias -> what it stands for, as the prose of a note defines it (code blocks skipped).

    A glossary line ``**PTS** - put to sleep`` makes ``PTS`` stand for "put to sleep";
    ``CD register = "the yellow book"``, ``Tomasz, aka Tomek`` and ``Maureen Hargreaves ("Mrs H")``
    make the quoted or second name an alias of the first. Frontmatter ``aliases:`` say the same of
    a note's own subject.
    """
    found: dict[str, str] = {}
    for line in unfenced_lines(text):
        if "**" in line:
            for match in _GLOSSARY.finditer(line):
                if not _TERM_OPENS.search(line[: match.start()]):
                    continue
                term, meaning = match.groups()
                if _TIME_OF_DAY.match(term):
                    continue
                words = meaning.split(",")[0].split()
                if words and len(words) <= MAX_DEFINITION_WORDS:
                    _add_alias(found, term, " ".join(words))
        if "=" in line:
            for name, alias in _EQUALS_QUOTED.findall(line):
                _add_alias(found, alias, name)
        if "(" in line:
            for name, alias in _PAREN_QUOTED.findall(line):
                _add_alias(found, alias, name)
        if "known as" in line or "aka" in line or "a.k.a." in line:
            for name, alias in _AKA.findall(line):
                _add_alias(found, alias, name)
    return found


def _add_alias(found: dict[str, str], alias: str, canonical: str) -> None:
    alias, canonical = clean_name(alias.strip(" -*\"'")), clean_name(canonical.strip(" -*\"'"))
    if not alias or not canonical or normalize_entity(alias) == normalize_entity(canonical):
        return
    found.setdefault(alias, canonical)
    # "the Shed Brain" is written "Shed Brain" as often: both name it.
    bare = _ARTICLE.sub("", alias)
    if bare != alias and len(bare) > 1:
        found.setdefault(bare, canonical)


_ARTICLE = re.compile(r"^(?:the|a|an|our|my)\s+", re.IGNORECASE)


def closed_aliases(aliases: dict[str, str]) -> dict[str, str]:
    """Each alias (normalised keys) mapped to the end of its chain: a note's ``aliases: [MQ]`` makes
    MQ stand for "mara quint", and a team page's ``**Mara Quint** - hydroponics lead`` makes Mara
    Quint stand for her role; read one step at a time, MQ named a key no chunk holds any more. In a
    cycle, every member stands for the first of them in sort order. Each name is walked once (a
    glossary's chain of a thousand names is no thousand walks of it)."""
    end: dict[str, str] = {}
    for alias in aliases:
        if alias in end:
            continue
        chain = [alias]
        on_chain = {alias}
        name = alias
        while (name := aliases.get(name, "")) and name not in on_chain and name not in end:
            chain.append(name)
            on_chain.add(name)
        if name in end:  # joins a chain already walked
            last = end[name]
        elif name in on_chain:  # a cycle: its members stand for the first of them
            cycle = chain[chain.index(name) :]
            last = min(cycle)
            end.update(dict.fromkeys(cycle, last))
        else:  # the end: a name that stands for no other
            last = chain[-1]
        for member in chain:
            end.setdefault(member, last)
    return {alias: end[alias] for alias in aliases if end[alias] != alias}
