"""A game of Alice, Bob and Carol for the governance tests: posts in, mails out, state."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from bot.app import App, build_app
from bot.config import NtimeSettings, PlayerEntry, ProposalSettings
from bot.engine import ledger
from bot.engine.views import game_view
from bot.engine.worker import process_queue
from bot.posts import compose_post
from bot.runner import advance_to, store_message
from bot.store.models import ActionRecord, OutboxMessage, Player
from bot.testing.apps import body_of, game_settings
from bot.testing.go_game import BOT_ADDRESS, LIST_ADDRESS, RECEIVING_SERVER

EPOCH = datetime(2026, 1, 1, tzinfo=UTC)  # nweek 1, nday 1 when displayed
PLAYERS = {
    "Alice": "alice@example.test",
    "Bob": "bob@example.test",
    "Carol": "carol@example.test",
}


def nday_start(nweek: int, nday: int, epoch: datetime = EPOCH) -> datetime:
    """The instant a Clock that is never stopped shows (zero-based) nweek, nday."""
    return epoch + timedelta(days=10 * nweek + nday)


@dataclass(frozen=True)
class Sent:
    kind: str
    recipients: tuple[str, ...]
    subject: str
    body: str
    date: str

    @property
    def public(self) -> bool:
        return LIST_ADDRESS in self.recipients


@dataclass
class Game:
    app: App
    epoch: datetime
    counter: int = 0

    def at(self, nweek: int, nday: int, seconds: int = 0) -> datetime:
        """When a never-stopped Clock shows (zero-based) ``nweek``, ``nday``; plus seconds."""
        return nday_start(nweek, nday, self.epoch) + timedelta(seconds=seconds)

    def post(
        self, author: str, body: str, at: datetime, *, private: bool = False, vouched: bool = True
    ) -> str:
        """Post ``body`` as ``author`` at ``at`` (to the bot alone if ``private``).

        A private post arrives as the bot's receiving server delivers mail
        from an authenticated sender (docs/trust.md); unless not ``vouched``:
        then it is a forgery that only claims ``author``'s address.
        """
        self.counter += 1
        message_id = f"post-{self.counter}@example.test"
        to = BOT_ADDRESS if private else LIST_ADDRESS
        vouched_by = RECEIVING_SERVER if private and vouched else ""
        raw = compose_post(
            author,
            PLAYERS[author],
            "Governance",
            body,
            message_id,
            at,
            to=to,
            vouched_by=vouched_by,
        )
        store_message(self.app, raw, "smtp", at)
        process_queue(self.app.session_factory, self.app.services)
        return message_id

    def advance(self, at: datetime) -> None:
        advance_to(self.app, at)

    def rulings(self) -> list[tuple[str, str, str, str]]:
        """(action, ruling, summary or reason, rule) of every judged action, in order."""
        with self.app.session_factory() as session:
            rows = session.scalars(select(ActionRecord).order_by(ActionRecord.id)).all()
            return [(row.action, row.ruling, row.summary or row.reason, row.rule) for row in rows]

    def sent(self) -> list[Sent]:
        with self.app.session_factory() as session:
            rows = session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)).all()
            return [_sent(row) for row in rows]

    def sent_of(self, kind: str) -> list[Sent]:
        return [mail for mail in self.sent() if mail.kind == kind]

    def view(self, name: str) -> Any:
        with self.app.session_factory() as session:
            return game_view(session, self.app.services, name)

    def balance(self, name: str, currency: str) -> int:
        with self.app.session_factory() as session:
            player = session.scalars(select(Player).where(Player.name == name)).one()
            return ledger.balance(session, player.id, currency)


def _sent(row: OutboxMessage) -> Sent:
    mail = message_from_bytes(row.raw, policy=default)
    assert isinstance(mail, EmailMessage)
    return Sent(
        row.kind, tuple(row.recipients), str(mail["Subject"]), body_of(mail), str(mail["Date"])
    )


GameFactory = Callable[..., Game]


@pytest.fixture
def new_game(tmp_path: Path) -> GameFactory:
    """Make a game: ``new_game(epoch=..., switches=(...), first_serial=...)``."""
    made = 0

    def make(
        epoch: datetime = EPOCH, switches: tuple[str, ...] = (), first_serial: int = 100
    ) -> Game:
        nonlocal made
        made += 1
        settings = game_settings(tmp_path / f"game-{made}")
        settings = replace(
            settings,
            ntime=NtimeSettings(epoch=epoch.isoformat(), switches=switches),
            proposals=ProposalSettings(first_serial=first_serial),
            players=tuple(PlayerEntry(name, (address,)) for name, address in PLAYERS.items()),
        )
        app = build_app(settings)
        advance_to(app, epoch)
        return Game(app, epoch)

    return make
