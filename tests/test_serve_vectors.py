"""Query vectors through ``memsearch serve``: ``POST /search`` takes ``vectors`` ({modality: [numbers]}),
``memsearch search --vector MODALITY=FILE`` goes through a running server as a text search does, and
``--batch`` lines may carry ``"vectors"``; the answers and the errors are those of a local search.

A real server (its own thread, a loopback port) over a real indexed notebook vault with sidecars.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from notebook_fixture import SIDECAR_DIMENSIONS, sidecar_vector, write_notebook, write_sidecars
from serve_helpers import raw_request, without_timings

from memsearch.api import index_vault
from memsearch.cli import main
from memsearch.server import Server

MOMENT = "notebook/sessions/s-alpha/moments/m-0101.yaml"
#: What a CLI process answered by the server must not import even with --vector (numpy reads the
#: .npy file; the engine, the index and the model stay out).
ENGINE = ("hnswlib", "onnxruntime", "tokenizers", "memsearch.api", "memsearch.search", "memsearch.index")


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    vault = tmp_path_factory.mktemp("served-vectors") / "vault"
    write_notebook(vault / "notebook")
    write_sidecars(vault / "notebook")
    index_vault(vault)
    server = Server(vault).start()
    yield server
    server.close()


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    """Query vector files: m-0101's own audio and image, a wrong-sized one, one of an unknown modality."""
    where = tmp_path_factory.mktemp("queries")
    out = {
        "audio": where / "clip.npy",
        "image": where / "shot.npy",
        "short": where / "short.npy",
        "smell": where / "smell.npy",
    }
    np.save(out["audio"], sidecar_vector("m-0101", "audio"))
    np.save(out["image"], sidecar_vector("m-0101", "image"))
    np.save(out["short"], np.ones(SIDECAR_DIMENSIONS["audio"] - 3, dtype=np.float32))
    np.save(out["smell"], np.ones(8, dtype=np.float32))
    return out


def _post(server: Server, body: object) -> tuple[int, dict]:
    return raw_request(server, "POST", "/search", json.dumps(body).encode())


def test_post_search_takes_vectors_with_or_without_a_query(served):
    vector = sidecar_vector("m-0101", "audio").tolist()
    status, answer = _post(served, {"vectors": {"audio": vector}, "k": 3})
    assert status == 200, answer
    assert answer["results"][0]["path"] == MOMENT
    status, answer = _post(served, {"query": "signing key", "vectors": {"audio": vector}, "explain": True})
    assert status == 200, answer
    assert answer["results"][0]["path"] == MOMENT
    assert "vector:audio" in answer["results"][0]["explanation"]["strategies"]


@pytest.mark.parametrize(
    ("vectors", "named"),
    [
        ([0.1, 0.2], "vectors must be an object"),
        ({"audio": "loud"}, "vectors.audio must be a non-empty list"),
        ({"audio": [0.1, "x"]}, "vectors.audio must be a list of numbers (its item 1"),
        ({"audio": [True] * 16}, "vectors.audio must be a list of numbers"),
        ({"audio": [0.5] * 5}, "the audio query vector has 5 values"),
        ({"smell": [0.5] * 5}, "the index holds no smell vectors"),
    ],
)
def test_post_search_refuses_bad_vectors_with_a_400_naming_them(served, vectors, named):
    status, answer = _post(served, {"vectors": vectors})
    assert status == 400, answer
    assert named in answer["error"]


def test_cli_vector_search_goes_through_the_server_and_prints_what_a_local_search_prints(served, files):
    vault = str(served.vault)
    for args in (
        ["search", "--vector", f"audio={files['audio']}", "--format", "files", "-k", "3"],
        ["search", "signing key", "--vector", f"image={files['image']}", "--explain", "--format", "table"],
        ["search", "--vector", f"audio={files['audio']}", "--vector", f"image={files['image']}", "--json"],
    ):
        args = [*args, "--vault", vault]
        before = served.requests
        remote = CliRunner().invoke(main, args)
        assert remote.exit_code == 0, remote.output
        assert served.requests == before + 1, args  # answered by the server
        local = CliRunner().invoke(main, [*args, "--no-server"])
        assert local.exit_code == 0, local.output
        assert served.requests == before + 1, args
        if "--json" in args:
            assert without_timings(remote.stdout) == without_timings(local.stdout)
        else:
            assert remote.stdout == local.stdout
        assert MOMENT in remote.stdout.splitlines()[0] or MOMENT in remote.stdout


@pytest.mark.parametrize(
    ("modality", "file", "named"), [("audio", "short", "13 values"), ("smell", "smell", "no smell")]
)
def test_cli_vector_errors_through_the_server_are_the_local_ones(
    served, files, monkeypatch, modality, file, named
):
    from memsearch.cli import searching

    opened: list = []
    real_open = searching.open_local
    monkeypatch.setattr(searching, "open_local", lambda *a, **kw: opened.append(a) or real_open(*a, **kw))
    args = ["search", "--vault", str(served.vault), "--vector", f"{modality}={files[file]}"]
    before = served.requests
    remote = CliRunner().invoke(main, args)
    assert served.requests == before + 1 and opened == []  # the server's refusal; nothing loaded here
    local = CliRunner().invoke(main, [*args, "--no-server"])
    assert remote.exit_code == local.exit_code == 1
    assert remote.stderr == local.stderr and named in remote.stderr
    assert "Traceback" not in remote.output


def test_a_real_cli_process_sends_the_vector_to_the_server_without_loading_the_engine(served, files):
    args = [sys.executable, "-X", "importtime", "-m", "memsearch.cli", "search", "--vault", str(served.vault)]
    args += ["--vector", f"audio={files['audio']}", "--format", "files", "-k", "2"]
    before = served.requests
    remote = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert remote.returncode == 0, remote.stderr
    assert served.requests == before + 1
    imported = {line.rsplit("|", 1)[-1].strip() for line in remote.stderr.splitlines() if "|" in line}
    assert sorted(m for m in imported if any(m == h or m.startswith(h + ".") for h in ENGINE)) == []
    assert remote.stdout.splitlines()[0].startswith(MOMENT + ":")


def test_batch_lines_carry_vectors_through_the_server_and_locally_alike(served, tmp_path):
    audio = sidecar_vector("m-0101", "audio").tolist()
    lines = [
        {"id": "a", "vectors": {"audio": audio}, "k": 2},
        {"id": "b", "query": "signing key", "vectors": {"audio": audio}},
        {"id": "c", "vectors": {"audio": "loud"}},
        {"id": "d", "vectors": [1, 2]},
        {"id": "e", "vectors": {"audio": [0.5] * 5}},
        {"id": "f"},
    ]
    batch = tmp_path / "queries.jsonl"
    batch.write_text("".join(json.dumps(line) + "\n" for line in lines))
    args = ["search", "--batch", str(batch), "--vault", str(served.vault)]
    before = served.requests
    remote = CliRunner().invoke(main, args)
    assert remote.exit_code == 0, remote.output
    assert served.requests == before + 3  # a, b, and e (refused by the engine: its dimension)
    local = CliRunner().invoke(main, [*args, "--no-server"])
    answers = without_timings(remote.stdout)
    assert answers == without_timings(local.stdout)
    assert [a["id"] for a in answers] == ["a", "b", "c", "d", "e", "f"]
    assert answers[0]["results"][0]["path"] == MOMENT and answers[1]["results"][0]["path"] == MOMENT
    assert answers[2]["error"].startswith("line 3: vectors.audio must be a non-empty list")
    assert answers[3]["error"].startswith("line 4: vectors must be an object")
    assert "the audio query vector has 5 values" in answers[4]["error"]
    assert answers[5]["error"].startswith("line 6: query: missing")
