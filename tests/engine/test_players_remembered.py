"""A replay's batch remembers who an address is, and forgets as soon as the roster may change.

Rules 14 (joining, forfeiting) and 151 (names): a post judged after another
that changed the roster, in the same transaction, sees the roster as changed.
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
    rename_player,
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
