"""Migration 0007 brings an existing database (at 0006, with a game in it) to the objects.

The rows already there are kept; objects can then be made and read with the
API; the downgrade removes the two tables and nothing else.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from alembic import command
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.orm import Session

from bot.engine import objects
from bot.engine.holdings import Cause
from bot.games.objects import ObjectType, player_holder
from bot.store.database import alembic_config

MEDAL = objects.declare(ObjectType("Migration Medal", "Migration Medals", rule="T 1"))
AT = datetime(2026, 1, 1, tzinfo=UTC)


def test_an_existing_database_upgrades_to_objects_and_back(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    config = alembic_config(url)
    command.upgrade(config, "0006")
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO player (id, name, active, origin, joined_at, on_leave, former_names)"
                " VALUES (1, 'Alice', 1, 'config', '2026-01-01 00:00:00', 0, '[]')"
            )
        )
        connection.execute(
            text(
                "INSERT INTO ledger_entry (player_id, currency, amount, source, rule, note,"
                " occurred_at) VALUES (1, 'points', 3, 'admin', '', 'kept', '2026-01-01 00:00:00')"
            )
        )
    command.upgrade(config, "head")
    tables = set(inspect(engine).get_table_names())
    assert {"game_object", "object_event", "ledger_entry", "player"} <= tables
    with Session(engine) as session, session.begin():
        made = objects.create(
            session, MEDAL, player_holder(1), Cause(AT, "T 1", "won", "admin", None)
        )
        assert [item.id for item in objects.held_by(session, player_holder(1))] == [made.id]
    with engine.connect() as connection:
        kept = connection.execute(text("SELECT amount, note FROM ledger_entry")).all()
        assert [tuple(row) for row in kept] == [(3, "kept")]
    command.downgrade(config, "0006")
    tables = set(inspect(engine).get_table_names())
    assert "game_object" not in tables and "object_event" not in tables
    assert {"ledger_entry", "player", "rule_change"} <= tables
    engine.dispose()
