"""A bot with players Alice and Bob, and the objects they hold, for the objects tests.

Everything is real: the SQLite schema from the migrations, the pipeline, the
engine and the outbox.  ``Bot.post`` stores one post at an instant and lets
the worker judge it, as the daemon would.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from pathlib import Path

import pytest
from sqlalchemy import select

from bot.app import App
from bot.engine.worker import process_queue
from bot.posts import compose_post
from bot.runner import store_message
from bot.store.models import ActionRecord, Message, OutboxMessage, Player
from bot.testing import go_game
from bot.testing.apps import make_app


class Bot:
    """The game under test: post as someone, then read the ruling's record and reply."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.count = 0

    @staticmethod
    def at(hours: float) -> datetime:
        return go_game.EPOCH + timedelta(hours=hours)

    def post(
        self, author: tuple[str, str], body: str, at: datetime, private: bool = False
    ) -> tuple[list[tuple[str, str, str, str]], str]:
        """``body`` to the list (or, ``private``, to the bot alone): (rulings, reply body)."""
        self.count += 1
        identifier = f"objects-{self.count:03d}@example.test"
        to = go_game.BOT_ADDRESS if private else go_game.LIST_ADDRESS
        vouched_by = go_game.RECEIVING_SERVER if private else ""
        raw = compose_post(
            *author, "[Nomic] Objects", body, identifier, at, to=to, vouched_by=vouched_by
        )
        store_message(self.app, raw, "smtp", at)
        process_queue(self.app.session_factory, self.app.services)
        return self._rulings(identifier), self._reply(identifier)

    def player_id(self, name: str) -> int:
        with self.app.session_factory() as session:
            found = session.scalar(select(Player.id).where(Player.name == name))
        assert found is not None, f"no player {name}"
        return found

    def _rulings(self, identifier: str) -> list[tuple[str, str, str, str]]:
        with self.app.session_factory() as session:
            rows = session.scalars(
                select(ActionRecord)
                .join(Message, Message.id == ActionRecord.message_pk)
                .where(Message.message_id == identifier)
                .order_by(ActionRecord.position)
            )
            return [(r.action, r.ruling, r.rule, r.summary or r.reason) for r in rows]

    def _reply(self, identifier: str) -> str:
        with self.app.session_factory() as session:
            raw = session.scalar(
                select(OutboxMessage.raw)
                .join(Message, Message.id == OutboxMessage.in_reply_to_pk)
                .where(Message.message_id == identifier, OutboxMessage.kind == "ruling")
            )
        if raw is None:
            return ""
        mail = message_from_bytes(raw, policy=default)
        assert isinstance(mail, EmailMessage)
        body = mail.get_body(preferencelist=("plain",))
        assert body is not None
        return str(body.get_content())


@pytest.fixture
def bot(tmp_path: Path) -> Iterator[Bot]:
    app = make_app(tmp_path / "bot")
    yield Bot(app)
    app.dispose()
