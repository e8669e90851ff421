"""What the semantic list says of languages: an English-only embedder reading other languages, or a
multilingual one finding a passage in another script."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from memsearch.embedders.base import MULTILINGUAL_EMBEDDER, MULTILINGUAL_INSTALL, is_multilingual
from memsearch.index.in_memory import IndexData
from memsearch.languages import DEFAULT as DEFAULT_LANGUAGE
from memsearch.languages import display_name
from memsearch.models import Hit
from memsearch.scripts import WRITTEN_IN_SHARE, script_shares
from memsearch.tokenize import language_of

#: How much of a passage its scripts are read from (its opening, like the query's own script).
SCRIPT_SAMPLE_CHARS = 300
#: The passages nearest in meaning read for their languages: whether an English-only embedder is
#: reading mostly other languages, or a multilingual one found a passage in another script.
NEAREST_READ = 10


def nearest_in_other_script(index: IndexData, hits: Sequence[Hit] | None, asked: str | None) -> str | None:
    """A script other than ``asked`` (the query's) that one of the :data:`NEAREST_READ` passages
    nearest in meaning is written in, at least :data:`WRITTEN_IN_SHARE` of its letters, when the
    embedder reads many languages (else None): a question asked in one language of a memory kept,
    wholly or partly, in another, which no keyword can match. Not the nearest passage alone: one in
    the query's own script on a neighbouring topic often comes before the answer."""
    if not hits or not asked or not is_multilingual(index.manifest.get("embedder", {}).get("details")):
        return None
    known: dict[int, dict[str, float]] = index.kept("chunk_scripts", lambda _index: {})
    for hit in hits[:NEAREST_READ]:
        shares = known.get(hit.chunk_id)
        if shares is None:  # read once per chunk and index version, as chunk_language is
            chunk = index.chunks.get(hit.chunk_id)
            shares = script_shares([chunk.text], SCRIPT_SAMPLE_CHARS) if chunk is not None else {}
            known[hit.chunk_id] = shares
        others = (name for name, share in shares.items() if share >= WRITTEN_IN_SHARE)
        found = next((name for name in others if name not in (asked, "other")), None)
        if found is not None:
            return found
    return None


def chunk_language(index: IndexData, chunk_id: int) -> str:
    """What a chunk is written in (:func:`memsearch.tokenize.language_of`), read once per chunk and
    index version: every query asks it of its ten nearest passages (~0.03 ms each to read)."""
    known: dict[int, str] = index.kept("chunk_languages", lambda _index: {})
    language = known.get(chunk_id)
    if language is None:
        language = known[chunk_id] = language_of(index.chunks[chunk_id].text, SCRIPT_SAMPLE_CHARS)
    return language


def english_only_note(index: IndexData, asked: str | None, hits: Sequence[Hit] | None) -> str | None:
    """What to say when the index's embedder knows only English and the query is written outside
    the Latin script, or half or more of the passages nearest in meaning (``hits``) are written in
    another language: its vectors for such text are near noise, and it cannot reach across them."""
    info = index.manifest.get("embedder", {})
    if not info.get("fingerprint") or is_multilingual(info.get("details")):
        return None
    spec = info.get("spec") or info.get("name")
    advice = (
        f"for a multilingual embedder, `{MULTILINGUAL_INSTALL}`, then"
        f" `memsearch index VAULT --embedder {MULTILINGUAL_EMBEDDER}`"
    )
    if asked not in (None, "Latin", "other"):
        return (
            f"the query is written in {asked} while the embedder ({spec}) knows only English: meaning"
            f" is matched poorly and never across languages; {advice}"
        )
    nearest = [h.chunk_id for h in (hits or ())[:NEAREST_READ] if h.chunk_id in index.chunks]
    written = Counter(chunk_language(index, chunk_id) for chunk_id in nearest)
    foreign = sum(n for language, n in written.items() if language != DEFAULT_LANGUAGE)
    if not nearest or 2 * foreign < len(nearest):
        return None
    most = next(language for language, _ in written.most_common() if language != DEFAULT_LANGUAGE)
    return (
        f"most passages nearest in meaning are written in {display_name(most)}, but the"
        f" embedder ({spec}) knows only English: meaning is matched poorly and never across"
        f" languages; {advice}"
    )
