"""The ``memsearch`` command group: every verb of the command modules, and the console script."""

from __future__ import annotations

import click

from memsearch.cli import history, indexing, searching, services
from memsearch.cli.process import print_any_name, run_console


@click.group()
@click.version_option(package_name="memsearch-vault")
def main() -> None:
    """memsearch: where does the memory I am reaching for live?"""
    print_any_name()


for _module in (indexing, searching, history, services):
    for _command in _module.COMMANDS:
        main.add_command(_command)


def run() -> None:
    """The ``memsearch`` console script."""
    run_console(main)
