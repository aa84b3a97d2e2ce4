"""The one idempotent entry point for mail: store the raw bytes, once.

Ingress stores first and processes later (Patchwork's Message-ID
idempotency): a post that arrives twice, by the same path or by two paths,
is stored once and so processed once.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from email.parser import BytesHeaderParser
from email.policy import compat32

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from bot.store.models import Message

_HEADER_PARSER = BytesHeaderParser(policy=compat32)


@dataclass(frozen=True)
class IngestResult:
    stored: bool  # False: a duplicate of an earlier post
    message_pk: int
    message_id: str


def message_id_of(raw: bytes) -> str:
    """The post's Message-ID without angle brackets, or a digest of its bytes.

    Only the header block is read (compat32 is several times faster than the
    full parse the pipeline does later).
    """
    value = _HEADER_PARSER.parsebytes(raw[:65536]).get("Message-ID")
    text = str(value or "").strip()
    text = " ".join(text.split()).strip("<> ")
    if text:
        return text[:998]
    return f"sha256-{hashlib.sha256(raw).hexdigest()}@nomicbot.invalid"


def ingest(session: Session, raw: bytes, source: str, received_at: datetime) -> IngestResult:
    """Store ``raw`` as a queued message unless its Message-ID is already stored.

    Runs inside the caller's transaction, so a poller can record its cursor
    in the same commit.  A concurrent insert of the same Message-ID is
    caught by the unique constraint and reported as a duplicate.
    """
    message_id = message_id_of(raw)
    existing = session.scalar(select(Message.id).where(Message.message_id == message_id))
    if existing is not None:
        return IngestResult(False, existing, message_id)
    message = Message(
        message_id=message_id, raw=raw, received_at=received_at, source=source, status="queued"
    )
    try:
        with session.begin_nested():
            session.add(message)
    except IntegrityError:
        existing = session.scalar(select(Message.id).where(Message.message_id == message_id))
        if existing is None:
            raise
        return IngestResult(False, existing, message_id)
    return IngestResult(True, message.id, message_id)


@dataclass(frozen=True)
class ArrivingPost:
    raw: bytes
    received_at: datetime


def ingest_many(session: Session, posts: Sequence[ArrivingPost], source: str) -> int:
    """Store a batch of posts (an archive's) with one query and one insert.

    Returns how many were new.  Same rules as ``ingest``: one row per
    Message-ID, the first arrival kept.  A concurrent writer makes the bulk
    insert fail on the unique Message-ID; the batch then falls back to
    ``ingest`` post by post.
    """
    by_id: dict[str, ArrivingPost] = {}
    for post in posts:
        by_id.setdefault(message_id_of(post.raw), post)
    known = set(session.scalars(select(Message.message_id).where(Message.message_id.in_(by_id))))
    rows = [
        {
            "message_id": message_id,
            "raw": post.raw,
            "received_at": post.received_at,
            "source": source,
            "status": "queued",
            "status_reason": "",
            "sender": "",
            "subject": "",
        }
        for message_id, post in by_id.items()
        if message_id not in known
    ]
    if not rows:
        return 0
    try:
        with session.begin_nested():
            session.execute(insert(Message), rows)
    except IntegrityError:
        return sum(ingest(session, p.raw, source, p.received_at).stored for p in posts)
    return len(rows)
