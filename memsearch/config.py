"""Settings and territories: defaults with their reasons, and the vault's own config file.

A vault may declare its territories in ``memsearch.toml`` at its root::

    [[territory]]
    prefix = "notes/people/"
    strategy = "sections"     # sections | journal | ledger | chapters | archive | notebook
    weight = 1.15
    fact_type = "world"

Declared territories are tried before the defaults; the longest matching prefix wins.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from memsearch.errors import ConfigError
from memsearch.models import CHUNK_STRATEGIES, FACT_TYPES, Territory
from memsearch.scan import NOTEBOOK_FOLDER, notebook_root
from memsearch.sidecars import DEFAULT_MODALITIES, MODALITY_NAME

CONFIG_FILENAME = "memsearch.toml"

#: The default territories: how close each region is to the agent's self (docs/configuration.md).
DEFAULT_TERRITORIES: tuple[Territory, ...] = (
    Territory("system/covenant/", "sections", 1.3, "world"),
    Territory("system/", "sections", 1.2, "world"),
    Territory("reference/", "sections", 1.1, "world"),
    Territory("aster/ledger/", "ledger", 1.05, "experience"),
    Territory("aster/", "sections", 1.05, "experience"),
    Territory("journal/", "journal", 1.0, "experience"),
    Territory("literature/", "chapters", 0.95, "experience"),
    Territory("archive/", "archive", 0.9, "experience"),
    # The agent's notebook (YAML sessions and moments, docs/notebook.md): lived experience.
    Territory("notebook/", "notebook", 1.0, "experience"),
    Territory("", "sections", 1.0, "world", name="default"),
)

#: Where a notebook indexed on its own keeps its files (its territory: see Settings.for_notebook_root).
NOTEBOOK_SESSIONS = "sessions/"

#: RRF's k: 60 is the constant of Cormack et al. (2009); it flattens the head so no one list dominates.
RRF_K = 60
#: Each strategy's list is capped before fusion, so a long weak tail cannot outvote a short strong list.
PER_STRATEGY_TOP_N = 100
#: A memory loses half its recency signal every 90 days; the agent's last season stays close.
RECENCY_HALF_LIFE_DAYS = 90.0
#: Longest chunk, in characters, before it is split at its best break (~256 MiniLM tokens is ~1,000 chars).
MAX_CHUNK_CHARS = 1500
#: Default number of results.
DEFAULT_K = 10


@dataclass(frozen=True)
class Settings:
    """Everything that shapes an index or a search. Frozen: pass a new one to change it."""

    territories: tuple[Territory, ...] = DEFAULT_TERRITORIES
    rrf_k: int = RRF_K
    top_n: int = PER_STRATEGY_TOP_N
    half_life_days: float = RECENCY_HALF_LIFE_DAYS
    max_chunk_chars: int = MAX_CHUNK_CHARS
    embedder: str = "minilm"
    #: Neighbouring chunks of the same file folded into what is indexed for a chunk
    #: (the chunk itself is still what is returned). Measured on LoCoMo: context is the biggest lever.
    context_neighbours: int = 2
    #: Weight of a neighbour's terms relative to the chunk's own (a BM25F-style field weight).
    context_weight: float = 0.5
    #: Whether a neighbour's weight decays geometrically with its distance (weight ** distance).
    context_decay: bool = False
    #: Neighbouring chunks (each side) included in the text that is embedded.
    embed_neighbours: int = 0
    #: How much a hit's score relative to its list's top counts beside its rank (0 = plain RRF).
    strength_mix: float = 1.0
    #: Depth at which a list's confidence is read: (s_1 - s_depth) / s_1. 0 disables it.
    confidence_depth: int = 10
    #: The notebook modalities whose vector sidecars are read (``[modalities]`` in the config:
    #: ``audio = false`` leaves audio out, ``depth = true`` declares one more).
    modalities: tuple[str, ...] = DEFAULT_MODALITIES
    strategy_weights: dict[str, float] = field(
        default_factory=lambda: {"semantic": 1.0, "keyword": 1.0, "graph": 1.0, "time": 1.0}
    )

    def territory_for(self, rel_path: str) -> Territory:
        """The territory of a vault-relative posix path: longest matching prefix wins."""
        best = None
        for territory in self.territories:
            if rel_path.startswith(territory.prefix) and (
                best is None or len(territory.prefix) > len(best.prefix)
            ):
                best = territory
        return best or Territory("", "sections", 1.0, "world", name="default")

    def with_vault_config(self, vault: Path) -> Settings:
        """These settings, overlaid with the vault's ``memsearch.toml`` if it has one; for a vault
        that is a notebook itself, with the notebook territory over its ``sessions/``."""
        path = vault / CONFIG_FILENAME
        settings = apply_config(self, load_config_file(path), source=str(path)) if path.is_file() else self
        return settings.for_notebook_root(notebook_root(vault))

    def for_notebook_root(self, root: str | None) -> Settings:
        """These settings where the notebook's root is ``root`` (:func:`memsearch.scan.notebook_root`):
        a notebook indexed on its own (root ``""``) has its files under ``sessions/``, which then
        take the notebook territory (``notebook/``'s prefix, as configured: weight, fact type, name)."""
        if root != "" or any(t.prefix == NOTEBOOK_SESSIONS for t in self.territories):
            return self
        notebook = self.territory_for(NOTEBOOK_FOLDER + "x.yaml")
        here = Territory(
            NOTEBOOK_SESSIONS, "notebook", notebook.weight, notebook.fact_type, name=notebook.label
        )
        return replace(self, territories=(here, *self.territories))


def load_config_file(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read the config ({exc}); fix or remove the file") from exc


def apply_config(settings: Settings, data: dict[str, Any], source: str = "config") -> Settings:
    declared: list[Territory] = []
    territories = data.get("territory", [])
    if not isinstance(territories, list):
        raise ConfigError(f'{source}: territory must be [[territory]] tables (prefix = "folder/", ...)')
    for table in ("search", "index"):
        if not isinstance(data.get(table, {}), dict):
            raise ConfigError(f"{source}: {table} must be a [{table}] table, not {data[table]!r}")
    for i, item in enumerate(territories):
        where = f"{source}: [[territory]] #{i + 1}"
        if not isinstance(item, dict) or "prefix" not in item:
            raise ConfigError(f'{where} needs at least prefix = "folder/"')
        if not isinstance(item["prefix"], str):
            raise ConfigError(
                f'{where}: prefix {item["prefix"]!r} must be a folder name in quotes ("journal/")'
            )
        prefix = item["prefix"].strip("/")
        prefix = f"{prefix}/" if prefix else ""
        inherited = settings.territory_for(prefix + "x.md")
        strategy = item.get("strategy", inherited.strategy)
        if strategy not in CHUNK_STRATEGIES:
            raise ConfigError(f"{where}: strategy {strategy!r} is not one of {', '.join(CHUNK_STRATEGIES)}")
        fact_type = item.get("fact_type", inherited.fact_type)
        if fact_type not in FACT_TYPES:
            raise ConfigError(f"{where}: fact_type {fact_type!r} must be world or experience")
        weight = item.get("weight", inherited.weight)
        if isinstance(weight, bool) or not isinstance(weight, int | float):
            raise ConfigError(f'{where}: weight {weight!r} must be a number (1.2, not "1.2")')
        if not 0 < weight <= 10:  # NaN fails it too
            raise ConfigError(f"{where}: weight {weight} must be in (0, 10]")
        declared.append(Territory(prefix, strategy, float(weight), fact_type, name=str(item.get("name", ""))))
    kept = tuple(t for t in settings.territories if t.prefix not in {d.prefix for d in declared})
    changes: dict[str, Any] = {"territories": tuple(declared) + kept}
    search = data.get("search", {})
    if "half_life_days" in search:
        days = search["half_life_days"]
        if isinstance(days, bool) or not isinstance(days, int | float) or not 0 < days < math.inf:
            raise ConfigError(f"{source}: [search] half_life_days {days!r} must be a number of days above 0")
        changes["half_life_days"] = float(days)
    if "modalities" in data:
        changes["modalities"] = configured_modalities(settings.modalities, data["modalities"], source)
    if "embedder" in data.get("index", {}):
        changes["embedder"] = str(data["index"]["embedder"])
    return replace(settings, **changes)


def configured_modalities(current: tuple[str, ...], table: object, source: str) -> tuple[str, ...]:
    """The modalities after the config's ``[modalities]`` table: each name ``= true`` (read its
    sidecars; a new name declares a modality) or ``= false`` (never read them: opted out)."""
    if not isinstance(table, dict):
        raise ConfigError(f"{source}: [modalities] must be a table of name = true/false")
    kept = list(current)
    for name, on in table.items():
        if not isinstance(on, bool):
            raise ConfigError(f"{source}: [modalities] {name} = {on!r} must be true or false")
        if not MODALITY_NAME.fullmatch(name) or name == "text":
            raise ConfigError(
                f"{source}: [modalities] {name!r} is not a modality name (lower-case letters, digits "
                "and _, starting with a letter; not text, which is always indexed)"
            )
        if on and name not in kept:
            kept.append(name)
        elif not on and name in kept:
            kept.remove(name)
    return tuple(kept)
