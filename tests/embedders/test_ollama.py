"""The Ollama backend, driven through the real ``ollama`` client over real HTTP.

THE SERVER HERE IS A PROTOCOL STAND-IN, NOT OLLAMA. No Ollama server can be installed on the
machines these tests run on, so ``tests/ollama_standin.py`` serves Ollama's documented
``/api/embed`` and ``/api/tags`` on 127.0.0.1 (real sockets, status codes, error bodies,
timeouts and disconnects), backed by the built-in MiniLM model so the vectors are real. What
these tests establish is that memsearch speaks the protocol and survives its failures; they
say nothing about nomic-embed-text's own vectors (the stand-in's "nomic-embed-text" is
MiniLM's vector padded to 768 dimensions).
"""

from __future__ import annotations

import socket
import time

import numpy as np
import pytest
from ollama_standin import StandIn

from memsearch.embedders import backend_options, embedder_for, registry
from memsearch.embedders.base import EmbedderUnavailableError
from memsearch.embedders.ollama import (
    DEFAULT_MODEL,
    OllamaEmbedder,
    full_model_name,
    parse_option,
    resolve_host,
    split_in_two,
)
from memsearch.embedders.registry import get_embedder
from memsearch.errors import ConfigError, EmbedderError


@pytest.fixture(scope="module")
def server():
    standin = StandIn()
    yield standin
    standin.stop()


@pytest.fixture(autouse=True)
def healthy(server):
    """Each test starts with a healthy, running stand-in."""
    if not server.alive:
        server.restart()
    server.mode, server.kill_after = "ok", None
    yield


@pytest.fixture(scope="module")
def minilm():
    return get_embedder("minilm")


def _closed_port() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"  # nothing listens there now


# -- spec, dimensions, fingerprint -----------------------------------------------------------------


def test_specs_name_model_tag_and_dimension() -> None:
    assert parse_option("") == (DEFAULT_MODEL, None)
    assert parse_option("nomic-embed-text:256") == ("nomic-embed-text", 256)
    assert parse_option("nomic-embed-text:v1.5") == ("nomic-embed-text:v1.5", None)
    assert parse_option("nomic-embed-text:v1.5:512") == ("nomic-embed-text:v1.5", 512)
    assert parse_option("256") == (DEFAULT_MODEL, 256)
    default = get_embedder("ollama")
    assert isinstance(default, OllamaEmbedder)
    assert (default.model, default.dim, default.native_dim) == ("nomic-embed-text", 768, 768)
    assert default.document_prefix == "search_document: " and default.query_prefix == "search_query: "
    assert default.spec == "ollama:nomic-embed-text:768"
    assert get_embedder(default.spec).fingerprint == default.fingerprint  # the spec round-trips
    small = get_embedder("ollama:nomic-embed-text:256")
    assert small.dim == 256 and small.native_dim == 768
    assert get_embedder("ollama:my-embedder:1024").dim == 1024


def test_bad_specs_say_what_to_write() -> None:
    with pytest.raises(EmbedderError, match=r"ollama:my-embedder:DIM"):
        OllamaEmbedder("my-embedder")
    with pytest.raises(EmbedderError, match="768, 512, 256"):
        OllamaEmbedder("nomic-embed-text", 300)
    with pytest.raises(EmbedderError, match="384"):
        OllamaEmbedder("all-minilm", 256)  # not a Matryoshka model
    with pytest.raises(EmbedderError, match="timeout"):
        OllamaEmbedder(timeout=0)
    with pytest.raises(EmbedderError, match="batch_size"):
        OllamaEmbedder(batch_size=0)


def test_fingerprint_covers_what_shapes_a_vector_and_not_the_host() -> None:
    base = OllamaEmbedder(host="http://a:1")
    assert OllamaEmbedder(host="http://b:2").fingerprint == base.fingerprint
    assert OllamaEmbedder("nomic-embed-text:latest", host="http://a:1").fingerprint == base.fingerprint
    others = [
        OllamaEmbedder(dim=256),
        OllamaEmbedder(document_prefix=""),
        OllamaEmbedder(query_prefix=""),
        OllamaEmbedder("nomic-embed-text:v1.5"),
        OllamaEmbedder("all-minilm"),
    ]
    prints = {base.fingerprint, *(o.fingerprint for o in others)}
    assert len(prints) == len(others) + 1
    assert get_embedder("minilm").fingerprint not in prints


def test_host_from_argument_env_or_default(monkeypatch) -> None:
    monkeypatch.delenv("OLLAMA_HOST", raising=False)
    assert resolve_host() == "http://localhost:11434"
    monkeypatch.setenv("OLLAMA_HOST", "10.0.0.5:9999")
    assert OllamaEmbedder().host == "http://10.0.0.5:9999"
    assert OllamaEmbedder(host="http://127.0.0.1:1234").host == "http://127.0.0.1:1234"


def test_vault_config_gives_backend_options(tmp_path) -> None:
    (tmp_path / "memsearch.toml").write_text(
        '[ollama]\nhost = "http://127.0.0.1:9"\ntimeout = 7\nquery_timeout = 2\nbatch_size = 4\n'
    )
    options = backend_options(tmp_path, "ollama:nomic-embed-text:256")
    assert options == {"host": "http://127.0.0.1:9", "timeout": 7, "query_timeout": 2, "batch_size": 4}
    assert backend_options(tmp_path, "minilm") == {}
    made = embedder_for("ollama:nomic-embed-text:256", tmp_path)
    assert (made.host, made.timeout, made.query_timeout, made.batch_size) == ("http://127.0.0.1:9", 7, 2, 4)
    (tmp_path / "memsearch.toml").write_text('[ollama]\nhots = "x"\n')
    with pytest.raises(ConfigError, match="hots"):
        backend_options(tmp_path, "ollama")


# -- normal use ------------------------------------------------------------------------------------


def test_vectors_are_the_model_s_own(server, minilm) -> None:
    """all-minilm through the protocol equals the built-in all-MiniLM-L6-v2 vector for vector."""
    remote = OllamaEmbedder("all-minilm", host=server.host)
    texts = ["A man is eating food.", "The quarterly budget review was postponed.", "signing keys"]
    got = remote.embed_documents(texts)
    want = minilm.embed_documents(texts)
    assert got.shape == (3, 384) and got.dtype == np.float32
    assert np.allclose(got, want, atol=1e-5)
    assert np.allclose(remote.embed_query("signing keys"), want[2], atol=1e-5)


def test_nomic_prefixes_no_truncation_and_matryoshka_cut(server, minilm) -> None:
    embedder = OllamaEmbedder("nomic-embed-text", 256, host=server.host)
    before = len(server.bodies)
    docs = embedder.embed_documents(["rotate the signing keys", "Berlin canal walk"])
    query = embedder.embed_query("which keys were rotated")
    sent = server.bodies[before:]
    assert sent[0]["input"] == [
        "search_document: rotate the signing keys",
        "search_document: Berlin canal walk",
    ]
    assert sent[1]["input"] == ["search_query: which keys were rotated"]
    assert all(body["model"] == "nomic-embed-text" and body["truncate"] is False for body in sent)
    assert "dimensions" not in sent[0]  # the full vector is asked for and cut here
    assert docs.shape == (2, 256) and query.shape == (256,)
    assert np.allclose(np.linalg.norm(docs, axis=1), 1.0, atol=1e-5)
    full = minilm.embed_documents(["search_document: rotate the signing keys"])[0][:256]
    assert np.allclose(docs[0], full / np.linalg.norm(full), atol=1e-5)


def test_batches_keep_input_order(server, minilm) -> None:
    embedder = OllamaEmbedder("all-minilm", host=server.host, batch_size=4)
    texts = [f"note number {i} about topic {i % 3}" for i in range(10)]
    before = server.embed_requests
    seen: list[tuple[int, int]] = []
    got = embedder.embed_documents(texts, progress=lambda d, n: seen.append((d, n)))
    assert server.embed_requests - before == 3  # 4 + 4 + 2
    assert seen == [(4, 10), (8, 10), (10, 10)]
    assert np.allclose(got, minilm.embed_documents(texts), atol=1e-5)


def test_pulled_models_from_api_tags(server) -> None:
    embedder = OllamaEmbedder(host=server.host)
    models = embedder.pulled_models()
    assert models == ["all-minilm:latest", "nomic-embed-text:latest"]
    assert embedder.is_pulled(models)
    assert not OllamaEmbedder("nomic-embed-text:v1.5", host=server.host).is_pulled(models)
    assert full_model_name("nomic-embed-text") == "nomic-embed-text:latest"


# -- longer than the model's context ---------------------------------------------------------------


def test_a_text_over_the_context_is_split_never_cut(server, minilm) -> None:
    embedder = OllamaEmbedder("all-minilm", host=server.host, batch_size=8)
    long = "\n\n".join(f"Paragraph {i} says the key {i} was rotated on day {i}." for i in range(60))
    assert minilm.count_tokens(long) > server.context_tokens
    before = len(server.bodies)
    got = embedder.embed_documents(["short one", long, "short two"])
    sent = server.bodies[before:]
    # The first request (all three) is refused; the batch is halved until the long text is alone.
    assert sent[0]["input"] == ["short one", long, "short two"]
    assert embedder.split_texts >= 1
    pieces = [b["input"][0] for b in sent if len(b["input"]) == 1 and b["input"][0] in long]
    accepted = [p for p in pieces if minilm.count_tokens(p) <= server.context_tokens]
    assert "".join(accepted) == long  # every character was embedded, in order, once
    assert np.allclose(got[0], minilm.embed_documents(["short one"])[0], atol=1e-5)
    assert np.allclose(got[2], minilm.embed_documents(["short two"])[0], atol=1e-5)
    weights = np.array([len(p) for p in accepted], dtype=np.float32)
    mean = (weights[:, None] * minilm.embed_documents(accepted)).sum(axis=0)
    assert np.allclose(got[1], mean / np.linalg.norm(mean), atol=1e-5)


def test_split_in_two_keeps_every_character() -> None:
    for text in ["ab", "abc", "one two", "a. b. c. d.", "x" * 101, "line\n\npara\nline two. end"]:
        left, right = split_in_two(text)
        assert left and right and left + right == text
    left, right = split_in_two("first paragraph here\n\nsecond paragraph here")
    assert left.endswith("\n\n") and right == "second paragraph here"


# -- failures --------------------------------------------------------------------------------------


def test_server_down_is_unavailable_and_fast() -> None:
    embedder = OllamaEmbedder(host=_closed_port())
    started = time.perf_counter()
    with pytest.raises(EmbedderUnavailableError, match="ollama serve"):
        embedder.embed_documents(["x"])
    with pytest.raises(EmbedderUnavailableError, match="does not answer"):
        embedder.embed_query("x")
    with pytest.raises(EmbedderUnavailableError):
        embedder.pulled_models()
    assert time.perf_counter() - started < 3


def test_a_hung_server_costs_one_timeout(server) -> None:
    """A server that never answers costs the timeout, not its hang (bounds are loose for busy machines)."""
    server.mode, server.hang_seconds = "hang", 10
    embedder = OllamaEmbedder(host=server.host, timeout=0.4, query_timeout=0.3)
    started = time.perf_counter()
    with pytest.raises(EmbedderUnavailableError, match="in time"):
        embedder.embed_documents(["x"])
    assert time.perf_counter() - started < 3
    started = time.perf_counter()
    with pytest.raises(EmbedderUnavailableError, match=r"within 0\.3 s"):
        embedder.embed_query("x")
    assert time.perf_counter() - started < 2


def test_http_500_is_an_error_for_this_batch(server) -> None:
    server.mode = "error500"
    with pytest.raises(EmbedderError, match=r"runner process has terminated.*HTTP 500") as info:
        OllamaEmbedder(host=server.host).embed_documents(["x"])
    assert not isinstance(info.value, EmbedderUnavailableError)  # the next batch may succeed


def test_a_wrong_dimension_is_refused_not_truncated(server) -> None:
    server.mode = "wrong_dim"
    with pytest.raises(EmbedderUnavailableError, match="767-dimensional vectors, expected 768"):
        OllamaEmbedder("nomic-embed-text", 256, host=server.host).embed_documents(["x"])
    server.mode = "ok"
    # A model that really gives 768 where 384 was said is refused too.
    with pytest.raises(EmbedderUnavailableError, match="expected 384"):
        OllamaEmbedder("nomic-embed-text", native_dim=384, host=server.host).embed_documents(["x"])


def test_a_model_not_pulled_names_the_pull_command(server) -> None:
    with pytest.raises(EmbedderUnavailableError, match="ollama pull mxbai-embed-large"):
        OllamaEmbedder("mxbai-embed-large", 1024, host=server.host).embed_documents(["x"])


def test_an_answer_in_another_format_is_refused(server) -> None:
    server.mode = "garbage"
    with pytest.raises(EmbedderUnavailableError, match="really an Ollama server"):
        OllamaEmbedder(host=server.host).embed_documents(["x"])


def test_a_server_killed_mid_request_is_unavailable(server) -> None:
    server.kill_after = 0
    with pytest.raises(EmbedderUnavailableError):
        OllamaEmbedder(host=server.host).embed_documents(["x"])
    assert not server.alive


def test_registered_instances_are_shared_per_spec_and_options(server) -> None:
    a = get_embedder("ollama:nomic-embed-text:256", host=server.host)
    assert get_embedder("ollama:nomic-embed-text:256", host=server.host) is a
    assert get_embedder("ollama:nomic-embed-text:256", host="http://127.0.0.1:1") is not a
    assert "ollama" in registry.EMBEDDERS
