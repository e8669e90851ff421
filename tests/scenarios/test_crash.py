"""Kill -9 a writer at every step of an update: the next run ends exactly where a clean run does.

Each writer runs in a subprocess with ``$MEMSEARCH_CRASH_AT=N``: it SIGKILLs itself at the N-th
crash point it passes (after each file written, before and after the commit, while saving the
snapshot). While it lies dead, a reader must serve a whole commit (the old one or the new one,
never a mix); then the next writer must end with the committed files, the manifest and the search
results of the run that was never interrupted.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memsearch.api import index_vault, rollback
from memsearch.index.versioning import CRASH_ENV, CRASH_LOG_ENV
from tests.conftest import FIXTURE_VAULT
from tests.versioning_helpers import committed_state, git, repo_of, results, write

CLI = [sys.executable, "-m", "memsearch.cli"]
UPDATE_SCRIPT = (
    "import sys\n"
    "from memsearch.api import open_index\n"
    "engine = open_index(sys.argv[1])\n"
    "engine.update_file(sys.argv[2])\n"
    "assert engine.wait_for_embeddings(120)\n"
    "engine.close()\n"
)


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    """The fixture vault indexed once (with its vectors cached): every run starts from a copy."""
    vault = tmp_path_factory.mktemp("crash") / "vault"
    shutil.copytree(FIXTURE_VAULT, vault)
    index_vault(vault)
    return vault


def _copy(template: Path, where: Path, warm: Path | None = None) -> Path:
    """A copy of ``template``; with ``warm`` (a vault), its embedding cache, so the writer under
    test finds every vector cached and never loads the model (a second saved per run)."""
    shutil.copytree(template, where, symlinks=True)
    if warm is not None:
        cache = Path(".memsearch") / "cache" / "embeddings.sqlite"
        shutil.copy2(warm / cache, where / cache)
    return where


#: Changed files get this mtime, so every copy's fallback timestamps agree with the clean run's.
MTIME = 1_743_000_000


def _write(vault: Path, rel: str, text: str) -> None:
    write(vault, rel, text)
    os.utime(vault / rel, (MTIME, MTIME))


def _change(vault: Path) -> None:
    _write(vault, "journal/2025-03-20.md", "# 2025-03-20\n\nSaw a zebracorn at the zoo with Ed.\n")
    path = vault / "reference" / "redflag.md"
    _write(
        vault,
        "reference/redflag.md",
        path.read_text().replace("Keys rotate every quarter.", "Keys rotate monthly."),
    )
    (vault / "archive" / "2024.md").unlink()


def _run(args: list[str], crash: str | None = None, log: Path | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in (CRASH_ENV, CRASH_LOG_ENV)}
    if crash:
        env[CRASH_ENV] = crash
    if log:
        env[CRASH_LOG_ENV] = str(log)
    return subprocess.run(args, capture_output=True, text=True, env=env, timeout=180)


def _points(args: list[str], log: Path) -> list[str]:
    done = _run(args, log=log)
    assert done.returncode == 0, done.stderr
    return log.read_text().split("\n")[:-1]


def _pick(points: list[str]) -> list[int]:
    """The first and the last time each crash point is passed (all of them with $MEMSEARCH_CRASH_ALL)."""
    if os.environ.get("MEMSEARCH_CRASH_ALL"):
        return list(range(1, len(points) + 1))
    first: dict[str, int] = {}
    last: dict[str, int] = {}
    for line in points:
        n, name = line.split()
        first.setdefault(name, int(n))
        last[name] = int(n)
    return sorted(set(first.values()) | set(last.values()))


def _check_recovered(vault: Path, clean: dict, allowed: list) -> None:
    # While the writer lies dead, a reader serves one whole commit, never a mix.
    assert results(vault) in allowed
    # The next writer discards or completes the interrupted update...
    index_vault(vault)
    repo = repo_of(vault)
    assert git(repo, "status", "--porcelain", "--ignored") == ""
    git(repo, "fsck", "--no-progress")
    assert not list((repo / ".git").glob("*.lock"))
    # ... and ends where the uninterrupted run ended.
    assert committed_state(vault) == clean["state"]
    assert results(vault) == clean["results"]


@pytest.mark.parametrize("import_min_paths", [None, "1"], ids=["git-add", "fast-import"])
def test_killing_an_index_run_at_every_step(template, tmp_path, monkeypatch, import_min_paths):
    if import_min_paths:  # every commit through git fast-import (else only batches of 200+ paths)
        monkeypatch.setenv("MEMSEARCH_IMPORT_MIN_PATHS", import_min_paths)
    before = results(template)
    clean_vault = _copy(template, tmp_path / "clean")
    _change(clean_vault)
    index_vault(clean_vault)
    clean = {"state": committed_state(clean_vault), "results": results(clean_vault)}

    counted = _copy(template, tmp_path / "count")
    _change(counted)
    points = _points([*CLI, "index", str(counted)], tmp_path / "points.log")
    names = {line.split()[1] for line in points}
    assert {
        "shard",
        "vectors",
        "removed",
        "manifest",
        "before-commit",
        "after-commit",
        "snapshot-saved",
    } <= names
    for n in _pick(points):
        vault = _copy(template, tmp_path / f"kill-{n}", warm=clean_vault)
        _change(vault)
        killed = _run([*CLI, "index", str(vault)], crash=str(n))
        assert killed.returncode == -signal.SIGKILL, (n, points[n - 1], killed.stderr)
        _check_recovered(vault, clean, [before, clean["results"]])
        shutil.rmtree(vault)


def test_killing_update_file_at_every_step(template, tmp_path):
    before = results(template)
    clean_vault = _copy(template, tmp_path / "clean")
    _write(clean_vault, "journal/2025-03-20.md", "# 2025-03-20\n\nSaw a zebracorn at the zoo with Ed.\n")
    index_vault(clean_vault)
    clean = {"state": committed_state(clean_vault), "results": results(clean_vault)}

    counted = _copy(template, tmp_path / "count")
    _write(counted, "journal/2025-03-20.md", "# 2025-03-20\n\nSaw a zebracorn at the zoo with Ed.\n")
    args = [sys.executable, "-c", UPDATE_SCRIPT]
    points = _points([*args, str(counted), "journal/2025-03-20.md"], tmp_path / "points.log")
    assert len(points) >= 8  # two commits: the chunks, then their vectors
    assert committed_state(counted) == clean["state"]
    for n in range(1, len(points) + 1):
        vault = _copy(template, tmp_path / f"kill-{n}")  # cold: the vectors come in a second commit
        _write(vault, "journal/2025-03-20.md", "# 2025-03-20\n\nSaw a zebracorn at the zoo with Ed.\n")
        killed = _run([*args, str(vault), "journal/2025-03-20.md"], crash=str(n))
        assert killed.returncode == -signal.SIGKILL, (n, points[n - 1], killed.stderr)
        # A commit of the chunks without vectors yet serves keyword, graph and time: its own results.
        served = results(vault)
        assert served in (before, clean["results"]) or committed_state(vault)["manifest"]["gaps"]
        _check_recovered(vault, clean, [served])
        shutil.rmtree(vault)


@pytest.mark.parametrize("import_min_paths", [None, "1"], ids=["git-add", "fast-import"])
def test_killing_a_rollback_at_every_step(template, tmp_path, monkeypatch, import_min_paths):
    if import_min_paths:  # the rollback's commit through git fast-import
        monkeypatch.setenv("MEMSEARCH_IMPORT_MIN_PATHS", import_min_paths)
    base = _copy(template, tmp_path / "base")
    first = git(repo_of(base), "rev-parse", "HEAD").strip()
    old_results = results(base)
    _change(base)
    index_vault(base)
    new_results = results(base)
    points = _points(
        [*CLI, "rollback", first, "--vault", str(_copy(base, tmp_path / "count"))], tmp_path / "p.log"
    )
    for n in range(1, len(points) + 1):
        vault = _copy(base, tmp_path / f"kill-{n}")
        killed = _run([*CLI, "rollback", first, "--vault", str(vault)], crash=str(n))
        assert killed.returncode == -signal.SIGKILL
        assert results(vault) in (old_results, new_results)
        rollback(vault, first)
        assert git(repo_of(vault), "status", "--porcelain", "--ignored") == ""
        assert results(vault) == old_results
        shutil.rmtree(vault)


def test_killing_an_index_run_after_random_delays(template, tmp_path):
    """Kills that land anywhere, not only at the named points (a bounded few)."""
    rng = random.Random(7)

    def change(vault: Path) -> None:
        for i in range(40):
            _write(vault, f"notes/n{i:02d}.md", f"# Note {i}\n\nThe quokka count was {i}; Ed checked it.\n")
        _change(vault)

    clean_vault = _copy(template, tmp_path / "clean")
    change(clean_vault)
    index_vault(clean_vault)
    clean = {"state": committed_state(clean_vault), "results": results(clean_vault)}
    before = results(template)
    for n in range(3):
        vault = _copy(template, tmp_path / f"random-{n}")
        change(vault)
        proc = subprocess.Popen([*CLI, "index", str(vault)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        time.sleep(rng.uniform(0.3, 2.5))
        proc.send_signal(signal.SIGKILL)
        proc.communicate()
        _check_recovered(vault, clean, [before, clean["results"]])
        shutil.rmtree(vault)
