"""memory_search as an agent's tool: definitions a framework registers as is, answers that never raise."""

import json

import pytest

from memsearch import tool
from memsearch.api import index_vault, open_index
from memsearch.tool import NO_RESULTS, MemoryTools, memory_search, tool_definitions

NOW = "2025-04-01T00:00:00+00:00"


@pytest.fixture(scope="module")
def tools(indexed_vault):
    return MemoryTools(indexed_vault)


def _readable(answer: dict) -> None:
    """Every answer: JSON-ready, with ok, status and a sentence for the model."""
    json.dumps(answer)
    assert isinstance(answer["ok"], bool)
    assert answer["status"]
    assert isinstance(answer["message"], str) and len(answer["message"]) > 10
    if not answer["ok"]:
        assert answer["code"] and answer["error"]
        assert answer["results"] == []


@pytest.mark.parametrize("style", ["anthropic", "openai", "mcp"])
def test_definitions_have_a_name_a_description_and_a_schema(style):
    defs = tool_definitions(style)
    assert len(defs) == 2
    for d in defs:
        inner = d.get("function", d)
        schema = inner.get("input_schema") or inner.get("parameters") or inner.get("inputSchema")
        assert inner["name"] in ("memory_search", "memory_open")
        assert len(inner["description"]) > 100
        # memory_open takes `ref` or `path` (the same thing), memory_search `query` or `vectors`:
        # neither alone is required
        assert schema["type"] == "object" and schema["required"] == []
        json.dumps(d)
    search = next(d.get("function", d) for d in defs if d.get("function", d)["name"] == "memory_search")
    schema = search.get("input_schema") or search.get("parameters") or search.get("inputSchema")
    props = schema["properties"]
    assert set(props) == {
        "query",
        "k",
        "fact_type",
        "entities",
        "territory",
        "since",
        "until",
        "now",
        "at",
        "vectors",
    }
    assert props["fact_type"]["enum"] == ["world", "experience"]


def test_unknown_style_is_a_clear_error():
    with pytest.raises(ValueError, match="anthropic, openai, mcp"):
        tool_definitions("langchain")


def test_answer_matches_the_engine_and_adds_an_openable_ref(tools, indexed_vault):
    answer = tools.memory_search("who approved the new Ed25519 key?", k=4, now=NOW)
    _readable(answer)
    assert answer["ok"] and answer["status"] == "ok"
    expected = open_index(indexed_vault).search("who approved the new Ed25519 key?", 4, now=NOW).to_dict()
    got = [{k: v for k, v in r.items() if k != "ref"} for r in answer["results"]]
    assert got == expected["results"]
    for r in answer["results"]:
        assert r["ref"] == f"{r['path']}:{r['start_line']}-{r['end_line']}"
        assert {"score", "fact_type", "entities", "territory"} <= set(r)
        assert "text" not in r  # pointers, never content
    assert set(answer["health"]) >= {"ran", "failed", "skipped", "degraded"}


def test_filters_pass_through(tools):
    answer = tools.memory_search(
        "keys", k=10, fact_type="experience", territory="journal/", since="2025-01-01", now=NOW
    )
    assert answer["ok"] and answer["results"]
    assert all(r["path"].startswith("journal/") and r["fact_type"] == "experience" for r in answer["results"])
    by_entity = tools.memory_search("keys", entities=["Mara Lin"], now=NOW)
    assert by_entity["results"] and all("Mara Lin" in r["entities"] for r in by_entity["results"])
    # a model's habits that are harmless: a number as text, one entity as a plain string, upper case
    lenient = tools.memory_search("keys", k="3", entities="Mara Lin", fact_type="World", now=NOW)
    assert lenient["ok"] and len(lenient["results"]) <= 3


def test_no_results_says_so(tools):
    answer = tools.memory_search("keys", territory="nowhere/", now=NOW)
    _readable(answer)
    assert answer["ok"] and answer["status"] == "no_results" and answer["results"] == []
    assert answer["message"].startswith(NO_RESULTS)
    assert "territory=nowhere/" in answer["message"]


@pytest.mark.parametrize(
    ("arguments", "mentions"),
    [
        ({}, "query"),
        ({"query": ""}, "query"),
        ({"query": 42}, "query"),
        ({"query": ["a"]}, "query"),
        ({"query": "keys", "k": "ten"}, "k"),
        ({"query": "keys", "k": 0}, "k"),
        ({"query": "keys", "k": True}, "k"),
        ({"query": "keys", "k": 2.5}, "k"),
        ({"query": "keys", "fact_type": "dream"}, "fact_type"),
        ({"query": "keys", "entities": 7}, "entities"),
        ({"query": "keys", "entities": [1, 2]}, "entities"),
        ({"query": "keys", "territory": {"a": 1}}, "territory"),
        ({"query": "keys", "since": "the day after the storm"}, "since"),
        ({"query": "keys", "until": 20250301}, "until"),
    ],
)
def test_bad_arguments_answer_instead_of_raising(tools, arguments, mentions):
    answer = tools.memory_search(**arguments)
    _readable(answer)
    assert answer["ok"] is False and answer["code"] == "bad_argument"
    assert answer["error"].startswith("bad argument") and mentions in answer["error"]


def test_unknown_arguments_are_named_not_fatal(tools):
    answer = tools.call("memory_search", {"query": "keys", "limit": 3, "now": NOW})
    assert answer["ok"]
    assert any("limit" in w for w in answer["warnings"])
    assert len(answer["results"]) <= 10


def test_an_unknown_argument_named_with_a_lone_surrogate_is_named_as_text(tools):
    # An OpenAI-style JSON string may hold "\ud800" as a key: its warning held the raw surrogate,
    # and the answer could not be written as UTF-8.
    for name, arguments in (
        ("memory_search", '{"query": "keys", "\\ud800": 1}'),
        ("memory_open", '{"ref": "reference/redflag.md", "\\ud800": 1}'),
    ):
        answer = tools.call(name, arguments)
        assert answer["ok"], answer
        json.dumps(answer, ensure_ascii=False).encode("utf-8")
        assert any("\\ud800" in w for w in answer["warnings"]), answer["warnings"]


def test_k_above_the_cap_is_clamped(tools):
    answer = tools.memory_search("keys", k=500, now=NOW)
    assert answer["ok"] and any("50" in w for w in answer["warnings"])


def test_call_takes_a_json_string_and_refuses_unknown_tools(tools):
    assert tools.call("memory_search", json.dumps({"query": "Berlin canal"}))["ok"]
    bad_json = tools.call("memory_search", "{not json")
    _readable(bad_json)
    assert bad_json["code"] == "bad_argument"
    unknown = tools.call("memory_delete", {})
    _readable(unknown)
    assert "memory_search and memory_open" in unknown["error"]


def test_missing_index_says_how_to_build_it(vault_copy):
    answer = MemoryTools(vault_copy).memory_search("keys")
    _readable(answer)
    assert answer["code"] == "index_missing"
    assert f"memsearch index {vault_copy}" in answer["error"]


def test_missing_index_is_missing_at_a_revision_too(vault_copy):
    # memory_search(at="HEAD") without an index answered "bad argument": the agent was told to fix
    # its revision, when the vault has no index to go back in.
    answer = MemoryTools(vault_copy).memory_search("keys", at="HEAD")
    _readable(answer)
    assert answer["code"] == "index_missing" and "memsearch index" in answer["error"]


def test_auto_index_builds_the_missing_index(vault_copy):
    answer = MemoryTools(vault_copy, auto_index=True).memory_search("sign_ed25519", k=1)
    assert answer["ok"] and answer["results"][0]["path"] == "reference/redflag.md"
    assert any("built one now" in w for w in answer["warnings"])


def test_missing_vault(tmp_path):
    answer = memory_search("keys", vault=tmp_path / "no-such-vault")
    _readable(answer)
    assert answer["code"] == "vault_missing" and "does not exist" in answer["error"]


def test_empty_vault(tmp_path):
    vault = tmp_path / "empty"
    vault.mkdir()
    index_vault(vault, embed=False)
    answer = MemoryTools(vault).memory_search("anything at all")
    _readable(answer)
    assert answer["ok"] and answer["status"] == "empty_vault" and answer["results"] == []
    assert "empty" in answer["message"]
    assert answer["signal"] == "none" and answer["signal_reason"]  # every answer carries it


def test_corrupt_index_is_reported_not_raised(vault_copy):
    import shutil
    import subprocess

    index_vault(vault_copy, embed=False)
    # A commit whose shards cannot be read (a cache is rebuilt; a bad commit is reported).
    repo = vault_copy / ".memsearch" / "repo"
    for shard in (repo / "shards").rglob("*.jsonl"):
        shard.write_text("{broken\n")
    subprocess.run(["git", "-C", str(repo), "commit", "-qam", "broken"], check=True)
    shutil.rmtree(vault_copy / ".memsearch" / "cache" / "snapshots")
    answer = MemoryTools(vault_copy).memory_search("keys")
    _readable(answer)
    assert answer["code"] == "index_corrupt"


def test_embedder_down_degrades_instead_of_failing(indexed_vault, monkeypatch):
    from memsearch.embedders.minilm import MiniLMEmbedder

    def down(self, text):
        raise ConnectionError("the embedding server did not answer")

    monkeypatch.setattr(MiniLMEmbedder, "embed_query", down)
    answer = MemoryTools(indexed_vault).memory_search("who approved the new key", now=NOW)
    _readable(answer)
    assert answer["ok"] and answer["results"]  # keyword, graph and time still answer
    assert answer["degraded"] is True
    assert "semantic search is degraded" in answer["message"]
    assert "semantic" in answer["health"]["failed"] and "semantic" not in answer["health"]["ran"]


def test_an_unexpected_failure_is_still_an_answer(tools, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(tools, "engine", broken)
    answer = tools.memory_search("keys")
    _readable(answer)
    assert answer["code"] == "internal_error" and "disk on fire" in answer["error"]


def test_the_index_is_reloaded_after_a_reindex(vault_copy):
    index_vault(vault_copy, embed=False)
    tools = MemoryTools(vault_copy)
    assert tools.memory_search("zebracorn")["status"] == "no_results"
    (vault_copy / "journal" / "2025-03-20.md").write_text("# 2025-03-20\n\nSaw a zebracorn at the zoo.\n")
    index_vault(vault_copy, embed=False)
    answer = tools.memory_search("zebracorn")
    assert answer["results"][0]["path"] == "journal/2025-03-20.md"


def test_module_function_reads_the_vault_from_the_environment(indexed_vault, monkeypatch):
    monkeypatch.setattr(tool, "_SHARED", {})
    monkeypatch.setenv("MEMSEARCH_VAULT", str(indexed_vault))
    answer = memory_search("sign_ed25519", k=1)
    assert answer["ok"] and answer["results"][0]["path"] == "reference/redflag.md"


def test_the_old_index_answers_while_a_reindex_swaps_it_in(vault_copy):
    index_vault(vault_copy, embed=False)
    tools = MemoryTools(vault_copy)
    assert tools.memory_search("sign_ed25519")["ok"]
    folder = vault_copy / ".memsearch" / "repo"
    folder.rename(folder.with_name("repo-moving"))  # the index unreadable for an instant
    answer = tools.memory_search("sign_ed25519", k=1)
    assert answer["ok"] and answer["results"][0]["path"] == "reference/redflag.md"


HOSTILE_CALLS = [
    ("memory_open", {"path": "a" * 299 + ".md"}, "not_found"),  # a name over 255 bytes (ENAMETOOLONG)
    ("memory_open", {"path": "journal/" + "b" * 299 + ".md:3-4"}, "not_found"),
    ("memory_open", {"path": "inbox\ud800.md"}, "bad_argument"),
    ("memory_open", {"path": "inbox.md", "start_line": "9" * 5000}, "bad_argument"),
    ("memory_search", {"query": "keys \ud800"}, "bad_argument"),
    ("memory_search", {"query": "keys", "territory": "journal/\udcff"}, "bad_argument"),
    ("memory_search", {"query": "keys", "k": "9" * 5000}, "bad_argument"),
    ("memory_search", {1: "keys"}, "bad_argument"),
    ("memory_open", {None: "inbox.md"}, "bad_argument"),
]


@pytest.mark.parametrize(("name", "arguments", "code"), HOSTILE_CALLS)
def test_no_argument_makes_a_tool_raise_or_fail_unexpectedly(tools, name, arguments, code):
    answer = tools.call(name, arguments)
    json.dumps(answer, ensure_ascii=False).encode("utf-8")  # what MCP writes: UTF-8, no lone surrogate
    assert answer["ok"] is False and answer["code"] == code, answer


def test_an_argument_named_self_is_an_unknown_argument_not_a_crash(tools):
    # `self` reached the bound method as a second self: TypeError out of call(), an MCP protocol error.
    for name, arguments in (("memory_search", {"query": "keys"}), ("memory_open", {"path": "inbox.md"})):
        answer = tools.call(name, {**arguments, "self": "x"})
        assert answer["ok"] and any("self" in w for w in answer["warnings"]), answer
    assert tool.memory_search(query="keys", vault=tools.vault_arg, **{"self": 1})["ok"]
    assert tool.memory_open(path="inbox.md", vault=tools.vault_arg, **{"self": 1})["ok"]


def test_a_new_commit_is_loaded_into_the_open_engine_with_the_vault_config_read_again(vault_copy):
    from memsearch.config import Settings

    index_vault(vault_copy, embed=False)
    tools = MemoryTools(vault_copy)
    assert tools.memory_search("zebracorn")["status"] == "no_results"
    engine, before = tools.engine(), tools.engine().settings
    (vault_copy / "journal" / "2025-03-20.md").write_text("# 2025-03-20\n\nSaw a zebracorn at the zoo.\n")
    (vault_copy / "memsearch.toml").write_text('[[territory]]\nprefix = "journal/"\nweight = 0.5\n')
    index_vault(vault_copy, embed=False)
    answer = tools.memory_search("zebracorn")
    assert answer["results"][0]["path"] == "journal/2025-03-20.md"
    assert tools.engine() is engine  # refreshed in place (Memsearch.refresh), not reopened
    assert engine.settings == Settings().with_vault_config(vault_copy.resolve()) != before


def test_a_deeply_nested_argument_string_answers_instead_of_raising(tools):
    """json's parser recurses once per bracket: 100,000 of them raise RecursionError, which the
    tool answers as a bad argument like any other JSON it cannot read."""
    answer = tools.call("memory_search", '{"query":' + "[" * 100_000 + "}")
    _readable(answer)
    assert (
        answer["ok"] is False and answer["code"] == "bad_argument" and "nested too deeply" in answer["error"]
    )


def test_the_message_counts_what_it_found_in_words(tools):
    """ "1 memory found", "3 memories found": the sentence the model reads is English."""
    one = tools.call("memory_search", {"query": "sign_ed25519", "k": 1, "now": NOW})
    three = tools.call("memory_search", {"query": "signing keys", "k": 3, "now": NOW})
    assert one["message"].startswith("1 memory found, best first"), one["message"]
    assert f"{len(three['results'])} memories found" in three["message"] and len(three["results"]) == 3


def test_a_vault_path_no_folder_can_have_is_answered_as_a_missing_vault():
    # "~nosuchuser/x" raised from the tools' constructor (RuntimeError); a 5,000-character name
    # answered internal_error. Both name no vault, and the answer says why.
    for vault, why in (("~nosuchuser-ms/x", "a user this system does not have"), ("a" * 5000, "longer than")):
        tools = MemoryTools(vault)
        _readable(tools.memory_search("keys"))
        for answer in (tools.memory_search("keys"), tools.memory_open("x.md")):
            json.dumps(answer, ensure_ascii=False).encode("utf-8")
            assert answer["code"] == "vault_missing" and why in answer["error"], answer


def test_a_vector_number_too_large_for_a_float_is_a_bad_argument(tools):
    # float(10**400) raised OverflowError: "memory search failed unexpectedly ... Try again".
    answer = tools.memory_search(vectors={"audio": [10**400] + [1] * 15})
    assert answer["code"] == "bad_argument" and "too large" in answer["error"], answer


def test_a_result_whose_file_was_deleted_since_says_so(vault_copy):
    # A note deleted and not reported still came back, first, with no word that its path is gone:
    # the agent opened it and met not_found.
    from memsearch.api import index_vault

    index_vault(vault_copy, embed=False)
    (vault_copy / "reference" / "redflag.md").unlink()
    answer = MemoryTools(vault_copy).memory_search("sign_ed25519", k=3)
    _readable(answer)
    assert answer["results"] and answer["results"][0]["path"] == "reference/redflag.md"
    assert any("reference/redflag.md: no longer in the vault" in w for w in answer["warnings"]), answer
    elsewhere = MemoryTools(vault_copy).memory_search("signing keys", k=3, territory="journal")
    assert elsewhere["results"] and not any("no longer in the vault" in w for w in elsewhere["warnings"])


@pytest.mark.parametrize(
    ("where", "name"),
    [({"vault": 5}, "vault"), ({"vault": b"/tmp"}, "vault"), ({"index_dir": 5}, "index_dir")],
)
def test_a_vault_or_index_folder_that_is_no_path_is_a_bad_argument(indexed_vault, where, name):
    # they failed "unexpectedly" (TypeError: expected str, bytes or os.PathLike object, not int)
    answer = memory_search("signing keys", **{"vault": indexed_vault, **where})
    assert answer["ok"] is False and answer["code"] == "bad_argument", answer
    assert name in answer["error"] and "path" in answer["error"], answer["error"]
    answer = MemoryTools(**{"vault": indexed_vault, **where}).memory_search("signing keys")
    assert answer["code"] == "bad_argument" and name in answer["error"], answer
