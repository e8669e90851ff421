"""`memsearch serve`: a warm process on 127.0.0.1 that answers what a local search answers.

A real server (its own thread) on a real indexed vault, driven over HTTP, through the CLI (click's
runner and a real process) and by a reindex from another process.
"""

import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from serve_helpers import raw_request, without_timings

import memsearch
from memsearch.api import open_index
from memsearch.cli import main
from memsearch.client import (
    BadRequest,
    ServerClient,
    ServerRefused,
    ServerUnavailable,
    find_server,
    read_discovery,
    search_arguments,
    search_via_server,
)
from memsearch.errors import MemsearchError
from memsearch.server import Server

DISCOVERY_FILE = "serve.json"  # the on-disk name, as a script that looks for a server reads it
NOW = "2025-04-01T00:00:00+00:00"
QUERIES = [
    ("who approved the new Ed25519 key?", {}),
    ("sign_ed25519", {"k": 3}),
    ("canal walk", {"territory": "journal/", "chunks": True}),
    ("Mara Lin", {"k": 4, "explain": True}),
    ("what happened last week", {"fact_type": "experience"}),
]
#: Modules the CLI's fast path must never import (the engine, the model, the index).
HEAVY = (
    "numpy",
    "hnswlib",
    "onnxruntime",
    "tokenizers",
    "memsearch.api",
    "memsearch.search",
    "memsearch.index",
)


def _copy_indexed(indexed_vault: Path, to: Path) -> Path:
    """A private copy of the indexed fixture vault, index included (a test may change it)."""
    vault = to / "vault"
    shutil.copytree(indexed_vault, vault, ignore=shutil.ignore_patterns(DISCOVERY_FILE))
    return vault


@pytest.fixture(scope="module")
def served(indexed_vault, tmp_path_factory):
    """A server over a copy of the indexed vault, for tests that only read."""
    vault = _copy_indexed(indexed_vault, tmp_path_factory.mktemp("served"))
    server = Server(vault).start()
    yield server
    server.close()


@pytest.fixture
def fresh_server(indexed_vault, tmp_path):
    """A server of its own over a vault this test may change."""
    vault = _copy_indexed(indexed_vault, tmp_path)
    server = Server(vault).start()
    yield server
    server.close()


def _cli(args: list[str]):
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, (result.output, result.stderr)
    return result


# -- the server ----------------------------------------------------------------------------------------


def test_results_through_the_server_equal_the_engines(served):
    engine = open_index(served.vault)
    info = find_server(served.index_home)
    assert info is not None and info.port == served.port and info.vault == str(served.vault)
    for query, options in QUERIES:
        k = options.get("k", 10)
        rest = {key: v for key, v in options.items() if key != "k"}
        expected = engine.search(query, k, now=NOW, **rest).to_dict()
        got = search_via_server(info, {"query": query, "now": NOW, **options})
        assert got["results"] == expected["results"], query
        assert [(r["path"], r["start_line"], r["end_line"]) for r in got["results"]] == [
            (r["path"], r["start_line"], r["end_line"]) for r in expected["results"]
        ]
        assert got["health"]["ran"] == expected["health"]["ran"]
    engine.close()


def test_health_names_the_vault_the_commit_and_the_process(served):
    status, health = raw_request(served, "GET", "/health")
    assert status == 200
    assert health["vault"] == str(served.vault)
    assert health["commit"] == served.engine.commit and len(health["commit"]) == 40
    assert health["chunks"] > 0 and health["pid"] == os.getpid()
    assert health["uptime"] >= 0 and health["port"] == served.port


def test_binds_loopback_only(served):
    host, port = served._httpd.socket.getsockname()[:2]
    assert host == "127.0.0.1" and port == served.port
    assert served.address == ("127.0.0.1", served.port)
    assert read_discovery(served.index_home).host == "127.0.0.1"


def test_discovery_file_is_owner_only_and_names_this_process(served):
    path = served.index_home / DISCOVERY_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    data = json.loads(path.read_text())
    assert {"host", "port", "pid", "token", "vault", "started"} <= set(data)
    assert data["pid"] == os.getpid() and data["token"] == served.token and len(data["token"]) >= 40
    assert data["vault"] == str(served.vault)


@pytest.mark.parametrize("token", [None, "wrong-token", ""])
def test_a_request_without_the_token_is_refused(served, token):
    for method, path, body in (
        ("POST", "/search", json.dumps({"query": "Mara Lin"}).encode()),
        ("GET", "/health", None),
        ("POST", "/update", json.dumps({"path": "inbox.md"}).encode()),
    ):
        status, answer = raw_request(served, method, path, body, token=token)
        assert status == 401, (method, path)
        assert "token" in answer["error"]
        assert "results" not in answer and "vault" not in answer


def test_bad_json_and_bad_fields_are_400_naming_the_problem(served):
    status, answer = raw_request(served, "POST", "/search", b'{"query": "x",')
    assert status == 400 and "not valid JSON" in answer["error"]
    status, answer = raw_request(served, "POST", "/search", b'{"query":' + b"[" * 100_000 + b"}")
    assert status == 400 and "nested too deeply" in answer["error"]  # was a 500
    status, answer = raw_request(served, "POST", "/search", b'["query"]')
    assert status == 400 and "JSON object" in answer["error"]
    for body, field in (
        ({"query": "x", "k": "five"}, "k"),
        ({"query": "x", "k": 0}, "k"),
        ({"query": 7}, "query"),
        ({"k": 3}, "query"),
        ({"query": "x", "since": 2025}, "since"),
        ({"query": "x", "entities": [1, 2]}, "entities"),
        ({"query": "x", "chunks": "yes"}, "chunks"),
        ({"query": "x", "fact-type": "world"}, "fact-type"),
    ):
        status, answer = raw_request(served, "POST", "/search", json.dumps(body).encode())
        assert status == 400, body
        assert field in answer["error"], (body, answer)
    # The engine's own refusals: 400 with its message.
    status, answer = raw_request(served, "POST", "/search", json.dumps({"query": "  "}).encode())
    assert status == 400 and "empty" in answer["error"]
    bad_since = json.dumps({"query": "x", "since": "soon"}).encode()
    status, answer = raw_request(served, "POST", "/search", bad_since)
    assert status == 400 and "since" in answer["error"]
    status, answer = raw_request(served, "POST", "/update", json.dumps({"path": 3}).encode())
    assert status == 400 and "path" in answer["error"]
    status, answer = raw_request(served, "POST", "/update", json.dumps({"path": "../outside.md"}).encode())
    assert status == 400
    assert raw_request(served, "GET", "/nowhere")[0] == 404
    assert raw_request(served, "GET", "/search")[0] == 405
    assert raw_request(served, "POST", "/search", b"")[0] == 400


def test_a_failure_is_a_500_and_the_server_keeps_running(served, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("the disk caught fire")

    monkeypatch.setattr(served.engine, "search", broken)
    status, answer = raw_request(served, "POST", "/search", json.dumps({"query": "Mara Lin"}).encode())
    assert status == 500 and "the disk caught fire" in answer["error"]
    assert "Traceback" not in answer["error"]
    monkeypatch.undo()
    status, answer = raw_request(served, "POST", "/search", json.dumps({"query": "Mara Lin"}).encode())
    assert status == 200 and answer["results"]


def test_keep_alive_serves_many_requests_on_one_connection(served):
    with ServerClient(find_server(served.index_home)) as client:
        first = client.search({"query": "Mara Lin", "now": NOW})
        sock = client._conn.sock  # http.client reconnects silently: the socket must stay the same one
        assert sock is not None
        with pytest.raises(ServerRefused, match="empty"):
            client.search({"query": ""})
        assert client.search({"query": "Mara Lin", "now": NOW})["results"] == first["results"]
        assert client.health()["pid"] == os.getpid()
        assert client._conn.sock is sock


def test_a_second_server_for_the_same_index_is_refused(served):
    with pytest.raises(MemsearchError, match="already runs"):
        Server(served.vault, warm=False)


# -- keeping fresh -------------------------------------------------------------------------------------


def test_update_makes_a_new_line_keyword_searchable_through_the_server(fresh_server):
    vault = fresh_server.vault
    (vault / "journal" / "2025-03-30.md").write_text(
        "# 2025-03-30\n\nFound the zorblatt ledger under the stairs.\n", encoding="utf-8"
    )
    info = find_server(fresh_server.index_home)
    before = search_via_server(info, {"query": "zorblatt", "strategies": ["keyword"]})
    assert before["results"] == []
    with ServerClient(info) as client:
        update = client.update("journal/2025-03-30.md")
        assert update["action"] == "added" and update["chunks"] >= 1
        found = client.search({"query": "zorblatt", "strategies": ["keyword"]})
        assert [r["path"] for r in found["results"]] == ["journal/2025-03-30.md"]
        assert fresh_server.engine.wait_for_embeddings(60)
        found = client.search({"query": "zorblatt", "strategies": ["keyword"]})
        assert [r["path"] for r in found["results"]] == ["journal/2025-03-30.md"]
    with pytest.raises(ServerRefused):
        search_via_server(info, {"query": "x", "k": -1})


def test_a_reindex_by_another_process_is_picked_up_by_the_next_search(fresh_server):
    vault = fresh_server.vault
    info = find_server(fresh_server.index_home)
    old_commit = fresh_server.engine.commit
    assert search_via_server(info, {"query": "quillowbat", "strategies": ["keyword"]})["results"] == []
    (vault / "reference" / "quillowbat.md").write_text(
        "# Quillowbat\n\nThe quillowbat protocol rotates keys weekly.\n", encoding="utf-8"
    )
    proc = subprocess.run(
        [sys.executable, "-m", "memsearch.cli", "reindex", str(vault), "--no-embed"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode in (0, 3), proc.stderr
    found = search_via_server(info, {"query": "quillowbat", "strategies": ["keyword"]})
    assert [r["path"] for r in found["results"]] == ["reference/quillowbat.md"]
    assert fresh_server.engine.commit != old_commit
    _, health = raw_request(fresh_server, "GET", "/health")
    assert health["commit"] == fresh_server.engine.commit


def test_nothing_is_reloaded_when_nothing_changed(served, monkeypatch):
    calls = []
    monkeypatch.setattr(served.engine, "refresh", lambda: calls.append(1) or False)
    for _ in range(3):
        assert search_via_server(find_server(served.index_home), {"query": "Mara Lin"})["results"]
    assert calls == []


# -- the CLI -------------------------------------------------------------------------------------------


def test_cli_search_goes_through_the_server_and_prints_what_a_local_search_prints(served):
    vault = str(served.vault)
    for args in (
        ["search", "who approved the new Ed25519 key?", "--format", "files"],
        ["search", "Mara Lin", "--format", "table", "--explain", "-k", "3"],
        ["search", "canal walk", "--format", "files", "--chunks", "--territory", "journal/"],
        ["search", "sign_ed25519", "--format", "json", "--strategy", "keyword", "--strategy", "graph"],
    ):
        args = [*args, "--vault", vault, "--now", NOW]
        before = served.requests
        remote = _cli(args)
        assert served.requests == before + 1, args  # answered by the server
        local = _cli([*args, "--no-server"])
        assert served.requests == before + 1, args  # --no-server: not asked
        if "json" in args:
            assert without_timings(remote.stdout) == without_timings(local.stdout)
        else:
            assert remote.stdout == local.stdout
            assert remote.stdout.strip()


def test_cli_batch_through_the_server_equals_the_local_batch(served, tmp_path):
    batch = tmp_path / "queries.jsonl"
    batch.write_text(
        json.dumps({"id": "a", "query": "sign_ed25519", "k": 2})
        + "\n"
        + json.dumps({"id": "b", "query": "canal walk", "territory": "journal/"})
        + "\n"
        + json.dumps({"id": "c", "query": ""})
        + "\n"
        + json.dumps({"id": "d", "query": "x", "since": 5})
        + "\n"
        + json.dumps({"id": "e", "query": "x", "k": "many"})
        + "\n"
        + "not json\n"
    )
    args = ["search", "--batch", str(batch), "--vault", str(served.vault), "--now", NOW, "--chunks"]
    before = served.requests
    remote = _cli(args)
    assert served.requests == before + 3  # a, b and c (refused: empty); d and e fail before sending
    local = _cli([*args, "--no-server"])
    answers = without_timings(remote.stdout)
    assert answers == without_timings(local.stdout)
    assert [a["id"] for a in answers] == ["a", "b", "c", "d", "e", None]
    assert "empty" in answers[2]["error"] and "since" in answers[3]["error"]
    assert "line 6" in answers[5]["error"]


def test_cli_errors_through_the_server_match_the_local_ones(served, monkeypatch):
    from memsearch.cli import searching

    args = ["search", "   ", "--vault", str(served.vault)]
    before = served.requests
    opened = []
    real_open = searching.open_local
    monkeypatch.setattr(searching, "open_local", lambda *a, **kw: opened.append(a) or real_open(*a, **kw))
    remote = CliRunner().invoke(main, args)
    assert served.requests == before + 1 and opened == []  # the server's refusal, no local search after
    local = CliRunner().invoke(main, [*args, "--no-server"])
    assert len(opened) == 1
    assert remote.exit_code == local.exit_code == 1
    assert remote.stderr == local.stderr and "empty" in remote.stderr


def test_cli_at_searches_locally(served):
    before = served.requests
    _cli(["search", "Mara Lin", "--vault", str(served.vault), "--at", "HEAD", "--format", "files"])
    assert served.requests == before


def test_a_real_cli_process_uses_the_server_without_importing_the_engine(served):
    args = [sys.executable, "-X", "importtime", "-m", "memsearch.cli", "search", "Mara Lin"]
    args += ["--vault", str(served.vault), "--now", NOW, "--format", "files", "-k", "4"]
    before = served.requests
    remote = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert remote.returncode == 0, remote.stderr
    assert served.requests == before + 1
    imported = {line.rsplit("|", 1)[-1].strip() for line in remote.stderr.splitlines() if "|" in line}
    assert "memsearch.client" in imported
    heavy = sorted(m for m in imported if any(m == h or m.startswith(h + ".") for h in HEAVY))
    assert heavy == []
    local = subprocess.run([*args, "--no-server"], capture_output=True, text=True, timeout=120)
    assert local.returncode == 0, local.stderr
    assert "numpy" in {line.rsplit("|", 1)[-1].strip() for line in local.stderr.splitlines()}
    assert remote.stdout == local.stdout and remote.stdout.strip()


def test_a_stale_discovery_file_falls_back_to_the_local_search(indexed_vault, tmp_path):
    vault = _copy_indexed(indexed_vault, tmp_path)
    args = ["search", "Mara Lin", "--vault", str(vault), "--now", NOW, "--format", "files"]
    expected = _cli([*args, "--no-server"]).stdout
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    discovery = vault / ".memsearch" / DISCOVERY_FILE
    stale = {"host": "127.0.0.1", "port": 9, "pid": dead.pid, "token": "t", "vault": str(vault)}
    stale.update(started=0, version=memsearch.__version__)
    discovery.write_text(json.dumps(stale))
    assert find_server(vault / ".memsearch") is None
    assert _cli(args).stdout == expected
    # A live pid (ours) whose port answers nothing: refused, then the local search.
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed_port = s.getsockname()[1]
    discovery.write_text(json.dumps({**stale, "pid": os.getpid(), "port": closed_port}))
    assert find_server(vault / ".memsearch") is not None
    from memsearch.client import warm_client

    client = warm_client(vault, None)
    assert client is not None  # it is tried: the connection is refused
    with pytest.raises(ServerUnavailable):
        client.search({"query": "Mara Lin"})
    assert _cli(args).stdout == expected
    # Garbage in the file: ignored.
    discovery.write_text("{not json")
    assert find_server(vault / ".memsearch") is None
    assert _cli(args).stdout == expected
    # A pid past what the system's call takes raised OverflowError: search and serve both failed.
    for pid in (2**32, 2**70):
        discovery.write_text(json.dumps({**stale, "pid": pid}))
        assert find_server(vault / ".memsearch") is None
        assert _cli(args).stdout == expected


def test_a_wrong_token_in_the_discovery_file_falls_back_to_the_local_search(fresh_server):
    discovery = fresh_server.index_home / DISCOVERY_FILE
    data = json.loads(discovery.read_text())
    discovery.write_text(json.dumps({**data, "token": "not-the-token"}))
    args = ["search", "Mara Lin", "--vault", str(fresh_server.vault), "--now", NOW, "--format", "files"]
    before = fresh_server.requests
    assert _cli(args).stdout == _cli([*args, "--no-server"]).stdout
    assert fresh_server.requests == before  # 401s are not counted as answered requests
    discovery.write_text(json.dumps(data))  # close() removes it only if it still names the server


def test_close_removes_the_discovery_file_only_if_it_names_this_server(indexed_vault, tmp_path):
    vault = _copy_indexed(indexed_vault, tmp_path)
    server = Server(vault, warm=False).start()
    path = server.index_home / DISCOVERY_FILE
    assert path.exists()
    server.close()
    assert not path.exists()
    server = Server(vault, warm=False).start()
    data = json.loads(path.read_text())
    path.write_text(json.dumps({**data, "pid": data["pid"] + 1}))  # someone else's now
    server.close()
    assert path.exists()


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_serve_command_runs_until_a_stop_signal_and_cleans_up(indexed_vault, tmp_path, stop):
    vault = _copy_indexed(indexed_vault, tmp_path)
    proc = subprocess.Popen(
        [sys.executable, "-m", "memsearch.cli", "serve", "--vault", str(vault)],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stderr.readline()
        assert line.startswith(f"serving {vault.resolve()} on http://127.0.0.1:"), line
        assert f"(pid {proc.pid})" in line
        info = find_server(vault / ".memsearch")
        assert info is not None and info.pid == proc.pid and f":{info.port} " in line
        assert search_via_server(info, {"query": "Mara Lin"})["results"]
        args = ["search", "Mara Lin", "--vault", str(vault), "--now", NOW, "--format", "files"]
        assert _cli(args).stdout == _cli([*args, "--no-server"]).stdout
        proc.send_signal(stop)
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert not (vault / ".memsearch" / DISCOVERY_FILE).exists()


# -- small parts ---------------------------------------------------------------------------------------


def test_search_arguments_check_every_field():
    query, k, options = search_arguments({"query": "q", "entities": "Mara", "strategies": ["keyword"]})
    assert (query, k) == ("q", 10)
    assert options["entities"] == ["Mara"] and options["strategies"] == ["keyword"]
    assert options["chunks"] is False and options["since"] is None
    assert search_arguments({"query": "q", "k": None, "id": 3}, strict=True)[1] == 10
    with pytest.raises(BadRequest, match="k must"):
        search_arguments({"query": "q", "k": True})
    with pytest.raises(BadRequest, match="'limit'"):
        search_arguments({"query": "q", "limit": 3}, strict=True)
    assert search_arguments({"query": "q", "limit": 3})[0] == "q"  # the batch ignores unknown keys


def test_the_light_index_home_is_the_stores(tmp_path, monkeypatch):
    from memsearch import paths
    from memsearch.paths import default_home

    vault = tmp_path / "v"
    vault.mkdir()
    monkeypatch.delenv("MEMSEARCH_HOME", raising=False)
    assert paths.default_home(vault.resolve()) == default_home(vault.resolve())
    assert paths.default_home(vault.resolve()) == vault.resolve() / ".memsearch"
    monkeypatch.setenv("MEMSEARCH_HOME", str(tmp_path / "homes"))
    assert paths.default_home(vault.resolve()) == default_home(vault.resolve())
    home = paths.default_home(vault.resolve())  # (store's is this one since they were merged)
    assert home.parent == tmp_path / "homes" and home.name.startswith("v-") and len(home.name) == 12
    assert paths.resolved_vault(vault) == vault.resolve()
    assert paths.resolved_vault(tmp_path / "missing") is None


def test_the_fast_path_modules_import_nothing_heavy():
    code = (
        "import sys, memsearch.cli, memsearch.client, memsearch.paths\n"
        f"heavy = [m for m in sys.modules if m.split('.')[0] in {HEAVY!r} or m in {HEAVY!r}"
        f" or any(m.startswith(h + '.') for h in {HEAVY!r})]\n"
        "print(heavy)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_the_package_still_exports_its_value_objects():
    from memsearch import Chunk, MemsearchError, Result, SearchResponse, Settings  # noqa: F401

    assert memsearch.Settings is Settings and "Territory" in dir(memsearch)
    with pytest.raises(AttributeError):
        memsearch.nothing_like_this  # noqa: B018


def test_a_discovery_file_naming_another_host_is_never_used(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    assert find_server(home) is None
    info = {"host": "10.0.0.1", "port": 80, "pid": os.getpid(), "token": "t", "vault": "/v", "started": 0}
    (home / DISCOVERY_FILE).write_text(json.dumps(info))
    assert find_server(home) is None  # queries never leave the machine
    (home / DISCOVERY_FILE).write_text(json.dumps({**info, "host": "127.0.0.1"}))
    assert find_server(home) is not None


def test_no_thread_outlives_a_closed_server(indexed_vault, tmp_path):
    import threading

    vault = _copy_indexed(indexed_vault, tmp_path)
    before = set(threading.enumerate())
    server = Server(vault, warm=False).start()
    batch = tmp_path / "q.jsonl"
    batch.write_text(json.dumps({"query": "Mara Lin"}) + "\n")
    _cli(["search", "--batch", str(batch), "--vault", str(vault)])
    _cli(["search", "Mara Lin", "--vault", str(vault)])
    with ServerClient(find_server(server.index_home)) as client:
        client.update("inbox.md")
    server.close()
    deadline = time.monotonic() + 10
    while set(threading.enumerate()) - before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert set(threading.enumerate()) - before == set()


def test_a_batch_continues_locally_when_the_server_stops_answering(indexed_vault, tmp_path):
    from memsearch.cli.searching import open_local
    from memsearch.client import WarmSearch

    class Flaky:
        """Answers the first search, then is gone."""

        def __init__(self, engine):
            self.engine, self.calls, self.closed = engine, 0, False

        def search(self, request):
            self.calls += 1
            if self.calls > 1:
                raise ServerUnavailable("gone")
            options = {k: v for k, v in request.items() if k not in ("query", "k")}
            return self.engine.search(request["query"], request["k"], **options).to_dict()

        def close(self):
            self.closed = True

    engine = open_index(indexed_vault)
    flaky = Flaky(engine)
    opened = []
    search = WarmSearch(flaky, lambda: opened.append(1) or open_local(indexed_vault, None))
    _, _, options = search_arguments({"query": "Mara Lin", "now": NOW})
    first = search("Mara Lin", 3, options)
    second = search("Mara Lin", 3, options)
    third = search("Mara Lin", 3, options)
    assert first["results"] == second["results"] == third["results"]
    assert flaky.calls == 2 and flaky.closed and opened == [1]  # loaded once, server not asked again


def test_a_changed_vault_config_is_read_again_as_a_local_search_would(fresh_server):
    config = fresh_server.vault / "memsearch.toml"
    args = ["search", "Ed25519 key", "--vault", str(fresh_server.vault), "--now", NOW, "--format", "files"]
    before = _cli(args).stdout
    config.write_text('[[territory]]\nprefix = "reference/"\nweight = 0.2\n', encoding="utf-8")
    after = _cli(args).stdout
    assert after == _cli([*args, "--no-server"]).stdout
    assert after != before
    config.write_text("[[territory]\nbroken", encoding="utf-8")
    remote = CliRunner().invoke(main, args)
    local = CliRunner().invoke(main, [*args, "--no-server"])
    assert remote.exit_code == local.exit_code == 1
    assert remote.stderr == local.stderr and "memsearch.toml" in remote.stderr
    config.unlink()
    assert _cli(args).stdout == before


def test_the_apis_search_warm_asks_the_server_else_searches_here(served, indexed_vault, tmp_path):
    from memsearch.api import search_warm

    before = served.requests
    remote = search_warm(served.vault, "Mara Lin", k=3, now=NOW)
    assert served.requests == before + 1
    local = open_index(served.vault).search("Mara Lin", 3, now=NOW).to_dict()
    for answer in (remote, local):
        answer["health"].pop("timings_ms", None)
    assert remote == local and remote["results"]
    unserved = _copy_indexed(indexed_vault, tmp_path)  # no server for this copy: searched here
    here = search_warm(unserved, "Mara Lin", k=3, now=NOW)
    here["health"].pop("timings_ms", None)
    assert here["results"] == local["results"] and served.requests == before + 1
