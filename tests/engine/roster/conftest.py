"""A bot with players Alice and Bob, fed posts as mail, for the roster tests.

Everything is real: the SQLite schema from the migrations, the pipeline, the
engine, the scheduler's timed handlers and the outbox.  ``Table.post`` stores
one post at an instant and lets the worker judge it, as the daemon would.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.orm import selectinload

from bot.app import App
from bot.engine import ledger
from bot.engine.worker import process_queue
from bot.posts import compose_post
from bot.runner import store_message
from bot.store.models import LedgerEntry, Message, Player
from bot.testing import go_game
from bot.testing.apps import make_app
from bot.testing.judged import recorded_rulings, reply_body


def instant(nweek: int, hours: float = 1) -> datetime:
    """``hours`` into the first nday of (one-based) ``nweek``: ndays are days (rule 3 A)."""
    return go_game.EPOCH + timedelta(days=10 * (nweek - 1), hours=hours)


@dataclass(frozen=True)
class Judged:
    """One post's recorded rulings and the body of the reply to it."""

    rulings: list[tuple[str, str, str, str]]  # (action, ruling, rule, summary or reason)
    reply: str


class Table:
    """The game under test: post as someone, then read what the bot did."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.count = 0

    @staticmethod
    def at(nweek: int, hours: float = 1) -> datetime:
        return instant(nweek, hours)

    def post(
        self, author: tuple[str, str], body: str, at: datetime | None = None, private: bool = False
    ) -> Judged:
        """``body`` from ``author`` to the list (or, ``private``, to the bot alone).

        A private post arrives as the bot's receiving server delivers mail
        from an authenticated sender (docs/trust.md).
        """
        self.count += 1
        identifier = f"roster-{self.count:03d}@example.test"
        at = at or instant(1)
        to = go_game.BOT_ADDRESS if private else go_game.LIST_ADDRESS
        vouched_by = go_game.RECEIVING_SERVER if private else ""
        raw = compose_post(
            *author, "[Nomic] Roster", body, identifier, at, to=to, vouched_by=vouched_by
        )
        store_message(self.app, raw, "smtp", at)
        process_queue(self.app.session_factory, self.app.services)
        return Judged(recorded_rulings(self.app, identifier), reply_body(self.app, identifier))

    def balance(self, name: str, currency: str) -> int:
        with self.app.session_factory() as session:
            return ledger.balance(session, self.player(name).id, currency)

    def player(self, name: str) -> Player:
        with self.app.session_factory() as session:
            # With eir former names: the row is read after the session ends.
            query = select(Player).options(selectinload(Player.former_name_rows))
            row = session.scalar(query.where(Player.name == name))
            assert row is not None, f"no player {name}"
            return row

    def entries(self, name: str, currency: str) -> list[tuple[int, str, str, str | None]]:
        """(amount, rule, source, Message-ID of the cause) of each entry, oldest first."""
        with self.app.session_factory() as session:
            rows = session.execute(
                select(LedgerEntry.amount, LedgerEntry.rule, LedgerEntry.source, Message.message_id)
                .outerjoin(Message, Message.id == LedgerEntry.message_pk)
                .where(LedgerEntry.player_id == self.player(name).id)
                .where(LedgerEntry.currency == currency)
                .order_by(LedgerEntry.id)
            )
            return [tuple(row) for row in rows]  # type: ignore[misc]


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    app = make_app(tmp_path / "bot")
    yield Table(app)
    app.dispose()
