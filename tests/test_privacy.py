"""Owner-only by default, whatever the umask; status says who can read the index; no stray network."""

from __future__ import annotations

import os
import socket
import stat
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from memsearch.api import index_vault, log, open_index
from memsearch.cli import main
from memsearch.forget import forget
from memsearch.index.embedding_cache import EmbeddingCache
from memsearch.privacy import access, is_loopback


def _exposed(home: Path) -> list[str]:
    bad = []
    for root, dirs, files in os.walk(home):
        for name in [*dirs, *files]:
            path = os.path.join(root, name)
            mode = os.lstat(path).st_mode
            if not stat.S_ISLNK(mode) and mode & 0o077:
                bad.append(f"{oct(mode & 0o777)} {path}")
    if os.stat(home).st_mode & 0o077:
        bad.append(f"{oct(os.stat(home).st_mode & 0o777)} {home}")
    return bad


def test_everything_under_the_index_home_is_owner_only_under_umask_0(vault_copy):
    vault = vault_copy
    home = vault / ".memsearch"
    old = os.umask(0o000)
    try:
        index_vault(vault)
        (vault / "journal/new.md").write_text("# New\n\nA new memory about Mara Lin and the keys.\n")
        engine = open_index(vault)
        engine.update_file(vault / "journal/new.md")
        assert engine.wait_for_embeddings(120)
        engine.close()
        (vault / "inbox.md").write_text("# Inbox\n\nNothing left.\n")
        index_vault(vault)
        forget(vault, ["inbox.md"])
        forget(vault, ["journal/new.md"], purge_history=True)
        assert len(log(vault)) >= 3
        open_index(vault, at="HEAD~1").search("signing keys")
        # the embedding cache's WAL and shared-memory files, while a connection holds them open
        with EmbeddingCache(home / "cache" / "embeddings.sqlite") as cache:
            cache.put_many("fp", {"k": np.ones(4, dtype=np.float32)})
            wal = [p for p in (home / "cache").iterdir() if p.name.endswith(("-wal", "-shm"))]
            assert wal, "expected WAL files while the cache is open"
            assert not _exposed(home), _exposed(home)
    finally:
        os.umask(old)
    assert (home / "repo" / ".git" / "objects").is_dir()
    assert not _exposed(home), _exposed(home)
    info = access(home)
    assert info["owner_only"] and info["warning"] is None and info["mode"] == "0700"


@pytest.mark.parametrize("how", ["MEMSEARCH_HOME", "--index-dir"])
def test_the_index_home_and_the_parents_memsearch_creates_are_0700_under_umask_0(
    vault_copy, tmp_path, monkeypatch, how
):
    # Path.mkdir(parents=True) makes the missing parents with the umask's mode (0777 under umask
    # 000): another user could swap the index home inside and collect what is written there.
    top = tmp_path / "not" / "yet"
    if how == "MEMSEARCH_HOME":
        monkeypatch.setenv("MEMSEARCH_HOME", str(top / "homes"))
        home = None
    else:
        home = top / "homes" / "mine"
    there = os.stat(tmp_path).st_mode
    old = os.umask(0o000)
    try:
        report = index_vault(vault_copy, index_dir=home)
        open_index(vault_copy, index_dir=home).search("signing keys")
    finally:
        os.umask(old)
    created = [tmp_path / "not", top, top / "homes", Path(report.index_home)]
    assert Path(report.index_home).parent == top / "homes"
    assert [oct(os.stat(p).st_mode & 0o777) for p in created] == ["0o700"] * 4
    assert not _exposed(Path(report.index_home)), _exposed(Path(report.index_home))
    assert os.stat(tmp_path).st_mode == there  # a folder that was there keeps its mode


def test_status_shows_where_the_index_lives_and_who_can_read_it(vault_copy):
    vault = vault_copy
    index_vault(vault)
    home = vault / ".memsearch"
    out = CliRunner().invoke(main, ["status", "--vault", str(vault)])
    assert out.exit_code == 0, out.output
    assert str(home) in out.output
    assert "access    owner " in out.output and "mode 0700" in out.output and "owner only" in out.output
    os.chmod(home / "repo" / "manifest.json", 0o644)
    out = CliRunner().invoke(main, ["status", "--vault", str(vault)])
    assert "readable by its group or others too" in out.output and "manifest.json" in out.output
    assert "WARNING: group" not in out.output  # a sentence, not a shout inside one
    assert "chmod -R go-rwx" in out.output


def test_loopback():
    assert is_loopback("http://localhost:11434")
    assert is_loopback("http://127.0.0.1:11434")
    assert is_loopback("[::1]:11434")
    assert not is_loopback("http://10.2.3.4:11434")
    assert not is_loopback("https://203.0.113.9")


def test_the_default_ollama_host_is_this_machine(monkeypatch):
    from memsearch.embedders.ollama import OllamaEmbedder, resolve_host

    monkeypatch.delenv("OLLAMA_HOST", raising=False)
    assert is_loopback(resolve_host())
    assert is_loopback(OllamaEmbedder().host)
    # a remote host only when the user names it (config option or $OLLAMA_HOST)
    assert not is_loopback(OllamaEmbedder(host="http://10.2.3.4:11434").host)
    monkeypatch.setenv("OLLAMA_HOST", "10.2.3.4:11434")
    assert not is_loopback(resolve_host())


@pytest.fixture
def connections(monkeypatch):
    """Every address a socket connects to (the connection itself is refused if not loopback)."""
    seen: list[object] = []
    real_connect = socket.socket.connect
    real_connect_ex = socket.socket.connect_ex

    def record(address: object) -> None:
        seen.append(address)
        host = address[0] if isinstance(address, tuple) else None
        if host is not None and not is_loopback(str(host) if ":" not in str(host) else f"[{host}]"):
            raise ConnectionRefusedError(f"test: no network to {address}")

    def connect(self, address):  # type: ignore[no-untyped-def]
        record(address)
        return real_connect(self, address)

    def connect_ex(self, address):  # type: ignore[no-untyped-def]
        record(address)
        return real_connect_ex(self, address)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
    return seen


def test_a_default_config_never_contacts_a_non_loopback_address(vault_copy, monkeypatch, connections):
    for name in ("OLLAMA_HOST", "MEMSEARCH_EMBEDDER", "MEMSEARCH_HOME"):
        monkeypatch.delenv(name, raising=False)
    vault = vault_copy
    report = index_vault(vault)
    assert report.gaps == 0 and not report.embedder_error
    engine = open_index(vault)
    assert engine.search("who approved the signing key", k=3).results
    remote = [a for a in connections if isinstance(a, tuple) and not is_loopback(_host(a))]
    assert not remote, remote


def _host(address: tuple) -> str:
    host = str(address[0])
    return f"[{host}]" if ":" in host else host


def test_an_index_home_that_is_a_file_is_named_with_the_remedy_by_every_verb(vault_copy, monkeypatch):
    # A stray file called .memsearch in the vault: `index` raised NotADirectoryError from the lock,
    # while search and status told the user to run `memsearch index`, the command that crashed.
    monkeypatch.delenv("MEMSEARCH_HOME", raising=False)
    (vault_copy / ".memsearch").write_text("junk")
    for args in (
        ["index", str(vault_copy), "--no-embed"],
        ["search", "signing keys", "--vault", str(vault_copy)],
        ["status", str(vault_copy)],
        ["log", str(vault_copy)],
    ):
        result = CliRunner().invoke(main, args)
        assert result.exit_code != 0, (args, result.output)
        assert "is a file, not a folder: move it away" in result.output, (args, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert (vault_copy / ".memsearch").read_text() == "junk"


def test_an_index_home_that_is_a_dangling_link_is_named_with_the_remedy(vault_copy, tmp_path, monkeypatch):
    # A .memsearch linked to a disk not mounted: `index` raised FileNotFoundError from chmod, and
    # search told the user to run `memsearch index`, the command that crashed.
    monkeypatch.delenv("MEMSEARCH_HOME", raising=False)
    (vault_copy / ".memsearch").symlink_to(tmp_path / "unplugged")
    for args in (
        ["index", str(vault_copy), "--no-embed"],
        ["reindex", str(vault_copy)],
        ["search", "signing keys", "--vault", str(vault_copy)],
    ):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 1, (args, result.output)
        assert "is a symlink to" in result.output and "which is not there" in result.output, result.output
        assert "unexpected" not in result.output, result.output
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert not (tmp_path / "unplugged").exists()


def test_a_read_only_vault_is_told_where_else_the_index_can_go(vault_copy, tmp_path, monkeypatch):
    # `memsearch index` of a read-only vault printed a PermissionError traceback from mkdir; with
    # the index there and read-only, one from the lock. (As root, the run drops the capability
    # that reads past permissions, as an ordinary user has none.)
    import shutil
    import subprocess
    import sys

    monkeypatch.delenv("MEMSEARCH_HOME", raising=False)
    command = [sys.executable, "-m", "memsearch.cli", "index", str(vault_copy), "--no-embed"]
    if os.geteuid() == 0:
        if not shutil.which("setpriv"):
            pytest.skip("running as root without setpriv: permissions cannot be made to hold")
        caps = "-dac_override,-dac_read_search"
        command = ["setpriv", f"--bounding-set={caps}", f"--inh-caps={caps}", *command]
    try:
        for folder in (vault_copy, *vault_copy.rglob("*")):
            folder.chmod(folder.stat().st_mode & ~0o222)
        result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    finally:
        for folder in (vault_copy, *vault_copy.rglob("*")):
            folder.chmod(folder.stat().st_mode | 0o200)
    assert result.returncode == 1, result
    assert f"cannot write the index at {vault_copy / '.memsearch'}" in result.stderr, result.stderr
    assert "--index-dir" in result.stderr and "Traceback" not in result.stderr
