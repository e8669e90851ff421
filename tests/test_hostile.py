"""What a hostile (or just unlucky) vault can hold: every file is indexed or skipped with its name
and a reason, in bounded memory, and no file fails a run or a search."""

from pathlib import Path

import numpy as np
from click.testing import CliRunner

from memsearch.cli import main

LONG = 300_000


def _keyword_terms(vault: Path) -> np.ndarray:
    (snapshot,) = sorted((vault / ".memsearch" / "cache" / "snapshots").rglob("keyword.npz"))
    with np.load(snapshot, allow_pickle=False) as data:
        return data["terms"]


def test_one_unbroken_300k_token_neither_blows_up_the_index_nor_fails_a_search(vault_copy):
    # keyword.npz stored its terms as fixed-width strings: one 300,000-character token made every
    # term that wide (370 MB for the 12-file fixture vault, 30 GiB and a MemoryError for a real one).
    from memsearch.api import Memsearch, index_vault
    from memsearch.tokenize import MAX_TOKEN_CHARS

    (vault_copy / "big.md").write_text(
        "# Big\n\n"
        + "x" * LONG
        + "\n\nsee #"
        + "t" * LONG
        + " and [["
        + "W" * LONG
        + "]] and we met Q"
        + "q" * LONG
        + " today\n"
    )
    index_vault(vault_copy)
    terms = _keyword_terms(vault_copy)
    assert terms.dtype.itemsize <= 4 * MAX_TOKEN_CHARS
    assert max(map(len, terms.tolist())) == MAX_TOKEN_CHARS

    with Memsearch(vault_copy) as ms:
        # A query names the token as written: it is cut the same way and meets it.
        hits = ms.search("x" * 1000, k=3, strategies=["keyword"]).results
        assert hits and hits[0].path == "big.md"
        entities = {e for r in ms.search("met today", k=20).results for e in r.entities}
        assert all(len(e) <= 100 for e in entities)
        assert ms.status()["chunks"] > 0

    for args in (["status", "--vault", str(vault_copy)], ["reindex", str(vault_copy)]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, (args, result.output)
    assert _keyword_terms(vault_copy).dtype.itemsize <= 4 * MAX_TOKEN_CHARS
