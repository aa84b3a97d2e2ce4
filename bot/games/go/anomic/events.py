"""What a move or a Stone transaction of A Nomic's Political Go did, as values."""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.go.points import Point
from bot.games.go.state import PlayerId


@dataclass(frozen=True)
class StonePlaced:
    """Rule 368.1; with ``from_reserve`` when a Reserve Stone went In Play (376)."""

    player: PlayerId
    point: Point
    from_reserve: bool = False


@dataclass(frozen=True)
class StoneShare:
    """Captured Stones one player received from a Dragon (rule 369)."""

    player: PlayerId
    adjacent_stones: int
    stones: int


@dataclass(frozen=True)
class DragonCaptured:
    """Rule 369: the Dragon's stones, whose they were, and who captured them.

    ``tie_order`` is the random order drawn for players tied on adjacent
    stones, when the division needed one (empty otherwise).
    """

    stones: frozenset[Point]
    losses: tuple[tuple[PlayerId, int], ...]
    shares: tuple[StoneShare, ...]
    tie_order: tuple[PlayerId, ...] = ()


@dataclass(frozen=True)
class AllianceOffered:
    player: PlayerId
    offeree: PlayerId


@dataclass(frozen=True)
class AllianceAccepted:
    player: PlayerId
    offerer: PlayerId


@dataclass(frozen=True)
class OfferWithdrawn:
    player: PlayerId
    offeree: PlayerId


@dataclass(frozen=True)
class OffersVoided:
    """Rule 368.2: offers to ``player`` void because e made another move first."""

    player: PlayerId
    offerers: tuple[PlayerId, ...]


@dataclass(frozen=True)
class WarDeclared:
    player: PlayerId
    former_ally: PlayerId


@dataclass(frozen=True)
class StonesPurchased:
    """Rule 374: ``count`` new Reserve Stones for ``cost`` points in total."""

    player: PlayerId
    count: int
    cost: int
    prices: tuple[int, ...]


@dataclass(frozen=True)
class StonesTransferred:
    """Rule 375: Reserve Stones given by ``player`` to ``recipient``."""

    player: PlayerId
    recipient: PlayerId
    count: int


@dataclass(frozen=True)
class StonesSold:
    """Rule 377: Captured Stones sold to the Bank and destroyed."""

    player: PlayerId
    count: int
    points: int


AnomicEvent = (
    StonePlaced
    | DragonCaptured
    | AllianceOffered
    | AllianceAccepted
    | OfferWithdrawn
    | OffersVoided
    | WarDeclared
    | StonesPurchased
    | StonesTransferred
    | StonesSold
)
