import shutil
import signal
from pathlib import Path

import pytest

FIXTURE_VAULT = Path(__file__).parent / "fixtures" / "vault"

# A shell starts a background job with SIGINT ignored, nohup ignores SIGHUP, and a command started
# so keeps ignoring them (memsearch.stops). The tests that stop a command with a signal start it
# from here: it must not inherit what the tests themselves were started ignoring. A handler that
# does nothing keeps ignoring it here, and is the default again in a process started from here.
for _signum in (signal.SIGINT, signal.SIGTERM, *([signal.SIGHUP] if hasattr(signal, "SIGHUP") else [])):
    if signal.getsignal(_signum) is signal.SIG_IGN:
        signal.signal(_signum, lambda signum, frame: None)


@pytest.fixture(scope="session")
def indexed_vault(tmp_path_factory) -> Path:
    """A copy of the fixture vault, indexed once with the real embedder (shared, read-only)."""
    from memsearch.api import index_vault

    vault = tmp_path_factory.mktemp("indexed") / "vault"
    shutil.copytree(FIXTURE_VAULT, vault)
    index_vault(vault)
    return vault


@pytest.fixture
def vault_copy(tmp_path) -> Path:
    """A fresh, unindexed copy of the fixture vault a test may change."""
    vault = tmp_path / "vault"
    shutil.copytree(FIXTURE_VAULT, vault)
    return vault


def pytest_terminal_summary(terminalreporter):
    from fuzz_counts import COUNTS

    if COUNTS:
        tried = ", ".join(f"{n} {what}" for what, n in sorted(COUNTS.items()))
        terminalreporter.write_line(f"fuzz: {tried}")
