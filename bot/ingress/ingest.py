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

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from bot.ingress.header_block import ArrivalFields, arrival_fields
from bot.ingress.instant import list_receipt_time
from bot.store.models import Message


@dataclass(frozen=True)
class IngestResult:
    stored: bool  # False: a duplicate of an earlier post
    message_pk: int
    message_id: str


# Message.message_id is String(998), and a copy's or a refused copy's mark
# (below) must still fit: a longer Message-ID is kept as its first
# LONG_ID_PREFIX characters and the SHA-256 of the whole, so two long ones
# that share a beginning stay two posts, the same in a replay as live.
MAX_KEPT_ID = 960
LONG_ID_PREFIX = 880


def message_id_of(raw: bytes, headers: ArrivalFields | None = None) -> str:
    """The post's Message-ID without angle brackets, or a digest of its bytes.

    Only the header block is read (``arrival_fields``, or ``headers`` when
    the caller has read it).  A Message-ID longer than ``MAX_KEPT_ID``
    characters is shortened with its digest (``long_id_key``).
    """
    value = (headers if headers is not None else arrival_fields(raw)).message_id
    text = (value or "").strip()
    text = " ".join(text.split()).strip("<> ")
    if text:
        return long_id_key(text) if len(text) > MAX_KEPT_ID else text
    return f"sha256-{hashlib.sha256(raw).hexdigest()}@nomicbot.invalid"


def long_id_key(message_id: str) -> str:
    """A long Message-ID's key: its beginning, then ``.sha256-`` and the digest of all of it."""
    digest = hashlib.sha256(message_id.encode("utf-8", "surrogateescape")).hexdigest()
    return f"{message_id[:LONG_ID_PREFIX]}.sha256-{digest}"


# A second copy of a post that is still waiting to be judged is stored under
# its Message-ID with this mark (a Message-ID never holds a space), so that
# a copy refused before judging (a Reply-All's direct copy, a forgery) does
# not cost the list's own copy its ruling (docs/trust.md).  The worker gives
# the judged copy the bare Message-ID and marks the other copies duplicates.
COPY_MARK = " (copy "
REFUSED_MARK = " (refused "


def post_message_id(key: str) -> str:
    """The post's Message-ID, without the mark of a copy or of a refused copy."""
    for mark in (COPY_MARK, REFUSED_MARK):
        if mark in key:
            return key.partition(mark)[0]
    return key


def copy_key(message_id: str, raw: bytes) -> str:
    return f"{message_id}{COPY_MARK}{hashlib.sha256(raw).hexdigest()[:16]})"


def ingest(session: Session, raw: bytes, source: str, received_at: datetime) -> IngestResult:
    """Store ``raw`` as a queued message unless its post is already stored or judged.

    Runs inside the caller's transaction, so a poller can record its cursor
    in the same commit.  A concurrent insert of the same Message-ID is
    caught by the unique constraint and reported as a duplicate.  A copy
    that differs from a stored one not yet judged is kept too (``COPY_MARK``).
    """
    headers = arrival_fields(raw)
    message_id = message_id_of(raw, headers)
    key = _key_for(session, message_id, raw)
    if key is None:
        existing = session.scalar(select(Message.id).where(Message.message_id == message_id))
        assert existing is not None
        return IngestResult(False, existing, message_id)
    # A list post takes effect when the list received it, live and in a replay alike.
    received_at = list_receipt_time(raw, received_at, headers)
    message = Message(
        message_id=key, raw=raw, received_at=received_at, source=source, status="queued"
    )
    try:
        with session.begin_nested():
            session.add(message)
    except IntegrityError:
        existing = session.scalar(select(Message.id).where(Message.message_id == key))
        if existing is None:
            raise
        return IngestResult(False, existing, message_id)
    return IngestResult(True, message.id, message_id)


def _key_for(session: Session, message_id: str, raw: bytes) -> str | None:
    """The key to store ``raw`` under, or None: the post is stored and judged already."""
    stored = session.execute(
        select(Message.status, Message.raw).where(Message.message_id == message_id)
    ).first()
    if stored is None:
        return message_id
    if stored.status != "queued" or stored.raw == raw:
        return None
    key = copy_key(message_id, raw)
    if session.scalar(select(Message.id).where(Message.message_id == key)) is not None:
        return None
    return key


@dataclass(frozen=True)
class ArrivingPost:
    raw: bytes
    received_at: datetime


def _same(rows: dict[str, dict[str, object]], message_id: str, raw: bytes) -> bool:
    return message_id in rows and rows[message_id]["raw"] == raw


def ingest_many(session: Session, posts: Sequence[ArrivingPost], source: str) -> int:
    """Store a batch of posts (an archive's) with one query and one insert.

    Returns how many were new.  Same rules as ``ingest``: a post is stored
    once per Message-ID, and a differing copy of one not yet judged is kept
    under a copy key.  A concurrent writer makes the bulk insert fail on the
    unique Message-ID; the batch then falls back to ``ingest`` post by post.
    """
    # Each post's header block is read once, for its Message-ID and its stamp.
    headers = [arrival_fields(post.raw) for post in posts]
    message_ids = [
        message_id_of(post.raw, fields) for post, fields in zip(posts, headers, strict=True)
    ]
    query = select(Message.message_id, Message.status).where(
        Message.message_id.in_(set(message_ids))
    )
    known = {row.message_id: row.status for row in session.execute(query)}
    waiting = [message_id for message_id, status in known.items() if status == "queued"]
    stored = select(Message.message_id, Message.raw).where(Message.message_id.in_(waiting))
    rows: dict[str, dict[str, object]] = {
        row.message_id: {"raw": row.raw, "stored": True} for row in session.execute(stored)
    }
    for post, message_id, fields in zip(posts, message_ids, headers, strict=True):
        key = message_id
        if message_id in known or message_id in rows:
            if known.get(message_id, "queued") != "queued" or _same(rows, message_id, post.raw):
                continue
            key = copy_key(message_id, post.raw)
        if key in rows:
            continue
        rows[key] = {
            "message_id": key,
            "raw": post.raw,
            "received_at": list_receipt_time(post.raw, post.received_at, fields),
            "source": source,
            "status": "queued",
            "status_reason": "",
            "sender": "",
            "subject": "",
        }
    rows = {key: row for key, row in rows.items() if not row.get("stored")}
    if not rows:
        return 0
    try:
        with session.begin_nested():
            session.execute(insert(Message), list(rows.values()))
    except IntegrityError:
        return sum(ingest(session, p.raw, source, p.received_at).stored for p in posts)
    return len(rows)
