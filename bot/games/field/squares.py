"""The Field's squares: numbering, the "B2" notation and adjacency (seed 003, "The Field").

A ``Square`` is a small integer, as in ``bot.games.go.points``: ``row *
columns + column``, column 0 the leftmost (A) and row 0 the bottom row (1).
The Field rule names no notation; B Nomic's own board rule (1639 A, seed
004) numbers rows "from bottom to top" and letters columns "from left to
right", so the Field does the same and "B2" is the second column, second
row from the bottom.  Columns past Z continue AA, AB, ... as in a
spreadsheet, so any size a Field Match specifies can be named.

Rule "The Field" (seed 003): each square is adjacent to the four squares
directly bordering it, and the Field is a torus unless the Current Field
Match says otherwise.  Both seed matches add "the four squares sharing only
a corner", which is ``Adjacency.EIGHT``.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from enum import Enum

from bot.games.errors import ActionSyntaxError, IllegalActionError

Square = int

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
RULE_FIELD = "The Field (seed 003)"
# On a torus narrower than three squares a square would border the same
# square from both sides, or itself; the Field's "four squares directly
# bordering it" presupposes four distinct squares.
MINIMUM_TORUS_SIDE = 3

_SQUARE_PATTERN = re.compile(r"\s*([A-Za-z]{1,3})\s*(\d{1,4})\s*")


class Adjacency(Enum):
    """Which squares border a square: the Field's four, or eight with corners."""

    FOUR = 4
    EIGHT = 8


@dataclass(frozen=True)
class FieldGeometry:
    """The shape of The Field: ``rows`` x ``columns``, torus or not, and adjacency.

    Raises ``ValueError`` for a side below one, or below three on a torus.
    """

    rows: int
    columns: int
    torus: bool = True
    adjacency: Adjacency = Adjacency.FOUR

    def __post_init__(self) -> None:
        smallest = MINIMUM_TORUS_SIDE if self.torus else 1
        if self.rows < smallest or self.columns < smallest:
            shape = "a torus" if self.torus else "a Field"
            raise ValueError(
                f"{shape} needs at least {smallest} rows and columns, "
                f"not {self.rows} x {self.columns}"
            )

    @property
    def square_count(self) -> int:
        return self.rows * self.columns

    def square_at(self, column: int, row: int) -> Square:
        """The square in zero-based ``column`` (0 = A) and ``row`` (0 = row 1)."""
        if not (0 <= column < self.columns and 0 <= row < self.rows):
            raise ValueError(f"column {column}, row {row} is off a {self.describe()} Field")
        return row * self.columns + column

    def column_of(self, square: Square) -> int:
        return square % self.columns

    def row_of(self, square: Square) -> int:
        return square // self.columns

    def describe(self) -> str:
        """E.g. ``"5 x 5 torus"``: rows by columns, as the Field Match states its size."""
        shape = "torus" if self.torus else "board"
        return f"{self.rows} x {self.columns} {shape}"

    def format_square(self, square: Square) -> str:
        """``square`` in the notation ``"B2"``; ``ValueError`` if it is off the Field."""
        if not 0 <= square < self.square_count:
            raise ValueError(f"square {square} is off a {self.describe()} Field")
        return f"{column_label(self.column_of(square))}{self.row_of(square) + 1}"

    def parse_square(self, text: str, *, rule: str = RULE_FIELD) -> Square:
        """Read ``"B2"`` or ``"b2"`` as a square of this Field.

        Raises ``ActionSyntaxError`` if ``text`` is not letters then a number
        and ``IllegalActionError`` if it names a square off the Field; both
        carry ``rule``.
        """
        match = _SQUARE_PATTERN.fullmatch(text)
        if match is None:
            raise ActionSyntaxError(f'"{text}" is not a square such as B2', rule=rule)
        column = column_index(match.group(1))
        row = int(match.group(2)) - 1
        if not (column < self.columns and 0 <= row < self.rows):
            raise IllegalActionError(self._off_field_message(text.strip()), rule=rule)
        return self.square_at(column, row)

    def neighbours(self, square: Square) -> tuple[Square, ...]:
        """The squares adjacent to ``square``, in a fixed order (``ValueError`` if off)."""
        if not 0 <= square < self.square_count:
            raise ValueError(f"square {square} is off a {self.describe()} Field")
        return neighbour_table(self)[square]

    def _off_field_message(self, text: str) -> str:
        last = column_label(self.columns - 1)
        return (
            f"{text.upper()} is not on the {self.describe()} Field "
            f"(columns A-{last}, rows 1-{self.rows})"
        )


def column_label(column: int) -> str:
    """Zero-based ``column`` as letters: 0 -> A, 25 -> Z, 26 -> AA."""
    if column < 0:
        raise ValueError(f"column {column} is negative")
    label = ""
    column += 1
    while column:
        column, remainder = divmod(column - 1, len(LETTERS))
        label = LETTERS[remainder] + label
    return label


def column_index(label: str) -> int:
    """Letters as a zero-based column: A -> 0, Z -> 25, AA -> 26 (case-insensitive)."""
    index = 0
    for letter in label.upper():
        index = index * len(LETTERS) + LETTERS.index(letter) + 1
    return index - 1


def _offsets(adjacency: Adjacency) -> tuple[tuple[int, int], ...]:
    sides = ((-1, 0), (1, 0), (0, -1), (0, 1))
    corners = ((-1, -1), (1, -1), (-1, 1), (1, 1))
    return sides + corners if adjacency is Adjacency.EIGHT else sides


@functools.cache
def neighbour_table(geometry: FieldGeometry) -> tuple[tuple[Square, ...], ...]:
    """For every square, its adjacent squares (wrapping on a torus)."""
    return tuple(_neighbours(geometry, square) for square in range(geometry.square_count))


def _neighbours(geometry: FieldGeometry, square: Square) -> tuple[Square, ...]:
    column, row = geometry.column_of(square), geometry.row_of(square)
    found: list[Square] = []
    for column_step, row_step in _offsets(geometry.adjacency):
        other_column, other_row = column + column_step, row + row_step
        if geometry.torus:
            other_column %= geometry.columns
            other_row %= geometry.rows
        elif not (0 <= other_column < geometry.columns and 0 <= other_row < geometry.rows):
            continue
        found.append(geometry.square_at(other_column, other_row))
    return tuple(found)
