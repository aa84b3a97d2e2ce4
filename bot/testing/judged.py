"""What the bot recorded and replied for one post, read back by its Message-ID.

Shared by the tests that post as a player and then look at the ruling: the
recorded rulings of the post's actions, and the plain text of the reply.
"""

from __future__ import annotations

from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default

from sqlalchemy import select

from bot.app import App
from bot.store.models import ActionRecord, Message, OutboxMessage

# (action, ruling, rule, summary or reason) of one recorded action
RecordedRuling = tuple[str, str, str, str]


def recorded_rulings(app: App, identifier: str) -> list[RecordedRuling]:
    """The rulings recorded for the post <identifier>, in the post's order."""
    with app.session_factory() as session:
        rows = session.scalars(
            select(ActionRecord)
            .join(Message, Message.id == ActionRecord.message_pk)
            .where(Message.message_id == identifier)
            .order_by(ActionRecord.position)
        )
        return [(r.action, r.ruling, r.rule, r.summary or r.reason) for r in rows]


def reply_body(app: App, identifier: str) -> str:
    """The plain text of the ruling mailed in reply to <identifier> ("" when none)."""
    with app.session_factory() as session:
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
    return str(body.get_content()) if body is not None else ""
