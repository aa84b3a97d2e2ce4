"""The sender: delivers committed outbox rows, once each, retrying with backoff.

A row is claimed (status ``sending``) and committed before the transport is
called, then marked ``sent``.  If the process dies between the relay's
acceptance and that last commit, the row is left ``sending``; at start-up
``recover_interrupted`` returns such rows to ``pending`` (the mail keeps its
Message-ID, so a list or reader can recognise a rare duplicate).
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
    for row_id in _due(session_factory, now or datetime.now(UTC)):
        result = _deliver_one(session_factory, transport, sender, row_id, max_attempts)
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


def _deliver_one(
    session_factory: sessionmaker[Session],
    transport: Transport,
    sender: str,
    row_id: int,
    max_attempts: int,
) -> str:
    with session_factory.begin() as session:
        claimed = _rows_changed(
            session.execute(
                update(OutboxMessage)
                .where(OutboxMessage.id == row_id, OutboxMessage.status == "pending")
                .values(status="sending", attempts=OutboxMessage.attempts + 1)
            )
        )
        row = session.get(OutboxMessage, row_id)
        assert row is not None
        raw, recipients, attempts = row.raw, list(row.recipients), row.attempts
        message_id = row.message_id
    if not claimed:
        return "skipped"
    try:
        transport.send(raw, sender, recipients, message_id)
    except (OSError, smtplib.SMTPException) as error:
        return _record_failure(session_factory, row_id, attempts, max_attempts, error)
    with session_factory.begin() as session:
        row = session.get(OutboxMessage, row_id)
        assert row is not None
        row.status, row.sent_at, row.last_error = "sent", datetime.now(UTC), ""
    return "sent"


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
