"""Evolve step 1 on bitboards against a square-by-square reading of the rule (seed 000).

``reference_step`` reads Life's Evolve (a) and (b) literally over
``FieldGeometry.neighbours``; ``evolve_grid`` (the function the game and the
corpus test use, with its one-colour shortcut) must agree with it on random
boards of one colour and of several, on tori and flat Fields, with eight and
with four adjacent squares.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.games.field import Adjacency, FieldGeometry
from bot.games.field.life import COLOURS, Colour, LifeGrid, evolve_grid, parse_grid, render_grid

GEOMETRIES = [
    FieldGeometry(5, 5, torus=True, adjacency=Adjacency.EIGHT),
    FieldGeometry(7, 11, torus=True, adjacency=Adjacency.EIGHT),
    FieldGeometry(6, 4, torus=False, adjacency=Adjacency.EIGHT),
    FieldGeometry(9, 8, torus=True, adjacency=Adjacency.FOUR),
    FieldGeometry(1, 9, torus=False, adjacency=Adjacency.EIGHT),
    FieldGeometry(12, 3, torus=False, adjacency=Adjacency.FOUR),
]


def reference_step(grid: LifeGrid, advantage: Colour) -> LifeGrid:
    geometry = grid.geometry
    before = grid.colours()
    after: dict[int, Colour] = {}
    for square in range(geometry.square_count):
        around = [before[other] for other in geometry.neighbours(square) if other in before]
        colour = before.get(square)
        if colour is None and len(around) == 3:
            counts = Counter(around)
            best = max(counts.values())
            tied = [c for c in COLOURS if counts[c] == best]
            after[square] = tied[0] if len(tied) == 1 else advantage
        elif colour is not None and 2 <= len(around) <= 3:
            after[square] = colour
    return LifeGrid.from_colours(geometry, after)


def random_grid(
    generator: random.Random, geometry: FieldGeometry, colours: tuple[Colour, ...]
) -> LifeGrid:
    density = generator.choice((0.2, 0.35, 0.5))
    cells = {
        square: generator.choice(colours)
        for square in range(geometry.square_count)
        if generator.random() < density
    }
    return LifeGrid.from_colours(geometry, cells)


@pytest.mark.parametrize("geometry", GEOMETRIES, ids=lambda geometry: geometry.describe())
@pytest.mark.parametrize("palette", ["one colour", "three colours"])
def test_evolve_grid_is_the_rule_read_square_by_square(
    geometry: FieldGeometry, palette: str
) -> None:
    generator = random.Random(f"{geometry}{palette}")
    compared = 0
    for _ in range(150):
        colours = (generator.choice(COLOURS),) if palette == "one colour" else COLOURS
        grid = random_grid(generator, geometry, colours)
        advantage = generator.choice(COLOURS)
        for _generation in range(4):
            expected = reference_step(grid, advantage)
            assert evolve_grid(grid, advantage) == expected, render_grid(grid)
            grid, compared = expected, compared + 1
    assert compared == 600


def test_ties_happen_in_the_random_boards() -> None:
    # The comparison above is only evidence for ties if the boards have some.
    generator = random.Random(7)
    geometry = GEOMETRIES[1]
    tied = 0
    for _ in range(50):
        grid = random_grid(generator, geometry, COLOURS)
        tied += evolve_grid(grid, Colour.RED) != evolve_grid(grid, Colour.BLUE)
    assert tied > 10


def test_one_colour_is_conways_life_blinker_on_the_five_by_five_torus() -> None:
    vertical = parse_grid(
        """
        . . . . .
        . . G . .
        . . G . .
        . . G . .
        . . . . .
        """
    )
    horizontal = evolve_grid(vertical, Colour.RED)
    assert render_grid(horizontal) == "\n".join(
        [
            "   A B C D E",
            "5  . . . . .",
            "4  . . . . .",
            "3  . G G G .",
            "2  . . . . .",
            "1  . . . . .",
        ]
    )
    assert evolve_grid(horizontal, Colour.RED) == vertical


def test_a_tie_with_no_advantage_is_a_defect() -> None:
    grid = parse_grid(
        """
        R . B
        . . .
        . G .
        . . .
        """,
        torus=False,
    )
    with pytest.raises(ValueError, match="no Advantage"):
        evolve_grid(grid, None)


def test_grids_round_trip_through_text_and_reject_bad_cells() -> None:
    generator = random.Random(3)
    for geometry in GEOMETRIES:
        grid = random_grid(generator, geometry, COLOURS)
        text = render_grid(grid)
        assert parse_grid(text, torus=geometry.torus, adjacency=geometry.adjacency) == grid
    with pytest.raises(ValueError, match="unknown cell 'X'"):
        parse_grid(". X .\n. . .\n. . .")
    with pytest.raises(ValueError, match="equal length"):
        parse_grid(". . .\n. .\n. . .")


def test_a_grid_refuses_two_colours_on_one_square() -> None:
    geometry = GEOMETRIES[0]
    with pytest.raises(ValueError, match="two colours"):
        LifeGrid(geometry, (1, 1, 0))
    with pytest.raises(ValueError, match="off the Field"):
        LifeGrid(geometry, (1 << 25, 0, 0))
    grid = LifeGrid.empty(geometry).with_colour(7, Colour.BLUE)
    assert grid.colour_at(7) is Colour.BLUE and grid.with_colour(7, None) == LifeGrid.empty(
        geometry
    )
