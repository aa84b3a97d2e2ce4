"""Posts refused as possibly forged (docs/trust.md): for the administrator, never answered.

A refused post gets no reply at all, since its claimed sender may be the
victim; it is kept with its reason, counted, listed by ``nomicbot refused``
and in the Referee's digest.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TypeVar

from sqlalchemy import Select, select
from sqlalchemy.orm import Session

from bot.ingress.ingest import post_message_id
from bot.store.models import Message

REFUSED = "refused"
_Row = TypeVar("_Row")


@dataclass(frozen=True)
class RefusedPost:
    number: int  # the stored message's number
    message_id: str  # the post's Message-ID
    received_at: datetime
    claimed_sender: str  # the From it carried, which may be forged
    subject: str
    reason: str


def refused_posts(
    session: Session,
    since: datetime | None = None,
    limit: int | None = None,
    until: datetime | None = None,
) -> list[RefusedPost]:
    """Refused posts, newest first; received in ``[since, until)`` when given.

    A digest counts the posts received in its period, from the last digest
    up to its own instant.  The worker judges every post that arrived before
    an instant before it writes that instant's digests, and none after, so
    the half-open period counts each post in exactly one digest, and the same
    posts however late the digest is written (a replay, the console).
    """
    query = _received_between(select(Message).where(Message.status == REFUSED), since, until)
    query = query.order_by(Message.received_at.desc(), Message.id.desc())
    rows = _not_judged_elsewhere(session, list(session.scalars(query)))
    return [
        RefusedPost(
            row.id,
            post_message_id(row.message_id),
            row.received_at,
            row.sender,
            row.subject,
            row.status_reason,
        )
        for row in rows[:limit]
    ]


def _not_judged_elsewhere(session: Session, rows: list[Message]) -> list[Message]:
    """Leave out refused copies of posts whose list copy was judged (a Reply-All's direct copy)."""
    if not rows:
        # No query: SQLite plans an empty IN by the status index, reading
        # every judged post of the game (a digest's refused count, daily).
        return rows
    bare = {post_message_id(row.message_id) for row in rows}
    judged = set(
        session.scalars(
            select(Message.message_id).where(
                Message.message_id.in_(bare), Message.status.in_(("processed", "ignored"))
            )
        )
    )
    return [row for row in rows if post_message_id(row.message_id) not in judged]


def refused_count(
    session: Session, since: datetime | None = None, until: datetime | None = None
) -> int:
    """How many posts were refused, received in ``[since, until)`` when given."""
    return len(refused_posts(session, since, until=until))


def _received_between(
    query: Select[_Row], since: datetime | None, until: datetime | None
) -> Select[_Row]:
    if since is not None:
        query = query.where(Message.received_at >= since)
    if until is not None:
        query = query.where(Message.received_at < until)
    return query
