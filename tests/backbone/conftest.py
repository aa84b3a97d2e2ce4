"""Fixtures for the backbone tests: a configured bot, posts as mail, what it did.

Every fixture builds real components (SQLite database with the real schema,
the real pipeline and engine); the factories only save each test from
spelling out the same mail headers and queries.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from datetime import datetime, timedelta
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import SMTP, default
from email.utils import format_datetime
from pathlib import Path

import pytest
from sqlalchemy import select

from bot.app import App
from bot.engine.refusals import RefusedPost, refused_posts
from bot.engine.worker import QueueReport, process_queue
from bot.runner import store_message
from bot.store.models import ActionRecord, Message, OutboxMessage
from bot.testing import go_game
from bot.testing.apps import make_app

Headers = Sequence[tuple[str, str]]
PostMaker = Callable[..., bytes]
Judge = Callable[[App, Sequence[bytes]], QueueReport]

ALICE_FROM = f"{go_game.ALICE[0]} <{go_game.ALICE[1]}>"
# Inside nweek 1 of the scripted game's Clock, an hour after its epoch.
FIRST_ARRIVAL = go_game.EPOCH + timedelta(hours=1)


@pytest.fixture
def game_app(tmp_path: Path) -> Iterator[App]:
    """The scripted game's bot (players Alice and Bob) on a fresh SQLite database."""
    app = make_app(tmp_path / "bot")
    yield app
    app.dispose()


def compose(
    identifier: str,
    body: str,
    sender: str = ALICE_FROM,
    headers: Headers = (),
    subject: str = "[Nomic] Political Go",
    date: datetime = FIRST_ARRIVAL,
) -> bytes:
    """A plain-text post to the list with Message-ID <identifier> and extra headers."""
    mail = EmailMessage(policy=SMTP)
    mail["From"] = sender
    mail["To"] = go_game.LIST_ADDRESS
    mail["Subject"] = subject
    mail["Date"] = format_datetime(date)
    mail["Message-ID"] = f"<{identifier}>"
    for name, value in headers:
        mail[name] = value
    mail.set_content(body)
    return mail.as_bytes()


@pytest.fixture(scope="session")
def make_post() -> PostMaker:
    return compose


def judge_posts(app: App, raws: Sequence[bytes], start: datetime = FIRST_ARRIVAL) -> QueueReport:
    """Store each post a minute after the previous one, then let the worker judge them all."""
    for offset, raw in enumerate(raws):
        store_message(app, raw, "smtp", start + timedelta(minutes=offset))
    return process_queue(app.session_factory, app.services)


@pytest.fixture(scope="session")
def judge() -> Judge:
    return judge_posts


def message_row(app: App, identifier: str) -> Message:
    with app.session_factory() as session:
        row = session.scalar(select(Message).where(Message.message_id == identifier))
        assert row is not None, f"<{identifier}> was never stored"
        return row


def rulings_for(app: App, identifier: str) -> list[OutboxMessage]:
    """The ruling mails in the outbox that answer the post <identifier>."""
    with app.session_factory() as session:
        return list(
            session.scalars(
                select(OutboxMessage)
                .join(Message, Message.id == OutboxMessage.in_reply_to_pk)
                .where(Message.message_id == identifier, OutboxMessage.kind == "ruling")
            )
        )


def actions_for(app: App, identifier: str) -> list[ActionRecord]:
    with app.session_factory() as session:
        return list(
            session.scalars(
                select(ActionRecord)
                .join(Message, Message.id == ActionRecord.message_pk)
                .where(Message.message_id == identifier)
                .order_by(ActionRecord.position)
            )
        )


def outbox_count(app: App, kind: str | None = None) -> int:
    with app.session_factory() as session:
        query = select(OutboxMessage.id)
        if kind is not None:
            query = query.where(OutboxMessage.kind == kind)
        return len(session.scalars(query).all())


def refused_for(app: App, identifier: str) -> list[RefusedPost]:
    """The refused copies of the post <identifier>."""
    with app.session_factory() as session:
        return [post for post in refused_posts(session) if post.message_id == identifier]


def ruling_text(app: App, identifier: str) -> str:
    """The plain text of the one ruling that answers the post <identifier>."""
    [row] = rulings_for(app, identifier)
    mail = message_from_bytes(row.raw, policy=default)
    assert isinstance(mail, EmailMessage)
    part = mail.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content())


class Records:
    """Read-only queries about what the bot recorded, for the tests to share."""

    refused = staticmethod(refused_for)
    message = staticmethod(message_row)
    rulings = staticmethod(rulings_for)
    ruling_text = staticmethod(ruling_text)
    actions = staticmethod(actions_for)
    outbox_count = staticmethod(outbox_count)


@pytest.fixture(scope="session")
def records() -> type[Records]:
    return Records
