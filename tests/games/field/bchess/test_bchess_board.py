"""The B-Chess board in rule 1900 C's convention (seed 004), read back into a position;
and the document's numbers as parameters an amended copy changes without code."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.games.dice import DrawSource
from bot.games.field import (
    TurnContext,
    create_object,
    match_from_json,
    match_to_json,
    state_from_json,
    state_to_json,
)
from bot.games.field.bchess import (
    BCHESS,
    BCHESS_RULES,
    board_owners,
    move_request,
    parse_bchess_board,
    play_turn,
    purchase_request,
    rejoin_request,
    render_bchess_board,
)
from bot.games.field.bchess.board import times_captured
from bot.testing.bchess_diagrams import SEED

CONTEXT = TurnContext(nweek=4, referee="referee", players=("alice", "bob", "carol"))

# Written out in full, as mailed: the other test files draw theirs with ``bchess_board``,
# and this one pins the convention independently of that helper.
BOARD = """
B-Chess: 20 x 20 torus
    A  B  C  D  E  F  G  H  I  J  K  L  M  N  O  P  Q  R  S  T
20  .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. #Q
19  .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. ..
18  .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. ..
17  .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. ..
16  .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. ..
15  .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. ..
14  .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. ..
13  .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. ..
12  .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. ..
11  .. .. .. .. .. .. .. .. .. .. bK .. .. .. .. .. .. .. .. ..
10  .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. ..
 9  .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. ..
 8  .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. ..
 7  .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. ..
 6  .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. ..
 5  .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. ..
 4  .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. ..
 3  .. .. aK .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. ..
 2  .. .. aP .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. ..
 1  .. .. .. bN .. .. .. .. .. .. .. .. .. .. .. .. .. .. .. ..
Pieces: K King, Q Queen, R Rook, B Bishop, N Knight, P Pawn; .. unoccupied
a = alice: 1 King, captured 0 times
b = bob: 1 King, captured 1 time
# = carol: 0 Kings, captured 2 times
Priority List: aK C3, aP C2, bN D1, #Q T20, bK K11, bR not placed
"""


def test_a_board_reads_back_to_the_same_text() -> None:
    state = parse_bchess_board(BOARD)
    assert render_bchess_board(state, board_owners(BOARD)) == BOARD.strip("\n")
    assert [item.kind for item in state.objects] == [
        "King",
        "Pawn",
        "Knight",
        "Queen",
        "King",
        "Rook",
    ]
    assert state.objects[-1].square is None and state.objects[-1].owner == "bob"
    assert times_captured(state, "carol") == 2 and times_captured(state, "alice") == 0


def test_each_square_is_an_owner_character_and_a_piece_character() -> None:
    state = parse_bchess_board(BOARD)
    lines = render_bchess_board(state, {"alice": "@", "bob": "b", "carol": "#"}).splitlines()
    assert lines[0] == "B-Chess: 20 x 20 torus"
    assert lines[1].split() == [chr(ord("A") + column) for column in range(20)]
    assert lines[2].split()[0] == "20" and lines[2].split()[-1] == "#Q"
    assert lines[19].split()[:5] == ["3", "..", "..", "@K", ".."]
    assert lines[21].split()[:5] == ["1", "..", "..", "..", "bN"]
    assert "@ = alice: 1 King, captured 0 times" in lines
    assert lines[-1] == "Priority List: @K C3, @P C2, bN D1, #Q T20, bK K11, bR not placed"


def test_players_without_a_character_get_a_spare_one_and_bad_characters_are_refused() -> None:
    state = parse_bchess_board(BOARD)
    text = render_bchess_board(state, {"bob": "a"})
    assert board_owners(text) == {"bob": "a", "alice": "b", "carol": "c"}
    for characters, problem in [
        ({"alice": "ab"}, "not one printable ASCII character"),
        ({"alice": "."}, "reserved"),
        ({"alice": "-"}, "reserved"),
        ({"alice": "x", "bob": "x"}, "given to two players"),
    ]:
        with pytest.raises(ValueError, match=problem):
            render_bchess_board(state, characters)


def test_a_long_priority_list_wraps_for_mail_and_still_reads_back() -> None:
    state = parse_bchess_board(BOARD)
    for column in range(20):
        state, _ = create_object(
            state, "Pawn", owner="alice", square=state.geometry.square_at(column, 7)
        )
    owners = board_owners(BOARD)
    text = render_bchess_board(state, owners)
    priority = text[text.index("Priority List:") :].splitlines()
    assert len(priority) > 2 and max(len(line) for line in priority) <= 78
    assert all(line.startswith("  ") for line in priority[1:])
    assert render_bchess_board(parse_bchess_board(text), owners) == text


def test_malformed_diagrams_are_refused() -> None:
    with pytest.raises(ValueError, match="not in the legend"):
        parse_bchess_board(BOARD.replace("# = carol", "% = carol"))
    with pytest.raises(ValueError, match="the grid disagrees"):
        parse_bchess_board(BOARD.replace("a = alice: 1 King", "a = alice: 2 Kings"))
    with pytest.raises(ValueError, match="does not list exactly the pieces"):
        parse_bchess_board(BOARD.replace("bN D1, ", ""))


def test_the_document_and_a_position_survive_json() -> None:
    assert match_from_json(match_to_json(BCHESS)) == BCHESS
    state = parse_bchess_board(BOARD)
    assert state_from_json(state_to_json(state)) == state
    assert BCHESS_RULES.name == BCHESS.rules


def test_an_amended_document_changes_the_numbers_without_code() -> None:
    match = replace(
        BCHESS,
        parameters=(
            ("move range", 3),
            ("knight jump", (2, 1)),
            ("purchase step", 25),
            ("rejoin prices", ((1, 7),)),
            ("piece weights", (("Queen", 1),)),
            ("distribute minimum", 3),
        ),
    )
    state = parse_bchess_board(BOARD, match)
    with pytest.raises(ValueError, match="a Queen moves up to 3 squares"):
        move_request(state, "carol", "T20", "T15")
    requests = [purchase_request("alice"), purchase_request("alice")]
    result = play_turn(state, CONTEXT, requests, DrawSource(SEED, "amended"), {"alice": 25})
    assert [item.macks for item in result.spendings] == [0, 25]
    assert [item.kind for item in result.state.objects].count("Queen") == 3
    rejoin = play_turn(state, CONTEXT, [rejoin_request("carol")], DrawSource(SEED, "r"), {})
    assert "Rejoin is only for 1 captures" in rejoin.result.record.refusals[0].message
