"""Each game of seed 004's economy reaches only into the packages it builds on.

``tests/backbone/test_purity.py`` keeps every module under ``bot/games`` pure
(the standard library and ``bot.games`` only); this keeps the games of rules
1902-1921 apart: the Gardens and the shared mechanics reach into no other
game, the Store and the Drinks only into the Gardens they act on (the Store
never into the Drinks), and only the one Economy joins all three.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import bot.games

SHARED = ("bot.games.dice", "bot.games.ntime", "bot.games.precedence", "bot.games.objects")
SHARED += ("bot.games.errors", "bot.games.economy")

BOUNDARIES = {
    "economy": SHARED,
    "garden": ("bot.games.garden", *SHARED),
    "store": ("bot.games.store", "bot.games.garden", *SHARED),
    "drinks": ("bot.games.drinks", "bot.games.garden", *SHARED),
    "garden_economy": (
        "bot.games.garden_economy",
        "bot.games.garden",
        "bot.games.drinks",
        "bot.games.store",
        *SHARED,
    ),
}


def imported(path: Path) -> set[str]:
    """Every module a file imports, ``from bot.games import x`` read as ``bot.games.x``."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path.name}: relative import"
            if node.module == "bot.games":
                names.update(f"bot.games.{alias.name}" for alias in node.names)
            else:
                names.add(node.module or "")
    return names


@pytest.mark.parametrize("package", sorted(BOUNDARIES))
def test_a_game_imports_only_what_it_builds_on(package: str) -> None:
    allowed = BOUNDARIES[package]
    files = sorted((Path(bot.games.__file__).parent / package).glob("*.py"))
    assert files
    for path in files:
        for name in imported(path):
            if name.startswith("bot."):
                assert any(name == a or name.startswith(f"{a}.") for a in allowed), (path, name)
            else:
                assert name.split(".")[0] in sys.stdlib_module_names, (path, name)
