"""`memsearch mcp` end to end: the SDK's own stdio client spawns the server and calls both tools."""

import asyncio
import json
import sys

import pytest
from click.testing import CliRunner

from memsearch.cli import main

mcp = pytest.importorskip("mcp")

NOW = "2025-04-01T00:00:00+00:00"
QUERIES = ["who approved the new Ed25519 key?", "sign_ed25519", "walk along the canal in Berlin"]


async def _session_calls(vault, calls):
    """Spawn `python -m memsearch.cli mcp --vault VAULT`, list the tools, make the calls."""
    from mcp import ClientSession, StdioServerParameters, stdio_client

    params = StdioServerParameters(
        command=sys.executable, args=["-m", "memsearch.cli", "mcp", "--vault", str(vault)]
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        init = await session.initialize()
        listed = await session.list_tools()
        answers = []
        for name, arguments in calls:
            answers.append(await session.call_tool(name, arguments))
        return init, listed, answers


def _run(vault, calls):
    return asyncio.run(asyncio.wait_for(_session_calls(vault, calls), timeout=120))


def _cli_search(vault, query, k):
    result = CliRunner().invoke(
        main, ["search", query, "--vault", str(vault), "--format", "json", "--now", NOW, "-k", str(k)]
    )
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_client_lists_the_tools_and_gets_the_cli_results(indexed_vault):
    calls = [("memory_search", {"query": q, "k": 5, "now": NOW}) for q in QUERIES]
    calls.append(("memory_open", {"path": "reference/redflag.md:32-35"}))
    init, listed, answers = _run(indexed_vault, calls)

    assert init.server_info.name == "memsearch"
    tools = {t.name: t for t in listed.tools}
    assert set(tools) == {"memory_search", "memory_open"}
    assert tools["memory_search"].input_schema["required"] == []  # query, vectors or both
    assert "vectors" in tools["memory_search"].input_schema["properties"]
    assert "memory_open" in tools["memory_search"].description

    for query, answer in zip(QUERIES, answers[: len(QUERIES)], strict=True):
        assert answer.is_error is False
        data = answer.structured_content
        assert json.loads(answer.content[0].text) == data  # what the model reads = what a program reads
        cli = _cli_search(indexed_vault, query, 5)
        assert data["results"], query
        assert [{k: v for k, v in r.items() if k != "ref"} for r in data["results"]] == cli["results"]

    opened = answers[-1].structured_content
    result = CliRunner().invoke(main, ["open", "reference/redflag.md:32-35", "--vault", str(indexed_vault)])
    assert opened["ok"] and opened["text"] + "\n" == result.stdout
    assert "Mara Lin" in opened["text"]


def test_failures_are_tool_results_not_protocol_errors(indexed_vault):
    calls = [
        ("memory_search", {"query": 42}),
        ("memory_search", {"query": "keys", "k": "lots"}),
        ("memory_search", {"query": "keys", "territory": "nowhere/"}),
        ("memory_open", {"path": "../../etc/passwd"}),
        ("memory_open", {"path": "/etc/passwd"}),
        ("memory_delete", {"path": "inbox.md"}),
    ]
    _, _, answers = _run(indexed_vault, calls)
    codes = [a.structured_content.get("code") for a in answers]
    assert codes == ["bad_argument", "bad_argument", None, "path_refused", "path_refused", "bad_argument"]
    assert [a.is_error for a in answers] == [True, True, False, True, True, True]
    assert answers[2].structured_content["status"] == "no_results"
    for answer in answers:
        assert answer.structured_content["message"] == json.loads(answer.content[0].text)["message"]


def test_missing_index_over_mcp(vault_copy):
    _, _, [answer] = _run(vault_copy, [("memory_search", {"query": "keys"})])
    assert answer.is_error and answer.structured_content["code"] == "index_missing"
    assert "memsearch index" in answer.structured_content["error"]


def test_hostile_arguments_are_tool_results_over_mcp(indexed_vault):
    calls = [
        ("memory_search", {"query": "keys", "self": 1}),
        ("memory_open", {"path": "inbox.md", "self": 1}),
        ("memory_open", {"path": "a" * 299 + ".md"}),
        ("memory_open", {"path": "inbox.md", "start_line": "9" * 5000}),
    ]
    _, _, answers = _run(indexed_vault, calls)
    assert [a.is_error for a in answers] == [False, False, True, True]
    assert [a.structured_content.get("code") for a in answers[2:]] == ["not_found", "bad_argument"]


@pytest.mark.parametrize("stop", ["SIGTERM", "SIGINT", "SIGHUP"])
def test_the_server_stops_on_a_signal_while_its_client_is_still_there(indexed_vault, stop):
    # Raised in the event loop, a stop was kept by asyncio's task, and the server waited for its
    # client to close stdin: SIGTERM was no stop while the client was there.
    import signal
    import subprocess

    proc = subprocess.Popen(
        [sys.executable, "-m", "memsearch.cli", "mcp", "--vault", str(indexed_vault)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stdout is not None
    hello = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        },
    }
    proc.stdin.write(json.dumps(hello).encode() + b"\n")
    proc.stdin.flush()
    assert json.loads(proc.stdout.readline())["id"] == 1  # serving
    proc.send_signal(getattr(signal, stop))
    try:
        proc.wait(timeout=20)
    finally:
        proc.kill()
        _, err = proc.communicate()
    signum = getattr(signal, stop)
    assert proc.returncode == 128 + signum, (proc.returncode, err[-800:])
    assert err.decode().strip().splitlines()[-1] == f"memsearch mcp: interrupted ({stop})"
