"""Field Matches, states and Turn records survive a trip through JSON text."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.games.dice import DrawSource
from bot.games.field import (
    FieldState,
    Request,
    TurnContext,
    match_from_json,
    match_to_json,
    state_from_json,
    state_to_json,
    turn_field,
    turn_record_from_json,
    turn_record_to_json,
)
from bot.games.field.life import LIFE, LIFE_RULES, evolve, initialize, start_life, tweak

SEED = bytes(range(32))
CONTEXT = TurnContext(nweek=3, referee="referee", players=("alice", "bob"))


def through_text(data: dict[str, Any]) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(json.dumps(data))
    return loaded


def played() -> FieldState:
    state = start_life(FieldState(), CONTEXT, DrawSource(SEED, "s")).state
    state = initialize(state, CONTEXT, DrawSource(SEED, "i")).state
    return evolve(state, CONTEXT, DrawSource(SEED, "e")).state


def test_the_life_document_round_trips() -> None:
    assert match_from_json(through_text(match_to_json(LIFE))) == LIFE


def test_a_played_state_round_trips_and_plays_on_identically() -> None:
    state = played()
    copy = state_from_json(through_text(state_to_json(state)))
    assert copy == state
    empty_square = next(item.square for item in state.objects if item.attribute("Color") is None)
    square = state.geometry.format_square(empty_square or 0)
    assert tweak(copy, CONTEXT, "alice", square) == tweak(state, CONTEXT, "alice", square)


def test_turn_records_round_trip_with_refusals_and_endings() -> None:
    state = played()
    requests = (Request("alice", "Evolve", text="Evolve"), Request("bob", "Dance", target=3))
    record = turn_field(state, LIFE_RULES, requests, CONTEXT, DrawSource(SEED, "t")).record
    assert len(record.refusals) == 2 and len(record.priority_order) == 25
    assert turn_record_from_json(through_text(turn_record_to_json(record))) == record


def test_malformed_data_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="malformed Field Match"):
        match_from_json({"name": "Life"})
    with pytest.raises(ValueError, match="malformed Field state"):
        state_from_json({"match": None, "objects": [{"id": 1}]})
    document = match_to_json(LIFE)
    document["parameters"]["null chance"] = {"numerator": 11}
    with pytest.raises(ValueError, match="malformed Field Match"):
        match_from_json(document)
