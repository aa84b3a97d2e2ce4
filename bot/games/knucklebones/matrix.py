"""One participant's 3x3 matrix: placing, destroying and scoring (seed 001).

Rule Knucklebones/Field: "The cells of each matrix are identified by the
combination of their column number (1,2,3) and their row number (1,2,3)."
Rule Knucklebones/Turn: "The row a dice is inserted in has no relevance to
the game."  So a column is kept as the values of its dice in the order they
were inserted: the first die stands in row 1, the second in row 2, the third
in row 3.  Destroyed dice leave the column and the dice after them move up a
row; as rows have no relevance, this changes nothing a rule reads, and it
keeps every column a plain sequence with no holes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from bot.games.errors import IllegalActionError
from bot.games.knucklebones.rules import RULE_FIELD, RULE_TURN

Die = int
"""A die's value, 1 to 6 (rule Knucklebones/Turn: "roll 1d6")."""
Column = tuple[Die, ...]
"""The dice of one column in the order inserted (row 1 first); at most three."""
Matrix = tuple[Column, Column, Column]
"""Columns 1, 2 and 3 of one participant's matrix."""

COLUMNS = 3
ROWS = 3
FACES = 6
EMPTY_MATRIX: Matrix = ((), (), ())


def check_die(value: int) -> Die:
    """``value`` if it is a face of 1d6; raises ``ValueError`` otherwise (a defect)."""
    if not 1 <= value <= FACES:
        raise ValueError(f"a die of 1d6 shows 1 to {FACES}, not {value}")
    return value


def check_column_number(column: int) -> int:
    """``column`` if the matrix has it; raises ``IllegalActionError`` otherwise."""
    if not 1 <= column <= COLUMNS:
        raise IllegalActionError(
            f"there is no column {column}: a matrix has columns 1, 2 and 3", rule=RULE_FIELD
        )
    return column


def column_score(column: Column) -> int:
    """Rule Knucklebones/Winning: each die scores its value times the number of
    dice of the same value in its column, so a value v appearing k times
    scores v*k*k (a column 4-1-4 scores 4*2 + 1 + 4*2 = 17)."""
    return sum(value * count * count for value, count in Counter(column).items())


def column_scores(matrix: Matrix) -> tuple[int, int, int]:
    """The score of each column, columns 1 to 3."""
    first, second, third = (column_score(column) for column in matrix)
    return first, second, third


def matrix_score(matrix: Matrix) -> int:
    """Rule Knucklebones/Winning: "the sum of all dice values in that matrix",
    each multiplied as ``column_score`` says."""
    return sum(column_scores(matrix))


def dice_count(matrix: Matrix) -> int:
    """How many dice the matrix holds (0 to 9)."""
    return sum(len(column) for column in matrix)


def is_full(matrix: Matrix) -> bool:
    """Whether every cell holds a die (rule Knucklebones/Winning: the game ends)."""
    return dice_count(matrix) == COLUMNS * ROWS


def columns_with_room(matrix: Matrix) -> tuple[int, ...]:
    """The numbers of the columns that still have an empty cell."""
    return tuple(number for number, column in enumerate(matrix, 1) if len(column) < ROWS)


def with_die(matrix: Matrix, column: int, value: Die) -> Matrix:
    """``matrix`` with a die of ``value`` inserted in ``column`` (1 to 3).

    Raises ``IllegalActionError`` for a column that does not exist or is full:
    "Each matrix cell may only contain exactly zero or one dice" (rule
    Knucklebones/Turn).
    """
    check_column_number(column)
    check_die(value)
    if len(matrix[column - 1]) >= ROWS:
        raise IllegalActionError(
            f"column {column} of your matrix is full: each cell may contain only zero or "
            "one dice; choose a column with an empty cell",
            rule=RULE_TURN,
        )
    return _replace_column(matrix, column, (*matrix[column - 1], value))


def without_value(matrix: Matrix, column: int, value: Die) -> tuple[Matrix, int]:
    """``matrix`` with every die of ``value`` in ``column`` destroyed, and how many.

    Rule Knucklebones/Turn: "all dice of that value in the opponent's column
    are destroyed and removed from the field".
    """
    kept = tuple(die for die in matrix[column - 1] if die != value)
    destroyed = len(matrix[column - 1]) - len(kept)
    return _replace_column(matrix, column, kept), destroyed


def matrix_from_columns(columns: Sequence[Sequence[int]]) -> Matrix:
    """A matrix from three columns of die values, row 1 first.

    Raises ``ValueError`` for anything but three columns of at most three
    values from 1 to 6.
    """
    if len(columns) != COLUMNS:
        raise ValueError(f"a matrix has {COLUMNS} columns, not {len(columns)}")
    built = tuple(tuple(check_die(value) for value in column) for column in columns)
    for number, column in enumerate(built, 1):
        if len(column) > ROWS:
            raise ValueError(f"column {number} holds {len(column)} dice; a column has {ROWS} cells")
    first, second, third = built
    return first, second, third


def matrix_from_rows(rows: Sequence[Sequence[int | None]]) -> Matrix:
    """A matrix from rows of cells (row 1 first), ``None`` or 0 for an empty cell.

    The rows have no relevance (rule Knucklebones/Turn), so each column keeps
    its dice in row order and an empty cell between two dice is closed up.
    Raises ``ValueError`` for a shape other than 3x3 or a value outside 1-6.
    """
    if len(rows) != ROWS or any(len(row) != COLUMNS for row in rows):
        raise ValueError(f"a matrix has {ROWS} rows of {COLUMNS} cells")
    columns: list[list[int]] = [[] for _ in range(COLUMNS)]
    for row in rows:
        for index, value in enumerate(row):
            if value:
                columns[index].append(value)
    return matrix_from_columns(columns)


def matrix_rows(matrix: Matrix) -> tuple[tuple[Die | None, ...], ...]:
    """The matrix as rows 1 to 3 of cells, ``None`` for an empty cell."""
    return tuple(
        tuple(column[row] if row < len(column) else None for column in matrix)
        for row in range(ROWS)
    )


def _replace_column(matrix: Matrix, column: int, dice: Column) -> Matrix:
    columns = list(matrix)
    columns[column - 1] = dice
    first, second, third = columns
    return first, second, third
