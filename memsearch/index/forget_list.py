"""The forget list: what ``memsearch forget`` took out, kept so that it is never indexed again.

It records a sha256 of each forgotten path, entity key and phrase, never the path, the name or the
text; the index home holds it (owner-only), and the vault a copy (``.memsearch-forgotten.json``) so
that an index rebuilt elsewhere forgets the same memories. The indexer asks it which files and
chunks to leave out; :mod:`memsearch.forget` adds to it.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from memsearch.errors import ConfigError
from memsearch.index.graph import normalize as normalize_entity
from memsearch.paths import IndexLayout, atomic_write

FORGET_FORMAT = 1


FORGOTTEN_REASON = "forgotten (memsearch forget); remove it from the vault or keep it unindexed"
#: A file under another name that holds a forgotten file's text (renamed, or copied).
FORGOTTEN_COPY_REASON = f"{FORGOTTEN_REASON} (it holds the text of a forgotten file)"


def sha256_hex(value: str) -> str:
    # surrogatepass: a name typed with a byte that is not UTF-8 (a lone surrogate) has a hash too.
    return hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()


def path_hash(rel: str) -> str:
    return sha256_hex("path:" + rel)


def content_hash(sha256: str) -> str:
    """What the forget list keeps of a forgotten file's text: a hash of its digest."""
    return sha256_hex("content:" + sha256)


def folder_hash(rel: str) -> str:
    """The hash a forgotten folder is kept under (``journal`` -> that of ``journal/``): every path
    under it is forgotten (:meth:`ForgetList.has_path`)."""
    return path_hash(rel.rstrip("/") + "/")


def entity_hash(key: str) -> str:
    return sha256_hex("entity:" + normalize_entity(key))


#: The vault's own copy of the forget list (hashes only), beside ``memsearch.toml``: every index of
#: the vault (another ``--index-dir``, another ``MEMSEARCH_HOME``) honours it.
VAULT_FORGET_FILE = ".memsearch-forgotten.json"


#: Written before a purge touches anything and removed when it is whole: a run that finds it
#: finishes the purge (a kill -9 part-way must not leave the text in history or the cache).
#: Longest name (in words) whose spellings are looked for in a chunk's text.
MAX_PHRASE_WORDS = 6


_WORD = re.compile(r"\w+")


_POSSESSIVE = re.compile(r"['\u2019]s\b")


def words(text: str) -> list[str]:
    """A text's words as a name is matched: NFKC, casefolded, possessive 's dropped, punctuation gone."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return _WORD.findall(_POSSESSIVE.sub(" ", folded))


def phrase_hash(parts: list[str] | tuple[str, ...]) -> str:
    return sha256_hex("phrase:" + " ".join(parts))


def name_variants(name: str) -> set[tuple[str, ...]]:
    """The word sequences a multi-word name is written as: its order, the surname first
    ("Vask (Quillon)", "Vask, Quillon" for "Quillon Vask"); case and a possessive are already
    folded by :func:`words`. A one-word name is matched as an entity only (as a plain word it
    would take every chunk using that word)."""
    parts = tuple(words(name))
    if len(parts) < 2 or len(parts) > MAX_PHRASE_WORDS:
        return set()
    return {parts, (parts[-1], *parts[:-1]), tuple(reversed(parts))}


@dataclass(frozen=True)
class EntityGroup:
    """One entity forget, by hash: the keys it named and the spellings of them it looks for."""

    entities: frozenset[str] = frozenset()
    phrases: frozenset[str] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.entities or self.phrases)


@dataclass
class ForgetList:
    paths: set[str] = field(default_factory=set)  # path_hash of each forgotten file
    entities: set[str] = field(default_factory=set)  # entity_hash of each forgotten entity key
    phrases: set[str] = field(default_factory=set)  # phrase_hash of each spelling of a forgotten name
    phrase_words: set[int] = field(default_factory=set)  # how many words those spellings have
    purged: set[str] = field(default_factory=set)  # path/entity hashes forgotten with --purge-history
    #: path hash -> path, for forgets that were not purged (``forget --list`` names them; the
    #: commits still do). Kept in the index home only, never in the vault's copy.
    names: dict[str, str] = field(default_factory=dict)
    #: Each entity forget's hashes together (its keys, its spellings), so that ``unforget --entity``
    #: takes back one name's and leaves a spelling another forgotten name shares.
    groups: list[EntityGroup] = field(default_factory=list)
    #: path_hash of each redacted notebook moment (``memsearch redact``): its text stays indexed,
    #: its sidecar vectors of every modality are never read again.
    redacted: set[str] = field(default_factory=set)
    #: The redacted moments' hashes whose redaction purged the history (``redact --purge-history``):
    #: ``memsearch unredact`` refuses them without ``--force``, as unforget refuses a purged forget.
    redacted_purged: set[str] = field(default_factory=set)
    #: The hash of a forgotten file's path (or of its folder's, :func:`folder_hash`) -> the content
    #: hashes (:func:`content_hash`) of the text it had: the same text under another name (the file
    #: renamed, or copied) stays out too. Changed through the methods below only: they keep
    #: ``_all_contents``, what :meth:`has_content` reads for every file of an index run, current.
    contents: dict[str, set[str]] = field(default_factory=dict)
    _all_contents: set[str] | None = field(default=None, repr=False, compare=False)

    def __bool__(self) -> bool:
        return bool(self.paths or self.entities)

    def has_content(self, sha256: str) -> bool:
        """Whether a file of this digest has the text of a forgotten file."""
        if not self.contents:
            return False
        if self._all_contents is None:
            self._all_contents = set().union(*self.contents.values())
        return content_hash(sha256) in self._all_contents

    def add_content(self, key: str, sha256: str) -> None:
        """Keep ``sha256``'s text out under the forget of ``key`` (a path or folder hash)."""
        self.contents.setdefault(key, set()).add(content_hash(sha256))
        self._all_contents = None

    def drop_contents(self, key: str) -> None:
        """Take back the texts kept out under the forget of ``key``."""
        if self.contents.pop(key, None) is not None:
            self._all_contents = None

    def drop_content(self, sha256: str) -> bool:
        """Take one text back, under whichever forgets kept it out; whether any did."""
        wanted = content_hash(sha256)
        found = False
        for key in [key for key, kept in self.contents.items() if wanted in kept]:
            self.contents[key].discard(wanted)
            if not self.contents[key]:
                del self.contents[key]
            found = True
        if found:
            self._all_contents = None
        return found

    def has_path(self, rel: str) -> bool:
        """Whether ``rel`` is forgotten: itself, or a folder it is in (a file written there later
        stays out too)."""
        return path_hash(rel) in self.paths or self.folder_of(rel) is not None

    def folder_of(self, rel: str) -> str | None:
        """The forgotten folder ``rel`` is in (``journal/``), if any."""
        folders = rel.split("/")[:-1]
        for n in range(1, len(folders) + 1):
            if folder_hash("/".join(folders[:n])) in self.paths:
                return "/".join(folders[:n]) + "/"
        return None

    def is_redacted(self, rel: str) -> bool:
        return bool(self.redacted) and path_hash(rel) in self.redacted

    def names_entity(self, entities: Any, aliases: dict[str, str] | None = None) -> bool:
        if not self.entities:
            return False
        for name in entities:
            key = normalize_entity(name)
            if entity_hash(key) in self.entities:
                return True
            if aliases and key in aliases and entity_hash(aliases[key]) in self.entities:
                return True
        return False

    def mentions(self, text: str) -> bool:
        """Whether ``text`` writes a forgotten name in one of its spellings (by hash: no name is kept)."""
        if not self.phrases or not text:
            return False
        seq = words(text)
        for n in self.phrase_words:
            for i in range(len(seq) - n + 1):
                if phrase_hash(seq[i : i + n]) in self.phrases:
                    return True
        return False

    def drops(self, entities: Any, text: str, aliases: dict[str, str] | None = None) -> bool:
        """Whether a chunk (its entities, its header and text) is forgotten."""
        return self.names_entity(entities, aliases) or self.mentions(text)

    def add_entity(self, keys: set[str]) -> None:
        phrases = set()
        for key in keys:
            for parts in name_variants(key):
                phrases.add(phrase_hash(parts))
                self.phrase_words.add(len(parts))
        group = EntityGroup(frozenset(entity_hash(k) for k in keys if k), frozenset(phrases))
        self.entities |= group.entities
        self.phrases |= group.phrases
        if group not in self.groups:
            self.groups.append(group)

    def names_fingerprint(self) -> str:
        """What the forgotten names are, as one short hash ("" for none): an index built under
        other names must look at every file again (an unforgotten name's chunks come back)."""
        if not self.entities and not self.phrases:
            return ""
        return sha256_hex("names:" + ",".join(sorted(self.entities | self.phrases)))[:16]

    def remove_entity(self, keys: set[str]) -> EntityGroup:
        """Take back the forgets that named any of ``keys``: their entity hashes, and each of their
        spellings no other forgotten name shares. Returns what was taken back (empty: none named them).

        A forget recorded before groups were kept has none: the keys' own hashes and spellings go."""
        wanted = {entity_hash(k) for k in keys if k}
        matched = [g for g in self.groups if g.entities & wanted]
        kept = [g for g in self.groups if not g.entities & wanted]
        if matched:
            entities = frozenset().union(*(g.entities for g in matched))
            phrases = frozenset().union(*(g.phrases for g in matched))
        else:
            entities = frozenset(wanted & self.entities)
            phrases = (
                frozenset(phrase_hash(parts) for key in keys for parts in name_variants(key))
                if entities
                else frozenset()
            )
        still = frozenset().union(*(g.entities for g in kept)) if kept else frozenset()
        shared = frozenset().union(*(g.phrases for g in kept)) if kept else frozenset()
        taken = EntityGroup(entities - still, (phrases & self.phrases) - shared)
        self.entities -= taken.entities
        self.phrases -= taken.phrases
        self.purged -= taken.entities
        self.groups = kept
        return taken

    def merge(self, other: ForgetList) -> None:
        self.paths |= other.paths
        self.entities |= other.entities
        self.phrases |= other.phrases
        self.phrase_words |= other.phrase_words
        self.purged |= other.purged
        for h, name in other.names.items():
            self.names.setdefault(h, name)
        for group in other.groups:
            if group not in self.groups:
                self.groups.append(group)
        self.redacted |= other.redacted
        self.redacted_purged |= other.redacted_purged
        for h, kept in other.contents.items():
            self.contents.setdefault(h, set()).update(kept)
        self._all_contents = None

    def to_json(self, *, with_names: bool) -> bytes:
        data: dict[str, Any] = {
            "format": FORGET_FORMAT,
            "paths": sorted(self.paths),
            "entities": sorted(self.entities),
            "phrases": sorted(self.phrases),
            "phrase_words": sorted(self.phrase_words),
            "purged": sorted(self.purged),
            "entity_groups": [
                {"entities": sorted(g.entities), "phrases": sorted(g.phrases)} for g in self.groups
            ],
        }
        if self.redacted:  # only when there is one: a list without redactions reads as it did
            data["redacted"] = sorted(self.redacted)
        if self.redacted_purged:
            data["redacted_purged"] = sorted(self.redacted_purged & self.redacted)
        if self.contents:
            data["contents"] = {h: sorted(kept) for h, kept in sorted(self.contents.items()) if kept}
        if with_names:
            data["names"] = {h: n for h, n in sorted(self.names.items()) if h in self.paths}
        return (json.dumps(data, indent=1) + "\n").encode()


def read_forget_list(path: Path) -> ForgetList:
    """The forget list at ``path`` (empty if there is none). One that cannot be read raises
    :class:`ConfigError`: read as empty, it let every forgotten memory back into the next index
    run (a merge conflict in the vault's copy, which is versioned with the vault, is the usual cause)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return ForgetList()
    except (OSError, ValueError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise ConfigError(_unreadable(path, why)) from exc
    if not isinstance(data, dict):
        raise ConfigError(_unreadable(path, f"a JSON {type(data).__name__}, not an object"))

    def strings(key: str) -> set[str]:
        value = data.get(key, ())
        return {v for v in value if isinstance(v, str)} if isinstance(value, list) else set()

    # The cast: mypy does not narrow a second data.get() by the isinstance check of the first.
    names = cast(dict[object, object], data.get("names")) if isinstance(data.get("names"), dict) else {}
    groups = []
    for g in data.get("entity_groups", ()) if isinstance(data.get("entity_groups"), list) else ():
        if isinstance(g, dict) and isinstance(g.get("entities"), list) and isinstance(g.get("phrases"), list):
            groups.append(
                EntityGroup(
                    frozenset(v for v in g["entities"] if isinstance(v, str)),
                    frozenset(v for v in g["phrases"] if isinstance(v, str)),
                )
            )
    lengths = data.get("phrase_words", ())
    contents = cast(dict[object, object], data["contents"]) if isinstance(data.get("contents"), dict) else {}
    return ForgetList(
        strings("paths"),
        strings("entities"),
        strings("phrases"),
        {n for n in lengths if isinstance(n, int) and 0 < n <= MAX_PHRASE_WORDS}
        if isinstance(lengths, list)
        else set(),
        strings("purged"),
        {h: n for h, n in names.items() if isinstance(h, str) and isinstance(n, str)},
        groups,
        strings("redacted"),
        strings("redacted_purged"),
        {
            h: {c for c in kept if isinstance(c, str)}
            for h, kept in contents.items()
            if isinstance(h, str) and isinstance(kept, list)
        },
    )


def _unreadable(path: Path, why: str) -> str:
    return (
        f"the forget list {path} cannot be read ({why}); mend it (after a merge conflict, keep both"
        " sides' entries: each is a forget) and run again. Until then memsearch writes no index:"
        " what it lists would be indexed again"
    )


def vault_forget_file(vault: Path) -> Path:
    return Path(vault) / VAULT_FORGET_FILE


def load_forget_list(home: Path, vault: Path | None = None) -> ForgetList:
    """The index home's forget list, with the vault's own copy (hashes only) when ``vault`` is given."""
    forget = read_forget_list(IndexLayout(home).forget_list)
    if vault is not None:
        forget.merge(read_forget_list(vault_forget_file(vault)))
    return forget


def save_forget_list(home: Path, forget: ForgetList, vault: Path | None = None) -> str | None:
    """Write the index home's list and, with ``vault``, the vault's copy (hashes only, no names).

    Returns a warning when the vault's copy could not be written (a read-only vault): the index
    home's list still holds, but another index of the vault would not know.
    """
    atomic_write(IndexLayout(home).forget_list, forget.to_json(with_names=True))
    if vault is None:
        return None
    target = vault_forget_file(vault)
    try:
        if not forget and not forget.redacted and not target.exists():
            return None
        atomic_write(target, forget.to_json(with_names=False))
    except OSError as exc:
        return (
            f"could not write the vault's forget list {target} ({exc.strerror or exc}): this index"
            " honours the forget, another index of the vault would not"
        )
    return None
