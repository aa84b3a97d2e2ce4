"""The rules package imports only the standard library, the shared errors and the
shared Lost Soul labels of rule 14 (``bot.games.lost_souls``)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import bot.games.go

PACKAGE = Path(bot.games.go.__file__).parent
ALLOWED_PREFIXES = ("bot.games.go", "bot.games.errors", "bot.games.lost_souls")


def imported_modules(path: Path) -> set[str]:
    modules: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            modules.add(node.module)
    return modules


def test_go_rules_use_only_the_standard_library() -> None:
    files = sorted(PACKAGE.glob("*.py"))
    assert len(files) >= 10
    for path in files:
        for module in imported_modules(path):
            top = module.split(".")[0]
            allowed = module.startswith(ALLOWED_PREFIXES) or top in sys.stdlib_module_names
            assert allowed, f"{path.name} imports {module}"
