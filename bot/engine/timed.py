"""Events due at instants the rules fix: deadlines, resets, rotations, digests.

The scheduler calls every timed handler on each advance of the clock, with
the interval ``(after, until]`` it covers.  A handler finds what fell due in
that interval (a poll's deadline, the start of an nweek, a digest's hour)
and acts on it once; because the interval is driven by the posts' own
instants, a replayed archive sees each event between the same two posts as
the live game did.  A handler must be cheap when nothing is due: without a
next due function (below) it runs before every post.

A game adds one as a ``bot.engine.game.TimedEvent`` in its declaration,
naming the rule that fixes the event's time: the scheduler runs the events
in the order of rule 3 C (``bot.engine.scheduler``).

A handler may come with a *next due* function: ``next_due(session,
services, after)`` answers, from the stored state alone, the earliest
instant at which the handler may have something to do over an interval
starting at or after ``after`` (an instant at or before ``after`` for work
already overdue), or None when it has nothing to do until the state
changes.  The scheduler skips the handler over every interval that ends
before that instant.  An answer earlier than needed only costs a run that
finds nothing; a later one would lose an event, so a next due function
mirrors the test its handler makes before it acts.  The helpers below
answer the calendar's instants (rule 3 A) without a query.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, time, timedelta
from typing import TYPE_CHECKING

from sqlalchemy.orm import Session

from bot.games import ntime

if TYPE_CHECKING:
    from bot.engine.services import Services

TimedHandler = Callable[[Session, "Services", datetime, datetime], None]
NextDue = Callable[[Session, "Services", datetime], datetime | None]


def next_midnight(after: datetime) -> datetime:
    """The first 00:00 UTC strictly after ``after``."""
    day = after.astimezone(UTC).date() + timedelta(days=1)
    return datetime.combine(day, time(), UTC)


def next_checkpoint(session: Session, services: Services, after: datetime) -> datetime | None:
    """The first Checkpoint after ``after`` (rule 3 A); None while the Clock stays Off."""
    checkpoint = ntime.next_checkpoint(services.clock.config, after)
    return checkpoint.instant if checkpoint is not None else None


def next_nweek_start(session: Session, services: Services, after: datetime) -> datetime | None:
    """The first start of an nweek after ``after`` (rule 3 A); None while the Clock stays Off."""
    return services.clock.next_nweek_change(after)


def earliest(*instants: datetime | None) -> datetime | None:
    """The earliest of the known ``instants``; None when none is known."""
    return min((instant for instant in instants if instant is not None), default=None)
