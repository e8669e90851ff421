"""The command line: a thin layer over :mod:`memsearch.api` with the same verbs.

Every command calls the public API (``memsearch search`` also :mod:`memsearch.client`, to ask a
running ``memsearch serve`` first), prints, and maps errors to exit codes (:mod:`.options`). The
commands live by concern: :mod:`.searching` (search, open), :mod:`.indexing` (index, reindex, watch,
status), :mod:`.history` (log, rollback, forget, unforget), :mod:`.services` (serve, mcp, doctor,
interests). ``docs/cli.md`` is generated from them: ``python -m memsearch.cli.docs > docs/cli.md``.
"""

from memsearch.cli.app import main, run
from memsearch.cli.options import EXIT_DEGRADED, EXIT_ERROR, EXIT_LOCKED, EXIT_USAGE

__all__ = ["EXIT_DEGRADED", "EXIT_ERROR", "EXIT_LOCKED", "EXIT_USAGE", "main", "run"]
