"""The engine's view of ntime (rule 3 of seed 004), built from the settings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from bot.games import ntime
from bot.games.ntime.stops import Stop, stops_at, with_stops

# The Checking Period an nweek's last Checkpoint ends (the third, rule 3 A).
LAST_POSITION = 2


@dataclass(frozen=True)
class ClockView:
    nweek: int  # zero-based, as The Clock holds it
    label: str  # displayed one-based, e.g. "nweek 4, nday 7"
    checking_period: int
    is_on: bool
    # What holds the Clock Off, as its display says it (rules 23, 205); () when On
    # or when only a plain switch of rule 3 A turned it Off.
    stopped_for: tuple[str, ...] = ()


@dataclass(frozen=True)
class NweekChange:
    instant: datetime
    ended: int  # the zero-based nweek that just ended
    begun: int


class GameClock:
    """The Clock (rule 3): the configured starting switches and those recorded since.

    The configuration file holds the switches from before the bot's records
    (the starting values); later ones are rows of ``rule_change`` written by
    admin records (``bot.engine.rule_changes``), and so are the stops that
    last until a cause clears (rules 23 and 205, ``bot.engine.clock_stops``),
    all handed in by ``use_recorded_switches`` once per unit of work.
    """

    def __init__(self, epoch: datetime, switches: Sequence[tuple[datetime, bool]]) -> None:
        self.starting_switches = tuple(ntime.Switch(at, on) for at, on in switches)
        self.config = ntime.NtimeConfig(epoch=epoch, switches=self.starting_switches)
        self.stops: tuple[Stop, ...] = ()
        self._last_nweek_change: tuple[ntime.NtimeConfig, datetime, datetime | None] | None = None
        self._nday_starts: tuple[ntime.NtimeConfig, dict[int, datetime | None]] | None = None

    def with_switches(self, recorded: Sequence[tuple[datetime, bool]]) -> ntime.NtimeConfig:
        """The Clock's facts with ``recorded`` switches after the starting ones.

        Raises ``ValueError`` (``ntime.NtimeConfig``) when they do not make a
        history: not after the epoch and each other, or not alternating.
        """
        added = tuple(ntime.Switch(at, on) for at, on in recorded)
        return ntime.NtimeConfig(epoch=self.epoch, switches=(*self.starting_switches, *added))

    def use_recorded_switches(
        self, recorded: Sequence[tuple[datetime, bool]], stops: Sequence[Stop] = ()
    ) -> None:
        """Read the Clock with ``recorded`` switches and ``stops`` from now on.

        The Clock is On only where the switches say On and no stop holds.  The
        facts change in one assignment each, config last, so a reader in
        another thread sees the old Clock or the new, never a mixture.
        """
        config = with_stops(self.with_switches(recorded), stops)
        self.stops = tuple(stops)
        self.config = config

    def reading(self, instant: datetime) -> ClockView:
        reading = ntime.reading_at(self.config, instant)
        return ClockView(
            nweek=reading.clock.nweek,
            label=reading.display(),
            checking_period=reading.clock.checking_period.index,
            is_on=reading.clock_on,
            stopped_for=tuple(stop.reason for stop in stops_at(self.stops, instant)),
        )

    @property
    def epoch(self) -> datetime:
        """The instant the Clock starts (nweek 1, nday 1): the game has no time before it."""
        return self.config.epoch

    def effective_time(self, instant: datetime) -> datetime | None:
        """When an action posted at ``instant`` takes effect (rule 3 B).

        While the Clock is Off, players' actions are not implemented until
        it is turned back On; None while it is still Off.  Before the epoch
        the Clock has not started, which is read the same way: an action
        posted then takes effect at the epoch (docs/readings.md).
        """
        if instant < self.config.epoch:
            return self.effective_time(self.config.epoch)
        if ntime.is_on(self.config, instant):
            return instant
        return ntime.next_on_instant(self.config, instant)

    def checkpoints_between(self, after: datetime, until: datetime) -> tuple[ntime.Checkpoint, ...]:
        return ntime.checkpoints_between(self.config, after, until)

    def nweek_changes_between(self, after: datetime, until: datetime) -> tuple[NweekChange, ...]:
        """The Checkpoints at the end of an nweek's tenth nday, in (after, until]."""
        return tuple(
            NweekChange(point.instant, point.ending.nweek, point.ending.nweek + 1)
            for point in self.checkpoints_between(after, until)
            if point.ending.position == LAST_POSITION
        )

    def next_nweek_change(self, after: datetime) -> datetime | None:
        """The first nweek change after ``after``; None while the Clock stays Off.

        The last answer is kept with the facts it was read from: the
        scheduler's nweek events all ask it with the same instant.
        """
        config = self.config  # one reading, should another thread swap the facts
        last = self._last_nweek_change
        if last is not None and last[0] is config and last[1] == after:
            return last[2]
        point = ntime.next_checkpoint(config, after)
        while point is not None and point.ending.position != LAST_POSITION:
            point = ntime.next_checkpoint(config, point.instant)
        instant = point.instant if point is not None else None
        self._last_nweek_change = (config, after, instant)
        return instant

    def nday_start(self, ndays: int) -> datetime | None:
        """``ntime.nday_start`` of the reading ``ndays`` through the current facts.

        Remembered while the facts are the same: it counts the ndays from
        the epoch, so its cost grows with the game's age, and the scheduler
        asks it for the deadline of every open poll before every post.
        """
        config = self.config  # one reading, should another thread swap the facts
        known = self._nday_starts
        if known is None or known[0] != config:
            known = (config, {})
            self._nday_starts = known
        if ndays not in known[1]:
            known[1][ndays] = ntime.nday_start(config, ntime.ClockReading.from_ndays(ndays))
        return known[1][ndays]


__all__ = ["ClockView", "GameClock", "NweekChange"]
