"""Shared fixtures.

The third-party corpora are read in place from ``../shared/corpora`` (or from
``$NOMICBOT_CORPORA``); they are never copied into this repository.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent


def corpora_root() -> Path:
    return Path(os.environ.get("NOMICBOT_CORPORA", REPO_ROOT.parent / "shared" / "corpora"))


@pytest.fixture(scope="session")
def corpora() -> Path:
    root = corpora_root()
    if not root.is_dir():
        pytest.skip(
            f"corpora folder {root} is absent: set NOMICBOT_CORPORA to the shared corpora "
            "(CI always has it)"
        )
    return root


pytest_plugins = ["bot.testing.fixtures"]
