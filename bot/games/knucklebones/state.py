"""The state of Knucklebones (seed 001): the phase, the intents, every game.

Everything is immutable; ``bot.games.knucklebones.play.apply`` returns a new
state.  Games are numbered from 1 in the order they start and stay in the
state when they end, so a pair of players may have several games, running
or over, told apart by number.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from enum import Enum

from bot.games.errors import IllegalActionError
from bot.games.knucklebones.intents import Intent, PlayerId
from bot.games.knucklebones.matrix import EMPTY_MATRIX, Die, Matrix, matrix_score
from bot.games.knucklebones.rules import RULE_FIELD
from bot.games.knucklebones.timing import TURN_TIME


class Phase(Enum):
    """Rule Knucklebones/Commencement: intents in a Rest Phase, starts at a Battle Phase."""

    REST = "Rest Phase"
    BATTLE = "Battle Phase"


class EndReason(Enum):
    """Why a game ended (rule Knucklebones/Winning, rule Knucklebones/Turn)."""

    FULL_MATRIX = "a matrix is full"
    FORFEIT = "a participant did not take eir turn within 24 hours"


@dataclass(frozen=True)
class LastTurn:
    """The most recent turn: ``player`` put ``value`` in ``column`` and destroyed
    ``destroyed`` of the opponent's dice of that value there."""

    player: PlayerId
    value: Die
    column: int
    destroyed: int


@dataclass(frozen=True)
class Outcome:
    """How a game ended; ``winner`` is None on equal scores.

    ``scores`` are in the order of ``Game.players``; ``forfeited`` names who
    forfeited (rule Knucklebones/Turn), if anyone.
    """

    reason: EndReason
    winner: PlayerId | None
    scores: tuple[int, int]
    forfeited: PlayerId | None = None


@dataclass(frozen=True)
class Game:
    """One running or finished game between two participants.

    ``players`` are in turn order (rule Knucklebones/Turn Order), and
    ``matrices`` in the same order.  ``to_move`` is the index of the
    participant whose turn it is; ``roll`` the 1d6 rolled for em, shown in
    the notification, and ``notified_at`` when e was notified (both None
    until then).
    """

    number: int
    players: tuple[PlayerId, PlayerId]
    matrices: tuple[Matrix, Matrix] = (EMPTY_MATRIX, EMPTY_MATRIX)
    to_move: int = 0
    roll: Die | None = None
    notified_at: datetime | None = None
    turns: int = 0
    last_turn: LastTurn | None = None
    outcome: Outcome | None = None
    started_at: datetime | None = None

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def player_to_move(self) -> PlayerId:
        return self.players[self.to_move]

    @property
    def deadline(self) -> datetime | None:
        """The notification plus 24 hours, ignoring any Clock stop (see ``timing``)."""
        return None if self.notified_at is None else self.notified_at + TURN_TIME

    @property
    def scores(self) -> tuple[int, int]:
        first, second = (matrix_score(matrix) for matrix in self.matrices)
        return first, second

    def has_player(self, player: PlayerId) -> bool:
        return player in self.players

    def index_of(self, player: PlayerId) -> int:
        """0 or 1; raises ``IllegalActionError`` if ``player`` is not in this game."""
        if player not in self.players:
            raise IllegalActionError(
                f"{player} is not a participant of Knucklebones game {self.number} "
                f"({self.players[0]} v {self.players[1]})",
                rule=RULE_FIELD,
            )
        return self.players.index(player)

    def opponent_of(self, player: PlayerId) -> PlayerId:
        return self.players[1 - self.index_of(player)]

    def matrix_of(self, player: PlayerId) -> Matrix:
        return self.matrices[self.index_of(player)]

    def score_of(self, player: PlayerId) -> int:
        return matrix_score(self.matrix_of(player))


@dataclass(frozen=True)
class KnucklebonesState:
    """The phase, the intents stated in the current Rest Phase, and every game."""

    phase: Phase = Phase.REST
    intents: tuple[Intent, ...] = ()
    games: tuple[Game, ...] = ()
    next_intent_number: int = 1

    @property
    def next_game_number(self) -> int:
        return len(self.games) + 1

    @property
    def running_games(self) -> tuple[Game, ...]:
        return tuple(game for game in self.games if not game.is_over)

    def game(self, number: int) -> Game:
        """Game ``number``; raises ``IllegalActionError`` if there is none."""
        if not 1 <= number <= len(self.games):
            raise IllegalActionError(f"there is no game {number} of Knucklebones", rule=RULE_FIELD)
        return self.games[number - 1]

    def games_of(self, player: PlayerId) -> tuple[Game, ...]:
        """The running games ``player`` takes part in."""
        return tuple(game for game in self.running_games if game.has_player(player))

    def awaiting(self, player: PlayerId) -> tuple[Game, ...]:
        """The running games in which ``player`` has been notified to take eir turn."""
        return tuple(
            game
            for game in self.games_of(player)
            if game.player_to_move == player and game.roll is not None
        )


def new_state(phase: Phase = Phase.REST) -> KnucklebonesState:
    """No intents and no games, in ``phase``."""
    return KnucklebonesState(phase=phase)


def with_game(state: KnucklebonesState, game: Game) -> KnucklebonesState:
    """``state`` with ``game`` replacing the game of the same number."""
    games = list(state.games)
    games[game.number - 1] = game
    return replace(state, games=tuple(games))
