"""Set-up without moves (A Nomic's Political Go, seed 002): stones, alliances, Go players.

Set-up is the Go Consul's tool, not a move; but a position it makes must obey
rule 369 like any other: a Dragon it leaves without liberties is captured
after the next move of a player it is unfriendly to.
"""

from __future__ import annotations

import pytest

from bot.games.go.anomic import (
    AnomicState,
    DragonCaptured,
    MoveContext,
    StoneShare,
    as_go_players,
    new_game,
    place_stone,
    with_alliances,
    with_stones,
)
from bot.testing.anomic_diagrams import SMALL, at, board_of, diagram, drawn_position

PLAYERS = {"A": "Ann", "B": "Bob"}


def position(text: str) -> AnomicState:
    """The diagram's stones (A Ann, B Bob); both are Go players."""
    return drawn_position(text, PLAYERS, SMALL)


def test_set_up_stones_make_nobody_a_go_player_or_the_last_placer() -> None:
    state = with_stones(new_game(SMALL), {at("c3"): "Ann", at("d4"): "Bob"})
    assert state.go_players == ()
    assert (state.last_placer, state.move_number) == (None, 0)
    assert state.stones == {at("c3"): "Ann", at("d4"): "Bob"}
    assert as_go_players(state, ["Bob"]).go_players == ("Bob",)


def test_set_up_stones_go_on_empty_points_of_the_board() -> None:
    state = with_stones(new_game(SMALL), {at("c3"): "Ann"})
    with pytest.raises(ValueError, match="c3 is already occupied"):
        with_stones(state, {at("c3"): "Bob"})
    with pytest.raises(ValueError, match="off the board"):
        with_stones(state, {25: "Bob"})


BOB_ENCLOSED = """
       a b c d e
    5  . . . . .  5
    4  . . . . .  4
    3  . . . . .  3
    2  A . . . .  2
    1  B A . . .  1
       a b c d e
    """


def test_a_set_up_dragon_without_liberties_is_captured_after_an_unfriendly_move() -> None:
    state = position(BOB_ENCLOSED)
    assert state.breathless == {at("a1")}
    # Bob's own move leaves it (369 takes only Dragons unfriendly to the mover).
    state = place_stone(state, MoveContext("Bob", 0), at("c3")).state
    assert state.breathless == {at("a1")}
    result = place_stone(state, MoveContext("Ann", 0), at("d4"))
    assert board_of(result.state) == diagram(
        """
           a b c d e
        5  . . . . .  5
        4  . . . A .  4
        3  . . B . .  3
        2  A . . . .  2
        1  . A . . .  1
           a b c d e
        """
    )
    assert result.events[1] == DragonCaptured(
        frozenset({at("a1")}), (("Bob", 1),), (StoneShare("Ann", 2, 1),)
    )
    assert result.state.breathless == frozenset()


def test_a_set_up_alliance_gives_the_enclosed_stone_its_allys_liberties() -> None:
    allied = with_alliances(position(BOB_ENCLOSED), [("Ann", "Bob")])
    assert allied.are_allies("Bob", "Ann")
    assert allied.breathless == frozenset()
