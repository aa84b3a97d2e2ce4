"""Stones as objects (A Nomic rules 373-377, seed 002): Reserve, In Play, Captured.

Purchases cost (5^n)-1 points where n counts the Stones the buyer bought
earlier that nweek (374); Reserve Stones are transferable (375); Captured
Stones sell for 1 point each (377).  The pure package says what things cost;
the points ledger is the caller's.
"""

from __future__ import annotations

import pytest

from bot.games.errors import IllegalActionError
from bot.games.go.anomic import (
    AnomicParameters,
    AnomicState,
    MoveContext,
    StonePlaced,
    StonesPurchased,
    StonesSold,
    StonesTransferred,
    add_players,
    new_game,
    place_stone,
    purchase_prices,
    purchase_stones,
    render_board,
    sell_captured,
    transfer_reserve,
)
from bot.testing.anomic_diagrams import EMPTY_5X5, SMALL, drawn_position, page

PLAYERS = {"A": "Ann", "B": "Bob"}


def position(text: str, parameters: AnomicParameters = SMALL) -> AnomicState:
    """The diagram's stones (A Ann, B Bob); both are Go players."""
    return drawn_position(text, PLAYERS, parameters)


def players() -> AnomicState:
    return add_players(new_game(SMALL), ["Ann", "Bob"])


def reserve_of(state: AnomicState, name: str) -> int:
    return state.record_of(name).reserve


# --- 374: purchase -----------------------------------------------------------------


def test_the_prices_within_one_nweek_are_five_to_the_n_minus_one() -> None:
    assert purchase_prices(new_game(SMALL), "Ann", nweek=3, count=4) == (0, 4, 24, 124)


def test_a_purchase_creates_reserve_stones_and_raises_the_next_price() -> None:
    state, bought = purchase_stones(players(), "Ann", nweek=3, count=2, points_available=4)
    assert bought == StonesPurchased("Ann", 2, 4, (0, 4))
    assert reserve_of(state, "Ann") == 2
    assert purchase_prices(state, "Ann", nweek=3, count=2) == (24, 124)
    # n counts only the buyer's own purchases.
    assert purchase_prices(state, "Bob", nweek=3, count=1) == (0,)


def test_the_count_starts_again_in_the_next_nweek() -> None:
    state, _ = purchase_stones(players(), "Ann", nweek=3, count=3, points_available=28)
    assert purchase_prices(state, "Ann", nweek=4, count=2) == (0, 4)
    state, bought = purchase_stones(state, "Ann", nweek=4, count=1, points_available=0)
    assert bought == StonesPurchased("Ann", 1, 0, (0,))
    assert reserve_of(state, "Ann") == 4
    assert purchase_prices(state, "Ann", nweek=4, count=1) == (4,)


def test_a_purchase_is_refused_when_the_points_fall_short() -> None:
    state, _ = purchase_stones(players(), "Ann", nweek=3, count=2, points_available=4)
    with pytest.raises(IllegalActionError) as refusal:
        purchase_stones(state, "Ann", nweek=3, count=1, points_available=23)
    assert refusal.value.rule == "374"
    assert "the price is 24 points" in refusal.value.message
    assert "e has 23" in refusal.value.message
    state, bought = purchase_stones(state, "Ann", nweek=3, count=1, points_available=24)
    assert (bought.cost, reserve_of(state, "Ann")) == (24, 3)


def test_the_base_of_the_price_is_a_parameter() -> None:
    doubling = new_game(AnomicParameters(size=5, purchase_base=2))
    assert purchase_prices(doubling, "Ann", nweek=0, count=4) == (0, 1, 3, 7)


def test_buying_is_not_a_go_move() -> None:
    # Rule 368 lists the moves; a purchase is none of them, so it makes
    # nobody a Go player and starts no 19-hour wait.
    state, _ = purchase_stones(players(), "Ann", nweek=3, count=1, points_available=0)
    record = state.record_of("Ann")
    assert (record.is_go_player, record.last_limited_move_at) == (False, None)
    assert state.move_number == 0


@pytest.mark.parametrize("count", [0, -1])
def test_a_count_must_be_positive(count: int) -> None:
    with pytest.raises(IllegalActionError, match="must be positive") as refusal:
        purchase_stones(players(), "Ann", nweek=3, count=count, points_available=100)
    assert refusal.value.rule == "373"


# --- 375: transfer ---------------------------------------------------------------


def test_reserve_stones_are_transferred_at_the_owners_will() -> None:
    state, _ = purchase_stones(players(), "Ann", nweek=0, count=3, points_available=28)
    state, given = transfer_reserve(state, "Ann", "Bob", 2)
    assert given == StonesTransferred("Ann", "Bob", 2)
    assert (reserve_of(state, "Ann"), reserve_of(state, "Bob")) == (1, 2)


def test_a_transfer_is_refused_beyond_the_reserve_or_to_oneself() -> None:
    state, _ = purchase_stones(players(), "Ann", nweek=0, count=1, points_available=0)
    with pytest.raises(IllegalActionError, match="e has 1 Reserve Stone$") as refusal:
        transfer_reserve(state, "Ann", "Bob", 2)
    assert refusal.value.rule == "375"
    with pytest.raises(IllegalActionError, match="to emself"):
        transfer_reserve(state, "Ann", "Ann", 1)


# --- 376: placement from the Reserve (one reading, a parameter) -------------------

FROM_RESERVE = AnomicParameters(size=5, move_interval=0, placement_uses_reserve=True)


def test_placing_from_the_reserve_puts_one_reserve_stone_in_play() -> None:
    state, _ = purchase_stones(position(EMPTY_5X5, FROM_RESERVE), "Ann", 0, 2, points_available=4)
    result = place_stone(state, MoveContext("Ann", 0), FROM_RESERVE.parse_point("c3"))
    assert result.events == (StonePlaced("Ann", FROM_RESERVE.parse_point("c3"), True),)
    assert reserve_of(result.state, "Ann") == 1
    assert result.state.in_play("Ann") == 1


def test_placing_from_the_reserve_is_refused_without_one() -> None:
    with pytest.raises(IllegalActionError, match="Ann has no Reserve Stone") as refusal:
        place_stone(position(EMPTY_5X5, FROM_RESERVE), MoveContext("Ann", 0), 12)
    assert refusal.value.rule == "376"


def test_by_default_a_placement_creates_its_stone() -> None:
    result = place_stone(position(EMPTY_5X5), MoveContext("Ann", 0), SMALL.parse_point("c3"))
    assert result.events == (StonePlaced("Ann", SMALL.parse_point("c3"), False),)
    assert reserve_of(result.state, "Ann") == 0


# --- 369, 373 and 377: captured stones and their sale ----------------------------------


def test_captured_stones_join_the_capturers_pool_and_sell_for_a_point_each() -> None:
    before = position(
        """
           a b c d e
        5  . . . . .  5
        4  . . . . .  4
        3  . . . . .  3
        2  A . . . .  2
        1  B . . . .  1
           a b c d e
        """
    )
    before, _ = purchase_stones(before, "Ann", nweek=0, count=2, points_available=4)
    captured = place_stone(before, MoveContext("Bob", 0), SMALL.parse_point("c3")).state
    captured = place_stone(captured, MoveContext("Ann", 0), SMALL.parse_point("b1")).state
    assert render_board(captured) == page(
        """
        Political Go (A Nomic rules 365-377): game 1, after move 2

           a b c d e
        5  . . . . .  5
        4  . . . . .  4
        3  . . B . .  3
        2  A . . . .  2
        1  . A . . .  1
           a b c d e

        Mark  Player  In Play  Reserve  Captured  Captures  Allies
        A     Ann     2        2        1         1         none
        B     Bob     1        0        0         0         none

        Open alliance offers: none
        Last stone placed by: Ann
        """
    )
    sold_state, sold = sell_captured(captured, "Ann", 1)
    assert sold == StonesSold("Ann", 1, 1)
    assert sold_state.record_of("Ann").captured == 0
    # Selling destroys the stone; the captures of this game still count (370).
    assert sold_state.record_of("Ann").captures == 1


def test_a_sale_is_refused_beyond_the_captured_pool() -> None:
    state = add_players(new_game(SMALL), ["Ann"])
    state = state._replace(players=(state.record_of("Ann")._replace(captured=2),))
    with pytest.raises(IllegalActionError, match="e has 2$") as refusal:
        sell_captured(state, "Ann", 3)
    assert refusal.value.rule == "377"
    with pytest.raises(IllegalActionError, match="e has 0$"):
        sell_captured(state, "Zed", 1)


def test_the_sale_price_is_a_parameter() -> None:
    state = add_players(new_game(AnomicParameters(size=5, sale_price=3)), ["Ann"])
    state = state._replace(players=(state.record_of("Ann")._replace(captured=2),))
    _, sold = sell_captured(state, "Ann", 2)
    assert sold == StonesSold("Ann", 2, 6)
