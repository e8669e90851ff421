"""``python -m memsearch.cli``: the ``memsearch`` console script."""

from memsearch.cli.app import run

run()
