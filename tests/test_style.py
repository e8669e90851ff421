"""The code base's own checks, so that a change that breaks them fails here: ruff (lint and format)
over the package and its tests, mypy over the package (its settings: pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True)


def test_ruff_finds_nothing():
    done = _run("ruff", "check", "memsearch", "tests")
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_code_is_formatted():
    done = _run("ruff", "format", "--check", "memsearch", "tests")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_finds_nothing():
    done = _run("mypy", "--no-incremental")
    assert done.returncode == 0, done.stdout + done.stderr
