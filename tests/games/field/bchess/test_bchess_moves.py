"""B-Chess moves (seed 000) as diagrams: every piece's shape, blocked routes, the torus's
edges and corners, the Pawn's Move against its Capture, own pieces, and captures."""

from __future__ import annotations

import re
from functools import partial

import pytest

from bot.games.errors import ActionError, ActionSyntaxError, IllegalActionError
from bot.games.field import FieldState, TurnContext
from bot.games.field.bchess import (
    RULE_BCHESS,
    RULE_CAPTURE,
    RULE_MOVE,
    board_owners,
    capture_request,
    move_request,
    parse_bchess_board,
    render_bchess_board,
)
from bot.testing.bchess_diagrams import ALICE_AND_BOB, bchess_board, bchess_turn

CONTEXT = TurnContext(nweek=3, referee="referee", players=("alice", "bob"))
turn = partial(bchess_turn, context=CONTEXT, draws="move")

# Pieces row by row from the top; with no Priority List they join it from A1 along each row.
ROOK_BOARD = bchess_board("bK P15, aK C12, aP E8, aR E5, bP H5", ALICE_AND_BOB, priority_list=False)
BISHOP_BOARD = bchess_board(
    "bN T20, aK J15, bK P5, bP D4, aB B2", ALICE_AND_BOB, priority_list=False
)
QUEEN_BOARD = bchess_board("bK E17, bR N13, aK K12, aQ K10", ALICE_AND_BOB, priority_list=False)
KNIGHT_BOARD = bchess_board(
    "bP A20, bR S20, bP T20, aP B19, bK M14, aK J10, aP A2, bP B2, aN A1, aP B1, bP T1",
    ALICE_AND_BOB,
    priority_list=False,
)
KING_BOARD = bchess_board("aR S20, aK T20, bK J10, bP A1", ALICE_AND_BOB, priority_list=False)
PAWN_BOARD = bchess_board(
    "aK E15, aR I11, bP J11, bN K11, aP J10, aP A5, bK Q3", ALICE_AND_BOB, priority_list=False
)


def attempt(board: str, start: str, target: str, *, capture: bool = False) -> str:
    """The Turn's summary after "moved: ", or "refused [rule]: message"."""
    state = parse_bchess_board(board)
    try:
        if capture:
            request = capture_request(state, "alice", start, target)
        else:
            request = move_request(state, "alice", start, target)
    except ActionError as error:
        return f"refused [{error.rule}]: {error.message}"
    record = turn(state, [request]).result.record
    if record.refusals:
        return f"refused [{record.refusals[0].rule}]: {record.refusals[0].message}"
    return f"moved: {record.carried_out[0].summary}"


def square_of_moved(board: str, start: str, target: str) -> str:
    """The board after the move, as text, to check where the piece ended."""
    state = parse_bchess_board(board)
    request = move_request(state, "alice", start, target)
    return render_bchess_board(turn(state, [request]).state, board_owners(board))


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("E7", "moved: alice's Rook at E5 -> E7"),
        ("e7", "moved: alice's Rook at E5 -> E7"),
        ("E8", "refused [B-Chess (seed 000)]: 'A Field Object may not move into a square"),
        ("E9", "route to E9 passes alice's Pawn at E8"),
        ("H5", "moved: alice's Rook at E5 -> H5, destroying bob's Pawn at H5"),
        ("I5", "route to I5 passes bob's Pawn at H5"),
        # Leftwards across the A edge: D5, C5, B5, A5, T5 on the way to S5 (6 squares).
        ("S5", "moved: alice's Rook at E5 -> S5"),
        # Downwards across the bottom edge: 8 squares, E4 ... E1, E20 ... E17.
        ("E17", "moved: alice's Rook at E5 -> E17"),
        ("E16", "a Rook moves up to 8 squares in a cardinal direction; E5 to E16 is not"),
        ("F6", "a Rook moves up to 8 squares in a cardinal direction; E5 to F6 is not"),
        ("E5", "the Rook already stands on E5"),
    ],
)
def test_rook_moves_up_to_eight_squares_in_a_cardinal_direction(target: str, expected: str) -> None:
    assert expected in attempt(ROOK_BOARD, "E5", target)


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("C3", "moved: alice's Bishop at B2 -> C3"),
        # Eight squares down and right, across the bottom edge: C1, D20, ... I15.
        ("J14", "moved: alice's Bishop at B2 -> J14"),
        ("K13", "a Bishop moves up to 8 squares in a diagonal direction; B2 to K13 is not"),
        ("J10", "route to J10 passes bob's Pawn at D4"),
        ("K11", "a Bishop moves up to 8 squares in a diagonal direction; B2 to K11 is not"),
        # Through the corner: A1, then T20 where bob's Knight stands.
        ("T20", "moved: alice's Bishop at B2 -> T20, destroying bob's Knight at T20"),
        ("S19", "route to S19 passes bob's Knight at T20"),
        # Across the left edge only: A3, then T4.
        ("T4", "moved: alice's Bishop at B2 -> T4"),
        ("D4", "moved: alice's Bishop at B2 -> D4, destroying bob's Pawn at D4"),
        ("E5", "route to E5 passes bob's Pawn at D4"),
        ("B5", "a Bishop moves up to 8 squares in a diagonal direction; B2 to B5 is not"),
    ],
)
def test_bishop_moves_up_to_eight_squares_diagonally(target: str, expected: str) -> None:
    assert expected in attempt(BISHOP_BOARD, "B2", target)


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("K11", "moved: alice's Queen at K10 -> K11"),
        ("K12", "'A Field Object may not move into a square occupied by another Field Object"),
        ("K13", "route to K13 passes alice's King at K12"),
        ("N13", "moved: alice's Queen at K10 -> N13, destroying bob's Rook at N13"),
        ("O14", "route to O14 passes bob's Rook at N13"),
        ("C2", "moved: alice's Queen at K10 -> C2"),
        ("S10", "moved: alice's Queen at K10 -> S10"),
        ("B10", "a Queen moves up to 8 squares in a cardinal or diagonal direction"),
        ("L12", "K10 to L12 is not such a move"),
    ],
)
def test_queen_moves_as_rook_or_bishop(target: str, expected: str) -> None:
    assert expected in attempt(QUEEN_BOARD, "K10", target)


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        # Every square around A1 is occupied; the Knight passes over them.
        ("B3", "moved: alice's Knight at A1 -> B3"),
        ("C2", "moved: alice's Knight at A1 -> C2"),
        ("T3", "moved: alice's Knight at A1 -> T3"),
        # Over the corner: two left, one down lands on S20, where bob's Rook stands.
        ("S20", "moved: alice's Knight at A1 -> S20, destroying bob's Rook at S20"),
        ("B19", "'A Field Object may not move into a square occupied by another Field Object"),
        ("C1", "a Knight moves 2 squares in one cardinal direction and 1 in a perpendicular"),
        ("C3", "A1 to C3 is not such a move"),
    ],
)
def test_knight_jumps_two_and_one_over_anything(target: str, expected: str) -> None:
    assert expected in attempt(KNIGHT_BOARD, "A1", target)


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("A1", "moved: alice's King at T20 -> A1, destroying bob's Pawn at A1"),
        ("A20", "moved: alice's King at T20 -> A20"),
        ("T1", "moved: alice's King at T20 -> T1"),
        ("S19", "moved: alice's King at T20 -> S19"),
        ("S20", "'A Field Object may not move into a square occupied by another Field Object"),
        ("R20", "a King moves to an adjacent square in any of the eight directions"),
    ],
)
def test_king_moves_to_any_adjacent_square_across_the_corner(target: str, expected: str) -> None:
    assert expected in attempt(KING_BOARD, "T20", target)


@pytest.mark.parametrize(
    ("start", "target", "capture", "expected"),
    [
        ("J10", "J9", False, "moved: alice's Pawn at J10 -> J9"),
        ("J10", "J11", False, "a Pawn moves only if the specified space is unoccupied; J11"),
        ("J10", "K11", False, "a Pawn moves to an adjacent square in a cardinal direction"),
        ("A5", "T5", False, "moved: alice's Pawn at A5 -> T5"),
        ("J10", "K11", True, "moved: alice's Pawn at J10 -> K11, destroying bob's Knight"),
        ("J10", "I11", True, "'A Field Object may not move into a square occupied by another"),
        ("J10", "I9", True, "a Pawn captures only a Field Object belonging to a different player"),
        ("J10", "J11", True, "a Pawn captures on an adjacent square in a diagonal direction"),
    ],
)
def test_pawn_moves_cardinally_to_empty_squares_and_captures_diagonally(
    start: str, target: str, capture: bool, expected: str
) -> None:
    assert expected in attempt(PAWN_BOARD, start, target, capture=capture)


def test_refusals_cite_the_rule_they_rest_on() -> None:
    assert attempt(PAWN_BOARD, "J10", "J11").startswith(f"refused [{RULE_MOVE}]")
    assert attempt(PAWN_BOARD, "J10", "I9", capture=True).startswith(f"refused [{RULE_CAPTURE}]")
    assert attempt(QUEEN_BOARD, "K10", "K12").startswith(f"refused [{RULE_BCHESS}]")


def test_the_moved_piece_stands_on_its_target_and_the_start_is_empty() -> None:
    after = square_of_moved(ROOK_BOARD, "E5", "S5")
    rows = {line.split()[0]: line.split()[1:] for line in after.splitlines()[2:22]}
    assert rows["5"][4] == ".." and rows["5"][18] == "aR"
    assert "aR S5" in after.splitlines()[-1]


def test_move_builder_resolves_the_piece_and_refuses_what_the_text_gets_wrong() -> None:
    state = parse_bchess_board(ROOK_BOARD)
    request = move_request(state, "alice", "e5", "E7", "rook")
    assert request.arguments == ("E5", "E7") and request.action == "Move"
    assert move_request(state, "alice", "E5", "E7", "R") == request
    cases = [
        (("alice", "E6", "E7", None), IllegalActionError, "no piece of yours is on E6 (it is"),
        (("alice", "H5", "H6", None), IllegalActionError, "it holds bob's Pawn at H5"),
        (("alice", "E5", "E7", "Bishop"), IllegalActionError, "a Rook, not a Bishop"),
        (("alice", "E5", "E7", "Dragon"), ActionSyntaxError, '"Dragon" is not a B-Chess piece'),
        (("alice", "E5", "7E", None), ActionSyntaxError, "is not a square such as B2"),
        (("alice", "E5", "U5", None), IllegalActionError, "U5 is not on the 20 x 20 torus"),
        (("bob", "E5", "E7", None), IllegalActionError, "no piece of yours is on E5"),
    ]
    for (player, start, target, kind), error, message in cases:
        with pytest.raises(error, match=re.escape(message)) as raised:
            move_request(state, player, start, target, kind)
        assert raised.value.rule == RULE_MOVE


def test_capture_builder_accepts_only_pawns() -> None:
    state = parse_bchess_board(PAWN_BOARD)
    with pytest.raises(IllegalActionError, match="only a Pawn has Capture") as raised:
        capture_request(state, "alice", "I11", "J12")
    assert raised.value.rule == RULE_CAPTURE
    with pytest.raises(IllegalActionError, match="B-Chess is not the Current Field Match"):
        move_request(FieldState(), "alice", "A1", "A2")
