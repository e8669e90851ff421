"""The command line: a thin layer over memsearch.api with the same verbs."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import click

from memsearch.errors import MemsearchError

FORMATS = ("files", "json", "table")
EXIT_ERROR = 1  # an error the message explains (a bad query, date or vault, no index, ...)
EXIT_USAGE = 2  # an argument the command does not take (click's usage errors), or an unexpected error


def _fail(exc: Exception) -> None:
    click.echo(f"memsearch: {exc}", err=True)
    sys.exit(EXIT_ERROR if isinstance(exc, MemsearchError) else EXIT_USAGE)


def _resolve_vault(vault: str | None) -> Path:

    chosen = vault or os.environ.get("MEMSEARCH_VAULT") or "."
    return Path(chosen)


@click.group()
@click.version_option(package_name="memsearch-vault")
def main() -> None:
    """memsearch: where does the memory I am reaching for live?"""


@main.command()
@click.argument("vault", type=click.Path(path_type=Path))
@click.option(
    "--index-dir", type=click.Path(path_type=Path), help="Where the index lives (default VAULT/.memsearch)."
)
@click.option(
    "--no-embed", is_flag=True, help="Skip embedding (keyword, graph and time only; gaps recorded)."
)
@click.option(
    "--embedder",
    help="Embedder: minilm (offline default), ollama, ollama:nomic-embed-text:256, ..."
    " (default: $MEMSEARCH_EMBEDDER, else [index] embedder in memsearch.toml, else the index's own).",
)
@click.option(
    "--reembed",
    is_flag=True,
    help="Embed every chunk again, ignoring cached vectors (after the model changed under the same name).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def index(
    vault: Path, index_dir: Path | None, no_embed: bool, embedder: str | None, reembed: bool, as_json: bool
) -> None:
    """Index VAULT (incremental over the embedding cache: unchanged text is never embedded twice)."""
    from memsearch.api import index_vault

    bar = _ProgressBar() if sys.stderr.isatty() and not as_json else None
    try:
        report = index_vault(
            vault,
            progress=bar,
            index_dir=index_dir,
            embed=not no_embed,
            embedder=embedder,
            reembed=reembed,
        )
    except MemsearchError as exc:
        _fail(exc)
    finally:
        if bar:
            bar.close()
    if as_json:
        click.echo(json.dumps(report.to_dict(), indent=2))
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


class _ProgressBar:
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


def _search_options(f):
    options = [
        click.option("--vault", help="The vault (default: $MEMSEARCH_VAULT or the current folder)."),
        click.option("--index-dir", type=click.Path(path_type=Path), help="Where the index lives."),
        click.option(
            "-k", "k", type=click.IntRange(min=1), default=10, show_default=True, help="How many results."
        ),
        click.option(
            "--format", "fmt", type=click.Choice(FORMATS), default=None, help="files | json | table."
        ),
        click.option("--chunks", is_flag=True, help="One result per chunk instead of per file."),
        click.option(
            "--explain", is_flag=True, help="Show each strategy's rank, raw score and RRF contribution."
        ),
        click.option(
            "--all",
            "all_results",
            is_flag=True,
            help="Show results even when nothing resonates (signal none).",
        ),
        click.option("--now", help="Reference time (ISO) for recency and relative dates."),
        click.option("--territory", help="Only this path prefix or territory (e.g. journal/)."),
        click.option("--fact-type", type=click.Choice(["world", "experience"]), help="Only this fact type."),
        click.option(
            "--entity", "entities", multiple=True, help="Only chunks naming this entity (repeatable)."
        ),
        click.option("--since", help="Only memories at or after this time (ISO)."),
        click.option("--until", help="Only memories at or before this time (ISO)."),
        click.option(
            "--strategy",
            "strategies",
            multiple=True,
            type=click.Choice(["semantic", "keyword", "graph", "time"]),
            help="Run only these strategies (repeatable); default: all four, fused.",
        ),
        click.option("--batch", type=click.File("rb"), help="Read one JSON query per line ('-' for stdin)."),
    ]
    for option in reversed(options):
        f = option(f)
    return f


@main.command()
@click.argument("query", required=False)
@_search_options
@click.option(
    "--at", "at", metavar="REV", help="Search the index as commit REV had it (see `memsearch log`)."
)
@click.option("--no-server", is_flag=True, help="Load the index here even if `memsearch serve` runs for it.")
def search(
    query: str | None,
    at: str | None,
    no_server: bool,
    vault: str | None,
    index_dir: Path | None,
    k: int,
    fmt: str | None,
    chunks: bool,
    explain: bool,
    all_results: bool,
    now: str | None,
    territory: str | None,
    fact_type: str | None,
    entities: tuple[str, ...],
    since: str | None,
    until: str | None,
    strategies: tuple[str, ...],
    batch,
) -> None:
    """Search the vault's index for QUERY and print where the memories live.

    When `memsearch serve` runs for this index, the query goes to it (the same answer, without
    loading the index here); if it does not answer, the index is loaded here.
    """
    vault_path = _resolve_vault(vault)
    common: dict[str, Any] = {
        "chunks": chunks,
        "explain": explain,
        "all_results": all_results,
        "now": now,
        "territory": territory,
        "fact_type": fact_type,
        "entities": list(entities) or None,
        "since": since,
        "until": until,
        "strategies": list(strategies) or None,
    }
    if at is None and not no_server and (query is not None or batch is not None):
        client = _server_client(vault_path, index_dir)
        if client is not None and _search_through_server(
            client, query, k, fmt, explain, common, batch, lambda: _open_local(vault_path, index_dir)
        ):
            return
    engine = _open_local(vault_path, index_dir, at, semantic=not strategies or "semantic" in strategies)
    if batch is not None:
        _run_batch(
            lambda q, n, options: engine.search(q, n, **options).to_dict(), batch, k, common, fmt, explain
        )
        return
    if query is None:
        _fail(
            MemsearchError(
                'no query given; usage: memsearch search "what you are looking for" [--vault VAULT]'
            )
        )
    try:
        response = engine.search(query, k, **common)
    except MemsearchError as exc:
        _fail(exc)
    _print_response(response.to_dict(), fmt, explain)
    _exit_now()


#: Set by :func:`run` (the console script): this process is the CLI itself, not a host (a test's
#: CliRunner, an agent calling ``main``) that goes on after the command.
_OWN_PROCESS = False


def _exit_now() -> None:
    """End a search process at once: it wrote nothing but its output, and tearing down the model,
    the HNSW graph and every loaded chunk took 50-300 ms of a cold search (measured at 10k)."""
    if _OWN_PROCESS:
        _exit_at_once(0)


def run() -> None:
    """The ``memsearch`` console script."""
    global _OWN_PROCESS
    _OWN_PROCESS = True
    try:
        main()
    except SystemExit as exc:  # click ends every command with one, success or not
        if _preload_loading():
            code = exc.code
            if code is not None and not isinstance(code, int):  # SystemExit("message"): printed, 1
                click.echo(str(code), err=True)
                code = EXIT_ERROR
            _exit_at_once(code or 0)
        raise
    except BaseException:
        if _preload_loading():
            import traceback

            traceback.print_exc()
            _exit_at_once(EXIT_ERROR)
        raise


def _preload_loading() -> bool:
    """Whether the embedder is still loading on its thread: then the process must end without the
    interpreter's teardown (see :func:`memsearch.embedders.preload.loading`)."""
    preload = sys.modules.get("memsearch.embedders.preload")
    return preload is not None and preload.loading()


def _exit_at_once(code: int) -> None:
    import contextlib

    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(BrokenPipeError, ValueError, OSError):  # the reader left (`| head`)
            stream.flush()
    os._exit(code)


def _open_local(vault: Path, index_dir: Path | None, at: str | None = None, semantic: bool = True):
    preload = None
    if semantic and at is None:
        # The model starts loading on a thread before the engine is even imported: a cold search
        # then waits for the longer of the two, not their sum.
        from memsearch.embedders.preload import EmbedderPreload
        from memsearch.paths import default_home, resolved_vault

        folder = resolved_vault(vault)
        if folder is not None:
            preload = EmbedderPreload(Path(index_dir) if index_dir else default_home(folder), folder)
    from memsearch.api import open_index

    try:
        return open_index(vault, index_dir=index_dir, at=at, preload_embedder=preload or False)
    except MemsearchError as exc:
        _fail(exc)


def _server_client(vault: Path, index_dir: Path | None):
    """A client of the `memsearch serve` of this vault's index, or None. Imports nothing heavy."""
    from memsearch import __version__
    from memsearch.client import ServerClient, find_server
    from memsearch.paths import default_home, resolved_vault

    folder = resolved_vault(vault)
    if folder is None:
        return None  # the local path says what is wrong with the vault
    info = find_server(Path(index_dir) if index_dir else default_home(folder))
    if info is None or info.vault != str(folder) or info.version != __version__:
        return None
    return ServerClient(info)


def _search_through_server(client, query, k, fmt, explain, common, batch, open_local) -> bool:
    """Answer through the server; False (nothing printed) if it did not answer: search locally."""
    from memsearch.client import ServerRefused, ServerUnavailable

    if batch is not None:
        try:
            _run_batch(_ServerSearch(client, open_local), batch, k, common, fmt, explain)
        finally:
            client.close()
        return True
    try:
        data = client.search({"query": query, "k": k, **common})
    except ServerRefused as exc:  # the request itself is wrong: the same error a local search gives
        _fail(MemsearchError(str(exc)))
    except ServerUnavailable:
        return False
    finally:
        client.close()
    _print_response(data, fmt, explain)
    return True


class _ServerSearch:
    """A batch's searches through the server; if it stops answering, through the index loaded here."""

    def __init__(self, client, open_local) -> None:
        self.client = client
        self.open_local = open_local
        self.engine = None

    def __call__(self, query: str, k: int, options: dict[str, Any]) -> dict[str, Any]:
        from memsearch.client import ServerRefused, ServerUnavailable

        if self.engine is None:
            try:
                return self.client.search({"query": query, "k": k, **options})
            except ServerRefused as exc:
                raise MemsearchError(str(exc)) from None
            except ServerUnavailable:
                self.client.close()
                self.engine = self.open_local()
        return self.engine.search(query, k, **options).to_dict()


def _print_response(data: dict[str, Any], fmt: str | None, explain: bool) -> None:
    """Print a SearchResponse (as ``to_dict()`` gives it: local or from the server, the same lines)."""
    fmt = fmt or ("table" if sys.stdout.isatty() else "files")
    if fmt == "json":
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
    elif fmt == "files":
        for r in data["results"]:
            click.echo(f"{r['path']}:{r['start_line']}-{r['end_line']}\t{r['score']:.3f}")
            if explain and r.get("explanation"):
                _print_explanation(r["explanation"])
        if not data["results"]:  # nothing on stdout (for pipes): why, on stderr
            click.echo(_no_results_line(data), err=True)
        elif data.get("signal") not in (None, "strong"):
            # Paths stay alone on stdout (for pipes); the weakness is said beside them.
            click.echo(f"signal {data['signal']}: {data.get('signal_reason', '')}", err=True)
    else:
        _print_table(data, explain)
    for name, why in data["health"]["failed"].items():
        click.echo(f"degraded: {name} search failed: {why}", err=True)


def _run_batch(
    search_fn, batch, k: int, common: dict[str, Any], fmt: str | None = None, explain: bool = False
) -> None:
    """One JSON answer line per query line; ``search_fn(query, k, options)`` gives ``to_dict()``.

    ``--format files`` or ``table`` prints each answer as a single search prints it instead, after a
    ``# line N`` heading (its id too); errors then go to stderr as ``line N: ...``. Without
    ``--format`` a batch answers JSON lines (the format scripts read).

    A line that is not UTF-8, not a JSON object, holds a lone surrogate, or has a field the search
    does not take (or of the wrong type) gets an error line naming the line; the later lines are
    still answered. A line's fields override the command's options."""
    from memsearch.client import BadRequest, search_arguments

    for line_no, raw in enumerate(batch, 1):
        if not raw.strip():
            continue
        request: Any = None
        try:
            request = json.loads(raw.decode("utf-8") if isinstance(raw, bytes) else raw)
            if not isinstance(request, dict):
                raise ValueError(f"each line must be a JSON object, not {type(request).__name__}")
            json.dumps(request, ensure_ascii=False).encode("utf-8")
        except UnicodeDecodeError as exc:
            _batch_error(
                None, f"line {line_no}: not UTF-8 (its byte {exc.start}); write the batch file as UTF-8"
            )
            continue
        except UnicodeEncodeError as exc:
            _batch_error(
                request.get("id") if isinstance(request, dict) and _plain(request.get("id")) else None,
                f"line {line_no}: holds {exc.object[exc.start]!r}, a lone surrogate that is not text;"
                " write the character itself",
            )
            continue
        except ValueError as exc:
            _batch_error(None, f"line {line_no}: not a JSON object ({exc})")
            continue
        line_id = request.get("id")
        try:
            query, n, options = search_arguments({**common, "k": k, **request}, k, strict=True)
            out = {"id": line_id, **search_fn(query, n, options)}
        except BadRequest as exc:
            out = {"id": line_id, "error": f"line {line_no}: {exc}", "results": [], "health": {}}
        except (MemsearchError, TypeError, ValueError) as exc:
            out = {"id": line_id, "error": str(exc), "results": [], "health": {}}
        if fmt in ("files", "table"):
            name = f"# line {line_no}" + (f" (id {line_id})" if line_id is not None else "")
            click.echo(f"{name}: {request.get('query', '')}" if fmt == "table" else name)
            if "error" in out:
                click.echo(f"line {line_no}: {out['error']}", err=True)
            else:
                _print_response(out, fmt, explain)
            continue
        click.echo(json.dumps(out, ensure_ascii=False))


def _print_explanation(explanation: dict[str, Any]) -> None:
    """Each strategy's rank, raw score, weight (with the confidence in it), RRF contribution and
    part of the shown score; the parts add up to the score unless it was capped."""
    for name, part in explanation["strategies"].items():
        click.echo(
            f"      {name:<8} rank {part['rank']:>3}  raw {part['raw_score']:.4f}"
            f"  weight {part['weight']:.2f} (confidence {part.get('confidence', 1.0):.2f})"
            f"  contribution {part['contribution']:.5f}  shown {part.get('shown', 0.0):.3f}"
        )
    if explanation.get("graph_paths"):
        click.echo(f"      graph: {'; '.join(explanation['graph_paths'])}")
    score = explanation.get("score", {})
    capped = " (capped: at 1, or at the result above)" if score.get("capped") else ""
    click.echo(
        f"      territory weight {explanation['territory_weight']}; shown score {score.get('shown', 0):.3f}"
        f" = sum of shown parts {score.get('sum_of_parts', 0):.3f}{capped}"
    )


def _plain(value: Any) -> bool:
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except (TypeError, ValueError):
        return False
    return True


def _batch_error(line_id: Any, message: str) -> None:
    click.echo(json.dumps({"id": line_id, "error": message, "results": [], "health": {}}, ensure_ascii=False))


def _no_results_line(data: dict[str, Any]) -> str:
    """ "no results", and why: the filter that left nothing, or what the signal read."""
    reason = data.get("signal_reason") or ""
    if reason.startswith("no results"):
        return reason
    return f"no results: nothing resonates with this query{f' ({reason})' if reason else ''}"


def _print_table(data: dict[str, Any], explain: bool) -> None:
    signal = data.get("signal")
    if not data["results"]:
        click.echo(_no_results_line(data))
    elif signal == "thin":
        click.echo(f"the signal is thin: {data.get('signal_reason', '')}")
    for i, r in enumerate(data["results"], 1):
        when = (r.get("timestamp") or "")[:10]
        ents = ", ".join(r["entities"][:4])
        click.echo(
            f"{i:>2}. {r['score']:.3f}  {r['path']}:{r['start_line']}-{r['end_line']}"
            f"  [{r['territory']}, {r['fact_type']}] {when}"
        )
        if r.get("heading"):
            click.echo(f"      {r['heading'][:90]}")
        if ents:
            click.echo(f"      entities: {ents}")
        if explain and r.get("explanation"):
            _print_explanation(r["explanation"])
    h = data["health"]
    click.echo(f"ran: {', '.join(h['ran']) or 'none'}; {h['timings_ms'].get('total', 0):.1f} ms", err=True)
    for name, why in h["skipped"].items():
        click.echo(f"skipped {name}: {why}", err=True)


@main.command()
@click.option("--vault", help="The vault (default: $MEMSEARCH_VAULT or the current folder).")
@click.option("--index-dir", type=click.Path(path_type=Path), help="Where the index lives.")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
def status(vault: str | None, index_dir: Path | None, as_json: bool) -> None:
    """Where the index lives, who can read it, what it holds, and what was skipped."""
    from memsearch.api import open_index

    try:
        info = open_index(_resolve_vault(vault), index_dir=index_dir).status()
    except MemsearchError as exc:
        _fail(exc)
    from memsearch.privacy import access

    info["access"] = access(Path(info["index"]))
    if as_json:
        click.echo(json.dumps(info, indent=2))
        return
    emb = info["embedder"] or {}
    who = info["access"]
    click.echo(f"vault     {info['vault']}")
    click.echo(f"index     {info['index']} (mode {info['index_mode']}, {info['index_bytes'] / 1e6:.1f} MB)")
    readers = "owner only" if who["owner_only"] else "WARNING: group or others too"
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
    for path, reason in info["skipped"].items():
        click.echo(f"skipped   {path}: {reason}")


@main.command("open")
@click.argument("ref")
@click.option("--vault", help="The vault (default: $MEMSEARCH_VAULT or the current folder).")
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON (text, lines, next).")
def open_(ref: str, vault: str | None, as_json: bool) -> None:
    """Print the lines REF names: PATH, PATH:LINE or PATH:START-END (1-based, inclusive)."""
    from memsearch.tool import MemoryTools

    answer = MemoryTools(_resolve_vault(vault)).memory_open(ref)
    if as_json:
        click.echo(json.dumps(answer, ensure_ascii=False, indent=2))
    elif answer["ok"]:
        click.echo(answer["text"])
        for warning in answer["warnings"]:
            click.echo(f"note: {warning}", err=True)
    else:
        click.echo(f"memsearch: {answer['error']}", err=True)
    if not answer["ok"]:
        sys.exit(1)


@main.command()
@click.option("--vault", help="The vault (default: $MEMSEARCH_VAULT or the current folder).")
@click.option("--index-dir", type=click.Path(path_type=Path), help="Where the index lives.")
@click.option("--auto-index", is_flag=True, help="Build the index on the first search if there is none.")
def mcp(vault: str | None, index_dir: Path | None, auto_index: bool) -> None:
    """Serve memory_search and memory_open to an MCP client over stdio."""
    from memsearch.mcp_server import serve

    try:
        serve(_resolve_vault(vault), index_dir=index_dir, auto_index=auto_index)
    except MemsearchError as exc:
        _fail(exc)


@main.command()
@click.option("--vault", help="The vault (default: $MEMSEARCH_VAULT or the current folder).")
@click.option("--index-dir", type=click.Path(path_type=Path), help="Where the index lives.")
@click.option(
    "--port",
    type=click.IntRange(min=0, max=65535),
    default=0,
    show_default=True,
    help="TCP port on 127.0.0.1 (0: a free one, written to serve.json).",
)
@click.option("--verbose", is_flag=True, help="Log one line per request to stderr.")
def serve(vault: str | None, index_dir: Path | None, port: int, verbose: bool) -> None:
    """Keep the index loaded and answer searches on 127.0.0.1 (`memsearch search` uses it).

    Writes <index home>/serve.json (owner-only): the port, the pid and the token every request
    must carry as `Authorization: Bearer <token>`. Stops on Ctrl-C or SIGTERM, removing the file.
    Endpoints: POST /search, POST /update, GET /health (JSON).
    """
    from memsearch.server import serve as run

    def ready(server) -> None:
        click.echo(f"serving {server.vault} on {server.url} (pid {server.pid})", err=True)

    try:
        run(_resolve_vault(vault), index_dir=index_dir, port=port, ready=ready, verbose=verbose)
    except MemsearchError as exc:
        _fail(exc)


@main.command()
@click.option("--vault", help="The vault (default: $MEMSEARCH_VAULT or the current folder).")
@click.option("--index-dir", type=click.Path(path_type=Path), help="Where the index lives.")
@click.option(
    "--check", is_flag=True, help="Score each interest against the whole vault now (tune thresholds)."
)
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
def interests(vault: str | None, index_dir: Path | None, check: bool, as_json: bool) -> None:
    """The vault's standing interests, where their signals go, and what the last index run fired."""
    from memsearch.signals import describe

    try:
        info = describe(_resolve_vault(vault), index_dir, check=check)
    except MemsearchError as exc:
        _fail(exc)
    if as_json:
        click.echo(json.dumps(info, ensure_ascii=False, indent=2))
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


@main.command()
@click.option("--vault", help="The vault (default: $MEMSEARCH_VAULT or the current folder).")
@click.option("--index-dir", type=click.Path(path_type=Path), help="Where the index lives.")
@click.option("--embedder", help="Check this embedder instead of the one a reindex would choose.")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
def doctor(vault: str | None, index_dir: Path | None, embedder: str | None, as_json: bool) -> None:
    """Check the embedders: does Ollama answer, is the model pulled, which embedder built the index,
    and does the one a reindex would use match it. Exits 1 when something needs doing."""
    from memsearch.doctor import diagnose

    try:
        info = diagnose(_resolve_vault(vault), index_dir, embedder)
    except MemsearchError as exc:
        _fail(exc)
    if as_json:
        click.echo(json.dumps(info, ensure_ascii=False, indent=2))
    else:
        _print_doctor(info)
    if not info["ok"]:
        sys.exit(1)


def _print_doctor(info: dict[str, Any]) -> None:
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
    for role, probe in info["probes"].items():
        result = f"ok in {probe['ms']} ms" if probe["ok"] else f"FAILED: {probe['error']}"
        click.echo(f"probe     {role} embedder: {result}")
    for note in info["notes"]:
        click.echo(f"note      {note}")
    for problem in info["problems"]:
        click.echo(f"problem   {problem}")
    click.echo("ok" if info["ok"] else f"{len(info['problems'])} problem(s)")


# -- versioning, the reindex job, the watcher -------------------------------------------------------

#: Exit codes of `memsearch reindex` (cron reads them).
EXIT_DEGRADED = 3  # indexed, but chunks still lack vectors: the embedder failed
EXIT_LOCKED = 75  # another writer held the lock for the whole wait (EX_TEMPFAIL)


@main.command("log")
@click.option("--vault", help="The vault (default: $MEMSEARCH_VAULT or the current folder).")
@click.option("--index-dir", type=click.Path(path_type=Path), help="Where the index lives.")
@click.option("-n", "limit", type=click.IntRange(min=1), help="Show only the newest N commits.")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON lines.")
@click.option("--files", "show_files", is_flag=True, help="Also list the files each commit names.")
def log_(
    vault: str | None, index_dir: Path | None, limit: int | None, as_json: bool, show_files: bool
) -> None:
    """The index's history: one commit per update that changed it, newest first."""
    from datetime import UTC, datetime

    from memsearch.api import log

    try:
        commits = log(_resolve_vault(vault), index_dir, limit)
    except MemsearchError as exc:
        _fail(exc)
    for c in commits:
        if as_json:
            click.echo(json.dumps(c, ensure_ascii=False))
            continue
        when = datetime.fromtimestamp(c["time"], tz=UTC).strftime("%Y-%m-%d %H:%M:%S")
        click.echo(f"{c['commit'][:12]}  {when}  {c['subject']}")
        if show_files and c["body"]:
            for line in c["body"].splitlines():
                click.echo(f"    {line}")


@main.command()
@click.argument("rev")
@click.option("--vault", help="The vault (default: $MEMSEARCH_VAULT or the current folder).")
@click.option("--index-dir", type=click.Path(path_type=Path), help="Where the index lives.")
@click.option("--wait", "wait", type=float, default=None, help="Seconds to wait for another writer.")
def rollback(rev: str, vault: str | None, index_dir: Path | None, wait: float | None) -> None:
    """Make the index as commit REV had it current again, as a new commit (history is kept).

    The vault is not changed: the next `memsearch index`, `reindex` or `watch` brings the index
    back in line with it.
    """
    from memsearch.api import rollback as do_rollback
    from memsearch.lock import DEFAULT_LOCK_TIMEOUT

    try:
        commit = do_rollback(
            _resolve_vault(vault), rev, index_dir, DEFAULT_LOCK_TIMEOUT if wait is None else wait
        )
    except MemsearchError as exc:
        _fail(exc)
    if commit is None:
        click.echo(f"the index already is as {rev} had it; nothing to do")
    else:
        click.echo(f"rolled back to {rev}: new commit {commit[:12]}")


@main.command()
@click.argument("vault", type=click.Path(path_type=Path))
@click.option("--index-dir", type=click.Path(path_type=Path), help="Where the index lives.")
@click.option(
    "--wait",
    "wait",
    type=float,
    default=None,
    help="Seconds to wait for another writer (index, watch, reindex) before giving up (default 900).",
)
@click.option("--no-wait", is_flag=True, help="Give up at once if another writer holds the lock.")
@click.option("--no-embed", is_flag=True, help="Take vectors from the cache only (gaps are recorded).")
@click.option(
    "--json", "as_json", is_flag=True, help="Print the report as JSON (always, even if nothing changed)."
)
def reindex(
    vault: Path, index_dir: Path | None, wait: float | None, no_wait: bool, no_embed: bool, as_json: bool
) -> None:
    """The cron job: bring VAULT's index up to date, quietly.

    Incremental and idempotent; fills embedding gaps. Prints nothing when nothing changed, one
    line when something did. Exit 0: done; 1: an error (the message says what to do); 3: indexed,
    but chunks still lack vectors (the embedder failed); 75: another writer held the lock.
    """
    from memsearch.errors import LockBusyError
    from memsearch.indexer import index_vault as run_index
    from memsearch.lock import DEFAULT_LOCK_TIMEOUT

    timeout = 0.0 if no_wait else (DEFAULT_LOCK_TIMEOUT if wait is None else wait)
    try:
        report = run_index(
            vault,
            index_home=index_dir,
            embed=not no_embed,
            lock_timeout=timeout,
            what="memsearch reindex",
        )
    except LockBusyError as exc:
        click.echo(f"memsearch reindex: {exc}", err=True)
        sys.exit(EXIT_LOCKED)
    except MemsearchError as exc:
        click.echo(f"memsearch reindex: {exc}", err=True)
        sys.exit(1)
    except Exception as exc:  # a bug: say so in one line, with what to send
        click.echo(f"memsearch reindex: unexpected {type(exc).__name__}: {exc}", err=True)
        sys.exit(1)
    if as_json:
        click.echo(json.dumps(report.to_dict(), indent=2))
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


@main.command()
@click.argument("vault", type=click.Path(path_type=Path))
@click.option("--index-dir", type=click.Path(path_type=Path), help="Where the index lives.")
@click.option("--interval", type=float, default=None, help="Seconds between looks at the vault (0.5).")
@click.option("--debounce", type=float, default=None, help="Quiet seconds before a batch is indexed (1).")
@click.option("--no-embed", is_flag=True, help="Take vectors from the cache only (gaps are recorded).")
@click.option("--quiet", is_flag=True, help="Print nothing but errors.")
@click.option("--max-seconds", type=float, default=None, hidden=True)
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

    Catches up first with what changed while it was not running. Stops on Ctrl-C or SIGTERM.
    """
    from memsearch import watch as watching

    def report(r) -> None:
        if r.commit is not None and not quiet:
            click.echo(r.summary())

    def error(exc: Exception) -> None:
        click.echo(f"memsearch watch: {exc}", err=True)

    options: dict[str, Any] = {"embed": not no_embed, "on_report": report, "on_error": error}
    if interval is not None:
        options["interval"] = interval
    if debounce is not None:
        options["debounce"] = debounce
    try:
        watcher = watching.Watcher(vault, index_dir=index_dir, **options)
        if not quiet:
            click.echo(f"watching {watcher.vault} (Ctrl-C to stop)", err=True)
        watcher.run(max_seconds=max_seconds)
    except MemsearchError as exc:
        _fail(exc)


@main.command()
@click.argument("paths", nargs=-1)
@click.option("--entity", help="Forget every chunk naming this entity (resolved through aliases).")
@click.option("--vault", help="The vault (default: $MEMSEARCH_VAULT or the current folder).")
@click.option("--index-dir", type=click.Path(path_type=Path), help="Where the index lives.")
@click.option(
    "--purge-history",
    is_flag=True,
    help="Also rewrite the index's git history without them (new commit ids), expire reflogs and prune.",
)
@click.option("--force", is_flag=True, help="Forget a path even if nothing is indexed or in the vault there.")
@click.option("--list", "list_", is_flag=True, help="List what is forgotten (by path, never by content).")
@click.option("--wait", "wait", type=float, default=None, help="Seconds to wait for another writer.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def forget(
    paths: tuple[str, ...],
    entity: str | None,
    vault: str | None,
    index_dir: Path | None,
    purge_history: bool,
    force: bool,
    list_: bool,
    wait: float | None,
    as_json: bool,
) -> None:
    """Forget memories: files (PATH...) or every chunk naming --entity NAME, from every index.

    One commit removes them; the embedding cache, snapshots and signal log lose them too, and
    later index runs skip them (the vault's own forget list, .memsearch-forgotten.json, holds
    hashes only). --purge-history also removes them from every older commit, under every name
    the file had. A path that names nothing needs --force. `memsearch unforget PATH` undoes a
    forget that was not purged.
    """
    from memsearch.forget import forget as do_forget
    from memsearch.lock import DEFAULT_LOCK_TIMEOUT

    if list_:
        if paths or entity or purge_history:
            _fail(MemsearchError("--list takes no PATH, --entity or --purge-history"))
        _print_forgotten(_resolve_vault(vault), index_dir, as_json)
        return
    try:
        report = do_forget(
            _resolve_vault(vault),
            list(paths),
            entity,
            index_home=index_dir,
            purge_history=purge_history,
            lock_timeout=DEFAULT_LOCK_TIMEOUT if wait is None else wait,
            force=force,
        )
    except MemsearchError as exc:
        _fail(exc)
    if as_json:
        click.echo(json.dumps(report.to_dict(), indent=2))
        return
    click.echo(report.summary())
    for path in report.not_found:
        click.echo(f"not in the index (will not be indexed): {path}", err=True)
    for warning in report.warnings:
        click.echo(f"warning: {warning}", err=True)


def _print_forgotten(vault: Path, index_dir: Path | None, as_json: bool) -> None:
    from memsearch.forget import list_forgotten

    try:
        found, entities = list_forgotten(vault, index_dir)
    except MemsearchError as exc:
        _fail(exc)
    if as_json:
        click.echo(json.dumps({"paths": [f.to_dict() for f in found], "entities": entities}, indent=2))
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


@main.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--vault", help="The vault (default: $MEMSEARCH_VAULT or the current folder).")
@click.option("--index-dir", type=click.Path(path_type=Path), help="Where the index lives.")
@click.option(
    "--force", is_flag=True, help="Also a path forgotten with --purge-history (its history stays gone)."
)
@click.option("--wait", "wait", type=float, default=None, help="Seconds to wait for another writer.")
def unforget(
    paths: tuple[str, ...], vault: str | None, index_dir: Path | None, force: bool, wait: float | None
) -> None:
    """Undo `memsearch forget PATH`: the next index run indexes PATH from the vault again."""
    from memsearch.forget import unforget as do_unforget
    from memsearch.lock import DEFAULT_LOCK_TIMEOUT

    try:
        done = do_unforget(
            _resolve_vault(vault),
            list(paths),
            index_home=index_dir,
            force=force,
            lock_timeout=DEFAULT_LOCK_TIMEOUT if wait is None else wait,
        )
    except MemsearchError as exc:
        _fail(exc)
    for rel in done:
        click.echo(f"unforgot {rel}: the next `memsearch index` indexes it again")


if __name__ == "__main__":
    run()
