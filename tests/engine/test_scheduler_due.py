"""The scheduler passes over a timed event until its next due instant, and loses none.

``TimedEvent.next_due`` lets the scheduler skip a handler over the pieces
of an advance that end before the instant the handler next has something
to do (``bot.engine.timed``).  These tests pin what that may change:
nothing.  The governance nweek of ``bot.testing.governance_week`` (proposals,
the Ballot, a CFI, an Election, the digests, the stop for the GM's
recognizer) is replayed twice, with the next due instants and with every
handler run over every piece as before, and followed by a quiet month so
that the calendar's events (nweek starts, Checkpoints, Rotations, dice
seeds, Bandwidth) fall in long gaps: the two give the same mails, byte for
byte, the same ledger and the same state.  The other tests pin the
scheduler's side: which pieces a handler runs over, and that a handler's
writes make every answer be asked again.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, select
from sqlalchemy.orm import Session

from bot import runner
from bot.app import App
from bot.config import MinistryEntry
from bot.engine import scheduler, timed
from bot.engine.game import TimedEvent, rule
from bot.engine.services import Services
from bot.outbound.transports import MaildirTransport
from bot.runner import advance_to, replay_archive
from bot.store.models import ClockMark, DiceSeed, LedgerEntry, OutboxMessage, PollRow, RuleChange
from bot.testing.go_game import EPOCH
from bot.testing.governance_week import (
    BALLOT_CLOSES,
    END,
    MINISTRIES,
    week_app,
    week_posts,
    week_state,
    write_week_mbox,
)

QUIET_MONTH = END + timedelta(days=31, hours=5)  # three nweeks and more, no post
ADMIN_RECORD = "admin-record"
POLLS = frozenset({PollRow.__tablename__})
SEEDS = frozenset({DiceSeed.__tablename__})


# With a GM, the Clock stops at the nweek's end and waits for eir recognizer
# (rule 23): the quiet month passes with the Clock stopped.
WITH_GM = {"ministries": (*MINISTRIES, MinistryEntry("Ministry of the Rules", "Bob"))}


def replayed_week(folder: Path, **sections: Any) -> dict[str, Any]:
    """The governance nweek replayed from its archive and a quiet month after it."""
    app = week_app(folder / "bot", **sections)
    try:
        advance_to(app, EPOCH)
        archive = write_week_mbox(folder / "week.mbox", week_posts())
        replay_archive(app, archive, MaildirTransport(folder / "out"), until=END)
        advance_to(app, QUIET_MONTH)
        with app.session_factory() as session:
            mails = session.execute(
                select(OutboxMessage.message_id, OutboxMessage.kind, OutboxMessage.raw).order_by(
                    OutboxMessage.id
                )
            ).all()
            ledger = session.execute(
                select(
                    LedgerEntry.player_id,
                    LedgerEntry.currency,
                    LedgerEntry.amount,
                    LedgerEntry.occurred_at,
                    LedgerEntry.note,
                    LedgerEntry.rule,
                ).order_by(LedgerEntry.id)
            ).all()
            stops = session.execute(
                select(RuleChange.setting, RuleChange.effective_at, RuleChange.value).order_by(
                    RuleChange.id
                )
            ).all()
        return {
            # An admin record (a private vote's commitment, rule 15 B) is signed
            # with the wall clock and salted at random: its Message-ID alone.
            "mails": [
                (message_id, kind, b"" if kind == ADMIN_RECORD else raw)
                for message_id, kind, raw in mails
            ],
            "ledger": [tuple(row) for row in ledger],
            "rule changes": [tuple(row) for row in stops],
            "state": week_state(app),
        }
    finally:
        app.dispose()


def every_handler_every_time(services: Services) -> tuple[TimedEvent, ...]:
    """The events as the scheduler ran them before they could say when they are due."""
    return tuple(
        replace(event, next_due=None)
        for event in sorted((*scheduler.OWN_EVENTS, *services.timed_events()), key=TimedEvent.order)
    )


@pytest.mark.parametrize("gm", [False, True], ids=["without-gm", "with-gm"])
def test_the_governance_nweek_and_a_quiet_month_are_judged_as_when_every_handler_ran_every_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, gm: bool
) -> None:
    sections = WITH_GM if gm else {}
    skipping = replayed_week(tmp_path / "skipping", **sections)
    with monkeypatch.context() as patch:
        patch.setattr(scheduler, "timed_events", every_handler_every_time)
        running_all = replayed_week(tmp_path / "running-all", **sections)
    kinds = [kind for _, kind, _ in skipping["mails"]]
    assert {"ballot", "ballot-results", "cfi-ruling", "digest"} <= set(kinds)
    if gm:  # the Clock waits for the GM from the end of nweek 1 on
        assert kinds.count("clock-stop") == 1 and kinds.count("dice-commitment") == 2
    else:  # the month's calendar happened: nweeks 2 to 5 began, with their seeds
        assert kinds.count("dice-commitment") == 5 and kinds.count("dice-reveal") == 4
    assert skipping == running_all


# -- the scheduler's side, with a toy event ---------------------------------------------------

DAY = timedelta(days=1)


class Recorder:
    """A toy event: records the pieces its handler ran over and the questions it was asked."""

    def __init__(self, due: datetime | None, writes: bool = False) -> None:
        self.due = due
        self.writes = writes
        self.pieces: list[tuple[datetime, datetime]] = []
        self.asked = 0

    def handler(
        self, session: Session, services: Services, after: datetime, until: datetime
    ) -> None:
        self.pieces.append((after, until))
        if self.writes:  # any row will do: the seed of an nweek far beyond the test's
            session.add(DiceSeed(nweek=1000 + len(self.pieces), commitment="toy"))

    def next_due(self, session: Session, services: Services, after: datetime) -> datetime | None:
        self.asked += 1
        return self.due


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    built = week_app(tmp_path / "bot")
    advance_to(built, EPOCH + timedelta(hours=1))
    yield built
    built.dispose()


def with_toy_events(monkeypatch: pytest.MonkeyPatch, *events: TimedEvent) -> None:
    monkeypatch.setattr(scheduler, "timed_events", lambda services: events)


def advance(app: App, until: datetime) -> None:
    with app.session_factory() as session, session.begin():
        scheduler.advance_clock(session, app.services, until)


def test_a_handler_runs_from_the_piece_that_holds_its_due_instant_on(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    start = EPOCH + timedelta(hours=1)
    due = EPOCH + 2 * DAY + timedelta(hours=6)  # in the third piece
    skipping, never_due, always = Recorder(due), Recorder(None), Recorder(due)
    with_toy_events(
        monkeypatch,
        TimedEvent(skipping.handler, rule(9), next_due=skipping.next_due),
        TimedEvent(never_due.handler, rule(10), next_due=never_due.next_due),
        TimedEvent(always.handler, rule(11)),  # it cannot say: every piece
    )
    advance(app, EPOCH + 4 * DAY + timedelta(hours=1))
    pieces = list(scheduler.pieces_between(start, EPOCH + 4 * DAY + timedelta(hours=1)))
    assert len(pieces) == 5
    assert always.pieces == pieces
    # Overdue work stays due: the handler runs over every later piece until it is done.
    assert skipping.pieces == pieces[2:]
    assert never_due.pieces == []
    # Nothing was written: an answer holds for the whole advance, but for the
    # one a run used up (asked again before each of the two later pieces).
    assert (never_due.asked, skipping.asked) == (1, 3)


def test_a_handler_that_writes_makes_the_scheduler_ask_again(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    writer = Recorder(EPOCH + DAY + timedelta(hours=6), writes=True)
    quiet = Recorder(None)
    with_toy_events(
        monkeypatch,
        TimedEvent(writer.handler, rule(9), next_due=writer.next_due),
        TimedEvent(quiet.handler, rule(10), next_due=quiet.next_due),
    )
    advance(app, EPOCH + 3 * DAY + timedelta(hours=1))
    assert len(writer.pieces) == 3  # the second, third and fourth pieces
    # The event after the writer is asked at the start, then again after each
    # of the writer's three runs; the writer itself before each of its runs
    # but the first, whose answer from the start still held.
    assert quiet.asked == 4 and writer.asked == 3


def test_a_new_post_is_never_judged_on_the_answers_of_the_last(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    later = Recorder(None)
    with_toy_events(monkeypatch, TimedEvent(later.handler, rule(9), next_due=later.next_due))
    advance(app, EPOCH + DAY)
    later.due = EPOCH + DAY + timedelta(hours=3)  # as if the post before had set a deadline
    advance(app, EPOCH + DAY + timedelta(hours=4))
    assert later.pieces == [(EPOCH + DAY, EPOCH + DAY + timedelta(hours=4))]
    assert later.asked == 2


def test_the_calendar_helpers_give_the_next_midnight_checkpoint_and_nweek_start(app: App) -> None:
    services = app.services
    with app.session_factory() as session:
        after = EPOCH + timedelta(hours=5)
        assert timed.next_midnight(after) == EPOCH + DAY
        assert timed.next_midnight(EPOCH + DAY) == EPOCH + 2 * DAY
        checkpoint = timed.next_checkpoint(session, services, after)
        assert checkpoint == services.clock.checkpoints_between(after, after + 20 * DAY)[0].instant
        start = timed.next_nweek_start(session, services, after)
        [first_change, *_] = services.clock.nweek_changes_between(after, after + 30 * DAY)
        assert start == first_change.instant
        assert timed.next_nweek_start(session, services, first_change.instant) == (
            services.clock.nweek_changes_between(first_change.instant, after + 40 * DAY)[0].instant
        )
        assert timed.earliest(None, start, checkpoint) == min(start, checkpoint)
        assert timed.earliest(None, None) is None


def test_a_next_due_function_that_raises_lets_its_handler_run_and_be_shunted(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken_next_due(session: Session, services: Services, after: datetime) -> datetime | None:
        raise ValueError("a stored state that cannot be decoded")

    def handler(session: Session, services: Services, after: datetime, until: datetime) -> None:
        raise ValueError("a stored state that cannot be decoded")

    with_toy_events(monkeypatch, TimedEvent(handler, rule(9), next_due=broken_next_due))
    with pytest.raises(scheduler.TimedEventFailed) as failed:
        advance(app, EPOCH + DAY + timedelta(hours=1))
    # The event is the one to shunt, over its first piece, as when it could not say.
    assert failed.value.handler == scheduler.handler_name(handler)
    assert (failed.value.after, failed.value.until) == (EPOCH + timedelta(hours=1), EPOCH + DAY)


# -- a replay's batch: the answers kept between posts, as long as what they read is -----------


def judged_in_one_transaction(
    app: App, instants: list[datetime], post: Callable[[Session, int], None]
) -> list[datetime]:
    """Advance to each instant in one transaction, as a batch does, with ``post(session,
    index)`` written between; the mark as the session found it after each advance."""
    marks = []
    with (
        app.session_factory() as session,
        session.begin(),
        scheduler.ClockMemory(session) as memory,
    ):
        for index, instant in enumerate(instants):
            scheduler.advance_clock(session, app.services, instant, memory=memory)
            post(session, index)
            mark = session.get(ClockMark, scheduler.CLOCK_MARK_ID)
            assert mark is not None
            marks.append(mark.handled_until)
            session.flush()
            session.expunge_all()
    return marks


def a_seed(session: Session, index: int) -> None:
    """What a post writes here: any row; a seed far beyond the test's nweeks."""
    session.add(DiceSeed(nweek=2000 + index, commitment="toy"))


def test_a_batch_asks_again_only_the_answers_read_from_what_a_post_wrote(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    polls, seeds, unknown = Recorder(None), Recorder(None), Recorder(None)
    with_toy_events(
        monkeypatch,
        TimedEvent(polls.handler, rule(9), next_due=polls.next_due, next_due_reads=POLLS),
        TimedEvent(seeds.handler, rule(10), next_due=seeds.next_due, next_due_reads=SEEDS),
        TimedEvent(unknown.handler, rule(11), next_due=unknown.next_due),
    )
    instants = [EPOCH + timedelta(hours=hour) for hour in (2, 3, 4, 5)]
    assert judged_in_one_transaction(app, instants, a_seed) == instants
    # Each post wrote a seed: the answer read from the seeds is asked again
    # before each post, as is the one that does not say what it reads.
    assert (polls.asked, seeds.asked, unknown.asked) == (1, 4, 4)
    assert polls.pieces == seeds.pieces == unknown.pieces == []


def test_a_deadline_a_post_sets_in_a_batch_is_met_before_the_next_post(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    deadline = Recorder(None)
    with_toy_events(
        monkeypatch,
        TimedEvent(deadline.handler, rule(9), next_due=deadline.next_due, next_due_reads=SEEDS),
    )
    due = EPOCH + timedelta(hours=3, minutes=30)

    def sets_a_deadline(session: Session, index: int) -> None:
        if index == 1:  # the second post sets a deadline, written where it is read from
            deadline.due = due
            a_seed(session, index)

    instants = [EPOCH + timedelta(hours=hour) for hour in (2, 3, 4, 5)]
    judged_in_one_transaction(app, instants, sets_a_deadline)
    # Handled from the piece before the third post on (the toy's work stays
    # overdue); asked at the first post, after the post that wrote, and after
    # its first run, which used the answer up.
    assert deadline.pieces == [(instants[1], instants[2]), (instants[2], instants[3])]
    assert deadline.asked == 3


def test_a_batch_writes_the_mark_once_and_its_posts_read_it_as_advanced(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    with_toy_events(monkeypatch)
    updates: list[str] = []

    def count(connection: object, cursor: object, statement: str, *rest: object) -> None:
        if statement.startswith("UPDATE clock_mark"):
            updates.append(statement)

    instants = [EPOCH + timedelta(hours=hour) for hour in (2, 3, 4, 5)]
    event.listen(app.engine, "before_cursor_execute", count)
    try:
        marks = judged_in_one_transaction(app, instants, lambda session, index: None)
    finally:
        event.remove(app.engine, "before_cursor_execute", count)
    assert marks == instants
    assert len(updates) == 1
    with app.session_factory() as session:
        mark = session.get(ClockMark, scheduler.CLOCK_MARK_ID)
        assert mark is not None and mark.handled_until == instants[-1]


def test_the_governance_nweek_is_judged_in_batches_as_one_post_per_transaction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    batched = replayed_week(tmp_path / "batched")
    with monkeypatch.context() as patch:
        patch.setattr(runner, "REPLAY_BATCH", 1)
        one_by_one = replayed_week(tmp_path / "one-by-one")
    assert batched == one_by_one


# The tables a SELECT reads: after FROM or JOIN, names quoted or not.
READ_TABLE = re.compile(r'\b(?:FROM|JOIN)\s+"?([A-Za-z_]\w*)"?', re.IGNORECASE)


def test_each_declared_next_due_reads_only_the_tables_it_names(tmp_path: Path) -> None:
    """A batch keeps an answer until a table it names is written: it must name them all."""
    app = week_app(tmp_path / "bot")
    try:
        advance_to(app, EPOCH)
        posts = tuple(post for post in week_posts() if post.at < BALLOT_CLOSES)
        archive = write_week_mbox(tmp_path / "week.mbox", posts)
        replay_archive(app, archive, MaildirTransport(tmp_path / "out"), until=posts[-1].at)
        read: dict[str, set[str]] = {}
        with app.session_factory() as session:
            for timed_event in scheduler.timed_events(app.services):
                declared = scheduler.answer_reads(timed_event)
                if declared is None or timed_event.next_due is None:
                    continue
                tables = read.setdefault(scheduler.handler_name(timed_event.handler), set())
                with tables_read(session, tables):
                    timed_event.next_due(session, app.services, posts[-1].at)
                assert tables <= declared, scheduler.handler_name(timed_event.handler)
        # Not vacuous: the open polls and Elections were read, by the events that name them.
        assert {"poll", "election"} <= set().union(*read.values())
    finally:
        app.dispose()


@contextmanager
def tables_read(session: Session, tables: set[str]) -> Iterator[None]:
    def record(connection: object, cursor: object, statement: str, *rest: object) -> None:
        tables.update(name.lower() for name in READ_TABLE.findall(statement))

    connection = session.connection()
    event.listen(connection, "before_cursor_execute", record)
    try:
        yield
    finally:
        event.remove(connection, "before_cursor_execute", record)
