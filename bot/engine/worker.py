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

A replay may judge many posts per transaction (``batch``): should a post
raise, the batch is rolled back and its posts judged again one transaction
each, so the state committed is the same as with one transaction per post.
The live daemon keeps one transaction per post, so that each ruling is
committed (and can be mailed) as soon as it is made.
"""

from __future__ import annotations

import functools
import logging
import traceback
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import chain
from typing import cast

from sqlalchemy import Table, Update, bindparam, event, func, inspect, select, update
from sqlalchemy.orm import ORMExecuteState, Session, defer, sessionmaker

from bot.engine.event_shunts import queued_event_count, rerun_queued_events, settle_events
from bot.engine.players import remember_players
from bot.engine.prepare import WINDOW, ParallelPipeline
from bot.engine.rule_changes import release_held_posts
from bot.engine.scheduler import (
    ClockMemory,
    TimedEventFailed,
    advance_clock,
    remember_opened_nweeks,
)
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
    if pipeline is not None and pipeline.wants_more:
        with session_factory() as session:
            pipeline.expect(upcoming(session, pipeline.depth))
    outcome = process_next(session_factory, services, pipeline)
    return [] if outcome is None else [outcome]


def upcoming(session: Session, limit: int = WINDOW) -> list[tuple[int, bytes]]:
    """The next ``limit`` queued posts in judging order, with their bytes: to prepare ahead."""
    rows = session.execute(
        select(Message.id, Message.raw)
        .where(Message.status == "queued")
        .order_by(Message.received_at, Message.id)
        .limit(limit)
    ).all()
    return [(row.id, row.raw) for row in rows]


def process_batch(
    session_factory: sessionmaker[Session],
    services: Services,
    size: int,
    pipeline: ParallelPipeline | None = None,
) -> list[bool]:
    """Judge up to ``size`` queued posts in one transaction; True per post done, False if shunted.

    When a post raises (or an event due before it), or the COMMIT fails,
    nothing of the batch is kept: its posts are judged again one transaction
    each, up to the one at fault, which ``process_next`` shunts (or whose
    event it settles) as always.  Posts rarely raise, so this costs less than
    a SAVEPOINT per post.  Only for a replay: a crash loses the uncommitted
    posts' work, and they are still queued, so a second run judges them the
    same.  Raises transient database errors and system defects with the
    batch uncommitted (the posts stay queued).
    """
    judged = 0
    try:
        with (
            session_factory() as session,
            session.begin(),
            BatchQueue(session, size) as queue,
            ClockMemory(session) as memory,
        ):
            remember_players(session)
            remember_opened_nweeks(session)
            while judged < size and _judge_in_batch(session, services, pipeline, queue, memory):
                judged += 1
    except Exception as error:
        if is_transient(error) or is_system_defect(error):
            raise
        log.info("a batch was not committed (%s); its posts are judged one by one", summary(error))
        return _judge_one_by_one(session_factory, services, pipeline, judged + 1)
    return [True] * judged


def _judge_in_batch(
    session: Session,
    services: Services,
    pipeline: ParallelPipeline | None,
    queue: BatchQueue,
    memory: ClockMemory,
) -> bool:
    """Judge the next queued post in the batch's transaction; False if none is queued."""
    if pipeline is not None and pipeline.wants_more:
        pipeline.expect(upcoming(session, pipeline.depth))
    message = queue.next()
    if message is None:
        return False
    advance_clock(session, services, message.received_at, memory=memory)
    prepared = pipeline.take(message.id) if pipeline is not None else None
    process_message(session, message, services, prepared)
    # The next post starts from the database, as in a session of its own:
    # nothing it reads is an object an earlier post left in memory.
    if not _write_own_row_only(session, message):
        session.flush()
    session.expunge_all()
    return True


def _write_own_row_only(session: Session, message: Message) -> bool:
    """Write ``message`` with one UPDATE if it is all the post changed; False otherwise.

    Most posts of a list change nothing but their own row (chatter, a
    refusal, an auto-reply: two in three of bench/pipeline.py's archive).
    The unit of work spent 0.55 ms flushing that one row, more than judging
    such a post; the same UPDATE, of the same columns with the same values,
    executed on the session's connection costs 0.2 ms.  The write happens
    where the flush did, before the next post, and the session's watchers
    see it as they saw the flush's: the Clock's (``WriteWatch``) reads the
    statement; the batch's queue (``BatchQueue``) took no note of the
    judged post's own row either way.  The live daemon's one transaction per
    post keeps the flush (its commit).
    """
    if session.new or session.deleted:
        return False
    dirty = session.dirty
    if len(dirty) != 1 or message not in dirty:
        return False
    state = inspect(message)
    attributes = state.attrs
    changed = {
        key: attributes[key].value
        for key in _MESSAGE_COLUMNS - state.unmodified
        if attributes[key].history.has_changes()
    }
    if changed:
        statement = _own_row_update(frozenset(changed))
        session.connection().execute(statement, {**changed, ROW_KEY: message.id})
    # Written: what the flush would do next is nothing.
    session.expunge(message)
    return True


ROW_KEY = "own_row_id"


@functools.cache
def _own_row_update(columns: frozenset[str]) -> Update:
    # One statement per set of columns, built once: building it again for
    # each post cost as much as the flush it replaces (SQLAlchemy's cache
    # key is kept with the statement).
    return (
        update(cast(Table, _MESSAGE_TABLE))
        .where(_MESSAGE_TABLE.c.id == bindparam(ROW_KEY))
        .values({column: bindparam(column) for column in sorted(columns)})
    )


class BatchQueue:
    """The queued posts of a batch, read with one query instead of one per post.

    The list holds while judging changes no stored message but the post
    judged: a post may store one (a private vote's record), queue held ones
    again (the Clock turned On, rule 3 B) or take another copy's Message-ID,
    and then the queue is read again, so the posts are judged in the same
    order as one query per post would give.  Every change a unit of work
    makes goes through this session (a flush, or a statement it executes),
    which is what is watched; any statement but a write to another table
    counts as a change.
    """

    def __init__(self, session: Session, size: int) -> None:
        self.session = session
        self.size = size
        self.waiting: deque[Message] = deque()
        self.taken = 0
        self.current: Message | None = None
        self.changed = True  # nothing read yet

    def __enter__(self) -> BatchQueue:
        event.listen(self.session, "after_flush", self._flushed)
        event.listen(self.session, "do_orm_execute", self._executed)
        return self

    def __exit__(self, *exception: object) -> None:
        event.remove(self.session, "after_flush", self._flushed)
        event.remove(self.session, "do_orm_execute", self._executed)

    def next(self) -> Message | None:
        """The next queued post, oldest arrival first; None when none is left."""
        if self.changed:
            self.changed = False
            self.waiting = deque(_queued(self.session, self.size - self.taken))
        if not self.waiting:
            return None
        message = self.waiting.popleft()
        # Read before the previous post was judged (and detached from the
        # session with it): unchanged since, so attached again as it is.
        if message not in self.session:
            self.session.add(message)
        self.current = message
        self.taken += 1
        return message

    def _flushed(self, session: Session, context: object) -> None:
        # after_flush: new, dirty and deleted still list what was just written.
        written = chain(session.new, session.dirty, session.deleted)
        if any(isinstance(item, Message) and item is not self.current for item in written):
            self.changed = True

    def _executed(self, state: ORMExecuteState) -> None:
        if state.is_select:
            return
        table = getattr(state.statement, "table", None)
        if not (state.is_insert or state.is_update or state.is_delete) or table is _MESSAGE_TABLE:
            self.changed = True


_MESSAGE_TABLE = Message.__table__
_MESSAGE_COLUMNS = frozenset(column.key for column in _MESSAGE_TABLE.columns)


def _judge_one_by_one(
    session_factory: sessionmaker[Session],
    services: Services,
    pipeline: ParallelPipeline | None,
    count: int,
) -> list[bool]:
    outcomes: list[bool] = []
    for _ in range(count):
        outcome = _process_one(session_factory, services, pipeline)
        if not outcome:
            break
        outcomes.extend(outcome)
    return outcomes


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
    queued = _queued(session, 1)
    return queued[0] if queued else None


def _queued(session: Session, count: int) -> list[Message]:
    """The first ``count`` queued messages, oldest arrival first."""
    # The raw bytes are loaded only if used: a prepared post does not need them.
    # FOR UPDATE (PostgreSQL; SQLite has no such clause): should a second
    # worker ever run, it waits for these posts and then finds them judged,
    # rather than judging them twice or out of order.
    return list(
        session.scalars(
            select(Message)
            .options(defer(Message.raw))
            .where(Message.status == "queued")
            .order_by(Message.received_at, Message.id)
            .limit(count)
            .with_for_update()
        )
    )


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
