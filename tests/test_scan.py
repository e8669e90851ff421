"""memsearch.scan: reading the vault's files, never waiting on one that is no regular file."""

from memsearch.api import index_vault, open_index


def test_a_fifo_named_like_a_note_is_skipped_not_waited_on(vault_copy):
    """Opening a FIFO for reading waits for a writer: the scan must name it and go on."""
    import os
    import threading

    os.mkfifo(vault_copy / "pipe.md")
    done: dict = {}
    worker = threading.Thread(target=lambda: done.update(report=index_vault(vault_copy, embed=False)))
    worker.daemon = True
    worker.start()
    worker.join(timeout=60)
    assert not worker.is_alive(), "index_vault hung on a FIFO"
    reasons = {s.path: s.reason for s in done["report"].skipped}
    assert "not a regular file" in reasons["pipe.md"]
    assert open_index(vault_copy).search("sign_ed25519", k=1).results[0].path == "reference/redflag.md"


def test_prefetch_passes_over_what_it_cannot_open(tmp_path):
    """The read-ahead hint never blocks (a FIFO) and never fails (a missing file, a folder)."""
    import os
    import threading

    from memsearch.scan import prefetch

    (tmp_path / "note.md").write_text("hello")
    os.mkfifo(tmp_path / "pipe.md")
    (tmp_path / "folder.md").mkdir()
    paths = [str(tmp_path / n) for n in ("pipe.md", "folder.md", "missing.md", "note.md")]
    worker = threading.Thread(target=prefetch, args=(paths,), daemon=True)
    worker.start()
    worker.join(timeout=30)
    assert not worker.is_alive(), "prefetch blocked"
