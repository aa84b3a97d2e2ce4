"""A replay's batch remembers which nweeks' dice commitments exist (rule 9), until a rollback.

Every post that draws asks ``open_nweek`` for its nweek before the draw; a
batch reads each nweek's row once.  A commitment added inside a SAVEPOINT
that rolls back is gone, and the next ask publishes it again.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from bot.app import App
from bot.engine.scheduler import OPENED_NWEEKS, open_nweek, remember_opened_nweeks
from bot.store.models import DiceSeed, OutboxMessage
from bot.testing.apps import make_app

NOW = datetime(2026, 1, 1, tzinfo=UTC)


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    made = make_app(tmp_path / "bot")
    yield made
    made.dispose()


def seed_reads(session: Session) -> list[str]:
    reads: list[str] = []

    def count(_connection: object, _cursor: object, statement: str, *_rest: object) -> None:
        if statement.startswith("SELECT") and "FROM dice_seed" in statement:
            reads.append(statement)

    event.listen(session.connection(), "before_cursor_execute", count)
    return reads


def commitments(session: Session) -> tuple[int, int]:
    seeds = session.scalar(select(func.count()).select_from(DiceSeed))
    mails = session.scalar(
        select(func.count())
        .select_from(OutboxMessage)
        .where(OutboxMessage.kind == "dice-commitment")
    )
    return seeds or 0, mails or 0


def test_a_batch_reads_each_nweeks_row_once(app: App) -> None:
    with app.session_factory() as session, session.begin():
        remember_opened_nweeks(session)
        reads = seed_reads(session)
        for _ in range(3):
            open_nweek(session, app.services, 7, NOW)  # added, then remembered
            open_nweek(session, app.services, 8, NOW)
        assert len(reads) == 2
        assert session.info[OPENED_NWEEKS] == {7, 8}
        assert commitments(session) == (2, 2)  # one commitment each, mailed once


def test_a_session_that_remembers_nothing_reads_the_row_each_time(app: App) -> None:
    with app.session_factory() as session, session.begin():
        open_nweek(session, app.services, 7, NOW)
        session.flush()
        reads = seed_reads(session)
        open_nweek(session, app.services, 7, NOW)
        open_nweek(session, app.services, 7, NOW)
        assert len(reads) == 2
        assert commitments(session) == (1, 1)


def test_a_commitment_rolled_back_with_its_savepoint_is_published_again(app: App) -> None:
    with app.session_factory() as session, session.begin():
        remember_opened_nweeks(session)
        with pytest.raises(RuntimeError), session.begin_nested():
            open_nweek(session, app.services, 7, NOW)
            session.flush()
            assert session.info[OPENED_NWEEKS] == {7}
            raise RuntimeError("the post is shunted")
        assert session.info[OPENED_NWEEKS] == set()
        assert commitments(session) == (0, 0)
        open_nweek(session, app.services, 7, NOW)
        assert commitments(session) == (1, 1)
