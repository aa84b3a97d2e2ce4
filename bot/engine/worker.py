"""The worker: processes queued messages one at a time, in arrival order.

Each message is one transaction, with the timed events due before it.  What
goes wrong is sorted three ways (``bot.store.errors``):

* a message whose processing raises (its COMMIT included) is rolled back
  and shunted with its traceback (Mailman's shunt queue); it is never lost,
  and ``requeue`` puts it back in the queue;
* a timed event that raises is not the message's fault: the events are
  settled on their own, the broken one shunted as an event
  (``bot.engine.event_shunts``), and the message judged after them;
* a transient database error or a system defect is nobody's post's fault:
  it propagates, with nothing committed, to the caller (the daemon retries
  the first with backoff and stops the process on the second).

A replay may judge many posts per transaction (``batch``), each in a
SAVEPOINT of its own: a post that raises rolls back alone and is shunted as
above, and the state committed is the same as with one transaction per post.
The live daemon keeps one transaction per post, so that each ruling is
committed (and can be mailed) as soon as it is made.
"""

from __future__ import annotations

import logging
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session, defer, sessionmaker

from bot.engine.event_shunts import queued_event_count, rerun_queued_events, settle_events
from bot.engine.players import remember_players
from bot.engine.prepare import WINDOW, ParallelPipeline
from bot.engine.rule_changes import release_held_posts
from bot.engine.scheduler import TimedEventFailed, advance_clock
from bot.engine.services import Services
from bot.engine.unit import process_message
from bot.store.errors import is_system_defect, is_transient, summary
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
    batch: int = 1,
) -> QueueReport:
    """Process queued messages oldest arrival first until none is left (or ``limit``).

    With ``pipeline``, the pure stages of the next posts run ahead in
    another process while each post is judged here, in order.  Re-queued
    timed events run first where they are due among the waiting posts.
    ``batch`` posts at most are committed together (``process_batch``).
    Raises what ``process_next`` raises.
    """
    release_held(session_factory, services)
    events_waiting = queued_event_count(session_factory) > 0
    processed = shunted = 0
    while limit is None or processed + shunted < limit:
        if events_waiting:
            next_arrival = _next_arrival(session_factory)
            events_waiting = rerun_queued_events(session_factory, services, next_arrival) > 0
        left = batch if limit is None else min(batch, limit - processed - shunted)
        # Re-queued events are run between posts, so they cut the batches to one post.
        outcomes = (
            process_batch(session_factory, services, left, pipeline)
            if left > 1 and not events_waiting
            else _process_one(session_factory, services, pipeline)
        )
        if not outcomes:
            break
        for outcome in outcomes:
            if progress is not None:
                progress()
            if outcome:
                processed += 1
            else:
                shunted += 1
    if events_waiting and limit is None:
        rerun_queued_events(session_factory, services)
    return QueueReport(processed, shunted)


def _next_arrival(session_factory: sessionmaker[Session]) -> datetime | None:
    with session_factory() as session:
        return session.scalar(
            select(func.min(Message.received_at)).where(Message.status == "queued")
        )


def _process_one(
    session_factory: sessionmaker[Session],
    services: Services,
    pipeline: ParallelPipeline | None,
) -> list[bool]:
    if pipeline is not None and pipeline.in_flight < WINDOW // 2:
        with session_factory() as session:
            pipeline.submit(_upcoming(session))
    outcome = process_next(session_factory, services, pipeline)
    return [] if outcome is None else [outcome]


def _upcoming(session: Session) -> list[tuple[int, bytes]]:
    rows = session.execute(
        select(Message.id, Message.raw)
        .where(Message.status == "queued")
        .order_by(Message.received_at, Message.id)
        .limit(WINDOW)
    ).all()
    return [(row.id, row.raw) for row in rows]


@dataclass(frozen=True)
class _Stop:
    """Why a batch ended early: a post to shunt, or an event due before a post that raised."""

    shunt: tuple[int, str, str] | None = None  # message id, reason, traceback
    event_failure: TimedEventFailed | None = None


def process_batch(
    session_factory: sessionmaker[Session],
    services: Services,
    size: int,
    pipeline: ParallelPipeline | None = None,
) -> list[bool]:
    """Judge up to ``size`` queued posts in one transaction; True per post done, False if shunted.

    Each post has a SAVEPOINT: one that raises is rolled back alone, the
    posts before it are committed, and it is shunted in a transaction of its
    own, exactly as ``process_next`` does.  An event due before a post that
    raises ends the batch the same way, and is settled before the post is
    judged again.  Only for a replay: a crash loses the uncommitted posts'
    work, and they are still queued, so a second run judges them the same.
    Raises transient database errors and system defects with the batch
    uncommitted (the posts stay queued).
    """
    done: list[bool] = []
    stop: _Stop | None = None
    try:
        with session_factory() as session, session.begin():
            remember_players(session)
            while len(done) < size and stop is None:
                judged = _judge_in_savepoint(session, services, pipeline)
                if judged is None:
                    break
                if isinstance(judged, _Stop):
                    stop = judged
                else:
                    done.append(True)
    except Exception as error:
        if is_transient(error) or is_system_defect(error):
            raise
        # Not a post's own failure (those are caught in their SAVEPOINT): the
        # COMMIT, or the queue query, failed.  Nothing is committed; one
        # transaction per post then finds, and shunts, any post at fault.
        log.warning(
            "a batch of %s post(s) was not committed (%s); judged one by one", len(done), error
        )
        return _process_one(session_factory, services, pipeline)
    if stop is not None and stop.shunt is not None:
        message_pk, reason, trace = stop.shunt
        log.error("message %s shunted:\n%s", message_pk, trace)
        shunt(session_factory, message_pk, trace, reason)
        done.append(False)
    if stop is not None and stop.event_failure is not None:
        settle_events(session_factory, services, stop.event_failure.advancing_to)
    return done


def _judge_in_savepoint(
    session: Session, services: Services, pipeline: ParallelPipeline | None
) -> bool | _Stop | None:
    """Judge the next queued post in a SAVEPOINT of ``session``: True, a ``_Stop``, or None."""
    if pipeline is not None and pipeline.in_flight < WINDOW // 2:
        pipeline.submit(_upcoming(session))
    message = _next_queued(session)
    if message is None:
        return None
    message_pk = message.id
    try:
        with session.begin_nested():
            advance_clock(session, services, message.received_at)
            prepared = pipeline.take(message_pk) if pipeline is not None else None
            process_message(session, message, services, prepared)
    except TimedEventFailed as failure:
        return _Stop(event_failure=failure)
    except Exception as error:  # a defect of this post: keep it and the evidence
        if is_transient(error) or is_system_defect(error):
            raise
        return _Stop(shunt=(message_pk, summary(error), traceback.format_exc()))
    # The next post starts from the database, as in a session of its own:
    # nothing it reads is an object an earlier post left in memory.
    session.expunge_all()
    return True


def process_next(
    session_factory: sessionmaker[Session],
    services: Services,
    pipeline: ParallelPipeline | None = None,
) -> bool | None:
    """Process the next queued message: True if done, False if shunted, None if none.

    Raises transient database errors and system defects (``bot.store.errors``)
    with nothing committed: the message stays queued.
    """
    while True:
        try:
            return _judge_next(session_factory, services, pipeline)
        except TimedEventFailed as failure:
            advancing_to = failure.advancing_to
        # An event due before the message raised, not the message: settle the
        # events on their own (shunting the broken one), then judge it.
        settle_events(session_factory, services, advancing_to)


def _judge_next(
    session_factory: sessionmaker[Session],
    services: Services,
    pipeline: ParallelPipeline | None,
) -> bool | None:
    message_pk: int | None = None
    with session_factory() as session:
        try:
            with session.begin():  # commits here: a COMMIT that fails is handled below
                message = _next_queued(session)
                if message is None:
                    return None
                message_pk = message.id
                advance_clock(session, services, message.received_at)
                prepared = pipeline.take(message_pk) if pipeline is not None else None
                process_message(session, message, services, prepared)
            return True
        except TimedEventFailed:
            raise
        except Exception as error:  # a defect of this post: keep it and the evidence
            if message_pk is None or is_transient(error) or is_system_defect(error):
                raise
            reason, trace = summary(error), traceback.format_exc()
    log.error("message %s shunted:\n%s", message_pk, trace)
    shunt(session_factory, message_pk, trace, reason)
    return False


def release_held(session_factory: sessionmaker[Session], services: Services) -> int:
    """Queue again the posts held while the Clock was Off, once it is On (rule 3 B)."""
    with session_factory.begin() as session:
        services.rules.refresh(session)  # a switch another process recorded
        return release_held_posts(session, services)


def _next_queued(session: Session) -> Message | None:
    # The raw bytes are loaded only if used: a prepared post does not need them.
    # FOR UPDATE (PostgreSQL; SQLite has no such clause): should a second
    # worker ever run, it waits for this post and then finds it judged,
    # rather than judging it twice or out of order.
    return session.scalars(
        select(Message)
        .options(defer(Message.raw))
        .where(Message.status == "queued")
        .order_by(Message.received_at, Message.id)
        .limit(1)
        .with_for_update()
    ).first()


def shunt(
    session_factory: sessionmaker[Session], message_pk: int, error: str, reason: str = ""
) -> None:
    """Set the message aside with the traceback ``error``; ``reason`` is its one-line summary
    (default: the traceback's last line)."""
    with session_factory.begin() as session:
        message = session.get(Message, message_pk)
        assert message is not None
        message.status = "shunted"
        message.status_reason = reason or error.strip().splitlines()[-1][:500]
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
