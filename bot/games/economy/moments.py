"""Clock time: the instants the economy's rules are judged at (rule 3 A, seed 004).

Rule 3 A: "Whenever any rule other than this one specifies a certain amount
of time, that time shall be measured according to The Clock".  So "one nweek
after a Tomato's creation" (rule 1908 B.1) is ten ndays counted on The Clock,
whatever the wall clock did while it was Off.  A ``Moment`` is a point of
Clock time: how many ndays The Clock has counted since nweek 0, nday 0, and
how far into the nday (in seconds).  The engine turns a post's arrival into
one (actions are held while the Clock is Off, rule 3 B, so each has one).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.ntime.readings import NDAYS_PER_NWEEK, CheckingPeriod, ClockReading

SECONDS_PER_NDAY = 24 * 60 * 60


@dataclass(frozen=True, order=True)
class Moment:
    """``ndays`` counted on The Clock (zero-based) and ``second`` into the nday."""

    ndays: int
    second: int = 0

    def __post_init__(self) -> None:
        if self.ndays < 0 or not 0 <= self.second < SECONDS_PER_NDAY:
            raise ValueError(f"no such moment: nday count {self.ndays}, second {self.second}")

    @classmethod
    def at(cls, nweek: int, nday: int = 0, second: int = 0) -> Moment:
        """The moment ``second`` into (zero-based) nday ``nday`` of nweek ``nweek``."""
        return cls(ClockReading(nweek, nday).ndays, second)

    @classmethod
    def nweek_start(cls, nweek: int) -> Moment:
        """The first instant of (zero-based) nweek ``nweek``."""
        return cls.at(nweek)

    @classmethod
    def period_start(cls, period: CheckingPeriod) -> Moment:
        """The Checkpoint that begins ``period`` (rule 3 A)."""
        return cls(period.first_reading.ndays)

    @property
    def reading(self) -> ClockReading:
        return ClockReading.from_ndays(self.ndays)

    @property
    def nweek(self) -> int:
        return self.reading.nweek

    @property
    def checking_period(self) -> CheckingPeriod:
        return self.reading.checking_period

    @property
    def is_nweek_start(self) -> bool:
        return self.second == 0 and self.ndays % NDAYS_PER_NWEEK == 0

    @property
    def is_checkpoint(self) -> bool:
        """Whether a Checkpoint falls now: the first instant of a Checking Period."""
        return self == Moment.period_start(self.checking_period)

    def later(self, ndays: int) -> Moment:
        """The moment ``ndays`` ndays of Clock time after this one."""
        return Moment(self.ndays + ndays, self.second)

    def after_nweeks(self, nweeks: int) -> Moment:
        return self.later(nweeks * NDAYS_PER_NWEEK)

    def next_nweek_start(self) -> Moment:
        return Moment.nweek_start(self.nweek + 1)

    def next_period_start(self) -> Moment:
        return Moment.period_start(self.checking_period.next())

    def display(self) -> str:
        """``nweek 2, nday 1`` (one-based, rule 3 A), with the time of day when not midnight."""
        shown = self.reading.display()
        if not self.second:
            return shown
        hours, rest = divmod(self.second, 3600)
        return f"{shown}, {hours:02d}:{rest // 60:02d}:{rest % 60:02d}"
