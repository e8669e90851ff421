"""Choosing a backend: the values ``--backend`` and ``[backend]`` take, and the record in the index home."""

from __future__ import annotations

import pytest

from memsearch.errors import ConfigError
from memsearch.index.backend import (
    BackendSpec,
    backend_from_config,
    default_vault_id,
    parse_backend,
    read_backend,
    write_backend,
)


def test_uris_and_options(tmp_path):
    vault = tmp_path / "v"
    vault.mkdir()
    assert parse_backend("builtin", vault) is None and parse_backend("", vault) is None
    server = parse_backend("milvus://db.internal:19530", vault)
    assert server.client_uri == "http://db.internal:19530" and not server.is_lite
    assert server.uses_partition_key and server.collection_name == "memsearch"
    assert server.vault_id == default_vault_id(vault) == default_vault_id(tmp_path / "v" / ".." / "v")
    lite = parse_backend(str(tmp_path / "m.db"), vault)
    assert lite.is_lite and not lite.uses_partition_key and lite.client_uri == str(tmp_path / "m.db")
    per = parse_backend("milvus://h:1?layout=per-vault&vault_id=agent-7&collection=mem", vault)
    assert per.collection_name == "mem_agent_7" and per.vault_id == "agent-7" and not per.uses_partition_key


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("opensearch://h:9200", "neither milvus://HOST:PORT nor a Milvus Lite file"),
        ("milvus://nohost", "is not milvus://HOST:PORT"),
        ("milvus://h:1?layout=sideways", "layout 'sideways' must be one of shared, per-vault"),
        ("milvus://h:1?shards=3", "unknown option 'shards'"),
        ("milvus://h:1?vault_id=a b", "vault_id 'a b' may hold only"),
        ("milvus://h:1?collection=9x", "collection '9x' must be"),
    ],
)
def test_bad_values_name_the_argument_and_what_to_do(tmp_path, value, says):
    with pytest.raises(ConfigError, match="--backend") as caught:
        parse_backend(value, tmp_path)
    assert says in str(caught.value)


def test_the_vault_config_and_the_record(tmp_path):
    vault = tmp_path / "v"
    vault.mkdir()
    assert backend_from_config(vault) is None
    (vault / "memsearch.toml").write_text(
        '[backend]\nuri = "milvus://h:19530"\nlayout = "per-vault"\nvault_id = "a1"\npartition_key = false\n',
        encoding="utf-8",
    )
    spec = backend_from_config(vault)
    assert (spec.uri, spec.layout, spec.vault_id, spec.partition_key) == (
        "milvus://h:19530",
        "per-vault",
        "a1",
        False,
    )
    home = tmp_path / "home"
    home.mkdir()
    assert read_backend(home) is None
    spec.pending = "Milvus at milvus://h:19530: down"
    write_backend(home, spec)
    assert read_backend(home) == spec
    write_backend(home, None)
    assert read_backend(home) is None
    (home / "backend.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"backend.json: cannot read the recorded backend"):
        read_backend(home)


def test_an_unreadable_record_leaves_search_on_the_built_in_indexes(tmp_path):
    from memsearch.retrieval import open_retrieval

    (tmp_path / "backend.json").write_text("[]", encoding="utf-8")
    assert open_retrieval(tmp_path) is None
    (tmp_path / "backend.json").write_text("{oops", encoding="utf-8")
    assert open_retrieval(tmp_path) is None
    write_backend(tmp_path, BackendSpec(uri="milvus://h:1", vault_id="x"))
    assert open_retrieval(tmp_path).spec.vault_id == "x"


def test_a_lite_file_in_a_folder_that_does_not_exist_is_refused(tmp_path):
    # It was recorded, and every index run said "the next index run pushes it": none could.
    with pytest.raises(ConfigError, match="--backend") as caught:
        parse_backend(str(tmp_path / "nodir" / "m.db"), tmp_path)
    assert "nodir" in str(caught.value) and "does not exist" in str(caught.value)


@pytest.mark.parametrize(
    ("written", "read"), [('"no"', False), ('"yes"', True), ("false", False), ("1", True)]
)
def test_partition_key_in_the_config_is_read_as_written(tmp_path, written, read):
    # `partition_key = "no"` was read as true (bool("no")).
    (tmp_path / "memsearch.toml").write_text(
        f'[backend]\nuri = "milvus://h:19530"\npartition_key = {written}\n', encoding="utf-8"
    )
    assert backend_from_config(tmp_path).partition_key is read


def test_a_partition_key_that_is_no_yes_or_no_is_refused(tmp_path):
    (tmp_path / "memsearch.toml").write_text(
        '[backend]\nuri = "milvus://h:19530"\npartition_key = "maybe"\n', encoding="utf-8"
    )
    with pytest.raises(ConfigError, match="partition_key"):
        backend_from_config(tmp_path)


def test_index_homes_copied_side_by_side_take_ids_of_their_own(tmp_path):
    # `--index-dir` homes kept side by side share a parent: an id from the parent was one id for both.
    import shutil

    vault = tmp_path / "vault"
    vault.mkdir()
    original = tmp_path / "homes" / "idx1"
    original.mkdir(parents=True)
    write_backend(original, parse_backend(str(tmp_path / "m.db"), vault))
    for copy in ("idx2", "idx3"):
        shutil.copytree(original, tmp_path / "homes" / copy)
    ids = {read_backend(tmp_path / "homes" / name).vault_id for name in ("idx1", "idx2", "idx3")}
    assert len(ids) == 3
