"""The verbs of the CLI for every caller, each a function of the vault: index, reindex, watch, status,
log, rollback, forget, unforget, open, interests, doctor, and a search that asks a running server first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memsearch import doctor as doctoring
from memsearch import opening, privacy
from memsearch.client import WarmSearch, warm_client
from memsearch.config import Settings
from memsearch.errors import IndexMissingError
from memsearch.index.versioning import IndexRepo
from memsearch.lock import DEFAULT_LOCK_TIMEOUT
from memsearch.paths import check_home, default_home
from memsearch.scan import check_vault

# The write side (the indexer, signals, forget: chunkers, YAML, ...) is imported by the methods that
# write, on first use: a process that only searches never pays for it (~80 ms measured on 2 cores:
# `python -X importtime -c "import memsearch.indexer, memsearch.signals, memsearch.forget"` after
# the search side). Every import inside a function below is one of those.
if TYPE_CHECKING:
    from memsearch.forget import Forgotten
    from memsearch.indexer import IndexReport, Progress
    from memsearch.watch import Watcher
from memsearch.api.engine import Memsearch, open_index

# What writes imports the indexer, the forget machinery or the watcher when it runs, not with this
# module: a cold local search imports memsearch.api, and those cost it ~48 ms (indexer), ~46 ms
# (watch, with the indexer), ~21 ms (forget) and ~14 ms (signals) more (medians of `python -X
# importtime -c "import memsearch.api; import memsearch.X"`). Every import below the first line of a
# function here is one of those.


def index_vault(
    vault: str | Path,
    settings: Settings | None = None,
    progress: Progress | None = None,
    index_dir: str | Path | None = None,
    embed: bool = True,
    embedder: str | None = None,
    reembed: bool = False,
    *,
    paths: Sequence[str | Path] | None = None,
    lock_timeout: float | None = DEFAULT_LOCK_TIMEOUT,
    backend: str | None = None,
) -> IndexReport:
    """Bring a vault's index up to date: only what changed is indexed again, as one commit.

    ``embedder``: a spec (``minilm``, ``ollama``, ``ollama:nomic-embed-text:256``), else
    ``$MEMSEARCH_EMBEDDER``, the vault config, or the embedder the index was built with.
    ``reembed``: embed every chunk again, ignoring the cache. ``paths``: only these files
    (a missing one is removed). ``lock_timeout``: seconds to wait for another writer.
    ``backend``: where keyword and vector search run from now on (``milvus://HOST:PORT``, a Milvus
    Lite ``*.db`` file, or ``builtin``); recorded in the index, so every later search uses it.
    """
    from memsearch.indexer import index_vault as _index_vault

    home = Path(index_dir) if index_dir else None
    return _index_vault(
        Path(vault),
        settings,
        progress,
        home,
        embed=embed,
        embedder=embedder,
        reembed=reembed,
        paths=paths,
        lock_timeout=lock_timeout,
        backend=backend,
    )


def log(vault: str | Path, index_dir: str | Path | None = None, limit: int | None = None) -> list[dict]:
    """The index's commits, newest first: ``{"commit", "time", "subject", "body"}`` each."""
    vault = check_vault(Path(vault))
    home = Path(index_dir) if index_dir else default_home(vault)
    check_home(home)
    repo = IndexRepo(home)
    if not repo.exists():  # as `status` says it: an empty history read as "no changes" misleads
        raise IndexMissingError(f"no index at {home}; run `memsearch index VAULT` first")
    return [c.to_dict() for c in repo.log(limit)]


def rollback(
    vault: str | Path,
    rev: str,
    index_dir: str | Path | None = None,
    lock_timeout: float | None = DEFAULT_LOCK_TIMEOUT,
) -> str | None:
    """Make the index as ``rev`` had it current again, as a new commit; None if it already is."""
    from memsearch.indexer import rollback as _rollback

    return _rollback(Path(vault), rev, Path(index_dir) if index_dir else None, lock_timeout)


def forget(
    vault: str | Path,
    paths: Sequence[str | Path] = (),
    entity: str | None = None,
    *,
    concept: str | None = None,
    index_dir: str | Path | None = None,
    purge_history: bool = False,
    lock_timeout: float | None = DEFAULT_LOCK_TIMEOUT,
    force: bool = False,
) -> Any:
    """Forget files and/or every chunk naming ``entity`` from every index (one commit); with
    ``purge_history`` from every older commit too. Returns a :class:`~memsearch.forget.ForgetReport`.
    A path naming nothing indexed or in the vault raises unless ``force``.

    ``concept``: every notebook moment tagged with it. A moment's concepts are its entities, so
    this is ``entity`` under the notebook's name: any other chunk naming it goes too (a forget
    errs on the side of forgetting), and later runs leave out whatever names it."""
    from memsearch.errors import MemsearchError
    from memsearch.forget import forget as _forget

    if concept is not None:
        if entity is not None:
            raise MemsearchError("give --entity or --concept, not both: a forget takes one name")
        entity = concept

    return _forget(
        Path(vault),
        list(paths),
        entity,
        index_home=index_dir,
        purge_history=purge_history,
        lock_timeout=lock_timeout,
        force=force,
    )


def redact(
    vault: str | Path,
    moment_ids: Sequence[str],
    *,
    index_dir: str | Path | None = None,
    purge_history: bool = False,
    lock_timeout: float | None = DEFAULT_LOCK_TIMEOUT,
) -> Any:
    """Take the sidecar vectors (audio, image, every non-text modality) of the notebook moments
    ``moment_ids`` out of the index and keep them out (their text stays searchable); with
    ``purge_history`` out of every older commit too. Returns a :class:`~memsearch.purge.ForgetReport`."""
    from memsearch.redact import redact as _redact

    return _redact(
        Path(vault),
        list(moment_ids),
        index_home=index_dir,
        purge_history=purge_history,
        lock_timeout=lock_timeout,
    )


def unredact(
    vault: str | Path,
    moment_ids: Sequence[str],
    *,
    index_dir: str | Path | None = None,
    force: bool = False,
    lock_timeout: float | None = DEFAULT_LOCK_TIMEOUT,
) -> list[str]:
    """Undo :func:`redact` for ``moment_ids``: the next index run reads their sidecars again;
    returns the moment files. A redaction made with ``purge_history`` is refused unless ``force``
    (its history stays gone)."""
    from memsearch.redact import unredact as run_unredact  # measured start-up cost (see above)

    return run_unredact(
        Path(vault), list(moment_ids), index_home=index_dir, force=force, lock_timeout=lock_timeout
    )


def reindex(
    vault: str | Path,
    index_dir: str | Path | None = None,
    *,
    embed: bool = True,
    lock_timeout: float | None = DEFAULT_LOCK_TIMEOUT,
    settings: Settings | None = None,
) -> IndexReport:
    """The cron job: bring the index up to date (incremental, idempotent; fills embedding gaps).

    As :func:`index_vault` with the embedder the index has; the commit names ``memsearch reindex``.
    Above 20,000 vectors it also rebuilds from scratch a vector graph that updates patched, so the
    answers are again those of a clean build of the same vault (docs/versioning.md).
    ``lock_timeout``: seconds to wait for another writer (0: give up at once, LockBusyError).
    """
    from memsearch.indexer import index_vault as run_index  # measured start-up cost (see above)

    return run_index(
        Path(vault),
        settings,
        index_home=Path(index_dir) if index_dir else None,
        embed=embed,
        lock_timeout=lock_timeout,
        what="memsearch reindex",
        settle=True,
    )


def watch(
    vault: str | Path,
    index_dir: str | Path | None = None,
    *,
    settings: Settings | None = None,
    embed: bool = True,
    interval: float | None = None,
    debounce: float | None = None,
    on_report: Callable[[IndexReport], None] | None = None,
    on_error: Callable[[Exception], None] | None = None,
    ready: Callable[[Watcher], None] | None = None,
    max_seconds: float | None = None,
) -> Watcher:
    """Follow the vault's changes and keep its index current (debounced batches, one commit each)
    until SIGINT/SIGTERM, the watcher's ``stop()``, or ``max_seconds``; returns the watcher.

    ``ready(watcher)`` is called before it catches up with what changed while it was not running;
    ``on_report`` gets each batch's report, ``on_error`` each failed batch's error (it goes on).
    ``interval``/``debounce`` default to :data:`memsearch.watch.POLL_INTERVAL`/``DEBOUNCE_SECONDS``.
    """
    from memsearch import watch as watching  # measured start-up cost (see above)

    timing = {"interval": interval, "debounce": debounce}
    watcher = watching.Watcher(
        vault,
        settings,
        index_dir,
        embed=embed,
        on_report=on_report,
        on_error=on_error,
        **{name: value for name, value in timing.items() if value is not None},
    )
    if ready is not None:
        ready(watcher)
    watcher.run(max_seconds=max_seconds)
    return watcher


def status(vault: str | Path, index_dir: str | Path | None = None) -> dict[str, Any]:
    """Where the index lives, what it holds, what was skipped, and who can read it (``access``)."""
    info = open_index(vault, index_dir=index_dir).status()
    info["access"] = privacy.access(Path(info["index"]))
    return info


def forgotten(vault: str | Path, index_dir: str | Path | None = None) -> tuple[list[Forgotten], int]:
    """What is forgotten: the paths (by name where one can be given, never by content) and how
    many entity names and aliases (kept by hash only)."""
    from memsearch.forget import list_forgotten  # measured start-up cost (see above)

    return list_forgotten(vault, index_dir)


def unforget(
    vault: str | Path,
    paths: Sequence[str | Path] = (),
    *,
    entity: str | None = None,
    index_dir: str | Path | None = None,
    force: bool = False,
    lock_timeout: float | None = DEFAULT_LOCK_TIMEOUT,
) -> list[str]:
    """Undo :func:`forget` for ``paths`` and/or ``entity``: the next index run indexes them again;
    returns them. What was forgotten with ``purge_history`` is refused unless ``force`` (its
    history stays gone)."""
    from memsearch.forget import unforget as run_unforget  # measured start-up cost (see above)

    return run_unforget(
        vault, list(paths), entity=entity, index_home=index_dir, force=force, lock_timeout=lock_timeout
    )


def open_memory(
    vault: str | Path,
    ref: str,
    start_line: int | None = None,
    end_line: int | None = None,
    *,
    manifest: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The lines ``ref`` names (``PATH``, ``PATH:LINE``, ``PATH:START-END``), bounded, as the agent's
    ``memory_open`` answers: ``ok``, ``text``, ``next``, ``warnings``...; a refusal is an answer with
    ``ok`` false, ``code`` and ``error``. Never raises. See :mod:`memsearch.opening`."""
    return opening.open_memory(vault, ref, start_line, end_line, manifest=manifest)


def interests(
    vault: str | Path, index_dir: str | Path | None = None, *, check: bool = False
) -> dict[str, Any]:
    """The vault's standing interests, where their signals go and what the last index run fired;
    ``check``: also each interest's best memories in the whole vault now (to tune thresholds)."""
    from memsearch.signals import describe  # measured start-up cost (see above)

    return describe(vault, index_dir, check=check)


def doctor(
    vault: str | Path, index_dir: str | Path | None = None, embedder: str | None = None
) -> dict[str, Any]:
    """Check the embedders: does Ollama answer, is the model pulled, which embedder built the index,
    and does the one a reindex would use (or ``embedder``) match it; ``ok`` false when something
    needs doing (``problems`` says what)."""
    return doctoring.diagnose(Path(vault), Path(index_dir) if index_dir else None, embedder)


def refreshed(engine: Memsearch, settings: Settings | None = None) -> Memsearch:
    """``engine`` with its index's newest commit, for a caller that keeps one engine open.

    A new commit is loaded into the engine (:meth:`Memsearch.refresh`: the embedder and what else is
    loaded are kept) and the vault's ``memsearch.toml`` read again, as opening it would; a commit made
    with another embedder opens the index anew. Nothing changed (or no index right now, while a
    rebuild swaps it in): ``engine`` as it was.
    """
    before = (engine.index.manifest.get("embedder") or {}).get("fingerprint")
    if not engine.refresh():
        return engine
    if (engine.index.manifest.get("embedder") or {}).get("fingerprint") != before:
        return open_index(engine.vault, settings, engine.index_home)
    engine.settings = (settings or Settings()).with_vault_config(engine.vault)
    return engine


def search_warm(
    vault: str | Path, query: str, k: int = 10, *, index_dir: str | Path | None = None, **options: Any
) -> dict[str, Any]:
    """One search through the vault's running ``memsearch serve`` if it answers (the same answer,
    without loading the index here), else through the index loaded here: the
    :class:`~memsearch.models.SearchResponse` as ``to_dict()`` gives it, either way.

    ``options``: those of :meth:`Memsearch.search`, as JSON values (times as ISO strings).
    """
    search = WarmSearch(warm_client(vault, index_dir), lambda: open_index(vault, index_dir=index_dir))
    try:
        return search(query, k, options)
    finally:
        search.close()
