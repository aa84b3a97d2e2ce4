"""The Field framework and its matches import only the standard library and the shared errors.

The same walk as tests/games/go/test_purity.py, over every module of the
package and its sub-packages (Life included).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import bot.games.field

PACKAGE = Path(bot.games.field.__file__).parent
ALLOWED_PREFIXES = ("bot.games.field", "bot.games.errors")
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


def test_the_package_has_its_framework_and_life_modules() -> None:
    names = {path.relative_to(PACKAGE).as_posix() for path in MODULES}
    assert {"turning.py", "squares.py", "life/grid.py", "life/rules.py"} <= names


@pytest.mark.parametrize("path", MODULES, ids=lambda path: path.relative_to(PACKAGE).as_posix())
def test_module_uses_only_the_standard_library(path: Path) -> None:
    for module in imported_modules(path):
        top = module.split(".")[0]
        allowed = module.startswith(ALLOWED_PREFIXES) or top in sys.stdlib_module_names
        assert allowed, f"{path.name} imports {module}"
