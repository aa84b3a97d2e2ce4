"""Migration 0009 moves the former names (rule 151) to rows and folds every name (rule 2).

A database at 0008 with players who changed names upgrades: the old names
still lead to their players, a name taken in another case is still refused,
and the downgrade gives back the JSON lists as they were.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import create_engine, text
from sqlalchemy.orm import Session

from bot.engine.players import player_known_as, register_player, roster
from bot.games.errors import IllegalActionError
from bot.store.database import alembic_config

AT = datetime(2026, 2, 1, tzinfo=UTC)
FORMER = {
    1: [
        {"name": "Ally", "until": "2026-01-05T10:00:00+00:00"},
        {"name": "Al", "until": "2026-01-09T10:00:00+00:00"},
    ],
    2: [],
    3: [{"name": "Al", "until": "2026-01-03T10:00:00+00:00"}],
}
NAMES = {1: "Alice", 2: "Bob Smith", 3: "Straße"}


def known_as(session: Session, name: str) -> str | None:
    found = player_known_as(session, name)
    return None if found is None else found.name


def test_former_names_become_rows_and_come_back_on_downgrade(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    config = alembic_config(url)
    command.upgrade(config, "0008")
    engine = create_engine(url)
    with engine.begin() as connection:
        for player_id, name in NAMES.items():
            connection.execute(
                text(
                    "INSERT INTO player (id, name, active, origin, joined_at, on_leave, "
                    "former_names) VALUES (:id, :name, 1, 'config', '2026-01-01 00:00:00', 0, "
                    ":former)"
                ),
                {"id": player_id, "name": name, "former": json.dumps(FORMER[player_id])},
            )
    command.upgrade(config, "head")
    with Session(engine) as session:
        # Whoever gave "Al" up last: Alice, not Straße who gave it up first.
        assert known_as(session, "al") == "Alice"
        assert known_as(session, "ALLY") == "Alice"
        assert known_as(session, "STRASSE") == "Straße"
        assert known_as(session, "bob  smith") == "Bob Smith"
        assert known_as(session, "Carol") is None
        assert [entry.former_names for entry in roster(session)] == [("Ally", "Al"), (), ("Al",)]
        with pytest.raises(IllegalActionError, match="already taken"):
            register_player(session, "BOB SMITH", "bob2@example.test", AT)
    command.downgrade(config, "0008")
    with engine.connect() as connection:
        rows = connection.execute(text("SELECT id, former_names FROM player ORDER BY id")).all()
    assert {row.id: json.loads(row.former_names) for row in rows} == FORMER
    engine.dispose()
