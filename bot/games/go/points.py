"""Board points: numbering, neighbours, and the "G3" notation (rule 1639 A, seed 004).

A ``Point`` is a small integer, as python-chess's ``Square`` is: ``row * size +
column`` with column 0 the leftmost (A) and row 0 the bottom row (1).  Flood
fills over small integers and a precomputed neighbour table keep the hot path
cheap; the text form only appears at the edges (parsing posts, messages).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TypeVar

from bot.games.errors import ActionSyntaxError, IllegalActionError

Point = int

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
MINIMUM_SIZE = 2
# Rule 1639 A labels columns with letters, A through I on 9x9 (I included), so
# a board can be at most as wide as the alphabet.
MAXIMUM_SIZE = len(LETTERS)

_POINT_PATTERN = re.compile(r"\s*([A-Za-z])\s*(\d{1,3})\s*")


def check_size(size: int) -> None:
    """Raise ``ValueError`` unless ``size`` is a supported board size."""
    if not MINIMUM_SIZE <= size <= MAXIMUM_SIZE:
        raise ValueError(f"board size must be {MINIMUM_SIZE}..{MAXIMUM_SIZE}, not {size}")


def column_labels(size: int, *, lowercase: bool = False) -> str:
    """The column letters of a ``size`` board, left to right ("ABCDEFGHI" for 9)."""
    check_size(size)
    labels = LETTERS[:size]
    return labels.lower() if lowercase else labels


def point_at(column: int, row: int, size: int) -> Point:
    """The point in zero-based ``column`` (0 = A) and ``row`` (0 = row 1)."""
    if not (0 <= column < size and 0 <= row < size):
        raise ValueError(f"column {column}, row {row} is off a {size}x{size} board")
    return row * size + column


def column_of(point: Point, size: int) -> int:
    """Zero-based column of ``point`` (0 = A)."""
    return point % size


def row_of(point: Point, size: int) -> int:
    """Zero-based row of ``point`` (0 = row 1, the bottom row)."""
    return point // size


def is_on_board(point: Point, size: int) -> bool:
    """Whether ``point`` is a valid point number for a ``size`` board."""
    return 0 <= point < size * size


def format_point(point: Point, size: int, *, lowercase: bool = False) -> str:
    """``point`` in the notation of rule 1639 A, e.g. ``"G3"``.

    Raises ``ValueError`` for a point number that is not on the board (a defect,
    not a player's mistake: players never type point numbers).
    """
    if not (MINIMUM_SIZE <= size <= MAXIMUM_SIZE and 0 <= point < size * size):
        raise ValueError(f"point {point} is off a {size}x{size} board")
    row, column = divmod(point, size)
    letter = LETTERS[column]
    return f"{letter.lower() if lowercase else letter}{row + 1}"


@functools.cache
def point_names(size: int, *, lowercase: bool = False) -> tuple[str, ...]:
    """``format_point`` of every point of a ``size`` board, indexed by point.

    A stored state names each stone; a table read by index writes them
    without formatting every one again.  Raises ``ValueError`` for an
    unsupported size.
    """
    check_size(size)
    return tuple(format_point(point, size, lowercase=lowercase) for point in range(size * size))


@functools.cache
def points_by_name(size: int, *, lowercase: bool = False) -> Mapping[str, Point]:
    """The inverse of ``point_names``: each name ``format_point`` writes, to its point.

    Only the names ``format_point`` writes, so a lookup that finds nothing
    says nothing about the text: ``parse_point`` reads it (other spacing or
    case, a leading zero) or explains why it is no point.  Read-only: the
    table is shared by every caller.
    """
    names = point_names(size, lowercase=lowercase)
    return MappingProxyType({name: point for point, name in enumerate(names)})


def parse_point(text: str, size: int, *, rule: str = "1639 A", lowercase: bool = False) -> Point:
    """Read ``"G3"`` or ``"g3"`` as a point on a ``size`` board.

    Raises ``ActionSyntaxError`` if ``text`` is not a letter followed by a
    number, and ``IllegalActionError`` if it names a point off the board; both
    carry ``rule``.
    """
    check_size(size)
    match = _POINT_PATTERN.fullmatch(text)
    if match is None:
        raise ActionSyntaxError(f'"{text}" is not a board position such as G3', rule=rule)
    column = LETTERS.index(match.group(1).upper())
    row = int(match.group(2)) - 1
    if not (column < size and 0 <= row < size):
        raise IllegalActionError(_off_board_message(text.strip(), size, lowercase), rule=rule)
    return point_at(column, row, size)


def _off_board_message(text: str, size: int, lowercase: bool) -> str:
    # The columns in the board's own lettering: rule 366 letters "a" to "s".
    labels = column_labels(size, lowercase=lowercase)
    point = text if lowercase else text.upper()
    return (
        f"{point} is not on the {size}x{size} board "
        f"(columns {labels[0]}-{labels[-1]}, rows 1-{size})"
    )


Key = TypeVar("Key")
Value = TypeVar("Value")


class BuiltOnFirstUse(dict[Key, Value]):
    """A dict whose missing entries ``build(key)`` makes, once each.

    For tables every placement reads: subscripting a dict costs less than
    calling a cache.
    """

    def __init__(self, build: Callable[[Key], Value]) -> None:
        super().__init__()
        self.build = build

    def __missing__(self, key: Key) -> Value:
        value = self[key] = self.build(key)
        return value


def _neighbour_table(size: int) -> tuple[tuple[Point, ...], ...]:
    check_size(size)
    return tuple(_neighbours(point, size) for point in range(size * size))


NEIGHBOURS: BuiltOnFirstUse[int, tuple[tuple[Point, ...], ...]] = BuiltOnFirstUse(_neighbour_table)


def neighbour_table(size: int) -> tuple[tuple[Point, ...], ...]:
    """For every point, the points horizontally or vertically adjacent to it.

    Rule 1639 D: adjacent means the row or the column, but not both, differs
    by one; diagonals do not count.
    """
    return NEIGHBOURS[size]


def _neighbours(point: Point, size: int) -> tuple[Point, ...]:
    column, row = column_of(point, size), row_of(point, size)
    candidates = ((column - 1, row), (column + 1, row), (column, row - 1), (column, row + 1))
    return tuple(
        point_at(other_column, other_row, size)
        for other_column, other_row in candidates
        if 0 <= other_column < size and 0 <= other_row < size
    )
