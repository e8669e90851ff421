"""The standing interests a vault declares: in ``memsearch.toml`` (``[[interest]]``) or in a markdown
file the agent writes (``system/interests.md``), and where their events go (``[signals]``).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memsearch.config import CONFIG_FILENAME, load_config_file
from memsearch.errors import ConfigError
from memsearch.models import FACT_TYPES
from memsearch.paths import IndexLayout
from memsearch.scan import decode_memory

#: A Scorer score. Measured on the fixture vault plus eight new journal entries and six standing queries
#: (MiniLM): entries plainly about the query scored 0.62-0.71, every unrelated entry at most 0.27.
#: Tune per interest; `memsearch interests --check` shows what each memory scores today.
DEFAULT_THRESHOLD = 0.5


URGENCIES = ("low", "normal", "high", "critical")


DEFAULT_URGENCY = "normal"


DEFAULT_INTERESTS_FILE = "system/interests.md"


@dataclass(frozen=True)
class Interest:
    """A standing query and what a match means."""

    name: str
    query: str
    threshold: float = DEFAULT_THRESHOLD
    urgency: str | float = DEFAULT_URGENCY
    territory: str | None = None
    fact_type: str | None = None
    source: str = ""  # where it was declared, for messages

    @property
    def key(self) -> str:
        """Identity for "already fired": a renamed or reworded interest is a new one."""
        return hashlib.sha256(f"{self.name}\x00{self.query}".encode("utf-8", "surrogatepass")).hexdigest()[
            :16
        ]

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "query": self.query,
            "threshold": self.threshold,
            "urgency": self.urgency,
            "territory": self.territory,
            "fact_type": self.fact_type,
            "source": self.source,
        }


@dataclass(frozen=True)
class SignalConfig:
    interests: tuple[Interest, ...]
    inbox: Path
    interests_file: str  # vault-relative posix path, "" when off
    warnings: tuple[str, ...] = ()


def _interest(item: Mapping[str, Any], where: str) -> Interest:
    query = item.get("query")
    if not isinstance(query, str) or not query.strip():
        raise ConfigError(f'{where}: needs query = "what you are waiting to hear about"')
    query = " ".join(query.split())
    name = item.get("name") or query[:80]
    try:
        threshold = float(item.get("threshold", DEFAULT_THRESHOLD))
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"{where}: threshold must be a number between 0 and 1") from exc
    if not 0 < threshold <= 1:
        raise ConfigError(f"{where}: threshold {threshold} must be above 0 and at most 1 (a search score)")
    urgency: str | float = item.get("urgency", DEFAULT_URGENCY)
    if isinstance(urgency, str) and urgency.strip().lower() in URGENCIES:
        urgency = urgency.strip().lower()
    else:
        try:
            urgency = float(urgency)
        except (TypeError, ValueError):
            urgency = -1.0
        if not 0 <= urgency <= 1:
            raise ConfigError(f"{where}: urgency must be one of {', '.join(URGENCIES)} or a number 0..1")
    fact_type = item.get("fact_type") or None
    if fact_type is not None and str(fact_type).lower() not in FACT_TYPES:
        raise ConfigError(f"{where}: fact_type {fact_type!r} must be world or experience")
    territory = item.get("territory") or None
    return Interest(
        name=str(name).strip(),
        query=query,
        threshold=threshold,
        urgency=urgency,
        territory=str(territory) if territory else None,
        fact_type=str(fact_type).lower() if fact_type else None,
        source=where,
    )


_KEY_LINE = re.compile(r"^\s*(?:[-*]\s+)?(query|threshold|urgency|territory|fact_type)\s*:\s*(.*?)\s*$", re.I)


_SECTION = re.compile(r"^##\s+(.+?)\s*#*\s*$")


def parse_interests_markdown(text: str, source: str = DEFAULT_INTERESTS_FILE) -> list[dict[str, Any]]:
    """Each ``## heading`` is an interest; ``key: value`` lines in its section configure it."""
    items: list[dict[str, Any]] = []
    fence = False
    for number, line in enumerate(text.replace("\r\n", "\n").split("\n"), 1):
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
            continue
        if fence:
            continue
        heading = _SECTION.match(line)
        if heading:
            items.append({"name": heading[1], "query": heading[1], "_line": number})
            continue
        pair = _KEY_LINE.match(line)
        if pair and items:
            items[-1][pair[1].lower()] = pair[2].strip().strip("\"'`")
    return items


def load_signal_config(vault: Path, index_home: Path) -> SignalConfig:
    """The vault's interests (config and file) and where events go. Raises ConfigError if unreadable."""
    config_path = vault / CONFIG_FILENAME
    data = load_config_file(config_path) if config_path.is_file() else {}
    section = data.get("signals", {})
    if not isinstance(section, dict):
        raise ConfigError(f"{config_path}: [signals] must be a table")
    interests: list[Interest] = []
    warnings: list[str] = []
    declared = data.get("interest", [])
    if not isinstance(declared, list):
        raise ConfigError(f"{config_path}: declare interests as [[interest]] tables")
    for i, item in enumerate(declared, 1):
        where = f"{CONFIG_FILENAME} [[interest]] #{i}"
        try:
            if not isinstance(item, dict):
                raise ConfigError(f"{where}: must be a table")
            interests.append(_interest(item, where))
        except ConfigError as exc:  # one bad interest must not silence the others
            warnings.append(f"{exc}; this interest is ignored until fixed")
    interests_file = str(section.get("interests_file", DEFAULT_INTERESTS_FILE)).strip().strip("/")
    if interests_file:
        path = vault / interests_file
        if path.is_file() and path.resolve().is_relative_to(vault.resolve()):
            try:
                text = decode_memory(path.read_bytes())  # a note of the vault: read as the scan reads it
            except (OSError, UnicodeDecodeError) as exc:
                warnings.append(f"{interests_file}: cannot read ({exc}); its interests are ignored")
                text = ""
            for item in parse_interests_markdown(text, interests_file):
                where = f"{interests_file}:{item.pop('_line')}"
                try:
                    interests.append(_interest(item, where))
                except ConfigError as exc:
                    warnings.append(f"{exc}; this interest is ignored until fixed")
    inbox_setting = section.get("inbox")
    if inbox_setting:
        inbox = Path(str(inbox_setting)).expanduser()
        inbox = inbox if inbox.is_absolute() else index_home / inbox
    else:
        inbox = IndexLayout(index_home).signal_inbox
    return SignalConfig(tuple(interests), inbox, interests_file, tuple(warnings))
