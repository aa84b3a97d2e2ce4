"""The worker: processes queued messages one at a time, in arrival order.

Each message is one transaction.  A message whose processing raises is
rolled back and shunted with its traceback (Mailman's shunt queue); it is
never lost, and ``requeue`` puts it back in the queue.
"""

from __future__ import annotations

import logging
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session, defer, sessionmaker

from bot.engine.prepare import WINDOW, ParallelPipeline
from bot.engine.scheduler import advance_clock
from bot.engine.services import Services
from bot.engine.unit import process_message
from bot.store.models import Message, Shunt

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class QueueReport:
    processed: int
    shunted: int


def process_queue(
    session_factory: sessionmaker[Session],
    services: Services,
    limit: int | None = None,
    progress: Callable[[], object] | None = None,
    pipeline: ParallelPipeline | None = None,
) -> QueueReport:
    """Process queued messages oldest arrival first until none is left (or ``limit``).

    With ``pipeline``, the pure stages of the next posts run ahead in
    another process while each post is judged here, in order.
    """
    release_held(session_factory, services)
    processed = shunted = 0
    while limit is None or processed + shunted < limit:
        if pipeline is not None and pipeline.in_flight < WINDOW // 2:
            pipeline.submit(_upcoming(session_factory))
        outcome = process_next(session_factory, services, pipeline)
        if outcome is None:
            break
        if progress is not None:
            progress()
        if outcome:
            processed += 1
        else:
            shunted += 1
    return QueueReport(processed, shunted)


def _upcoming(session_factory: sessionmaker[Session]) -> list[tuple[int, bytes]]:
    with session_factory() as session:
        rows = session.execute(
            select(Message.id, Message.raw)
            .where(Message.status == "queued")
            .order_by(Message.received_at, Message.id)
            .limit(WINDOW)
        ).all()
        return [(row.id, row.raw) for row in rows]


def process_next(
    session_factory: sessionmaker[Session],
    services: Services,
    pipeline: ParallelPipeline | None = None,
) -> bool | None:
    """Process the next queued message: True if done, False if shunted, None if none."""
    with session_factory() as session:
        with session.begin():
            message = _next_queued(session)
            if message is None:
                return None
            message_pk = message.id
            try:
                prepared = pipeline.take(message_pk) if pipeline is not None else None
                advance_clock(session, services, message.received_at)
                process_message(session, message, services, prepared)
                return True
            except Exception:  # a defect: keep the message and the evidence
                session.rollback()
                error = traceback.format_exc()
        log.error("message %s shunted:\n%s", message_pk, error)
        shunt(session_factory, message_pk, error)
        return False


def release_held(session_factory: sessionmaker[Session], services: Services) -> int:
    """Queue again the posts held while the Clock was Off, once it is On (rule 3 B)."""
    with session_factory.begin() as session:
        held = session.scalars(select(Message).where(Message.status == "held")).all()
        released = [m for m in held if services.clock.effective_time(m.received_at) is not None]
        for message in released:
            message.status, message.status_reason = "queued", "the Clock is On again"
        return len(released)


def _next_queued(session: Session) -> Message | None:
    # The raw bytes are loaded only if used: a prepared post does not need them.
    return session.scalars(
        select(Message)
        .options(defer(Message.raw))
        .where(Message.status == "queued")
        .order_by(Message.received_at, Message.id)
        .limit(1)
    ).first()


def shunt(session_factory: sessionmaker[Session], message_pk: int, error: str) -> None:
    with session_factory.begin() as session:
        message = session.get(Message, message_pk)
        assert message is not None
        message.status = "shunted"
        message.status_reason = error.strip().splitlines()[-1][:500]
        session.add(Shunt(message_pk=message_pk, traceback=error, shunted_at=datetime.now(UTC)))


def requeue(session_factory: sessionmaker[Session], message_pk: int | None = None) -> int:
    """Put shunted messages (one, or all) back in the queue; returns how many."""
    with session_factory.begin() as session:
        query = select(Message).where(Message.status == "shunted")
        if message_pk is not None:
            query = query.where(Message.id == message_pk)
        messages = list(session.scalars(query))
        for message in messages:
            message.status = "queued"
            message.status_reason = "re-queued"
            for record in session.scalars(
                select(Shunt).where(Shunt.message_pk == message.id, Shunt.requeued_at.is_(None))
            ):
                record.requeued_at = datetime.now(UTC)
        return len(messages)
