"""Migration 0012 on SQLite and PostgreSQL: ledger holders that are no players (21 A.2).

An existing database (at 0011, with a player's entry and the Store's tildex
in revision 0011's ``till`` row) upgrades: the player's entry is kept as it
was, the Store's tildex become one ledger entry of the Store's, and a CHECK
keeps an entry to exactly one holder.  The downgrade gives the row back.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import create_engine, text
from sqlalchemy.exc import IntegrityError

from bot.store.database import alembic_config

PLAYER = (
    "INSERT INTO player (id, name, name_folded, active, origin, joined_at, on_leave)"
    " VALUES (1, 'Alice', 'alice', true, 'config', '2026-01-01 00:00:00+00', false)"
)
ENTRY = (
    "INSERT INTO ledger_entry (player_id, currency, amount, source, rule, note, occurred_at)"
    " VALUES (1, 'tildex', 500, 'post', '21 A.2', 'kept', '2026-01-01 00:00:00+00')"
)
TILL = "INSERT INTO economy_record (kind, player, data) VALUES ('till', '', '1260')"
NEITHER = (
    "INSERT INTO ledger_entry (currency, amount, source, rule, note, occurred_at)"
    " VALUES ('tildex', 1, 'admin', '', '', '2026-01-01 00:00:00+00')"
)


def _upgrade_and_back(url: str) -> None:
    config = alembic_config(url)
    command.upgrade(config, "0011")
    engine = create_engine(url)
    try:
        with engine.begin() as connection:
            for statement in (PLAYER, ENTRY, TILL):
                connection.execute(text(statement))
        command.upgrade(config, "0012")
        with engine.connect() as connection:
            rows = connection.execute(
                text(
                    "SELECT player_id, entity, amount, rule, basin_nweek FROM ledger_entry"
                    " ORDER BY id"
                )
            ).all()
            assert [tuple(row) for row in rows] == [
                (1, None, 500, "21 A.2", None),
                (None, "the Store", 1260, "1911", None),
            ]
            kinds = connection.execute(text("SELECT kind FROM economy_record")).all()
            assert kinds == []
        with pytest.raises(IntegrityError), engine.begin() as connection:
            connection.execute(text(NEITHER))
        command.downgrade(config, "0011")
        with engine.connect() as connection:
            till = connection.execute(text("SELECT kind, data FROM economy_record")).all()
            assert [(kind, int(data)) for kind, data in till] == [("till", 1260)]
            kept = connection.execute(text("SELECT player_id, amount FROM ledger_entry")).all()
            assert [tuple(row) for row in kept] == [(1, 500)]
    finally:
        engine.dispose()


def test_sqlite_upgrades_to_ledger_holders_and_back(tmp_path: Path) -> None:
    _upgrade_and_back(f"sqlite:///{tmp_path / 'old.sqlite3'}")


def test_postgresql_upgrades_to_ledger_holders_and_back(fresh_postgres_url: str) -> None:
    _upgrade_and_back(fresh_postgres_url)
