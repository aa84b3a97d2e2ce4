"""Before/after diagram tests for Ko under alliances (rule 1639 E, seed 004)."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable

import pytest

from bot.games.errors import IllegalActionError
from bot.games.go import (
    GoState,
    InMemoryHistory,
    MoveContext,
    MoveResult,
    PositionRecord,
    break_alliance,
    consent_to_alliance,
    history_of,
    is_equivalent,
    occupancy_key,
    parse_legend,
    parse_point,
    pass_move,
    place_stone,
    position_from_diagram,
    render_board,
    state_from_json,
    state_to_json,
)
from bot.games.go.ko import PositionHistory


def diagram(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def play(
    state: GoState, player: str, where: str, period: int = 1, history: PositionHistory | None = None
) -> MoveResult:
    point = parse_point(where, state.parameters.size)
    return place_stone(state, MoveContext(player, period), point, history=history)


def assert_shows(state: GoState, expected: str) -> None:
    text = diagram(expected)
    players = [entry.name for entry in parse_legend(text)]
    assert render_board(state, players) == text


# Rob is about to fill C3; Sue can then take it at B3, leaving a ko.
KO_SHAPE = """
       A B C D E
     .-----------.
    5| . . . . . |5
    4| . R S . . |4
    3| R . . S . |3
    2| . R S . . |2
    1| . . . . . |1
     '-----------'
       A B C D E
    [R] Rob 0 points Allies: {rob_allies}
    [S] Sue 0 points Allies: none
    [T] Tom 0 points Allies: {tom_allies}
    """


def ko_position(*, rob_and_tom_allied: bool = False) -> GoState:
    """The ko shape after Rob's C3 (Move 1) and Sue's capture at B3 (Move 2)."""
    allies = ("T", "R") if rob_and_tom_allied else ("none", "none")
    text = KO_SHAPE.format(rob_allies=allies[0], tom_allies=allies[1])
    state = play(position_from_diagram(diagram(text)), "Rob", "C3").state
    return play(state, "Sue", "B3").state


def test_capturing_back_at_once_is_refused_in_plain_go() -> None:
    state = ko_position()
    assert_shows(
        state,
        """
           A B C D E
         .-----------.
        5| . . . . . |5
        4| . R S . . |4
        3| R S . S . |3
        2| . R S . . |2
        1| . . . . . |1
         '-----------'
           A B C D E
        [R] Rob -1 points Allies: none
        [S] Sue 1 points Allies: none
        """,
    )
    with pytest.raises(IllegalActionError) as raised:
        play(state, "Rob", "C3", period=2)
    assert raised.value.rule == "1639 E"
    assert str(raised.value) == (
        "Rob cannot place a stone at C3: the board would then be equivalent to the "
        "position after Move 1 (the same stones, up to swaps between Allies), and no "
        "Move that places a stone may repeat a previous board position."
    )


def test_capturing_back_after_moves_elsewhere_is_allowed() -> None:
    state = play(ko_position(), "Rob", "E5", period=2).state
    state = play(state, "Sue", "E1", period=2).state
    after = play(state, "Rob", "C3", period=3).state
    assert after.owner_at(parse_point("C3", 5)) == "Rob"
    assert after.owner_at(parse_point("B3", 5)) is None
    # Sue cannot take straight back either: that would repeat the position
    # after her own Move 4.
    with pytest.raises(IllegalActionError, match="position after Move 4"):
        play(after, "Sue", "B3", period=3)


def test_an_allys_stone_in_place_of_the_old_one_is_still_a_repetition() -> None:
    # Tom's stone on C3 instead of his Ally Rob's: equivalent to Move 1.
    with pytest.raises(IllegalActionError, match="position after Move 1") as raised:
        play(ko_position(rob_and_tom_allied=True), "Tom", "C3", period=2)
    assert raised.value.rule == "1639 E"


def test_an_opponents_stone_in_place_of_the_old_one_is_a_new_position() -> None:
    after = play(ko_position(), "Tom", "C3", period=2)
    assert after.state.owner_at(parse_point("C3", 5)) == "Tom"
    assert after.state.owner_at(parse_point("B3", 5)) is None


def test_allied_in_the_earlier_state_only_still_counts() -> None:
    state = break_alliance(ko_position(rob_and_tom_allied=True), MoveContext("Tom", 2), "Rob").state
    assert not state.are_allies("Rob", "Tom")
    with pytest.raises(IllegalActionError, match="position after Move 1"):
        play(state, "Tom", "C3", period=3)


def test_allied_in_the_current_state_only_counts() -> None:
    state = ko_position()
    state = consent_to_alliance(state, MoveContext("Rob", 2), "Tom").state
    state = consent_to_alliance(state, MoveContext("Tom", 2), "Rob").state
    state = pass_move(state, MoveContext("Sue", 2)).state
    with pytest.raises(IllegalActionError, match="position after Move 1"):
        play(state, "Tom", "C3", period=3)


def test_equivalence_needs_every_difference_to_be_between_allies() -> None:
    state = ko_position(rob_and_tom_allied=True)
    board = bytearray(state.board)
    rob, sue, tom = (state.player_codes[name] for name in ("Rob", "Sue", "Tom"))
    earlier = PositionRecord(bytes(board), frozenset())
    board[parse_point("B4", 5)] = tom
    assert is_equivalent(state, bytes(board), earlier)
    board[parse_point("C4", 5)] = rob
    assert not is_equivalent(state, bytes(board), earlier)
    assert sue not in state.friendship[rob]


def test_moves_that_place_no_stone_are_never_refused_by_ko() -> None:
    state = ko_position()
    formed = consent_to_alliance(state, MoveContext("Rob", 2), "Sue").state
    formed = consent_to_alliance(formed, MoveContext("Sue", 2), "Rob").state
    # Breaking the alliance brings back the position after Move 2 exactly.
    broken = break_alliance(formed, MoveContext("Rob", 3), "Sue")
    assert broken.state.board == state.board
    assert broken.state.alliances == state.alliances
    assert pass_move(broken.state, MoveContext("Sue", 3)).counts_as_move


class RecordingHistory:
    """A ``PositionHistory`` that remembers which occupancy keys were asked for."""

    def __init__(self, positions: dict[bytes, tuple[PositionRecord, ...]]) -> None:
        self.positions = positions
        self.asked: list[bytes] = []

    def positions_with(self, occupancy: bytes) -> Iterable[PositionRecord]:
        self.asked.append(occupancy)
        return self.positions.get(occupancy, ())


def test_history_is_looked_up_by_occupancy_only_once() -> None:
    state = ko_position()
    assert len(state.history) == 3
    history = RecordingHistory(dict(state.history))
    result = play(state, "Rob", "E5", period=2, history=history)
    assert history.asked == [occupancy_key(result.state.board)]
    with pytest.raises(IllegalActionError, match="position after Move 1"):
        play(state, "Rob", "C3", period=2, history=history)
    assert len(history.asked) == 2


def test_the_given_history_is_used_instead_of_the_states() -> None:
    state = ko_position()
    stored = state_from_json(state_to_json(state, include_history=False))
    assert dict(stored.history) == {}
    # Loaded without its history the state cannot see the ko by itself ...
    assert play(stored, "Rob", "C3", period=2).state.owner_at(parse_point("C3", 5)) == "Rob"
    # ... but with the history the engine keeps, it is refused.
    with pytest.raises(IllegalActionError, match="position after Move 1"):
        play(stored, "Rob", "C3", period=2, history=InMemoryHistory(state.history))


def test_the_default_history_is_the_states_own() -> None:
    state = ko_position()
    after_move_1 = next(
        record
        for records in state.history.values()
        for record in records
        if record.move_number == 1
    )
    memory = history_of(state)
    assert list(memory.positions_with(occupancy_key(after_move_1.board))) == [after_move_1]
    for key, records in state.history.items():
        assert tuple(memory.positions_with(key)) == records
    assert list(memory.positions_with(b"\x01" * 25)) == []
    for history in (None, memory):
        with pytest.raises(IllegalActionError, match="position after Move 1"):
            play(state, "Rob", "C3", period=2, history=history)
