"""The matrices: rule Knucklebones/Field, placing and destroying (Turn), scoring (Winning)."""

from __future__ import annotations

import pytest

from bot.games.errors import IllegalActionError
from bot.games.knucklebones import (
    EMPTY_MATRIX,
    RULE_FIELD,
    RULE_TURN,
    column_score,
    column_scores,
    columns_with_room,
    is_full,
    matrix_from_columns,
    matrix_from_rows,
    matrix_rows,
    matrix_score,
    with_die,
    without_value,
)


def test_a_matrix_has_three_columns_of_three_cells() -> None:
    # "The field consists of 3x3 matrices, one for each participant in that game."
    assert matrix_rows(EMPTY_MATRIX) == ((None, None, None),) * 3
    with pytest.raises(IllegalActionError) as refusal:
        with_die(EMPTY_MATRIX, 4, 2)
    assert refusal.value.rule == RULE_FIELD
    assert "columns 1, 2 and 3" in str(refusal.value)


def test_a_die_is_inserted_in_the_chosen_column_whatever_the_row() -> None:
    # "choose a column of their matrix to insert the rolled dice [...] in.
    # The row a dice is inserted in has no relevance to the game."
    matrix = with_die(with_die(EMPTY_MATRIX, 2, 5), 2, 3)
    assert matrix == ((), (5, 3), ())
    assert matrix_rows(matrix) == ((None, 5, None), (None, 3, None), (None, None, None))


def test_a_full_column_takes_no_fourth_die() -> None:
    # "Each matrix cell may only contain exactly zero or one dice."
    matrix = matrix_from_columns([[1, 2, 3], [], []])
    with pytest.raises(IllegalActionError) as refusal:
        with_die(matrix, 1, 4)
    assert refusal.value.rule == RULE_TURN
    assert "column 1 of your matrix is full" in str(refusal.value)
    assert columns_with_room(matrix) == (2, 3)


def test_every_die_of_the_value_in_the_column_is_destroyed() -> None:
    # "all dice of that value in the opponent's column are destroyed and
    # removed from the field."
    matrix = matrix_from_columns([[4, 2, 4], [4], []])
    after, destroyed = without_value(matrix, 1, 4)
    assert (after, destroyed) == (((2,), (4,), ()), 2)
    assert without_value(matrix, 3, 4) == (matrix, 0)


def test_a_lone_die_scores_its_value() -> None:
    # "The score of a matrix is the sum of all dice values in that matrix."
    assert matrix_score(matrix_from_columns([[1, 2, 3], [6], []])) == 12


def test_equal_dice_in_a_column_multiply() -> None:
    # "If a column contains multiple dice of the same value, the score awarded
    # for each of those dice is multiplied by the number of dice of the same
    # value in that column."  Two 4s score 4*2 each; three 5s score 5*3 each.
    assert column_score((4, 1, 4)) == 17
    assert column_score((5, 5, 5)) == 45
    assert column_scores(matrix_from_columns([[4, 1, 4], [5, 5, 5], [2, 3]])) == (17, 45, 5)


def test_equal_dice_in_different_columns_do_not_multiply() -> None:
    assert matrix_score(matrix_from_columns([[6], [6], [6]])) == 18


def test_a_matrix_is_full_with_nine_dice() -> None:
    # "A game of Knucklebones ends when either one of the participants has
    # completely filled all cells in their matrix."
    eight = matrix_from_columns([[1, 2, 3], [4, 5, 6], [1, 2]])
    assert not is_full(eight)
    assert is_full(with_die(eight, 3, 3))


def test_rows_with_an_empty_cell_between_dice_close_up() -> None:
    assert matrix_from_rows([[5, None, None], [None, None, 2], [1, 3, 2]]) == (
        (5, 1),
        (3,),
        (2, 2),
    )


def test_impossible_matrices_are_defects() -> None:
    with pytest.raises(ValueError, match="1 to 6"):
        matrix_from_columns([[7], [], []])
    with pytest.raises(ValueError, match="4 dice"):
        matrix_from_columns([[1, 1, 1, 1], [], []])
