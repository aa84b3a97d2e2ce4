"""A small B Nomic game for Elections by mail: five players, four Ministries, posts on SQLite."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from bot.app import App, build_app
from bot.config import ElectionSettings, MinistryEntry, PlayerEntry
from bot.engine.views import game_view
from bot.engine.worker import process_queue
from bot.posts import compose_post
from bot.runner import advance_to, store_message
from bot.store.models import ActionRecord, Message, OutboxMessage
from bot.testing.apps import game_settings

PLAYERS = ("Alice", "Bob", "Carol", "Dave", "Erin")
MINISTRIES = (
    MinistryEntry("Meta-Ministry", "Erin"),
    MinistryEntry("Ministry of Justice"),
    MinistryEntry("Ministry of Twiddles", "Dave", ("Carol",)),
    MinistryEntry("Ministry of the Roster", "Bob"),
)


def address(name: str) -> str:
    return f"{name.lower()}@example.test"


@dataclass
class ElectionGame:
    """Posts from the players, in order, and what the bot made of them."""

    app: App
    posted: int = 0
    archive: list[tuple[bytes, datetime]] = field(default_factory=list)

    def post(self, author: str, body: str, at: datetime) -> tuple[str, str, str]:
        """(action, ruling, summary or reason) of the post's single action."""
        self.posted += 1
        message_id = f"election-{self.posted:03d}@example.test"
        raw = compose_post(author, address(author), "Elections", body, message_id, at)
        self.archive.append((raw, at))
        store_message(self.app, raw, "smtp", at)
        process_queue(self.app.session_factory, self.app.services)
        with self.app.session_factory() as session:
            record = session.scalars(
                select(ActionRecord)
                .join(Message, Message.id == ActionRecord.message_pk)
                .where(Message.message_id == message_id)
            ).one()
            return record.action, record.ruling, record.summary or record.reason

    def advance(self, instant: datetime) -> None:
        advance_to(self.app, instant)

    def state(self, view: str) -> Any:
        with self.app.session_factory() as session:
            return game_view(session, self.app.services, view).data

    def text(self, view: str) -> str:
        with self.app.session_factory() as session:
            return game_view(session, self.app.services, view).text

    def reports(self, kind: str) -> list[EmailMessage]:
        from email import message_from_bytes
        from email.policy import default

        with self.app.session_factory() as session:
            rows = session.scalars(
                select(OutboxMessage).where(OutboxMessage.kind == kind).order_by(OutboxMessage.id)
            ).all()
            mails = [message_from_bytes(row.raw, policy=default) for row in rows]
        return [mail for mail in mails if isinstance(mail, EmailMessage)]

    def report_bodies(self, kind: str) -> list[str]:
        bodies = []
        for mail in self.reports(kind):
            part = mail.get_body(preferencelist=("plain",))
            bodies.append(str(part.get_content()) if part is not None else "")
        return bodies


def make_game(folder: Path, **elections: Any) -> ElectionGame:
    settings = game_settings(
        folder,
        players=tuple(PlayerEntry(name, (address(name),)) for name in PLAYERS),
        ministries=MINISTRIES,
        elections=ElectionSettings(**elections),
    )
    game = ElectionGame(build_app(settings))
    game.advance(datetime(2026, 1, 1, tzinfo=UTC))  # the epoch: nweek 1, nday 1
    return game


@pytest.fixture
def new_game(tmp_path: Path) -> Callable[..., ElectionGame]:
    counter = iter(range(100))
    return lambda **elections: make_game(tmp_path / f"bot{next(counter)}", **elections)
