"""Board diagrams for the tests of A Nomic's Political Go (``bot.games.go.anomic``, seed 002).

STYLE.md rule of thumb 5: boards are text first, so the rules tests are
before/after diagrams drawn as ``render_board`` draws them.  Every test file of
``tests/games/go/anomic`` reads and compares them the same way; the helpers
live here because pytest's importlib mode lets no test file import another.

What differs between the files stays a parameter: the cast of players (the
board's legend lists every one of them, so it is part of what a test pins) and
the board's parameters (size, and whether rule 368's 19 hours apply).
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping

from bot.games.go.anomic import (
    AnomicParameters,
    AnomicState,
    add_players,
    as_go_players,
    new_game,
    parse_diagram,
    render_board,
    with_stones,
)
from bot.games.go.points import Point
from bot.games.go.state import PlayerId


def untimed(size: int) -> AnomicParameters:
    """A ``size`` board without rule 368's wait between moves.

    Sequences of moves in a test then need no clock; the 19-hour limit has
    its own tests (``test_placement_rules.py``).
    """
    return AnomicParameters(size=size, move_interval=0)


SMALL = untimed(5)

EMPTY_5X5 = """
       a b c d e
    5  . . . . .  5
    4  . . . . .  4
    3  . . . . .  3
    2  . . . . .  2
    1  . . . . .  1
       a b c d e
    """


def diagram(text: str) -> str:
    """``text`` written as an indented triple-quoted block, as ``render_board`` lines.

    The indentation and the blank first and last lines are the test file's
    layout, not part of the board, so they go.
    """
    return textwrap.dedent(text).strip("\n")


def page(text: str) -> str:
    """A whole ``render_board`` text, written as an indented block (it ends in a newline)."""
    return diagram(text) + "\n"


def drawn_position(
    text: str, marks: Mapping[str, PlayerId], parameters: AnomicParameters
) -> AnomicState:
    """A new game with the diagram's stones, each mark owned by ``marks[mark]``.

    Every player of ``marks`` joins (in its order) and counts as a Go player, as
    if each had moved (rule 365), so tests can start mid-game.  Raises
    ``ValueError`` when the board would give a player another mark than the
    diagram does: the diagram would then be read with the wrong owners.
    """
    state = add_players(new_game(parameters), marks.values())
    misread = {mark: name for mark, name in marks.items() if state.record_of(name).mark != mark}
    if misread:
        raise ValueError(f"the board marks these players otherwise: {misread}")
    drawn = parse_diagram(diagram(text), parameters)
    stones = {point: marks[mark] for point, mark in drawn.items()}
    return as_go_players(with_stones(state, stones), marks.values())


def board_of(state: AnomicState) -> str:
    """Only the board lines (both coordinate rows included) of ``render_board``.

    Compared with a ``diagram``, so a test about the board is not also about
    the heading and the legend below it.
    """
    lines = render_board(state).splitlines()
    return "\n".join(lines[2 : 4 + state.parameters.size])


def at(where: str) -> Point:
    """The point of a 5x5 board named ``where`` in rule 366's notation (``"c3"``)."""
    return SMALL.parse_point(where)


def points(*names: str) -> frozenset[Point]:
    """The points of a 5x5 board with these names, as a Dragon or a capture lists them."""
    return frozenset(at(name) for name in names)
