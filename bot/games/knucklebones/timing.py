"""The 24 hours a participant has to take eir turn (rule Knucklebones/Turn).

"If 24 hours have passed since the notification of a participant to take
their turn, they automatically forfeit and the their opponent wins this game
of Knucklebones."

The hours are real time, counted from the instant of the notification.
Reading: a time in which the nomic's Clock is stopped does not count.  While
the Clock is Off a game action is held until it is turned On again (seed
004, rule 3 B), so a participant could not take eir turn then, and a fair
referee would not make em forfeit for it.  Without Clock stops the deadline
is simply the notification plus 24 hours.  Everything here is a pure
function of the instants given to it; the engine knows the Clock.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

TURN_TIME = timedelta(hours=24)


@dataclass(frozen=True)
class ClockStop:
    """The Clock was Off from ``start`` until ``end`` (None: still Off)."""

    start: datetime
    end: datetime | None = None


def forfeit_deadline(
    notified_at: datetime, clock_stops: Iterable[ClockStop] = ()
) -> datetime | None:
    """When 24 hours of running Clock have passed since ``notified_at``.

    None while the Clock stopped before that and is still Off: the deadline
    cannot be known until it is turned On again.
    """
    remaining = TURN_TIME
    cursor = notified_at
    for stop in sorted(clock_stops, key=lambda stop: stop.start):
        if stop.end is not None and stop.end <= cursor:
            continue
        if stop.start >= cursor + remaining:
            break
        remaining -= max(stop.start - cursor, timedelta(0))
        if stop.end is None:
            return None
        cursor = stop.end
    return cursor + remaining


def forfeit_is_due(
    notified_at: datetime, now: datetime, clock_stops: Iterable[ClockStop] = ()
) -> bool:
    """Whether a participant notified at ``notified_at`` has forfeited by ``now``."""
    deadline = forfeit_deadline(notified_at, clock_stops)
    return deadline is not None and now >= deadline
