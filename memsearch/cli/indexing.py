"""Keeping the index: ``index``, ``reindex`` (the cron job), ``watch``, and ``status``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from memsearch.cli.options import (
    EXIT_DEGRADED,
    EXIT_ERROR,
    EXIT_LOCKED,
    Seconds,
    api,
    echo_json,
    exits_on_error,
    json_option,
    lock_wait,
    vault_options,
    wait_option,
)
from memsearch.cli.process import INDEX_AS_LEFT, stops_cleanly
from memsearch.errors import LockBusyError, MemsearchError


@click.command()
@vault_options(required=True)
@click.option(
    "--no-embed", is_flag=True, help="Skip embedding (keyword, graph and time only; gaps recorded)."
)
@click.option(
    "--embedder",
    help="Embedder: minilm (offline default), e5-multilingual (extra [multilingual]), ollama,"
    " ollama:nomic-embed-text:256, ..."
    " (default: $MEMSEARCH_EMBEDDER, else [index] embedder in memsearch.toml, else the index's own).",
)
@click.option(
    "--reembed",
    is_flag=True,
    help="Embed every chunk again, ignoring cached vectors (after the model changed under the same name).",
)
@click.option(
    "--backend",
    help="Where keyword and vector search run from now on: milvus://HOST:PORT, a Milvus Lite file"
    " (PATH.db), or builtin (recorded in the index; default: the recorded one, else [backend] uri in"
    " memsearch.toml, else builtin).",
)
@wait_option("Seconds to wait for another writer (index, watch, reindex) before giving up (900; 0: none).")
@json_option("Print the report as JSON.")
@exits_on_error
@stops_cleanly("index", INDEX_AS_LEFT)
def index(
    vault: Path,
    index_dir: Path | None,
    no_embed: bool,
    embedder: str | None,
    reembed: bool,
    backend: str | None,
    wait: float | None,
    as_json: bool,
) -> None:
    """Index VAULT (incremental over the embedding cache: unchanged text is never embedded twice)."""
    bar = ProgressBar() if sys.stderr.isatty() and not as_json else None
    try:
        report = api().index_vault(
            vault,
            progress=bar,
            index_dir=index_dir,
            embed=not no_embed,
            embedder=embedder,
            reembed=reembed,
            backend=backend,
            **lock_wait(wait),
        )
    finally:
        if bar:
            bar.close()
    if as_json:
        echo_json(report.to_dict(), ensure_ascii=True)
        return
    click.echo(
        f"indexed {report.files} files, {report.chunks} chunks ({report.embedded} embedded,"
        f" {report.reused} cached; embedder {report.embedder}) in {report.seconds:.1f}s"
        f" -> {report.index_home}"
    )
    changes = f"+{len(report.added)} ~{len(report.changed)} -{len(report.removed)} files"
    click.echo(f"{changes}: commit {report.commit[:12]}" if report.commit else "unchanged: no commit")
    for note in report.notes:
        click.echo(f"note: {note}", err=True)
    for skipped in report.skipped:
        click.echo(f"skipped {skipped.path}: {skipped.reason}", err=True)
    for warning in report.warnings:
        click.echo(f"warning {warning}", err=True)
    if report.embedder_note:
        click.echo(f"note: {report.embedder_note}", err=True)
    if report.embedder_error:
        click.echo(
            f"semantic search degraded: {report.embedder_error}; {report.gaps} chunks await vectors"
            " (the next `memsearch index` fills them)",
            err=True,
        )


class ProgressBar:
    """A progress line on a terminal only; the library itself never prints."""

    def __init__(self) -> None:
        self._stage = ""

    def __call__(self, stage: str, done: int, total: int) -> None:
        if total < 50 and stage != "embed":
            return
        if stage != self._stage:
            if self._stage:
                click.echo("", err=True)
            self._stage = stage
        if done == total or done % max(1, total // 100) == 0:
            width = 30
            filled = int(width * done / max(total, 1))
            click.echo(
                f"\r{stage:>6} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}", err=True, nl=False
            )

    def close(self) -> None:
        if self._stage:
            click.echo("", err=True)


@click.command()
@vault_options(required=True)
@click.option(
    "--wait",
    "wait",
    type=Seconds(),
    default=None,
    help="Seconds to wait for another writer (index, watch, reindex) before giving up (default 900).",
)
@click.option("--no-wait", is_flag=True, help="Give up at once if another writer holds the lock.")
@click.option("--no-embed", is_flag=True, help="Take vectors from the cache only (gaps are recorded).")
@json_option("Print the report as JSON (always, even if nothing changed).")
@stops_cleanly("reindex", INDEX_AS_LEFT)
def reindex(
    vault: Path, index_dir: Path | None, wait: float | None, no_wait: bool, no_embed: bool, as_json: bool
) -> None:
    """The cron job: bring VAULT's index up to date, quietly.

    Incremental and idempotent; fills embedding gaps; rebuilds a vector graph that updates patched
    (above 20,000 vectors), so answers are those of a clean build. Prints nothing when nothing
    changed, one line when something did. Exit 0: done; 1: an error (the message says what to do); 3: indexed,
    but chunks still lack vectors (the embedder failed); 75: another writer held the lock.
    """
    waiting = {"lock_timeout": 0.0} if no_wait else {} if wait is None else {"lock_timeout": wait}
    try:
        report = api().reindex(vault, index_dir, embed=not no_embed, **waiting)
    except LockBusyError as exc:
        click.echo(f"memsearch reindex: {exc}", err=True)
        sys.exit(EXIT_LOCKED)
    except MemsearchError as exc:
        click.echo(f"memsearch reindex: {exc}", err=True)
        sys.exit(EXIT_ERROR)
    except Exception as exc:  # a bug: say so in one line, with what to send
        click.echo(f"memsearch reindex: unexpected {type(exc).__name__}: {exc}", err=True)
        sys.exit(EXIT_ERROR)
    if as_json:
        echo_json(report.to_dict(), ensure_ascii=True)
    elif report.commit is not None or report.notes:
        line = report.summary()
        if report.notes:
            line += " (" + "; ".join(report.notes) + ")"
        click.echo(line)
    if report.gaps and report.embedder_error and not no_embed:
        click.echo(
            f"memsearch reindex: semantic search degraded: {report.gaps} chunks await vectors"
            f" ({report.embedder_error}); the next run fills them",
            err=True,
        )
        sys.exit(EXIT_DEGRADED)


@click.command()
@vault_options(required=True)
@click.option(
    "--interval", type=Seconds(positive=True), default=None, help="Seconds between looks at the vault (0.5)."
)
@click.option("--debounce", type=Seconds(), default=None, help="Quiet seconds before a batch is indexed (1).")
@click.option("--no-embed", is_flag=True, help="Take vectors from the cache only (gaps are recorded).")
@click.option("--quiet", is_flag=True, help="Print nothing but errors.")
@click.option("--max-seconds", type=Seconds(), default=None, hidden=True)
@exits_on_error
def watch(
    vault: Path,
    index_dir: Path | None,
    interval: float | None,
    debounce: float | None,
    no_embed: bool,
    quiet: bool,
    max_seconds: float | None,
) -> None:
    """Follow VAULT's changes and update the index (debounced batches, one commit each).

    Catches up first with what changed while it was not running. Stops on Ctrl-C, SIGTERM or SIGHUP.
    """

    def report(r: Any) -> None:
        if quiet:
            return
        if r.commit is not None:
            click.echo(r.summary())
        for skipped in r.skipped:  # as `memsearch index` says them: which file, and why
            click.echo(f"skipped {skipped.path}: {skipped.reason}", err=True)
        for warning in r.warnings:
            click.echo(f"warning {warning}", err=True)

    def error(exc: Exception) -> None:
        click.echo(f"memsearch watch: {exc}", err=True)

    def ready(watcher: Any) -> None:
        if not quiet:
            click.echo(f"watching {watcher.vault} (Ctrl-C to stop)", err=True)

    api().watch(
        vault,
        index_dir,
        embed=not no_embed,
        interval=interval,
        debounce=debounce,
        on_report=report,
        on_error=error,
        ready=ready,
        max_seconds=max_seconds,
    )


@click.command()
@vault_options()
@json_option()
@exits_on_error
def status(vault: Path, index_dir: Path | None, as_json: bool) -> None:
    """Where the index lives, who can read it, what it holds, and what was skipped."""
    info = api().status(vault, index_dir)
    if as_json:
        echo_json(info, ensure_ascii=True)
        return
    emb = info["embedder"] or {}
    who = info["access"]
    click.echo(f"vault     {info['vault']}")
    click.echo(f"index     {info['index']} (mode {info['index_mode']}, {info['index_bytes'] / 1e6:.1f} MB)")
    readers = "the owner only" if who["owner_only"] else "its group or others too (see the warning)"
    click.echo(f"access    owner {who['owner']}, mode {who['mode']}: readable by {readers}")
    if who["warning"]:
        click.echo(f"warning   {who['warning']}", err=True)
    click.echo(f"built     {info['built_at']}")
    click.echo(
        f"files     {info['files']}  chunks {info['chunks']}  vectors {info['vectors']}  gaps {info['gaps']}"
    )
    click.echo(f"embedder  {emb.get('spec')} dim={emb.get('dim')} fingerprint={emb.get('fingerprint')}")
    if info["embedder_error"]:
        click.echo(f"degraded  {info['embedder_error']}")
    backend = info.get("backend") or {}
    if backend.get("name") == "milvus":
        where = f"collection {backend['collection']}, vault {backend['vault_id']}"
        click.echo(f"backend   milvus {backend['uri']} ({where})")
        if backend.get("pending"):
            click.echo(f"degraded  {backend['pending']}; the next `memsearch index` pushes it")
    for path, reason in info["skipped"].items():
        click.echo(f"skipped   {path}: {reason}")


COMMANDS = (index, reindex, watch, status)
