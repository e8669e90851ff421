"""Every byte an index home holds, for the tests that check a forgotten or redacted memory left none."""

from __future__ import annotations

import contextlib
import os
import subprocess
import zlib
from pathlib import Path


def git_objects(repo: Path) -> bytes:
    """Every object of the repository, decompressed (loose and packed)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    out = subprocess.run(
        ["git", "-C", str(repo), "cat-file", "--batch-all-objects", "--batch", "--unordered"],
        capture_output=True,
        env=env,
        check=True,
    )
    return out.stdout


def every_byte(home: Path) -> list[tuple[str, bytes]]:
    """Every file under the index home as bytes, each zlib file decompressed too, and every git object."""
    found = []
    for root, _dirs, files in os.walk(home):
        for name in files:
            path = Path(root) / name
            data = path.read_bytes()
            found.append((str(path), data))
            with contextlib.suppress(zlib.error):
                found.append((f"{path} (zlib)", zlib.decompress(data)))
    found.append(("git objects", git_objects(home / "repo")))
    return found
