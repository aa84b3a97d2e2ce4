"""Rule 368 a (A Nomic, seed 002): "Stones may not be placed so as to repeat a
previous Board configuration."

Positional superko: a configuration is which player's Stone stands on which
vertex.  Alliances play no part, unlike B Nomic's 1639 E, where positions
equal up to allied owners count as the same.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from bot.games.errors import IllegalActionError
from bot.games.go.anomic import (
    AnomicState,
    MoveContext,
    MoveResult,
    PositionLog,
    place_stone,
    with_alliances,
)
from bot.games.go.anomic.superko import BoardHistory, Earlier
from bot.testing.anomic_diagrams import board_of, diagram, drawn_position, untimed

PLAYERS = {"A": "Ann", "B": "Bob", "C": "Cat"}


def position(text: str, size: int, marks: Mapping[str, str] = PLAYERS) -> AnomicState:
    """The diagram's stones, each mark owned by ``marks[mark]``; all of them Go players."""
    return drawn_position(text, marks, untimed(size))


def place(
    state: AnomicState, player: str, where: str, history: BoardHistory | None = None
) -> MoveResult:
    point = state.parameters.parse_point(where)
    return place_stone(state, MoveContext(player, 0), point, history=history)


def play(state: AnomicState, *moves: tuple[str, str]) -> AnomicState:
    for player, where in moves:
        state = place(state, player, where).state
    return state


# --- a simple ko, and the same occupancy with another owner -----------------

KO_SHAPE = """
       a b c d e
    5  . . . . .  5
    4  . B A . .  4
    3  B . . A .  3
    2  . B A . .  2
    1  . . . . .  1
       a b c d e
    """


def ko_taken() -> AnomicState:
    """Ann plays b3 (move 1); Bob takes it from c3 (move 2)."""
    return play(position(KO_SHAPE, size=5), ("Ann", "b3"), ("Bob", "c3"))


def test_retaking_a_ko_at_once_repeats_a_configuration_and_is_refused() -> None:
    state = ko_taken()
    assert board_of(state) == diagram(
        """
           a b c d e
        5  . . . . .  5
        4  . B A . .  4
        3  B . B A .  3
        2  . B A . .  2
        1  . . . . .  1
           a b c d e
        """
    )
    with pytest.raises(IllegalActionError) as refusal:
        place(state, "Ann", "b3")
    assert refusal.value.rule == "368 a"
    assert refusal.value.message == (
        "Ann cannot place a stone at b3: the board would repeat its configuration after move 1"
    )


def test_retaking_after_the_board_changed_elsewhere_is_allowed() -> None:
    state = play(ko_taken(), ("Ann", "e5"), ("Bob", "a1"))
    after = place(state, "Ann", "b3").state
    assert board_of(after) == diagram(
        """
           a b c d e
        5  . . . . A  5
        4  . B A . .  4
        3  B A . A .  3
        2  . B A . .  2
        1  B . . . .  1
           a b c d e
        """
    )


@pytest.mark.parametrize("cat_allied_with_ann", [False, True], ids=["unallied", "allied"])
def test_the_same_occupancy_with_a_different_owner_is_a_new_configuration(
    cat_allied_with_ann: bool,
) -> None:
    # After Cat's b3 the same vertices are occupied as after Ann's b3 (move
    # 1), but b3 is Cat's: not a repeat.  Alliances do not make it one either
    # (B Nomic's 1639 E would treat allied owners as the same).
    state = ko_taken()
    if cat_allied_with_ann:
        state = with_alliances(state, [("Ann", "Cat")])
    after = place(state, "Cat", "b3").state
    assert board_of(after) == diagram(
        """
           a b c d e
        5  . . . . .  5
        4  . B A . .  4
        3  B C . A .  3
        2  . B A . .  2
        1  . . . . .  1
           a b c d e
        """
    )
    assert after.record_of("Ann").captured == 1  # 3 of the 4 stones next to c3


# --- a longer cycle: triple ko ----------------------------------------------

# Three kos between Ann and Bob, on the bottom, top and right edges; the
# ko points are b1/c1, b7/c7 and g4/g5.  Bob's b1 (move 1) completes the
# starting configuration (Bob holds the bottom and top kos, Ann the right).
TRIPLE_KO = """
       a b c d e f g
    7  A B . B . . .  7
    6  . A B . . . B  6
    5  . . . . . B A  5
    4  . . . . . A .  4
    3  . . . . . . A  3
    2  . A B . . . .  2
    1  A . . B . . .  1
       a b c d e f g
    """


def test_a_configuration_from_six_moves_ago_is_refused() -> None:
    state = play(
        position(TRIPLE_KO, size=7, marks={"A": "Ann", "B": "Bob"}),
        ("Bob", "b1"),  # move 1
        ("Ann", "c1"),  # takes the bottom ko
        ("Bob", "g4"),  # takes the right ko
        ("Ann", "c7"),  # takes the top ko
        ("Bob", "b1"),  # takes the bottom ko back
        ("Ann", "g5"),  # takes the right ko back
    )
    assert board_of(state) == diagram(
        """
           a b c d e f g
        7  A . A B . . .  7
        6  . A B . . . B  6
        5  . . . . . B A  5
        4  . . . . . A .  4
        3  . . . . . . A  3
        2  . A B . . . .  2
        1  A B . B . . .  1
           a b c d e f g
        """
    )
    # Taking the top ko back would give the configuration after move 1.
    with pytest.raises(IllegalActionError, match="after move 1$") as refusal:
        place(state, "Bob", "b7")
    assert refusal.value.rule == "368 a"
    assert state.move_number == 6
    assert [state.record_of(name).captured for name in ("Ann", "Bob")] == [3, 2]


# --- configurations the engine stored (the ``history`` argument) ------------------


def test_a_stored_configuration_is_compared_with_its_owners() -> None:
    state = position(
        """
           a b c
        3  . . .  3
        2  . . .  2
        1  . . .  1
           a b c
        """,
        size=3,
    )
    anns = place(state, "Ann", "a1").state.board
    bobs = place(state, "Bob", "a1").state.board
    stored = PositionLog().with_board(anns, move_number=7)
    with pytest.raises(IllegalActionError, match="after move 7$"):
        place(state, "Ann", "a1", history=stored)
    # Same occupied vertex, another owner: positional superko allows it.
    assert place(state, "Ann", "a1", history=PositionLog().with_board(bobs)).state.board == anns


# --- the log itself: Zobrist collisions and branching successors -------------------

BOARD_A, BOARD_B, BOARD_C = bytes([0, 1, 2]), bytes([1, 0, 2]), bytes([2, 1, 0])


def test_two_boards_with_one_key_are_both_recorded_and_told_apart() -> None:
    # A Zobrist collision, forced: different boards given the same key.
    log = PositionLog().with_unseen_board(BOARD_A, 7, 1)
    assert log is not None
    log = log.with_unseen_board(BOARD_B, 7, 2)
    assert log is not None
    log = log.with_unseen_board(BOARD_C, 7, 3)
    assert log is not None
    assert [log.earlier(7, board) for board in (BOARD_A, BOARD_B, BOARD_C)] == [
        Earlier(1),
        Earlier(2),
        Earlier(3),
    ]
    assert log.earlier(7, bytes(3)) is None
    assert log.with_unseen_board(BOARD_B, 7, 4) is None
    assert log.with_board(BOARD_B, 7, 4) is log


def test_successors_of_one_log_each_see_only_their_own_boards() -> None:
    root = PositionLog().with_board(BOARD_A, 1, 0)
    first = root.with_unseen_board(BOARD_B, 2, 1)
    second = root.with_unseen_board(BOARD_C, 2, 1)  # the same key: branches off a copy
    assert first is not None and second is not None
    assert list(first) == [(1, BOARD_A, 0), (2, BOARD_B, 1)]
    assert list(second) == [(1, BOARD_A, 0), (2, BOARD_C, 1)]
    assert first.earlier(2, BOARD_C) is None and second.earlier(2, BOARD_B) is None
    assert root.earlier(2, BOARD_B) is None and len(root) == 1
    # A board the root has seen is refused on every branch.
    assert second.with_unseen_board(BOARD_A, 1, 2) is None
    third = second.with_unseen_board(BOARD_B, 2, 2)  # a collision on the branch
    assert third is not None and third.earlier(2, BOARD_B) == Earlier(2)
    assert third.earlier(2, BOARD_C) == Earlier(1)
