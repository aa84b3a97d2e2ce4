"""What an action did, as values for the reply, the board and the action log."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.games.knucklebones.intents import Intent, Pairing, PlayerId
from bot.games.knucklebones.matrix import Die
from bot.games.knucklebones.state import EndReason, Phase


@dataclass(frozen=True)
class IntentStated:
    """An intent was recorded for the next Battle Phase (rule Knucklebones/Commencement)."""

    intent: Intent


@dataclass(frozen=True)
class PhaseBegan:
    """A Rest Phase or a Battle Phase began at ``at``."""

    phase: Phase
    at: datetime


@dataclass(frozen=True)
class GameStarted:
    """Game ``game`` started; ``players`` in turn order, decided by ``draw`` (1d2:
    1 puts the pairing's first player first, 2 the second)."""

    game: int
    pairing: Pairing
    players: tuple[PlayerId, PlayerId]
    draw: int
    at: datetime


@dataclass(frozen=True)
class IntentLapsed:
    """An intent no other intent answered by the Battle Phase; it starts nothing."""

    intent: Intent


@dataclass(frozen=True)
class TurnNotified:
    """``player`` was notified at ``at`` to take eir turn and rolled ``roll`` (1d6)."""

    game: int
    player: PlayerId
    roll: Die
    at: datetime


@dataclass(frozen=True)
class DiePlaced:
    """``player`` inserted a die of ``value`` in ``column`` of eir matrix."""

    game: int
    player: PlayerId
    value: Die
    column: int


@dataclass(frozen=True)
class DiceDestroyed:
    """``count`` dice of ``value`` in column ``column`` of ``owner``'s matrix were
    destroyed (rule Knucklebones/Turn)."""

    game: int
    owner: PlayerId
    value: Die
    column: int
    count: int


@dataclass(frozen=True)
class TurnForfeited:
    """``player`` let 24 hours pass since eir notification (rule Knucklebones/Turn)."""

    game: int
    player: PlayerId
    at: datetime


@dataclass(frozen=True)
class GameEnded:
    """Game ``game`` ended; ``winner`` is None on equal scores; ``scores`` in turn order."""

    game: int
    reason: EndReason
    winner: PlayerId | None
    scores: tuple[int, int]


@dataclass(frozen=True)
class PrizeAwarded:
    """Rule Knucklebones/Winning: the winner "gains one Handy Pack and one Chip"."""

    game: int
    player: PlayerId
    items: tuple[str, ...]


KnucklebonesEvent = (
    IntentStated
    | PhaseBegan
    | GameStarted
    | IntentLapsed
    | TurnNotified
    | DiePlaced
    | DiceDestroyed
    | TurnForfeited
    | GameEnded
    | PrizeAwarded
)
