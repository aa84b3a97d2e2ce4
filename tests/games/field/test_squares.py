"""The Field's squares: "B2" notation, orientation, torus wrap and adjacency (seed 003)."""

from __future__ import annotations

import pytest

from bot.games.errors import ActionSyntaxError, IllegalActionError
from bot.games.field import Adjacency, FieldGeometry, column_index, column_label

FIVE = FieldGeometry(5, 5)
FIVE_EIGHT = FieldGeometry(5, 5, adjacency=Adjacency.EIGHT)
FLAT = FieldGeometry(5, 5, torus=False, adjacency=Adjacency.EIGHT)


def names(geometry: FieldGeometry, squares: tuple[int, ...]) -> set[str]:
    return {geometry.format_square(square) for square in squares}


def test_b2_is_second_column_second_row_from_the_bottom() -> None:
    square = FIVE.parse_square("B2")
    assert (FIVE.column_of(square), FIVE.row_of(square)) == (1, 1)
    assert FIVE.parse_square(" b2 ") == square
    assert FIVE.format_square(FIVE.square_at(0, 0)) == "A1"
    assert FIVE.format_square(FIVE.square_at(4, 4)) == "E5"


def test_four_squares_border_a_square_and_the_torus_wraps() -> None:
    assert names(FIVE, FIVE.neighbours(FIVE.parse_square("C3"))) == {"B3", "D3", "C2", "C4"}
    assert names(FIVE, FIVE.neighbours(FIVE.parse_square("A1"))) == {"B1", "E1", "A2", "A5"}


def test_eight_square_adjacency_adds_the_corners_and_wraps_them() -> None:
    corner = FIVE_EIGHT.neighbours(FIVE_EIGHT.parse_square("A1"))
    assert names(FIVE_EIGHT, corner) == {"B1", "E1", "A2", "A5", "B2", "E2", "B5", "E5"}


def test_off_a_torus_edges_have_fewer_neighbours() -> None:
    assert names(FLAT, FLAT.neighbours(FLAT.parse_square("A1"))) == {"B1", "A2", "B2"}
    assert len(FLAT.neighbours(FLAT.parse_square("C3"))) == 8


def test_columns_past_z_continue_as_in_a_spreadsheet() -> None:
    assert [column_label(index) for index in (0, 25, 26, 27, 51, 52)] == [
        "A",
        "Z",
        "AA",
        "AB",
        "AZ",
        "BA",
    ]
    assert all(column_index(column_label(index)) == index for index in range(800))
    wide = FieldGeometry(3, 30, torus=False)
    assert wide.format_square(wide.parse_square("AD3")) == "AD3"


def test_a_square_off_the_field_is_refused_with_the_field_rule() -> None:
    with pytest.raises(IllegalActionError) as refused:
        FIVE.parse_square("F2", rule="Life: Tweak (seed 000)")
    assert refused.value.message == "F2 is not on the 5 x 5 torus Field (columns A-E, rows 1-5)"
    assert refused.value.rule == "Life: Tweak (seed 000)"
    with pytest.raises(IllegalActionError):
        FIVE.parse_square("A0")


def test_text_that_is_no_square_is_a_syntax_error() -> None:
    with pytest.raises(ActionSyntaxError) as refused:
        FIVE.parse_square("the middle")
    assert refused.value.rule == "The Field (seed 003)"


def test_a_torus_needs_three_distinct_squares_each_way() -> None:
    with pytest.raises(ValueError, match="at least 3"):
        FieldGeometry(2, 5)
    assert FieldGeometry(1, 2, torus=False).square_count == 2
