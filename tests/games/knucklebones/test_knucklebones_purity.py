"""The rules package imports only the standard library and the shared errors."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import bot.games.knucklebones

PACKAGE = Path(bot.games.knucklebones.__file__).parent
ALLOWED_PREFIXES = ("bot.games.knucklebones", "bot.games.errors")
FORBIDDEN_MODULES = ("random", "secrets", "time")


def imported_modules(path: Path) -> set[str]:
    modules: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            modules.add(node.module)
    return modules


def test_knucklebones_rules_use_only_the_standard_library() -> None:
    files = sorted(PACKAGE.glob("*.py"))
    assert len(files) >= 10
    for path in files:
        for module in imported_modules(path):
            top = module.split(".")[0]
            allowed = module.startswith(ALLOWED_PREFIXES) or top in sys.stdlib_module_names
            assert allowed, f"{path.name} imports {module}"


def test_knucklebones_rules_draw_nothing_and_read_no_clock() -> None:
    # Every die and draw comes in with an action; every instant too.
    for path in sorted(PACKAGE.glob("*.py")):
        modules = imported_modules(path)
        assert not modules & set(FORBIDDEN_MODULES), f"{path.name} imports {modules}"
        assert ".now(" not in path.read_text(), f"{path.name} reads the clock"
