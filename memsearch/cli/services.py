"""The services and checks: ``serve`` (the warm index over loopback HTTP), ``mcp`` (the agent's
tools over stdio), ``doctor`` (the embedders) and ``interests`` (the standing-interest signals).

``serve`` and ``mcp`` start the two other callers of the API, :mod:`memsearch.server` and
:mod:`memsearch.mcp_server`; each is imported by its command only (~80 and ~60 ms of ``python -X
importtime`` that no other command, and no ``--help``, needs).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from memsearch.cli.options import api, echo_json, exits_on_error, json_option, vault_options
from memsearch.cli.process import ends_at_once


@click.command()
@vault_options()
@click.option(
    "--port",
    type=click.IntRange(min=0, max=65535),
    default=0,
    show_default=True,
    help="TCP port on 127.0.0.1 (0: a free one, written to serve.json).",
)
@click.option("--verbose", is_flag=True, help="Log one line per request to stderr.")
@exits_on_error
def serve(vault: Path, index_dir: Path | None, port: int, verbose: bool) -> None:
    """Keep the index loaded and answer searches on 127.0.0.1 (`memsearch search` uses it).

    Writes <index home>/serve.json (owner-only): the port, the pid and the token every request
    must carry as `Authorization: Bearer <token>`. Stops on Ctrl-C, SIGTERM or SIGHUP, removing the file.
    Endpoints: POST /search, POST /update, GET /health (JSON).
    """
    from memsearch.server import serve as run  # measured start-up cost (see the module's docstring)

    def ready(server: Any) -> None:
        click.echo(f"serving {server.vault} on {server.url} (pid {server.pid})", err=True)

    run(vault, index_dir=index_dir, port=port, ready=ready, verbose=verbose)


@click.command()
@vault_options()
@click.option("--auto-index", is_flag=True, help="Build the index on the first search if there is none.")
@exits_on_error
@ends_at_once("mcp")
def mcp(vault: Path, index_dir: Path | None, auto_index: bool) -> None:
    """Serve memory_search and memory_open to an MCP client over stdio."""
    from memsearch.mcp_server import serve as run  # measured start-up cost (see the module's docstring)

    run(vault, index_dir=index_dir, auto_index=auto_index)


@click.command()
@vault_options()
@click.option("--embedder", help="Check this embedder instead of the one a reindex would choose.")
@json_option()
@exits_on_error
def doctor(vault: Path, index_dir: Path | None, embedder: str | None, as_json: bool) -> None:
    """Check the embedders: does Ollama answer, is the model pulled, which embedder built the index,
    and does the one a reindex would use match it; and whether the Milvus backend, if one is chosen, is
    level with the index. Exits 1 when something needs doing."""
    info = api().doctor(vault, index_dir, embedder)
    if as_json:
        echo_json(info)
    else:
        print_doctor(info)
    if not info["ok"]:
        sys.exit(1)


def print_doctor(info: dict[str, Any]) -> None:
    built = info["index_embedder"] or {}
    chosen = info["embedder"]
    o = info["ollama"]
    click.echo(f"vault     {info['vault']}")
    click.echo(f"index     {info['index']}")
    if built:
        click.echo(
            f"built     with {built.get('spec')} (dim {built.get('dim')},"
            f" fingerprint {built.get('fingerprint')}); {info.get('gaps', 0)} gaps"
        )
    else:
        click.echo("built     no index yet")
    match = {True: "matches the index", False: "DIFFERS from the index", None: ""}[info["matches_index"]]
    click.echo(
        f"embedder  {chosen['spec']} (from {chosen['chosen_by']}; fingerprint {chosen.get('fingerprint')})"
        f" {match}".rstrip()
    )
    state = "answers" if o["answers"] else "does not answer"
    pulled = {True: "pulled", False: "NOT pulled", None: "unknown"}[o["pulled"]]
    need = "" if o["needed"] else " (not used by this vault)"
    click.echo(f"ollama    {o['host']} {state}; {o['model']} {pulled}{need}")
    if o["answers"] and not o["pulled"]:
        click.echo(f"          pull it with: {o['pull_command']}")
    if backend := info.get("backend"):
        behind = f" (behind the index: {backend['pending']})" if backend["pending"] else ""
        click.echo(f"backend   {backend['uri']}{behind}")
    for role, probe in info["probes"].items():
        result = f"ok in {probe['ms']} ms" if probe["ok"] else f"FAILED: {probe['error']}"
        click.echo(f"probe     {role} embedder: {result}")
    for note in info["notes"]:
        click.echo(f"note      {note}")
    for problem in info["problems"]:
        click.echo(f"problem   {problem}")
    click.echo("ok" if info["ok"] else f"{len(info['problems'])} problem(s)")


@click.command()
@vault_options()
@click.option(
    "--check", is_flag=True, help="Score each interest against the whole vault now (tune thresholds)."
)
@json_option()
@exits_on_error
def interests(vault: Path, index_dir: Path | None, check: bool, as_json: bool) -> None:
    """The vault's standing interests, where their signals go, and what the last index run fired."""
    info = api().interests(vault, index_dir, check=check)
    if as_json:
        echo_json(info)
        return
    if not info["interests"]:
        where = f" or in {info['interests_file']}" if info["interests_file"] else ""
        click.echo(f"no standing interests: declare [[interest]] in memsearch.toml{where}")
    for item in info["interests"]:
        click.echo(
            f"{item['name']}  (threshold {item['threshold']}, urgency {item['urgency']}; {item['source']})"
        )
        if item["query"] != item["name"]:
            click.echo(f"    query: {item['query']}")
        for best in item.get("best", []):
            mark = "would fire" if best["above_threshold"] else "below"
            click.echo(
                f"    {best['score']:.3f} {mark:<10} {best['ref']}"
                f"  (meaning {best['meaning']:.2f}, wording {best['wording']:.2f})"
            )
        if item.get("semantic_error"):
            click.echo(f"    semantic scoring unavailable: {item['semantic_error']}")
    for warning in info["warnings"]:
        click.echo(f"warning {warning}", err=True)
    last = info["last_run"] or {}
    click.echo(f"inbox     {info['inbox']}")
    click.echo(f"state     {info['seen_chunks']} chunks seen, {info['fired']} matches fired")
    if last:
        click.echo(
            f"last run  {last.get('at')}: {last.get('new_chunks')} new chunks,"
            f" {len(last.get('events', []))} signals" + (" (baseline)" if last.get("baseline") else "")
        )
        if last.get("error"):
            click.echo(f"last run failed: {last['error']}", err=True)


COMMANDS = (serve, mcp, doctor, interests)
