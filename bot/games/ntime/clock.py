"""Pure functions reading The Clock and The Watch at an instant (rule 3, seed 004).

Rule 3 A, read literally and fixed in these functions:

* The Clock changes only at 00:00:00 UTC.  Whether that midnight advances
  the Clock (On) or the Watch (Off) is decided by the state in effect
  *just before* the midnight.  So a Clock turned Off exactly at 00:00:00 still
  ticks at that midnight: rule 23 stops the Clock "at the end of each nweek",
  and the nweek must have ended for that to make sense.  A Clock turned On
  exactly at 00:00:00 first ticks at the following midnight.
* At a changing midnight the new value holds from 00:00:00 itself: the
  instant 00:00:00 belongs to the new nday.
* A switch holds from its own instant: ``is_on(config, switch.at)`` is the
  new state.
* The Watch is set to zero when the Clock is turned Off and counts the
  midnights that pass while it is Off; turning the Clock On leaves the Watch
  showing how long the stop lasted.  If the Clock is Off at the epoch, the
  Watch starts from zero at the epoch.
* Checkpoints are the Clock changes into nday 3, 7 and 0 (zero-based).  While
  the Clock is Off nothing ticks, so no Checkpoint happens and the Checking
  Period in progress simply lasts longer.

Instants must be timezone-aware; naive datetimes raise ``TypeError``.
Instants before the epoch raise ``ValueError`` where a reading is asked for.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from itertools import count

from bot.games.ntime.config import NtimeConfig, require_utc
from bot.games.ntime.readings import (
    FIRST_NDAY_OF_PERIOD,
    NDAYS_PER_NWEEK,
    CheckingPeriod,
    Checkpoint,
    ClockReading,
    NtimeReading,
    WatchReading,
)

ONE_DAY = timedelta(days=1)
UNIX_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class _Segment:
    """A stretch of time with one Clock state, from ``start`` up to ``end`` (exclusive)."""

    start: datetime
    end: datetime | None
    on: bool


def _segments(config: NtimeConfig) -> tuple[_Segment, ...]:
    starts = [(config.epoch, config.on_at_epoch), *((s.at, s.on) for s in config.switches)]
    ends: list[datetime | None] = [s.at for s in config.switches]
    ends.append(None)
    return tuple(_Segment(start, end, on) for (start, on), end in zip(starts, ends, strict=True))


def _day_number(instant: datetime) -> int:
    return (instant - UNIX_EPOCH) // ONE_DAY


def _next_midnight(instant: datetime) -> datetime:
    return UNIX_EPOCH + (_day_number(instant) + 1) * ONE_DAY


def _midnights_between(after: datetime, until: datetime) -> int:
    """How many 00:00:00 UTC instants lie in ``(after, until]``."""
    return max(0, _day_number(until) - _day_number(after))


def _earliest(first: datetime | None, second: datetime | None) -> datetime | None:
    """The earlier of two instants, where ``None`` means "never"."""
    if first is None or second is None:
        return second if first is None else first
    return min(first, second)


def _instant_since_epoch(config: NtimeConfig, instant: datetime) -> datetime:
    """Raises ``TypeError`` for naive datetimes and ``ValueError`` before the epoch."""
    instant = require_utc(instant)
    if instant < config.epoch:
        raise ValueError(
            f"{instant.isoformat()} is before the ntime epoch {config.epoch.isoformat()}; "
            "the Clock has no reading then"
        )
    return instant


def _segment_at(config: NtimeConfig, instant: datetime) -> _Segment:
    return [segment for segment in _segments(config) if segment.start <= instant][-1]


def _ticks_in(segment: _Segment, until: datetime) -> int:
    """Midnights governed by ``segment`` that have passed by ``until`` (inclusive)."""
    end = until if segment.end is None else min(segment.end, until)
    return _midnights_between(segment.start, end)


def is_on(config: NtimeConfig, instant: datetime) -> bool:
    """Whether the Clock is On at ``instant`` (a switch holds from its own instant)."""
    return _segment_at(config, _instant_since_epoch(config, instant)).on


def clock_at(config: NtimeConfig, instant: datetime) -> ClockReading:
    """The zero-based Clock reading at ``instant``."""
    instant = _instant_since_epoch(config, instant)
    ticks = sum(_ticks_in(segment, instant) for segment in _segments(config) if segment.on)
    return ClockReading.from_ndays(config.epoch_reading.ndays + ticks)


def watch_at(config: NtimeConfig, instant: datetime) -> WatchReading:
    """The Watch at ``instant``: wdays since the Clock was last turned Off."""
    instant = _instant_since_epoch(config, instant)
    stops = [s for s in _segments(config) if not s.on and s.start <= instant]
    return WatchReading.from_wdays(_ticks_in(stops[-1], instant) if stops else 0)


def reading_at(config: NtimeConfig, instant: datetime) -> NtimeReading:
    return NtimeReading(
        clock=clock_at(config, instant),
        watch=watch_at(config, instant),
        clock_on=is_on(config, instant),
    )


def describe(config: NtimeConfig, instant: datetime) -> str:
    """The displayed reading, e.g. ``nweek 14, nday 5`` (one-based, rule 3 A)."""
    return reading_at(config, instant).display()


def checking_period_at(config: NtimeConfig, instant: datetime) -> CheckingPeriod:
    return clock_at(config, instant).checking_period


def next_on_instant(config: NtimeConfig, instant: datetime) -> datetime | None:
    """When an action posted at ``instant`` is implemented (rule 3 B).

    ``instant`` itself if the Clock is On then; otherwise the instant the Clock
    was next turned On, or ``None`` if that has not happened yet.
    """
    instant = _instant_since_epoch(config, instant)
    if is_on(config, instant):
        return instant
    return next((s.at for s in config.switches if s.on and s.at > instant), None)


@dataclass(frozen=True)
class _Tick:
    """One change of the Clock: at ``instant`` it came to read ``ndays`` (see ClockReading)."""

    instant: datetime
    ndays: int


def _ticks(config: NtimeConfig, after: datetime, until: datetime | None) -> Iterator[_Tick]:
    """Every change of the Clock in ``(after, until]``, in order; endless if ``until`` is None
    and the Clock is On at the end of the history."""
    ndays_before = config.epoch_reading.ndays
    for segment in _segments(config):
        if not segment.on:
            continue
        first_midnight = _next_midnight(segment.start)
        lower = max(segment.start, after)
        upper = _earliest(segment.end, until)
        first = _midnights_between(segment.start, lower)
        numbers = count(first) if upper is None else range(first, _ticks_in(segment, upper))
        for number in numbers:
            yield _Tick(first_midnight + number * ONE_DAY, ndays_before + number + 1)
        if segment.end is not None:
            ndays_before += _midnights_between(segment.start, segment.end)


def _is_checkpoint(tick: _Tick) -> bool:
    return tick.ndays % NDAYS_PER_NWEEK in FIRST_NDAY_OF_PERIOD


def _checkpoints(
    config: NtimeConfig, after: datetime, until: datetime | None
) -> Iterator[Checkpoint]:
    for tick in filter(_is_checkpoint, _ticks(config, after, until)):
        ending = ClockReading.from_ndays(tick.ndays - 1).checking_period
        yield Checkpoint(instant=tick.instant, ending=ending)


def checkpoints_between(
    config: NtimeConfig, after: datetime, until: datetime
) -> tuple[Checkpoint, ...]:
    """The Checkpoints in ``(after, until]``, in order.

    Half-open so that a scheduler that last ran at ``after`` and runs again at
    ``until`` fires each Checkpoint exactly once, however long it was down.
    ``after`` may precede the epoch; an empty or reversed interval gives ``()``.
    """
    return tuple(_checkpoints(config, require_utc(after, "after"), require_utc(until, "until")))


def next_checkpoint(config: NtimeConfig, instant: datetime) -> Checkpoint | None:
    """The first Checkpoint strictly after ``instant``, assuming no further switches.

    ``None`` when the Clock is Off at the end of the history: no Checkpoint can
    happen until someone turns it back On.
    """
    return next(_checkpoints(config, require_utc(instant), None), None)


def nday_start(config: NtimeConfig, reading: ClockReading) -> datetime | None:
    """The instant the Clock came to show ``reading``, assuming no further switches.

    The epoch for the epoch's own reading; ``None`` for readings before it, or
    beyond a stop that has not ended.
    """
    if reading.ndays < config.epoch_reading.ndays:
        return None
    if reading.ndays == config.epoch_reading.ndays:
        return config.epoch
    ticks = _ticks(config, config.epoch, None)
    return next((tick.instant for tick in ticks if tick.ndays == reading.ndays), None)


def nweek_start(config: NtimeConfig, nweek: int) -> datetime | None:
    """When (zero-based) ``nweek`` began; see ``nday_start`` for ``None``."""
    return nday_start(config, ClockReading(nweek, 0))


def nweek_end(config: NtimeConfig, nweek: int) -> datetime | None:
    """When (zero-based) ``nweek`` ended: the start of the next one."""
    return nweek_start(config, nweek + 1)
