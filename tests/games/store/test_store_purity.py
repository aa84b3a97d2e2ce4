"""The Store's rules import only the standard library and the pure packages they build on.

``tests/backbone/test_purity.py`` keeps every module under ``bot/games`` pure; this keeps
the Store from reaching into any game but the Gardens its Bunnies and seeds act on.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import bot.games.store

ALLOWED = (
    "bot.games.store",
    "bot.games.garden",
    "bot.games.economy",
    "bot.games.dice",
    "bot.games.precedence",
    "bot.games.objects",
    "bot.games.errors",
)


def imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path.name}: relative import"
            names.add(node.module or "")
    return names


def test_the_store_imports_only_what_it_builds_on() -> None:
    files = list(Path(bot.games.store.__file__).parent.glob("*.py"))
    assert len(files) >= 9
    for path in files:
        for name in imported(path):
            if name.startswith("bot."):
                assert any(name == a or name.startswith(f"{a}.") for a in ALLOWED), (path, name)
            else:
                assert name.split(".")[0] in sys.stdlib_module_names, (path, name)
