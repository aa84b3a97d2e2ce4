"""Rule 369's division of captured Stones (A Nomic, seed 002): most adjacent first, round robin.

"The Go player with the most Stones adjacent to the captured Dragon receives
the first Stone, the next most the next Stone, and so on, with ties broken
randomly, until all captured Stones are exhausted or every Go player
capturing from the Dragon has received a Stone.  This process is repeated
until all Stones from the captured Dragon are exhausted."

Ties are broken by an injected ``DrawSource`` whose draws are recorded; a draw
is made only for players tied across the cut of the last, partial round.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from bot.games.dice import DrawSource, replay_draw
from bot.games.dice.draws import Draw, DrawKind
from bot.games.go.anomic import (
    AnomicState,
    DragonCaptured,
    MoveContext,
    MoveResult,
    StoneShare,
    divide_stones,
    place_stone,
)
from bot.games.go.points import Point
from bot.testing.anomic_diagrams import board_of, diagram, drawn_position, untimed

SEED = bytes(range(32))
PLAYERS = {"A": "Ann", "B": "Bob", "C": "Cat", "D": "Dan", "E": "Eve"}


def position(text: str, size: int, marks: Mapping[str, str] = PLAYERS) -> AnomicState:
    """The diagram's stones, each mark owned by ``marks[mark]``; all of them Go players."""
    return drawn_position(text, marks, untimed(size))


def points(state: AnomicState, *names: str) -> frozenset[Point]:
    return frozenset(state.parameters.parse_point(name) for name in names)


def place(state: AnomicState, player: str, where: str, draws: DrawSource) -> MoveResult:
    point = state.parameters.parse_point(where)
    return place_stone(state, MoveContext(player, 0), point, draws=draws)


def drawn_order(draw: Draw) -> tuple[str, ...]:
    """The order a recorded shuffle put its options in."""
    return tuple(draw.options[index] for index in draw.result)


# --- on the board ------------------------------------------------------------------


def test_the_most_adjacent_player_gets_the_first_and_the_leftover_stone() -> None:
    before = position(
        """
           a b c d e
        5  . . . . .  5
        4  . . . . .  4
        3  . . . . .  3
        2  A A A B .  2
        1  E E E E E  1
           a b c d e
        """,
        size=5,
    )
    draws = DrawSource(SEED, "ctx")
    result = place(before, "Bob", "e2", draws)
    assert board_of(result.state) == diagram(
        """
           a b c d e
        5  . . . . .  5
        4  . . . . .  4
        3  . . . . .  3
        2  A A A B B  2
        1  . . . . .  1
           a b c d e
        """
    )
    # Five stones, Ann 3 adjacent and Bob 2: two full rounds, then Ann (most)
    # takes the fifth.  No tie, so no draw.
    assert result.events[1] == DragonCaptured(
        points(before, "a1", "b1", "c1", "d1", "e1"),
        (("Eve", 5),),
        (StoneShare("Ann", 3, 3), StoneShare("Bob", 2, 2)),
    )
    assert draws.draws == ()
    assert [result.state.record_of(name).captured for name in ("Ann", "Bob")] == [3, 2]


def test_a_tie_that_does_not_straddle_the_last_stone_needs_no_draw() -> None:
    before = position(
        """
           a b c d e f g
        7  . . . . . . .  7
        6  . . . . . . .  6
        5  . . . . . . .  5
        4  . . A A A . .  4
        3  . B E E E . .  3
        2  . . B C C . .  2
        1  . . . . . . .  1
           a b c d e f g
        """,
        size=7,
    )
    draws = DrawSource(SEED, "ctx")
    result = place(before, "Dan", "f3", draws)
    # Three stones for Ann 3, Bob 2, Cat 2, Dan 1: Ann, then Bob and Cat (tied,
    # but both inside the cut) get one each; Dan is fourth and gets none.
    assert result.events[1] == DragonCaptured(
        points(before, "c3", "d3", "e3"),
        (("Eve", 3),),
        (
            StoneShare("Ann", 3, 1),
            StoneShare("Bob", 2, 1),
            StoneShare("Cat", 2, 1),
            StoneShare("Dan", 1, 0),
        ),
    )
    assert draws.draws == ()


TIED_ACROSS_THE_CUT = """
       a b c d e f g
    7  . . . . . . .  7
    6  . . . . . . .  6
    5  . . . . . . .  5
    4  . . A A . . .  4
    3  . A E E . . .  3
    2  . . B C . . .  2
    1  . . . . . . .  1
       a b c d e f g
    """


def test_a_tie_across_the_cut_is_broken_by_the_recorded_draw() -> None:
    before = position(TIED_ACROSS_THE_CUT, size=7)
    draws = DrawSource(SEED, "ctx")
    result = place(before, "Dan", "e3", draws)
    assert board_of(result.state) == diagram(
        """
           a b c d e f g
        7  . . . . . . .  7
        6  . . . . . . .  6
        5  . . . . . . .  5
        4  . . A A . . .  4
        3  . A . . D . .  3
        2  . . B C . . .  2
        1  . . . . . . .  1
           a b c d e f g
        """
    )
    # Two stones; Ann (3 adjacent) takes the first, and Bob, Cat and Dan (1
    # each) are tied for the second: one shuffle, recorded, decides.
    (draw,) = draws.draws
    assert (draw.number, draw.kind, draw.options) == (0, DrawKind.SHUFFLE, ("Bob", "Cat", "Dan"))
    assert draw.purpose == "rule 369 tie for the Dragon at c3"
    assert replay_draw(SEED, "ctx", draw) == draw
    order = drawn_order(draw)
    capture = result.events[1]
    assert isinstance(capture, DragonCaptured)
    assert capture.tie_order == order
    assert capture.shares == (
        StoneShare("Ann", 3, 1),
        StoneShare(order[0], 1, 1),
        StoneShare(order[1], 1, 0),
        StoneShare(order[2], 1, 0),
    )
    captured = {name: result.state.record_of(name).captured for name in ("Bob", "Cat", "Dan")}
    assert captured == {order[0]: 1, order[1]: 0, order[2]: 0}


def test_different_draw_contexts_give_the_second_stone_to_different_players() -> None:
    # The tie is random, not alphabetical: over a few contexts each order is
    # whatever the recorded shuffle says, and more than one player wins.
    before = position(TIED_ACROSS_THE_CUT, size=7)
    winners = set()
    for number in range(8):
        draws = DrawSource(SEED, f"post {number}")
        capture = place(before, "Dan", "e3", draws).events[1]
        assert isinstance(capture, DragonCaptured)
        assert capture.tie_order == drawn_order(draws.draws[0])
        winners.add(capture.tie_order[0])
    assert len(winners) > 1


def test_a_tie_without_a_draw_source_is_a_defect() -> None:
    before = position(TIED_ACROSS_THE_CUT, size=7)
    point = before.parameters.parse_point("e3")
    with pytest.raises(ValueError, match="a tie needs a random draw"):
        place_stone(before, MoveContext("Dan", 0), point)


# --- divide_stones on its own -------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "adjacent", "expected"),
    [
        pytest.param(3, [("Ann", 2)], [("Ann", 2, 3)], id="single-owner-takes-all"),
        pytest.param(
            1, [("Bob", 1), ("Ann", 3)], [("Ann", 3, 1), ("Bob", 1, 0)], id="fewer-stones"
        ),
        pytest.param(
            7,
            [("Cat", 1), ("Ann", 3), ("Bob", 2)],
            [("Ann", 3, 3), ("Bob", 2, 2), ("Cat", 1, 2)],
            id="two-rounds-and-one-over",
        ),
        pytest.param(
            5,
            [("Cat", 1), ("Ann", 3), ("Bob", 2)],
            [("Ann", 3, 2), ("Bob", 2, 2), ("Cat", 1, 1)],
            id="one-round-and-two-over",
        ),
        pytest.param(
            4,
            [("Bob", 2), ("Ann", 2)],
            [("Ann", 2, 2), ("Bob", 2, 2)],
            id="tie-with-whole-rounds",
        ),
        pytest.param(
            2,
            [("Cat", 1), ("Bob", 2), ("Ann", 2)],
            [("Ann", 2, 1), ("Bob", 2, 1), ("Cat", 1, 0)],
            id="tie-inside-the-cut",
        ),
    ],
)
def test_division_without_a_tie_across_the_cut_draws_nothing(
    count: int, adjacent: list[tuple[str, int]], expected: list[tuple[str, int, int]]
) -> None:
    draws = DrawSource(SEED, "ctx")
    shares, tie_order = divide_stones(count, adjacent, draws, "test")
    assert shares == tuple(StoneShare(*share) for share in expected)
    assert sum(share.stones for share in shares) == count
    assert tie_order == ()
    assert draws.draws == ()


def test_division_with_a_tie_across_the_cut_follows_the_drawn_order() -> None:
    # Six stones for Ann 3 and Bob, Cat, Dan 2 each: one whole round, then Ann
    # and one of the three tied players take the remaining two.
    draws = DrawSource(SEED, "ctx")
    adjacent = [("Dan", 2), ("Cat", 2), ("Ann", 3), ("Bob", 2)]
    shares, tie_order = divide_stones(6, adjacent, draws, "rule 369 test")
    (draw,) = draws.draws
    assert draw.options == ("Bob", "Cat", "Dan")
    assert draw.purpose == "rule 369 test"
    assert tie_order == drawn_order(draw)
    assert shares == (
        StoneShare("Ann", 3, 2),
        StoneShare(tie_order[0], 2, 2),
        StoneShare(tie_order[1], 2, 1),
        StoneShare(tie_order[2], 2, 1),
    )


def test_division_among_nobody_is_empty() -> None:
    assert divide_stones(3, [], None, "test") == ((), ())
