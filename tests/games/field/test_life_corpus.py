"""Acceptance 1: Life's Evolve against 2,577 verified Conway's Life objects.

The corpus (``life/verified_objects.jsonl``, see its PROVENANCE.md) lists
still lifes, oscillators and spaceships, each verified on an unbounded plane
under B3/S23.  With every Cell one colour, Evolve step 1 is exactly B3/S23,
so each object, alone on a torus big enough that it cannot meet itself
round the edges, must return to itself shifted by its (dx, dy) after
exactly its period, and not before.  The function run is ``evolve_grid``,
the one Life's Evolve calls.

Orientation: RLE rows run downwards and the Field's rows upwards, so RLE row
y lands on Field row ``top - y`` and the corpus's dy becomes -dy in rows.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from bot.games.field import Adjacency, FieldGeometry
from bot.games.field.life import Colour, LifeGrid, evolve_grid

EXPECTED_OBJECTS = 2577
_RUN = re.compile(r"(\d*)([bo$!])")


@dataclass(frozen=True)
class CorpusObject:
    source: str
    kind: str
    period: int
    dx: int
    dy: int
    population: int
    width: int
    height: int
    cells: frozenset[tuple[int, int]]  # (x, y), y growing downwards


def parse_rle(text: str) -> frozenset[tuple[int, int]]:
    """The live cells of a two-state RLE pattern as (x, y) pairs."""
    lines = [line for line in text.splitlines() if not line.startswith(("#", "x"))]
    cells: set[tuple[int, int]] = set()
    x = y = 0
    for count_text, tag in _RUN.findall("".join(lines)):
        count = int(count_text or 1)
        if tag == "o":
            cells.update((x + step, y) for step in range(count))
        if tag in "bo":
            x += count
        elif tag == "$":
            x, y = 0, y + count
        else:
            break
    return frozenset(cells)


def load_objects(path: Path) -> list[CorpusObject]:
    objects = []
    for line in path.read_text().splitlines():
        row = json.loads(line)
        objects.append(
            CorpusObject(
                source=row["source_file"],
                kind=row["kind"],
                period=row["period"],
                dx=row["dx"],
                dy=row["dy"],
                population=row["population"],
                width=row["width"],
                height=row["height"],
                cells=parse_rle(row["rle"]),
            )
        )
    return objects


@dataclass(frozen=True)
class Placement:
    grid: LifeGrid
    expected: int  # the plane after one period
    margin: int


def place_on_torus(item: CorpusObject) -> Placement:
    # A pattern grows at most one cell per generation each way, so a margin
    # of period + 2 on every side keeps the torus indistinguishable from the
    # plane for a whole period.
    margin = item.period + 2
    geometry = FieldGeometry(
        item.height + 2 * margin, item.width + 2 * margin, torus=True, adjacency=Adjacency.EIGHT
    )
    top = margin + item.height - 1

    def plane(shift_x: int, shift_y: int) -> int:
        return sum(
            1 << geometry.square_at(margin + x + shift_x, top - y - shift_y) for x, y in item.cells
        )

    grid = LifeGrid(geometry, (plane(0, 0), 0, 0))
    return Placement(grid, plane(item.dx, item.dy), margin)


def is_translate(plane: int, original: int) -> bool:
    """Whether ``plane`` is ``original`` moved, neither touching the torus's edges."""
    if plane.bit_count() != original.bit_count() or not plane:
        return False
    delta = _lowest_bit(plane) - _lowest_bit(original)
    return plane == (original << delta if delta >= 0 else original >> -delta)


def _lowest_bit(plane: int) -> int:
    return (plane & -plane).bit_length() - 1


def failure_of(item: CorpusObject) -> str | None:
    """Why ``item`` does not behave as the corpus says, or None if it does."""
    placement = place_on_torus(item)
    grid = placement.grid
    original = grid.planes[0]
    if grid.population != item.population:
        return f"population {grid.population}, corpus says {item.population}"
    for generation in range(1, item.period + 1):
        grid = evolve_grid(grid, Colour.RED)
        if grid.planes[1] or grid.planes[2]:
            return f"generation {generation} has a colour that was not on the Field"
        if generation < item.period and is_translate(grid.planes[0], original):
            return f"recurs after {generation} generations, before its period {item.period}"
    if grid.planes[0] != placement.expected:
        return f"is not itself shifted by ({item.dx}, {item.dy}) after {item.period} generations"
    return None


def test_rle_reader_reads_a_glider() -> None:
    cells = parse_rle("x = 3, y = 3, rule = B3/S23\nbo$2bo$3o!")
    assert cells == {(1, 0), (2, 1), (0, 2), (1, 2), (2, 2)}


def test_every_verified_object_keeps_its_period_and_shift(corpora: Path) -> None:
    objects = load_objects(corpora / "life" / "verified_objects.jsonl")
    assert len(objects) == EXPECTED_OBJECTS
    failures = [
        f"{item.source} ({item.kind}, {item.width}x{item.height}): {reason}"
        for item in objects
        if (reason := failure_of(item)) is not None
    ]
    assert failures == [], f"{len(failures)} of {len(objects)} objects fail: {failures[:5]}"
