"""Timed events whose handler raised: handled around, recorded, and run again on request.

A scheduler error must never block the posts.  When a timed handler raises
(an nweek's Bandwidth reset, a poll's close, a digest), ``settle_events``
rolls the scheduler's transaction back, handles the same interval again
without that handler, and records the handler, its interval and the
traceback as a ``ShuntedEvent`` in the same commit that moves the clock
mark past it.  The posts after it are then judged as usual: **the queue goes
on, so later posts are judged without the event's effects** (a Bandwidth
that was not reset, a poll that did not close).

``requeue_events`` (``nomicbot shunted requeue --event N``) queues a shunted
event; the worker runs it again (``rerun_queued_events``) at its place
among the posts *still waiting*: before any queued post that arrived after
its instant.  It runs its handler over its original interval, so what it
records and mails carries its original instants, but it sees the game as it
stands now: posts judged while it was shunted are not judged again.  If it
raises again it is shunted again, with the new traceback.
"""

from __future__ import annotations

import logging
import traceback
from collections.abc import Sequence
from datetime import UTC, datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from bot.engine.scheduler import TimedEventFailed, advance_clock, all_handlers, pieces_between
from bot.engine.services import Services
from bot.store.errors import is_system_defect, is_transient, summary
from bot.store.models import ShuntedEvent

log = logging.getLogger(__name__)


def settle_events(
    session_factory: sessionmaker[Session], services: Services, until: datetime
) -> tuple[TimedEventFailed, ...]:
    """Handle the events due up to ``until`` in a transaction of their own.

    Every handler that raises is passed over and recorded in the same
    commit; returns those failures (usually none).  Raises transient
    database errors and system defects unchanged (``bot.store.errors``):
    nothing is committed then.
    """
    failures: list[TimedEventFailed] = []
    while True:
        try:
            with session_factory.begin() as session:
                advance_clock(session, services, until, frozenset(f.key for f in failures))
                for failure in failures:
                    record_failure(session, failure)
            return tuple(failures)
        except TimedEventFailed as failure:
            log.error(
                "timed event %s over (%s, %s] raised; shunted, and the queue goes on:\n%s",
                failure.handler,
                failure.after.isoformat(),
                failure.until.isoformat(),
                failure.traceback,
            )
            failures.append(failure)


def record_failure(session: Session, failure: TimedEventFailed) -> ShuntedEvent:
    """Add the failure as a shunted event, or extend the handler's shunted event it follows."""
    previous = session.scalars(
        select(ShuntedEvent).where(
            ShuntedEvent.handler == failure.handler,
            ShuntedEvent.status == "shunted",
            ShuntedEvent.due_until == failure.after,
        )
    ).first()
    if previous is not None:
        # A handler that raises on every run fills one row, not one per post.
        previous.due_until = failure.until
        previous.failures += 1
        return previous
    event = ShuntedEvent(
        handler=failure.handler,
        due_after=failure.after,
        due_until=failure.until,
        status="shunted",
        failures=1,
        error=failure.error,
        traceback=failure.traceback,
        shunted_at=datetime.now(UTC),
    )
    session.add(event)
    return event


def shunted_events(session: Session) -> Sequence[ShuntedEvent]:
    """The events waiting for an operator (shunted) or for the worker (queued), in due order."""
    return session.scalars(
        select(ShuntedEvent)
        .where(ShuntedEvent.status.in_(("shunted", "queued")))
        .order_by(ShuntedEvent.due_until, ShuntedEvent.id)
    ).all()


def requeue_events(session_factory: sessionmaker[Session], event_id: int | None = None) -> int:
    """Queue shunted events (one, or all) to be run again by the worker; returns how many."""
    with session_factory.begin() as session:
        query = select(ShuntedEvent).where(ShuntedEvent.status == "shunted")
        if event_id is not None:
            query = query.where(ShuntedEvent.id == event_id)
        events = list(session.scalars(query))
        for event in events:
            event.status, event.requeued_at = "queued", datetime.now(UTC)
        return len(events)


def queued_event_count(session_factory: sessionmaker[Session]) -> int:
    with session_factory() as session:
        count = session.scalar(
            select(func.count()).select_from(ShuntedEvent).where(ShuntedEvent.status == "queued")
        )
        return count or 0


def rerun_queued_events(
    session_factory: sessionmaker[Session], services: Services, until: datetime | None = None
) -> int:
    """Run again the queued events due at or before ``until`` (all: None), oldest first.

    Returns how many queued events are left.  Raises transient database
    errors and system defects unchanged; an event that raises is shunted again.
    """
    for event_id in _queued(session_factory, until):
        rerun_event(session_factory, services, event_id)
    return queued_event_count(session_factory)


def _queued(session_factory: sessionmaker[Session], until: datetime | None) -> list[int]:
    query = select(ShuntedEvent.id).where(ShuntedEvent.status == "queued")
    if until is not None:
        query = query.where(ShuntedEvent.due_until <= until)
    with session_factory() as session:
        return list(session.scalars(query.order_by(ShuntedEvent.due_until, ShuntedEvent.id)))


def rerun_event(session_factory: sessionmaker[Session], services: Services, event_id: int) -> bool:
    """Run one queued event's handler over its interval, midnight by midnight; True if done."""
    with session_factory() as session:
        try:
            with session.begin():
                event = session.get(ShuntedEvent, event_id)
                if event is None or event.status != "queued":
                    return False
                handler = all_handlers(services).get(event.handler)
                if handler is None:
                    raise LookupError(f"no timed handler is named {event.handler} any more")
                for piece in pieces_between(event.due_after, event.due_until):
                    handler(session, services, *piece)
                event.status, event.done_at = "done", datetime.now(UTC)
            log.info("timed event %s (shunted event %d) ran again", event.handler, event_id)
            return True
        except Exception as error:
            if is_transient(error) or is_system_defect(error):
                raise
            line, trace = summary(error), traceback.format_exc()
    log.error("shunted event %d raised again; shunted again:\n%s", event_id, trace)
    with session_factory.begin() as session:
        event = session.get(ShuntedEvent, event_id)
        assert event is not None
        event.status, event.failures = "shunted", event.failures + 1
        event.error, event.traceback = line, trace
        event.shunted_at = datetime.now(UTC)
    return False
