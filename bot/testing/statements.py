"""The SQL statements a block of code sends, for tests that compare their counts.

Cost per post must not grow with the game: a test judges the same post at two
sizes of game (players, history) and asserts the statements are as many.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine


@contextmanager
def counted(engine: Engine) -> Iterator[list[str]]:
    """The SQL statements sent through ``engine`` inside the block."""
    statements: list[str] = []

    def record(*arguments: Any) -> None:
        statements.append(arguments[2])

    event.listen(engine, "before_cursor_execute", record)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", record)
