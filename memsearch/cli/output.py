"""How a search answer is printed: ``files`` (paths on stdout, for pipes), ``table`` (for a person),
``json``; the same lines whether the answer came from ``memsearch serve`` or the index loaded here."""

from __future__ import annotations

import math
import sys
from typing import Any

import click

from memsearch.cli.options import echo_json


def print_response(data: dict[str, Any], fmt: str | None, explain: bool) -> None:
    """Print a SearchResponse (as ``to_dict()`` gives it: local or from the server, the same lines)."""
    fmt = fmt or ("table" if sys.stdout.isatty() else "files")
    if explain and fmt != "json":
        # How the query was read (a time window, a nickname's other names); on stderr in the files
        # format, as the signal is.
        for note in data["health"].get("notes", []):
            click.echo(f"note: {note}", err=fmt == "files")
    if fmt == "json":
        echo_json(data)
    elif fmt == "files":
        for r in data["results"]:
            click.echo(f"{r['path']}:{r['start_line']}-{r['end_line']}\t{r['score']:.3f}")
            if explain and r.get("explanation"):
                print_explanation(r["explanation"])
        if not data["results"]:  # nothing on stdout (for pipes): why, on stderr
            click.echo(no_results_line(data), err=True)
        elif data.get("signal") not in (None, "strong"):
            # Paths stay alone on stdout (for pipes); the weakness is said beside them.
            click.echo(f"signal {data['signal']}: {data.get('signal_reason', '')}", err=True)
    else:
        print_table(data, explain)
    _print_failures(data)


def _print_failures(data: dict[str, Any]) -> None:
    for name, why in data["health"]["failed"].items():
        click.echo(f"degraded: {name} search failed: {why}", err=True)
    for why in data["health"].get("fallbacks", ()):  # the backend's lists came from the built-in indexes
        click.echo(f"degraded: {why}", err=True)


def print_explanation(explanation: dict[str, Any]) -> None:
    """Each strategy's rank, raw score, weight (with the confidence in it), RRF contribution and
    part of the shown score; the parts add up to the score unless it was capped."""
    score = explanation.get("score", {})
    parts = explanation["strategies"]
    shown = thousandths([part.get("shown", 0.0) for part in parts.values()], score.get("sum_of_parts", 0.0))
    for (name, part), part_shown in zip(parts.items(), shown, strict=True):
        click.echo(
            f"      {name:<8} rank {part['rank']:>3}  raw {part['raw_score']:.4f}"
            f"  weight {part['weight']:.2f} (confidence {part.get('confidence', 1.0):.2f})"
            f"  contribution {part['contribution']:.5f}  shown {part_shown:.3f}"
        )
    if explanation.get("graph_paths"):
        click.echo(f"      graph: {'; '.join(explanation['graph_paths'])}")
    capped = " (capped: at 1, or at the result above)" if score.get("capped") else ""
    click.echo(
        f"      territory weight {explanation['territory_weight']}; shown score {score.get('shown', 0):.3f}"
        f" = sum of shown parts {score.get('sum_of_parts', 0):.3f}{capped}"
    )


def thousandths(parts: list[float], total: float) -> list[float]:
    """``parts`` to three decimals that add up to ``total`` to three decimals, as printed beside
    them: each rounded down, then the largest remainders up (0.124 + 0.254 + 0.216 + 0.070 was
    printed as "= 0.665")."""
    floors = [math.floor(part * 1000 + 1e-9) for part in parts]
    short = round(total * 1000) - sum(floors)
    by_remainder = sorted(range(len(parts)), key=lambda i: parts[i] * 1000 - floors[i], reverse=True)
    for i in by_remainder[: max(0, min(short, len(parts)))]:
        floors[i] += 1
    return [floor / 1000 for floor in floors]


def no_results_line(data: dict[str, Any]) -> str:
    """ "no results", and why: the filter that left nothing, or what the signal read."""
    reason = data.get("signal_reason") or ""
    if reason.startswith("no results"):
        return reason
    return f"no results: nothing resonates with this query{f' ({reason})' if reason else ''}"


def print_table(data: dict[str, Any], explain: bool) -> None:
    signal = data.get("signal")
    if not data["results"]:
        click.echo(no_results_line(data))
    elif signal == "thin":
        click.echo(f"the signal is thin: {data.get('signal_reason', '')}")
    elif signal == "none":  # shown anyway (--all)
        click.echo(f"nothing resonates (shown as asked): {data.get('signal_reason', '')}")
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
            print_explanation(r["explanation"])
    h = data["health"]
    click.echo(f"ran: {', '.join(h['ran']) or 'none'}; {h['timings_ms'].get('total', 0):.1f} ms", err=True)
    for name, why in h["skipped"].items():
        click.echo(f"skipped {name}: {why}", err=True)
