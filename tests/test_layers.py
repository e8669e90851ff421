"""The package's layers point down only: no import loop, no upward import, no private name borrowed.

Every import of every module is read from its source (those inside functions too), so a loop
that only holds because an import sits in a function fails here as well. A module's layer is the
first entry of LAYERS its dotted name starts with; a new module must be given one.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "memsearch"

#: Bottom to top. A module may import its own layer (without a loop) and any layer below.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    (
        "ground",
        (
            "memsearch.errors",
            "memsearch.paths",
            "memsearch.models",
            "memsearch.config",
            "memsearch.dates",
            "memsearch.languages",
            "memsearch.tokenize",
            "memsearch.speedups",
            "memsearch.scripts",
            "memsearch.lock",
            "memsearch.stops",
            "memsearch.privacy",
            "memsearch.scan",
            "memsearch.sidecars",
            "memsearch.fences",
            "memsearch.fusion",
            "memsearch.resonance",
            "memsearch.query_terms",
            "memsearch.client",
        ),
    ),
    ("chunking and entities", ("memsearch.entities", "memsearch.chunkers")),
    ("embedders", ("memsearch.embedders", "memsearch.preload")),
    ("the index", ("memsearch.index",)),
    (
        "indexing and search",
        (
            "memsearch.signals",
            "memsearch.purge",
            "memsearch.indexer",
            "memsearch.query",
            "memsearch.links",
            "memsearch.speakers",
            "memsearch.search",
            "memsearch.retrieval",
            "memsearch.doctor",
            "memsearch.forget",
            "memsearch.redact",
            "memsearch.opening",
            "memsearch.watch",
        ),
    ),
    ("the public API", ("memsearch.api",)),
    (
        "callers",
        ("memsearch.tool", "memsearch.server", "memsearch.mcp_server", "memsearch.cli"),
    ),
]


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


@functools.cache
def _tree(module: str) -> ast.Module:
    return ast.parse(MODULES[module].read_text(encoding="utf-8"))


def _layer(module: str) -> int | None:
    for n, (_, prefixes) in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return n
    return None


def _imports(module: str) -> list[tuple[str, list[str], int]]:
    """(imported module, names taken from it, line) for every import of ``module``'s source."""
    tree = _tree(module)
    is_package = MODULES[module].name == "__init__.py"
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(alias.name, [], node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the module's own package
                package = module.split(".") if is_package else module.split(".")[:-1]
                package = package[: len(package) - node.level + 1]
                base = ".".join([*package, *([base] if base else [])])
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                if sub in MODULES:  # `from memsearch import dates`: the module itself
                    out.append((sub, [], node.lineno))
                else:
                    out.append((base, [alias.name], node.lineno))
    return [(m, names, line) for m, names, line in out if m.split(".")[0] == "memsearch"]


def _under_type_checking(module: str) -> set[int]:
    """Lines of imports under ``if TYPE_CHECKING:`` (names for annotations only, never run)."""
    tree = _tree(module)
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            lines |= {child.lineno for child in ast.walk(node) if hasattr(child, "lineno")}
    return lines


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for module in MODULES:
        skip = _under_type_checking(module)
        graph[module] = {
            m for m, _, line in _imports(module) if m in MODULES and m != module and line not in skip
        }
    return graph


def test_every_module_has_a_layer():
    assert [m for m in MODULES if m != "memsearch" and _layer(m) is None] == []


def test_no_module_imports_a_higher_layer():
    upward = []
    for module, targets in _graph().items():
        here = _layer(module)
        if here is None:
            continue
        for target in targets:
            there = _layer(target)
            if there is not None and there > here:
                upward.append(f"{module} ({LAYERS[here][0]}) imports {target} ({LAYERS[there][0]})")
    assert upward == []


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_there_is_no_import_loop():
    # A package's __init__ only re-exports its modules: an import of one module of a package
    # runs that __init__ first, so a module reaching its own package's face is a loop in waiting.
    assert _cycles(_graph()) == []


def test_the_loop_check_finds_a_loop():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_private_name_is_imported_from_another_module():
    borrowed = [
        f"{module}:{line} takes {name} from {source}"
        for module in MODULES
        for source, names, line in _imports(module)
        for name in names
        if name.startswith("_")
        and not name.startswith("__")
        and source != module
        and source != "memsearch"  # the compiled twins: memsearch._speedups, chosen in speedups.py
    ]
    assert borrowed == []


@pytest.mark.parametrize("module", sorted(m for m, p in MODULES.items() if p.name == "__init__.py"))
def test_a_package_face_defines_nothing(module):
    tree = _tree(module)
    defined = [
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.ClassDef | ast.AsyncFunctionDef)
    ]
    if module == "memsearch":  # the top package: its lazy attributes keep `import memsearch` cheap
        defined = [name for name in defined if name not in ("__getattr__", "__dir__")]
    assert defined == []
