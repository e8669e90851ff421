"""Where the keyword and vector strategies run: the built-in indexes, or a Milvus collection.

The built-in indexes (BM25 postings, the HNSW graph) are always built; a vault may also name a
Milvus deployment as its backend (``--backend`` on ``memsearch index``, or ``[backend] uri`` in
``memsearch.toml``). The choice is recorded in the index home (``backend.json``), so every reader
of the index (search, serve, the tool, MCP) uses it without being told again. The chunk table,
the shards and the embedding cache stay the record: a Milvus collection is derived from them and
can be dropped and rebuilt without embedding again (:mod:`memsearch.index.milvus`).

A backend answers two questions, each with the search's filters pushed down to it:
"the keyword top-N" and "the vector top-N" (:class:`Retrieval`).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from memsearch.config import CONFIG_FILENAME, load_config_file
from memsearch.errors import ConfigError, MemsearchError
from memsearch.index.in_memory import IndexData
from memsearch.models import Hit
from memsearch.paths import IndexLayout, atomic_write

BUILTIN = "builtin"
#: One collection for many vaults, each vault's rows marked by its id (a partition key on a
#: Milvus server), or one collection per vault (exact BM25 statistics per vault, more collections).
LAYOUTS = ("shared", "per-vault")
DEFAULT_COLLECTION = "memsearch"

TieKey = Callable[[np.ndarray], np.ndarray]


class BackendUnavailableError(MemsearchError):
    """The backend did not answer (down, unreachable, too slow, or refused the request)."""


class Retrieval(Protocol):
    """A backend for the keyword and vector strategies. ``filters`` is the search's
    :class:`memsearch.query.Filters`; ``allowed`` is the same filters as a mask over chunk ids
    (what the built-in indexes take). Both return hits best first, scored on the built-in scale."""

    name: str

    def keyword_top(
        self,
        index: IndexData,
        weights: Mapping[str, float],
        k: int,
        allowed: np.ndarray | None,
        filters: Any,
        tie_key: TieKey | None,
    ) -> list[Hit]: ...

    def vector_top(
        self,
        index: IndexData,
        vector: np.ndarray,
        k: int,
        allowed: np.ndarray | None,
        filters: Any,
        tie_key: TieKey | None = None,
    ) -> list[Hit]: ...


class BuiltinRetrieval:
    """The in-process indexes: what a search did before there were backends, unchanged."""

    name = BUILTIN

    def keyword_top(
        self,
        index: IndexData,
        weights: Mapping[str, float],
        k: int,
        allowed: np.ndarray | None,
        filters: Any,
        tie_key: TieKey | None,
    ) -> list[Hit]:
        return index.keyword.search(weights, k, allowed, tie_key=tie_key)

    def vector_top(
        self,
        index: IndexData,
        vector: np.ndarray,
        k: int,
        allowed: np.ndarray | None,
        filters: Any,
        tie_key: TieKey | None = None,
    ) -> list[Hit]:
        if index.vectors is None:
            return []
        return index.vectors.search(vector, k, allowed, tie_key=tie_key)


BUILTIN_RETRIEVAL = BuiltinRetrieval()


@dataclass
class BackendSpec:
    """A vault's backend as recorded in its index home.

    ``uri``: ``milvus://HOST:PORT`` (Milvus Standalone or Distributed), or the path of a Milvus
    Lite file (``*.db``). ``vault_id`` marks the vault's rows in a shared collection.
    ``partition_key``: whether the vault id is the collection's partition key (a Milvus server;
    Milvus Lite 2.5.1 rejects every filter on a collection that has one, measured).
    ``pending``: why the last index run could not bring the collection up to date (the next does).
    """

    uri: str
    vault_id: str
    collection: str = DEFAULT_COLLECTION
    layout: str = "shared"
    partition_key: bool | None = None
    #: A search waits this long for Milvus before the built-in index answers instead.
    timeout_s: float = 3.0
    pushed_commit: str | None = None
    pending: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    #: The index home it was recorded in, and whether ``vault_id`` is the default one (derived from
    #: the vault's path, not configured): an index home copied with its vault takes an id of its
    #: own (:func:`read_backend`).
    home: str | None = None
    default_id: bool = False

    @property
    def is_lite(self) -> bool:
        return not self.uri.startswith(("milvus://", "http://", "https://", "tcp://"))

    @property
    def file_gone(self) -> bool:
        """A Milvus Lite file that is not there (deleted, and its rows with it)."""
        return self.is_lite and not Path(self.uri).exists()

    def behind(self, commit: str | None) -> str | None:
        """Why the collection does not hold the index's ``commit`` (its push is pending, or the
        index moved since the last one: a rollback), or None when it does."""
        if self.pending:
            return self.pending
        if self.pushed_commit != commit:
            held = str(self.pushed_commit or "nothing")[:12]
            return f"the collection holds {held}, not the index's {str(commit)[:12]}"
        return None

    @property
    def client_uri(self) -> str:
        """What ``pymilvus.MilvusClient`` takes: a URL for a server, a file path for Lite."""
        if self.uri.startswith("milvus://"):
            return "http://" + self.uri[len("milvus://") :]
        return self.uri

    @property
    def uses_partition_key(self) -> bool:
        if self.partition_key is None:
            return not self.is_lite and self.layout == "shared"
        return self.partition_key

    @property
    def collection_name(self) -> str:
        """The collection this vault's rows live in."""
        if self.layout == "per-vault":
            return f"{self.collection}_{_identifier(self.vault_id)}"
        return self.collection

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _identifier(text: str) -> str:
    """A Milvus name part (letters, digits, underscores)."""
    return re.sub(r"[^A-Za-z0-9_]", "_", text)[:200]


def default_vault_id(vault: Path) -> str:
    """A vault's id when none is configured: its resolved path, hashed (stable, says nothing)."""
    return "v" + hashlib.sha256(str(Path(vault).resolve()).encode()).hexdigest()[:16]


def parse_backend(
    value: str,
    vault: Path,
    *,
    vault_id: str | None = None,
    collection: str | None = None,
    layout: str | None = None,
    partition_key: bool | None = None,
    where: str = "--backend",
) -> BackendSpec | None:
    """A ``--backend`` value (or ``[backend] uri``) as a spec; None for the built-in indexes."""
    value = (value or "").strip()
    if value in ("", BUILTIN):
        return None
    if "?" in value:  # options in the URI: milvus://h:p?layout=per-vault&collection=c&vault_id=v
        value, _, query = value.partition("?")
        options = dict(part.partition("=")[::2] for part in query.split("&") if part)
        unknown = sorted(set(options) - {"layout", "collection", "vault_id", "partition_key"})
        if unknown:
            raise ConfigError(
                f"{where}: unknown option {unknown[0]!r} (layout, collection, vault_id, partition_key)"
            )
        layout = layout or options.get("layout") or None
        collection = collection or options.get("collection") or None
        vault_id = vault_id or options.get("vault_id") or None
        if partition_key is None and "partition_key" in options:
            partition_key = options["partition_key"].lower() in ("1", "true", "yes")
    if value.startswith("milvus://"):
        host_port = value[len("milvus://") :].rstrip("/")
        if not re.fullmatch(r"[A-Za-z0-9.\-\[\]:]+:\d{1,5}", host_port):
            raise ConfigError(
                f"{where}: {value!r} is not milvus://HOST:PORT (for example milvus://localhost:19530)"
            )
        uri = f"milvus://{host_port}"
    elif value.startswith(("http://", "https://")):
        uri = value
    elif value.endswith(".db"):
        uri = str(Path(value).expanduser().resolve())
        if not Path(uri).parent.is_dir():  # Milvus Lite makes the file, never its folder
            raise ConfigError(
                f"{where}: the folder of {value!r} ({Path(uri).parent}) does not exist; create it, or"
                " name a Milvus Lite file in a folder that does"
            )
    else:
        raise ConfigError(
            f"{where}: {value!r} is neither milvus://HOST:PORT nor a Milvus Lite file (a path ending in .db),"
            f" nor {BUILTIN!r}"
        )
    layout = layout or "shared"
    if layout not in LAYOUTS:
        raise ConfigError(f"{where}: layout {layout!r} must be one of {', '.join(LAYOUTS)}")
    vid = vault_id or default_vault_id(vault)
    if not re.fullmatch(r"[A-Za-z0-9_\-.]{1,128}", vid):
        raise ConfigError(f"{where}: vault_id {vid!r} may hold only letters, digits, '_', '-', '.' (1-128)")
    name = collection or DEFAULT_COLLECTION
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,199}", name):
        raise ConfigError(f"{where}: collection {name!r} must be a letter or '_' then letters, digits, '_'")
    return BackendSpec(
        uri=uri,
        vault_id=vid,
        collection=name,
        layout=layout,
        partition_key=partition_key,
        default_id=not vault_id,
    )


def backend_from_config(vault: Path) -> BackendSpec | None:
    """The ``[backend]`` table of the vault's ``memsearch.toml``, if it names one."""
    path = Path(vault) / CONFIG_FILENAME
    if not path.is_file():
        return None
    table = load_config_file(path).get("backend") or {}
    if not isinstance(table, dict) or not table.get("uri"):
        return None
    where = f"{path}: [backend]"
    pk = _yes_or_no(table.get("partition_key"), f"{path}: [backend] partition_key")
    return parse_backend(
        str(table["uri"]),
        vault,
        vault_id=str(table["vault_id"]) if table.get("vault_id") else None,
        collection=str(table["collection"]) if table.get("collection") else None,
        layout=str(table["layout"]) if table.get("layout") else None,
        partition_key=pk,
        where=where,
    )


def _yes_or_no(value: Any, where: str) -> bool | None:
    """A TOML switch written as a boolean, 0/1 or a word ("no" was read as true: ``bool("no")``)."""
    if value is None or isinstance(value, bool):
        return value
    word = str(value).strip().lower()
    if word in ("1", "true", "yes", "on"):
        return True
    if word in ("0", "false", "no", "off"):
        return False
    raise ConfigError(f"{where}: {value!r} is neither true nor false (write true or false)")


def read_backend(home: Path) -> BackendSpec | None:
    """The backend recorded in the index home, or None (the built-in indexes)."""
    path = IndexLayout(home).backend
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise ConfigError(
            f"{path}: cannot read the recorded backend ({exc}); run `memsearch index VAULT --backend ...`"
            " to record it again (or delete the file to use the built-in indexes)"
        ) from exc
    if not isinstance(data, dict) or not data.get("uri"):
        return None
    known = set(BackendSpec.__dataclass_fields__)
    spec = BackendSpec(**{k: v for k, v in data.items() if k in known})
    here = str(Path(home).resolve())
    if spec.home and spec.home != here and spec.default_id:
        spec = _rehomed(spec, here)
    return spec


def _rehomed(spec: BackendSpec, here: str) -> BackendSpec:
    """The spec of an index home found at ``here``, recorded at ``spec.home``: copied with its vault
    (``cp -a``), the original still records the same id, and the copy takes an id of its own and
    holds nothing yet (sharing the id, the copy's first push replaced the original's rows with its
    own, and the original answered from the copy's text); moved, it keeps its id and rows."""
    try:
        original = json.loads(IndexLayout(Path(spec.home or "")).backend.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        original = None
    copied = isinstance(original, dict) and (original.get("uri"), original.get("vault_id")) == (
        spec.uri,
        spec.vault_id,
    )
    if not copied:
        return replace(spec, home=here)
    vault_id = default_vault_id(Path(here))  # the home's own path: two copies never share it
    return replace(spec, vault_id=vault_id, home=here, pushed_commit=None, pending=None)


def write_backend(home: Path, spec: BackendSpec | None) -> None:
    """Record ``spec`` as the index home's backend (None: back to the built-in indexes)."""
    path = IndexLayout(home).backend
    if spec is None:
        path.unlink(missing_ok=True)
        return
    spec.home = str(Path(home).resolve())
    atomic_write(path, (json.dumps(spec.to_dict(), indent=1, sort_keys=True) + "\n").encode())
