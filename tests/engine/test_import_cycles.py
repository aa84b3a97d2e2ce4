"""The engine core imports no game; no import cycle passes through a game module.

Every ``import`` in the package files is read with ``ast``: at the top of a
module, inside functions, and under ``if TYPE_CHECKING:`` alike, since a
function-local import that closes a cycle is still a cycle.  A *game module*
is one of the packages ``bot.engine.games`` and ``bot.engine.governance``
(but the adapter interface, ``games.base``, which the core implements
against), or any engine module that imports one.  Only the registry, and the
few modules of a game that live at the top of ``bot.engine``, may import
them.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from bot.engine.registry import known_games

ROOT = Path(__file__).parents[2]
ENGINE = "bot.engine"
GAME_PACKAGES = ("bot.engine.games.", "bot.engine.governance.")
INTERFACE = "bot.engine.games.base"  # what every adapter implements: core
REGISTRY = "bot.engine.registry"  # the one core module that imports the games
# Parts of a game kept at the top of bot/engine: Life's scheduled Evolve,
# Go's set-up stones, and rule 15 B's records of private votes.
GAME_PARTS_OUTSIDE = frozenset(
    {"bot.engine.field_schedule", "bot.engine.go_admin", "bot.engine.private_records"}
)
CORE = frozenset(
    f"{ENGINE}.{name}"
    for name in (
        "admin_records",
        "bandwidth",
        "clock",
        "event_shunts",
        "forfeits",
        "game",
        "holdings",
        "ledger",
        "players",
        "renames",
        "rule_changes",
        "rulings",
        "scheduler",
        "services",
        "timed",
        "unit",
        "views",
        "worker",
    )
)

Graph = dict[str, set[str]]


def module_files(root: Path, package: str) -> dict[str, Path]:
    """Every module of ``package`` under ``root``, by dotted name."""
    base = root.joinpath(*package.split("."))
    modules = {}
    for path in sorted(base.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        modules[name] = path
    return modules


def imported_names(module: str, path: Path) -> Iterator[str]:
    """Every module name ``path`` imports, anywhere in it, relative imports resolved."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            yield base
            yield from (f"{base}.{alias.name}" for alias in node.names)


def import_graph(root: Path, package: str) -> Graph:
    """Module -> the modules of the same tree it imports."""
    modules = module_files(root, package)
    graph: Graph = {}
    for module, path in modules.items():
        targets = {_known(name, modules) for name in imported_names(module, path)}
        graph[module] = {target for target in targets if target and target != module}
    return graph


def _known(name: str, modules: dict[str, Path]) -> str:
    """The longest prefix of ``name`` that is one of ``modules`` ("" if none)."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name


def cycles(graph: Graph) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in graph.get(module, ()):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = set()
            while True:
                member = stack.pop()
                component.add(member)
                if member == module:
                    break
            if len(component) > 1:
                found.append(component)

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def game_modules(graph: Graph) -> set[str]:
    """The game packages' modules, and every engine module that imports one (the registry
    aside), found by walking the imports backwards to a fixed point."""
    games = {m for m in graph if m.startswith(GAME_PACKAGES) and m != INTERFACE}
    while True:
        importers = {
            module
            for module, targets in graph.items()
            if module.startswith(ENGINE) and module != REGISTRY and targets & games
        }
        if importers <= games:
            return games
        games |= importers


def engine_graph() -> Graph:
    return import_graph(ROOT, "bot")


def test_no_import_cycle_passes_through_a_game_module() -> None:
    graph = engine_graph()
    games = game_modules(graph)
    through_games = [sorted(cycle) for cycle in cycles(graph) if cycle & games]
    assert through_games == []


def test_the_engine_core_imports_no_game_module() -> None:
    graph = engine_graph()
    games = game_modules(graph)
    # A module outside the game packages that imports a game is a game's part:
    # only those listed may be, and none of the core.
    outside = {m for m in games if not m.startswith(GAME_PACKAGES)}
    assert outside == GAME_PARTS_OUTSIDE
    assert not CORE & games
    assert graph.keys() >= CORE  # the names above are still modules
    # The registry imports the game packages by walking them (no import
    # statement names a game): every built-in declaration is in a game module.
    assert {game.adapters.__module__ for game in known_games().values()} <= games


def test_the_checks_find_a_cycle_closed_by_a_function_local_import(tmp_path: Path) -> None:
    """The walk itself: a lazy import inside a function still closes a cycle."""
    write_package(
        tmp_path,
        {
            "toy/__init__.py": "",
            "toy/engine/__init__.py": "",
            "toy/engine/core.py": "def run():\n    from toy.engine.games import chess\n",
            "toy/engine/games/__init__.py": "",
            "toy/engine/games/chess.py": "from ..core import run\n",
            "toy/engine/plain.py": "import toy.engine.core\n",
        },
    )
    graph = import_graph(tmp_path, "toy")
    assert graph["toy.engine.games.chess"] == {"toy.engine.core"}
    assert cycles(graph) == [{"toy.engine.core", "toy.engine.games.chess"}]


def write_package(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
