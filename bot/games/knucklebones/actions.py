"""The actions of Knucklebones, as values for ``bot.games.knucklebones.play.apply``.

Players take ``StateIntent`` and ``PlaceDie``; the engine takes the others
at the instants the rules name, bringing every random value with it (the
turn-order draws and each turn's 1d6), so that it can record and publish
them and a replay of the archive applies the same values.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.games.knucklebones.intents import IntentMode, PlayerId
from bot.games.knucklebones.timing import ClockStop


@dataclass(frozen=True)
class StateIntent:
    """``player`` states eir intention to join a game (rule Knucklebones/Commencement).

    ``opponents`` empty: against anyone.  ``mode`` is required when two or
    more opponents are named.
    """

    player: PlayerId
    opponents: tuple[PlayerId, ...] = ()
    mode: IntentMode | None = None


@dataclass(frozen=True)
class BeginBattlePhase:
    """The Battle Phase begins at ``at``: the intents pair and their games start.

    ``turn_order_draws`` holds one 1d2 per pairing, in the order of
    ``pending_pairings(state)`` (rule Knucklebones/Turn Order: "determined
    randomly"): 1 lets the pairing's first player move first, 2 the second.
    """

    at: datetime
    turn_order_draws: tuple[int, ...] = ()


@dataclass(frozen=True)
class BeginRestPhase:
    """A Rest Phase begins at ``at``; running games go on."""

    at: datetime


@dataclass(frozen=True)
class NotifyTurn:
    """The participant to move in game ``game`` is notified at ``at``.

    ``roll`` is eir 1d6 (rule Knucklebones/Turn: "they must roll 1d6 and
    choose a column"): rolled when e is notified, so e sees it before
    choosing, as a participant who rolls and then chooses would.
    """

    game: int
    at: datetime
    roll: int


@dataclass(frozen=True)
class PlaceDie:
    """``player`` inserts the die rolled for em in ``column`` (1 to 3).

    ``game`` may be None when only one game awaits em; ``value``, if the
    player names it ("I put my 4 in column 2"), must be the die rolled, and
    picks the game when several await em.
    """

    player: PlayerId
    column: int
    game: int | None = None
    value: int | None = None


@dataclass(frozen=True)
class ExpireTurn:
    """At ``at`` the engine checks whether the notified participant of game
    ``game`` has forfeited (rule Knucklebones/Turn: 24 hours)."""

    game: int
    at: datetime
    clock_stops: tuple[ClockStop, ...] = ()


KnucklebonesAction = (
    StateIntent | BeginBattlePhase | BeginRestPhase | NotifyTurn | PlaceDie | ExpireTurn
)
