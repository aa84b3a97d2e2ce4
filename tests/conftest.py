"""Shared fixtures.

The third-party corpora are read in place from ``../shared/corpora`` (or from
``$NOMICBOT_CORPORA``); they are never copied into this repository.
"""

from __future__ import annotations

import functools
import logging
import os
import sys
from collections.abc import Callable, Iterator
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


@pytest.fixture(scope="session")
def bench_archive() -> Callable[[int], list[bytes]]:
    """The first ``count`` posts of bench/pipeline.py's archive, as the list delivers them."""

    @functools.cache
    def first_posts(count: int) -> list[bytes]:
        bench = str(REPO_ROOT / "bench")
        sys.path.insert(0, bench)
        try:
            from archive_game import plan_archive
            from archive_mail import MailWriter

            writer = MailWriter(1639)
            return [writer.raw(post) for post in plan_archive(count, 1639)]
        finally:
            sys.path.remove(bench)

    return first_posts


pytest_plugins = ["bot.testing.fixtures"]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "shunts_events: the test plants a timed handler that raises, on purpose"
    )
    config.addinivalue_line(
        "markers", "long_running: a module of minutes, started first so no worker ends alone"
    )


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Keep each test module on one pytest-xdist worker (``-n 2 --dist loadgroup``),
    the long-running ones first.

    A module's fixtures (a by-mail world, a started server) are made once
    per module, so a module split across two workers would make them twice.
    A module that shares a fixed resource with another (the trust world's
    DNS server on port 53) names a group of its own with
    ``pytest.mark.xdist_group``, and the group runs on one worker.
    """
    for item in items:
        if item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::", 1)[0]))
    # Workers take modules in this order: the longest first, or one of them
    # would be left running on one worker at the end while the other idles.
    items.sort(key=lambda item: item.get_closest_marker("long_running") is None)


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
