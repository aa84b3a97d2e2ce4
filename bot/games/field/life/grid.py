"""Life's coloured cells as bitboards, and Evolve's step 1 (seed 000, "Life").

A ``LifeGrid`` holds one integer per colour, bit ``square`` set where the
Cell has that colour (squares numbered as in ``bot.games.field.squares``: A1
is bit 0, rows from the bottom).  Neighbour counts are bit-sliced across the
whole Field at once, so a generation costs a few dozen integer operations
whatever the Field's size; the 2,577-object corpus test runs this very
function on large tori.

Evolve, step 1 (simultaneous):
  a) "For each Cell with null Color that is adjacent to exactly three Cells
     with non-null Color, its Color is changed to the most common of those
     non-null Colors, with ties broken in favor of the Field's Advantage"
  b) "For each Cell with non-null Color that is adjacent to less than two or
     more than three Cells with non-null Color, its Color is changed to null"

With three colours and exactly three coloured neighbours a tie can only be
one of each, so the Advantage is always among the tied colours.  When only
one colour is on the Field every birth takes that colour, which is rule (a)
with its majority already known: ``evolve_grid`` skips the per-colour counts
then, and the tests check it against a square-by-square reading of (a) and
(b) on random boards of one and of several colours.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum

from bot.games.field.squares import Adjacency, FieldGeometry, Square, column_label


class Colour(Enum):
    """A non-null Team or Cell Color; None stands for "null" throughout."""

    RED = "Red"
    GREEN = "Green"
    BLUE = "Blue"

    @property
    def letter(self) -> str:
        return self.value[0]


COLOURS = (Colour.RED, Colour.GREEN, Colour.BLUE)
NULL_LETTER = "."
_BY_LETTER = {colour.letter: colour for colour in COLOURS}


@dataclass(frozen=True)
class LifeGrid:
    """The Cells' colours on a Field: ``planes`` holds one bitboard per colour of COLOURS.

    Raises ``ValueError`` if a plane has bits off the Field or two planes
    share a square.
    """

    geometry: FieldGeometry
    planes: tuple[int, int, int]

    def __post_init__(self) -> None:
        full = _masks(self.geometry).full
        if any(plane & ~full or plane < 0 for plane in self.planes):
            raise ValueError("a colour plane has squares off the Field")
        red, green, blue = self.planes
        if red & green or red & blue or green & blue:
            raise ValueError("a square has two colours")

    @classmethod
    def empty(cls, geometry: FieldGeometry) -> LifeGrid:
        return cls(geometry, (0, 0, 0))

    @classmethod
    def from_colours(cls, geometry: FieldGeometry, colours: Mapping[Square, Colour]) -> LifeGrid:
        planes = [0, 0, 0]
        for square, colour in colours.items():
            geometry.format_square(square)  # raises ValueError off the Field
            planes[COLOURS.index(colour)] |= 1 << square
        return cls(geometry, (planes[0], planes[1], planes[2]))

    @property
    def live(self) -> int:
        """The bitboard of every non-null Cell."""
        red, green, blue = self.planes
        return red | green | blue

    @property
    def population(self) -> int:
        return self.live.bit_count()

    def colour_at(self, square: Square) -> Colour | None:
        bit = 1 << square
        return next((c for c, plane in zip(COLOURS, self.planes, strict=True) if plane & bit), None)

    def with_colour(self, square: Square, colour: Colour | None) -> LifeGrid:
        colours = self.colours()
        colours.pop(square, None)
        if colour is not None:
            colours[square] = colour
        return LifeGrid.from_colours(self.geometry, colours)

    def colours(self) -> dict[Square, Colour]:
        """Every non-null Cell's colour by square."""
        found: dict[Square, Colour] = {}
        for colour, plane in zip(COLOURS, self.planes, strict=True):
            found.update((square, colour) for square in _bits(plane))
        return found

    def colours_present(self) -> tuple[Colour, ...]:
        return tuple(c for c, plane in zip(COLOURS, self.planes, strict=True) if plane)


def evolve_grid(grid: LifeGrid, advantage: Colour | None) -> LifeGrid:
    """Evolve step 1 (a) and (b), simultaneously, on the whole Field.

    Raises ``ValueError`` if a tie needs the Advantage and it is null (a
    defect: Initialize sets it before any Cell exists).
    """
    geometry, live = grid.geometry, grid.live
    full = _masks(geometry).full
    ones, twos, more = _count(_neighbour_planes(live, geometry))
    fewer_than_four = full ^ more
    births = ones & twos & fewer_than_four & (full ^ live)
    survivors = live & twos & fewer_than_four
    if len(grid.colours_present()) <= 1:
        # One colour: every birth's three neighbours share it, so it is the majority.
        planes = [(plane & survivors) | (births if plane else 0) for plane in grid.planes]
    else:
        planes = _coloured_births(grid, births, survivors, advantage)
    return LifeGrid(geometry, (planes[0], planes[1], planes[2]))


def _coloured_births(
    grid: LifeGrid, births: int, survivors: int, advantage: Colour | None
) -> list[int]:
    majorities = [births & _at_least_two_neighbours(plane, grid.geometry) for plane in grid.planes]
    ties = births & ~(majorities[0] | majorities[1] | majorities[2])
    if ties and advantage is None:
        raise ValueError("a birth is tied and the Field has no Advantage")
    return [
        (plane & survivors) | majority | (ties if colour is advantage else 0)
        for colour, plane, majority in zip(COLOURS, grid.planes, majorities, strict=True)
    ]


def _at_least_two_neighbours(plane: int, geometry: FieldGeometry) -> int:
    if not plane:
        return 0
    _, twos, more = _count(_neighbour_planes(plane, geometry))
    return twos | more


def _count(planes: Iterable[int]) -> tuple[int, int, int]:
    """Bit-sliced sum: count = ones + 2 * twos while ``more`` is clear; ``more`` marks 4+."""
    ones = twos = more = 0
    for plane in planes:
        carry = ones & plane
        ones ^= plane
        more |= twos & carry
        twos ^= carry
    return ones, twos, more


@dataclass(frozen=True)
class _Masks:
    full: int
    first_column: int
    last_column: int


@functools.cache
def _masks(geometry: FieldGeometry) -> _Masks:
    row_starts = sum(1 << (row * geometry.columns) for row in range(geometry.rows))
    return _Masks(
        full=(1 << geometry.square_count) - 1,
        first_column=row_starts,
        last_column=row_starts << (geometry.columns - 1),
    )


def _neighbour_planes(plane: int, geometry: FieldGeometry) -> list[int]:
    """For each direction, the plane each square sees in its neighbour that way."""
    west, east = _from_west(plane, geometry), _from_east(plane, geometry)
    if geometry.adjacency is Adjacency.FOUR:
        return [west, east, _from_south(plane, geometry), _from_north(plane, geometry)]
    vertical = [
        shift(source, geometry)
        for source in (plane, west, east)
        for shift in (_from_south, _from_north)
    ]
    return [west, east, *vertical]


def _from_west(plane: int, geometry: FieldGeometry) -> int:
    masks = _masks(geometry)
    shifted = (plane << 1) & (masks.full ^ masks.first_column)
    if geometry.torus:
        shifted |= (plane >> (geometry.columns - 1)) & masks.first_column
    return shifted


def _from_east(plane: int, geometry: FieldGeometry) -> int:
    masks = _masks(geometry)
    shifted = (plane >> 1) & (masks.full ^ masks.last_column)
    if geometry.torus:
        shifted |= (plane << (geometry.columns - 1)) & masks.last_column
    return shifted


def _from_south(plane: int, geometry: FieldGeometry) -> int:
    shifted = (plane << geometry.columns) & _masks(geometry).full
    if geometry.torus:
        shifted |= plane >> (geometry.square_count - geometry.columns)
    return shifted


def _from_north(plane: int, geometry: FieldGeometry) -> int:
    shifted = plane >> geometry.columns
    if geometry.torus:
        shifted |= (plane << (geometry.square_count - geometry.columns)) & _masks(geometry).full
    return shifted


def _bits(plane: int) -> Iterable[Square]:
    while plane:
        lowest = plane & -plane
        yield lowest.bit_length() - 1
        plane ^= lowest


def render_grid(grid: LifeGrid) -> str:
    """The grid as text: column letters, then rows from the top, each labelled.

    Cells show R, G, B or "." for null, e.g. ``" 2  . R . . ."``.
    """
    geometry = grid.geometry
    width = len(column_label(geometry.columns - 1))
    label_width = len(str(geometry.rows))
    header = " " * (label_width + 2) + " ".join(
        column_label(column).ljust(width) for column in range(geometry.columns)
    )
    lines = [header.rstrip()]
    for row in reversed(range(geometry.rows)):
        cells = " ".join(
            _letter(grid.colour_at(geometry.square_at(column, row))).ljust(width)
            for column in range(geometry.columns)
        )
        lines.append(f"{str(row + 1).rjust(label_width)}  {cells}".rstrip())
    return "\n".join(lines)


def parse_grid(
    text: str, *, torus: bool = True, adjacency: Adjacency = Adjacency.EIGHT
) -> LifeGrid:
    """Read a grid drawn with R, G, B and "." (top row first), as ``render_grid`` writes it.

    Row labels and the column-letter header are optional; lines with a
    colon (a board's legend) are not rows.  Raises
    ``ValueError`` for rows of unequal length or an unknown cell letter.
    """
    rows = [_cells_of(line) for line in text.splitlines() if _is_row(line)]
    if not rows or len({len(row) for row in rows}) != 1:
        raise ValueError("a grid needs rows of equal length")
    geometry = FieldGeometry(len(rows), len(rows[0]), torus, adjacency)
    colours: dict[Square, Colour] = {}
    for index, cells in enumerate(rows):
        row = geometry.rows - 1 - index
        for column, letter in enumerate(cells):
            if letter != NULL_LETTER:
                colours[geometry.square_at(column, row)] = _BY_LETTER[letter]
    return LifeGrid.from_colours(geometry, colours)


def _is_row(line: str) -> bool:
    tokens = line.split()
    # The header starts with column A, which is no colour letter; legend
    # lines ("Advantage: Red") have a colon, which no row has.
    return bool(tokens) and tokens[0] != "A" and ":" not in line


def _cells_of(line: str) -> list[str]:
    cells = [token for token in line.split() if not token.isdigit()]
    unknown = [cell for cell in cells if cell != NULL_LETTER and cell not in _BY_LETTER]
    if unknown:
        raise ValueError(f"unknown cell {unknown[0]!r} in grid row {line.strip()!r}")
    return cells


def _letter(colour: Colour | None) -> str:
    return NULL_LETTER if colour is None else colour.letter
