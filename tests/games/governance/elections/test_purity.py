"""The elections package imports only the standard library and the shared errors,
never draws for itself and never counts in floating point.

The same walk as tests/games/go/test_purity.py, plus: no ``random`` or
``secrets`` (randomness is an injected, recorded source, STYLE.md), and no
``float`` (rule 1823 ties must stay ties: tallies are ints and Fractions).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import bot.games.governance.elections

PACKAGE = Path(bot.games.governance.elections.__file__).parent
ALLOWED_PREFIXES = ("bot.games.governance.elections", "bot.games.errors")
FORBIDDEN_STANDARD_MODULES = frozenset({"random", "secrets", "time", "datetime"})
MODULES = sorted(PACKAGE.rglob("*.py"))


def imported_modules(path: Path) -> set[str]:
    modules: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            modules.add(node.module)
        elif isinstance(node, ast.ImportFrom):
            # A relative import would slip past the prefix check.
            modules.add("." * node.level + (node.module or ""))
    return modules


def floating_point_uses(path: Path) -> list[int]:
    """Line numbers of float literals and of the name ``float``."""
    tree = ast.parse(path.read_text(), str(path))
    return [
        node.lineno
        for node in ast.walk(tree)
        if (isinstance(node, ast.Constant) and isinstance(node.value, float))
        or (isinstance(node, ast.Name) and node.id == "float")
    ]


def test_the_package_has_its_modules() -> None:
    names = {path.name for path in MODULES}
    assert {"votes.py", "borda.py", "approval.py", "irv.py", "selection.py"} <= names


@pytest.mark.parametrize("path", MODULES, ids=lambda path: path.name)
def test_module_uses_only_the_standard_library(path: Path) -> None:
    for module in imported_modules(path):
        top = module.split(".")[0]
        allowed = module.startswith(ALLOWED_PREFIXES) or top in sys.stdlib_module_names
        assert allowed, f"{path.name} imports {module}"
        assert top not in FORBIDDEN_STANDARD_MODULES, f"{path.name} imports {module}"


@pytest.mark.parametrize("path", MODULES, ids=lambda path: path.name)
def test_module_never_counts_in_floating_point(path: Path) -> None:
    assert floating_point_uses(path) == [], f"{path.name} uses float"
