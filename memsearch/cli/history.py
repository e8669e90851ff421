"""The index's history and what it must not hold: ``log``, ``rollback``, ``forget``, ``unforget``."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import click

from memsearch.cli.options import (
    api,
    echo_json,
    exits_on_error,
    fail,
    json_option,
    lock_wait,
    vault_options,
    wait_option,
)
from memsearch.errors import MemsearchError


@click.command("log")
@vault_options()
@click.option("-n", "limit", type=click.IntRange(min=1), help="Show only the newest N commits.")
@json_option("Print as JSON lines.")
@click.option("--files", "show_files", is_flag=True, help="Also list the files each commit names.")
@exits_on_error
def log_(vault: Path, index_dir: Path | None, limit: int | None, as_json: bool, show_files: bool) -> None:
    """The index's history: one commit per update that changed it, newest first."""
    for c in api().log(vault, index_dir, limit):
        if as_json:
            click.echo(json.dumps(c, ensure_ascii=False))
            continue
        when = datetime.fromtimestamp(c["time"], tz=UTC).strftime("%Y-%m-%d %H:%M:%S")
        click.echo(f"{c['commit'][:12]}  {when}  {c['subject']}")
        if show_files and c["body"]:
            for line in c["body"].splitlines():
                click.echo(f"    {line}")


@click.command()
@click.argument("rev")
@vault_options()
@wait_option()
@exits_on_error
def rollback(rev: str, vault: Path, index_dir: Path | None, wait: float | None) -> None:
    """Make the index as commit REV had it current again, as a new commit (history is kept).

    The vault is not changed: the next `memsearch index`, `reindex` or `watch` brings the index
    back in line with it.
    """
    commit = api().rollback(vault, rev, index_dir, **lock_wait(wait))
    if commit is None:
        click.echo(f"the index already is as {rev} had it; nothing to do")
    else:
        click.echo(f"rolled back to {rev}: new commit {commit[:12]}")


@click.command()
@click.argument("paths", nargs=-1)
@click.option("--entity", help="Forget every chunk naming this entity (resolved through aliases).")
@click.option(
    "--concept",
    help="Forget every notebook moment tagged with this concept (and, as --entity, any chunk naming it).",
)
@vault_options(positional=False)
@click.option(
    "--purge-history",
    is_flag=True,
    help="Also rewrite the index's git history without them (new commit ids), expire reflogs and prune.",
)
@click.option(
    "--force",
    is_flag=True,
    help="Forget a path even if nothing is indexed or in the vault there, or a name no chunk names.",
)
@click.option("--list", "list_", is_flag=True, help="List what is forgotten (by path, never by content).")
@wait_option()
@json_option("Print the report as JSON.")
@exits_on_error
def forget(
    paths: tuple[str, ...],
    entity: str | None,
    concept: str | None,
    vault: Path,
    index_dir: Path | None,
    purge_history: bool,
    force: bool,
    list_: bool,
    wait: float | None,
    as_json: bool,
) -> None:
    """Forget memories: files (PATH...), every chunk naming --entity NAME, or every notebook moment
    tagged --concept NAME, from every index.

    One commit removes them; the embedding cache, snapshots and signal log lose them too, and
    later index runs skip them (the vault's own forget list, .memsearch-forgotten.json, holds
    hashes only). --purge-history also removes them from every older commit, under every name
    the file had. A path or a name that names nothing needs --force; a path outside the vault is refused.
    `memsearch unforget PATH` undoes a forget that was not purged.
    """
    if list_:
        if paths or entity or concept or purge_history:
            fail(MemsearchError("--list takes no PATH, --entity, --concept or --purge-history"))
        print_forgotten(vault, index_dir, as_json)
        return
    report = api().forget(
        vault,
        list(paths),
        entity,
        concept=concept,
        index_dir=index_dir,
        purge_history=purge_history,
        force=force,
        **lock_wait(wait),
    )
    if as_json:
        echo_json(report.to_dict(), ensure_ascii=True)
        return
    click.echo(report.summary())
    for path in report.not_found:
        click.echo(f"not in the index (will not be indexed): {path}", err=True)
    for warning in report.warnings:
        click.echo(f"warning: {warning}", err=True)


@click.command()
@click.argument("moment_ids", nargs=-1, required=True, metavar="MOMENT_ID...")
@vault_options(positional=False)
@click.option(
    "--purge-history",
    is_flag=True,
    help="Also rewrite the index's git history without those vectors (new commit ids), and prune.",
)
@wait_option()
@json_option("Print the report as JSON.")
@exits_on_error
def redact(
    moment_ids: tuple[str, ...],
    vault: Path,
    index_dir: Path | None,
    purge_history: bool,
    wait: float | None,
    as_json: bool,
) -> None:
    """Remove notebook moments' sidecar vectors (audio, image: every non-text modality) from the
    index and keep them out of later runs; each moment's text stays searchable.

    The redacted list (in the forget list, hashes only) keeps the sidecars unread while they stay
    in the vault. --purge-history also removes them from every older commit, as forget does.
    """
    report = api().redact(
        vault, list(moment_ids), index_dir=index_dir, purge_history=purge_history, **lock_wait(wait)
    )
    if as_json:
        echo_json(report.to_dict(), ensure_ascii=True)
        return
    where = f"commit {report.commit[:12]}" if report.commit else "no commit (no vector of them was indexed)"
    line = f"redacted {len(report.files)} moment(s): {report.modal_vectors} vector(s) removed; {where}"
    if report.purged:
        line += f"; history purged ({report.rewritten} commits rewritten, new ids)"
    click.echo(line)
    for warning in report.warnings:
        click.echo(f"warning: {warning}", err=True)


def print_forgotten(vault: Path, index_dir: Path | None, as_json: bool) -> None:
    """``forget --list``: each forgotten path by name where it can be named (never by content)."""
    found, entities = api().forgotten(vault, index_dir)
    if as_json:
        echo_json({"paths": [f.to_dict() for f in found], "entities": entities}, ensure_ascii=True)
        return
    if not found and not entities:
        click.echo("nothing is forgotten")
        return
    for f in found:
        name = f.path or f"(a path known by its hash only: sha256 {f.hash[:16]})"
        notes = ["purged"] if f.purged else []
        notes.append("in the vault, skipped" if f.in_vault else "not in the vault")
        click.echo(f"{name}  [{', '.join(notes)}]")
    if entities:
        click.echo(f"{entities} entity name(s) and alias(es), kept by hash only")


@click.command()
@click.argument("paths", nargs=-1)
@click.option("--entity", help="A forgotten name (as forgotten, or an alias of it) to index again.")
@vault_options(positional=False)
@click.option(
    "--force", is_flag=True, help="Also what was forgotten with --purge-history (its history stays gone)."
)
@wait_option()
@exits_on_error
def unforget(
    paths: tuple[str, ...],
    entity: str | None,
    vault: Path,
    index_dir: Path | None,
    force: bool,
    wait: float | None,
) -> None:
    """Undo `memsearch forget PATH` or `forget --entity NAME`: the next index run indexes them again."""
    if not paths and not entity:
        raise click.UsageError("name the forgotten files (PATH...) or --entity NAME")
    undone = api().unforget(vault, paths, entity=entity, index_dir=index_dir, force=force, **lock_wait(wait))
    for rel in undone:
        click.echo(f"unforgot {rel}: the next `memsearch index` indexes it again")


@click.command()
@click.argument("moment_ids", nargs=-1, required=True, metavar="MOMENT_ID...")
@vault_options(positional=False)
@click.option(
    "--force", is_flag=True, help="Also a redaction made with --purge-history (its history stays gone)."
)
@click.option(
    "--index",
    "run_index",
    is_flag=True,
    help="Run the index now (the moments' sidecars read again) instead of leaving it to the next run.",
)
@wait_option()
@exits_on_error
def unredact(
    moment_ids: tuple[str, ...],
    vault: Path,
    index_dir: Path | None,
    force: bool,
    run_index: bool,
    wait: float | None,
) -> None:
    """Undo `memsearch redact MOMENT_ID`: the next index run reads the moments' sidecar vectors again
    (their files unchanged or not). A redaction made with --purge-history needs --force."""
    undone = api().unredact(vault, moment_ids, index_dir=index_dir, force=force, **lock_wait(wait))
    if not run_index:
        for rel in undone:
            click.echo(f"unredacted {rel}: the next `memsearch index` reads its sidecar vectors again")
        return
    report = api().index_vault(vault, index_dir=index_dir, paths=undone, **lock_wait(wait))
    for rel in undone:
        click.echo(f"unredacted {rel}: its sidecar vectors are read again")
    click.echo(report.summary())


COMMANDS = (log_, rollback, forget, unforget, redact, unredact)
