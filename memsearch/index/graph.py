"""The entity graph: entities as nodes (networkx), chunks as what they point to.

A query's entities seed a decayed two-hop walk: a chunk that names a seed scores the seed's
weight; a chunk that names an entity *associated* with a seed (they co-occur, or one file links
the other) scores a decayed share of it, so "redflag" reaches chunks about "Ed25519" whose words
never say redflag. Hubs are damped twice: a seed's weight is its idf (an entity in every chunk
says nothing), and association is normalised by both ends' frequencies, so a hub's neighbours
do not flood the list. Fan-out is capped, so a query costs well under a millisecond; nothing
here rebuilds a matrix per query (``nx.pagerank`` takes seconds at 100k nodes).
"""

from __future__ import annotations

import json
import math
import re
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

import networkx as nx
import numpy as np

from memsearch.entities import normalize_entity
from memsearch.index.keyword import fit_mask, top_hits
from memsearch.models import Hit

#: Share of a seed's weight that one hop passes on (then scaled by association strength).
HOP_DECAY = 0.5
#: Neighbours followed from each seed, strongest first.
MAX_FANOUT = 50
#: Longest entity name, in words, looked for in a query.
MAX_ENTITY_WORDS = 5

_WORD = re.compile(r"[#@]?[\w][\w'\-.]*", re.UNICODE)


def normalize(name: str) -> str:
    """Node key of an entity (the chunkers' normalisation, plus a leading ``@``)."""
    return normalize_entity(name.strip().lstrip("@"))


class EntityGraph:
    name = "graph"

    def __init__(self) -> None:
        self.graph = nx.Graph()  # entity key -> entity key, weight = co-occurring chunks
        self._chunks: dict[str, set[int]] = defaultdict(set)  # entity key -> chunk ids
        self._chunk_entities: dict[int, tuple[str, ...]] = {}
        self._aliases: dict[str, str] = {}  # alias key -> canonical key

    def __len__(self) -> int:
        return len(self._chunk_entities)

    def resolve(self, name: str) -> str:
        key = normalize(name)
        return self._aliases.get(key, key)

    def add_aliases(self, aliases: dict[str, str]) -> None:
        for alias, canonical in aliases.items():
            a, c = normalize(alias), normalize(canonical)
            if a and c and a != c:
                self._aliases[a] = c

    def add(self, chunk_id: int, entities: Iterable[str]) -> None:
        keys = tuple(dict.fromkeys(k for k in (self.resolve(e) for e in entities) if k))
        if chunk_id in self._chunk_entities:
            self.remove(chunk_id)
        self._chunk_entities[chunk_id] = keys
        for i, key in enumerate(keys):
            self._chunks[key].add(chunk_id)
            if key not in self.graph:
                self.graph.add_node(key)
            for other in keys[i + 1 :]:
                data = self.graph.get_edge_data(key, other)
                self.graph.add_edge(key, other, weight=(data["weight"] if data else 0) + 1)

    def remove(self, chunk_id: int) -> None:
        keys = self._chunk_entities.pop(chunk_id, ())
        for i, key in enumerate(keys):
            self._chunks[key].discard(chunk_id)
            for other in keys[i + 1 :]:
                data = self.graph.get_edge_data(key, other)
                if data is not None:
                    if data["weight"] <= 1:
                        self.graph.remove_edge(key, other)
                    else:
                        data["weight"] -= 1
            if not self._chunks[key]:
                del self._chunks[key]
                if key in self.graph:
                    self.graph.remove_node(key)

    def entities_of(self, chunk_id: int) -> tuple[str, ...]:
        return self._chunk_entities.get(chunk_id, ())

    def known(self, key: str) -> bool:
        return key in self._chunks

    def find_in_text(self, text: str) -> list[str]:
        """Entity keys named in free text (a query): longest n-gram matches, aliases resolved."""
        words = [w.strip(".'-") for w in _WORD.findall(text)]
        found: list[str] = []
        i = 0
        while i < len(words):
            for span in range(min(MAX_ENTITY_WORDS, len(words) - i), 0, -1):
                candidate = normalize(" ".join(words[i : i + span]))
                key = self._aliases.get(candidate, candidate)
                if key in self._chunks:
                    found.append(key)
                    i += span
                    break
            else:
                i += 1
        return list(dict.fromkeys(found))

    def idf(self, key: str) -> float:
        n = max(len(self._chunk_entities), 1)
        df = len(self._chunks.get(key, ()))
        return math.log(1.0 + n / (df + 1.0)) if df else 0.0

    def walk(self, seeds: Iterable[str], n_ids: int) -> np.ndarray:
        """Scores over chunk ids from a decayed two-hop walk out of the seed entities."""
        scores = np.zeros(n_ids, dtype=np.float32)
        for seed in seeds:
            if seed not in self._chunks:
                continue
            weight = self.idf(seed)
            ids = [c for c in self._chunks[seed] if c < n_ids]
            scores[ids] += weight
            df_seed = len(self._chunks[seed])
            neighbours = []
            for other, data in self.graph[seed].items():
                df_other = len(self._chunks.get(other, ()))
                if df_other:
                    assoc = data["weight"] / math.sqrt(df_seed * df_other)
                    neighbours.append((assoc, other))
            neighbours.sort(reverse=True)
            for assoc, other in neighbours[:MAX_FANOUT]:
                ids = [c for c in self._chunks[other] if c < n_ids]
                # Either end being a hub damps the hop: the weaker idf bounds it.
                scores[ids] += HOP_DECAY * assoc * min(weight, self.idf(other))
        return scores

    def search(self, seeds: list[str], k: int, n_ids: int, allowed: np.ndarray | None = None) -> list[Hit]:
        scores = self.walk(seeds, n_ids)
        if allowed is not None:
            scores = np.where(fit_mask(allowed, n_ids), scores, 0.0)
        return top_hits(scores, k)

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
        graph._aliases = dict(data["aliases"])
        for chunk_id, keys in data["chunks"].items():
            graph.add(int(chunk_id), keys)
        return graph
