"""The governance tests' game, with five players, for the CFI tests (rule 125).

The governance conftest is loaded as a private copy (pytest's importlib mode
gives conftests no importable name), and its players are extended here only.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_NAME = "cfi_governance_game"
_spec = importlib.util.spec_from_file_location(
    _NAME, Path(__file__).parents[1] / "governance" / "conftest.py"
)
assert _spec is not None and _spec.loader is not None
_governance = importlib.util.module_from_spec(_spec)
sys.modules[_NAME] = _governance  # dataclasses look their module up while it loads
_spec.loader.exec_module(_governance)
_governance.PLAYERS.update({"Dave": "dave@example.test", "Erin": "erin@example.test"})

new_game = _governance.new_game
