"""The one idempotent entry point for mail: store the raw bytes, once.

Ingress stores first and processes later (Patchwork's Message-ID
idempotency): a post that arrives twice, by the same path or by two paths,
is stored once and so processed once.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from email.parser import BytesHeaderParser
from email.policy import compat32

from sqlalchemy import select
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
