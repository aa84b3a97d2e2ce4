"""Stops of The Clock that last until a cause clears (rules 23 and 205, seed 004).

Rule 3 A lets the rules turn the Clock Off; some do it for a reason that
lasts: rule 23 stops it at the end of each nweek "until the GM recognizes
... the rule changes", rule 205 turns it Off while more than two thirds of
the players are On Leave.  Several causes may hold at once, and the Clock
comes back On only when every one of them has cleared (and the plain
switches of rule 3 A say On).  ``with_stops`` folds the stops into the
switch history the rest of ``bot.games.ntime`` reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from bot.games.ntime.clock import is_on
from bot.games.ntime.config import NtimeConfig, Switch, require_utc


@dataclass(frozen=True)
class Stop:
    """The Clock is held Off from ``since`` until ``until`` (None: not yet cleared).

    ``cause`` is the rule that stopped it ("23", "205"); ``reason`` says
    what clears it, for the Clock's display.
    """

    cause: str
    since: datetime
    until: datetime | None = None
    reason: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "since", require_utc(self.since, "stop instant"))
        if self.until is not None:
            until = require_utc(self.until, "restart instant")
            if until < self.since:
                raise ValueError(f"a stop cannot clear ({until}) before it began ({self.since})")
            object.__setattr__(self, "until", until)

    def holds_at(self, instant: datetime) -> bool:
        return self.since <= instant and (self.until is None or instant < self.until)


def with_stops(config: NtimeConfig, stops: Sequence[Stop]) -> NtimeConfig:
    """``config`` with the Clock Off wherever a stop holds, as one switch history.

    The Clock is On at an instant exactly when ``config`` says On there and
    no stop holds.  A stop that clears at the instant it began lasts no time.
    """
    if not stops:
        return config
    instants = sorted(
        {switch.at for switch in config.switches}
        | {stop.since for stop in stops}
        | {stop.until for stop in stops if stop.until is not None}
    )
    switches: list[Switch] = []
    on = config.on_at_epoch
    for instant in instants:
        if instant <= config.epoch:
            raise ValueError(f"a stop at {instant.isoformat()} is not after the epoch")
        now_on = is_on(config, instant) and not any(stop.holds_at(instant) for stop in stops)
        if now_on != on:
            switches.append(Switch(instant, now_on))
            on = now_on
    return NtimeConfig(
        epoch=config.epoch,
        epoch_reading=config.epoch_reading,
        on_at_epoch=config.on_at_epoch,
        switches=tuple(switches),
    )


def stops_at(stops: Sequence[Stop], instant: datetime) -> tuple[Stop, ...]:
    """The stops holding at ``instant``, in the order they began."""
    return tuple(stop for stop in stops if stop.holds_at(require_utc(instant)))


__all__ = ["Stop", "stops_at", "with_stops"]
