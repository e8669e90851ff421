"""A chunk's keyword terms: its header and text, and its neighbours' text at a lower weight.

What the keyword index (:mod:`memsearch.index.keyword`) holds for each chunk, built once per file
when it is indexed and again when a loaded index is edited. The merge of one chunk's terms runs in
C where :mod:`memsearch.speedups` says the compiled twin runs; both give the same floats.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable

from memsearch import speedups
from memsearch.config import Settings
from memsearch.index.keyword import PackedTerms, pack_terms
from memsearch.models import Chunk
from memsearch.tokenize import file_term_counts, term_counts


def file_keyword_terms(chunks: list[Chunk], settings: Settings) -> list[PackedTerms]:
    """Term weights of each chunk of one file: its header and text, plus its neighbours' text at
    a lower weight (each chunk's text tokenized once, its words stemmed in its language:
    :func:`memsearch.tokenize.file_term_counts`); packed as the keyword index keeps them."""
    counts, languages = file_term_counts([chunk.text for chunk in chunks])
    # The chunks of a section share their header; it is stemmed in the language of its chunk.
    headers: dict[tuple[str, str], dict[str, int]] = {}
    out = []
    for i, chunk in enumerate(chunks):
        key = (chunk.header, languages[i])
        header = headers.get(key)
        if header is None:
            header = headers[key] = term_counts(chunk.header, languages[i])
        out.append(packed_terms(header, i, settings, counts))
    return out


def packed_terms_py(
    header: dict[str, int], i: int, settings: Settings, text_counts: list[dict[str, int]]
) -> PackedTerms:
    """Chunk i's packed keyword terms: the reference for ``memsearch._speedups.merge_terms``."""
    return pack_terms(keyword_weights(header, i, settings, text_counts))


def packed_terms_c(
    header: dict[str, int], i: int, settings: Settings, text_counts: list[dict[str, int]]
) -> PackedTerms:
    assert merge_terms is not None  # packed_terms is this function only where merge_terms is compiled
    terms, weights, length = merge_terms(
        header, text_counts, i, settings.context_neighbours, settings.context_weight, settings.context_decay
    )
    tfs = array("f")
    tfs.frombytes(weights)
    return terms, tfs, length


# The compiled twin (memsearch/_speedups.c) where memsearch.speedups says it runs.
merge_terms: Callable[..., tuple[tuple[str, ...], bytes, float]] | None = speedups.pick("merge_terms", None)
packed_terms = packed_terms_py if merge_terms is None else packed_terms_c


def keyword_weights(
    header: dict[str, int], i: int, settings: Settings, text_counts: list[dict[str, int]]
) -> dict[str, float]:
    # Header terms, then the text's (the order of Counter(header + text)); whole counts until a
    # neighbour's share is added, which makes the same floats as starting from float counts.
    weights: dict[str, float] = dict(header)
    get = weights.get
    for term, count in text_counts[i].items():
        weights[term] = get(term, 0) + count
    n = settings.context_neighbours
    if n > 0 and settings.context_weight > 0:
        for j in range(max(0, i - n), min(len(text_counts), i + n + 1)):
            if j == i:
                continue
            # Each step away halves again: the next turn says more about this one than the third.
            share = (
                settings.context_weight ** abs(j - i) if settings.context_decay else settings.context_weight
            )
            for term, count in text_counts[j].items():
                weights[term] = get(term, 0.0) + share * count
    return weights
