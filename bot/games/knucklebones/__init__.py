"""Knucklebones: seed 001 (an Infinite Nomic proposal), pure and standard-library only.

No randomness of its own: the turn-order draws and every turn's 1d6 come in
with the actions, so the engine records and publishes them and a replay of
the archive applies the same values.

Rules cited (``rules``): ``RULE_ACTIONS`` (001-0), ``RULE_COMMENCEMENT``
(001-1), ``RULE_FIELD`` (001-2), ``RULE_TURN_ORDER`` (001-3), ``RULE_TURN``
(001-4), ``RULE_WINNING`` (001-5), ``RULE_DICE`` (001-6); ``PRIZE`` names
the winner's Handy Pack and Chip.

Matrices (``matrix``)
    ``Die = int``; ``Column = tuple[Die, ...]`` (order inserted, row 1
    first); ``Matrix`` (three columns); ``EMPTY_MATRIX``.
    ``column_score``, ``column_scores``, ``matrix_score`` (v*k*k per value),
    ``is_full``, ``columns_with_room``, ``with_die(matrix, column, value)``,
    ``without_value(matrix, column, value) -> (Matrix, destroyed)``,
    ``matrix_from_columns``, ``matrix_from_rows``, ``matrix_rows``.

Intents (``intents``)
    ``Intent(number, player, opponents, mode)``, ``IntentMode.ONE_OF`` /
    ``EACH``, ``make_intent``, ``Pairing(first, second, intents)``,
    ``pair_intents(intents) -> tuple[Pairing, ...]``, ``unpaired``.

State (``state``, immutable)
    ``KnucklebonesState(phase, intents, games, next_intent_number)`` with
    ``game(number)``, ``running_games``, ``games_of(player)``,
    ``awaiting(player)``; ``Game(number, players, matrices, to_move, roll,
    notified_at, turns, last_turn, outcome, started_at)`` with ``deadline``,
    ``scores``, ``player_to_move``, ``opponent_of``, ``matrix_of``;
    ``Phase.REST`` / ``BATTLE``; ``Outcome``, ``EndReason``, ``LastTurn``;
    ``new_state(phase=Phase.REST)``.

Actions and ``apply(state, action) -> (state, events)`` (``actions``, ``play``)
    ``StateIntent(player, opponents=(), mode=None)``,
    ``BeginBattlePhase(at, turn_order_draws)`` (one 1d2 per
    ``pending_pairings(state)``), ``BeginRestPhase(at)``,
    ``NotifyTurn(game, at, roll)`` (the 1d6 is rolled at the notification),
    ``PlaceDie(player, column, game=None, value=None)``,
    ``ExpireTurn(game, at, clock_stops=())``.  Refusals raise
    ``IllegalActionError``, ``AmbiguousActionError`` or ``NotYetError``
    citing the rule; impossible values raise ``ValueError``.  Events are
    ``IntentStated``, ``PhaseBegan``, ``GameStarted``, ``IntentLapsed``,
    ``TurnNotified``, ``DiePlaced``, ``DiceDestroyed``, ``TurnForfeited``,
    ``GameEnded``, ``PrizeAwarded``.

Time (``timing``)
    ``TURN_TIME`` (24 hours), ``ClockStop(start, end=None)``,
    ``forfeit_deadline(notified_at, clock_stops=())``,
    ``forfeit_is_due(notified_at, now, clock_stops=())``.

Text and storage (``render``, ``serialize``)
    ``render_game(game, *, deadline=None) -> str``,
    ``parse_matrices(text) -> (Matrix, Matrix)``;
    ``state_to_json(state)``, ``state_from_json(data)``.

Readings of ambiguous text are explained where they are implemented:
columns as sequences and rows (``matrix``), intents and pairing
(``intents``), the 24 hours and Clock stops (``timing``), the roll shown in
the notification (``actions.NotifyTurn``), lapsed intents and games running
across phases (``play``).  Dice items (001-6) have no description in the
seeds, so their effects are not refereed here.
"""

from bot.games.knucklebones.actions import (
    BeginBattlePhase,
    BeginRestPhase,
    ExpireTurn,
    KnucklebonesAction,
    NotifyTurn,
    PlaceDie,
    StateIntent,
)
from bot.games.knucklebones.events import (
    DiceDestroyed,
    DiePlaced,
    GameEnded,
    GameStarted,
    IntentLapsed,
    IntentStated,
    KnucklebonesEvent,
    PhaseBegan,
    PrizeAwarded,
    TurnForfeited,
    TurnNotified,
)
from bot.games.knucklebones.intents import (
    Intent,
    IntentMode,
    Pairing,
    PlayerId,
    make_intent,
    pair_intents,
    unpaired,
)
from bot.games.knucklebones.matrix import (
    EMPTY_MATRIX,
    Column,
    Die,
    Matrix,
    column_score,
    column_scores,
    columns_with_room,
    is_full,
    matrix_from_columns,
    matrix_from_rows,
    matrix_rows,
    matrix_score,
    with_die,
    without_value,
)
from bot.games.knucklebones.play import apply, pending_pairings
from bot.games.knucklebones.render import parse_matrices, render_game
from bot.games.knucklebones.rules import (
    PRIZE,
    RULE_ACTIONS,
    RULE_COMMENCEMENT,
    RULE_DICE,
    RULE_FIELD,
    RULE_TURN,
    RULE_TURN_ORDER,
    RULE_WINNING,
)
from bot.games.knucklebones.serialize import state_from_json, state_to_json
from bot.games.knucklebones.state import (
    EndReason,
    Game,
    KnucklebonesState,
    LastTurn,
    Outcome,
    Phase,
    new_state,
)
from bot.games.knucklebones.timing import (
    TURN_TIME,
    ClockStop,
    forfeit_deadline,
    forfeit_is_due,
)

__all__ = [
    "EMPTY_MATRIX",
    "PRIZE",
    "RULE_ACTIONS",
    "RULE_COMMENCEMENT",
    "RULE_DICE",
    "RULE_FIELD",
    "RULE_TURN",
    "RULE_TURN_ORDER",
    "RULE_WINNING",
    "TURN_TIME",
    "BeginBattlePhase",
    "BeginRestPhase",
    "ClockStop",
    "Column",
    "DiceDestroyed",
    "Die",
    "DiePlaced",
    "EndReason",
    "ExpireTurn",
    "Game",
    "GameEnded",
    "GameStarted",
    "Intent",
    "IntentLapsed",
    "IntentMode",
    "IntentStated",
    "KnucklebonesAction",
    "KnucklebonesEvent",
    "KnucklebonesState",
    "LastTurn",
    "Matrix",
    "NotifyTurn",
    "Outcome",
    "Pairing",
    "Phase",
    "PhaseBegan",
    "PlaceDie",
    "PlayerId",
    "PrizeAwarded",
    "StateIntent",
    "TurnForfeited",
    "TurnNotified",
    "apply",
    "column_score",
    "column_scores",
    "columns_with_room",
    "forfeit_deadline",
    "forfeit_is_due",
    "is_full",
    "make_intent",
    "matrix_from_columns",
    "matrix_from_rows",
    "matrix_rows",
    "matrix_score",
    "new_state",
    "pair_intents",
    "parse_matrices",
    "pending_pairings",
    "render_game",
    "state_from_json",
    "state_to_json",
    "unpaired",
    "with_die",
    "without_value",
]
