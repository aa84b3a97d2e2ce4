"""The state as JSON and back, exactly."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from bot.games.knucklebones import (
    BeginBattlePhase,
    BeginRestPhase,
    ExpireTurn,
    IntentMode,
    NotifyTurn,
    PlaceDie,
    StateIntent,
    apply,
    new_state,
    state_from_json,
    state_to_json,
)

START = datetime(2026, 1, 4, 12, 0, tzinfo=UTC)


def test_a_state_with_intents_running_and_finished_games_round_trips() -> None:
    state, _ = apply(new_state(), StateIntent("Alice", ("Bob", "Carol"), IntentMode.EACH))
    state, _ = apply(state, StateIntent("Bob", ("Alice",)))
    state, _ = apply(state, StateIntent("Carol"))
    state, _ = apply(state, BeginBattlePhase(START, (2, 1)))
    state, _ = apply(state, NotifyTurn(1, START, 6))
    state, _ = apply(state, PlaceDie("Bob", 2))
    state, _ = apply(state, NotifyTurn(1, START, 6))
    state, _ = apply(state, PlaceDie("Alice", 2))
    state, _ = apply(state, NotifyTurn(2, START, 1))
    state, _ = apply(state, ExpireTurn(2, START + timedelta(days=2)))
    state, _ = apply(state, BeginRestPhase(START + timedelta(days=7)))
    state, _ = apply(state, StateIntent("Dave", ("Alice", "Bob"), IntentMode.ONE_OF))
    data = state_to_json(state)
    assert state_from_json(json.loads(json.dumps(data))) == state
    assert data["games"][0]["matrices"] == [[[], [], []], [[], [6], []]]
    assert data["games"][1]["outcome"]["winner"] == "Carol"


def test_another_format_is_refused() -> None:
    with pytest.raises(ValueError, match="not a Knucklebones state"):
        state_from_json({"format": "political-go/1"})
