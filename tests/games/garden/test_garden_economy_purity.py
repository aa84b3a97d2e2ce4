"""The one state of the Gardens, Drinks and Store (``bot.games.garden_economy``) is pure:
it builds on the three games' rules and the shared mechanics, nothing of the engine's."""

from __future__ import annotations

import ast
from pathlib import Path

import bot.games.garden_economy

ALLOWED = (
    "bot.games.garden_economy",
    "bot.games.garden",
    "bot.games.drinks",
    "bot.games.store",
    "bot.games.economy",
    "bot.games.dice",
    "bot.games.errors",
)


def imported(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
        elif isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
    return names


def test_the_economy_imports_only_the_games_it_joins() -> None:
    files = list(Path(bot.games.garden_economy.__file__).parent.glob("*.py"))
    assert len(files) == 2
    for path in files:
        for name in imported(path):
            if name.startswith("bot."):
                assert any(name == a or name.startswith(f"{a}.") for a in ALLOWED), (path, name)
