"""What a Political Go move did, as values for the reply and the action log."""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.go.points import Point
from bot.games.go.state import PlayerId


@dataclass(frozen=True)
class StonePlaced:
    """``player`` placed a Stone on ``point`` (rule 1639 C.1)."""

    player: PlayerId
    point: Point


@dataclass(frozen=True)
class CaptureShare:
    """Go Points one Capturer received for a Dragon (rule 1639 D)."""

    player: PlayerId
    adjacent_stones: int
    points: int


@dataclass(frozen=True)
class StoneLoss:
    """Stones (and as many Go Points) a player lost in a capture (rule 1639 D)."""

    player: PlayerId
    stones: int


@dataclass(frozen=True)
class DragonCaptured:
    """A Dragon without Liberties was removed; in capture order within a move."""

    stones: tuple[Point, ...]
    losses: tuple[StoneLoss, ...]
    shares: tuple[CaptureShare, ...]


@dataclass(frozen=True)
class AllianceConsented:
    """``player`` consented to an alliance with ``ally``; not a Move (rule 1639 C)."""

    player: PlayerId
    ally: PlayerId


@dataclass(frozen=True)
class AllianceFormed:
    """``player`` gave the second consent, forming the alliance: a Move."""

    player: PlayerId
    ally: PlayerId


@dataclass(frozen=True)
class AllianceBroken:
    """``player`` broke eir alliance with ``ally``: a Move."""

    player: PlayerId
    ally: PlayerId


@dataclass(frozen=True)
class Passed:
    """``player`` passed (rule 1639 C.3)."""

    player: PlayerId


GoEvent = (
    StonePlaced | DragonCaptured | AllianceConsented | AllianceFormed | AllianceBroken | Passed
)
