"""Recall by any modality: a notebook's sidecar vectors are stored, one index a modality, and a query
may carry vectors (docs/notebook.md). Real YAML files, real numpy sidecars, a real index and git.

The large notebook here (4 sessions x 60 moments) puts every moment in one of six audio clusters
and one of five image clusters (a unit centre plus noise): a moment's own vector finds it, a
centre finds its cluster, and a moment that matches a query's words and its image both ranks
above those that match one.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from notebook_fixture import dump, index_document

from memsearch.api import index_vault, open_index
from memsearch.cli import main
from memsearch.errors import MemsearchError, QueryError
from memsearch.index.versioning import IndexRepo
from memsearch.tool import MemoryTools

SESSIONS = 4
PER_SESSION = 60
DIMENSIONS = {"audio": 32, "image": 48, "joint": 64}
CLUSTERS = {"audio": 6, "image": 5, "joint": 4}
TOPICS = [
    "watered the tomatoes and checked the drip line",
    "rebased the release branch onto main",
    "booked the train to the conference",
    "fixed the flaky login test in the staging suite",
    "cleaned the espresso machine and ordered descaler",
    "reviewed the quarterly budget with finance",
    "walked the dog along the river path",
    "rotated the database credentials after the audit",
]
#: The words a few moments share (the text + image query): none of them is in any other moment.
SHARED_TEXT = "calibrated the quokka lantern spectrometer"
#: Moments that say SHARED_TEXT; the last one (in image cluster 0, dated first, last in path order)
#: is the only one that also matches the query's image.
SHARED = ["m-0001", "m-1002", "m-2003", "m-3000"]
BOTH = "m-3000"


def moment_id(session: int, i: int) -> str:
    return f"m-{session}{i:03d}"


def place(mid: str) -> int:
    return int(mid[2]) * PER_SESSION + int(mid[3:])


def cluster(mid: str, modality: str) -> int:
    n = place(mid)
    if mid in SHARED and modality == "image":  # each in another image cluster, BOTH in cluster 0
        return {"m-0001": 1, "m-1002": 2, "m-2003": 3, BOTH: 0}[mid]
    return n % CLUSTERS[modality]


def centre(modality: str, c: int) -> np.ndarray:
    rng = np.random.default_rng([7, DIMENSIONS[modality], c])
    v = rng.standard_normal(DIMENSIONS[modality])
    return (v / np.linalg.norm(v)).astype(np.float32)


def vector(mid: str, modality: str) -> np.ndarray:
    """The moment's vector: its cluster's centre plus noise of about half its length."""
    rng = np.random.default_rng([11, DIMENSIONS[modality], place(mid)])
    noise = rng.standard_normal(DIMENSIONS[modality])
    v = centre(modality, cluster(mid, modality)) + 0.5 * noise / np.linalg.norm(noise)
    return v.astype(np.float32)


def moment_file(root: Path, mid: str) -> Path:
    return root / "sessions" / f"s-{mid[2]}" / "moments" / f"{mid}.yaml"


def write_large_notebook(root: Path) -> list[str]:
    """The notebook under ``root``: index.yaml, the sessions, 240 moments and their sidecars."""
    ids = []
    (root / "sessions").mkdir(parents=True)
    (root / "index.yaml").write_text(dump(index_document()), encoding="utf-8")
    for s in range(SESSIONS):
        session = {
            "notebook": {
                "schema_version": "1.0",
                "session_id": f"s-{s}",
                "created_at": "2026-01-01T08:00:00Z",
                "last_touched": "2026-03-01T08:00:00Z",
                "owner": "senter",
                "task": f"Field log {s}",
                "task_status": "in_progress",
                "context": {"condensed_history": "Daily notes.", "recent_moments": []},
                "decisions": [],
                "pending": [],
                "escalations": [],
                "links": [],
                "stats": {"turns": 1, "moments": PER_SESSION},
            }
        }
        (root / "sessions" / f"s-{s}.yaml").write_text(dump(session), encoding="utf-8")
        for i in range(PER_SESSION):
            mid = moment_id(s, i)
            n = place(mid)
            text = SHARED_TEXT if mid in SHARED else f"{TOPICS[n % len(TOPICS)]} (entry {n})"
            day = "2025-01-01" if mid == BOTH else ("2026-06-01" if mid in SHARED else None)
            when = f"{day}T09:00:00Z" if day else f"2026-01-{1 + n % 28:02d}T{n % 24:02d}:00:00Z"
            doc = {
                "moment": {
                    "id": mid,
                    "session_id": f"s-{s}",
                    "timestamp": when,
                    "modalities": {"text": text, "audio_signature": f"sha256:{n:064x}"},
                    "concepts": ["spectrometry"] if mid in SHARED else [f"topic{n % len(TOPICS)}"],
                    "retrieval_keys": [],
                    "importance": 0.5,
                    "decay_rate": 0.0,
                    "parent_moment": None,
                    "child_moments": [],
                    "linked_to": [],
                    "actions_taken": [],
                }
            }
            path = moment_file(root, mid)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(dump(doc), encoding="utf-8")
            for modality in DIMENSIONS:
                np.save(path.with_suffix(f".{modality}.npy"), vector(mid, modality))
            ids.append(mid)
    return ids


def mid_of(path: str) -> str:
    return Path(path).stem


@pytest.fixture(scope="module")
def large(tmp_path_factory) -> tuple[Path, object]:
    """The large notebook in a vault, with three bad sidecars, indexed once (read-only)."""
    vault = tmp_path_factory.mktemp("notebook") / "vault"
    root = vault / "notebook"
    write_large_notebook(root)
    # The first moment in walk order gets an audio vector of another size: the other 239 agree.
    np.save(moment_file(root, "m-0000").with_suffix(".audio.npy"), np.ones(7, dtype=np.float32))
    moment_file(root, "m-0005").with_suffix(".image.npy").write_text("not an array at all\n")
    np.save(
        moment_file(root, "m-0006").with_suffix(".joint.npy"),
        np.array([{"a": 1}], dtype=object),
        allow_pickle=True,
    )
    report = index_vault(vault)
    return vault, report


def test_every_good_sidecar_is_stored_and_the_bad_are_named_and_skipped(large):
    vault, report = large
    engine = open_index(vault)
    assert {m: len(i) for m, i in engine.index.modal.items()} == {"audio": 239, "image": 239, "joint": 239}
    assert {m: i.dim for m, i in engine.index.modal.items()} == DIMENSIONS
    warnings = [w for w in report.warnings if ".npy" in w]
    assert len(warnings) == 3, warnings
    assert any("m-0000.audio.npy" in w and "7 values" in w and "have 32" in w for w in warnings)
    assert any("m-0005.image.npy" in w and "not a .npy file" in w for w in warnings)
    assert any("m-0006.joint.npy" in w and "plain numeric" in w for w in warnings)
    # their moments' text is indexed all the same, and their other vectors are kept
    paths = {c.path for c in engine.index.chunks.values()}
    assert {f"notebook/sessions/s-0/moments/{m}.yaml" for m in ("m-0000", "m-0005", "m-0006")} <= paths
    assert engine.index.manifest["modalities"]["audio"]["dim"] == 32
    first = engine.search(vectors={"image": vector("m-0000", "image")}, k=1)
    assert mid_of(first.results[0].path) == "m-0000"


def test_a_moments_own_audio_vector_finds_it_first(large):
    vault, _ = large
    engine = open_index(vault)
    for mid in ("m-0010", "m-1033", "m-2047", "m-3059", "m-0001"):
        response = engine.search(vectors={"audio": vector(mid, "audio")}, k=5)
        assert mid_of(response.results[0].path) == mid
        assert response.health.ran == ("vector:audio",)  # vectors only: no text strategy ran
        assert response.signal.level != "none"  # no words is no reason for "nothing resonates"


def test_a_vector_near_a_cluster_returns_that_cluster(large):
    vault, _ = large
    engine = open_index(vault)
    rng = np.random.default_rng(3)
    for c in range(CLUSTERS["audio"]):
        near = centre("audio", c) + 0.1 * rng.standard_normal(DIMENSIONS["audio"]).astype(np.float32)
        response = engine.search(vectors={"audio": near}, k=20)
        got = [mid_of(r.path) for r in response.results]
        assert len(got) == 20
        assert {cluster(m, "audio") for m in got} == {c}, got


def test_text_and_image_together_rank_the_moment_matching_both_first(large):
    vault, _ = large
    engine = open_index(vault)
    query_image = centre("image", 0)
    response = engine.search(SHARED_TEXT, vectors={"image": query_image}, k=10, explain=True)
    got = [mid_of(r.path) for r in response.results]
    assert got[0] == BOTH, got
    # above every moment that matches the words only, and every one that matches the image only
    text_only = [m for m in SHARED if m != BOTH]
    assert set(text_only) <= set(got[1:])
    image_only = [m for m in got[1:] if m not in SHARED]
    assert image_only and all(cluster(m, "image") == 0 for m in image_only)
    strategies = response.results[0].explanation["strategies"]
    assert "vector:image" in strategies and "keyword" in strategies
    assert strategies["vector:image"]["contribution"] > 0
    assert "vector:image" in response.health.ran and "keyword" in response.health.ran


def test_a_wrong_dimension_or_an_unknown_modality_is_a_clear_error(large):
    vault, _ = large
    engine = open_index(vault)
    with pytest.raises(QueryError) as wrong:
        engine.search(vectors={"audio": [0.5] * 5})
    assert "audio" in str(wrong.value) and "5 values" in str(wrong.value) and "have 32" in str(wrong.value)
    with pytest.raises(QueryError) as unknown:
        engine.search(vectors={"depth": [0.5] * 5})
    assert "depth" in str(unknown.value) and "no depth vectors" in str(unknown.value)

    # the agent's tool (and MCP, which calls it) never raises: an error answer
    tools = MemoryTools(vault)
    answer = tools.memory_search(vectors={"image": [0.5] * 3})
    assert answer["ok"] is False and "image" in answer["error"] and "have 48" in answer["error"]
    answer = tools.memory_search(vectors={"audio": vector("m-1033", "audio").tolist()}, k=3)
    assert answer["ok"] is True and mid_of(answer["results"][0]["path"]) == "m-1033"
    answer = tools.call("memory_search", {"query": SHARED_TEXT, "vectors": {"image": query_list()}})
    assert answer["ok"] is True and mid_of(answer["results"][0]["path"]) == BOTH


def query_list() -> list[float]:
    return centre("image", 0).tolist()


def test_the_cli_searches_by_vector_files_and_names_a_bad_one(large, tmp_path):
    vault, _ = large
    clip = tmp_path / "clip.npy"
    np.save(clip, vector("m-2047", "audio"))
    shot = tmp_path / "shot.npy"
    np.save(shot, centre("image", 0))
    run = CliRunner().invoke(
        main, ["search", "--vault", str(vault), "--vector", f"audio={clip}", "--format", "files", "-k", "1"]
    )
    assert run.exit_code == 0, run.output
    assert run.output.splitlines()[0].startswith("notebook/sessions/s-2/moments/m-2047.yaml:")
    run = CliRunner().invoke(
        main, ["search", SHARED_TEXT, "--vault", str(vault), "--vector", f"image={shot}", "--explain"]
    )
    assert run.exit_code == 0, run.output
    assert f"{BOTH}.yaml" in run.output.splitlines()[0] and "vector:image" in run.output
    bad = tmp_path / "bad.npy"
    bad.write_text("hello")
    run = CliRunner().invoke(main, ["search", "--vault", str(vault), "--vector", f"audio={bad}"])
    assert run.exit_code == 1 and "bad.npy" in run.output and "not a .npy file" in run.output
    short = tmp_path / "short.npy"
    np.save(short, np.ones(9, dtype=np.float32))
    run = CliRunner().invoke(main, ["search", "--vault", str(vault), "--vector", f"audio={short}"])
    assert run.exit_code == 1 and "9 values" in run.output and "have 32" in run.output
    assert "Traceback" not in run.output


def test_vectors_are_incremental_and_versioned(large, tmp_path):
    source, _ = large
    vault = tmp_path / "vault"
    shutil.copytree(source, vault, ignore=shutil.ignore_patterns(".memsearch"))
    index_vault(vault)
    assert index_vault(vault).commit is None  # unchanged: nothing re-added, no commit
    root = vault / "notebook"
    home = vault / ".memsearch"
    edited = moment_file(root, "m-1010").with_suffix(".audio.npy")
    np.save(edited, vector("m-2020", "audio"))  # now m-1010 sounds like m-2020
    report = index_vault(vault)
    assert report.changed == ("notebook/sessions/s-1/moments/m-1010.yaml",)
    engine = open_index(vault)
    top = [mid_of(r.path) for r in engine.search(vectors={"audio": vector("m-2020", "audio")}, k=2).results]
    assert set(top) == {"m-1010", "m-2020"}
    # the commit before still has the old vector (`--at`)
    old = open_index(vault, at="HEAD~1")
    assert mid_of(old.search(vectors={"audio": vector("m-1010", "audio")}, k=1).results[0].path) == "m-1010"

    edited.unlink()  # a removed sidecar removes its row
    index_vault(vault)
    engine = open_index(vault)
    assert len(engine.index.modal["audio"]) == 238 and len(engine.index.modal["image"]) == 239
    moment_file(root, "m-1011").unlink()  # a removed moment removes its rows
    index_vault(vault)
    engine = open_index(vault)
    assert {m: len(i) for m, i in engine.index.modal.items()} == {"audio": 237, "image": 238, "joint": 238}
    stored = sorted(p.relative_to(home / "repo").parts[1] for p in (home / "repo" / "modal").rglob("*.npy"))
    assert stored.count("audio") == 237 and stored.count("joint") == 238

    # opting a modality out drops its stored rows on the next run
    (vault / "memsearch.toml").write_text("[modalities]\naudio = false\n")
    index_vault(vault)
    engine = open_index(vault)
    assert "audio" not in engine.index.modal and "audio" not in engine.index.manifest["modalities"]
    assert not list((home / "repo" / "modal" / "audio").rglob("*.npy"))
    assert not IndexRepo(home).tree(IndexRepo(home).head(), "modal/audio")  # nor in the commit
    with pytest.raises(QueryError, match="no audio vectors"):
        engine.search(vectors={"audio": vector("m-2020", "audio")})


def test_add_vectors_writes_the_sidecar_and_updates_the_moment(large, tmp_path):
    source, _ = large
    vault = tmp_path / "vault"
    shutil.copytree(source, vault, ignore=shutil.ignore_patterns(".memsearch"))
    index_vault(vault)
    engine = open_index(vault)
    # A direction of its own, unlike every cluster: nearly orthogonal to the other joint vectors.
    new = np.random.default_rng(99).standard_normal(DIMENSIONS["joint"]).astype(np.float32)
    update = engine.add_vectors("m-3030", "joint", new.tolist())
    assert update.action == "changed"
    sidecar = moment_file(vault / "notebook", "m-3030").with_suffix(".joint.npy")
    assert np.array_equal(np.load(sidecar), new)  # the vault holds it, as numpy.save writes it
    # searchable at once, and after the background commit, by a fresh engine too
    assert mid_of(engine.search(vectors={"joint": new}, k=1).results[0].path) == "m-3030"
    assert engine.wait_for_embeddings(60)
    response = open_index(vault).search(vectors={"joint": new}, k=1)
    assert mid_of(response.results[0].path) == "m-3030"
    # no words, and the moment stands out among the joint vectors: the signal says so
    assert response.signal.level == "strong", response.signal
    with pytest.raises(MemsearchError, match="16 values, but the index's audio vectors have 32"):
        engine.add_vectors("m-3030", "audio", [1.0] * 16)
    with pytest.raises(MemsearchError, match="m-9999"):
        engine.add_vectors("m-9999", "audio", [1.0] * 32)
    engine.close()
