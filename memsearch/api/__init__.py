"""The public Python API: the same verbs as the CLI.

>>> from memsearch.api import index_vault, open_index
>>> index_vault("~/vault")
>>> engine = open_index("~/vault")
>>> engine.search("signing keys", k=5).to_dict()

- :mod:`~memsearch.api.engine`: :class:`Memsearch`, a loaded index (search, ``update_file``, forget);
- :mod:`~memsearch.api.writes`: what ``update_file`` changes ahead of the repository, and its writer;
- :mod:`~memsearch.api.verbs`: every other verb, as a function of the vault.
"""

from memsearch.api.engine import Memsearch, open_index, search, search_filters
from memsearch.api.verbs import (
    doctor,
    forget,
    forgotten,
    index_vault,
    interests,
    log,
    open_memory,
    redact,
    refreshed,
    reindex,
    rollback,
    search_warm,
    status,
    unforget,
    unredact,
    watch,
)
from memsearch.api.writes import FileUpdate

__all__ = [
    "FileUpdate",
    "Memsearch",
    "doctor",
    "forget",
    "forgotten",
    "index_vault",
    "interests",
    "log",
    "open_index",
    "open_memory",
    "redact",
    "refreshed",
    "reindex",
    "rollback",
    "search",
    "search_filters",
    "search_warm",
    "status",
    "unforget",
    "unredact",
    "watch",
]
