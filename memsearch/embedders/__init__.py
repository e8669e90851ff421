"""Embedders: text -> unit vectors, by name.

- :mod:`~memsearch.embedders.base`: the :class:`Embedder` protocol, its errors, shared helpers;
- :mod:`~memsearch.embedders.minilm`: all-MiniLM-L6-v2 int8 on onnxruntime, the offline default;
- :mod:`~memsearch.embedders.ollama`: nomic-embed-text (or another model) through an Ollama server;
- :mod:`~memsearch.embedders.registry`: backends by name, one shared instance per spec;
- :mod:`~memsearch.embedders.choice`: which embedder a vault indexes with, and its options.

:mod:`memsearch.preload` (the index's embedder, loading in the background) stands outside the
package: importing it must not import numpy.
"""

from memsearch.embedders.base import Embedder, EmbedderUnavailableError, call_with_deadline, make_fingerprint
from memsearch.embedders.choice import (
    BACKEND_OPTIONS,
    EMBEDDER_ENV,
    EmbedderChoice,
    backend_options,
    choose_embedder,
    embedder_for,
    index_manifest_embedder,
)
from memsearch.embedders.registry import DEFAULT_EMBEDDER, EMBEDDERS, check_spec, get_embedder, split_spec

__all__ = [
    "BACKEND_OPTIONS",
    "DEFAULT_EMBEDDER",
    "EMBEDDERS",
    "EMBEDDER_ENV",
    "Embedder",
    "EmbedderChoice",
    "EmbedderUnavailableError",
    "backend_options",
    "call_with_deadline",
    "check_spec",
    "choose_embedder",
    "embedder_for",
    "get_embedder",
    "index_manifest_embedder",
    "make_fingerprint",
    "split_spec",
]
