"""``python -m memsearch.cli``: the ``memsearch`` console script."""

from memsearch.cli import run

run()
