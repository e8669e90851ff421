"""One exception base for everything memsearch raises on purpose.

Every message says what went wrong *and* what to do next, so a person at the
CLI or an agent reading a tool answer can act on it.
"""

from __future__ import annotations


class MemsearchError(Exception):
    """Base of every error memsearch raises deliberately."""


class ConfigError(MemsearchError):
    """A vault config file or a setting is invalid."""


class VaultError(MemsearchError):
    """The vault is missing, unreadable, or not a folder."""


class IndexMissingError(MemsearchError):
    """No index exists yet for this vault."""


class IndexCorruptError(MemsearchError):
    """The index on disk cannot be read; it must be rebuilt from the vault."""


class EmbedderError(MemsearchError):
    """The embedder could not produce vectors (missing model, server down, bad answer)."""


class QueryError(MemsearchError):
    """The query or one of its filters is invalid."""


class ChunkingError(MemsearchError):
    """One file could not be chunked; the rest of the vault is still indexed."""


class UnreadableMemoryError(MemsearchError):
    """A file's content is not what its kind promises (a notebook file's malformed YAML, unknown
    schema version, missing field): the file is skipped with this message as its reason, the rest
    of the vault is still indexed. Not a bug, unlike a :class:`ChunkingError`."""


class LockBusyError(MemsearchError):
    """Another writer holds the index's lock (index, reindex, watch, rollback); try again later."""


class IndexWriteError(MemsearchError):
    """The index could not be written for now (the disk is full, a file is locked, a timeout): the
    run changed nothing and fails; the next run, once the cause is gone, carries on."""


class RevisionError(MemsearchError):
    """A revision of the index (``search --at``, ``rollback``) does not name one of its commits."""


class UnsafeIndexHomeError(MemsearchError):
    """The index home cannot be used as it is: another user can write it (or rename it away), or it
    is a file, not a folder; it is not used until fixed."""
