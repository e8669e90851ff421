"""Talk to a running ``memsearch serve``: find it, send it a search, and fall back to the index
loaded here when it does not answer (:class:`WarmSearch`). The standard library only, and memsearch's
light ground (errors, paths).

This module is imported by the CLI's fast path, before anything heavy: it must import in a few
milliseconds (no numpy, no engine modules). ``http.client``, ``socket``, ``struct``, ``hmac`` and
``hashlib`` are imported inside the functions that talk to a server, once one is found: together
~20 ms of ``python -X importtime`` that ``--help`` and a search with no server never need.

>>> info = find_server(Path("~/vault/.memsearch").expanduser())
>>> if info is not None:
...     search_via_server(info, {"query": "signing keys", "k": 5})["results"]
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, NamedTuple

from memsearch import __version__
from memsearch.errors import MemsearchError
from memsearch.paths import IndexLayout, default_home, resolved_vault

#: The only address a server listens on and a client talks to.
LOOPBACK = "127.0.0.1"
#: Seconds a client waits for a server before it searches locally instead.
DEFAULT_TIMEOUT = 10.0

#: The fields of one search request: a line of ``memsearch search --batch``, a ``POST /search`` body.
SEARCH_KEYS = (
    "query",
    "k",
    "now",
    "territory",
    "fact_type",
    "entities",
    "since",
    "until",
    "strategies",
    "chunks",
    "explain",
    "all_results",
    "vectors",
)
DEFAULT_K = 10  # memsearch.config.DEFAULT_K (not imported: that module costs milliseconds)
#: The endpoint where a server proves it holds the token before a client sends it (no token needed).
CHALLENGE_PATH = "/challenge"


def challenge_proof(token: str, port: int, nonce: str) -> str:
    """What a server holding ``token`` answers to ``nonce`` on ``port``: HMAC-SHA256, hex.

    The port is part of it, so a listener relaying the challenge to the real server (on its own
    port) gets a proof that does not match the port the client connected to.
    """
    import hashlib
    import hmac

    message = f"memsearch-serve-proof:{port}:{nonce}".encode()
    return hmac.new(token.encode("utf-8"), message, hashlib.sha256).hexdigest()


def peer_uid(sock: Any) -> int | None:
    """The uid owning the other end of a loopback TCP connection (Linux: ``/proc/net/tcp``), or
    None where that cannot be read (then the challenge alone decides)."""
    import socket
    import struct

    try:
        here = sock.getsockname()
        there = sock.getpeername()
    except OSError:
        return None

    def hexaddr(addr: tuple[str, int]) -> str:
        (n,) = struct.unpack("=I", socket.inet_aton(addr[0]))
        return f"{n:08X}:{addr[1]:04X}"

    want_local, want_remote = hexaddr(there), hexaddr(here)
    try:
        with open("/proc/net/tcp", encoding="ascii") as f:
            next(f, None)
            for line in f:
                fields = line.split()
                if len(fields) > 7 and fields[1] == want_local and fields[2] == want_remote:
                    return int(fields[7])
    except (OSError, ValueError):
        return None
    return None


class ServerInfo(NamedTuple):
    """What a server's discovery file says about it."""

    host: str
    port: int
    pid: int
    token: str
    vault: str
    started: float
    version: str | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"


class ServerUnavailable(Exception):
    """The server did not answer usably (refused, timed out, wrong token, 5xx, garbled answer)."""


class ServerRefused(Exception):
    """The server answered 400: the request itself is wrong; the message says what (names the field)."""


class BadRequest(ValueError):
    """A search request field is missing or has the wrong type; the message names the field."""


def discovery_path(index_home: str | Path) -> Path:
    """The file a server writes into its index home (owner-only: it holds the token)."""
    return IndexLayout(Path(index_home)).server_file


def read_discovery(index_home: str | Path) -> ServerInfo | None:
    """The discovery file's contents, or None if it is missing, not ours, or not well-formed."""
    path = discovery_path(index_home)
    try:
        with open(path, "rb") as f:
            if hasattr(os, "getuid") and os.fstat(f.fileno()).st_uid != os.getuid():
                return None  # written by someone else: never send them our queries
            data = json.loads(f.read())
        info = ServerInfo(
            host=data["host"],
            port=data["port"],
            pid=data["pid"],
            token=data["token"],
            vault=data["vault"],
            started=data.get("started", 0.0),
            version=data.get("version"),
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if (
        info.host != LOOPBACK
        or not _whole(info.port)
        or not 0 < info.port < 65536
        or not _whole(info.pid)
        or info.pid <= 0
        or not isinstance(info.token, str)
        or not info.token
        or not isinstance(info.vault, str)
    ):
        return None
    return info


def pid_alive(pid: int) -> bool:
    """Whether ``pid`` is a live process of this user."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return False  # alive, but another user's: not our server
    except (OSError, OverflowError):  # OverflowError: a garbled state file's pid past a C long
        return False
    return True


def find_server(index_home: str | Path) -> ServerInfo | None:
    """The server serving the index at ``index_home``, if its discovery file names a live process.

    A stale file (the server died without removing it) gives None. A live pid is no proof that the
    server answers: a caller falls back to searching locally when a request fails.
    """
    info = read_discovery(index_home)
    if info is None or not pid_alive(info.pid):
        return None
    return info


class ServerClient:
    """One keep-alive connection to a server (a batch of searches reuses it).

    Nothing of the user's (the token, a query) is sent on a connection before the process behind
    it has shown it is the server of ``serve.json``: its socket is this user's (where the peer's
    uid can be read) and it answers a random challenge with the token's HMAC (a stale
    ``serve.json`` whose port another program took gets nothing but the challenge). A connection
    made again later (keep-alive closed) is checked again.
    """

    def __init__(self, info: ServerInfo, timeout: float = DEFAULT_TIMEOUT) -> None:
        import http.client

        self.info = info
        self._http = http.client
        self._conn = http.client.HTTPConnection(info.host, info.port, timeout=timeout)
        self._verified: Any = None  # the socket that passed the check
        self._headers = {
            "Authorization": f"Bearer {info.token}",
            "Content-Type": "application/json",
            "Accept": "application/json",
        }

    def request(self, method: str, path: str, body: Mapping[str, Any] | None = None) -> tuple[int, Any]:
        """``(status, decoded JSON answer)``; ServerUnavailable if there is no usable answer."""
        payload = None if body is None else json.dumps(body, ensure_ascii=False).encode("utf-8")
        if self._conn.sock is None or self._conn.sock is not self._verified:
            self._verify()
        try:
            self._conn.request(method, path, body=payload, headers=self._headers)
            response = self._conn.getresponse()
            raw = response.read()
            status = response.status
        except (OSError, self._http.HTTPException) as exc:
            self.close()
            raise ServerUnavailable(f"{self.info.url} did not answer ({type(exc).__name__}: {exc})") from exc
        try:
            data = json.loads(raw)
        except ValueError as exc:
            raise ServerUnavailable(f"{self.info.url} answered {status} with something not JSON") from exc
        return status, data

    def _verify(self) -> None:
        """Connect and check the process behind the port is our server; ServerUnavailable if not."""
        import hmac

        url = self.info.url
        try:
            if self._conn.sock is None:
                self._conn.connect()
        except OSError as exc:
            self.close()
            raise ServerUnavailable(f"{url} did not answer ({type(exc).__name__}: {exc})") from exc
        uid = peer_uid(self._conn.sock)
        if uid is not None and hasattr(os, "getuid") and uid != os.getuid():
            self.close()
            raise ServerUnavailable(
                f"{url} is not the memsearch server of serve.json: another user's process (uid {uid})"
                " listens there; nothing was sent to it"
            )
        nonce = os.urandom(16).hex()
        body = json.dumps({"nonce": nonce}).encode()
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        try:
            self._conn.request("POST", CHALLENGE_PATH, body=body, headers=headers)
            response = self._conn.getresponse()
            raw = response.read(4096)
            status = response.status
        except (OSError, self._http.HTTPException) as exc:
            self.close()
            raise ServerUnavailable(f"{url} did not answer ({type(exc).__name__}: {exc})") from exc
        try:
            proof = json.loads(raw).get("proof") if status == 200 else None
        except (ValueError, AttributeError):
            proof = None
        expected = challenge_proof(self.info.token, self.info.port, nonce)
        if not isinstance(proof, str) or not hmac.compare_digest(proof.encode(), expected.encode()):
            self.close()
            raise ServerUnavailable(
                f"{url} is not the memsearch server of serve.json (it did not prove it holds the"
                " token; serve.json is stale or its port was taken): the token and the query were"
                " not sent"
            )
        if self._conn.sock is None:  # it answered, then closed: the next connection is checked anew
            raise ServerUnavailable(f"{url} closed the connection after the challenge")
        self._verified = self._conn.sock

    def call(self, method: str, path: str, body: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The answer of a 200; ServerRefused on 400 (the request is wrong), else ServerUnavailable."""
        status, data = self.request(method, path, body)
        if status == 200 and isinstance(data, dict):
            return data
        error = data.get("error") if isinstance(data, dict) else None
        if status == 400 and isinstance(error, str):
            raise ServerRefused(error)
        raise ServerUnavailable(f"{self.info.url} answered {status}: {error or data!r}")

    def search(self, request: Mapping[str, Any]) -> dict[str, Any]:
        """``POST /search``: the SearchResponse as a dict (``to_dict()``)."""
        return self.call("POST", "/search", request)

    def update(self, path: str) -> dict[str, Any]:
        """``POST /update``: the FileUpdate as a dict."""
        return self.call("POST", "/update", {"path": path})

    def health(self) -> dict[str, Any]:
        return self.call("GET", "/health")

    def close(self) -> None:
        self._conn.close()
        self._verified = None

    def __enter__(self) -> ServerClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def search_via_server(
    info: ServerInfo, request: Mapping[str, Any], timeout: float = DEFAULT_TIMEOUT
) -> dict[str, Any]:
    """One search through the server: the SearchResponse as a dict.

    ServerRefused: the request is wrong (the server's message); ServerUnavailable: no usable answer
    (search locally instead).
    """
    with ServerClient(info, timeout) as client:
        return client.search(request)


def warm_client(vault: str | Path, index_dir: str | Path | None = None) -> ServerClient | None:
    """A client of the ``memsearch serve`` that serves this vault's index (the same vault, the same
    memsearch version), or None. Imports nothing heavy; a live pid is no proof it answers."""
    folder = resolved_vault(vault)
    if folder is None:
        return None  # the local search says what is wrong with the vault
    info = find_server(Path(index_dir) if index_dir else default_home(folder))
    if info is None or info.vault != str(folder) or info.version != __version__:
        return None
    return ServerClient(info)


class WarmSearch:
    """Searches through the vault's running server while it answers; once it does not (or with no
    ``client``), through the index ``open_local()`` loads here, loaded once.

    ``search(query, k, options)`` gives ``SearchResponse.to_dict()`` either way (``options``: the
    keyword arguments of :meth:`memsearch.api.Memsearch.search`, as JSON values). A request the
    server refuses raises the MemsearchError a local search would give, and nothing is loaded.
    """

    def __init__(self, client: Any, open_local: Callable[[], Any]) -> None:
        self.client = client
        self.open_local = open_local
        self.engine: Any = None

    def __call__(self, query: str | None, k: int, options: Mapping[str, Any]) -> dict[str, Any]:
        if self.engine is None and self.client is not None:
            try:
                return self.client.search({"query": query, "k": k, **options})
            except ServerRefused as exc:  # the request itself is wrong: the same error a local search gives
                raise MemsearchError(str(exc)) from None
            except ServerUnavailable:
                self.close()
        if self.engine is None:
            self.engine = self.open_local()
        return self.engine.search(query, k, **options).to_dict()

    def close(self) -> None:
        """Close the connection to the server (a search after this is local)."""
        if self.client is not None:
            self.client.close()
            self.client = None


def search_arguments(
    request: Mapping[str, Any], default_k: int = DEFAULT_K, *, strict: bool = False
) -> tuple[str | None, int, dict[str, Any]]:
    """``(query, k, options)`` of a search request, its types checked: BadRequest names the field.

    ``options`` are the keyword arguments of :meth:`memsearch.api.Memsearch.search`. ``strict``:
    a field that is not one of :data:`SEARCH_KEYS` or ``id`` (a typo such as ``fact-type``) is an
    error too. With ``vectors`` (``{modality: [numbers]}``) the query may be left out (None): the
    vectors alone are searched; the engine checks their modalities and dimensions.
    """
    if strict:
        unknown = [key for key in request if key not in SEARCH_KEYS and key != "id"]
        if unknown:
            raise BadRequest(f"unknown field {unknown[0]!r}; the fields are {', '.join(SEARCH_KEYS)}")
    vectors = query_vectors_field(request.get("vectors"))
    query = request.get("query")
    if query is None and not vectors:
        raise BadRequest("query: missing; say what you are looking for (or give vectors)")
    if query is not None and not isinstance(query, str):
        raise BadRequest(f"query must be a string (got {type(query).__name__})")
    k = request.get("k", default_k)
    if k is None:
        k = default_k
    if not _whole(k) or k < 1:
        raise BadRequest(f"k must be a positive whole number (got {k!r})")
    options: dict[str, Any] = {}
    for key in ("now", "since", "until", "territory", "fact_type"):
        value = request.get(key)
        if value is not None and not isinstance(value, str):
            kind = "an ISO date string" if key in ("now", "since", "until") else "a string"
            raise BadRequest(f"{key} must be {kind} (got {type(value).__name__})")
        options[key] = value
    for key in ("entities", "strategies"):
        value = request.get(key)
        if isinstance(value, str):
            value = [value]
        if value is not None and (
            not isinstance(value, list) or not all(isinstance(item, str) for item in value)
        ):
            raise BadRequest(f"{key} must be a list of strings (got {type(value).__name__})")
        options[key] = value or None
    for key in ("chunks", "explain", "all_results"):
        value = request.get(key)
        if value is not None and not isinstance(value, bool):
            raise BadRequest(f"{key} must be true or false (got {type(value).__name__})")
        options[key] = bool(value)
    if vectors:  # only when given: the options stay those of a text search otherwise
        options["vectors"] = vectors
    return query, int(k), options


def query_vectors_field(value: Any) -> dict[str, list[float]] | None:
    """The ``vectors`` field of a request: ``{modality: [numbers]}`` as JSON carries it, or None
    (absent, null or ``{}``); BadRequest naming the field and the modality otherwise. Plain
    Python (no numpy): the fast path imports none; names and dimensions are the engine's to check
    (its messages are those of a local search)."""
    if value is None or value == {}:
        return None
    if not isinstance(value, Mapping):
        raise BadRequest(
            f'vectors must be an object of modality to a list of numbers, e.g. {{"audio": [0.1, 0.2]}}'
            f" (got {type(value).__name__})"
        )
    out: dict[str, list[float]] = {}
    for modality, numbers in value.items():
        if not isinstance(modality, str) or not modality:
            raise BadRequest(f"vectors: {modality!r} is not a modality name (e.g. audio)")
        if not isinstance(numbers, list) or not numbers:
            raise BadRequest(
                f"vectors.{modality} must be a non-empty list of numbers (got {type(numbers).__name__})"
            )
        odd = [i for i, x in enumerate(numbers) if not isinstance(x, int | float) or isinstance(x, bool)]
        if odd:
            raise BadRequest(
                f"vectors.{modality} must be a list of numbers (its item {odd[0]} is {numbers[odd[0]]!r})"
            )
        out[modality] = [float(x) for x in numbers]
    return out


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
