"""Time-driven events: what happens at nweek boundaries (rule 3 of seed 004).

The scheduler is driven by the instants of the posts themselves (and by the
wall clock in the daemon), so a replayed archive sees every event at the
same point between the same two posts as the live game did.

At the start of each nweek the bot publishes a SHA-256 commitment to that
nweek's dice seed; when the nweek ends it reveals the seed (rule 9), so
anyone can re-derive every roll from the archive.

Every event is a *timed handler* run over an interval ``(after, until]``
(``bot.engine.timed``): the ntime events here (Go's Checkpoint and nweek
endings, the dice seeds) and the game handlers of ``timed.handlers()``.  A
handler that raises does not stop the others or the posts behind it:
``advance_clock`` raises ``TimedEventFailed`` naming it, and the caller
(``bot.engine.event_shunts.settle_events``) rolls back, runs the interval
again without that handler, and records it as a shunted event.

Before the ntime epoch the game has not begun: nothing is due, and the
first instant handled is at or after the epoch.
"""

from __future__ import annotations

import traceback
from collections.abc import Iterator
from datetime import UTC, datetime, time, timedelta

from sqlalchemy.orm import Session

from bot.engine import timed
from bot.engine.bandwidth import grant_starting_bandwidth
from bot.engine.services import Services
from bot.games import dice, go
from bot.outbound.compose import compose_report
from bot.store.errors import is_system_defect, is_transient, summary
from bot.store.models import ClockMark, DiceSeed

CLOCK_MARK_ID = 1

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
    session: Session, services: Services, until: datetime, skip: frozenset[EventKey] = frozenset()
) -> None:
    """Handle every event due after the last handled instant, up to ``until``.

    Events named in ``skip`` are passed over (they were shunted).

    Raises:
        TimedEventFailed: a handler raised; nothing of this call may be committed.
        sqlalchemy errors that ``bot.store.errors`` calls transient or a
            system defect, unchanged: they are no event's fault.
    """
    # Once per unit of work: the Clock switches and settings recorded so far
    # (bot.engine.rule_changes), so the Clock reads the same as in a replay.
    services.rules.refresh(session)
    if until < services.clock.epoch:
        return  # the game has not begun: nothing is due yet
    # FOR UPDATE (PostgreSQL): a second writer waits here instead of
    # handling the same events twice.
    mark = session.get(ClockMark, CLOCK_MARK_ID, with_for_update=True)
    if mark is None:
        session.add(ClockMark(id=CLOCK_MARK_ID, handled_until=until))
        for handler in FIRST_INSTANT_HANDLERS:
            _run(handler, session, services, (until, until), until, skip)
        return
    if until <= mark.handled_until:
        return
    # The interval is cut at every 00:00 UTC and handled piece by piece, so
    # what happens at a midnight (ntime events, rule 3 A; digests) sees the
    # game as it stood then, not as later pieces of a long gap leave it.
    for piece in pieces_between(mark.handled_until, until):
        ntime = NTIME_HANDLERS if _midnight_between(*piece) else ()
        for handler in (*ntime, *timed.handlers()):
            _run(handler, session, services, piece, until, skip)
    mark.handled_until = until


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


def all_handlers() -> dict[str, timed.TimedHandler]:
    """Every timed handler by its recorded name (to run a shunted event again)."""
    handlers = (*FIRST_INSTANT_HANDLERS, *NTIME_HANDLERS, *timed.handlers())
    return {handler_name(handler): handler for handler in handlers}


def open_current_nweek(
    session: Session, services: Services, after: datetime, until: datetime
) -> None:
    """The scheduler's first instant: publish the commitment of the nweek in progress."""
    open_nweek(session, services, services.clock.reading(until).nweek, until)


def end_finished_go_games(
    session: Session, services: Services, after: datetime, until: datetime
) -> None:
    """Rule 1639 F and G at each Checkpoint in ``(after, until]``."""
    for checkpoint in services.clock.checkpoints_between(after, until):
        end_finished_go_game(session, services, checkpoint.ending.index, checkpoint.instant)


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


def end_quiet_go_games(
    session: Session, services: Services, after: datetime, until: datetime
) -> None:
    """A Nomic rule 365 at each nweek that began in ``(after, until]``."""
    for change in services.clock.nweek_changes_between(after, until):
        end_quiet_go_game(session, services, change.begun, change.instant)


def end_finished_go_game(session: Session, services: Services, period: int, at: datetime) -> None:
    """B Nomic rule 1639 F and G: end, score and reset the game at a Checkpoint."""
    if services.settings.go.rules != "B":
        return
    from bot.engine.games.go import GoAdapter, describe_score

    adapter = GoAdapter(session, services.at(at).settings.go.board_size)
    before = adapter.state
    if not go.game_should_end(before, period):
        return
    result = adapter.end_game(at)
    session.add(
        compose_report(
            services,
            "go-end",
            f"period-{period}",
            "[go] The game of Political Go ended (rule 1639 F)",
            "go/end.txt.j2",
            {"report": describe_score(before, result), "draws": [], "context": "", "nweek": 0},
            at,
        )
    )


def end_quiet_go_game(session: Session, services: Services, nweek: int, at: datetime) -> None:
    """A Nomic rule 365: a game ends when a whole nweek passed with no stone placed."""
    if services.settings.go.rules != "A":
        return
    from bot.engine.games.go_anomic import AnomicGoAdapter, describe_end

    adapter = AnomicGoAdapter(session, services.at(at))  # the numbers in force then
    before = adapter.state
    seed = dice.nweek_seed(services.master_secret, nweek)
    result = adapter.at_nweek_start(nweek, at, seed)
    if result is None:
        return
    adapter.save()
    draws = [draw.describe() for draw in adapter.last_draws]
    session.add(
        compose_report(
            services,
            "go-end",
            f"{nweek}-{before.game_number}",
            f"[go] Game {before.game_number} of Political Go ended",
            "go/end.txt.j2",
            {
                "report": describe_end(result, before),
                "draws": draws,
                "context": f"nweek-{nweek}-go-end",
                "nweek": nweek + 1,
            },
            at,
        )
    )


def open_nweek(session: Session, services: Services, nweek: int, at: datetime) -> None:
    """Publish the commitment to ``nweek``'s dice seed (once)."""
    if session.get(DiceSeed, nweek) is not None:
        return
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

# The ntime events, run only on an interval holding a midnight, before the
# game handlers and in this order (a piece holds at most one midnight).
NTIME_HANDLERS: tuple[timed.TimedHandler, ...] = (
    end_finished_go_games,
    reveal_ended_nweeks,
    open_begun_nweeks,
    end_quiet_go_games,
)
