"""The Gardens' Clock time: instants as ``Moment``s and back (rule 3 A, seed 004).

The pure rules count Clock time (``bot.games.economy.Moment``: ndays The
Clock has counted, and seconds into the nday); the engine has instants.  An
nday of The Clock runs from one 00:00 UTC to the next while it is On, so an
action's Moment is the Clock's nday count and the seconds since midnight.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta
from typing import TYPE_CHECKING

from bot.engine.not_yet import refusal_reason
from bot.games import ntime
from bot.games.economy import Moment, PossibleLaterError
from bot.games.errors import ActionError, NotYetError

if TYPE_CHECKING:
    from bot.engine.services import Services


def moment_of(services: Services, at: datetime) -> Moment:
    """The Clock time at ``at``: its nday count and the seconds since that nday began."""
    reading = ntime.clock_at(services.clock.config, at)
    midnight = datetime.combine(at.date(), time(), tzinfo=at.tzinfo)
    return Moment(reading.ndays, int((at - midnight).total_seconds()))


def instant_of(services: Services, moment: Moment) -> datetime | None:
    """When The Clock comes to ``moment`` (None while it is Off with no switch to On)."""
    start = ntime.nday_start(services.clock.config, moment.reading)
    if start is None:
        return None
    return start + timedelta(seconds=moment.second)


def refusal_of(services: Services, error: ActionError, at: datetime) -> str:
    """``error``'s words for the ruling; a ``PossibleLaterError`` dated as the Clock shows
    its Moment and in UTC ("from nweek 2, nday 1 (2026-01-11 00:00 UTC)")."""
    if isinstance(error, PossibleLaterError):
        instant = instant_of(services, error.possible_from)
        error = NotYetError(error.reason, rule=error.rule, again=error.again, from_instant=instant)
    return refusal_reason(error, services.clock, at)
