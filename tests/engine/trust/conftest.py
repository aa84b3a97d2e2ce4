"""A bot with players Alice and Bob, fed posts as mail, for the trust model's engine tests.

Everything is real: the SQLite schema from the migrations, the pipeline (with
its trust stages), the engine and the outbox.  ``Desk.post`` stores one post
at an instant and lets the worker judge it, as the daemon would; a private
post is addressed to the bot alone and carries no Authentication-Results
and no signature, so only a ``secret:`` line can authenticate it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from bot.app import App
from bot.engine.worker import process_queue
from bot.posts import compose_post
from bot.runner import store_message
from bot.store.models import ActionRecord, Message, OutboxMessage, Player
from bot.testing import go_game
from bot.testing.apps import game_settings, make_app

Headers = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Mail:
    """One outbox row: its kind, recipients, the post it answers, and its body."""

    kind: str
    recipients: list[str]
    answers: str | None  # the Message-ID of the post it replies to
    date: str
    subject: str
    body: str


class Desk:
    """The bot under test: post as someone, then read what it did."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.count = 0

    @staticmethod
    def at(hours: float) -> datetime:
        """``hours`` after the scripted game's epoch (nweek 1 for the first 10 days)."""
        return go_game.EPOCH + timedelta(hours=hours)

    def post(
        self,
        author: tuple[str, str],
        body: str,
        at: datetime | None = None,
        private: bool = False,
        headers: Headers = (),
    ) -> str:
        """``body`` from ``author`` to the list (or, ``private``, to the bot alone); its id.

        ``headers`` go on top, as a list server would add them.
        """
        self.count += 1
        identifier = f"trust-{self.count:03d}@example.test"
        at = at or self.at(self.count)
        to = go_game.BOT_ADDRESS if private else go_game.LIST_ADDRESS
        raw = compose_post(*author, "[Nomic] Trust", body, identifier, at, to=to)
        raw = b"".join(f"{name}: {value}\r\n".encode() for name, value in headers) + raw
        store_message(self.app, raw, "smtp", at)
        process_queue(self.app.session_factory, self.app.services)
        return identifier

    def status(self, identifier: str) -> tuple[str, str]:
        """(status, reason) of the stored post (a refused copy keeps a marked id)."""
        with self.app.session_factory() as session:
            row = session.scalar(select(Message).where(Message.message_id.like(f"{identifier}%")))
            assert row is not None, f"no post {identifier}"
            return row.status, row.status_reason

    def rulings(self, identifier: str) -> list[tuple[str, str, str, str]]:
        """(action, ruling, rule, summary or reason) of each recorded action, in order."""
        with self.app.session_factory() as session:
            rows = session.scalars(
                select(ActionRecord)
                .join(Message, Message.id == ActionRecord.message_pk)
                .where(Message.message_id == identifier)
                .order_by(ActionRecord.position)
            )
            return [(r.action, r.ruling, r.rule, r.summary or r.reason) for r in rows]

    def outbox(self, kind: str | None = None) -> list[Mail]:
        with self.app.session_factory() as session:
            query = (
                select(OutboxMessage, Message.message_id)
                .outerjoin(Message, Message.id == OutboxMessage.in_reply_to_pk)
                .order_by(OutboxMessage.id)
            )
            if kind is not None:
                query = query.where(OutboxMessage.kind == kind)
            return [_mail(row, answers) for row, answers in session.execute(query).all()]

    def replies_to(self, identifier: str) -> list[Mail]:
        return [mail for mail in self.outbox() if mail.answers == identifier]

    def player_id(self, name: str) -> int:
        with self.app.session_factory() as session:
            found = session.scalar(select(Player.id).where(Player.name == name))
            assert found is not None, f"no player {name}"
            return found


def _mail(row: OutboxMessage, answers: str | None) -> Mail:
    parsed = message_from_bytes(row.raw, policy=default)
    assert isinstance(parsed, EmailMessage)
    part = parsed.get_body(preferencelist=("plain",))
    body = str(part.get_content()) if part is not None else ""
    return Mail(
        row.kind, list(row.recipients), answers, str(parsed["Date"]), str(parsed["Subject"]), body
    )


DeskMaker = Callable[..., Desk]


@pytest.fixture
def make_desk(tmp_path: Path) -> Iterator[DeskMaker]:
    """Build a bot in its own folder, with settings sections replaced as given."""
    apps: list[App] = []

    def build(folder: str = "bot", list_id: str = "", **sections: Any) -> Desk:
        if list_id:  # [bot] list_id: posts without it are refused
            bot = game_settings(tmp_path / folder).bot
            sections["bot"] = replace(bot, list_id=list_id)
        apps.append(make_app(tmp_path / folder, **sections))
        return Desk(apps[-1])

    yield build
    for app in apps:
        app.dispose()


@pytest.fixture
def desk(make_desk: DeskMaker) -> Desk:
    """The scripted game's bot (players Alice and Bob) on a fresh SQLite database."""
    return make_desk()
