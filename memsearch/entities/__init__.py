"""Entities: the names that connect memories in the graph, even when the words differ.

Sources, in a file's frontmatter (:func:`frontmatter_entities`): ``tags``, ``entities``,
``aliases``, ``people``, ``project`` (strings or lists). In body text (:func:`extract_entities`):
``[[wikilinks]]`` (``[[Target|shown]]`` and ``[[Target#section]]`` give ``Target``), ``#tags``,
markdown links to other vault files (``[text](../reference/redflag.md)`` gives ``redflag``; what
one line links to: :func:`linked_notes`),
and capitalised names: runs of Capitalised words (``Ed Kowalski``, ``New York``, ``Lord of the
Rings``), acronyms (``LGBTQ``) and CamelCase (``GitHub``). Fenced code and inline code are skipped
entirely. Stopwords (pronouns, determiners, weekdays, months, interjections...) are never names.
A word capitalised only because it opens a sentence or a Title Case heading is judged by the
file's own :class:`Vocabulary` (seen in lower case elsewhere: a common word; seen capitalised
mid-sentence: a name), then by a common-word list with its inflections.

Display names keep their case; :func:`normalize_entity` is the key the graph uses for a node, and
lists are deduplicated on it (so ``#signing`` and ``Signing`` are one entity).

The modules: :mod:`~memsearch.entities.words` (the word lists), :mod:`~memsearch.entities.normalize`
(display names and graph keys), :mod:`~memsearch.entities.frontmatter`,
:mod:`~memsearch.entities.extract` (body text) and :mod:`~memsearch.entities.aliases` (aliases the
prose defines). This module only re-exports.
"""

from __future__ import annotations

from memsearch.entities.aliases import MAX_DEFINITION_WORDS, closed_aliases, prose_aliases
from memsearch.entities.extract import (
    Vocabulary,
    extract_entities,
    linked_notes,
    vocabulary,
    vocabulary_words_py,
    without_links,
)
from memsearch.entities.frontmatter import frontmatter_entities
from memsearch.entities.normalize import (
    MAX_ENTITY_CHARS,
    normalize_entity,
    unique_entities,
    without_possessive,
)
from memsearch.entities.words import COMMON_WORDS, STOPWORDS

__all__ = [
    "COMMON_WORDS",
    "MAX_DEFINITION_WORDS",
    "MAX_ENTITY_CHARS",
    "STOPWORDS",
    "Vocabulary",
    "closed_aliases",
    "extract_entities",
    "frontmatter_entities",
    "linked_notes",
    "normalize_entity",
    "prose_aliases",
    "unique_entities",
    "vocabulary",
    "vocabulary_words_py",
    "without_links",
    "without_possessive",
]
