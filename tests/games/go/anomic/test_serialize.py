"""Storing an A Nomic Political Go state as JSON and loading it back.

Everything round-trips except the position log of rule 368 a: the engine
keeps earlier configurations in its own table, and a loaded state's log holds
only its current position.
"""

from __future__ import annotations

import json

import pytest

from bot.games.errors import IllegalActionError
from bot.games.go.anomic import (
    AnomicParameters,
    AnomicState,
    MoveContext,
    board_key,
    board_to_marks,
    declare_war,
    marks_to_board,
    offer_alliance,
    place_stone,
    purchase_stones,
    render_board,
    state_from_json,
    state_to_json,
    with_alliances,
)
from bot.testing.anomic_diagrams import at, drawn_position

HOUR = 3600
START = 985132800  # 2001-03-21 00:00 UTC
SMALL = AnomicParameters(size=5)
PLAYERS = {"A": "Ann", "B": "Bob", "C": "Cat"}


def position(text: str) -> AnomicState:
    """The diagram's stones (A Ann, B Bob, C Cat); all three are Go players."""
    return drawn_position(text, PLAYERS, SMALL)


def through_json(state: AnomicState, parameters: AnomicParameters | None = None) -> AnomicState:
    text = json.dumps(state_to_json(state))
    return state_from_json(json.loads(text), parameters)


def mid_game() -> AnomicState:
    """Alliances, an open offer, a breathless Dragon, purchases, captures and times."""
    state = with_alliances(
        position(
            """
               a b c d e
            5  . B . . .  5
            4  B A B . .  4
            3  . B . A .  3
            2  . . A B A  2
            1  . . . A .  1
               a b c d e
            """
        ),
        [("Ann", "Bob"), ("Bob", "Cat")],
    )
    state = place_stone(state, MoveContext("Cat", START, nweek=3), at("e5")).state
    state = offer_alliance(state, MoveContext("Ann", START + HOUR, nweek=3), "Cat").state
    # Bob's war captures Ann's b4 and leaves his own d2 without liberties.
    state = declare_war(state, MoveContext("Bob", START + 2 * HOUR, nweek=4), "Ann").state
    state, _ = purchase_stones(state, "Cat", nweek=4, count=2, points_available=4)
    return state._replace(game_number=3)


def test_a_state_round_trips_through_json() -> None:
    state = mid_game()
    assert state.breathless == {at("d2")}
    assert state.offers == {("Ann", "Cat")}
    restored = through_json(state)
    assert restored == state
    assert restored.key == board_key(state.board)
    assert restored.player_codes == state.player_codes
    assert render_board(restored) == render_board(state)


def test_the_position_log_restarts_from_the_stored_position() -> None:
    state = mid_game()
    assert len(state.positions) == 4
    restored = through_json(state)
    assert list(restored.positions) == [(state.key, state.board, state.move_number)]


KO_TAKEN = """
       a b c d e
    5  . . . . .  5
    4  . B A . .  4
    3  B A . A .  3
    2  . B A . .  2
    1  . . . . .  1
       a b c d e
    """


def test_the_engine_supplies_the_earlier_positions_after_loading() -> None:
    # Ann's b3 stands in a ko; Bob takes it at c3, and Ann may not retake at
    # once.  A loaded state knows only its own position, so the retake is
    # refused only when the engine passes the stored history back in.
    state = position(KO_TAKEN)
    state = place_stone(state, MoveContext("Bob", START), at("c3")).state
    retake = MoveContext("Ann", START + 20 * HOUR)
    with pytest.raises(IllegalActionError, match="repeat its configuration"):
        place_stone(state, retake, at("b3"))
    restored = through_json(state)
    with pytest.raises(IllegalActionError, match="repeat its configuration") as refusal:
        place_stone(restored, retake, at("b3"), history=state.positions)
    assert refusal.value.rule == "368 a"
    assert place_stone(restored, retake, at("b3")).state.board == position(KO_TAKEN).board


def test_loading_with_changed_parameters_keeps_the_rest() -> None:
    hourly = AnomicParameters(size=5, move_interval=HOUR)
    restored = through_json(mid_game(), hourly)
    assert restored.parameters == hourly
    assert restored._replace(parameters=SMALL) == mid_game()


def test_loading_refuses_other_data() -> None:
    data = state_to_json(mid_game())
    with pytest.raises(ValueError, match="not an A Nomic Political Go state"):
        state_from_json(data | {"format": "political-go/1"})
    with pytest.raises(ValueError, match="the stored board has 25 vertices, the game 49"):
        state_from_json(data, AnomicParameters(size=7))


def test_boards_as_marks_for_the_engines_position_table() -> None:
    state = mid_game()
    text = board_to_marks(state, state.board)
    # From a1 along each rank, rank 1 first.
    assert text == "...A." + "..ABA" + ".B.A." + "B.B.." + ".B..C"
    assert marks_to_board(state, text) == state.board
