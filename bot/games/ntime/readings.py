"""Values read off The Clock and The Watch (B Nomic rule 3, seed 004).

Everything here is zero-based, as The Clock is (rule 3 A); only the
``display`` methods add one, because "whenever the current value of The Clock
is displayed or referred to, it shall be displayed or referred to with the
number of nweeks increased by one and the number of ndays increased by one".
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

NDAYS_PER_NWEEK = 10
NWEEKS_PER_NYEAR = 10
CHECKING_PERIODS_PER_NWEEK = 3

# Rule 3 A: "The end of the third, seventh, and tenth ndays of each nweek are
# called Checkpoints."  Zero-based, the ndays that *begin* at a Checkpoint are
# 3, 7 and 0; a Checking Period is numbered by how many of those Checkpoints
# of its nweek have passed.
FIRST_NDAY_OF_PERIOD = (0, 3, 7)


@dataclass(frozen=True, order=True)
class ClockReading:
    """The two zero-based numbers on The Clock: nweeks and ndays."""

    nweek: int
    nday: int

    def __post_init__(self) -> None:
        if self.nweek < 0 or not 0 <= self.nday < NDAYS_PER_NWEEK:
            raise ValueError(f"no such Clock reading: nweek {self.nweek}, nday {self.nday}")

    @classmethod
    def from_ndays(cls, ndays: int) -> ClockReading:
        """The reading after ``ndays`` ndays counted from nweek 0, nday 0."""
        nweek, nday = divmod(ndays, NDAYS_PER_NWEEK)
        return cls(nweek, nday)

    @property
    def ndays(self) -> int:
        """ndays elapsed since nweek 0, nday 0: a single number to count with."""
        return self.nweek * NDAYS_PER_NWEEK + self.nday

    @property
    def nyear(self) -> int:
        """Zero-based nyear: "the first 10 nweeks (0-9 on the Clock) comprise nyear 0"."""
        return self.nweek // NWEEKS_PER_NYEAR

    @property
    def checking_period(self) -> CheckingPeriod:
        return CheckingPeriod.containing(self)

    def display(self) -> str:
        """The reading as rule 3 A says to refer to it, e.g. ``nweek 14, nday 5``."""
        return f"nweek {self.nweek + 1}, nday {self.nday + 1}"


@dataclass(frozen=True, order=True)
class WatchReading:
    """The two numbers on The Watch: wweeks and wdays, counted while the Clock is Off.

    Rule 3 A adds one only to The Clock when it is displayed, so the Watch is
    shown as it stands (``wweek 0, wday 3`` is three wdays into a stop).
    """

    wweek: int
    wday: int

    @classmethod
    def from_wdays(cls, wdays: int) -> WatchReading:
        wweek, wday = divmod(wdays, NDAYS_PER_NWEEK)
        return cls(wweek, wday)

    @property
    def wdays(self) -> int:
        return self.wweek * NDAYS_PER_NWEEK + self.wday

    def display(self) -> str:
        return f"wweek {self.wweek}, wday {self.wday}"


@dataclass(frozen=True, order=True)
class CheckingPeriod:
    """One Checking Period, named by a single increasing number.

    ``index`` is ``nweek * 3 + position`` (zero-based nweek, position 0..2), so
    it grows by exactly one at every Checkpoint and never otherwise: games key
    "at most once per Checking Period" (rule 1639 C) on it.
    """

    index: int

    @classmethod
    def containing(cls, reading: ClockReading) -> CheckingPeriod:
        position = sum(1 for first in FIRST_NDAY_OF_PERIOD[1:] if reading.nday >= first)
        return cls(reading.nweek * CHECKING_PERIODS_PER_NWEEK + position)

    @property
    def nweek(self) -> int:
        return self.index // CHECKING_PERIODS_PER_NWEEK

    @property
    def position(self) -> int:
        """Zero-based place in the nweek: 0 (ndays 1-3), 1 (ndays 4-7), 2 (ndays 8-10)."""
        return self.index % CHECKING_PERIODS_PER_NWEEK

    @property
    def is_voting_period(self) -> bool:
        # Rule 23: "The third Checking period of each nweek is the Voting Period".
        return self.position == CHECKING_PERIODS_PER_NWEEK - 1

    @property
    def first_reading(self) -> ClockReading:
        return ClockReading(self.nweek, FIRST_NDAY_OF_PERIOD[self.position])

    def next(self) -> CheckingPeriod:
        return CheckingPeriod(self.index + 1)

    def display(self) -> str:
        """E.g. ``Checking Period 3 of nweek 14`` (ordinals and nweek one-based)."""
        return f"Checking Period {self.position + 1} of nweek {self.nweek + 1}"


@dataclass(frozen=True)
class Checkpoint:
    """A Checkpoint: the 00:00:00 UTC instant that ends ``ending``."""

    instant: datetime
    ending: CheckingPeriod

    @property
    def beginning(self) -> CheckingPeriod:
        return self.ending.next()

    @property
    def reading(self) -> ClockReading:
        """The Clock reading from this instant on (the first nday of ``beginning``)."""
        return self.beginning.first_reading


@dataclass(frozen=True)
class NtimeReading:
    """Everything ntime says about one instant."""

    clock: ClockReading
    watch: WatchReading
    clock_on: bool

    @property
    def checking_period(self) -> CheckingPeriod:
        return self.clock.checking_period

    def display(self) -> str:
        """E.g. ``nweek 14, nday 5`` or ``nweek 14, nday 5 (Clock Off; Watch: wweek 0, wday 2)``."""
        if self.clock_on:
            return self.clock.display()
        return f"{self.clock.display()} (Clock Off; Watch: {self.watch.display()})"
