"""The stored facts from which every ntime reading is computed.

An ``NtimeConfig`` is an epoch (a UTC midnight and the Clock reading at it),
whether the Clock was On at the epoch, and the history of Clock switches.
Everything else (nweek, nday, Watch, Checkpoints) is derived by the pure
functions in ``bot.games.ntime.clock``: nothing here reads the system clock.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, time
from typing import Any

from bot.games.ntime.readings import ClockReading

JSON_FORMAT = "nomicbot-ntime/1"


def require_utc(instant: datetime, name: str = "instant") -> datetime:
    """Return ``instant`` converted to UTC.

    Raises ``TypeError`` for anything but a timezone-aware ``datetime``: a naive
    datetime has no defined 00:00:00 UTC, so every ndays count would be a guess.
    """
    if not isinstance(instant, datetime):
        raise TypeError(f"{name} must be a datetime, got {type(instant).__name__}")
    if instant.tzinfo is None or instant.utcoffset() is None:
        raise TypeError(
            f"{name} {instant.isoformat()} is a naive datetime; ntime needs a "
            "timezone-aware one (e.g. datetime(..., tzinfo=datetime.UTC))"
        )
    return instant.astimezone(UTC)


def is_utc_midnight(instant: datetime) -> bool:
    return require_utc(instant).timetz().replace(tzinfo=None) == time(0, 0)


@dataclass(frozen=True)
class Switch:
    """The Clock was turned On (``on=True``) or Off at ``at``; it holds from ``at`` on."""

    at: datetime
    on: bool

    def __post_init__(self) -> None:
        object.__setattr__(self, "at", require_utc(self.at, "switch instant"))

    def describe(self) -> str:
        return f"Clock turned {'On' if self.on else 'Off'} at {self.at.isoformat()}"


@dataclass(frozen=True)
class NtimeConfig:
    """Epoch, starting reading and On/Off history of The Clock (rule 3 A).

    Raises ``ValueError`` when the epoch is not a UTC midnight, or when the
    switches are not strictly after the epoch, strictly increasing and
    alternating (turning an On Clock On again is not a switch).
    """

    epoch: datetime
    switches: tuple[Switch, ...] = ()
    epoch_reading: ClockReading = field(default_factory=lambda: ClockReading(0, 0))
    on_at_epoch: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "epoch", require_utc(self.epoch, "epoch"))
        object.__setattr__(self, "switches", tuple(self.switches))
        if not is_utc_midnight(self.epoch):
            # The Clock only changes at 00:00:00 UTC, so a reading is only
            # pinned to an instant unambiguously at a midnight.
            raise ValueError(f"epoch {self.epoch.isoformat()} is not 00:00:00 UTC")
        self._check_switches()

    def _check_switches(self) -> None:
        previous_instant, previous_state = self.epoch, self.on_at_epoch
        for switch in self.switches:
            if switch.at <= previous_instant:
                raise ValueError(
                    f"{switch.describe()} is not after {previous_instant.isoformat()}; "
                    "switches must be after the epoch and strictly increasing"
                )
            if switch.on == previous_state:
                state = "On" if switch.on else "Off"
                raise ValueError(f"{switch.describe()}, but it was already {state}")
            previous_instant, previous_state = switch.at, switch.on

    @property
    def on_at_end(self) -> bool:
        """Whether the Clock is On after the last recorded switch."""
        return self.switches[-1].on if self.switches else self.on_at_epoch

    def turned(self, on: bool, at: datetime) -> NtimeConfig:
        """A copy with one more switch; raises ``ValueError`` as the constructor does."""
        return replace(self, switches=(*self.switches, Switch(at, on)))

    def turned_on(self, at: datetime) -> NtimeConfig:
        return self.turned(True, at)

    def turned_off(self, at: datetime) -> NtimeConfig:
        return self.turned(False, at)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": JSON_FORMAT,
            "epoch": self.epoch.isoformat(),
            "epoch_reading": {"nweek": self.epoch_reading.nweek, "nday": self.epoch_reading.nday},
            "on_at_epoch": self.on_at_epoch,
            "switches": [{"at": s.at.isoformat(), "on": s.on} for s in self.switches],
        }

    @classmethod
    def from_json(cls, text: str) -> NtimeConfig:
        """Raises ``ValueError`` for text that ``to_json`` could not have written."""
        return cls.from_dict(json.loads(text))

    @classmethod
    def from_dict(cls, data: Any) -> NtimeConfig:
        """Raises ``ValueError`` for data that ``to_dict`` could not have written."""
        if not isinstance(data, dict) or data.get("format") != JSON_FORMAT:
            raise ValueError(f"not an ntime configuration in format {JSON_FORMAT!r}: {data!r}")
        try:
            return cls(
                epoch=_parse_instant(data["epoch"]),
                epoch_reading=ClockReading(
                    int(data["epoch_reading"]["nweek"]), int(data["epoch_reading"]["nday"])
                ),
                on_at_epoch=bool(data["on_at_epoch"]),
                switches=tuple(
                    Switch(_parse_instant(item["at"]), bool(item["on"]))
                    for item in data["switches"]
                ),
            )
        except (KeyError, TypeError) as error:
            raise ValueError(f"malformed ntime configuration {data!r}: {error!r}") from error


def _parse_instant(text: Any) -> datetime:
    if not isinstance(text, str):
        raise ValueError(f"expected an ISO 8601 instant, got {text!r}")
    return require_utc(datetime.fromisoformat(text))
