"""A Poll's Duration (rule 15 A, seed 004; rule 1823 A is the same text for Elections).

The four kinds rule 15 A lists are kept apart because they behave differently
when The Clock stops (rule 3 A: time a rule specifies is measured by The
Clock), but this package never reads a clock: the caller converts an ntime
point or period to the UTC instant it ends at (``bot.games.ntime``), and
re-resolves it with ``dataclasses.replace`` when The Clock is switched.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TypeAlias

from bot.games.ntime import require_utc


@dataclass(frozen=True)
class NtimePoint:
    """An absolute point in ntime, such as "nweek 212, nday 6" (rule 15 A).

    ``reading`` is the point as written; ``ends_at`` is the UTC instant the
    caller resolved it to.  Rule 15's default Duration, "until the end of
    the current nweek", is one of these.
    """

    reading: str
    ends_at: datetime

    def __post_init__(self) -> None:
        require_utc(self.ends_at, "ends_at")


@dataclass(frozen=True)
class NtimePeriod:
    """A relative amount of ntime, such as "three ndays" (rule 15 A).

    The Duration "Concludes at the end of the specified period"; ``ends_at``
    is that end as the caller resolved it from the calling of the Poll.
    """

    length: str
    ends_at: datetime

    def __post_init__(self) -> None:
        require_utc(self.ends_at, "ends_at")


@dataclass(frozen=True)
class RealTimePoint:
    """A point in real time, e.g. rule 125's "4th Midnight UTC" (rule 15 A, third kind)."""

    ends_at: datetime

    def __post_init__(self) -> None:
        require_utc(self.ends_at, "ends_at")


@dataclass(frozen=True)
class RealTimePeriod:
    """An amount of real time from the calling of the Poll (rule 15 A, third kind)."""

    length: timedelta

    def __post_init__(self) -> None:
        if self.length < timedelta(0):
            raise ValueError(f"a Duration cannot be negative: {self.length}")


@dataclass(frozen=True)
class Indeterminate:
    """Rule 15 A: "An Indeterminate Duration does not Conclude based on time"."""


Duration: TypeAlias = NtimePoint | NtimePeriod | RealTimePoint | RealTimePeriod | Indeterminate


def deadline_of(duration: Duration, called_at: datetime) -> datetime | None:
    """The instant ``duration`` Concludes by time, or None for an Indeterminate one.

    Rule 15 A: an absolute point "that has already passed" when the Poll is
    called Concludes immediately, i.e. at ``called_at``; the same clamp is
    applied to every kind, since no Duration can end before it began.
    """
    if isinstance(duration, Indeterminate):
        return None
    if isinstance(duration, RealTimePeriod):
        return called_at + duration.length
    return max(duration.ends_at, called_at)
