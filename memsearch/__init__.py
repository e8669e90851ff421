"""memsearch: where does the memory I am reaching for live?"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memsearch.errors import MemsearchError

__all__ = ["Chunk", "Health", "MemsearchError", "Result", "SearchResponse", "Settings", "Territory"]
__version__ = "0.1.0"

# The value objects are imported on first use (PEP 562), not with the package: `memsearch search`
# through `memsearch serve` imports only what it needs to talk to the server.
_LAZY = {
    "Settings": "memsearch.config",
    "Chunk": "memsearch.models",
    "Health": "memsearch.models",
    "Result": "memsearch.models",
    "SearchResponse": "memsearch.models",
    "Territory": "memsearch.models",
}

if TYPE_CHECKING:
    from memsearch.config import Settings
    from memsearch.models import Chunk, Health, Result, SearchResponse, Territory


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'memsearch' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})
