"""JSON round trip of the Political Go state."""

from __future__ import annotations

import json
from dataclasses import asdict

import pytest

from bot.games.go import (
    GoParameters,
    GoState,
    MoveContext,
    add_players,
    consent_to_alliance,
    new_game,
    parse_point,
    pass_move,
    place_stone,
    state_from_json,
    state_to_json,
)


def played_game() -> GoState:
    state = add_players(new_game(), ["Rob", "Bob the Voting Fish", "Someone Else"])
    moves = [("Rob", "C3"), ("Someone Else", "C4"), ("Rob", "B4"), ("Someone Else", "G7")]
    moves += [("Rob", "D4"), ("Someone Else", "A1"), ("Rob", "C5")]
    for period, (player, where) in enumerate(moves):
        state = place_stone(state, MoveContext(player, period), parse_point(where, 9)).state
    state = consent_to_alliance(state, MoveContext("Rob", 10), "Someone Else").state
    state = consent_to_alliance(state, MoveContext("Someone Else", 10), "Rob").state
    state = consent_to_alliance(state, MoveContext("Bob the Voting Fish", 10), "Rob").state
    return pass_move(state, MoveContext("Bob the Voting Fish", 11)).state


def test_round_trip_through_json_text_is_exact() -> None:
    state = played_game()
    assert state.score_of("Rob") == 1  # C4 was captured
    data = json.loads(json.dumps(state_to_json(state)))
    restored = state_from_json(data)
    assert restored == state
    assert restored.history == state.history
    assert restored.last_mover == "Bob the Voting Fish"
    assert state_to_json(restored) == data


def test_json_is_readable() -> None:
    data = state_to_json(played_game())
    assert data["format"] == "political-go/1"
    assert data["stones"]["C3"] == "Rob"
    assert data["alliances"] == [["Rob", "Someone Else"]]
    assert data["pending_consents"] == [["Bob the Voting Fish", "Rob"]]
    assert data["history"][0] == {"board": "." * 81, "alliances": []}


def test_parameters_survive_the_round_trip() -> None:
    parameters = GoParameters(size=19, lowercase_columns=True, rule_capture="369")
    state = add_players(new_game(parameters), ["Joel"])
    restored = state_from_json(state_to_json(state))
    assert restored.parameters == parameters
    assert restored == state


def test_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="not a Political Go state"):
        state_from_json({"format": "chess/1"})


def test_stored_json_is_what_asdict_and_format_point_wrote() -> None:
    state = played_game()
    data = state_to_json(state, include_history=False)
    assert data["parameters"] == asdict(state.parameters)
    assert list(data["parameters"]) == list(asdict(state.parameters))
    assert data["players"] == [asdict(record) for record in state.players]
    assert [list(record) for record in data["players"]] == [
        list(asdict(record)) for record in state.players
    ]
    stones = {state.parameters.format_point(point): owner for point, owner in state.stones.items()}
    assert list(data["stones"].items()) == list(stones.items())


@pytest.mark.parametrize("name", ["c3", " C3", "C03"])
def test_a_stone_named_otherwise_is_read_as_a_player_would_write_it(name: str) -> None:
    data = state_to_json(played_game(), include_history=False)
    owner = data["stones"].pop("C3")
    data["stones"][name] = owner
    assert state_from_json(data).owner_at(parse_point("C3", 9)) == owner


def test_a_stone_off_the_board_is_refused() -> None:
    data = state_to_json(played_game(), include_history=False)
    data["stones"]["J1"] = "Rob"
    with pytest.raises(ValueError, match="J1"):
        state_from_json(data)
