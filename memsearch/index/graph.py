"""The entity graph: entities as nodes, chunks as what they point to.

A query's entities seed a decayed walk: a chunk that names a seed scores the seed's weight; a
chunk that names an entity *associated* with a seed (they co-occur, or one file links the other)
scores a decayed share of it, so "redflag" reaches chunks about "Ed25519" whose words never say
redflag; and a chunk that names an entity associated with one of the seed's strongest neighbours
(:data:`SECOND_HOPS_THROUGH`, :data:`SECOND_HOPS`) scores that share decayed again: the project's
note names the signing keys, whose note names the algorithm, whose note names neither the project
nor anything the query says.
Hubs are damped twice: a seed's weight is its idf (an entity in every chunk says nothing), and
association is normalised by both ends' frequencies, so a hub's neighbours do not flood the list.
Fan-out is capped, so a query costs well under a millisecond; nothing here rebuilds a matrix per
query (``nx.pagerank`` takes seconds at 100k nodes).

The edges are not stored: the weight of an edge is the number of chunks that name both ends, so
a seed's neighbours are counted from its own chunks when a query first needs them, and kept until
the graph changes. Loading is then just the chunk -> entities table (networkx took seconds to
rebuild a million edges at 100k chunks, and a gigabyte to hold them). The counting reads that
table as two arrays (:class:`_Table`) once they pay (:data:`TABLE_AFTER`), not as a tuple per
chunk: a person named in 8,000 of 100k chunks took 15 ms to count, and a query's first walk from
its seeds 3.5 ms a query (the bench's first pass).
"""

from __future__ import annotations

import heapq
import json
import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from itertools import chain
from pathlib import Path

import numpy as np

from memsearch.entities import closed_aliases, normalize_entity, without_possessive
from memsearch.entities.words import is_stopword
from memsearch.index.keyword import fit_mask, top_hits
from memsearch.models import Hit

#: Share of a seed's weight that one hop passes on (then scaled by association strength).
HOP_DECAY = 0.5
#: Neighbours followed from each seed, strongest first.
MAX_FANOUT = 50
#: A second hop (decayed twice) reaches a note two links from the seed: among the neighbours of the
#: seed's SECOND_HOPS_THROUGH strongest neighbours (SECOND_HOPS of each), the SECOND_HOPS strongest
#: are followed. Measured (eval/run.py, 2026-12-04): every fused hit@3 of both vaults, LoCoMo and
#: SciFact unchanged, shared MRR@10 0.765 -> 0.772; the issue's Project Aster question (the
#: algorithm's note, two links from the project's) 4th -> 3rd on a 21-file vault of that kind.
#: Reading a neighbour's neighbours is a pass over its chunks, once per seed and graph version: at
#: 100k chunks, through ten neighbours the first pass over the bench's queries took 1.1 ms a query
#: more (graph stage p50 2.34 -> 3.49 ms), through three 0.3 ms, with the same answers here.
SECOND_HOPS_THROUGH = 3
SECOND_HOPS = 10
#: Longest entity name, in words, looked for in a query.
MAX_ENTITY_WORDS = 5
#: Seeds whose strongest neighbours are kept between queries (cleared when the graph changes).
MAX_CACHED_SEEDS = 4096
#: Chunks (with the score a seed gives each) kept between queries over all seeds' walks, ~8 bytes
#: each: a seed's walk adds up some sixty entities' chunks (at 100k chunks ~7,000 of them), which
#: took ~1 ms a query when summed again for every query.
MAX_CACHED_REACH = 4_000_000
#: Names whose key (normalised, alias resolved) is remembered: a vault names the same few often.
MAX_RESOLVED_NAMES = 200_000
#: Chunks changed since the arrays of :class:`_Table` were made, as a share of all chunks, above
#: which they are made anew (below it, the changed chunks are read from the table of tuples).
MAX_STALE_SHARE = 0.02
#: The arrays of :class:`_Table` are made once the seeds' neighbours, counted from the table of
#: tuples, have read this many times as many entity mentions as the graph holds (making them is
#: about one pass over those): a process answering one query (the CLI at 100k chunks: 0.13 s to
#: make them) does not, a server soon does.
TABLE_AFTER = 1.0

_WORD = re.compile(r"[#@]?[\w][\w'’\-.]*", re.UNICODE)


def _other_numbers(word: str) -> list[str]:
    """A common noun's other number: the singulars a plural may have ("caches" -> cache, cach;
    "policies" -> policy), or the plurals of a singular ("key" -> keys; "box" -> boxes)."""
    if word.endswith("ies"):
        return [word[:-3] + "y", word[:-1]]
    if word.endswith("es"):
        return [word[:-1], word[:-2]]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return [word[:-1]]
    if word.endswith("y") and word[-2:-1] not in ("a", "e", "i", "o", "u"):
        return [word[:-1] + "ies", word + "s"]
    return [word + "es"] if word.endswith(("ch", "sh", "x", "ss")) else [word + "s"]


def normalize(name: str) -> str:
    """Node key of an entity (the chunkers' normalisation, plus a leading ``@``)."""
    return normalize_entity(name.strip().lstrip("@"))


class _Table:
    """The chunk -> entities table as arrays, both ways: the entity numbers of chunk ``c`` are
    ``entities[starts[c]:starts[c + 1]]``, the chunk ids that name entity number ``e`` (sorted)
    ``chunks[entity_starts[e]:entity_starts[e + 1]]``. Made at one moment; the chunks added or
    removed since are ``stale``, as are the entities they name or named (both are read from the
    graph's dicts instead)."""

    def __init__(self, chunk_entities: dict[int, tuple[str, ...]], numbers: dict[str, int]) -> None:
        order = sorted(chunk_entities)
        size = order[-1] + 1 if order else 0
        lengths = np.zeros(size, dtype=np.int64)
        lengths[np.asarray(order, dtype=np.int64)] = np.fromiter(
            (len(chunk_entities[c]) for c in order), dtype=np.int64, count=len(order)
        )
        self.starts = np.zeros(size + 1, dtype=np.int64)
        np.cumsum(lengths, out=self.starts[1:])
        named = chain.from_iterable(map(chunk_entities.__getitem__, order))
        self.entities = np.fromiter(
            map(numbers.__getitem__, named), dtype=np.int64, count=int(self.starts[-1])
        )
        # A stable sort keeps each entity's chunks in id order.
        by_entity = np.argsort(self.entities, kind="stable")
        self.chunks = np.repeat(np.arange(size, dtype=np.int64), lengths)[by_entity]
        self.chunks.flags.writeable = False  # chunk_ids() hands out views of it
        self.entity_starts = np.zeros(len(numbers) + 1, dtype=np.int64)
        np.cumsum(np.bincount(self.entities, minlength=len(numbers)), out=self.entity_starts[1:])
        self.stale: set[int] = set()
        self.stale_keys: set[str] = set()
        self._stale_ids: np.ndarray | None = None

    def changed(self, chunk_id: int, keys: Iterable[str]) -> None:
        self.stale.add(chunk_id)
        self.stale_keys.update(keys)
        self._stale_ids = None

    def chunks_naming(self, number: int) -> np.ndarray:
        """The chunk ids that name entity ``number`` (a view; an entity numbered since the table was
        made is stale, never asked here)."""
        return self.chunks[self.entity_starts[number] : self.entity_starts[number + 1]]

    def named_in(self, chunk_ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(the entity numbers the table holds for ``chunk_ids``, one per mention; the ids among
        ``chunk_ids`` that changed since, which it cannot answer for)."""
        changed = np.empty(0, dtype=np.int64)
        if self.stale:
            if self._stale_ids is None:
                self._stale_ids = np.fromiter(self.stale, dtype=np.int64, count=len(self.stale))
            is_stale = np.isin(chunk_ids, self._stale_ids)
            changed, chunk_ids = chunk_ids[is_stale], chunk_ids[~is_stale]
        begins = self.starts[chunk_ids]
        lengths = self.starts[chunk_ids + 1] - begins
        # Each chunk's run of positions, laid end to end: its first, then one more at a time.
        firsts = np.repeat(begins - (np.cumsum(lengths) - lengths), lengths)
        return self.entities[firsts + np.arange(len(firsts))], changed


class EntityGraph:
    name = "graph"

    def __init__(self) -> None:
        self._chunks: dict[str, set[int]] = defaultdict(set)  # entity key -> chunk ids
        self._chunk_entities: dict[int, tuple[str, ...]] = {}
        self._aliases: dict[str, str] = {}  # alias key -> canonical key
        self._reverse_aliases: dict[str, list[str]] | None = None  # canonical -> aliases, when asked
        self._resolved: dict[str, str] = {}  # name as written -> key (until the aliases change)
        # Query-side caches, valid until the next add or remove.
        self._id_arrays: dict[str, np.ndarray] = {}  # entity key -> its chunk ids, as an array
        self._fanout: dict[str, list[tuple[float, str, float]]] = {}  # seed -> (assoc, key, idf)
        self._hop_lists: dict[str, list[tuple[float, str, tuple[str, ...]]]] = {}  # seed -> _hops
        self._reaches: dict[tuple[str, int], tuple[np.ndarray, np.ndarray]] = {}  # -> _reach
        self._reached = 0  # chunks held in _reaches
        self._first_words: Counter[str] | None = None  # first word of two-word keys -> how many
        # For counting neighbours over arrays, from the first query that needs them: each entity's
        # number, the key of each number, how many chunks name each number now, the table.
        self._numbers: dict[str, int] = {}
        self._keys: list[str] = []
        self._df = np.zeros(0, dtype=np.int64)
        self._table: _Table | None = None
        self._mentions = 0  # entity mentions over all chunks
        self._counted = 0  # mentions read counting neighbours from the table of tuples

    def __len__(self) -> int:
        return len(self._chunk_entities)

    def resolve(self, name: str) -> str:
        key = self._resolved.get(name)
        if key is None:
            key = normalize(name)
            key = self._aliases.get(key, key)
            if len(self._resolved) >= MAX_RESOLVED_NAMES:
                self._resolved.clear()
            self._resolved[name] = key
        return key

    def set_aliases(self, aliases: dict[str, str]) -> None:
        """The vault's alias map (normalised keys: :func:`memsearch.index.in_memory.alias_map`),
        each alias standing for the end of its chain (:func:`closed_aliases`). Set before any chunk
        is added: chunks are keyed by what their names resolve to."""
        keys = ((normalize(alias), normalize(canonical)) for alias, canonical in aliases.items())
        self._aliases = closed_aliases({a: c for a, c in keys if a and c and a != c})
        self._resolved.clear()
        self._reverse_aliases = None

    def add(self, chunk_id: int, entities: Iterable[str]) -> None:
        keys = tuple(dict.fromkeys(k for k in (self.resolve(e) for e in entities) if k))
        if chunk_id in self._chunk_entities:
            self.remove(chunk_id)
        self._chunk_entities[chunk_id] = keys
        self._mentions += len(keys)
        chunks = self._chunks
        for key in keys:
            chunks[key].add(chunk_id)
        if self._table is not None:
            for key in keys:
                number = self._number(key)  # first: numbering a new name may grow the array
                self._df[number] += 1
        self._changed(chunk_id, keys)

    def remove(self, chunk_id: int) -> None:
        keys = self._chunk_entities.pop(chunk_id, ())
        self._mentions -= len(keys)
        for key in keys:
            self._chunks[key].discard(chunk_id)
            if not self._chunks[key]:
                del self._chunks[key]
        if self._table is not None:
            for key in keys:
                self._df[self._numbers[key]] -= 1
        self._changed(chunk_id, keys)

    def _number(self, key: str) -> int:
        number = self._numbers.get(key)
        if number is None:
            number = self._numbers[key] = len(self._keys)
            self._keys.append(key)
            if number >= len(self._df):
                self._df = np.concatenate([self._df, np.zeros(max(number, 16), dtype=np.int64)])
        return number

    def _changed(self, chunk_id: int, keys: Iterable[str]) -> None:
        if self._table is not None:
            self._table.changed(chunk_id, keys)
        self._first_words = None
        if self._fanout:
            self._fanout.clear()  # any change moves idf and frequencies, hence every association
        if self._hop_lists:
            self._hop_lists.clear()
        if self._reaches:
            self._reaches.clear()
            self._reached = 0
        if self._id_arrays:
            for key in keys:
                self._id_arrays.pop(key, None)

    def co_occurrences(self, a: str, b: str) -> int:
        """Weight of the edge a - b: the chunks that name both (0: no edge)."""
        small, other = sorted((self._chunks.get(a, set()), self._chunks.get(b, set())), key=len)
        return sum(1 for c in small if c in other) if a != b else 0

    def neighbours(self, key: str) -> Counter[str]:
        """Entities that share a chunk with ``key``, with the number of chunks they share."""
        counts = Counter(
            chain.from_iterable(map(self._chunk_entities.__getitem__, self._chunks.get(key, ())))
        )
        counts.pop(key, None)
        return counts

    def aliases_of(self, key: str) -> list[str]:
        """The aliases that stand for ``key`` (the vault's nicknames and abbreviations of it)."""
        reverse = self._reverse_aliases
        if reverse is None:
            reverse = defaultdict(list)
            for alias, canonical in sorted(self._aliases.items()):
                reverse[canonical].append(alias)
            self._reverse_aliases = reverse
        return reverse.get(key, [])

    def entities_of(self, chunk_id: int) -> tuple[str, ...]:
        return self._chunk_entities.get(chunk_id, ())

    def known(self, key: str) -> bool:
        return key in self._chunks

    def find_in_text(self, text: str) -> list[str]:
        """Entity keys named in free text (a query): longest n-gram matches, aliases resolved."""
        return list(dict.fromkeys(key for _, key in self.named_in_text(text)))

    def named_in_text(self, text: str) -> list[tuple[str, str]]:
        """(name as the text writes it, normalised; entity key) for each entity or alias the text
        names, longest n-gram first. An alias resolves to its key even where no chunk names the
        thing under that key (a glossary's "PTS" stands for "put to sleep"); a name the vault knows
        in the other number only resolves to that ("the signing key" to "signing keys")."""
        written = [w.strip(".-").strip("'’") for w in _WORD.findall(text)]
        # "Pai's", "the Harbour Loop's": a possessive names what the notes name without it (a name
        # the vault keeps with its apostrophe, "McDonald's", is tried as written first)
        bare = [without_possessive(w) for w in written]
        found: list[tuple[str, str]] = []
        i = 0
        while i < len(written):
            for span in range(min(MAX_ENTITY_WORDS, len(written) - i), 0, -1):
                named = self._named(written[i : i + span], bare[i : i + span])
                if named is not None:
                    found.append(named)
                    i += span
                    break
            else:
                i += 1
        return found

    def _named(self, written: list[str], bare: list[str]) -> tuple[str, str] | None:
        """(the name, normalised; its entity key) for words of a text: as written, without a
        possessive, or with its last word in the other number when that word is a common noun
        written in lower case ("the signing key" for the vault's "signing keys"; never "Lucas" for
        "Luca", nor "news" for "new")."""
        as_written, name = normalize(" ".join(written)), normalize(" ".join(bare))
        forms = [as_written] if as_written == name else [as_written, name]
        last = bare[-1]
        common_noun = last.isalpha() and last.islower() and not is_stopword(last)
        if common_noun and (len(bare) > 1 or len(last) >= 4):
            head = normalize(" ".join(bare[:-1]))
            forms += [f"{head} {other}" if head else other for other in _other_numbers(last)]
        for form in forms:
            key = self._aliases.get(form)
            if key is None and (form in self._chunks or self.aliases_of(form)):
                key = form
            if key is not None:
                return (as_written if form == as_written else name), key
        return None

    def idf(self, key: str) -> float:
        n = max(len(self._chunk_entities), 1)
        df = len(self._chunks.get(key, ()))
        return math.log(1.0 + n / (df + 1.0)) if df else 0.0

    def chunk_ids(self, key: str) -> np.ndarray:
        """The chunk ids that name entity ``key`` (resolved), sorted, as an array (kept until it changes)."""
        ids = self._id_arrays.get(key)
        if ids is None:
            table = self._table
            if table is not None and key not in table.stale_keys and key in self._numbers:
                return table.chunks_naming(self._numbers[key])
            chunk_ids = self._chunks.get(key, ())
            ids = np.sort(np.fromiter(chunk_ids, dtype=np.int64, count=len(chunk_ids)))
            self._id_arrays[key] = ids
        return ids

    def _neighbour_counts(
        self, seed: str
    ) -> tuple[np.ndarray, np.ndarray, Callable[[np.ndarray], list[str]]]:
        """(chunks each neighbour shares with ``seed``, chunks that name each, the keys of some of
        them by position) over the seed's neighbours: what :meth:`neighbours` counts, over the
        arrays of :class:`_Table` once they pay (:data:`TABLE_AFTER`)."""
        if self._table is None and self._counted < TABLE_AFTER * self._mentions:
            shared = self.neighbours(seed)
            self._counted += sum(shared.values()) + len(self._chunks[seed])
            others = list(shared)
            counts = np.fromiter(shared.values(), dtype=np.float64, count=len(others))
            df = np.fromiter(
                map(len, map(self._chunks.__getitem__, others)), dtype=np.float64, count=len(others)
            )
            return counts, df, lambda picked: [others[i] for i in picked.tolist()]
        numbers, counts = self._co_counts(seed)
        keys = self._keys
        return (
            counts,
            self._df[numbers].astype(np.float64),
            lambda picked: [keys[i] for i in numbers[picked].tolist()],
        )

    def _co_counts(self, seed: str) -> tuple[np.ndarray, np.ndarray]:
        """(entity numbers, chunks each shares with ``seed``) of the seed's neighbours: what
        :meth:`neighbours` counts, over arrays."""
        named, changed = self._current_table().named_in(self.chunk_ids(seed))
        if len(changed):
            again = chain.from_iterable(map(self._chunk_entities.__getitem__, changed.tolist()))
            numbered = np.fromiter(map(self._numbers.__getitem__, again), dtype=np.int64)
            named = np.concatenate([named, numbered])
        numbers, counts = _totals(named, len(self._keys))
        others = numbers != self._numbers[seed]
        return numbers[others], counts[others].astype(np.float64)

    def _current_table(self) -> _Table:
        """The arrays of the table, made anew (with every entity numbered and counted) when there
        are none yet or too many chunks changed since (:data:`MAX_STALE_SHARE`)."""
        table = self._table
        if table is None or len(table.stale) > MAX_STALE_SHARE * len(self._chunk_entities):
            for key in self._chunks:
                self._number(key)
            self._df[:] = 0
            numbers = np.fromiter(map(self._numbers.__getitem__, self._chunks), dtype=np.int64)
            self._df[numbers] = np.fromiter(map(len, self._chunks.values()), dtype=np.int64)
            table = self._table = _Table(self._chunk_entities, self._numbers)
        return table

    def _strongest(self, seed: str) -> list[tuple[float, str, float]]:
        """The seed's ``MAX_FANOUT`` strongest neighbours as (association, key, idf of key),
        strongest first (ties: the later key first); association = shared chunks / sqrt(df seed
        * df other)."""
        best = self._fanout.get(seed)
        if best is None:
            counts, df, names = self._neighbour_counts(seed)
            assoc = counts / np.sqrt(len(self._chunks[seed]) * df)
            # Every neighbour at least as strong as the MAX_FANOUT-th, then the strongest of them
            # (a seed has ~150 neighbours at 100k chunks, a person thousands: not one tuple each).
            cut = len(assoc) - MAX_FANOUT
            picked = (
                np.flatnonzero(assoc >= np.partition(assoc, cut)[cut]) if cut > 0 else np.arange(len(assoc))
            )
            strongest = sorted(
                zip(
                    assoc[picked].tolist(),
                    names(picked),
                    df[picked].tolist(),
                    strict=True,
                ),
                reverse=True,
            )[:MAX_FANOUT]
            n = max(len(self._chunk_entities), 1)  # each neighbour's idf as :meth:`idf` reads it
            best = [(strength, other, math.log(1.0 + n / (d + 1.0))) for strength, other, d in strongest]
            if len(self._fanout) >= MAX_CACHED_SEEDS:
                self._fanout.clear()
            self._fanout[seed] = best
        return best

    def with_first_names(self, keys: Iterable[str]) -> list[str]:
        """``keys`` and, after them, the first word of each two-word key when that word is an entity
        of its own and begins no other two-word entity: a note writes "Arjun booked: lands 14 Nov" of
        the Arjun Raman the query names ("Arj", "Arjun Raman"), and the walk must reach it too. A word
        that begins several names ("Sprout firmware", "Sprout valves") stands for none of them."""
        if self._first_words is None:
            self._first_words = Counter(
                words[0] for words in (key.split(" ") for key in self._chunks) if len(words) == 2
            )
        keys = list(dict.fromkeys(keys))
        firsts = [
            words[0]
            for words in (key.split(" ") for key in keys)
            if len(words) == 2 and words[0] in self._chunks and self._first_words[words[0]] == 1
        ]
        return list(dict.fromkeys(keys + firsts))

    def walk(self, seeds: Iterable[str], n_ids: int) -> np.ndarray:
        """Scores over chunk ids from a decayed walk out of the seed entities (:meth:`_hops`)."""
        scores = np.zeros(n_ids, dtype=np.float32)
        for seed in seeds:
            if seed in self._chunks:
                ids, values = self._reach(seed, n_ids)
                scores[ids] += values
        return scores

    def _reach(self, seed: str, n_ids: int) -> tuple[np.ndarray, np.ndarray]:
        """The chunks one seed's walk reaches (ids under ``n_ids``) and what it gives each: its
        weight to the chunks that name it, then each hop's share (:meth:`_hops`). Kept per seed
        until the graph changes."""
        found = self._reaches.get((seed, n_ids))
        if found is None:
            shares = [(self.idf(seed), seed)] + [(hop, key) for hop, key, _path in self._hops(seed)]
            named = [_below(self.chunk_ids(key), n_ids) for _, key in shares]
            # Summed over the chunks they name alone (~50 entities, ~8,000 chunks at 100k: a
            # scatter into all the ids for each entity took 10 us).
            weights = np.repeat([share for share, _ in shares], [len(named_ids) for named_ids in named])
            ids, summed = _totals(np.concatenate(named), n_ids, weights)
            found = (ids, summed.astype(np.float32))
            if len(ids) <= MAX_CACHED_REACH:
                if self._reached + len(ids) > MAX_CACHED_REACH:
                    self._reaches.clear()
                    self._reached = 0
                self._reaches[(seed, n_ids)] = found
                self._reached += len(ids)
        return found

    def _hops(self, seed: str) -> list[tuple[float, str, tuple[str, ...]]]:
        """What a seed passes on (its weight is its idf): (share, entity, the entities between) for
        each of its strongest neighbours, then for theirs (:data:`SECOND_HOPS_THROUGH`), each hop decayed by
        :data:`HOP_DECAY` and its association; either end being a hub damps a hop (the weaker idf
        bounds it). An entity one hop away is not reached again at two. Kept per seed until the
        graph changes (the second hops read the neighbours of its strongest neighbours)."""
        hops = self._hop_lists.get(seed)
        if hops is not None:
            return hops
        weight = self.idf(seed)
        first = self._strongest(seed)
        hops = [(HOP_DECAY * assoc * min(weight, idf_other), other, ()) for assoc, other, idf_other in first]
        near = {seed, *(other for _, other, _ in first)}
        second: dict[str, tuple[float, str]] = {}
        for assoc, other, idf_other in first[:SECOND_HOPS_THROUGH]:
            for assoc2, far, idf_far in self._strongest(other)[:SECOND_HOPS]:
                if far not in near:
                    share = HOP_DECAY * HOP_DECAY * assoc * assoc2 * min(weight, idf_other, idf_far)
                    if share > second.get(far, (0.0, ""))[0]:
                        second[far] = (share, other)
        # Only the strongest second hops are followed: each costs a pass over its entity's chunks.
        best = heapq.nlargest(SECOND_HOPS, ((share, far, other) for far, (share, other) in second.items()))
        hops.extend((share, far, (other,)) for share, far, other in best)
        if len(self._hop_lists) >= MAX_CACHED_SEEDS:
            self._hop_lists.clear()
        self._hop_lists[seed] = hops
        return hops

    def paths_to(self, seeds: Iterable[str], chunk_id: int) -> list[str]:
        """How the walk reached a chunk, strongest first: "names X" for a seed the chunk names,
        "via X -> Y" for a seed's neighbour Y that it names, "via X -> Y -> Z" for a neighbour Z of
        that neighbour (what ``--explain`` shows)."""
        named = set(self._chunk_entities.get(chunk_id, ()))
        found: list[tuple[float, str]] = []
        for seed in dict.fromkeys(seeds):
            if seed not in self._chunks:
                continue
            weight = self.idf(seed)
            if seed in named:
                found.append((weight, f"names {seed}"))
                continue
            for hop, key, between in self._hops(seed):
                if key in named:
                    found.append((hop, " -> ".join(("via " + seed, *between, key))))
        return [path for _, path in sorted(found, key=lambda item: -item[0])]

    def search(
        self,
        seeds: list[str],
        k: int,
        n_ids: int,
        allowed: np.ndarray | None = None,
        tie_key: Callable[[np.ndarray], np.ndarray] | None = None,
    ) -> list[Hit]:
        scores = self.walk(seeds, n_ids)
        if allowed is not None:
            scores = np.where(fit_mask(allowed, n_ids), scores, 0.0)
        return top_hits(scores, k, tie_key)

    # -- persistence -----------------------------------------------------------------------
    def save(self, path: Path) -> None:
        data = {
            "aliases": self._aliases,
            "chunks": {str(c): list(keys) for c, keys in self._chunk_entities.items()},
        }
        path.write_text(json.dumps(data, ensure_ascii=False, sort_keys=True))

    @classmethod
    def load(cls, path: Path) -> EntityGraph:
        data = json.loads(path.read_text(encoding="utf-8"))
        graph = cls()
        graph._aliases = closed_aliases(dict(data["aliases"]))
        # add() for every chunk (the aliases apply again), minus its per-call overhead.
        chunks = graph._chunks
        table = graph._chunk_entities
        resolve = graph.resolve
        for chunk_id, saved in data["chunks"].items():
            cid = int(chunk_id)
            if cid in table:
                graph.remove(cid)
            keys = tuple(dict.fromkeys(k for k in map(resolve, saved) if k))
            table[cid] = keys
            graph._mentions += len(keys)
            for key in keys:
                chunks[key].add(cid)
        return graph


def _totals(ids: np.ndarray, bound: int, weights: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The distinct ``ids`` (each under ``bound``) and the total of each one's ``weights`` (its count
    without them), summed in the order given: by sorting them when they are few beside ``bound``,
    else in one pass over all of it (a person named in thousands of chunks)."""
    if len(ids) * 8 < bound:
        distinct, owner = np.unique(ids, return_inverse=True)
        return distinct, np.bincount(owner, weights=weights, minlength=len(distinct))
    totals = np.bincount(ids, weights=weights, minlength=bound)
    distinct = np.flatnonzero(totals)
    return distinct, totals[distinct]


def _below(ids: np.ndarray, n: int) -> np.ndarray:
    """The sorted ``ids`` under ``n`` (a view, no copy)."""
    return ids if not len(ids) or ids[-1] < n else ids[: int(np.searchsorted(ids, n))]
