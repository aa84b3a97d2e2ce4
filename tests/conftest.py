"""Shared fixtures.

The third-party corpora are read in place from ``../shared/corpora`` (or from
``$NOMICBOT_CORPORA``); they are never copied into this repository.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
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


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "shunts_events: the test plants a timed handler that raises, on purpose"
    )


class _ErrorRecords(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(autouse=True)
def no_unexpected_shunted_events(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fail a test in which a timed handler raised, unless it is marked ``shunts_events``.

    The scheduler shunts such an event and goes on (bot.engine.event_shunts),
    so without this a handler's defect would pass unseen in any test that
    does not look at that handler's effects.
    """
    handler = _ErrorRecords()
    shunts = logging.getLogger("bot.engine.event_shunts")
    shunts.addHandler(handler)
    try:
        yield
    finally:
        shunts.removeHandler(handler)
    if handler.records and request.node.get_closest_marker("shunts_events") is None:
        pytest.fail(f"a timed event was shunted: {handler.records[0].getMessage()}")
