"""A replay's batch remembers who an address is, and forgets as soon as the roster may change.

Rules 14 (joining, forfeiting), 151 (names) and 205 (On Leave): a post judged
after another that changed the roster, in the same transaction, sees the
roster as changed.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import update
from sqlalchemy.orm import Session

from bot.app import App
from bot.engine.players import (
    REMEMBERED_PLAYERS,
    forfeit_player,
    player_for_address,
    register_player,
    remember_players,
    remembered_on_leave,
    rename_player,
    set_on_leave,
)
from bot.store.models import Player
from bot.testing.apps import make_app

NOW = datetime(2026, 1, 1, tzinfo=UTC)
ADDRESS = "Newcomer@Example.org"


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    app: App = make_app(tmp_path / "bot")
    with app.session_factory() as opened, opened.begin():
        remember_players(opened)
        yield opened
    app.dispose()


def test_a_registration_is_seen_by_the_next_lookup(session: Session) -> None:
    assert player_for_address(session, ADDRESS) is None
    assert session.info[REMEMBERED_PLAYERS] == {ADDRESS.lower(): None}  # remembered
    joined = register_player(session, "Newcomer", ADDRESS, NOW)
    assert player_for_address(session, ADDRESS) == joined


def test_a_rename_and_a_forfeit_are_seen_by_the_next_lookup(session: Session) -> None:
    joined = register_player(session, "Newcomer", ADDRESS, NOW)
    assert player_for_address(session, ADDRESS) == joined
    renamed = rename_player(session, joined, "Oldtimer", NOW)
    assert player_for_address(session, ADDRESS) == renamed
    forfeit_player(session, renamed)
    assert player_for_address(session, ADDRESS) is None  # a Lost Soul is no player


def test_a_rolled_back_savepoint_is_forgotten(session: Session) -> None:
    with pytest.raises(RuntimeError), session.begin_nested():
        register_player(session, "Newcomer", ADDRESS, NOW)
        assert player_for_address(session, ADDRESS) is not None
        raise RuntimeError("the post is shunted")
    assert player_for_address(session, ADDRESS) is None


def test_a_bulk_statement_is_seen_by_the_next_lookup(session: Session) -> None:
    joined = register_player(session, "Newcomer", ADDRESS, NOW)
    assert player_for_address(session, ADDRESS) == joined
    session.execute(update(Player).where(Player.id == joined.id).values(active=False))
    assert player_for_address(session, ADDRESS) is None


def test_on_leave_is_remembered_until_a_roster_row_is_written(session: Session) -> None:
    joined = register_player(session, "Newcomer", ADDRESS, NOW)
    session.flush()
    assert remembered_on_leave(session, joined.id) is None  # not looked up yet
    assert player_for_address(session, ADDRESS) == joined
    assert remembered_on_leave(session, joined.id) is False
    set_on_leave(session, joined, True)
    assert remembered_on_leave(session, joined.id) is None  # pending: read the row
    session.flush()
    assert remembered_on_leave(session, joined.id) is None  # written: forgotten
    assert player_for_address(session, ADDRESS) == joined
    assert remembered_on_leave(session, joined.id) is True


def test_on_leave_is_not_remembered_by_a_session_that_remembers_nobody(tmp_path: Path) -> None:
    app: App = make_app(tmp_path / "bot")
    try:
        with app.session_factory() as opened, opened.begin():
            joined = register_player(opened, "Newcomer", ADDRESS, NOW)
            opened.flush()
            assert player_for_address(opened, ADDRESS) == joined
            assert remembered_on_leave(opened, joined.id) is None
    finally:
        app.dispose()
