"""The rules packages under bot/games/ stay pure (STYLE.md, "The shape").

Every module imports only the standard library and ``bot.games`` itself; of
the standard library, nothing that reaches mail, sockets, databases, the
clock or module-level randomness: randomness and time are handed in.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import bot.games

GAMES = Path(bot.games.__file__).resolve().parent
# Standard-library modules a rules package must not use: I/O with the world,
# the wall clock, and unseeded randomness (STYLE.md rule of thumb 3).
FORBIDDEN_STANDARD = frozenset(
    {
        "asyncio",
        "email",
        "http",
        "imaplib",
        "mailbox",
        "os",
        "random",
        "secrets",
        "selectors",
        "smtplib",
        "socket",
        "sqlite3",
        "ssl",
        "subprocess",
        "threading",
        "time",
        "urllib",
    }
)
# time.time() and the like are kept out by forbidding the time module itself.
CLOCK_CALLS = frozenset({"now", "utcnow", "today"})


def rules_modules() -> list[Path]:
    return sorted(GAMES.rglob("*.py"))


def module_name(path: Path) -> str:
    parts = path.relative_to(GAMES.parent.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def package_of(path: Path) -> str:
    name = module_name(path)
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def imports_in(source: str, package: str) -> set[str]:
    """Absolute names of every module ``source`` imports, relative imports resolved."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            parts = package.split(".")
            prefix = ".".join(parts[: len(parts) - node.level + 1]) if node.level else ""
            names.add(".".join(part for part in (prefix, node.module or "") if part))
    return names


def clock_calls(source: str) -> list[str]:
    """``datetime.now()``-like calls (reading the clock) and dynamic imports."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        if isinstance(node.func, ast.Attribute) and node.func.attr in CLOCK_CALLS:
            found.append(f"{ast.unparse(node.func)}() on line {node.lineno}")
        name = node.func.attr if isinstance(node.func, ast.Attribute) else ""
        name = node.func.id if isinstance(node.func, ast.Name) else name
        if name in {"__import__", "import_module"}:
            found.append(f"dynamic import on line {node.lineno}")
    return found


def test_every_rules_package_is_walked() -> None:
    packages = {path.parent.name for path in rules_modules() if path.name == "__init__.py"}
    expected = {"games", "go", "anomic", "dice", "ntime", "field", "life"}
    assert expected | {"governance", "polls", "elections"} <= packages
    assert (GAMES / "errors.py") in rules_modules()


@pytest.mark.parametrize("path", rules_modules(), ids=module_name)
def test_imports_only_the_standard_library_and_bot_games(path: Path) -> None:
    for name in imports_in(path.read_text(), package_of(path)):
        top = name.split(".")[0]
        if name == "bot.games" or name.startswith("bot.games."):
            continue
        assert top in sys.stdlib_module_names, f"{module_name(path)} imports {name}"
        assert top not in FORBIDDEN_STANDARD, f"{module_name(path)} imports {name}"


@pytest.mark.parametrize("path", rules_modules(), ids=module_name)
def test_never_reads_the_clock_or_imports_dynamically(path: Path) -> None:
    assert clock_calls(path.read_text()) == []


def test_the_walker_sees_what_it_must_forbid() -> None:
    # The checks above would pass vacuously if the walker missed imports.
    source = (
        "import random\nfrom sqlalchemy import select\nfrom . import state\n"
        "from ..errors import ActionError\nimport datetime\nwhen = datetime.datetime.now()\n"
        "module = importlib.import_module('socket')\n"
    )
    names = imports_in(source, "bot.games.go")
    assert names == {"random", "sqlalchemy", "bot.games.go", "bot.games.errors", "datetime"}
    assert clock_calls(source) == [
        "datetime.datetime.now() on line 6",
        "dynamic import on line 7",
    ]


# Each game's rules import only themselves, the shared errors and what is
# listed here of the rest of ``bot.games``: a game never reaches into another.
SHARED = ("bot.games.errors",)
GAME_IMPORTS = {
    # The Lost Soul labels of rule 14.
    "go": (*SHARED, "bot.games.lost_souls"),
    "knucklebones": SHARED,
    # Hidden deals draw from the dice package's stream (itself pure).
    "cards": (*SHARED, "bot.games.dice"),
}


@pytest.mark.parametrize("game", GAME_IMPORTS)
def test_a_games_rules_import_no_other_game(game: str) -> None:
    package = GAMES / game
    files = sorted(package.rglob("*.py"))
    assert len(files) >= 10, f"the walker found {len(files)} modules in bot/games/{game}"
    allowed = (f"bot.games.{game}", *GAME_IMPORTS[game])
    for path in files:
        for name in imports_in(path.read_text(), package_of(path)):
            within = any(name == prefix or name.startswith(f"{prefix}.") for prefix in allowed)
            assert within or not name.startswith("bot."), f"{module_name(path)} imports {name}"
