"""Operations the command line and the daemon share: store, drain, replay."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import islice
from pathlib import Path
from typing import TypeVar

from tqdm import tqdm

from bot.app import App
from bot.engine.prepare import ParallelPipeline
from bot.engine.scheduler import advance_clock
from bot.engine.worker import QueueReport, process_queue
from bot.ingress.ingest import ArrivingPost, IngestResult, ingest, ingest_many
from bot.ingress.replay import archive_posts, count_posts
from bot.outbound.sender import DeliveryReport, deliver_pending
from bot.outbound.transports import Transport

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


def deliver(app: App, transport: Transport) -> DeliveryReport:
    return deliver_pending(
        app.session_factory, transport, app.settings.bot.address, app.settings.outbound.max_attempts
    )


def advance_to(app: App, instant: datetime) -> None:
    """Handle scheduled events (nweek boundaries) up to ``instant``."""
    with app.session_factory.begin() as session:
        advance_clock(session, app.services, instant)


@dataclass(frozen=True)
class ReplayReport:
    posts: int
    stored: int
    duplicates: int
    queue: QueueReport
    delivery: DeliveryReport


# Starting the preparing process costs about half a second, which only an
# archive of some hundreds of posts wins back (bench/pipeline.py).
PARALLEL_FROM = 500


def replay_archive(
    app: App,
    path: Path,
    transport: Transport,
    progress: bool = False,
    until: datetime | None = None,
) -> ReplayReport:
    """Store every post of the archive, process them in order, deliver the replies.

    ``until`` (default: now) is the instant scheduled events are handled up
    to after the last post, e.g. the reveal of the last nweek's dice seed.
    """
    total = count_posts(path)
    stored = duplicates = 0
    with tqdm(total=total, desc="storing", unit="post", disable=not progress) as bar:
        for batch in batched(archive_posts(path), STORE_BATCH):
            with app.session_factory.begin() as session:
                arriving = [ArrivingPost(post.raw, post.received_at) for post in batch]
                new = ingest_many(session, arriving, "replay")
            stored += new
            duplicates += len(batch) - new
            bar.update(len(batch))
    judging = tqdm(total=stored, desc="judging", unit="post", disable=not progress)
    with judging as bar:
        if stored < PARALLEL_FROM:
            queue = process_queue(app.session_factory, app.services, progress=bar.update)
        else:
            with ParallelPipeline(app.services.pipeline_settings) as pipeline:
                queue = process_queue(
                    app.session_factory, app.services, progress=bar.update, pipeline=pipeline
                )
    advance_to(app, until or datetime.now(UTC))
    delivery = deliver(app, transport)
    return ReplayReport(total, stored, duplicates, queue, delivery)
