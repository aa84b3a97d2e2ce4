"""The sender: delivers committed outbox rows, once each, retrying with backoff.

Through an SMTP relay, one row at a time: the row is claimed (status
``sending``, one more attempt) and committed, handed to the relay, and
marked ``sent`` in a commit of its own as soon as the relay accepted it, so
a crash repeats at most the one mail in flight (Trust II, item 7).  A row
left ``sending`` by a crash is returned to ``pending`` by
``recover_interrupted`` at start-up and sent again, with the same
Message-ID (derived when the mail was composed and stored in the row's
bytes), by which the list and mail clients drop the repeat.  A transport
that recognises a repeat itself (the Maildir, by Message-ID: exactly once)
has rows claimed and marked 50 at a time, which keeps two commits per mail
off an archive's replay.

The Date header (Trust II, item 9).  A mail is composed with the instant it
reports on: a ruling with its post's arrival (rule 3 B), a scheduled report
with its event, which the daemon's scheduler handles an hour late
(``bot.daemon.SCHEDULER_LAG``).  The daemon passes its clock, and the Date
becomes the moment the mail is handed to the transport, never earlier than
the composed instant (a reply never predates its post, whatever the skew
between our clock and the one that stamped the post's arrival); a retry or
a repeat after a crash is dated when it is sent again.  Without a clock (a
replay, the demo, the tests' ``deliver``) the composed Date stands: a replay
re-enacts the game as if each mail had gone out at the instant it reports
on, so replaying an archive writes the same mails every time, whenever it
runs.  Only the sent bytes carry the new Date; the stored row keeps the
composed ones.
"""

from __future__ import annotations

import logging
import re
import smtplib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime, parsedate_to_datetime
from typing import Any, cast

from sqlalchemy import CursorResult, Result, select, update
from sqlalchemy.orm import Session, sessionmaker

from bot.outbound.transports import Transport, settle
from bot.store.models import OutboxMessage

log = logging.getLogger(__name__)

BACKOFF_BASE = timedelta(seconds=30)
BACKOFF_CAP = timedelta(hours=6)
# The header block's Date field, with any folded continuation lines.
DATE_FIELD = re.compile(rb"^Date:[^\n]*\n(?:[ \t][^\n]*\n)*", re.IGNORECASE | re.MULTILINE)
HEADER_END = re.compile(rb"\r?\n\r?\n")
# Rows claimed, sent and marked together where a repeat costs nothing: a
# Maildir recognises a mail it already wrote by its Message-ID.  Through a
# relay each row is its own batch, marked ``sent`` as soon as it is accepted.
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
    clock: Callable[[], datetime] | None = None,
) -> DeliveryReport:
    """Deliver every row due at ``now`` (default: the wall clock), oldest first.

    ``clock``, when given, dates each mail when it is handed to the
    transport (see the module's docstring); None keeps the composed Date.
    Raises only what the transport raises besides OSError and
    smtplib.SMTPException, which are recorded on the row and retried.
    """
    due = _due(session_factory, now or datetime.now(UTC))
    size = BATCH_SIZE if transport.recognises_repeats else 1
    results: Counter[str] = Counter()
    for start in range(0, len(due), size):
        batch = due[start : start + size]
        results.update(
            _deliver_batch(session_factory, transport, sender, batch, max_attempts, clock)
        )
    return DeliveryReport(results["sent"], results["pending"], results["failed"])


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
    clock: Callable[[], datetime] | None,
) -> list[str]:
    """Claim the rows, send each, then mark the sent ones in one commit."""
    results, sent_ids = [], []
    for row in _claim(session_factory, row_ids):
        raw = row.raw if clock is None else dated(row.raw, clock())
        try:
            transport.send(raw, sender, row.recipients, row.message_id)
        except (OSError, smtplib.SMTPException) as error:
            results.append(
                _record_failure(session_factory, row.id, row.attempts, max_attempts, error)
            )
            continue
        sent_ids.append(row.id)
        results.append("sent")
    settle(transport)  # a deferring Maildir's mails are durable before they are marked sent
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


def dated(raw: bytes, sent_at: datetime) -> bytes:
    """``raw`` with its Date header set to ``sent_at``, unless it is dated later already.

    A mail without a Date header, or with one that does not parse, is left as is.
    """
    header_end = HEADER_END.search(raw)
    field = DATE_FIELD.search(raw, 0, header_end.end() if header_end else len(raw))
    if field is None:
        return raw
    try:
        text = " ".join(field.group().decode("ascii").partition(":")[2].split())
        composed = parsedate_to_datetime(text)
    except (UnicodeDecodeError, TypeError, ValueError, IndexError):
        return raw
    if composed.tzinfo is None:  # "-0000": UTC, origin unknown (RFC 5322 3.3)
        composed = composed.replace(tzinfo=UTC)
    if composed >= sent_at:
        return raw
    line_end = b"\r\n" if field.group().endswith(b"\r\n") else b"\n"
    value = format_datetime(sent_at.astimezone(UTC).replace(microsecond=0))
    return raw[: field.start()] + f"Date: {value}".encode() + line_end + raw[field.end() :]


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
