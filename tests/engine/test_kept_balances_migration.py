"""Migration 0013 on SQLite and PostgreSQL: balances kept as rows, filled from the ledger.

An existing database (at 0012, with a player's entries in two currencies
and the Store's) upgrades: each holder's ``balance`` row per currency is
the sum of its entries, one row only per holder and currency (a unique
index), and a later ``ledger.record`` moves the row on from there.  The
downgrade drops the table and leaves the ledger, the record, as it was.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from bot.engine import ledger
from bot.store.database import alembic_config

PLAYER = (
    "INSERT INTO player (id, name, name_folded, active, origin, joined_at, on_leave)"
    " VALUES (1, 'Alice', 'alice', true, 'config', '2026-01-01 00:00:00+00', false)"
)
ENTRIES = [
    (1, None, "tildex", 500),
    (1, None, "tildex", -120),
    (1, None, "points", 3),
    (None, "the Store", "tildex", 1260),
    (None, "the Store", "tildex", -60),
]
ENTRY = (
    "INSERT INTO ledger_entry (player_id, entity, currency, amount, source, rule, note,"
    " occurred_at) VALUES (:player, :entity, :currency, :amount, 'post', '13', '',"
    " '2026-01-01 00:00:00+00')"
)
SECOND_ROW = (
    "INSERT INTO balance (player_id, entity, currency, amount) VALUES (1, NULL, 'tildex', 1)"
)


def _upgrade_and_back(url: str) -> None:
    config = alembic_config(url)
    command.upgrade(config, "0012")
    engine = create_engine(url)
    try:
        with engine.begin() as connection:
            connection.execute(text(PLAYER))
            for player, entity, currency, amount in ENTRIES:
                values = {"player": player, "entity": entity, "currency": currency}
                connection.execute(text(ENTRY), values | {"amount": amount})
        command.upgrade(config, "0013")
        with Session(engine) as session:
            kept = ledger.kept_balances(session)
            assert sorted(kept, key=str) == sorted(
                [
                    (1, None, "points", 3),
                    (1, None, "tildex", 380),
                    (None, "the Store", "tildex", 1200),
                ],
                key=str,
            )
            assert kept == ledger.summed_balances(session)
        with pytest.raises(IntegrityError), engine.begin() as connection:
            connection.execute(text(SECOND_ROW))
        with Session(engine) as session, session.begin():
            at = datetime(2026, 1, 2, tzinfo=UTC)
            ledger.record(session, 1, "tildex", -80, occurred_at=at, source="post", rule="13")
            with pytest.raises(ValueError, match="below zero"):
                ledger.record_for_entity(
                    session, "the Store", "tildex", -1201, occurred_at=at, source="post"
                )
        with Session(engine) as session:
            assert ledger.balance(session, 1, "tildex") == 300
            assert ledger.entity_balance(session, "the Store", "tildex") == 1200
            assert ledger.kept_balances(session) == ledger.summed_balances(session)
        command.downgrade(config, "0012")
        assert "balance" not in inspect(engine).get_table_names()
        with engine.connect() as connection:
            count = connection.scalar(text("SELECT count(*) FROM ledger_entry"))
            assert count == len(ENTRIES) + 1
    finally:
        engine.dispose()


def test_sqlite_upgrades_to_kept_balances_and_back(tmp_path: Path) -> None:
    _upgrade_and_back(f"sqlite:///{tmp_path / 'old.sqlite3'}")


def test_postgresql_upgrades_to_kept_balances_and_back(fresh_postgres_url: str) -> None:
    _upgrade_and_back(fresh_postgres_url)
