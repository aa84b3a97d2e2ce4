"""The sender: delivers committed outbox rows, once each, retrying with backoff.

Rows are claimed (status ``sending``) and committed before the transport is
called, then marked ``sent``, a batch at a time.  If the process dies between
the relay's acceptance and that last commit, the rows are left ``sending``;
at start-up ``recover_interrupted`` returns them to ``pending``.  The Maildir
transport recognises a mail it already wrote by its Message-ID, so it
delivers exactly once; through SMTP a rare duplicate keeps its Message-ID.
"""

from __future__ import annotations

import logging
import smtplib
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from sqlalchemy import CursorResult, Result, select, update
from sqlalchemy.orm import Session, sessionmaker

from bot.outbound.transports import Transport
from bot.store.models import OutboxMessage

log = logging.getLogger(__name__)

BACKOFF_BASE = timedelta(seconds=30)
BACKOFF_CAP = timedelta(hours=6)
# Rows claimed, sent and marked together.  A crash mid-batch leaves its rows
# "sending"; recover_interrupted sends them again (a Maildir recognises them
# by Message-ID; through SMTP at most one batch may go out twice).
BATCH_SIZE = 50


@dataclass(frozen=True)
class DeliveryReport:
    sent: int
    deferred: int
    failed: int


def deliver_pending(
    session_factory: sessionmaker[Session],
    transport: Transport,
    sender: str,
    max_attempts: int,
    now: datetime | None = None,
) -> DeliveryReport:
    sent = deferred = failed = 0
    due = _due(session_factory, now or datetime.now(UTC))
    for start in range(0, len(due), BATCH_SIZE):
        for result in _deliver_batch(
            session_factory, transport, sender, due[start : start + BATCH_SIZE], max_attempts
        ):
            sent += result == "sent"
            deferred += result == "pending"
            failed += result == "failed"
    return DeliveryReport(sent, deferred, failed)


def _due(session_factory: sessionmaker[Session], now: datetime) -> list[int]:
    with session_factory() as session:
        return list(
            session.scalars(
                select(OutboxMessage.id)
                .where(OutboxMessage.status == "pending", OutboxMessage.next_attempt_at <= now)
                .order_by(OutboxMessage.id)
            )
        )


@dataclass(frozen=True)
class _Claimed:
    id: int
    message_id: str
    raw: bytes
    recipients: list[str]
    attempts: int


def _deliver_batch(
    session_factory: sessionmaker[Session],
    transport: Transport,
    sender: str,
    row_ids: list[int],
    max_attempts: int,
) -> list[str]:
    """Claim the rows, send each, then mark the sent ones in one commit."""
    results, sent_ids = [], []
    for row in _claim(session_factory, row_ids):
        try:
            transport.send(row.raw, sender, row.recipients, row.message_id)
        except (OSError, smtplib.SMTPException) as error:
            results.append(
                _record_failure(session_factory, row.id, row.attempts, max_attempts, error)
            )
            continue
        sent_ids.append(row.id)
        results.append("sent")
    if sent_ids:
        with session_factory.begin() as session:
            session.execute(
                update(OutboxMessage)
                .where(OutboxMessage.id.in_(sent_ids))
                .values(status="sent", sent_at=datetime.now(UTC), last_error="")
            )
    return results


def _claim(session_factory: sessionmaker[Session], row_ids: list[int]) -> list[_Claimed]:
    """The rows of ``row_ids`` this call claimed: another sender may have taken some."""
    with session_factory.begin() as session:
        claimed = session.execute(
            update(OutboxMessage)
            .where(OutboxMessage.id.in_(row_ids), OutboxMessage.status == "pending")
            .values(status="sending", attempts=OutboxMessage.attempts + 1)
            .returning(
                OutboxMessage.id,
                OutboxMessage.message_id,
                OutboxMessage.raw,
                OutboxMessage.recipients,
                OutboxMessage.attempts,
            )
        ).all()
        rows = sorted(claimed, key=lambda row: row.id)
        return [_Claimed(r.id, r.message_id, r.raw, list(r.recipients), r.attempts) for r in rows]


def _record_failure(
    session_factory: sessionmaker[Session],
    row_id: int,
    attempts: int,
    max_attempts: int,
    error: Exception,
) -> str:
    status = "failed" if is_permanent(error) or attempts >= max_attempts else "pending"
    delay = min(BACKOFF_BASE * (2 ** (attempts - 1)), BACKOFF_CAP)
    with session_factory.begin() as session:
        row = session.get(OutboxMessage, row_id)
        assert row is not None
        row.status, row.last_error = status, f"{type(error).__name__}: {error}"[:1000]
        row.next_attempt_at = datetime.now(UTC) + delay
    log.warning("outbox %s: %s (%s)", row_id, error, status)
    return status


def is_permanent(error: Exception) -> bool:
    """A 5xx answer: retrying the same mail cannot succeed (RFC 5321 section 4.2.1)."""
    if isinstance(error, smtplib.SMTPResponseException):
        return error.smtp_code >= 500
    # smtplib reports "every recipient refused" with the codes per recipient.
    if isinstance(error, smtplib.SMTPRecipientsRefused) and error.recipients:
        return all(code >= 500 for code, _answer in error.recipients.values())
    return False


def recover_interrupted(session_factory: sessionmaker[Session]) -> int:
    """Return rows left ``sending`` by a crash to ``pending``; returns how many."""
    with session_factory.begin() as session:
        return _rows_changed(
            session.execute(
                update(OutboxMessage)
                .where(OutboxMessage.status == "sending")
                .values(status="pending")
            )
        )


def _rows_changed(result: Result[Any]) -> int:
    return int(cast(CursorResult[Any], result).rowcount)
