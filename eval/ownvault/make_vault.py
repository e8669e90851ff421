"""Write the ownvault benchmark vault: python make_vault.py OUT_DIR  ->  OUT_DIR/vault/

Every note is hand-written prose held in the _world_*.py modules next to this file. The vault is
rewritten from scratch on every run; bytes and mtimes are the same every time. Each file's mtime is
its note date (file name, then frontmatter `updated:`, then the latest dated entry; a fixed default
otherwise) at 12:00 UTC. Standard library only. Written for memsearch; CC0 1.0.
"""

from __future__ import annotations

import calendar
import datetime as dt
import os
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.dont_write_bytecode = True  # keep the source folder clean
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import _common
import _world_archive_lit
import _world_aster
import _world_journal_a
import _world_journal_b
import _world_ref_people
import _world_ref_things
import _world_system

MODULES = (_world_system, _world_ref_people, _world_ref_things, _world_journal_a, _world_journal_b,
           _world_aster, _world_archive_lit)


def all_files() -> dict[str, str]:
    files: dict[str, str] = {}
    for mod in MODULES:
        for path, text in mod.F.items():
            if path in files:
                raise SystemExit(f"duplicate path {path}")
            if not text.endswith("\n"):
                text += "\n"
            files[path] = text
    return dict(sorted(files.items()))


def mtime_for(rel: str, text: str) -> float:
    d = _common.note_date(rel, text) or _common.DEFAULT_DATE
    return calendar.timegm(dt.datetime(d.year, d.month, d.day, 12, 0, 0).timetuple())


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python make_vault.py OUT_DIR", file=sys.stderr)
        return 2
    vault = Path(argv[1]) / "vault"
    if vault.exists():
        shutil.rmtree(vault)
    vault.mkdir(parents=True)
    files = all_files()
    for rel, text in files.items():
        path = vault / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
    for rel, text in files.items():
        t = mtime_for(rel, text)
        os.utime(vault / rel, (t, t))
    print(f"wrote {len(files)} files to {vault}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
