"""The Cards and Pooker rules import only the standard library, the shared errors and
the dice package's stream (itself pure): no database, mail, templates or clocks."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import bot.games.cards

PACKAGE = Path(bot.games.cards.__file__).parent
ALLOWED_PREFIXES = ("bot.games.cards", "bot.games.errors", "bot.games.dice")


def imported_modules(path: Path) -> set[str]:
    modules: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            modules.add(node.module)
    return modules


def test_cards_rules_use_only_the_standard_library() -> None:
    files = sorted(PACKAGE.rglob("*.py"))
    assert len(files) >= 12
    for path in files:
        for module in imported_modules(path):
            top = module.split(".")[0]
            allowed = module.startswith(ALLOWED_PREFIXES) or top in sys.stdlib_module_names
            assert allowed, f"{path.relative_to(PACKAGE)} imports {module}"


def test_the_dice_modules_used_are_pure_too() -> None:
    dice = Path(bot.games.cards.__file__).parent.parent / "dice"
    for path in sorted(dice.glob("*.py")):
        for module in imported_modules(path):
            top = module.split(".")[0]
            allowed = module.startswith(("bot.games.dice", "bot.games.errors"))
            assert allowed or top in sys.stdlib_module_names, f"dice/{path.name} imports {module}"
