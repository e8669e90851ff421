"""What every embedding backend is: the :class:`Embedder` protocol, its errors, and the helpers
every backend shares (a fingerprint of what shapes a vector, a deadline around a call).

Errors: every backend raises :class:`~memsearch.errors.EmbedderError`; one that means "nothing
more will work this run" (server down, hung, model missing, wrong model) is an
:class:`EmbedderUnavailableError`, so a caller embedding many batches stops at once instead of
waiting out a timeout per batch.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from memsearch.errors import EmbedderError

#: The embedder for text beyond English, and what installs it (``memsearch doctor`` and the index
#: report name them when a vault is written outside the Latin script).
MULTILINGUAL_EMBEDDER = "e5-multilingual"
MULTILINGUAL_INSTALL = "pip install 'memsearch-vault[multilingual]'"
#: The share of a vault's letters outside the Latin script, or in another language than English,
#: from which an English-only embedder is worth saying so: its vectors for such text are near noise
#: (all-MiniLM-L6-v2 learnt English).
NON_ENGLISH_ADVICE_SHARE = 0.2


def is_multilingual(details: dict[str, Any] | None) -> bool:
    """Whether an embedder, by its ``describe()`` record, was trained beyond English: it says so, or
    an Ollama model's name does (bge-m3, a multilingual e5, LaBSE)."""
    if not details:
        return False
    if details.get("multilingual"):
        return True
    model = str(details.get("model", "")).lower()
    return any(word in model for word in ("multilingual", "bge-m3", "labse", "paraphrase-multi"))


#: Called as ``progress(done, total)`` after each batch; ``done`` counts texts.
ProgressFn = Callable[[int, int], None]


@runtime_checkable
class Embedder(Protocol):
    """What the index and the search need from any embedding backend.

    Optional, read with ``getattr``: ``spec`` (the canonical spec recorded in the index),
    ``describe()`` (a dict for the manifest and ``memsearch doctor``), ``call_size`` (texts
    per ``embed_documents`` call when indexing: each call's vectors are cached as it returns).
    Raise :class:`EmbedderUnavailableError` when no further call can succeed now.
    """

    name: str  # e.g. "minilm"
    dim: int

    @property
    def fingerprint(self) -> str:
        """Short stable hash of everything that shapes a vector; vectors from two embedders are
        comparable (and cacheable together) only if fingerprints match."""
        ...

    def embed_documents(self, texts: Sequence[str], progress: ProgressFn | None = None) -> np.ndarray:
        """float32 ``(len(texts), dim)``, rows L2-normalised, in input order."""
        ...

    def embed_query(self, text: str) -> np.ndarray:
        """float32 ``(dim,)``, L2-normalised."""
        ...


class EmbedderUnavailableError(EmbedderError):
    """The embedder cannot serve any request now (unreachable, hung, model missing, wrong model).

    A plain :class:`EmbedderError` may concern one batch only (the server refused these
    texts); this one means the next batch would fail the same way, so stop and record gaps.
    """


#: Environment variable overriding an embedder's default thread count.
THREADS_ENV = "MEMSEARCH_EMBED_THREADS"


def env_threads() -> int | None:
    """``MEMSEARCH_EMBED_THREADS`` if set to a positive integer (anything else is an error)."""
    raw = os.environ.get(THREADS_ENV, "").strip()
    if not raw:
        return None
    try:
        value = int(raw)
    except ValueError:
        value = 0
    if value < 1:
        raise EmbedderError(f"{THREADS_ENV}={raw!r} is not a positive integer; fix or unset it")
    return value


def make_fingerprint(**parts: Any) -> str:
    """sha256 hex[:16] of the canonical JSON of ``parts`` (keys sorted)."""
    blob = json.dumps(parts, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]


def call_with_deadline(fn: Callable[[], Any], seconds: float | None, what: str) -> Any:
    """``fn()``, or :class:`EmbedderUnavailableError` if it has not returned after ``seconds``.

    The call runs in a daemon thread, so a hung call never holds the caller past the
    deadline (the thread is abandoned; it ends when its own socket timeout fires).
    ``seconds=None`` calls ``fn`` directly.
    """
    if seconds is None:
        return fn()
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = fn()
        except BaseException as exc:  # handed to the caller's thread
            box["error"] = exc

    worker = threading.Thread(target=run, name="memsearch-embed", daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        raise EmbedderUnavailableError(f"{what} did not answer within {seconds:g} s")
    if "error" in box:
        raise box["error"]
    return box["value"]
