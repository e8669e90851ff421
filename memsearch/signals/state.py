"""What the signal checks remember (which chunks the last run saw, which matches fired), the inbox
they append events to, and how a forget takes the forgotten memories out of both.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

from memsearch.index.forget_list import ForgetList, entity_hash
from memsearch.paths import IndexLayout, atomic_write, private_dir

log = logging.getLogger(__name__)


STATE_FORMAT = 1


def short_hash(content_hash: str) -> str:
    return content_hash[:16]


def state_path(index_home: Path) -> Path:
    return IndexLayout(index_home).signal_state


def load_state(index_home: Path) -> dict[str, Any] | None:
    path = state_path(index_home)
    try:
        state = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        log.warning("signals: state %s is unreadable (%s); starting a new baseline", path, exc)
        return None
    if not isinstance(state, dict) or state.get("format") != STATE_FORMAT:
        return None
    return state


def save_state(index_home: Path, state: dict[str, Any]) -> None:
    path = state_path(index_home)
    private_dir(path.parent)
    tmp = path.with_suffix(f".tmp-{os.getpid()}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(state, fh, sort_keys=True, ensure_ascii=False)
    os.replace(tmp, path)


def append_events(inbox: Path, events: list[dict[str, Any]]) -> None:
    """One JSON line per event, appended (owner-only file)."""
    private_dir(inbox.parent)
    fd = os.open(inbox, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    with os.fdopen(fd, "a", encoding="utf-8") as fh:
        for event in events:
            fh.write(json.dumps(event, ensure_ascii=False) + "\n")


def purge(home: Path, content_hashes: set[str], forget: ForgetList, inbox: Path, changed: bool) -> None:
    """The signal state forgets the chunks' hashes; the signal log loses every event about a
    forgotten file or that writes a forgotten name (in any of its fields, in any spelling); the
    last run's record goes when anything was forgotten (``changed``)."""
    shorts = {h[:16] for h in content_hashes}
    state = load_state(home)
    if state is not None and shorts:
        state["seen"] = [h for h in state.get("seen", []) if h not in shorts]
        state["fired"] = {
            k: v for k, v in state.get("fired", {}).items() if not any(s in k or s == v for s in shorts)
        }
        save_state(home, state)
    for log_file in {Path(inbox), IndexLayout(home).signal_inbox}:
        if log_file.is_file():
            _purge_log(log_file, forget)
    last = IndexLayout(home).signal_last_run
    if last.exists() and changed:
        last.unlink(missing_ok=True)


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _purge_log(log_file: Path, forget: ForgetList) -> None:
    raw = log_file.read_bytes()
    kept: list[bytes] = []
    for line in raw.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            kept.append(line)
            continue
        target = event.get("target") if isinstance(event, dict) else None
        if isinstance(target, str) and forget.has_path(target):
            continue
        texts = _strings(event)
        payload = event.get("payload") if isinstance(event, dict) else None
        entities = payload.get("entities", []) if isinstance(payload, dict) else []
        if forget.names_entity(e for e in entities if isinstance(e, str)) or any(
            forget.mentions(t) for t in texts
        ):
            continue
        if forget.entities and any(entity_hash(t) in forget.entities for t in texts if len(t) <= 100):
            continue
        kept.append(line)
    new = b"".join(ln + b"\n" for ln in kept)
    if new != raw:
        atomic_write(log_file, new)
