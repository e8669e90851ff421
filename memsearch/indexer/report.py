"""What an index run reports: the files, chunks and vectors it indexed, and how long each stage took."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from memsearch.scan import (
    Skipped,
)

#: progress(stage, done, total)
Progress = Callable[[str, int, int], None]


@dataclass(frozen=True)
class IndexReport:
    vault: str
    index_home: str
    files: int
    chunks: int
    embedded: int  # vectors computed in this run (cache misses)
    gaps: int  # chunks left without a vector (embedder failed); filled by the next run
    skipped: tuple[Skipped, ...]
    warnings: tuple[str, ...]
    seconds: float
    timings: dict[str, float] = field(default_factory=dict)
    embedder_error: str | None = None
    reused: int = 0  # chunks with a vector not computed in this run (kept, or from the cache)
    embedder: str | None = None  # the spec of the embedder the index was built with
    embedder_note: str | None = None  # e.g. that the embedder changed and everything was re-embedded
    commit: str | None = None  # the index commit this run made (None: nothing changed)
    added: tuple[str, ...] = ()  # files new to the index in this run
    changed: tuple[str, ...] = ()  # files indexed again (content or fallback timestamp changed)
    removed: tuple[str, ...] = ()  # files dropped from the index
    filled: int = 0  # embedding gaps filled in this run
    notes: tuple[str, ...] = ()  # e.g. an interrupted update that was discarded and redone
    head: str | None = None  # the index's commit when the run ended (its own, or the one it found)

    @property
    def changed_anything(self) -> bool:
        return self.commit is not None

    def summary(self) -> str:
        """One line: what this run changed."""
        named = (
            [f"+{p}" for p in self.added] + [f"~{p}" for p in self.changed] + [f"-{p}" for p in self.removed]
        )
        counts = f"+{len(self.added)} ~{len(self.changed)} -{len(self.removed)} files"
        parts = [f"{counts} ({' '.join(named)})" if 0 < len(named) <= 3 else counts]
        if self.filled:
            parts.append(f"{self.filled} gaps filled")
        if self.embedded:
            parts.append(f"{self.embedded} embedded")
        parts.append(f"{self.files} files, {self.chunks} chunks")
        if self.gaps:
            parts.append(f"{self.gaps} gaps")
        where = f"commit {self.commit[:12]}" if self.commit else "no commit"
        return f"{', '.join(parts)}; {where} in {self.seconds:.1f}s"

    def to_dict(self) -> dict:
        return {
            "vault": self.vault,
            "index_home": self.index_home,
            "files": self.files,
            "chunks": self.chunks,
            "embedded": self.embedded,
            "gaps": self.gaps,
            "skipped": [{"path": s.path, "reason": s.reason} for s in self.skipped],
            "warnings": list(self.warnings),
            "seconds": round(self.seconds, 3),
            "timings": {k: round(v, 3) for k, v in self.timings.items()},
            "embedder_error": self.embedder_error,
            "reused": self.reused,
            "embedder": self.embedder,
            "embedder_note": self.embedder_note,
            "commit": self.commit,
            "added": list(self.added),
            "changed": list(self.changed),
            "removed": list(self.removed),
            "filled": self.filled,
            "head": self.head,
            "notes": list(self.notes),
        }
