"""``memsearch search`` and ``memsearch open``: where a memory lives, and its lines.

A search goes to the ``memsearch serve`` of the vault's index when one runs (the same answer, without
loading the index here: this path imports neither numpy nor the engine), else to the index loaded
here (:class:`memsearch.client.WarmSearch` holds that policy).
"""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import click

from memsearch.cli.options import (
    FORMATS,
    QueryCommand,
    api,
    echo_json,
    exits_on_error,
    fail,
    json_option,
    vault_options,
)
from memsearch.cli.output import print_response
from memsearch.cli.process import exit_now, stops_cleanly
from memsearch.client import BadRequest, WarmSearch, search_arguments, warm_client
from memsearch.errors import MemsearchError
from memsearch.paths import default_home, resolved_vault
from memsearch.preload import EmbedderPreload


def search_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The options of a search (each one a field of a ``--batch`` line, which overrides it)."""
    options = [
        click.option(
            "-k", "k", type=click.IntRange(min=1), default=10, show_default=True, help="How many results."
        ),
        click.option(
            "--format", "fmt", type=click.Choice(FORMATS), default=None, help="files | json | table."
        ),
        json_option("Print as JSON (the same as --format json)."),
        click.option("--chunks", is_flag=True, help="One result per chunk instead of per file."),
        click.option(
            "--explain",
            is_flag=True,
            help="Show each strategy's rank, raw score and RRF contribution, and how the query was read.",
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
        click.option(
            "--until", help="Only memories at or before this time (ISO; a date alone keeps that whole day)."
        ),
        click.option(
            "--strategy",
            "strategies",
            multiple=True,
            type=click.Choice(["semantic", "keyword", "graph", "time"]),
            help="Run only these strategies (repeatable); default: all four, fused.",
        ),
        click.option(
            "--batch",
            type=click.File("rb"),
            help="Read one JSON query per line ('-' for stdin); a lone VAULT then stands where QUERY does.",
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command


@click.command(cls=QueryCommand)
@click.argument("query", required=False)
@vault_options()
@search_options
@click.option(
    "--at", "at", metavar="REV", help="Search the index as commit REV had it (see `memsearch log`)."
)
@click.option("--no-server", is_flag=True, help="Load the index here even if `memsearch serve` runs for it.")
@click.option(
    "--vector",
    "vector_files",
    multiple=True,
    metavar="MODALITY=FILE",
    help="Find notebook moments by a vector (a .npy file as numpy.save writes it), e.g. audio=clip.npy"
    " (repeatable; QUERY is then optional).",
)
@stops_cleanly("search")
@exits_on_error
def search(
    query: str | None,
    at: str | None,
    no_server: bool,
    vector_files: tuple[str, ...],
    vault: Path,
    index_dir: Path | None,
    k: int,
    fmt: str | None,
    as_json: bool,
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
    batch: IO[bytes] | None,
) -> None:
    """Search the vault's index for QUERY and print where the memories live.

    When `memsearch serve` runs for this index, the query goes to it (the same answer, without
    loading the index here); if it does not answer, the index is loaded here.
    """
    if as_json and fmt not in (None, "json"):
        raise click.UsageError(f"--json and --format {fmt} ask for two formats; give one")
    fmt = "json" if as_json else fmt
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
    if vector_files and batch is not None:
        raise click.UsageError("--vector is for one query; give it without --batch")
    if query is not None and batch is not None and _names_a_folder(query) and not _vault_given():
        # With --batch there is no QUERY: a lone folder where it goes is the VAULT.
        vault, query = Path(query), None
    if query is not None and batch is not None:
        # The file's lines are the queries: a QUERY beside them was dropped without a word.
        hint = " (to name the vault, give --vault)" if _names_a_folder(query) else ""
        raise click.UsageError(f"give QUERY or --batch, not both: {query!r} would not be searched{hint}")
    if query is not None and not vault.exists() and _names_a_folder(query):
        # `memsearch search VAULT QUERY`: the words would be looked for as a folder.
        raise click.UsageError(
            f"QUERY comes before VAULT: {query!r} is a folder and {str(vault)!r} is not; try"
            f" memsearch search {shlex.quote(str(vault))} {shlex.quote(query)}"
        )
    if batch is not None and any(
        common[name] for name in ("territory", "fact_type", "entities", "since", "until")
    ):
        # A bad filter on the command line is refused once, before the first line: it failed every
        # line with the same error, and the batch exited 0.
        try:
            api().search_filters(territory, fact_type, list(entities) or None, since, until)
        except MemsearchError as exc:
            fail(exc)
    vectors = read_query_vectors(vector_files)
    if vectors:
        common["vectors"] = vectors
    semantic = not strategies or "semantic" in strategies
    if at is None and not no_server and (query is not None or vectors or batch is not None):
        client = warm_client(vault, index_dir)
        if client is not None:
            if batch is not None:
                warm = WarmSearch(client, lambda: open_local(vault, index_dir))
                try:
                    run_batch(warm, batch, k, common, fmt, explain)
                finally:
                    warm.close()
                return
            warm = WarmSearch(client, lambda: open_local(vault, index_dir, semantic=semantic))
            try:
                data = warm(query, k, common)
            finally:
                warm.close()
            print_response(data, fmt, explain)
            exit_now()  # nothing to tear down that matters: the answer is out
            return
    engine = open_local(vault, index_dir, at, semantic=semantic)
    if batch is not None:
        run_batch(
            lambda q, n, options: engine.search(q, n, **options).to_dict(), batch, k, common, fmt, explain
        )
        return
    if query is None and not vectors:
        fail(
            MemsearchError(
                'no query given; usage: memsearch search "what you are looking for" [--vault VAULT]'
                " (or --vector MODALITY=FILE)"
            )
        )
    print_response(engine.search(query, k, **common).to_dict(), fmt, explain)
    exit_now()


def read_query_vectors(specs: tuple[str, ...]) -> dict[str, list[float]]:
    """``{modality: [numbers]}`` from ``--vector MODALITY=FILE`` options, each file checked as a
    notebook sidecar is (:mod:`memsearch.sidecars`); a bad one fails the search, named.

    Lists of floats, not arrays: the same request goes to ``memsearch serve`` as JSON or to the
    index loaded here (float32 values are exact as Python floats, so both answer alike)."""
    if not specs:  # the fast path through `memsearch serve` imports no numpy: nothing to read
        return {}
    from memsearch.sidecars import MODALITY_NAME, read_sidecar

    out: dict[str, list[float]] = {}
    for spec in specs:
        modality, sep, file = spec.partition("=")
        if not sep or not file or not MODALITY_NAME.fullmatch(modality):
            raise click.UsageError(f"--vector {spec!r}: give MODALITY=FILE, e.g. --vector audio=clip.npy")
        if modality in out:
            raise click.UsageError(f"--vector {modality}= is given twice; give each modality once")
        path = Path(file).expanduser()
        got = read_sidecar(path.parent, path.name, modality)
        if isinstance(got, str):
            fail(MemsearchError(f"--vector {modality}={file}: {got.split(': ', 1)[-1]}"))
        out[modality] = [float(x) for x in got.vector.tolist()]
    return out


def open_local(vault: Path, index_dir: Path | None, at: str | None = None, semantic: bool = True) -> Any:
    """The index loaded here (a :class:`memsearch.api.Memsearch`). For a semantic search the query
    embedder starts loading on a thread before the engine is even imported: a cold search then
    waits for the longer of the two, not their sum."""
    preload: EmbedderPreload | None = None
    if semantic and at is None:
        folder = resolved_vault(vault)
        if folder is not None:
            preload = EmbedderPreload(Path(index_dir) if index_dir else default_home(folder), folder)
    return api().open_index(vault, index_dir=index_dir, at=at, preload_embedder=preload or False)


def run_batch(
    search_fn: Callable[[str | None, int, dict[str, Any]], dict[str, Any]],
    batch: IO[bytes],
    k: int,
    common: dict[str, Any],
    fmt: str | None = None,
    explain: bool = False,
) -> None:
    """One JSON answer line per query line; ``search_fn(query, k, options)`` gives ``to_dict()``.

    ``--format files`` or ``table`` prints each answer as a single search prints it instead, after a
    ``# line N`` heading (its id too); errors then go to stderr as ``line N: ...``. Without
    ``--format`` a batch answers JSON lines (the format scripts read).

    A line that is not UTF-8, not a JSON object, holds a lone surrogate, or has a field the search
    does not take (or of the wrong type), or whose search fails, gets an error line naming the line;
    the later lines are still answered. A line's fields override the command's options."""
    for line_no, raw in enumerate(batch, 1):
        if not raw.strip():
            continue
        request: Any = None
        line_id: Any = None
        try:
            request = json.loads(raw.decode("utf-8") if isinstance(raw, bytes) else raw)
            if not isinstance(request, dict):
                raise ValueError(f"each line must be a JSON object, not {type(request).__name__}")
            json.dumps(request, ensure_ascii=False).encode("utf-8")
        except UnicodeDecodeError as exc:
            out = _failed(
                None, f"line {line_no}: not UTF-8 (its byte {exc.start}); write the batch file as UTF-8"
            )
        except UnicodeEncodeError as exc:
            line_id = request.get("id") if isinstance(request, dict) and _plain(request.get("id")) else None
            out = _failed(
                line_id,
                f"line {line_no}: holds {exc.object[exc.start]!r}, a lone surrogate that is not text;"
                " write the character itself",
            )
        except RecursionError:  # json's parser recurses once per bracket: a line of 100k '[' ends it
            out = _failed(None, f"line {line_no}: not a JSON object (nested too deeply)")
        except ValueError as exc:
            out = _failed(None, f"line {line_no}: not a JSON object ({exc})")
        else:
            line_id = request.get("id")
            try:
                query, n, options = search_arguments({**common, "k": k, **request}, k, strict=True)
                out = {"id": line_id, **search_fn(query, n, options)}
            except (BadRequest, MemsearchError, TypeError, ValueError) as exc:
                out = _failed(line_id, f"line {line_no}: {exc}")
            except Exception as exc:  # one line's failure is that line's answer: the rest still run
                out = _failed(
                    line_id,
                    f"line {line_no}: the search failed unexpectedly ({type(exc).__name__}: {exc});"
                    " the other lines are answered; please report this line as a memsearch bug",
                )
        if fmt in ("files", "table"):
            name = f"# line {line_no}" + (f" (id {line_id})" if line_id is not None else "")
            query_text = request.get("query", "") if isinstance(request, dict) and "error" not in out else ""
            click.echo(f"{name}: {query_text}" if fmt == "table" else name)
            if "error" in out:
                message = out["error"]
                prefix = f"line {line_no}: "
                click.echo(message if message.startswith(prefix) else prefix + message, err=True)
            else:
                print_response(out, fmt, explain)
            continue
        click.echo(json.dumps(out, ensure_ascii=False))


def _plain(value: Any) -> bool:
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except (TypeError, ValueError):
        return False
    return True


def _failed(line_id: Any, message: str) -> dict[str, Any]:
    """A batch line's answer when it could not be searched: its id (if it could be read) and why."""
    return {"id": line_id, "error": message, "results": [], "health": {}}


@click.command("open")
@click.argument("ref")
@vault_options(index_dir=False)
@json_option("Print the answer as JSON (text, lines, next).")
def open_(ref: str, vault: Path, as_json: bool) -> None:
    """Print the lines REF names: PATH, PATH:LINE or PATH:START-END (1-based, inclusive)."""
    answer = api().open_memory(vault, ref)
    if as_json:
        echo_json(answer)
    elif answer["ok"]:
        click.echo(answer["text"])
        for warning in answer["warnings"]:
            click.echo(f"note: {warning}", err=True)
    else:
        click.echo(f"memsearch: {answer['error']}", err=True)
    if not answer["ok"]:
        sys.exit(1)


COMMANDS = (search, open_)


def _vault_given() -> bool:
    """Whether the command line names the vault (VAULT or --vault; not $MEMSEARCH_VAULT)."""
    ctx = click.get_current_context()
    sources = (ctx.get_parameter_source(name) for name in ("vault_argument", "vault"))
    return any(source == click.core.ParameterSource.COMMANDLINE for source in sources)


def _names_a_folder(text: str) -> bool:
    """Whether ``text`` is the path of an existing folder (a query too long for a file name, or
    holding a NUL, is not one)."""
    try:
        return Path(text).is_dir()
    except (OSError, ValueError):
        return False
