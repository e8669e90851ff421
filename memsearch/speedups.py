"""Which twin runs: the compiled keyword loops (memsearch/_speedups.c) or their Python references.

The one place the choice is made. The install builds ``memsearch._speedups`` where a C compiler is at
hand and goes on without it; ``MEMSEARCH_NO_SPEEDUPS=1`` (any value but empty or ``0``) leaves it unused
even where it is built, so the pure-Python path of an install without a compiler can be tested on a
machine that has one. Both twins give the same index bit for bit (tests/test_speedups.py).

The choice is made once, at import: each caller binds the function it will call to a module name
(``_count_terms = speedups.pick("count_terms", count_terms_py)``), so a hot loop pays no branch.
"""

from __future__ import annotations

import importlib.util
import os
from types import ModuleType
from typing import TypeVar

T = TypeVar("T")

#: Set (to anything but "" or "0") to run the Python twins even where the compiled module is built.
DISABLE_ENV = "MEMSEARCH_NO_SPEEDUPS"

#: Whether the install built the compiled module (whether or not it is used).
BUILT: bool = importlib.util.find_spec("memsearch._speedups") is not None

#: The compiled module, or None when the Python twins run (not built, or disabled).
compiled: ModuleType | None
if os.environ.get(DISABLE_ENV, "") not in ("", "0"):
    compiled = None
else:
    try:
        from memsearch import _speedups
    except ImportError:  # an install without a compiler: the Python twins run
        compiled = None
    else:
        compiled = _speedups

#: Whether the compiled twins run.
ENABLED: bool = compiled is not None


def pick(name: str, python: T) -> T:
    """The compiled function ``name`` when the compiled twins run, else its Python twin ``python``."""
    if compiled is None:
        return python
    return getattr(compiled, name)
