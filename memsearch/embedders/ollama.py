"""nomic-embed-text (or another embedding model) served by Ollama, through the official ``ollama`` client.

Spec: ``ollama`` (nomic-embed-text, 768 dimensions), ``ollama:nomic-embed-text:256`` (Matryoshka:
768, 512, 256, 128 or 64), ``ollama:MODEL[:TAG][:DIM]`` (a final all-digit part is the dimension;
a model this module does not know needs it, e.g. ``ollama:my-embedder:1024``).

What is sent, and why:

- **Task prefixes.** nomic-embed-text was trained with them: chunks are embedded as
  ``search_document: <text>``, queries as ``search_query: <text>``.
- **The full vector, truncated here.** ``/api/embed`` is asked for the model's native vector
  (no ``dimensions`` field: older servers ignore it), which is cut to the first ``dim``
  values and scaled back to norm 1 (Matryoshka truncation). An answer whose length is not the
  model's native dimension means another model answered: it is an error, never truncated.
- **No silent truncation.** Requests carry ``truncate: false``, so a text longer than the
  model's context is refused rather than cut. A refused batch is halved until the culprit is
  alone; a text refused alone is split at its best break near the middle (blank line, line,
  sentence, space), each half is embedded (recursively, if still too long), and the text's
  vector is the length-weighted mean of its pieces' vectors: every character counts, none is
  dropped. (nomic-embed-text's context in Ollama is 2,048 tokens; memsearch chunks are at
  most ~1,500 characters, so this only happens for dense or over-long text.)
- **Batches** of ``batch_size`` texts per request (default 32), each under a timeout
  (``timeout``, default 120 s, for indexing; ``query_timeout``, default 10 s, for a search,
  enforced as a wall-clock deadline so a hung server never holds a search longer).

Failures are :class:`~memsearch.errors.EmbedderError`; server down, hung, model not pulled, or a
wrong model are :class:`~memsearch.embedders.base.EmbedderUnavailableError` (stop, record gaps), and
every message says what to do next.

The fingerprint covers model, tag, native and output dimension, prefixes, truncation and
long-text handling, not the host: the same model gives the same vectors anywhere. It does
not cover the model's digest (that would need the server to compute a fingerprint); after
``ollama pull`` brings new weights under the same name, run ``memsearch index --reembed``.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from memsearch.embedders.base import (
    EmbedderUnavailableError,
    ProgressFn,
    call_with_deadline,
    make_fingerprint,
)
from memsearch.errors import EmbedderError

#: Where Ollama listens unless ``host`` or ``$OLLAMA_HOST`` says otherwise.
DEFAULT_HOST = "http://localhost:11434"
HOST_ENV = "OLLAMA_HOST"
DEFAULT_MODEL = "nomic-embed-text"
#: Seconds one indexing request may take: a batch of 32 long chunks on a CPU, plus a cold
#: load of the model into memory, fits well inside it; a hung server costs at most this once.
DEFAULT_TIMEOUT = 120.0
#: Seconds a search waits for its query vector before answering with the other strategies:
#: enough for a cold model load, short enough that an agent is never stuck on it.
DEFAULT_QUERY_TIMEOUT = 10.0
#: Seconds to open a connection (a local server accepts or refuses at once).
CONNECT_TIMEOUT = 5.0
#: Texts per /api/embed request; each request's vectors are cached as soon as it returns.
DEFAULT_BATCH_SIZE = 32
#: A text refused as too long is split no further than this (a model that refuses 32
#: characters is misconfigured, not faced with a long text).
MIN_SPLIT_CHARS = 32


@dataclass(frozen=True)
class ModelCard:
    """What memsearch knows about an embedding model Ollama serves."""

    native_dim: int
    dims: tuple[int, ...]  # output dimensions allowed (Matryoshka truncations), native first
    document_prefix: str = ""
    query_prefix: str = ""


#: Models by name without tag. nomic-embed-text v1.5: 768 dims, Matryoshka-trained down to 64,
#: task prefixes from its model card. all-minilm: the same all-MiniLM-L6-v2 as the built-in one.
MODELS: dict[str, ModelCard] = {
    "nomic-embed-text": ModelCard(768, (768, 512, 256, 128, 64), "search_document: ", "search_query: "),
    "all-minilm": ModelCard(384, (384,)),
}


def full_model_name(model: str) -> str:
    """``nomic-embed-text`` -> ``nomic-embed-text:latest`` (how Ollama lists a pulled model)."""
    return model if ":" in model.rsplit("/", 1)[-1] else f"{model}:latest"


def parse_option(option: str) -> tuple[str, int | None]:
    """``"nomic-embed-text:v1.5:256"`` -> ``("nomic-embed-text:v1.5", 256)``; ``""`` -> default model."""
    option = option.strip()
    if not option:
        return DEFAULT_MODEL, None
    head, sep, last = option.rpartition(":")
    if sep and last.isdigit():
        return head or DEFAULT_MODEL, int(last)
    if option.isdigit():  # "ollama:256"
        return DEFAULT_MODEL, int(option)
    return option, None


def ollama_from_spec(option: str, **options: Any) -> OllamaEmbedder:
    """The factory behind ``get_embedder("ollama[:MODEL[:TAG]][:DIM]")``."""
    model, dim = parse_option(option)
    return OllamaEmbedder(model, dim, **options)


def resolve_host(host: str | None = None) -> str:
    """``host``, else ``$OLLAMA_HOST``, else the default, as the ollama client will use it."""
    chosen = (host or os.environ.get(HOST_ENV) or DEFAULT_HOST).strip()
    try:  # the client's own parser, so the host shown is the one it will use
        from ollama._client import _parse_host
    except ImportError:  # pragma: no cover - a client version without it
        return chosen if "://" in chosen else f"http://{chosen}"
    return _parse_host(chosen)


class _TooLong(EmbedderError):
    """Ollama refused an input as longer than the model's context."""


class OllamaEmbedder:
    """An embedding model served by Ollama's ``/api/embed``.

    ``native_dim`` is the length of the vectors the server returns (known for the models in
    :data:`MODELS`; otherwise ``dim``); ``dim`` is what memsearch keeps (a Matryoshka
    truncation of the native vector, re-normalised). ``document_prefix`` / ``query_prefix``
    default to the model card's. Thread-safe: the ollama clients (httpx) may be shared.
    """

    name = "ollama"
    backend = "ollama"
    normalization = "l2"

    def __init__(
        self,
        model: str = DEFAULT_MODEL,
        dim: int | None = None,
        *,
        native_dim: int | None = None,
        document_prefix: str | None = None,
        query_prefix: str | None = None,
        host: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        query_timeout: float = DEFAULT_QUERY_TIMEOUT,
        batch_size: int = DEFAULT_BATCH_SIZE,
        keep_alive: float | str | None = None,
    ) -> None:
        model = model.strip()
        if not model:
            raise EmbedderError("the ollama embedder needs a model name, e.g. ollama:nomic-embed-text")
        card = MODELS.get(model.split(":", 1)[0])
        if native_dim is None:
            if card is not None:
                native_dim = card.native_dim
            elif dim is not None:
                native_dim = dim
            else:
                raise EmbedderError(
                    f"memsearch does not know the dimension of Ollama model {model!r}; name it in the"
                    f" spec: ollama:{model}:DIM (known models: {', '.join(sorted(MODELS))})"
                )
        dim = native_dim if dim is None else dim
        allowed = card.dims if card is not None and card.native_dim == native_dim else (native_dim,)
        if dim not in allowed:
            choices = ", ".join(str(d) for d in allowed)
            raise EmbedderError(
                f"Ollama model {model!r} gives {native_dim} dimensions; {dim} is not one memsearch can"
                f" keep (choose {choices}), e.g. ollama:{model}:{allowed[0]}"
            )
        for what, value in (("timeout", timeout), ("query_timeout", query_timeout)):
            if not isinstance(value, int | float) or value <= 0:
                raise EmbedderError(f"the ollama {what} must be a positive number of seconds, got {value!r}")
        if not isinstance(batch_size, int) or batch_size < 1:
            raise EmbedderError(f"the ollama batch_size must be a positive whole number, got {batch_size!r}")
        self.model = model
        self.native_dim = int(native_dim)
        self.dim = int(dim)
        document_prefix = card.document_prefix if document_prefix is None and card else document_prefix
        query_prefix = card.query_prefix if query_prefix is None and card else query_prefix
        self.document_prefix = document_prefix or ""
        self.query_prefix = query_prefix or ""
        self.host = resolve_host(host)
        self.timeout = float(timeout)
        self.query_timeout = float(query_timeout)
        self.batch_size = batch_size
        #: embed_with_cache hands over this many texts per call, so each request's vectors
        #: are cached as soon as it returns and a failure part-way keeps them.
        self.call_size = batch_size
        self.keep_alive = keep_alive
        self._lock = threading.Lock()
        self._clients: dict[float, Any] = {}
        #: Requests sent and texts split because they were too long for the model (for reports and tests).
        self.requests = 0
        self.split_texts = 0

    @property
    def spec(self) -> str:
        """The canonical spec: ``get_embedder(spec)`` makes an embedder of the same fingerprint."""
        return f"ollama:{self.model}:{self.dim}"

    @property
    def fingerprint(self) -> str:
        return make_fingerprint(
            backend=self.backend,
            model=full_model_name(self.model),
            native_dim=self.native_dim,
            dim=self.dim,
            document_prefix=self.document_prefix,
            query_prefix=self.query_prefix,
            truncation="matryoshka-prefix-renormalised",
            normalization=self.normalization,
            long_text="split-length-weighted-mean",
        )

    def describe(self) -> dict[str, Any]:
        """What the manifest and ``memsearch doctor`` show about this embedder."""
        return {
            "backend": self.backend,
            "model": self.model,
            "native_dim": self.native_dim,
            "dim": self.dim,
            "document_prefix": self.document_prefix,
            "query_prefix": self.query_prefix,
            "host": self.host,
        }

    def __repr__(self) -> str:
        return f"OllamaEmbedder({self.spec!r}, host={self.host!r}, fingerprint={self.fingerprint!r})"

    # -- the protocol ------------------------------------------------------------------------------

    def embed_documents(self, texts: Sequence[str], progress: ProgressFn | None = None) -> np.ndarray:
        """float32 ``(len(texts), dim)``, unit rows, in input order; one request per ``batch_size`` texts."""
        if isinstance(texts, str):
            raise TypeError("embed_documents takes a sequence of texts, not one str")
        texts = list(texts)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        client = self._client(self.timeout)
        for start in range(0, len(texts), self.batch_size):
            part = texts[start : start + self.batch_size]
            native = self._embed_fitting(part, self.document_prefix, client)
            out[start : start + len(part)] = self._finish(native)
            if progress is not None:
                progress(start + len(part), len(texts))
        return out

    def embed_query(self, text: str) -> np.ndarray:
        """float32 ``(dim,)``, unit norm; never waits longer than ``query_timeout`` seconds."""

        def run() -> np.ndarray:
            client = self._client(self.query_timeout)
            return self._finish(self._embed_fitting([text], self.query_prefix, client))[0]

        return call_with_deadline(run, self.query_timeout, f"Ollama at {self.host} (query embedding)")

    # -- health ------------------------------------------------------------------------------------

    def pulled_models(self, timeout: float = CONNECT_TIMEOUT) -> list[str]:
        """The models the server has (``/api/tags``), e.g. ``["nomic-embed-text:latest"]``."""
        client = self._client(timeout)
        answer = self._call(lambda: client.list(), f"listing models ({timeout:g} s)")
        return sorted(str(m.model) for m in answer.models if m.model)

    def is_pulled(self, models: Sequence[str]) -> bool:
        return full_model_name(self.model) in {full_model_name(m) for m in models}

    @property
    def pull_command(self) -> str:
        return f"ollama pull {self.model}"

    # -- internals ---------------------------------------------------------------------------------

    def _client(self, timeout: float) -> Any:
        with self._lock:
            client = self._clients.get(timeout)
            if client is None:
                import httpx
                import ollama

                limits = httpx.Timeout(timeout, connect=min(CONNECT_TIMEOUT, timeout))
                client = self._clients[timeout] = ollama.Client(host=self.host, timeout=limits)
            return client

    def _call(self, fn: Any, what: str) -> Any:
        """``fn()`` with every failure of the transport or the server turned into an EmbedderError."""
        import httpx
        import ollama
        import pydantic

        self.requests += 1
        try:
            return fn()
        except ollama.ResponseError as exc:
            message = str(exc.error)
            if "context length" in message.lower():
                raise _TooLong(message) from None
            if exc.status_code == 404 and "not found" in message.lower():
                raise EmbedderUnavailableError(
                    f"Ollama at {self.host} does not have model {self.model!r} ({message});"
                    f" pull it with: {self.pull_command}"
                ) from None
            raise EmbedderError(
                f"Ollama at {self.host} refused {what}: {message} (HTTP {exc.status_code});"
                " see the Ollama server log (`journalctl -u ollama` or ~/.ollama/logs)"
            ) from None
        except ConnectionError:
            raise EmbedderUnavailableError(
                f"Ollama does not answer at {self.host}; start it (`ollama serve`) or point"
                f" ${HOST_ENV} or [ollama] host in memsearch.toml at the right server"
            ) from None
        except httpx.TimeoutException as exc:
            raise EmbedderUnavailableError(
                f"Ollama at {self.host} did not answer {what} in time ({type(exc).__name__});"
                " it may be hung or overloaded: check `ollama ps`, or raise [ollama] timeout"
            ) from None
        except httpx.HTTPError as exc:
            raise EmbedderUnavailableError(
                f"the connection to Ollama at {self.host} broke during {what} ({type(exc).__name__}: {exc});"
                " check that the server is running"
            ) from None
        except (pydantic.ValidationError, ValueError) as exc:
            raise EmbedderUnavailableError(
                f"Ollama at {self.host} gave an answer to {what} that is not the /api/embed format"
                f" ({type(exc).__name__}); is {self.host} really an Ollama server?"
            ) from None

    def _request(self, texts: list[str], prefix: str, client: Any) -> np.ndarray:
        """One /api/embed call: ``(len(texts), native_dim)`` float32, checked."""
        inputs = [prefix + t for t in texts]
        what = f"a batch of {len(texts)} text(s)"
        answer = self._call(
            lambda: client.embed(model=self.model, input=inputs, truncate=False, keep_alive=self.keep_alive),
            what,
        )
        rows = answer.embeddings
        if len(rows) != len(texts):
            raise EmbedderUnavailableError(
                f"Ollama at {self.host} returned {len(rows)} vectors for {len(texts)} texts;"
                " upgrade Ollama (batch input needs /api/embed, Ollama >= 0.3)"
            )
        lengths = {len(r) for r in rows}
        if lengths != {self.native_dim}:
            got = ", ".join(str(n) for n in sorted(lengths))
            raise EmbedderUnavailableError(
                f"Ollama model {self.model!r} at {self.host} returned {got}-dimensional vectors,"
                f" expected {self.native_dim}: another model answers under this name; check"
                f" `ollama show {self.model}`, or name its dimension in the spec (ollama:{self.model}:DIM)"
                " and run `memsearch index --reembed`"
            )
        matrix = np.asarray(rows, dtype=np.float32)
        if not np.isfinite(matrix).all():
            raise EmbedderError(f"Ollama model {self.model!r} returned non-finite values for {what}")
        return matrix

    def _embed_fitting(self, texts: list[str], prefix: str, client: Any) -> np.ndarray:
        """Native vectors for ``texts``, splitting what the model refuses as too long (see module doc)."""
        try:
            return self._request(texts, prefix, client)
        except _TooLong as exc:
            if len(texts) > 1:
                mid = len(texts) // 2
                return np.vstack(
                    [
                        self._embed_fitting(texts[:mid], prefix, client),
                        self._embed_fitting(texts[mid:], prefix, client),
                    ]
                )
            text = texts[0]
            if len(text) < MIN_SPLIT_CHARS:
                raise EmbedderError(
                    f"Ollama model {self.model!r} refuses even {len(text)} characters as too long ({exc});"
                    " its context (num_ctx) is misconfigured: check `ollama show --parameters"
                    f" {self.model}`"
                ) from None
            self.split_texts += 1
            left, right = split_in_two(text)
            a = self._embed_fitting([left], prefix, client)[0]
            b = self._embed_fitting([right], prefix, client)[0]
            weights = np.array([len(left), len(right)], dtype=np.float32)
            mean = (weights[0] * a + weights[1] * b) / weights.sum()
            return mean[None, :].astype(np.float32)

    def _finish(self, native: np.ndarray) -> np.ndarray:
        """Each row cut to its first ``dim`` values (Matryoshka) and scaled to norm 1."""
        kept = native[:, : self.dim]
        norms = np.linalg.norm(kept, axis=1, keepdims=True)
        if (norms < 1e-6).any():
            raise EmbedderError(
                f"Ollama model {self.model!r} returned a vector that is zero in its first {self.dim}"
                " dimensions; is it really this model?"
            )
        return (kept / norms).astype(np.float32)


#: Where a text is best split, best first.
_BREAKS = ("\n\n", "\n", ". ", "? ", "! ", "; ", ", ", " ")


def split_in_two(text: str) -> tuple[str, str]:
    """Two non-empty halves of ``text`` (at least 2 characters), cut at its best break near the middle.

    The best break kind found within the middle half of the text wins (blank line, line end,
    sentence end, clause, space); failing any, the exact middle. The halves concatenate to
    ``text``: nothing is lost.
    """
    mid = len(text) // 2
    low, high = len(text) // 4, (3 * len(text)) // 4
    for sep in _BREAKS:
        left = text.rfind(sep, low, mid + 1)
        right = text.find(sep, mid, high)
        candidates = [p for p in (left, right) if p > 0]
        if candidates:
            cut = min(candidates, key=lambda p: abs(p - mid)) + len(sep)
            if 0 < cut < len(text):
                return text[:cut], text[cut:]
    return text[:mid], text[mid:]
