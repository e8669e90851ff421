import math
from collections import Counter

import numpy as np
import pytest
from rank_bm25 import BM25Okapi

from memsearch.index.keyword import KeywordIndex

DOCS = [
    "the redflag project signs releases with ed25519 keys",
    "signing keys rotate every spring",
    "ed25519 ed25519 is a signature scheme used by redflag and others too",
    "a walk by the river",
    "river stones and river birds",
    "notes about tea",
    "more notes about coffee and tea",
    "a list of birds",
]


def _okapi_idf(n: int, df: int) -> float:
    return math.log((n - df + 0.5) / (df + 0.5))


def test_scores_equal_rank_bm25_with_its_idf():
    """With rank-bm25's idf (terms in < half the docs, so no epsilon floor) the scores agree exactly."""
    tokenized = [d.split() for d in DOCS]
    reference = BM25Okapi(tokenized, k1=1.2, b=0.75)
    index = KeywordIndex(idf=_okapi_idf)
    for i, doc in enumerate(tokenized):
        index.add(i, Counter(doc))
    for query in (["ed25519"], ["river", "birds"], ["signing", "keys"], ["tea", "coffee", "walk"]):
        expected = reference.get_scores(query)
        got = index.scores(query)[: len(DOCS)]
        np.testing.assert_allclose(got, expected, rtol=1e-5)


def test_remove_and_readd_give_the_same_scores():
    index = KeywordIndex()
    for i, doc in enumerate(DOCS):
        index.add(i, Counter(doc.split()))
    before = index.scores(["river", "ed25519"]).copy()
    index.remove(4)
    assert index.scores(["river"])[4] == 0
    index.add(4, Counter(DOCS[4].split()))
    np.testing.assert_allclose(index.scores(["river", "ed25519"]), before, rtol=1e-6)


def test_search_ranks_and_filters():
    index = KeywordIndex()
    for i, doc in enumerate(DOCS):
        index.add(i, Counter(doc.split()))
    hits = index.search(["river"], k=5)
    assert [h.chunk_id for h in hits] == [4, 3]
    allowed = np.zeros(len(DOCS), dtype=bool)
    allowed[3] = True
    assert [h.chunk_id for h in index.search(["river"], k=5, allowed=allowed)] == [3]
    assert index.search(["absent"], k=5) == []


def test_save_then_load_gives_the_same_ranking(tmp_path):
    index = KeywordIndex()
    for i, doc in enumerate(DOCS):
        index.add(i * 3, Counter(doc.split()))  # sparse ids survive the round trip
    index.save(tmp_path / "kw.npz")
    loaded = KeywordIndex.load(tmp_path / "kw.npz")
    for query in (["tea"], ["ed25519", "keys"], ["river", "birds"]):
        assert index.search(query, 10) == loaded.search(query, 10)
    loaded.remove(0)
    assert all(h.chunk_id != 0 for h in loaded.search(["redflag"], 10))


@pytest.mark.parametrize("weight", [0.25, 0.5, 1.0])
def test_fractional_term_weights_rank_own_text_above_context(weight):
    index = KeywordIndex()
    index.add(0, {"tea": 1.0, "cup": 1.0})
    index.add(1, {"tea": weight, "saucer": 1.0, "cup": 1.0})
    index.add(2, {"coffee": 1.0, "cup": 1.0})
    hits = index.search(["tea"], 3)
    assert hits[0].chunk_id == 0
    if weight < 1.0:
        assert hits[0].score > hits[1].score


def test_block_tombstones_and_additions_score_as_a_fresh_index(tmp_path):
    """A loaded block, removals (tombstones), additions and re-additions, saved and loaded again,
    score exactly as an index built from scratch over the same chunks."""
    import random

    rnd = random.Random(3)
    vocab = [f"w{i}" for i in range(60)]

    def doc() -> dict[str, float]:
        return dict(Counter(rnd.choices(vocab, k=rnd.randint(1, 12))))

    docs = {i: doc() for i in range(300)}
    index = KeywordIndex()
    for i, terms in docs.items():
        index.add(i, terms)
    for cycle in range(3):
        index.save(tmp_path / "kw.npz")
        index = KeywordIndex.load(tmp_path / "kw.npz")
        for _ in range(40):
            i = rnd.randrange(350)
            if rnd.random() < 0.5 and i in docs:
                index.remove(i)
                del docs[i]
            else:
                docs[i] = doc()
                index.add(i, docs[i])
        fresh = KeywordIndex()
        for i, terms in docs.items():
            fresh.add(i, terms)
        assert len(index) == len(fresh) == len(docs)
        for query in (["w1"], ["w2", "w3", "w3"], vocab[:8], ["absent"]):
            got, want = index.scores(query), fresh.scores(query)
            n = max(len(got), len(want))
            got, want = np.pad(got, (0, n - len(got))), np.pad(want, (0, n - len(want)))
            np.testing.assert_allclose(got, want, rtol=1e-6, err_msg=str(cycle))


def test_pending_rows_queries_and_saves_interleaved(tmp_path):
    """Chunks added after the last query stay pending rows; queries, removals, re-additions and
    saves in any order give what adding every posting at once gives."""
    import random

    rnd = random.Random(8)
    vocab = [f"t{i}" for i in range(30)]
    index, docs = KeywordIndex(), {}
    for step in range(400):
        i = rnd.randrange(60)
        roll = rnd.random()
        if roll < 0.2:
            index.remove(i)
            docs.pop(i, None)
        elif roll < 0.35:
            query = rnd.sample(vocab, 2)
            fresh = KeywordIndex()
            for j, terms in docs.items():
                fresh.add(j, terms)
            got, want = index.scores(query), fresh.scores(query)
            n = max(len(got), len(want))
            np.testing.assert_array_equal(np.pad(got, (0, n - len(got))), np.pad(want, (0, n - len(want))))
        elif roll < 0.4:
            index.save(tmp_path / "kw.npz")
            index = KeywordIndex.load(tmp_path / "kw.npz")
        else:
            docs[i] = dict(Counter(rnd.choices(vocab, k=rnd.randint(1, 6))))
            index.add(i, docs[i])
        assert len(index) == len(docs), step


def test_query_weight_is_the_ideal_score_and_names_the_missing_part():
    """A chunk of average length holding every term once scores the query's total weight."""
    from memsearch.index.keyword import KeywordIndex
    from memsearch.tokenize import term_counts

    index = KeywordIndex()
    index.add(0, term_counts("boiler engineer"))
    index.add(1, term_counts("garden bench"))
    total, missing = index.query_weight({"boiler": 1.0, "engin": 1.0, "zanzibar": 1.0})
    present = index.query_weight({"boiler": 1.0, "engin": 1.0})[0]
    assert missing == pytest.approx(total - present) and missing > present / 2
    score = index.search({"boiler": 1.0, "engin": 1.0}, 1)[0].score
    assert score == pytest.approx(present, rel=1e-5)  # the chunk holds each term once, average length


def test_a_bigram_across_a_word_boundary_is_not_a_missing_word():
    """签名密钥多久轮换一次 is cut into bigrams; 钥多, 久轮 and 换一 span two words and are in no
    text, and 多久 (how long) is the question's form: the vault holds every word the question asks."""
    from memsearch.index.keyword import KeywordIndex
    from memsearch.query_terms import term_weights
    from memsearch.tokenize import term_counts

    index = KeywordIndex()
    index.add(0, term_counts("签名密钥的轮换计划：每九十天一次。"))
    index.add(1, term_counts("晚饭吃了饺子。"))
    weights = term_weights("签名密钥多久轮换一次")
    assert {"钥多", "久轮", "换一"} <= set(weights)
    total, missing = index.query_weight(weights)
    assert total > 0 and missing == 0
    # Alone, a bigram no text holds is missing, and so is a question about what the vault never names.
    total, missing = index.query_weight({"换一": 1.0})
    assert missing == pytest.approx(total) and total > 0
    total, missing = index.query_weight(term_weights("火锅好吃吗"))
    assert missing == pytest.approx(total)


def test_japanese_grammar_beside_a_word_the_vault_holds_is_not_a_missing_word():
    """東京の会議はいつですか: 京の, の会 and 議は join a word to its particle and are in no text; the
    vault holds 東京 and 会議, so nothing the question asks is missing. A question about what the
    vault never names keeps its particle's bigrams missing (ピアノの練習: ノの, の練)."""
    from memsearch.index.keyword import KeywordIndex
    from memsearch.query_terms import term_weights
    from memsearch.tokenize import term_counts

    index = KeywordIndex()
    index.add(0, term_counts("来週の月曜日に東京で顧客と会議があります。"))
    index.add(1, term_counts("晩ご飯はラーメンでした。"))
    weights = term_weights("東京の会議はいつですか")
    assert {"京の", "の会", "議は"} <= set(weights)
    total, missing = index.query_weight(weights)
    assert total > 0 and missing == 0
    total, missing = index.query_weight(term_weights("ピアノの練習"))
    assert missing == pytest.approx(total) and total > 0


def test_weighted_query_terms_scale_their_part_of_the_score():
    from memsearch.index.keyword import KeywordIndex
    from memsearch.tokenize import term_counts

    index = KeywordIndex()
    index.add(0, term_counts("boiler"))
    index.add(1, term_counts("garden"))
    full = index.scores({"boiler": 1.0})[0]
    tenth = index.scores({"boiler": 0.1})[0]
    assert tenth == pytest.approx(full / 10, rel=1e-5)


def test_top_hits_breaks_ties_by_the_key_at_the_cut_and_in_the_order():
    import numpy as np
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from memsearch.index.keyword import top_hits

    @settings(max_examples=200, deadline=None)
    @given(st.lists(st.integers(min_value=0, max_value=3), min_size=1, max_size=30), st.integers(1, 10))
    def check(values, k):
        scores = np.array(values, dtype=np.float32)
        key = np.arange(len(values))[::-1]  # a key that disagrees with the ids everywhere
        got = [h.chunk_id for h in top_hits(scores, k, lambda ids: key[ids])]
        want = sorted((i for i, v in enumerate(values) if v > 0), key=lambda i: (-values[i], key[i]))[:k]
        assert got == want

    check()


def test_scores_of_candidates_equal_the_full_scores(tmp_path):
    """Scoring a few candidates (a shared Milvus collection's top-N, rescored with the vault's own
    statistics) gives each exactly its score in the full list; ids it does not hold score 0."""
    index = KeywordIndex()
    for i, doc in enumerate(DOCS[:5]):
        index.add(i, Counter(doc.split()))
    index.save(tmp_path / "kw.npz")
    index = KeywordIndex.load(tmp_path / "kw.npz")  # a block plus pending additions and a tombstone
    for i, doc in enumerate(DOCS[5:], start=5):
        index.add(i, Counter(doc.split()))
    index.remove(1)
    weights = {"river": 1.0, "ed25519": 0.5, "tea": 1.0, "keys": 0.1}
    full = index.scores(weights)
    candidates = np.array([6, 0, 4, 1, 99, 2], dtype=np.int64)
    got = index.scores_of(weights, candidates)
    want = [full[c] if c < len(full) else 0.0 for c in candidates]
    assert got[1] > 0 and got[3] == 0 and got[4] == 0
    np.testing.assert_array_equal(got, np.array(want, dtype=np.float32))


def test_a_lone_character_of_unspaced_script_stands_for_the_bigrams_that_hold_it(tmp_path):
    """The index holds Chinese and Japanese as bigrams, so 猫 alone is no term of 我家的猫很可爱: as a
    query it meets every chunk holding a bigram of it (or the character alone), with the idf of the
    chunks holding it, and is no missing word (issue 17: a query substring always matches)."""
    from memsearch.index.keyword import KeywordIndex, lucene_idf
    from memsearch.tokenize import term_counts

    index = KeywordIndex()
    index.add(0, term_counts("我家的猫很可爱。"))
    index.add(1, term_counts("今天喝了绿茶，很好喝。"))
    index.add(2, term_counts("猫。"))  # a run of one character is a term itself
    index.add(3, term_counts("東京駅で友達に会いました。"))
    index.add(4, term_counts("the cat sat on the mat"))
    assert [hit.chunk_id for hit in index.search({"猫": 1.0}, 5)] == [2, 0]
    assert [hit.chunk_id for hit in index.search({"駅": 1.0}, 5)] == [3]
    assert index.holds("茶") and index.term_idf("猫") == pytest.approx(lucene_idf(5, 2))
    total, missing = index.query_weight({"猫": 1.0})
    assert total > 0 and missing == 0
    # A character no chunk holds is still missing, and never meets a chunk.
    total, missing = index.query_weight({"火": 1.0})
    assert missing == pytest.approx(total) and not index.search({"火": 1.0}, 5)
    # Said twice in a chunk of the same length, it counts twice: 的猫 ends it twice, 猫和 begins it once.
    twice = KeywordIndex()
    twice.add(0, term_counts("我的猫和你的狗"))
    twice.add(1, term_counts("我的猫和你的猫"))
    twice.add(2, term_counts("晚饭吃了饺子"))
    assert [hit.chunk_id for hit in twice.search({"猫": 1.0}, 3)] == [1, 0]
    # Kept up to date: a chunk added or removed after a query, and after a save and load.
    index.add(5, term_counts("小猫睡觉"))
    assert 5 in [hit.chunk_id for hit in index.search({"猫": 1.0}, 5)]
    index.remove(0)
    assert [hit.chunk_id for hit in index.search({"猫": 1.0}, 5)] == [2, 5]
    index.save(tmp_path / "keyword.npz")
    loaded = KeywordIndex.load(tmp_path / "keyword.npz")
    loaded.remove(2)
    loaded.add(6, term_counts("猫咪"))
    assert sorted(hit.chunk_id for hit in loaded.search({"猫": 1.0}, 5)) == [5, 6]


def test_spellings_finds_the_spellings_held_with_other_accents_as_they_arrive():
    index = KeywordIndex()
    index.add(0, {"vänern": 1.0, "cabin": 1.0})
    index.add(1, {"cafe": 1.0})
    assert index.spellings("vanern") == ["vänern"]
    assert index.spellings("café") == ["cafe"]
    assert index.spellings("cabin") == [] and index.spellings("vänern") == []
    index.add(2, {"vanern": 1.0, "zoë": 1.0})  # after the first ask: still found
    assert index.spellings("zoe") == ["zoë"]
    assert index.spellings("vänern") == ["vanern"]


def test_spellings_finds_the_spellings_held_with_or_without_hyphens_as_they_arrive():
    index = KeywordIndex()
    index.add(0, {"wi-fi": 1.0, "wi": 1.0, "fi": 1.0, "email": 1.0})
    assert index.spellings("wifi") == ["wi-fi"]
    assert index.spellings("e-mail") == ["email"]
    assert index.spellings("fi") == [] and index.spellings("wi-fi") == []
    index.add(1, {"po-7781": 1.0})  # after the first ask: still found
    assert index.spellings("po7781") == ["po-7781"]


def test_spellings_leaves_out_a_spelling_only_removed_chunks_held():
    index = KeywordIndex()
    index.add(0, {"vänern": 1.0})
    index.add(1, {"cabin": 1.0})
    assert index.spellings("vanern") == ["vänern"]
    index.remove(0)
    assert index.spellings("vanern") == []
