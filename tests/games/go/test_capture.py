"""Before/after diagram tests for capturing (rule 1639 D, seed 004)."""

from __future__ import annotations

import textwrap

import pytest

from bot.games.errors import AmbiguousActionError, IllegalActionError
from bot.games.go import (
    CaptureShare,
    DragonCaptured,
    GoState,
    MoveContext,
    MoveResult,
    StoneLoss,
    StonePlaced,
    dragons_at,
    liberties,
    parse_legend,
    parse_point,
    place_stone,
    position_from_diagram,
    render_board,
)


def diagram(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def play(
    state: GoState, player: str, where: str, period: int = 1, order: tuple[str, ...] = ()
) -> MoveResult:
    size = state.parameters.size
    capture_order = [parse_point(point, size) for point in order]
    return place_stone(state, MoveContext(player, period), parse_point(where, size), capture_order)


def assert_shows(state: GoState, expected: str) -> None:
    text = diagram(expected)
    players = [entry.name for entry in parse_legend(text)]
    assert render_board(state, players) == text


def points(state: GoState, *names: str) -> tuple[int, ...]:
    return tuple(sorted(parse_point(name, state.parameters.size) for name in names))


SURROUNDED = """
       A B C D E
     .-----------.
    5| . . . . . |5
    4| . . R . . |4
    3| . R S . . |3
    2| . . R . . |2
    1| . . . . . |1
     '-----------'
       A B C D E
    [R] Rob 0 points Allies: none
    [S] Sue 0 points Allies: none
    """


def test_a_stone_without_liberties_is_captured_and_scored() -> None:
    before = position_from_diagram(diagram(SURROUNDED))
    result = play(before, "Rob", "D3")
    assert_shows(
        result.state,
        """
           A B C D E
         .-----------.
        5| . . . . . |5
        4| . . R . . |4
        3| . R . R . |3
        2| . . R . . |2
        1| . . . . . |1
         '-----------'
           A B C D E
        [R] Rob 1 points Allies: none
        [S] Sue -1 points Allies: none
        """,
    )
    assert result.events == (
        StonePlaced("Rob", parse_point("D3", 5)),
        DragonCaptured(
            stones=points(before, "C3"),
            losses=(StoneLoss("Sue", 1),),
            shares=(CaptureShare("Rob", adjacent_stones=4, points=1),),
        ),
    )
    assert result.counts_as_move


def test_corner_stone_is_captured_by_two_stones() -> None:
    before = position_from_diagram(
        diagram(
            """
               A B C
             .-------.
            3| . . . |3
            2| . . . |2
            1| S R . |1
             '-------'
               A B C
            [R] Rob 0 points Allies: none
            [S] Sue 0 points Allies: none
            """
        )
    )
    after = play(before, "Rob", "A2").state
    assert_shows(
        after,
        """
           A B C
         .-------.
        3| . . . |3
        2| R . . |2
        1| . R . |1
         '-------'
           A B C
        [R] Rob 1 points Allies: none
        [S] Sue -1 points Allies: none
        """,
    )


def test_edge_group_of_two_is_captured() -> None:
    before = position_from_diagram(
        diagram(
            """
               A B C D E
             .-----------.
            5| . . . . . |5
            4| . . . . . |4
            3| . . . . . |3
            2| . R R . . |2
            1| R S S . . |1
             '-----------'
               A B C D E
            [R] Rob 0 points Allies: none
            [S] Sue 0 points Allies: none
            """
        )
    )
    result = play(before, "Rob", "D1")
    assert_shows(
        result.state,
        """
           A B C D E
         .-----------.
        5| . . . . . |5
        4| . . . . . |4
        3| . . . . . |3
        2| . R R . . |2
        1| R . . R . |1
         '-----------'
           A B C D E
        [R] Rob 2 points Allies: none
        [S] Sue -2 points Allies: none
        """,
    )
    (capture,) = [event for event in result.events if isinstance(event, DragonCaptured)]
    assert capture.shares == (CaptureShare("Rob", adjacent_stones=4, points=2),)


RING = """
       A B C D E
     .-----------.
    5| . R R R . |5
    4| R S S S R |4
    3| R S . S R |3
    2| R S S S R |2
    1| . R R R . |1
     '-----------'
       A B C D E
    [R] Rob 0 points Allies: none
    [S] Sue 0 points Allies: none
    """


def test_interior_empty_point_is_a_liberty() -> None:
    state = position_from_diagram(diagram(RING))
    (ring,) = dragons_at(state, parse_point("B2", 5))
    assert len(ring) == 8
    assert liberties(state, ring) == frozenset(points(state, "C3"))


def test_placement_without_liberties_is_legal_when_it_captures() -> None:
    # C3 has no Liberty of its own, but capturing the ring first gives it four.
    result = play(position_from_diagram(diagram(RING)), "Rob", "C3")
    assert_shows(
        result.state,
        """
           A B C D E
         .-----------.
        5| . R R R . |5
        4| R . . . R |4
        3| R . R . R |3
        2| R . . . R |2
        1| . R R R . |1
         '-----------'
           A B C D E
        [R] Rob 8 points Allies: none
        [S] Sue -8 points Allies: none
        """,
    )


def test_placement_that_would_be_captured_is_illegal() -> None:
    before = position_from_diagram(diagram(SURROUNDED.replace("3| . R S . .", "3| . R . R .")))
    with pytest.raises(IllegalActionError) as raised:
        play(before, "Sue", "C3")
    assert raised.value.rule == "1639 D"
    assert "Sue cannot place a stone at C3: it would be immediately Captured" in str(raised.value)


def test_filling_own_last_liberty_is_illegal() -> None:
    before = position_from_diagram(
        diagram(
            """
               A B C
             .-------.
            3| . . . |3
            2| R R . |2
            1| S . R |1
             '-------'
               A B C
            [R] Rob 0 points Allies: none
            [S] Sue 0 points Allies: none
            """
        )
    )
    with pytest.raises(IllegalActionError, match="immediately Captured"):
        play(before, "Sue", "B1")


# Xan-Yul and Yul-Zed are allied, Xan and Zed are not: in row 1 the Yul stones
# belong to two Dragons, XXXYY and YYZZZ, whose one shared Liberty is D2.
OVERLAPPING = """
       A B C D E F G H I
     .-------------------.
    9| . . . . . . . . . |9
    8| . . . . . . . . . |8
    7| . . . . . . . . . |7
    6| . . . . . . . . . |6
    5| . . . . . . . . . |5
    4| . . . . . . . . . |4
    3| . . . . . . . . . |3
    2| R R R . R R R R R |2
    1| X X X Y Y Z Z Z R |1
     '-------------------'
       A B C D E F G H I
    [R] Rob 0 points Allies: none
    [X] Xan 0 points Allies: Y
    [Y] Yul 0 points Allies: X, Z
    [Z] Zed 0 points Allies: Y
    """


def test_non_transitive_alliance_puts_a_stone_in_two_dragons() -> None:
    state = position_from_diagram(diagram(OVERLAPPING))
    dragons = dragons_at(state, parse_point("D1", 9))
    assert dragons == (
        frozenset(points(state, "A1", "B1", "C1", "D1", "E1")),
        frozenset(points(state, "D1", "E1", "F1", "G1", "H1")),
    )
    assert dragons_at(state, parse_point("A1", 9)) == dragons[:1]
    assert all(liberties(state, dragon) == frozenset(points(state, "D2")) for dragon in dragons)


def test_default_order_captures_lowest_dragon_and_spares_the_other() -> None:
    result = play(position_from_diagram(diagram(OVERLAPPING)), "Rob", "D2")
    # XXXYY goes first (it holds A1); ZZZ then borders the emptied E1.
    assert_shows(
        result.state,
        """
           A B C D E F G H I
         .-------------------.
        9| . . . . . . . . . |9
        8| . . . . . . . . . |8
        7| . . . . . . . . . |7
        6| . . . . . . . . . |6
        5| . . . . . . . . . |5
        4| . . . . . . . . . |4
        3| . . . . . . . . . |3
        2| R R R R R R R R R |2
        1| . . . . . Z Z Z R |1
         '-------------------'
           A B C D E F G H I
        [R] Rob 3 points Allies: none
        [X] Xan -3 points Allies: Y
        [Y] Yul -2 points Allies: X, Z
        [Z] Zed 2 points Allies: Y
        """,
    )
    captures = [event for event in result.events if isinstance(event, DragonCaptured)]
    # Zed's F1 touches E1, so Zed is a Capturer too (rule 1639 D reads "the
    # players having Stones directly adjacent"): 5 points, 2 each, the odd one
    # to Rob with 5 adjacent stones.
    assert [capture.shares for capture in captures] == [
        (CaptureShare("Rob", 5, 3), CaptureShare("Zed", 1, 2)),
    ]


def test_mover_chooses_capture_order() -> None:
    result = play(position_from_diagram(diagram(OVERLAPPING)), "Rob", "D2", order=("H1",))
    assert_shows(
        result.state,
        """
           A B C D E F G H I
         .-------------------.
        9| . . . . . . . . . |9
        8| . . . . . . . . . |8
        7| . . . . . . . . . |7
        6| . . . . . . . . . |6
        5| . . . . . . . . . |5
        4| . . . . . . . . . |4
        3| . . . . . . . . . |3
        2| R R R R R R R R R |2
        1| X X X . . . . . R |1
         '-------------------'
           A B C D E F G H I
        [R] Rob 3 points Allies: none
        [X] Xan 2 points Allies: Y
        [Y] Yul -2 points Allies: X, Z
        [Z] Zed -3 points Allies: Y
        """,
    )


def test_capture_order_naming_a_shared_stone_is_ambiguous() -> None:
    before = position_from_diagram(diagram(OVERLAPPING))
    with pytest.raises(AmbiguousActionError) as raised:
        play(before, "Rob", "D2", order=("D1",))
    assert raised.value.rule == "1639 D"
    assert "D1 lies in 2 Dragons without Liberties" in str(raised.value)


def test_capture_order_may_name_a_dragon_by_several_points() -> None:
    before = position_from_diagram(diagram(OVERLAPPING))
    selector = points(before, "D1", "H1")
    result = place_stone(before, MoveContext("Rob", 1), parse_point("D2", 9), [selector])
    assert result.state.score_of("Zed") == -3


def test_capture_order_naming_a_living_stone_is_illegal() -> None:
    before = position_from_diagram(diagram(OVERLAPPING))
    with pytest.raises(IllegalActionError, match="no Dragon without Liberties at B2"):
        play(before, "Rob", "D2", order=("B2",))


def test_capture_order_that_captures_the_new_stone_is_illegal() -> None:
    # Rob's new stone at E3 and Sue's C3 are both left without Liberties; the
    # default order captures Sue first and saves Rob, but Rob may not choose
    # to be captured first.
    before = position_from_diagram(
        diagram(
            """
               A B C D E
             .-----------.
            5| . . . . . |5
            4| . . R S . |4
            3| . R S . S |3
            2| . . R S . |2
            1| . . . . . |1
             '-----------'
               A B C D E
            [R] Rob 0 points Allies: none
            [S] Sue 0 points Allies: none
            """
        )
    )
    saved = play(before, "Rob", "D3")
    assert saved.state.owner_at(parse_point("D3", 5)) == "Rob"
    assert saved.state.score_of("Rob") == 1
    with pytest.raises(IllegalActionError, match="in the capture order given"):
        play(before, "Rob", "D3", order=("D3",))


NEIGHBOURS_IN_ATARI = """
       A B C D E
     .-----------.
    5| . R . . . |5
    4| R S . R . |4
    3| R S T R . |3
    2| . R R . . |2
    1| . . . . . |1
     '-----------'
       A B C D E
    [R] Rob 0 points Allies: none
    [S] Sue 0 points Allies: none
    [T] Tom 0 points Allies: none
    """


def test_capturing_one_dragon_gives_liberties_that_save_another() -> None:
    # Rob's C4 takes the last Liberty of both Sue's B3-B4 and Tom's C3.
    before = position_from_diagram(diagram(NEIGHBOURS_IN_ATARI))
    by_default = play(before, "Rob", "C4")
    captures = [event for event in by_default.events if isinstance(event, DragonCaptured)]
    assert [capture.stones for capture in captures] == [points(before, "B3", "B4")]
    # Two points, two Capturers: Tom's C3 touches B3, so Tom shares them.
    assert captures[0].shares == (CaptureShare("Rob", 5, 1), CaptureShare("Tom", 1, 1))
    assert by_default.state.owner_at(parse_point("C3", 5)) == "Tom"

    tom_first = play(before, "Rob", "C4", order=("C3",))
    assert_shows(
        tom_first.state,
        """
           A B C D E
         .-----------.
        5| . R . . . |5
        4| R S R R . |4
        3| R S . R . |3
        2| . R R . . |2
        1| . . . . . |1
         '-----------'
           A B C D E
        [R] Rob 1 points Allies: none
        [S] Sue 0 points Allies: none
        [T] Tom -1 points Allies: none
        """,
    )


def test_capture_division_ties_go_to_the_most_recent_player() -> None:
    before = position_from_diagram(
        diagram(
            """
               A B C D E
             .-----------.
            5| . . . . . |5
            4| . . . . . |4
            3| . W S W . |3
            2| . W S . . |2
            1| . . . . . |1
             '-----------'
               A B C D E
            [R] Rob 0 points Allies: none
            [S] Sue 0 points Allies: none
            [T] Tom 0 points Allies: none
            [W] Wen 0 points Allies: none
            """
        )
    )
    rob_then_tom = play(play(before, "Rob", "C1").state, "Tom", "D2", period=2).state
    tom_then_rob = play(play(before, "Tom", "D2").state, "Rob", "C1", period=2).state
    # Two stones, three Capturers: no equal share; one point each to Wen (4
    # adjacent stones) and to whichever of Rob and Tom (1 each) moved last.
    after_tom = play(rob_then_tom, "Wen", "C4", period=3).state
    after_rob = play(tom_then_rob, "Wen", "C4", period=3).state
    assert [after_tom.score_of(name) for name in ("Rob", "Sue", "Tom", "Wen")] == [0, -2, 1, 1]
    assert [after_rob.score_of(name) for name in ("Rob", "Sue", "Tom", "Wen")] == [1, -2, 0, 1]
