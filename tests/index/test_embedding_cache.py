"""The persistent embedding cache and embed_with_cache, on real SQLite files and the real model."""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from memsearch.embedders.minilm import MiniLMEmbedder
from memsearch.embedders.registry import get_embedder
from memsearch.errors import EmbedderError, IndexCorruptError
from memsearch.index.embedding_cache import EmbeddingCache, embed_with_cache, text_key

FP_A = "a" * 16
FP_B = "b" * 16


def _vectors(n: int, dim: int = 384, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    v = rng.standard_normal((n, dim)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


class Counting:
    """Wraps an embedder and records every text it is asked to embed."""

    def __init__(self, inner: MiniLMEmbedder) -> None:
        self.inner = inner
        self.name, self.dim, self.fingerprint = inner.name, inner.dim, inner.fingerprint
        self.seen: list[str] = []

    def embed_documents(self, texts: Sequence[str], progress=None) -> np.ndarray:
        self.seen.extend(texts)
        return self.inner.embed_documents(texts, progress)

    def embed_query(self, text: str) -> np.ndarray:
        return self.inner.embed_query(text)


@pytest.fixture(scope="module")
def minilm() -> MiniLMEmbedder:
    embedder = get_embedder("minilm")
    assert isinstance(embedder, MiniLMEmbedder)
    return embedder


# -- the cache itself ----------------------------------------------------------------------------


def test_round_trip_survives_reopening(tmp_path: Path) -> None:
    path = tmp_path / "cache" / "embeddings.sqlite"
    vectors = _vectors(3)
    vectors[0, 0] = -0.0  # bytes, not just values, come back
    items = {f"k{i}": vectors[i] for i in range(3)}
    with EmbeddingCache(path) as cache:
        assert len(cache) == 0
        cache.put_many(FP_A, items)
        assert len(cache) == 3
    with EmbeddingCache(path) as cache:
        got = cache.get_many(FP_A, ["k2", "missing", "k0", "k1", "k0"])
        assert set(got) == {"k0", "k1", "k2"}
        for key, vector in items.items():
            assert got[key].dtype == np.float32 and got[key].shape == (384,)
            assert got[key].tobytes() == vector.tobytes()
        assert len(cache) == 3 and cache.count(FP_A) == 3


def test_float64_input_is_stored_as_float32(tmp_path: Path) -> None:
    with EmbeddingCache(tmp_path / "c.sqlite") as cache:
        cache.put_many(FP_A, {"k": np.array([0.1, 0.2, 0.3], dtype=np.float64)})
        got = cache.get_many(FP_A, ["k"])["k"]
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, np.array([0.1, 0.2, 0.3], dtype=np.float32))


def test_put_replaces_and_many_keys_work(tmp_path: Path) -> None:
    many = _vectors(1500, dim=8)
    with EmbeddingCache(tmp_path / "c.sqlite") as cache:
        cache.put_many(FP_A, {f"k{i}": many[i] for i in range(1500)})  # more than SQLite's 999 variables
        cache.put_many(FP_A, {"k7": many[8]})
        got = cache.get_many(FP_A, [f"k{i}" for i in range(1500)])
        assert len(got) == 1500 and len(cache) == 1500
        np.testing.assert_array_equal(got["k7"], many[8])
        np.testing.assert_array_equal(got["k1499"], many[1499])


def test_fingerprints_never_share_entries(tmp_path: Path) -> None:
    a, b = _vectors(2, seed=1)
    with EmbeddingCache(tmp_path / "c.sqlite") as cache:
        cache.put_many(FP_A, {"same-key": a})
        assert cache.get_many(FP_B, ["same-key"]) == {}
        cache.put_many(FP_B, {"same-key": b})
        np.testing.assert_array_equal(cache.get_many(FP_A, ["same-key"])["same-key"], a)
        np.testing.assert_array_equal(cache.get_many(FP_B, ["same-key"])["same-key"], b)
        assert cache.get_many("c" * 16, ["same-key"]) == {}
        assert len(cache) == 2 and cache.count(FP_A) == 1 and cache.count(FP_B) == 1


def test_a_second_connection_reads_while_the_writer_is_open(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    with EmbeddingCache(path) as writer, EmbeddingCache(path) as reader:
        writer.put_many(FP_A, {"k1": np.ones(3, np.float32)})
        assert set(reader.get_many(FP_A, ["k1"])) == {"k1"}
        reader.put_many(FP_A, {"k2": np.zeros(3, np.float32)})  # writers take turns
        assert len(writer) == 2


def test_bad_vectors_are_refused(tmp_path: Path) -> None:
    with EmbeddingCache(tmp_path / "c.sqlite") as cache:
        with pytest.raises(ValueError):
            cache.put_many(FP_A, {"k": np.zeros((2, 3), np.float32)})
        with pytest.raises(ValueError):
            cache.put_many(FP_A, {"k": np.array([1.0, np.nan], np.float32)})
        with pytest.raises(ValueError):
            cache.put_many(FP_A, {"k": np.ones(3, np.float32), "j": np.ones(4, np.float32)})
        with pytest.raises(ValueError):
            cache.put_many("", {"k": np.ones(3, np.float32)})
        with pytest.raises(TypeError):
            cache.get_many(FP_A, "k")
        assert len(cache) == 0  # nothing half-written


def test_permissions(tmp_path: Path) -> None:
    path = tmp_path / "new" / "dir" / "embeddings.sqlite"
    with EmbeddingCache(path) as cache:
        cache.put_many(FP_A, {"k": np.ones(3, np.float32)})
        assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
        for file in path.parent.iterdir():  # the database and its -wal / -shm companions
            assert stat.S_IMODE(file.stat().st_mode) == 0o600, file.name
        assert Path(f"{path}-wal").exists()  # WAL mode


def test_permissions_do_not_depend_on_the_umask(tmp_path: Path) -> None:
    path = tmp_path / "fresh" / "embeddings.sqlite"
    old = os.umask(0o277)  # would make mkdir give 0o500 and the file 0o400
    try:
        cache = EmbeddingCache(path)
    finally:
        os.umask(old)
    with cache:
        cache.put_many(FP_A, {"k": np.ones(3, np.float32)})
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_an_existing_file_is_made_private(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    path.touch(mode=0o644)
    path.chmod(0o644)
    with EmbeddingCache(path) as cache:
        cache.put_many(FP_A, {"k": np.ones(3, np.float32)})
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_an_existing_parent_is_left_alone(tmp_path: Path) -> None:
    tmp_path.chmod(0o755)
    with EmbeddingCache(tmp_path / "c.sqlite"):
        pass
    assert stat.S_IMODE(tmp_path.stat().st_mode) == 0o755
    assert stat.S_IMODE((tmp_path / "c.sqlite").stat().st_mode) == 0o600


def test_a_corrupt_file_says_to_delete_it(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    path.write_bytes(b"this is not a sqlite database, just some bytes " * 100)
    with pytest.raises(IndexCorruptError, match="delete the file"):
        EmbeddingCache(path)


def test_closed_cache_refuses_use(tmp_path: Path) -> None:
    cache = EmbeddingCache(tmp_path / "c.sqlite")
    cache.close()
    cache.close()  # idempotent
    with pytest.raises(ValueError, match="closed"):
        cache.get_many(FP_A, ["k"])


# -- embed_with_cache ----------------------------------------------------------------------------

TEXTS = [
    "A man is eating food.",
    "The quarterly budget review was postponed until the auditors return from Zurich.",
    "A man is eating food.",  # duplicate
    "",
    "Aster wrote down the dream about the lighthouse before dawn. " * 8,
    "A man is eating a piece of bread.",
]


def test_text_key_is_sha256_of_utf8() -> None:
    assert text_key("héllo") == hashlib.sha256("héllo".encode()).hexdigest()


def test_second_call_embeds_nothing(tmp_path: Path, minilm: MiniLMEmbedder) -> None:
    counting = Counting(minilm)
    path = tmp_path / "c.sqlite"
    calls: list[tuple[int, int]] = []
    with EmbeddingCache(path) as cache:
        first, n_first = embed_with_cache(counting, cache, TEXTS, progress=lambda d, n: calls.append((d, n)))
    assert n_first == 5  # six texts, one duplicate
    assert sorted(counting.seen) == sorted(set(TEXTS))
    assert calls[-1] == (5, 5)
    assert first.dtype == np.float32 and first.shape == (6, 384)
    np.testing.assert_allclose(first, minilm.embed_documents(TEXTS), atol=1e-4)  # input order kept
    np.testing.assert_array_equal(first[0], first[2])

    counting.seen.clear()
    calls.clear()
    with EmbeddingCache(path) as cache:  # a new process would see the same
        assert len(cache) == 5
        second, n_second = embed_with_cache(
            counting, cache, TEXTS, progress=lambda d, n: calls.append((d, n))
        )
        assert n_second == 0 and counting.seen == [] and calls == []
        np.testing.assert_array_equal(second, first)  # bit for bit: they came from the cache

        # one new text: only it is embedded, the rest is reused, order still kept
        more = [TEXTS[1], "A woman is playing violin.", TEXTS[0]]
        third, n_third = embed_with_cache(counting, cache, more)
        assert n_third == 1 and counting.seen == ["A woman is playing violin."]
        np.testing.assert_array_equal(third[0], first[1])
        np.testing.assert_array_equal(third[2], first[0])
        np.testing.assert_allclose(third[1], minilm.embed_query("A woman is playing violin."), atol=1e-5)
        assert len(cache) == 6


def test_keys_are_the_sha256_of_the_text(tmp_path: Path, minilm: MiniLMEmbedder) -> None:
    with EmbeddingCache(tmp_path / "c.sqlite") as cache:
        vectors, _ = embed_with_cache(minilm, cache, TEXTS[:2])
        stored = cache.get_many(minilm.fingerprint, [text_key(TEXTS[1])])
    np.testing.assert_array_equal(stored[text_key(TEXTS[1])], vectors[1])


def test_different_fingerprints_do_not_reuse(tmp_path: Path, minilm: MiniLMEmbedder) -> None:
    prefixed = Counting(MiniLMEmbedder(document_prefix="search_document: ", threads=1))
    assert prefixed.fingerprint != minilm.fingerprint
    with EmbeddingCache(tmp_path / "c.sqlite") as cache:
        plain, n_plain = embed_with_cache(minilm, cache, TEXTS)
        other, n_other = embed_with_cache(prefixed, cache, TEXTS)
        assert n_plain == 5 and n_other == 5 and len(prefixed.seen) == 5
        assert len(cache) == 10 and cache.count(minilm.fingerprint) == 5
        # the other embedder's vectors are its own (the prefix changes them), not the cached ones
        assert not np.allclose(plain[1], other[1], atol=1e-3)
        np.testing.assert_allclose(
            other[1], minilm.embed_documents(["search_document: " + TEXTS[1]])[0], atol=1e-4
        )


def test_without_a_cache_and_with_nothing_to_do(minilm: MiniLMEmbedder) -> None:
    vectors, n = embed_with_cache(minilm, None, TEXTS[:3])
    assert n == 2 and vectors.shape == (3, 384)
    empty, n_empty = embed_with_cache(minilm, None, [])
    assert n_empty == 0 and empty.shape == (0, 384) and empty.dtype == np.float32


def test_a_misbehaving_embedder_is_caught(tmp_path: Path) -> None:
    class Wrong:
        name, dim, fingerprint = "wrong", 4, "w" * 16

        def embed_documents(self, texts, progress=None):
            return np.ones((len(texts), 3), np.float32)  # wrong dimension

        def embed_query(self, text):
            return np.ones(3, np.float32)

    with EmbeddingCache(tmp_path / "c.sqlite") as cache:
        with pytest.raises(EmbedderError, match="shape"):
            embed_with_cache(Wrong(), cache, ["x"])
        assert len(cache) == 0
