"""How a vault chooses its embedder, and the embedder made for a spec with the vault's options.

Which embedder indexes a vault, first match wins:

1. the ``embedder`` argument (``memsearch index --embedder SPEC``),
2. ``$MEMSEARCH_EMBEDDER``,
3. the vault's ``memsearch.toml``: ``[index] embedder = "SPEC"``,
4. a ``Settings(embedder=...)`` other than the default, from a Python caller,
5. the embedder the vault's index was last built with (so a plain reindex from cron never
   switches embedder behind the user's back),
6. ``minilm``, the offline default.

A search always uses the embedder its index was built with (the manifest's spec), so a
query vector and the index's vectors share one fingerprint; ``memsearch doctor`` says when
the embedder chosen now differs from the index's.

Backend options that do not change vectors (where the server is, how long to wait) come
from the vault config's table named after the backend, e.g.::

    [ollama]
    host = "http://127.0.0.1:11434"   # else $OLLAMA_HOST, else http://localhost:11434
    timeout = 120                     # seconds per indexing request
    query_timeout = 10                # seconds a search waits for its query vector
    batch_size = 32                   # texts per request
    keep_alive = "30m"                # how long Ollama keeps the model loaded
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memsearch.config import CONFIG_FILENAME, Settings, load_config_file
from memsearch.embedders.base import Embedder
from memsearch.embedders.registry import DEFAULT_EMBEDDER, get_embedder, split_spec
from memsearch.errors import ConfigError
from memsearch.paths import read_manifest_head

#: Environment variable naming the embedder (beaten only by an explicit ``--embedder``).
EMBEDDER_ENV = "MEMSEARCH_EMBEDDER"

#: Keys a backend's table in memsearch.toml may set, by backend name.
BACKEND_OPTIONS: dict[str, frozenset[str]] = {
    "ollama": frozenset({"host", "timeout", "query_timeout", "batch_size", "keep_alive"}),
}


@dataclass(frozen=True)
class EmbedderChoice:
    """A spec and where it came from (``--embedder``, ``$MEMSEARCH_EMBEDDER``, ``memsearch.toml``,
    ``settings``, ``index``, ``default``)."""

    spec: str
    source: str


def _vault_config(vault: Path) -> dict[str, Any]:
    path = vault / CONFIG_FILENAME
    return load_config_file(path) if path.is_file() else {}


def index_manifest_embedder(index_home: Path | None) -> dict[str, Any]:
    """The ``embedder`` record of the index at ``index_home`` ({} if none or unreadable)."""
    if index_home is None:
        return {}
    manifest = read_manifest_head(Path(index_home))
    info = manifest.get("embedder") if isinstance(manifest, dict) else None
    return info if isinstance(info, dict) else {}


def choose_embedder(
    vault: Path,
    explicit: str | None = None,
    settings: Settings | None = None,
    index_home: Path | None = None,
) -> EmbedderChoice:
    """Which embedder indexes ``vault`` now (see the module docstring for the order)."""
    if explicit and explicit.strip():
        return EmbedderChoice(explicit.strip(), "--embedder")
    env = os.environ.get(EMBEDDER_ENV, "").strip()
    if env:
        return EmbedderChoice(env, f"${EMBEDDER_ENV}")
    configured = _vault_config(vault).get("index", {}).get("embedder")
    if configured:
        return EmbedderChoice(str(configured).strip(), CONFIG_FILENAME)
    if settings is not None and settings.embedder.strip() != Settings().embedder:
        return EmbedderChoice(settings.embedder.strip(), "settings")
    built_with = index_manifest_embedder(index_home).get("spec")
    if isinstance(built_with, str) and built_with.strip():
        return EmbedderChoice(built_with.strip(), "index")
    return EmbedderChoice(DEFAULT_EMBEDDER, "default")


def backend_options(vault: Path | None, spec: str) -> dict[str, Any]:
    """The vault config's options for the backend of ``spec`` (its ``[ollama]`` table, ...)."""
    name, _ = split_spec(spec)
    allowed = BACKEND_OPTIONS.get(name)
    if not allowed or vault is None:
        return {}
    table = _vault_config(vault).get(name, {})
    if not isinstance(table, dict):
        raise ConfigError(f"{vault / CONFIG_FILENAME}: [{name}] must be a table")
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise ConfigError(
            f"{vault / CONFIG_FILENAME}: [{name}] has unknown key(s) {', '.join(unknown)};"
            f" valid: {', '.join(sorted(allowed))}"
        )
    return dict(table)


def embedder_for(spec: str, vault: Path | None = None) -> Embedder:
    """``get_embedder(spec)`` with the vault's options for its backend."""
    return get_embedder(spec, **backend_options(vault, spec))
