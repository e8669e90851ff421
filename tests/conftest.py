import shutil
import signal
from pathlib import Path

import pytest

FIXTURE_VAULT = Path(__file__).parent / "fixtures" / "vault"

# A shell starts a background job with SIGINT ignored, and a command started from it keeps
# ignoring Ctrl-C (memsearch.stops). The tests that stop a command with SIGINT start it from here:
# it must not inherit an ignored SIGINT from the way the tests themselves were started.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


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
