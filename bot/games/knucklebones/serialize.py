"""A ``KnucklebonesState`` as JSON-able data and back, exactly.

Matrices are lists of columns (row 1 first), instants ISO 8601 strings,
enums their values.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from bot.games.knucklebones.intents import Intent, IntentMode
from bot.games.knucklebones.matrix import Matrix, matrix_from_columns
from bot.games.knucklebones.state import (
    EndReason,
    Game,
    KnucklebonesState,
    LastTurn,
    Outcome,
    Phase,
)

FORMAT = "knucklebones/1"


def state_to_json(state: KnucklebonesState) -> dict[str, Any]:
    """``state`` as a dictionary of JSON types (str, int, None, list, dict)."""
    return {
        "format": FORMAT,
        "phase": state.phase.value,
        "intents": [_intent_to_json(intent) for intent in state.intents],
        "next_intent_number": state.next_intent_number,
        "games": [_game_to_json(game) for game in state.games],
    }


def state_from_json(data: Mapping[str, Any]) -> KnucklebonesState:
    """The state ``state_to_json`` described; raises ``ValueError`` if ``data``
    is not in this format."""
    if data.get("format") != FORMAT:
        raise ValueError(f"not a Knucklebones state in format {FORMAT}: {data.get('format')!r}")
    return KnucklebonesState(
        phase=Phase(data["phase"]),
        intents=tuple(_intent_from_json(intent) for intent in data["intents"]),
        games=tuple(_game_from_json(game) for game in data["games"]),
        next_intent_number=data["next_intent_number"],
    )


def _intent_to_json(intent: Intent) -> dict[str, Any]:
    return {
        "number": intent.number,
        "player": intent.player,
        "opponents": list(intent.opponents),
        "mode": intent.mode.name,
    }


def _intent_from_json(data: Mapping[str, Any]) -> Intent:
    return Intent(
        data["number"], data["player"], tuple(data["opponents"]), IntentMode[data["mode"]]
    )


def _game_to_json(game: Game) -> dict[str, Any]:
    return {
        "number": game.number,
        "players": list(game.players),
        "matrices": [_matrix_to_json(matrix) for matrix in game.matrices],
        "to_move": game.to_move,
        "roll": game.roll,
        "notified_at": _instant_to_json(game.notified_at),
        "turns": game.turns,
        "last_turn": None if game.last_turn is None else _last_turn_to_json(game.last_turn),
        "outcome": None if game.outcome is None else _outcome_to_json(game.outcome),
        "started_at": _instant_to_json(game.started_at),
    }


def _game_from_json(data: Mapping[str, Any]) -> Game:
    first, second = data["players"]
    matrices = tuple(matrix_from_columns(columns) for columns in data["matrices"])
    last_turn, outcome = data["last_turn"], data["outcome"]
    return Game(
        number=data["number"],
        players=(first, second),
        matrices=(matrices[0], matrices[1]),
        to_move=data["to_move"],
        roll=data["roll"],
        notified_at=_instant_from_json(data["notified_at"]),
        turns=data["turns"],
        last_turn=None if last_turn is None else LastTurn(**last_turn),
        outcome=None if outcome is None else _outcome_from_json(outcome),
        started_at=_instant_from_json(data["started_at"]),
    )


def _matrix_to_json(matrix: Matrix) -> list[list[int]]:
    return [list(column) for column in matrix]


def _last_turn_to_json(last: LastTurn) -> dict[str, Any]:
    return {
        "player": last.player,
        "value": last.value,
        "column": last.column,
        "destroyed": last.destroyed,
    }


def _outcome_to_json(outcome: Outcome) -> dict[str, Any]:
    return {
        "reason": outcome.reason.name,
        "winner": outcome.winner,
        "scores": list(outcome.scores),
        "forfeited": outcome.forfeited,
    }


def _outcome_from_json(data: Mapping[str, Any]) -> Outcome:
    first, second = data["scores"]
    return Outcome(EndReason[data["reason"]], data["winner"], (first, second), data["forfeited"])


def _instant_to_json(instant: datetime | None) -> str | None:
    return None if instant is None else instant.isoformat()


def _instant_from_json(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)
