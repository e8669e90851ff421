"""The command line: a thin layer over :mod:`memsearch.api` with the same verbs.

Every command calls the public API (``memsearch search`` also :mod:`memsearch.client`, to ask a
running ``memsearch serve`` first), prints, and maps errors to exit codes (:mod:`.options`). The
commands live by concern: :mod:`.searching` (search, open), :mod:`.indexing` (index, reindex, watch,
status), :mod:`.history` (log, rollback, forget, unforget), :mod:`.services` (serve, mcp, doctor,
interests). ``docs/cli.md`` is generated from them: ``python -m memsearch.cli.docs > docs/cli.md``.
"""

from __future__ import annotations

import click

from memsearch.cli import history, indexing, searching, services
from memsearch.cli.options import EXIT_DEGRADED, EXIT_ERROR, EXIT_LOCKED, EXIT_USAGE
from memsearch.cli.process import run_console

__all__ = ["EXIT_DEGRADED", "EXIT_ERROR", "EXIT_LOCKED", "EXIT_USAGE", "main", "run"]


@click.group()
@click.version_option(package_name="memsearch-vault")
def main() -> None:
    """memsearch: where does the memory I am reaching for live?"""


for _module in (indexing, searching, history, services):
    for _command in _module.COMMANDS:
        main.add_command(_command)


def run() -> None:
    """The ``memsearch`` console script."""
    run_console(main)
