"""B-Chess moves that name only the destination (seed 000): "I move my rook to E6".

A fair referee moves the one piece of the player's that can make the move;
when none can, or several can, the player is told, and nothing moves.
"""

from __future__ import annotations

import pytest

from bot.games.errors import AmbiguousActionError, IllegalActionError
from bot.games.field.bchess import RULE_CAPTURE, RULE_MOVE, destination_request, parse_bchess_board
from bot.testing.bchess_diagrams import ALICE_AND_BOB, bchess_board

# alice: King C12, Pawn E8, Rook E5, Rook A7; bob: King P15, Pawn H5.
BOARD = bchess_board(
    "bK P15, aK C12, aP E8, aR A7, aR E5, bP H5", ALICE_AND_BOB, priority_list=False
)


def test_the_one_piece_of_that_kind_that_can_go_there_moves() -> None:
    request = destination_request(parse_bchess_board(BOARD), "alice", "E6", "rook")
    assert request.arguments == ("E5", "E6")  # the Rook on A7 cannot reach E6


def test_without_a_kind_the_one_piece_of_any_kind_that_can_go_there_moves() -> None:
    request = destination_request(parse_bchess_board(BOARD), "alice", "D11")
    assert request.arguments == ("C12", "D11")  # only the King reaches D11


def test_two_pieces_that_can_go_there_make_the_move_ambiguous() -> None:
    with pytest.raises(AmbiguousActionError) as raised:
        destination_request(parse_bchess_board(BOARD), "alice", "A5", "rook")
    assert raised.value.rule == RULE_MOVE
    assert "A7 and E5" in raised.value.message or "E5 and A7" in raised.value.message


def test_no_piece_that_can_go_there_is_refused() -> None:
    with pytest.raises(IllegalActionError) as raised:
        destination_request(parse_bchess_board(BOARD), "alice", "T1", "king")
    assert "none of your Kings can go to T1" in raised.value.message


def test_a_pawn_named_by_its_capture_alone_captures() -> None:
    board = bchess_board("bK P15, aK C12, aP G4, bP H5", ALICE_AND_BOB, priority_list=False)
    request = destination_request(parse_bchess_board(board), "alice", "H5", "pawn", capture=True)
    assert request.arguments == ("G4", "H5")
    with pytest.raises(IllegalActionError) as raised:
        destination_request(parse_bchess_board(board), "alice", "A1", "pawn", capture=True)
    assert raised.value.rule == RULE_CAPTURE
