"""Who can read an index: its owner and modes, and whether the embedder host is this machine.

Everything memsearch creates under an index home is owner-only (files 0600, folders 0700) whatever
the umask: the writers open files with explicit modes, git runs under ``umask 077``, and the
embedding cache's SQLite file (and so its WAL and shared-memory files) is 0600. :func:`access`
checks that on disk, for ``memsearch status``.
"""

from __future__ import annotations

import ipaddress
import os
import pwd
import socket
import stat
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

#: Files and folders named in a status warning (the rest are counted).
SHOWN = 5


def _owner(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)


def access(home: Path) -> dict[str, Any]:
    """``{"path", "owner", "mode", "owner_only", "exposed": [paths group/other can use], "warning"}``."""
    home = Path(home)
    try:
        st = os.stat(home)
    except OSError as exc:
        return {
            "path": str(home),
            "owner": None,
            "mode": None,
            "owner_only": False,
            "exposed": [],
            "warning": f"cannot stat {home}: {exc}",
        }
    exposed: list[str] = []
    others: set[str] = set()
    for root, dirs, files in os.walk(home):
        for name in [*dirs, *files]:
            path = os.path.join(root, name)
            try:
                info = os.lstat(path)
            except OSError:
                continue
            if stat.S_ISLNK(info.st_mode):
                continue
            if info.st_mode & 0o077:
                exposed.append(path)
            if info.st_uid != st.st_uid:
                others.add(_owner(info.st_uid))
    mode = st.st_mode & 0o777
    if mode & 0o077:
        exposed.insert(0, str(home))
    warning = None
    if exposed:
        shown = ", ".join(exposed[:SHOWN]) + (
            f" and {len(exposed) - SHOWN} more" if len(exposed) > SHOWN else ""
        )
        warning = (
            f"{len(exposed)} path(s) under the index can be read or entered by group or others: {shown};"
            f" run `chmod -R go-rwx {home}`"
        )
    if others:
        warning = (
            warning + "; " if warning else ""
        ) + f"files owned by other users: {', '.join(sorted(others))}"
    return {
        "path": str(home),
        "owner": _owner(st.st_uid),
        "mode": f"{mode:04o}",
        "owner_only": not exposed,
        "exposed": exposed,
        "warning": warning,
    }


def is_loopback(url: str) -> bool:
    """Whether ``url``'s host is this machine (localhost, 127.0.0.0/8, ::1)."""
    host = urlparse(url if "://" in url else f"http://{url}").hostname or ""
    if host in ("localhost", "localhost.localdomain") or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        pass
    try:
        return all(ipaddress.ip_address(a[4][0]).is_loopback for a in socket.getaddrinfo(host, None))
    except (OSError, ValueError):
        return False
