"""Time-driven events: what happens at nweek boundaries (rule 3 of seed 004).

The scheduler is driven by the instants of the posts themselves (and by the
wall clock in the daemon), so a replayed archive sees every event at the
same point between the same two posts as the live game did.

At the start of each nweek the bot publishes a SHA-256 commitment to that
nweek's dice seed; when the nweek ends it reveals the seed (rule 9), so
anyone can re-derive every roll from the archive.

Every event is a *timed handler* run over an interval ``(after, until]``
(``bot.engine.timed``): the dice seeds and Bandwidth here, and the timed
events each enabled game declares (``bot.engine.game.TimedEvent``).  They
run in the order of rule 3 C: "When multiple rules specify that an event
takes place at a certain time [...], those events occur in order of rule
precedence", which rule 33 fixes by Chutzpah, then the lower rule number
(``bot.games.precedence``); the Ministers' digests last, since they report
what the others did.  An event that says when it is next due
(``TimedEvent.next_due``) is passed over for the pieces before that
instant (``DueInstants``).  A handler that raises does not stop the others
or the posts behind it: ``advance_clock`` raises ``TimedEventFailed``
naming it, and the caller (``bot.engine.event_shunts.settle_events``) rolls
back, runs the interval again without that handler, and records it as a
shunted event.

Before the ntime epoch the game has not begun: nothing is due, and the
first instant handled is at or after the epoch.
"""

from __future__ import annotations

import re
import traceback
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime, time, timedelta

from sqlalchemy import Connection, event
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import flag_modified, set_committed_value

from bot.engine import timed
from bot.engine.bandwidth import grant_starting_bandwidth, reset_bandwidth
from bot.engine.game import TimedEvent, rule
from bot.engine.services import Services
from bot.games import dice
from bot.outbound.compose import compose_report
from bot.store.errors import is_system_defect, is_transient, summary
from bot.store.models import ClockMark, DiceSeed, RuleChange

CLOCK_MARK_ID = 1
RULE_CHANGE_TABLE = RuleChange.__tablename__

# (handler name, end of the interval it was run over): events not to run.
EventKey = tuple[str, datetime]


class TimedEventFailed(Exception):
    """A timed handler raised over ``(after, until]``; the session must be rolled back.

    ``advancing_to`` is the instant the scheduler was asked to reach.
    """

    def __init__(
        self,
        handler: str,
        piece: tuple[datetime, datetime],
        advancing_to: datetime,
        error: BaseException,
    ) -> None:
        super().__init__(f"timed event {handler} over ({piece[0]}, {piece[1]}] raised")
        self.handler = handler
        self.after, self.until = piece
        self.advancing_to = advancing_to
        self.error = summary(error)
        self.traceback = "".join(traceback.format_exception(error))

    @property
    def key(self) -> EventKey:
        return (self.handler, self.until)


def advance_clock(
    session: Session,
    services: Services,
    until: datetime,
    skip: frozenset[EventKey] = frozenset(),
    memory: ClockMemory | None = None,
) -> None:
    """Handle every event due after the last handled instant, up to ``until``.

    Events named in ``skip`` are passed over (they were shunted).  With
    ``memory`` (the posts of one transaction, ``ClockMemory``), what was
    read for the posts before is used again where nothing written since
    can have changed it.

    Raises:
        TimedEventFailed: a handler raised; nothing of this call may be committed.
        sqlalchemy errors that ``bot.store.errors`` calls transient or a
            system defect, unchanged: they are no event's fault.
    """
    # Once per unit of work: the Clock switches and settings recorded so far
    # (bot.engine.rule_changes), so the Clock reads the same as in a replay.
    if memory is not None:
        # Before anything reads it: the session's look-ups of the mark must
        # find the instant handled so far, which only this object holds.
        memory.attach_mark(session)
    if memory is None or memory.rules_may_have_changed():
        services.rules.refresh(session)
    if until < services.clock.epoch:
        return  # the game has not begun: nothing is due yet
    mark = memory.mark(session) if memory is not None else _read_mark(session)
    if mark is None:
        session.add(ClockMark(id=CLOCK_MARK_ID, handled_until=until))
        for handler in FIRST_INSTANT_HANDLERS:
            _run(handler, session, services, (until, until), until, skip)
        return
    if until <= mark.handled_until:
        return
    if memory is None:
        with WriteWatch(session) as writes:
            _handle_pieces(session, services, (mark.handled_until, until), skip, writes, None)
    else:
        _handle_pieces(session, services, (mark.handled_until, until), skip, memory.writes, memory)
        memory.move_mark(until)
        return
    mark.handled_until = until


def _read_mark(session: Session) -> ClockMark | None:
    # FOR UPDATE (PostgreSQL): a second writer waits here instead of
    # handling the same events twice.
    return session.get(ClockMark, CLOCK_MARK_ID, with_for_update=True)


def _handle_pieces(
    session: Session,
    services: Services,
    interval: tuple[datetime, datetime],
    skip: frozenset[EventKey],
    writes: WriteWatch,
    memory: ClockMemory | None,
) -> None:
    """Run the events due over ``interval``, cut at each midnight.

    The interval is cut at every 00:00 UTC and handled piece by piece, so
    what happens at a midnight (ntime events, rule 3 A; digests) sees the
    game as it stood then, not as later pieces of a long gap leave it.
    """
    events = timed_events(services) if memory is None else memory.events(services)
    due = DueInstants(session, services) if memory is None else memory.due_instants(services)
    for piece in pieces_between(*interval):
        midnight = _midnight_between(*piece)
        for timed_event in events:
            if not midnight and timed_event.at_midnight:
                continue
            if due.falls_in(timed_event, piece):
                _run(timed_event.handler, session, services, piece, interval[1], skip)
                due.forget(everything=writes.changed_since_asked(), event=timed_event)


class DueInstants:
    """When each event next has something to do, asked once per state of the game.

    An answer holds only while the stored state stays as it was asked of:
    each handler that runs may create what falls due later in the same
    advance (a Ballot's polls, an Election's next phase), so every answer is
    forgotten then; the answer of a handler that ran is used up, so its own
    is forgotten even when it wrote nothing.  It is kept beyond one
    ``advance_clock`` only by a ``ClockMemory``, which forgets the answers
    read from what the posts judged since have written.
    """

    def __init__(self, session: Session, services: Services) -> None:
        self.session = session
        self.services = services
        self.known: dict[int, datetime | None] = {}

    def falls_in(self, event: TimedEvent, piece: tuple[datetime, datetime]) -> bool:
        """Whether ``event`` may have something to do over ``piece`` (``(after, until]``)."""
        if event.next_due is None:
            return True  # it cannot say: it runs over every piece
        key = id(event)
        if key not in self.known:
            # Asked at the piece's start: an answer beyond this piece stays
            # right for the pieces after it while the state is unchanged.
            self.known[key] = self._ask(event, piece[0])
        instant = self.known[key]
        return instant is not None and instant <= piece[1]

    def _ask(self, event: TimedEvent, after: datetime) -> datetime | None:
        assert event.next_due is not None
        try:
            return event.next_due(self.session, self.services, after)
        except Exception as error:
            if is_transient(error) or is_system_defect(error):
                raise
            # A defect in what the handler reads (a stored state it cannot
            # decode): the handler runs, meets it, and is shunted with its
            # traceback as before, instead of the post failing here.
            return after

    def forget(self, everything: bool, event: TimedEvent) -> None:
        """After ``event`` ran: its own answer is used up; every answer if it wrote."""
        if everything:
            self.known.clear()
        else:
            self.known.pop(id(event), None)

    def forget_read_from(self, tables: frozenset[str] | None, events: Iterable[TimedEvent]) -> None:
        """Forget the answers of ``events`` read from ``tables`` (None: every answer)."""
        if tables is None:
            self.known.clear()
            return
        for timed_event in events:
            reads = answer_reads(timed_event)
            if reads is None or not reads.isdisjoint(tables):
                self.known.pop(id(timed_event), None)


def answer_reads(event: TimedEvent) -> frozenset[str] | None:
    """The tables ``event``'s next due answer is read from; None when unknown.

    The calendar's instants (``bot.engine.timed``) are read from the Clock
    alone.
    """
    if event.next_due in CALENDAR_ANSWERS:
        return frozenset()
    return event.next_due_reads


class WriteWatch:
    """Whether the session wrote anything since last asked, and to which tables.

    A write is a statement other than a read on the session's connection
    (a flush, or a bulk ``delete``), or objects added, changed or deleted
    and not flushed yet.  A handler that wrote nothing left every deadline
    as it was, so the answers of ``DueInstants`` still hold after it (a
    digest's hour that found no Minister, a Checkpoint with nothing to end).
    """

    def __init__(self, session: Session) -> None:
        self.session = session
        self.connection = session.connection()
        self.writes = 0
        # The tables written since last taken; None once a statement wrote
        # where its text does not say (a rollback to a savepoint, a pragma).
        self.tables: set[str] | None = set()

    def __enter__(self) -> WriteWatch:
        event.listen(self.connection, "before_cursor_execute", self._count)
        return self

    def __exit__(self, *exception: object) -> None:
        event.remove(self.connection, "before_cursor_execute", self._count)

    def _count(self, connection: Connection, cursor: object, statement: str, *rest: object) -> None:
        if statement.startswith("SELECT"):
            return  # most statements, as SQLAlchemy writes them: no need to look closer
        text = statement.lstrip()
        verb = text[:9].upper()
        if verb.startswith("SELECT"):
            return
        self.writes += 1
        if self.tables is None or verb.startswith(("SAVEPOINT", "RELEASE")):
            return  # a savepoint is begun or kept: nothing is written by it
        written = _WRITTEN_TABLE.match(text)
        if written is None:
            self.tables = None
        else:
            self.tables.add(written.group(1).lower())

    def changed_since_asked(self) -> bool:
        session = self.session
        changed = bool(self.writes or session.new or session.dirty or session.deleted)
        self.writes = 0
        return changed

    def take_tables(self) -> frozenset[str] | None:
        """The tables written since last taken (None: unknown, any may be)."""
        session = self.session
        tables = self.tables
        self.tables = set()
        self.writes = 0
        if tables is None or session.new or session.dirty or session.deleted:
            return None  # not flushed yet: where it will be written is not known here
        return frozenset(tables)


# INSERT INTO t, INSERT OR IGNORE INTO t, UPDATE t, DELETE FROM t (names quoted or not).
_WRITTEN_TABLE = re.compile(
    r'(?:INSERT\s+(?:OR\s+\w+\s+)?INTO|UPDATE|DELETE\s+FROM)\s+"?([A-Za-z_]\w*)"?(?:\s|\(|$)',
    re.IGNORECASE,
)


class ClockMemory:
    """What ``advance_clock`` keeps between the posts judged in one transaction.

    A replay judges many posts per transaction (``bot.engine.worker.process_batch``).
    Between two of them, the scheduler would read again the Clock's mark,
    the recorded rule changes and each event's next due instant, although a
    post rarely changes any of them.  This keeps:

    * the mark (``ClockMark``), read and locked once for the transaction,
      and written once, when the transaction ends: in between, the instant
      handled is kept on the object as if written (the session's reads of
      it, ``session.get``, find it there), not UPDATEd after every post;
    * the rule changes, read again only after a statement wrote to
      ``rule_change`` (or one the watch cannot place), as a rule change or a
      Clock stop does;
    * the next due answers (``DueInstants``), each forgotten once a table
      it is read from (``TimedEvent.next_due_reads``) was written, every one
      when the Clock or the settings changed, and those of events that do
      not say what they read before every post.

    So every event is still found due between the same two posts as with
    one transaction per post: an answer is used again only while what it
    was read from is unchanged.  Live, each post has a transaction of its
    own and nothing is kept.
    """

    def __init__(self, session: Session) -> None:
        self.session = session
        self.writes = WriteWatch(session)
        self._mark: ClockMark | None = None
        self._due: DueInstants | None = None
        self._read_with: tuple[object, object] | None = None
        self._rules_read = False
        self._mark_moved = False
        self._events: tuple[TimedEvent, ...] | None = None

    def __enter__(self) -> ClockMemory:
        self.writes.__enter__()
        return self

    def __exit__(self, error_type: type[BaseException] | None, *exception: object) -> None:
        self.writes.__exit__(error_type, *exception)
        if error_type is None:
            self._write_mark()

    def move_mark(self, until: datetime) -> None:
        """The events are handled up to ``until``: written with the transaction's end."""
        assert self._mark is not None
        set_committed_value(self._mark, "handled_until", until)
        self._mark_moved = True

    def _write_mark(self) -> None:
        if self._mark is None or not self._mark_moved:
            return
        self.attach_mark(self.session)
        flag_modified(self._mark, "handled_until")  # flushed by the COMMIT that follows
        self._mark_moved = False

    def rules_may_have_changed(self) -> bool:
        """Whether the rule changes must be read again (True at first)."""
        if not self._rules_read:
            self._rules_read = True
            return True
        tables = self.writes.tables
        return tables is None or RULE_CHANGE_TABLE in tables

    def attach_mark(self, session: Session) -> None:
        """Attach the mark again after the session let it go (between two posts)."""
        if self._mark is not None and self._mark not in session:
            session.add(self._mark)  # this transaction alone writes it

    def mark(self, session: Session) -> ClockMark | None:
        """The Clock's mark, read once for the transaction."""
        if self._mark is None:
            self._mark = _read_mark(session)
        return self._mark

    def events(self, services: Services) -> tuple[TimedEvent, ...]:
        """``timed_events``, sorted once for the transaction (the enabled games are fixed)."""
        if self._events is None:
            self._events = timed_events(services)
        return self._events

    def due_instants(self, services: Services) -> DueInstants:
        """The answers still right after what the posts since the last advance wrote."""
        written = self.writes.take_tables()
        read_with = (services.clock.config, services.rules.timeline)
        known = self._read_with
        if self._due is None:
            self._due = DueInstants(self.session, services)
        elif known is None or read_with[0] is not known[0] or read_with[1] is not known[1]:
            # The Clock or the settings changed: every answer may have.
            self._due.forget_read_from(None, ())
        else:
            self._due.forget_read_from(written, self.events(services))
        self._read_with = read_with
        return self._due


def timed_events(services: Services) -> tuple[TimedEvent, ...]:
    """The scheduler's own events and the enabled games', in the order of rule 3 C.

    The sort is stable: two events of one rule run in the order declared
    (rule 9's reveal of the ended nweek's seed before the new commitment).
    """
    return tuple(sorted((*OWN_EVENTS, *services.timed_events()), key=TimedEvent.order))


def pieces_between(after: datetime, until: datetime) -> Iterator[tuple[datetime, datetime]]:
    """``(after, until]`` cut at every 00:00 UTC in it, as consecutive intervals."""
    for piece_end in (*_midnights_between(after, until), until):
        if piece_end > after:
            yield after, piece_end
            after = piece_end


def _run(
    handler: timed.TimedHandler,
    session: Session,
    services: Services,
    piece: tuple[datetime, datetime],
    advancing_to: datetime,
    skip: frozenset[EventKey],
) -> None:
    name = handler_name(handler)
    if (name, piece[1]) in skip:
        return
    try:
        handler(session, services, *piece)
    except Exception as error:
        if is_transient(error) or is_system_defect(error):
            raise
        raise TimedEventFailed(name, piece, advancing_to, error) from error


def handler_name(handler: timed.TimedHandler) -> str:
    """The name an event is recorded under: ``module.function``."""
    return f"{handler.__module__}.{handler.__qualname__}"


def all_handlers(services: Services) -> dict[str, timed.TimedHandler]:
    """Every timed handler by its recorded name (to run a shunted event again)."""
    events = timed_events(services)
    handlers = (*FIRST_INSTANT_HANDLERS, *(event.handler for event in events))
    former = {name: event.handler for event in events for name in event.recorded_as}
    return former | {handler_name(handler): handler for handler in handlers}


def open_current_nweek(
    session: Session, services: Services, after: datetime, until: datetime
) -> None:
    """The scheduler's first instant: publish the commitment of the nweek in progress."""
    open_nweek(session, services, services.clock.reading(until).nweek, until)


def reveal_ended_nweeks(
    session: Session, services: Services, after: datetime, until: datetime
) -> None:
    """Rule 9: reveal the seed of each nweek that ended in ``(after, until]``."""
    for change in services.clock.nweek_changes_between(after, until):
        reveal_nweek(session, services, change.ended, change.instant)


def open_begun_nweeks(
    session: Session, services: Services, after: datetime, until: datetime
) -> None:
    """Rule 9: commit to the seed of each nweek that began in ``(after, until]``."""
    for change in services.clock.nweek_changes_between(after, until):
        open_nweek(session, services, change.begun, change.instant)


def open_nweek(session: Session, services: Services, nweek: int, at: datetime) -> None:
    """Publish the commitment to ``nweek``'s dice seed (once)."""
    opened: set[int] | None = session.info.get(OPENED_NWEEKS)
    if opened is not None and nweek in opened:
        return  # every draw asks first: a replay's batch reads each nweek's row once
    if session.get(DiceSeed, nweek) is None:
        seed = dice.nweek_seed(services.master_secret, nweek)
        commitment = dice.commitment(seed)
        session.add(DiceSeed(nweek=nweek, commitment=commitment))
        session.add(
            compose_report(
                services,
                "dice-commitment",
                f"{nweek}",
                f"[dice] Commitment for nweek {nweek + 1}",
                "dice/commitment.txt.j2",
                {"nweek": nweek + 1, "commitment": commitment},
                at,
            )
        )
    if opened is not None:
        opened.add(nweek)


# The key in ``Session.info`` of the nweeks whose commitment a session that
# remembers them (``remember_opened_nweeks``) found or added.
OPENED_NWEEKS = "opened-nweeks"


def remember_opened_nweeks(session: Session) -> None:
    """Let ``session`` remember which nweeks' commitments exist, until a rollback.

    For a replay's batch of posts, where every post that draws asks
    ``open_nweek`` for its nweek first.  A commitment row, once there, is
    never deleted; only a rollback (of the transaction or a SAVEPOINT) can
    take away one added since, so the memory is emptied then.
    """
    session.info[OPENED_NWEEKS] = set()
    event.listen(session, "after_soft_rollback", _forget_opened_nweeks)


def _forget_opened_nweeks(session: Session, _previous: object) -> None:
    session.info[OPENED_NWEEKS].clear()


def reveal_nweek(session: Session, services: Services, nweek: int, at: datetime) -> None:
    """Reveal the seed of an nweek that has ended (once)."""
    row = session.get(DiceSeed, nweek)
    if row is None or row.revealed_seed is not None:
        return
    seed = dice.nweek_seed(services.master_secret, nweek)
    row.revealed_seed = seed.hex()
    session.add(
        compose_report(
            services,
            "dice-reveal",
            f"{nweek}",
            f"[dice] Seed revealed for nweek {nweek + 1}",
            "dice/reveal.txt.j2",
            {"nweek": nweek + 1, "seed": seed.hex(), "commitment": row.commitment},
            at,
        )
    )


def _midnights_between(after: datetime, until: datetime) -> list[datetime]:
    """Every 00:00 UTC in (after, until], in order."""
    first = datetime.combine(after.astimezone(UTC).date(), time(), UTC) + timedelta(days=1)
    days = (until.astimezone(UTC) - first).days
    return [first + timedelta(days=day) for day in range(days + 1)] if first <= until else []


def _midnight_between(after: datetime, until: datetime) -> bool:
    """Whether a 00:00 UTC falls in (after, until]."""
    return after.astimezone(UTC).date() != until.astimezone(UTC).date()


# What the scheduler's first instant does, in this order: the nweek in
# progress is an nweek like any other (its dice commitment, rule 9; its
# Bandwidth, rule 212).
FIRST_INSTANT_HANDLERS: tuple[timed.TimedHandler, ...] = (
    open_current_nweek,
    grant_starting_bandwidth,
)

# The scheduler's own events: rule 9's dice seeds (every game's draws use
# them) and rule 212's Bandwidth.  The seeds change only at a midnight.
OWN_EVENTS: tuple[TimedEvent, ...] = (
    TimedEvent(reveal_ended_nweeks, rule(9), at_midnight=True, next_due=timed.next_nweek_start),
    TimedEvent(open_begun_nweeks, rule(9), at_midnight=True, next_due=timed.next_nweek_start),
    TimedEvent(reset_bandwidth, rule(212), next_due=timed.next_nweek_start),
)

# Next due functions that answer from the Clock alone (rule 3 A).
CALENDAR_ANSWERS: frozenset[object] = frozenset({timed.next_checkpoint, timed.next_nweek_start})
