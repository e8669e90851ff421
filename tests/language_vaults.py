"""Small vaults in other languages than English, shared by the tests of the advice an English-only
embedder gets (the index report, ``memsearch doctor``)."""

from __future__ import annotations

from pathlib import Path

#: A German note and a Spanish one: Latin script, other languages (their function words say which).
GERMAN_AND_SPANISH = {
    "wohnung.md": "Wir sind in die neue Wohnung gezogen. Die Kaution haben wir schon überwiesen, und der"
    " Vermieter ist sehr nett.\n",
    "boda.md": "Reservamos las habitaciones del hotel para la boda de mi hermana.\n",
}


def write_notes(vault: Path, notes: dict[str, str]) -> Path:
    """``notes`` (vault-relative path -> text) written into ``vault``, made if missing."""
    vault.mkdir(parents=True, exist_ok=True)
    for rel, text in notes.items():
        (vault / rel).parent.mkdir(parents=True, exist_ok=True)
        (vault / rel).write_text(text, encoding="utf-8")
    return vault
