"""``AnomicState`` as a value: built, changed, compared and copied.

The state is a named tuple (every placement unpacks and rebuilds it), so
these pin what a frozen value must still do: ``player_codes`` follows the
players through every change, equality ignores the position log, and a state
is never mistaken for a plain tuple of the same fields.
"""

from __future__ import annotations

import copy
import pickle

import pytest

from bot.games.go.anomic import (
    AnomicParameters,
    AnomicState,
    GoPlayer,
    MoveContext,
    PositionLog,
    add_players,
    new_game,
    place_stone,
    renamed,
)

SMALL = AnomicParameters(size=5)


def two_players() -> AnomicState:
    return add_players(new_game(SMALL), ["Ann", "Bob"])


def test_player_codes_follow_the_players_through_every_change() -> None:
    state = two_players()
    assert state.player_codes == {"Ann": 1, "Bob": 2}
    more = state._replace(players=(*state.players, GoPlayer("Cat", "C")))
    assert more.player_codes == {"Ann": 1, "Bob": 2, "Cat": 3}
    assert renamed(more, "Ann", "Eve").player_codes == {"Eve": 1, "Bob": 2, "Cat": 3}
    assert state.player_codes == {"Ann": 1, "Bob": 2}  # the original is unchanged


def test_player_codes_are_derived_never_given() -> None:
    state = two_players()
    with pytest.raises(TypeError):
        state._replace(player_codes={"Ann": 2, "Bob": 1})


def test_a_placement_keeps_the_codes_and_the_other_fields() -> None:
    state = two_players()._replace(game_number=4, offers=frozenset({("Bob", "Ann")}))
    after = place_stone(state, MoveContext("Ann", 0, nweek=7), 12).state
    assert type(after) is AnomicState
    assert after.player_codes == state.player_codes
    assert after.board[12] == 1 and after.move_number == 1 and after.game_number == 4
    assert after.last_placer == "Ann"
    assert (after.started_nweek, after.last_placement_nweek) == (7, 7)
    assert after.record_of("Ann").is_go_player and after.record_of("Ann").last_limited_move_at == 0
    assert after.record_of("Bob") == state.record_of("Bob")
    # Rule 368.2: the placement voided Bob's offer to Ann.
    assert after.offers == frozenset()
    assert len(after.positions) == 2 and len(state.positions) == 1


def test_equality_and_hash_leave_out_the_position_log() -> None:
    state = two_players()
    forgetful = state._replace(positions=PositionLog())
    assert forgetful == state
    assert (forgetful != state) is False  # __ne__ agrees with __eq__
    assert hash(forgetful) == hash(state)
    assert state._replace(move_number=1) != state


def test_a_state_is_not_equal_to_a_tuple_of_its_fields() -> None:
    state = two_players()
    assert state != tuple(state)
    assert tuple(state) != state
    assert state != state[:-2]


def test_a_state_survives_copy_and_pickle() -> None:
    state = place_stone(two_players(), MoveContext("Ann", 0), 3).state
    for copied in (copy.copy(state), copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        assert type(copied) is AnomicState
        assert copied == state
        assert copied.player_codes == state.player_codes
