"""Operations the command line and the daemon share: store, drain, replay."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import islice
from pathlib import Path
from typing import Any, Self, TypeVar

from sqlalchemy import select
from sqlalchemy.orm import Session
from tqdm import tqdm

from bot.app import App
from bot.engine.admin_records import ADMIN_SOURCE, compose_record_mail, new_record
from bot.engine.event_shunts import settle_events
from bot.engine.prepare import ParallelPipeline, fewer_collections
from bot.engine.private_records import queued_at
from bot.engine.scheduler import TimedEventFailed
from bot.engine.worker import QueueReport, process_queue
from bot.ingress.ingest import (
    ArrivingPost,
    IngestResult,
    ingest,
    ingest_many,
    message_id_of,
    post_message_id,
)
from bot.ingress.instant import STAMP_SECOND, WINDOW
from bot.ingress.replay import ArchivedPost, archive_posts, count_posts
from bot.outbound.sender import DeliveryReport, deliver_pending
from bot.outbound.transports import Transport, deferred_durability
from bot.pipeline import PipelineSettings
from bot.pipeline.admin import verified_record
from bot.store.lease import lease_for
from bot.store.models import Message
from bot.trust.bot_key import BotKey

# How long the console waits for a running daemon to apply a record it queued
# (the daemon's worker wakes at least every 30 s).
RECORD_WAIT_SECONDS = 45.0

# Posts of an archive stored per transaction: storing is idempotent, so a
# replay cut short just stores the rest next time.
STORE_BATCH = 500


Item = TypeVar("Item")


def batched(items: Iterable[Item], size: int) -> Iterator[list[Item]]:
    """Lists of ``size`` items (the last may be shorter); itertools has it from 3.12."""
    iterator = iter(items)
    while batch := list(islice(iterator, size)):
        yield batch


def store_message(app: App, raw: bytes, source: str, received_at: datetime) -> IngestResult:
    with app.session_factory.begin() as session:
        return ingest(session, raw, source, received_at)


def deliver(
    app: App, transport: Transport, clock: Callable[[], datetime] | None = None
) -> DeliveryReport:
    """Deliver the due outbox rows; ``clock`` dates each mail when it is sent (the
    daemon), None keeps the instant it was composed for (a replay): see bot.outbound.sender."""
    settings = app.settings
    return deliver_pending(
        app.session_factory,
        transport,
        settings.bot.address,
        settings.outbound.max_attempts,
        clock=clock,
    )


def advance_to(app: App, instant: datetime) -> tuple[TimedEventFailed, ...]:
    """Handle scheduled events (nweek boundaries) up to ``instant``.

    A timed event that raises is shunted and the others still happen
    (``bot.engine.event_shunts``); returns those that raised.
    """
    return settle_events(app.session_factory, app.services, instant)


@dataclass(frozen=True)
class ReplayReport:
    posts: int
    stored: int
    duplicates: int
    queue: QueueReport
    delivery: DeliveryReport


# Posts judged per transaction in a replay (bot.engine.worker.process_batch):
# a commit per post costs more than judging most posts, and a replay cut
# short loses at most this many posts' work, which the next run redoes.
REPLAY_BATCH = 200

# Starting the preparing process costs about half a second, which only an
# archive of some hundreds of posts wins back (bench/pipeline.py).
PARALLEL_FROM = 500
# How many posts the preparing process is given ahead of the judging: first
# the archive's opening posts, as they are read (before they are stored, and
# before the database is opened when the caller starts reading early: ``nomicbot
# replay``), then the next ones as the judging goes.  Preparing a post costs
# more than judging most posts (bench/pipeline.py), so the judging only stays
# clear of waits if the other process starts this far ahead.  Their results
# wait in memory (a few kB each), so only so many.  A second preparing
# process does not help on two cores: the three processes then slow each other.
HEAD_START = 1024


class ArchiveAhead:
    """An archive being read, its opening posts already given to a preparing process.

    A context manager: the process, if one was started, ends with it.  The
    process is started once the archive is known to hold ``PARALLEL_FROM``
    posts, and given up to ``HEAD_START`` posts at once; ``posts`` then
    yields the whole archive, the posts read here first.
    """

    def __init__(self, path: Path, settings: PipelineSettings) -> None:
        self.settings = settings
        self.pipeline: ParallelPipeline | None = None
        self.reading = archive_posts(path)
        self.head = list(islice(self.reading, PARALLEL_FROM))
        if len(self.head) < PARALLEL_FROM:
            return
        self.pipeline = ParallelPipeline(settings, depth=HEAD_START)
        self.pipeline.submit(post.raw for post in self.head)
        more = list(islice(self.reading, HEAD_START - len(self.head)))
        self.pipeline.submit(post.raw for post in more)
        self.head.extend(more)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exception: object) -> None:
        self.close()

    def close(self) -> None:
        """End the preparing process (not waited for; again: nothing)."""
        if self.pipeline is not None:
            self.pipeline.close()
            self.pipeline = None

    def posts(self) -> Iterator[ArchivedPost]:
        """Every post of the archive, in archive order (once)."""
        head, self.head = self.head, []
        yield from head
        yield from self.reading


def replay_archive(
    app: App,
    path: Path,
    transport: Transport,
    progress: bool = False,
    until: datetime | None = None,
    ahead: ArchiveAhead | None = None,
) -> ReplayReport:
    """Store every post of the archive, process them in order, deliver the replies.

    ``until`` (default: now) is the instant scheduled events are handled up
    to after the last post, e.g. the reveal of the last nweek's dice seed.
    ``ahead``: the same archive, opened by the caller with the pipeline
    settings of ``app`` (else it is opened here).
    """
    # Counting reads the whole archive once more: only a progress bar needs it first.
    counted = count_posts(path) if progress else None
    total = stored = duplicates = 0
    settings = app.services.pipeline_settings
    with ExitStack() as stack:
        stack.enter_context(fewer_collections())
        if ahead is None or ahead.settings != settings:
            # Read with other settings (the configuration changed on the way), its
            # preparing process would judge by them: it is left unused.
            ahead = stack.enter_context(ArchiveAhead(path, settings))
        pipeline = ahead.pipeline
        with tqdm(total=counted, desc="storing", unit="post", disable=not progress) as bar:
            for batch in batched(ahead.posts(), STORE_BATCH):
                total += len(batch)
                with app.session_factory.begin() as session:
                    arriving = [ArrivingPost(post.raw, post.received_at) for post in batch]
                    new = ingest_many(session, arriving, "replay")
                    place_records(session, [post.raw for post in batch], settings)
                stored += new
                duplicates += len(batch) - new
                bar.update(len(batch))
        with tqdm(total=stored, desc="judging", unit="post", disable=not progress) as bar:
            queue = process_queue(
                app.session_factory,
                app.services,
                progress=bar.update,
                pipeline=pipeline,
                batch=REPLAY_BATCH,
            )
        # Every post is judged: the preparing process ends while the mails are delivered.
        ahead.close()
    advance_to(app, until or datetime.now(UTC))
    # One sync of the Maildir per batch of mails rather than one per mail;
    # the live daemon keeps one per mail (bot.outbound.transports).
    with deferred_durability(transport):
        delivery = deliver(app, transport)
    return ReplayReport(total, stored, duplicates, queue, delivery)


def place_records(session: Session, raws: Sequence[bytes], settings: PipelineSettings) -> int:
    """Queue the bot's records among ``raws`` where they stood live (``queued_at``); how many.

    The list archives a record a few seconds after the bot queued it; a post
    reaching the list in between would otherwise be judged on the other
    side of the act in a replay than it was live.  Only a record whose
    signature verifies moves (a changed copy stays where the list put it),
    only back, and at most ``WINDOW``; a Received stamp has whole seconds, so
    the record may be dated within the second after it.
    """
    moved = 0
    for raw in raws:
        record = verified_record(raw, settings)
        if record is None:
            continue
        instant = queued_at(record)
        query = select(Message).where(
            Message.message_id == message_id_of(raw), Message.status == "queued"
        )
        for stored in session.scalars(query):
            if stored.received_at - WINDOW <= instant < stored.received_at + STAMP_SECOND:
                stored.received_at = instant
                moved += 1
    return moved


def submit_record(
    app: App,
    key: BotKey,
    command: str,
    arguments: dict[str, Any],
    at: datetime,
    wait_seconds: float = RECORD_WAIT_SECONDS,
) -> tuple[str, str]:
    """An administrator's act: signed, queued, applied, mailed to the list; (status, reason).

    It takes effect when a worker reaches it, at ``at`` among the posts
    (docs/archive.md).  When no daemon works on this database (its lock is
    free) this process judges the queue itself; otherwise the daemon's
    worker does, woken by the poll of its next pass, and this waits for it.
    The engine mails the record to the list once it has been applied.
    """
    message_id = queue_record(app, key, command, arguments, at)
    lease = lease_for(app.settings.database_url)
    if lease.acquire():
        try:
            process_queue(app.session_factory, app.services)
        finally:
            lease.release()
    judged = wait_until_judged(app, message_id, wait_seconds)
    if judged is None:
        return "queued", (
            "the record is queued; the running daemon applies it at its next pass "
            "(nomicbot refused, or the list, will show the outcome)"
        )
    return judged


def queue_record(
    app: App, key: BotKey, command: str, arguments: dict[str, Any], at: datetime
) -> str:
    """Sign the act as a record and queue it for the worker; its Message-ID."""
    settings = app.settings
    record = new_record(command, arguments, at, app.services)
    message_id, raw = compose_record_mail(
        record,
        key,
        settings.bot.address,
        settings.bot.name,
        settings.bot.list_address,
        services=app.services,
    )
    with app.session_factory.begin() as session:
        ingest(session, raw, ADMIN_SOURCE, at)
    return message_id


def wait_until_judged(app: App, message_id: str, seconds: float) -> tuple[str, str] | None:
    """(status, reason) of the message once it is judged; None if still queued after ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        with app.session_factory() as session:
            # A refused record is kept under a marked key (bot.ingress.ingest).
            query = select(Message).where(Message.message_id.startswith(message_id))
            for stored in session.scalars(query):
                if post_message_id(stored.message_id) == message_id and stored.status != "queued":
                    return stored.status, stored.status_reason
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.2)
