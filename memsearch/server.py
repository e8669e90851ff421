"""``memsearch serve``: the index loaded once, searched over loopback HTTP by CLIs and tools.

A fresh ``memsearch search`` process spends most of its time importing the engine, loading the
index and the embedding model; a warm process pays that once. The server listens on 127.0.0.1 only
and answers JSON:

    POST /search   {"query", "k", "now", "territory", "fact_type", "entities", "since", "until",
                    "strategies", "chunks", "explain", "all_results", "vectors"} (one ``--batch``
                   line; "vectors": {modality: [numbers]} finds notebook moments, the query then
                   optional) -> SearchResponse (with its "signal" and "signal_reason")
    POST /update   {"path": "journal/today.md"} -> FileUpdate (keyword, graph and time search see
                   the file at once; the commit and the vectors follow in the background)
    GET  /health   vault, index, commit, chunks, pid, uptime, requests

Access: the server writes ``<index home>/serve.json`` (owner-only, 0600) with its port, pid and a
random token; every request carries ``Authorization: Bearer <token>``, else 401. Other local users
can reach the port but cannot read the token, so they cannot read the owner's memories. Before a
client sends the token it checks the listener: ``POST /challenge {"nonce"}`` (no token) answers
``{"proof": HMAC-SHA256(token, port and nonce)}``, and on Linux the peer socket's uid must be the
user's, so a stale ``serve.json`` whose port another program took never receives the token.

Before each search the server looks at the index repository's HEAD (a few small file reads): a
commit made by another process (a cron ``memsearch reindex``) is loaded then, once.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import os
import secrets
import sys
import threading
import time
import traceback
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from memsearch import __version__
from memsearch.api import open_index
from memsearch.client import (
    CHALLENGE_PATH,
    LOOPBACK,
    BadRequest,
    ServerClient,
    ServerRefused,
    ServerUnavailable,
    challenge_proof,
    discovery_path,
    find_server,
    search_arguments,
)
from memsearch.config import CONFIG_FILENAME, Settings
from memsearch.errors import MemsearchError
from memsearch.index import loading
from memsearch.paths import atomic_write, default_home
from memsearch.scan import check_vault
from memsearch.stops import catch_stops, restore

#: The largest request body accepted (a search request is a few hundred bytes).
MAX_BODY_BYTES = 1 << 20
#: Seconds an idle keep-alive connection holds its thread.
IDLE_SECONDS = 30.0
#: Seconds a shutdown waits for ``update_file``'s background commits.
CLOSE_TIMEOUT = 30.0


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    app: Server

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that went away mid-answer: one line with --verbose, never a traceback.
        exc = sys.exc_info()[1]
        if self.app.verbose:
            self.app.log(f"connection error: {type(exc).__name__}: {exc}")


class _Handler(BaseHTTPRequestHandler):
    server: _HTTPServer
    protocol_version = "HTTP/1.1"  # keep-alive: a batch of searches reuses one connection
    server_version = "memsearch"
    disable_nagle_algorithm = True  # headers and body are two writes: no 40 ms delayed-ACK stall
    timeout = IDLE_SECONDS

    def do_GET(self) -> None:
        self._dispatch("GET")

    def do_POST(self) -> None:
        self._dispatch("POST")

    def do_PUT(self) -> None:
        self._dispatch("PUT")

    def do_DELETE(self) -> None:
        self._dispatch("DELETE")

    def do_PATCH(self) -> None:
        self._dispatch("PATCH")

    def version_string(self) -> str:
        return self.server_version

    def log_message(self, format: str, *args: Any) -> None:
        if self.server.app.verbose:
            self.server.app.log(f"{self.address_string()} {format % args}")

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        pass  # one line per request is written by _dispatch, with its time

    def _dispatch(self, method: str) -> None:
        app = self.server.app
        started = time.perf_counter()
        path = self.path.split("?", 1)[0]
        self._body_consumed = False
        try:
            status, answer = app.handle(method, path, self.headers.get("Authorization"), self._read_body)
        except _HTTPError as exc:
            status, answer = exc.status, {"error": exc.message}
        except Exception as exc:  # a bug: the server keeps running, the client gets a message
            status, answer = 500, {"error": f"internal error ({type(exc).__name__}: {exc})"}
            app.log(f"error in {method} {path}: {type(exc).__name__}: {exc}")
            if app.verbose:
                app.log(traceback.format_exc().rstrip())
        self._send(status, answer)
        if app.verbose:
            ms = (time.perf_counter() - started) * 1000.0
            app.log(f"{method} {path} {status} {ms:.1f} ms")

    def _read_body(self) -> Any:
        """The request's JSON body (400/411/413 with a message if it is not one)."""
        length = self.headers.get("Content-Length")
        if self.headers.get("Transfer-Encoding"):
            raise _HTTPError(411, "send the body with a Content-Length, not chunked")
        if length is None:
            raise _HTTPError(411, "a JSON body with a Content-Length is required")
        try:
            size = int(length)
        except ValueError:
            raise _HTTPError(400, f"Content-Length {length!r} is not a number") from None
        if size < 0:
            raise _HTTPError(400, f"Content-Length {length!r} is not a number")
        if size > MAX_BODY_BYTES:
            raise _HTTPError(413, f"the body is {size} bytes; at most {MAX_BODY_BYTES} are accepted")
        raw = self.rfile.read(size)
        self._body_consumed = True
        try:
            return json.loads(raw)
        except UnicodeDecodeError as exc:
            raise _HTTPError(400, f"the body is not UTF-8 JSON ({exc})") from None
        except ValueError as exc:
            raise _HTTPError(400, f"the body is not valid JSON ({exc})") from None
        except RecursionError:  # json's parser recurses once per bracket
            raise _HTTPError(400, "the body is not valid JSON (nested too deeply)") from None

    def _send(self, status: int, answer: Any) -> None:
        body = json.dumps(answer, ensure_ascii=False).encode("utf-8")
        # Unread body bytes would be parsed as the next request: close the connection instead.
        length = (self.headers.get("Content-Length") or "0").strip()
        has_body = length != "0" or self.headers.get("Transfer-Encoding")
        if has_body and not self._body_consumed:
            self.close_connection = True
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        if status == 401:
            self.send_header("WWW-Authenticate", 'Bearer realm="memsearch"')
        if status == 405:
            self.send_header("Allow", _ROUTES_ALLOW.get(self.path.split("?", 1)[0], "GET, POST"))
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)


_ROUTES_ALLOW = {"/search": "POST", "/update": "POST", "/health": "GET"}


class _HTTPError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class Server:
    """A loaded index behind a loopback HTTP port.

    ``Server(vault).start()`` serves from a background thread (tests, embedding in a program);
    :func:`serve` serves from the calling thread until SIGTERM or Ctrl-C. ``close()`` stops it and
    removes the discovery file.
    """

    host = LOOPBACK

    def __init__(
        self,
        vault: str | Path,
        index_dir: str | Path | None = None,
        port: int = 0,
        *,
        settings: Settings | None = None,
        verbose: bool = False,
        warm: bool = True,
    ) -> None:
        self.verbose = verbose
        self._log_lock = threading.Lock()
        home = Path(index_dir) if index_dir else default_home(check_vault(Path(vault)))
        running = _answering_server(home)
        if running is not None:
            raise MemsearchError(
                f"memsearch serve already runs for the index {home}: pid {running.pid} on"
                f" {running.url}; stop it first (kill {running.pid})"
            )
        self._settings = settings
        # With a warm-up search to come, the model loads while the index does.
        self.engine = open_index(vault, settings, index_dir, preload_embedder=warm)
        self.vault = self.engine.vault
        self._config_stamp = _stat_stamp(self.vault / CONFIG_FILENAME)
        self.index_home = Path(self.engine.index_home)
        self.discovery = discovery_path(self.index_home)
        self.token = secrets.token_urlsafe(32)
        self.pid = os.getpid()
        self.requests = 0
        self._count_lock = threading.Lock()
        self._refresh_lock = threading.Lock()
        self._published = False
        self._thread: threading.Thread | None = None
        self._closed = False
        if warm:
            self._warm()
        try:
            self._httpd = _HTTPServer((LOOPBACK, int(port)), _Handler)
        except OSError as exc:
            self.engine.close(CLOSE_TIMEOUT)
            raise MemsearchError(
                f"cannot listen on {LOOPBACK}:{port} ({exc.strerror or exc}); choose another --port"
                " or 0 for a free one"
            ) from exc
        self._httpd.app = self
        self.started = time.time()
        self._started_monotonic = time.monotonic()

    # -- where ---------------------------------------------------------------------------------------
    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    @property
    def address(self) -> tuple[str, int]:
        host, port = self._httpd.socket.getsockname()[:2]
        return host, port

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    # -- running -------------------------------------------------------------------------------------
    def start(self) -> Server:
        """Publish the discovery file and serve from a daemon thread; returns self."""
        self.publish()
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="memsearch-serve", daemon=True)
        self._thread.start()
        return self

    def publish(self) -> None:
        """Write ``serve.json`` (0600, atomically): how a client finds this server and its token."""
        info = {
            "host": LOOPBACK,
            "port": self.port,
            "pid": self.pid,
            "token": self.token,
            "vault": str(self.vault),
            "started": self.started,
            "version": __version__,
        }
        atomic_write(self.discovery, json.dumps(info, indent=2).encode("utf-8"))
        self._published = True

    def close(self) -> None:
        """Stop serving, remove the discovery file (if it still names us), finish background commits."""
        if self._closed:
            return
        self._closed = True
        self._unpublish()
        if self._thread is not None:
            self._httpd.shutdown()
            self._thread.join()
        self._httpd.server_close()
        self.engine.close(CLOSE_TIMEOUT)

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _unpublish(self) -> None:
        if not self._published:
            return
        self._published = False
        try:
            data = json.loads(self.discovery.read_bytes())
        except (OSError, ValueError):
            return
        if isinstance(data, dict) and data.get("pid") == self.pid and data.get("token") == self.token:
            with contextlib.suppress(FileNotFoundError):
                self.discovery.unlink()

    def log(self, line: str) -> None:
        with self._log_lock:
            print(f"memsearch serve: {line}", file=sys.stderr, flush=True)

    # -- answering -----------------------------------------------------------------------------------
    def handle(
        self, method: str, path: str, authorization: str | None, read_body: Callable[[], Any]
    ) -> tuple[int, Any]:
        """``(status, JSON answer)`` of one request; _HTTPError for a refused one."""
        if path == CHALLENGE_PATH and method == "POST":  # before the token: the client has not sent it
            body = read_body()
            nonce = body.get("nonce") if isinstance(body, dict) else None
            if not isinstance(nonce, str) or not 16 <= len(nonce) <= 128 or not nonce.isascii():
                raise _HTTPError(400, 'nonce: send 16 to 128 ASCII characters as {"nonce": ...}')
            return 200, {"proof": challenge_proof(self.token, self.port, nonce)}
        if not self._authorized(authorization):
            raise _HTTPError(
                401, "missing or wrong token: send the token of serve.json as `Authorization: Bearer <token>`"
            )
        allowed = _ROUTES_ALLOW.get(path)
        if allowed is None:
            raise _HTTPError(404, f"no such endpoint {path}; use POST /search, POST /update or GET /health")
        if method != allowed:
            raise _HTTPError(405, f"{path} takes {allowed}, not {method}")
        with self._count_lock:
            self.requests += 1
        if path == "/health":
            self.fresh()
            return 200, self.health()
        body = read_body()
        if not isinstance(body, dict):
            raise _HTTPError(400, f"the body must be a JSON object (got {type(body).__name__})")
        if path == "/search":
            return self._search(body)
        return self._update(body)

    def _authorized(self, authorization: str | None) -> bool:
        if not authorization or not authorization.startswith("Bearer "):
            return False
        given = authorization[len("Bearer ") :].strip().encode("utf-8", "replace")
        return hmac.compare_digest(given, self.token.encode("utf-8"))

    def _search(self, body: dict[str, Any]) -> tuple[int, Any]:
        try:
            query, k, options = search_arguments(body, strict=True)
        except BadRequest as exc:
            return 400, {"error": str(exc)}
        self.fresh()
        try:
            self.reload_config()
            response = self.engine.search(query, k, **options)
        except MemsearchError as exc:
            return 400, {"error": str(exc)}
        answer = response.to_dict()
        if "id" in body:
            answer = {"id": body["id"], **answer}
        return 200, answer

    def _update(self, body: dict[str, Any]) -> tuple[int, Any]:
        unknown = [key for key in body if key != "path"]
        if unknown:
            return 400, {"error": f"unknown field {unknown[0]!r}; /update takes only path"}
        path = body.get("path")
        if not isinstance(path, str) or not path:
            return 400, {"error": "path: a vault-relative or absolute path of a markdown file is required"}
        try:
            self.reload_config()
            return 200, self.engine.update_file(path).to_dict()
        except MemsearchError as exc:
            return 400, {"error": str(exc)}

    def health(self) -> dict[str, Any]:
        index = self.engine.index
        return {
            "vault": str(self.vault),
            "index": str(self.index_home),
            "commit": self.engine.commit,
            "chunks": len(index.chunks),
            "vectors": len(index.vectors) if index.vectors is not None else 0,
            "pid": self.pid,
            "port": self.port,
            "started": self.started,
            "uptime": round(time.monotonic() - self._started_monotonic, 3),
            "requests": self.requests,
            "version": __version__,
            "last_error": self.engine.last_error,
        }

    def fresh(self) -> bool:
        """Load the index's newest commit if another process made one; True if it did.

        Costs a few small file reads (the repository's HEAD and its ref) when nothing changed. If
        the commit cannot be loaded, the loaded index keeps answering (the next request retries).
        While this engine's own background writer is committing an ``update_file``, nothing is
        loaded: the writer picks up other writers' commits itself, under the index lock.
        """
        head = loading.head_commit(self.index_home)
        if head is None or head == self.engine.commit:
            return False  # None: a rebuild is swapping the repository in; the loaded index answers
        if not self.engine.wait_for_embeddings(0):
            return False
        with self._refresh_lock:
            started = time.perf_counter()
            try:
                changed = self.engine.refresh()
            except Exception as exc:  # the loaded index keeps answering; the next request retries
                self.log(f"loading commit {head[:12]} failed ({type(exc).__name__}: {exc})")
                return False
            if changed and self.verbose:
                ms = (time.perf_counter() - started) * 1000.0
                self.log(f"loaded commit {str(self.engine.commit)[:12]} ({ms:.0f} ms)")
            return changed

    def reload_config(self) -> None:
        """Read the vault's ``memsearch.toml`` again if it changed (one stat when it did not).

        A local search reads it every time; so does this server, when it changed. An unreadable
        file is the ConfigError a local search would give, until it is fixed.
        """
        path = self.vault / CONFIG_FILENAME
        stamp = _stat_stamp(path)
        if stamp == self._config_stamp:
            return
        with self._refresh_lock:
            if stamp == self._config_stamp:
                return
            self.engine.settings = (self._settings or Settings()).with_vault_config(self.vault)
            self._config_stamp = stamp
            if self.verbose:
                self.log(f"read {path} again")

    def _warm(self) -> None:
        """One search at start: the embedding model and the lazy index parts load now, not on the
        first query."""
        try:
            self.engine.search("memsearch serve warm-up", k=1)
        except Exception as exc:  # a warm-up must never stop the server
            if self.verbose:
                self.log(f"warm-up search failed: {type(exc).__name__}: {exc}")


def serve(
    vault: str | Path,
    index_dir: str | Path | None = None,
    port: int = 0,
    ready: Callable[[Server], Any] | None = None,
    *,
    settings: Settings | None = None,
    verbose: bool = False,
) -> None:
    """Serve the vault's index on 127.0.0.1 until SIGTERM, SIGINT, SIGHUP or Ctrl-C (blocking).

    ``ready(server)`` is called once the port listens and ``serve.json`` is written. On a clean
    shutdown the discovery file is removed (if it still names this process).
    """
    server = Server(vault, index_dir, port, settings=settings, verbose=verbose)
    previous = catch_stops(_stop)  # SIGHUP too: killed by it, the server left its discovery file
    try:
        server.publish()
        if ready is not None:
            ready(server)
        server._httpd.serve_forever()
    except (KeyboardInterrupt, _Stop):
        pass
    finally:
        restore(previous)
        server.close()


class _Stop(BaseException):
    """A stop signal (:data:`memsearch.stops.STOPS`): leave serve_forever, clean up, return (its
    pending commits finished, its discovery file removed)."""


def _stop(signum: int, frame: Any) -> None:
    raise _Stop(signum)


def _answering_server(home: Path) -> Any:
    """The server the discovery file in ``home`` names, if it answers with that file's token."""
    info = find_server(home)
    if info is None:
        return None
    try:
        with ServerClient(info, timeout=2.0) as client:
            client.health()
    except (ServerUnavailable, ServerRefused):  # stale: a dead server's file, a reused pid, ...
        return None
    return info


def _stat_stamp(path: Path) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size, st.st_ino
