"""A loopback stand-in for an Ollama server, for tests. It is NOT Ollama.

No Ollama server can be installed on the machines these tests run on, so this module serves the
two endpoints memsearch uses, as Ollama documents them (docs/api.md, "Generate Embeddings" and
"List Local Models"), over real HTTP on 127.0.0.1, so the backend is driven through the real
``ollama`` Python client and httpx, with real sockets, status codes, timeouts and disconnects:

- ``POST /api/embed`` ``{model, input: str | [str], truncate?, dimensions?, keep_alive?, options?}``
  -> ``{model, embeddings: [[float]], total_duration, load_duration, prompt_eval_count}``;
  an unknown model -> 404 ``{"error": "model \\"x\\" not found, try pulling it first"}``;
  an input over the context with ``truncate: false`` -> 400
  ``{"error": "the input length exceeds the context length"}``.
- ``GET /api/tags`` -> ``{models: [{name, model, modified_at, size, digest, details}]}``.

The vectors are real: each input is embedded on its own (so a vector never depends on its
batch) by the built-in all-MiniLM-L6-v2 (384 dimensions). ``all-minilm`` is served as is (it
is the model Ollama serves under that name); ``nomic-embed-text`` is served as MiniLM's vector
followed by 384 zeros, so it has the 768 dimensions of the real model (the meaning is MiniLM's,
not nomic's; the protocol, the shapes and the prefixes are what is under test). The context is
MiniLM's 256 tokens, counted with its tokenizer.

Faults a test can switch on: ``mode`` = ``"ok"``, ``"error500"`` (HTTP 500 like a crashed
runner), ``"hang"`` (sleeps before answering), ``"wrong_dim"`` (vectors one value short),
``"garbage"`` (200 with a body that is not the format); ``kill_after=N`` (after N embed requests
the server dies: the request in flight is dropped unanswered and the port refuses connections
until :meth:`StandIn.restart`).
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np

from memsearch.embedders.minilm import MiniLMEmbedder
from memsearch.embedders.registry import get_embedder

CONTEXT_TOKENS = 256
MODELS = {"nomic-embed-text:latest": 768, "all-minilm:latest": 384}


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client that hung up on a hanging or dying server is the point of the test


def _full(name: str) -> str:
    return name if ":" in name else f"{name}:latest"


class StandIn:
    """One stand-in server; ``host`` is its ``http://127.0.0.1:PORT``."""

    def __init__(self, models: dict[str, int] | None = None, context_tokens: int = CONTEXT_TOKENS) -> None:
        self.models = dict(MODELS if models is None else models)
        self.context_tokens = context_tokens
        self.mode = "ok"
        self.hang_seconds = 30.0
        self.kill_after: int | None = None
        self.embed_requests = 0  # /api/embed requests answered or dropped
        self.inputs_embedded = 0  # texts embedded
        self.bodies: list[dict[str, Any]] = []  # every /api/embed request body, in order
        self._lock = threading.Lock()
        self._release = threading.Event()  # ends a "hang" early at stop()
        self._minilm: MiniLMEmbedder = get_embedder("minilm")  # type: ignore[assignment]
        self._port = 0
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._dying: threading.Thread | None = None
        self.start()

    # -- lifetime ----------------------------------------------------------------------------------

    @property
    def host(self) -> str:
        return f"http://127.0.0.1:{self._port}"

    def start(self) -> None:
        handler = type("Handler", (_Handler,), {"standin": self})
        server = _Server(("127.0.0.1", self._port), handler)
        self._port = server.server_address[1]
        self._server = server
        self._release.clear()
        self._thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
        self._thread.daemon = True
        self._thread.start()

    def stop(self) -> None:
        self._release.set()
        if self._dying is not None:  # a killed server: wait until its port is closed
            self._dying.join(10)
            self._dying = None
        server, self._server = self._server, None
        if server is not None:
            server.shutdown()
            server.server_close()
        if self._thread is not None:
            self._thread.join(5)

    def restart(self, mode: str = "ok") -> None:
        """The server is back, on the same port, healthy."""
        self.stop()
        self.mode, self.kill_after = mode, None
        self.start()

    @property
    def alive(self) -> bool:
        return self._server is not None

    def _die(self) -> None:
        server, self._server = self._server, None
        if server is not None:
            # shutdown() waits for serve_forever to return: not from a handler's own thread.
            def down() -> None:
                server.shutdown()
                server.server_close()

            self._dying = threading.Thread(target=down, daemon=True)
            self._dying.start()

    # -- the model ---------------------------------------------------------------------------------

    def vector(self, model: str, text: str) -> list[float]:
        base = self._minilm.embed_documents([text])[0]
        dim = self.models[model]
        out = np.zeros(dim, dtype=np.float32)
        out[: min(dim, base.size)] = base[:dim]
        if self.mode == "wrong_dim":
            out = out[:-1]
        return [float(x) for x in out]


class _Handler(BaseHTTPRequestHandler):
    standin: StandIn
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def _send(self, status: int, payload: Any) -> None:
        body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        s = self.standin
        if s._server is None:
            self.close_connection = True
            return
        if self.path != "/api/tags":
            self._send(404, {"error": "404 page not found"})
            return
        models = [
            {
                "name": name,
                "model": name,
                "modified_at": "2025-03-01T10:00:00.000000+00:00",
                "size": 274302450,
                "digest": "0a109f422b47e3a30ba2b10eca18548e944e8a23073ee3f3e947efcf3c45e59f",
                "details": {"format": "gguf", "family": "bert", "parameter_size": "137M"},
            }
            for name in s.models
        ]
        self._send(200, {"models": models})

    def do_POST(self) -> None:
        s = self.standin
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        if self.path != "/api/embed":
            self._send(404, {"error": "404 page not found"})
            return
        with s._lock:
            if s._server is None:  # dead: drop the request unanswered
                self.close_connection = True
                return
            s.embed_requests += 1
            if s.kill_after is not None and s.embed_requests > s.kill_after:
                s._die()
                self.close_connection = True
                return
            mode = s.mode
        try:
            body = json.loads(raw)
        except ValueError:
            self._send(400, {"error": "invalid JSON"})
            return
        s.bodies.append(body)
        if mode == "hang":
            s._release.wait(s.hang_seconds)
        if mode == "error500":
            self._send(500, {"error": "llama runner process has terminated: signal: killed"})
            return
        if mode == "garbage":
            self._send(200, b'{"models": "this is not an embed answer"}')
            return
        model = _full(str(body.get("model", "")))
        if model not in s.models:
            self._send(404, {"error": f'model "{body.get("model")}" not found, try pulling it first'})
            return
        inputs = body.get("input", "")
        inputs = [inputs] if isinstance(inputs, str) else list(inputs)
        tokens = [s._minilm.count_tokens(t) for t in inputs]
        if body.get("truncate") is False and any(n > s.context_tokens for n in tokens):
            self._send(400, {"error": "the input length exceeds the context length"})
            return
        started = time.perf_counter_ns()
        vectors = [s.vector(model, t) for t in inputs]
        dims = body.get("dimensions")
        if dims:
            cut = [np.asarray(v[:dims], dtype=np.float32) for v in vectors]
            vectors = [[float(x) for x in v / max(np.linalg.norm(v), 1e-12)] for v in cut]
        s.inputs_embedded += len(inputs)
        self._send(
            200,
            {
                "model": body.get("model"),
                "embeddings": vectors,
                "total_duration": time.perf_counter_ns() - started,
                "load_duration": 1000,
                "prompt_eval_count": sum(min(n, s.context_tokens) for n in tokens),
            },
        )
