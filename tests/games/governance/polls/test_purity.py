"""The polls package imports only the standard library, the shared errors and ntime.

The same walk as tests/games/go/test_purity.py, plus a check that nothing in
the package reads a clock: the engine passes every instant in.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import bot.games.governance.polls

PACKAGE = Path(bot.games.governance.polls.__file__).parent
# ntime is itself pure (tests/games/ntime); only its UTC check is used here.
ALLOWED_PREFIXES = ("bot.games.governance.polls", "bot.games.errors", "bot.games.ntime")
MODULES = sorted(PACKAGE.rglob("*.py"))
CLOCK_READERS = frozenset({"now", "utcnow", "today", "time", "monotonic", "perf_counter"})


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


def called_attributes(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), str(path))
    return {
        node.func.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
    }


def test_the_package_has_its_modules() -> None:
    names = {path.name for path in MODULES}
    assert {"votes.py", "poll.py", "voting.py", "conclusion.py", "results.py", "cfi.py"} <= names


@pytest.mark.parametrize("path", MODULES, ids=lambda path: path.name)
def test_module_uses_only_the_standard_library(path: Path) -> None:
    for module in imported_modules(path):
        top = module.split(".")[0]
        allowed = module.startswith(ALLOWED_PREFIXES) or top in sys.stdlib_module_names
        assert allowed, f"{path.name} imports {module}"


@pytest.mark.parametrize("path", MODULES, ids=lambda path: path.name)
def test_module_never_reads_a_clock(path: Path) -> None:
    assert not called_attributes(path) & CLOCK_READERS, f"{path.name} reads a clock"
