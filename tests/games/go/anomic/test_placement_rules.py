"""Rule 368's limits on moves (A Nomic, seed 002): b (self-capture), c (no
two stones in a row) and "no more than one Go move within 19 hours".

Times are seconds since the epoch, from 2001-03-21 00:00 UTC (the day rule
365 was created).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest

from bot.games.dice import DrawSource
from bot.games.errors import IllegalActionError
from bot.games.go.anomic import (
    AnomicParameters,
    AnomicState,
    DragonCaptured,
    MoveContext,
    MoveResult,
    StonePlaced,
    StoneShare,
    accept_alliance,
    declare_war,
    moves,
    next_move_time,
    offer_alliance,
    place_stone,
    with_alliances,
    withdraw_offer,
)
from bot.testing.anomic_diagrams import EMPTY_5X5, board_of, diagram, drawn_position

HOUR = 3600
DAY = 24 * HOUR
START = int(datetime(2001, 3, 21, tzinfo=UTC).timestamp())
NINETEEN_HOURS = AnomicParameters(size=5)
PLAYERS = {"A": "Ann", "B": "Bob", "C": "Cat"}


def position(text: str, parameters: AnomicParameters = NINETEEN_HOURS) -> AnomicState:
    """The diagram's stones (A Ann, B Bob, C Cat); all three are Go players."""
    return drawn_position(text, PLAYERS, parameters)


def place(state: AnomicState, player: str, where: str, at: int = START) -> MoveResult:
    return place_stone(state, MoveContext(player, at), state.parameters.parse_point(where))


def offer(state: AnomicState, player: str, offeree: str, at: int = START) -> MoveResult:
    return offer_alliance(state, MoveContext(player, at), offeree)


# --- 368 b: no friendly Dragon without liberties, unless an enemy one too -------


def test_placing_into_a_point_without_liberties_is_refused() -> None:
    before = position(
        """
           a b c d e
        5  . . . . .  5
        4  . . . . .  4
        3  . . . . .  3
        2  B . . . .  2
        1  . B . . .  1
           a b c d e
        """
    )
    with pytest.raises(IllegalActionError) as refusal:
        place(before, "Ann", "a1")
    assert refusal.value.rule == "368 b"
    assert "friendly Dragon with no liberties" in refusal.value.message


def test_placing_without_liberties_is_allowed_when_it_also_takes_an_enemy_dragons_last() -> None:
    before = position(
        """
           a b c d e
        5  . . . . .  5
        4  . . . . .  4
        3  . . . . .  3
        2  B A . . .  2
        1  . B A . .  1
           a b c d e
        """
    )
    result = place(before, "Ann", "a1")
    assert board_of(result.state) == diagram(
        """
           a b c d e
        5  . . . . .  5
        4  . . . . .  4
        3  . . . . .  3
        2  B A . . .  2
        1  A . A . .  1
           a b c d e
        """
    )
    assert result.events[1] == DragonCaptured(
        frozenset({NINETEEN_HOURS.parse_point("b1")}), (("Bob", 1),), (StoneShare("Ann", 3, 1),)
    )


ALLY_IN_ATARI = """
       a b c d e
    5  . . . . .  5
    4  . . . . .  4
    3  C . . . .  3
    2  . C . . .  2
    1  B C . . .  1
       a b c d e
    """


def test_filling_an_allys_last_liberty_forms_a_friendly_dragon_without_liberties() -> None:
    # With Bob as her ally, Ann's a2 joins Bob's a1 in one friendly Dragon
    # with no liberties, and no enemy Dragon loses its last: refused.
    before = with_alliances(position(ALLY_IN_ATARI), [("Ann", "Bob")])
    with pytest.raises(IllegalActionError) as refusal:
        place(before, "Ann", "a2")
    assert refusal.value.rule == "368 b"


def test_the_same_point_captures_when_the_owner_is_no_ally() -> None:
    # Unallied, Bob's a1 is an enemy Dragon that loses its last liberty too.
    # Ann and Cat each have one stone next to it: a recorded draw decides.
    draws = DrawSource(bytes(32), "ctx")
    point = NINETEEN_HOURS.parse_point("a2")
    result = place_stone(position(ALLY_IN_ATARI), MoveContext("Ann", START), point, draws=draws)
    assert board_of(result.state) == diagram(
        """
           a b c d e
        5  . . . . .  5
        4  . . . . .  4
        3  C . . . .  3
        2  A C . . .  2
        1  . C . . .  1
           a b c d e
        """
    )
    capture = result.events[1]
    assert isinstance(capture, DragonCaptured)
    assert capture.tie_order == tuple(draws.draws[0].options[i] for i in draws.draws[0].result)
    assert capture.shares[0] == StoneShare(capture.tie_order[0], 1, 1)


# --- 368 c: "A Go player may never place two stones consecutively" ----------


def test_a_second_stone_in_a_row_is_refused_even_a_day_later() -> None:
    state = place(position(EMPTY_5X5), "Ann", "c3").state
    with pytest.raises(IllegalActionError) as refusal:
        place(state, "Ann", "d3", at=START + DAY)
    assert refusal.value.rule == "368 c"
    assert "the last stone placed was eirs" in refusal.value.message


def test_refusals_come_in_the_rules_order_when_several_apply() -> None:
    # Ann placed last, and less than 19 hours ago: the 19 hours are named
    # first, then 368 c; an occupied vertex before both.
    state = place(position(EMPTY_5X5), "Ann", "c3").state
    with pytest.raises(IllegalActionError) as too_soon:
        place(state, "Ann", "d3", at=START + HOUR)
    assert too_soon.value.rule == "368" and "within 19 hours" in too_soon.value.message
    with pytest.raises(IllegalActionError) as occupied:
        place(state, "Ann", "c3", at=START + HOUR)
    assert occupied.value.rule == "368" and "a stone of Ann is there" in occupied.value.message
    with pytest.raises(ValueError, match="off the board"):
        place_stone(state, MoveContext("Ann", START + HOUR), 25)


def test_placement_events_name_placer_and_vertex_after_their_memo_is_emptied(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The memo of StonePlaced events is emptied whenever a new player would
    # make it hold more than ``limit`` players.
    memo = moves._PlacementEvents()
    memo.limit = 1
    monkeypatch.setattr(moves, "_PLACED", memo)
    state = position(EMPTY_5X5)
    for number, (player, where) in enumerate([("Ann", "c3"), ("Bob", "d4"), ("Ann", "b2")]):
        result = place(state, player, where, at=START + number * DAY)
        point = state.parameters.parse_point(where)
        assert result.events == (StonePlaced(player, point),)
        state = result.state
    assert list(memo) == ["Ann"]


def test_another_players_stone_in_between_lifts_it() -> None:
    state = place(position(EMPTY_5X5), "Ann", "c3").state
    state = place(state, "Bob", "d4", at=START + DAY).state
    after = place(state, "Ann", "d3", at=START + 2 * DAY).state
    assert after.last_placer == "Ann"
    assert board_of(after) == diagram(
        """
           a b c d e
        5  . . . . .  5
        4  . . . B .  4
        3  . . A A .  3
        2  . . . . .  2
        1  . . . . .  1
           a b c d e
        """
    )


def ann_offers_bob(state: AnomicState) -> AnomicState:
    return offer(state, "Ann", "Bob", at=START + DAY).state


def bob_offers_ann(state: AnomicState) -> AnomicState:
    return offer(state, "Bob", "Ann", at=START + DAY).state


def bob_declares_war_on_ann(state: AnomicState) -> AnomicState:
    return declare_war(state, MoveContext("Bob", START + DAY), "Ann").state


def ann_declares_war_on_bob(state: AnomicState) -> AnomicState:
    return declare_war(state, MoveContext("Ann", START + DAY), "Bob").state


@pytest.mark.parametrize(
    ("allied", "move_in_between"),
    [
        (False, ann_offers_bob),
        (False, bob_offers_ann),
        (True, bob_declares_war_on_ann),
        (True, ann_declares_war_on_bob),
    ],
)
def test_moves_that_place_no_stone_do_not_lift_it(
    allied: bool, move_in_between: Callable[[AnomicState], AnomicState]
) -> None:
    before = position(EMPTY_5X5)
    if allied:
        before = with_alliances(before, [("Ann", "Bob")])
    state = move_in_between(place(before, "Ann", "c3").state)
    assert state.last_placer == "Ann"
    with pytest.raises(IllegalActionError) as refusal:
        place(state, "Ann", "d3", at=START + 2 * DAY)
    assert refusal.value.rule == "368 c"


# --- "no more than one Go move within 19 hours" ------------------------------


def test_a_second_limited_move_within_19_hours_is_refused_naming_the_next_time() -> None:
    state = place(position(EMPTY_5X5), "Ann", "c3").state
    with pytest.raises(IllegalActionError) as refusal:
        offer(state, "Ann", "Bob", at=START + 19 * HOUR - 60)
    assert refusal.value.rule == "368"
    assert refusal.value.message == (
        "Ann cannot offer an alliance to Bob: eir last Go move was at 2001-03-21 00:00 UTC, "
        "and a Go player may make no more than one Go move within 19 hours; "
        "Ann may make a Go move again from 2001-03-21 19:00 UTC"
    )
    assert offer(state, "Ann", "Bob", at=START + 19 * HOUR).state.offers == {("Ann", "Bob")}


def test_the_limit_applies_to_placements_and_to_war() -> None:
    state = place(position(EMPTY_5X5), "Ann", "c3").state
    state = place(state, "Bob", "d3", at=START + HOUR).state
    with pytest.raises(IllegalActionError, match="from 2001-03-21 19:00 UTC"):
        place(state, "Ann", "b3", at=START + 2 * HOUR)
    allied = with_alliances(state, [("Ann", "Bob")])
    with pytest.raises(IllegalActionError, match="cannot declare war on Bob"):
        declare_war(allied, MoveContext("Ann", START + 2 * HOUR), "Bob")


def test_each_player_has_eir_own_19_hours() -> None:
    state = place(position(EMPTY_5X5), "Ann", "c3").state
    after = place(state, "Bob", "d3", at=START + 60).state
    assert after.record_of("Bob").last_limited_move_at == START + 60


def test_a_move_dated_before_the_last_one_is_judged_by_the_same_limit() -> None:
    # Posts are judged in arrival order; one dated an hour before Ann's last
    # move is still within 19 hours of it.
    state = place(position(EMPTY_5X5), "Ann", "c3").state
    with pytest.raises(IllegalActionError, match="within 19 hours"):
        offer(state, "Ann", "Bob", at=START - HOUR)


def test_accepting_and_withdrawing_are_exempt_and_do_not_restart_the_clock() -> None:
    state = offer(position(EMPTY_5X5), "Ann", "Cat").state  # Ann's limited move
    state = offer(state, "Bob", "Ann", at=START + HOUR).state
    state = accept_alliance(state, MoveContext("Ann", START + 2 * HOUR), "Bob").state
    state = withdraw_offer(state, MoveContext("Ann", START + 3 * HOUR), "Cat").state
    assert state.are_allies("Ann", "Bob")
    assert state.offers == frozenset()
    record = state.record_of("Ann")
    assert record.last_limited_move_at == START
    assert next_move_time(record, NINETEEN_HOURS.move_interval) == START + 19 * HOUR
    with pytest.raises(IllegalActionError, match="within 19 hours"):
        place(state, "Ann", "c3", at=START + 4 * HOUR)
    assert place(state, "Ann", "c3", at=START + 19 * HOUR).state.last_placer == "Ann"


def test_the_interval_is_a_parameter() -> None:
    hourly = position(EMPTY_5X5, AnomicParameters(size=5, move_interval=HOUR))
    state = offer(hourly, "Ann", "Bob").state
    with pytest.raises(IllegalActionError, match=r"again from 2001-03-21 01:00 UTC$"):
        offer(state, "Ann", "Cat", at=START + HOUR - 1)
    assert offer(state, "Ann", "Cat", at=START + HOUR).state.offers == {
        ("Ann", "Bob"),
        ("Ann", "Cat"),
    }


def test_next_move_time_is_none_before_any_limited_move() -> None:
    record = position(EMPTY_5X5).record_of("Ann")
    assert next_move_time(record, NINETEEN_HOURS.move_interval) is None
