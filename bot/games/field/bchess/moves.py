"""How B-Chess pieces move on the Field (seed 000, "B-Chess"): shapes, routes, reach.

"When moving more than one square a Field Object must move in the shortest
and most direct route to their target square."  On a torus a square lies a
columns' and rows' distance away both ways round; the route takes the
shorter way on each axis.  On the 20 x 20 Field the longest move is 8
squares, less than half of 20, so the shorter way is always unique; an
amended document where both ways are equally short and both fit the piece
is refused as ambiguous rather than guessed.  The route then goes in a
straight line (cardinal or diagonal, one square at a time), and "a Field
Object may not move through a square occupied by another Field Object"
applies to every square strictly between the ends; only the Knight "may
move through spaces occupied by other Field Objects".

Reach (Join and Rejoin, "a random square ... that cannot be reached by any
existing Field Object in a single turn"): a square is within reach of a
placed piece when that piece's Move, or the Pawn's Capture, could end on it
this Turn as the Field stands, whatever stands on the square itself.  So a
Pawn reaches all eight squares around it (four by Move, four by Capture,
since a King put on a diagonal square could be captured at once); a King
its eight neighbours; a Knight its eight jumps; a Rook, Bishop or Queen
every square along its lines up to the move range and up to the first
piece in the way.  Unplaced pieces are not on the Field and reach nothing.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass

from bot.games.field.bchess.document import (
    BISHOP,
    CAPTURE,
    KING,
    KNIGHT,
    KNIGHT_JUMP,
    MOVE,
    MOVE_RANGE,
    PAWN,
    QUEEN,
    ROOK,
    number_pair,
    whole_number,
)
from bot.games.field.match import FieldMatch
from bot.games.field.objects import FieldObject
from bot.games.field.squares import Adjacency, FieldGeometry, Square

Displacement = tuple[int, int]  # (columns rightwards, rows upwards)


@dataclass(frozen=True)
class Route:
    """A route a piece may take: its displacement and the squares strictly between."""

    displacement: Displacement
    passes: tuple[Square, ...]
    jumps: bool = False


@dataclass(frozen=True)
class RouteRefusal:
    """Why no route of the piece's shape leads to the target, in a player's words."""

    message: str


def plan_route(
    match: FieldMatch, piece_kind: str, action: str, start: Square, target: Square
) -> Route | RouteRefusal:
    """The route ``piece_kind``'s ``action`` (Move or Capture) takes from start to target.

    Only the shape is judged here, not what stands on the squares.  Raises
    ``ValueError`` for a kind or action B-Chess does not define (a defect).
    """
    geometry = match.geometry
    if start == target:
        return RouteRefusal(f"the {piece_kind} already stands on {geometry.format_square(start)}")
    fitting = [
        step
        for step in shortest_displacements(geometry, start, target)
        if shape_fits(match, piece_kind, action, step)
    ]
    if not fitting:
        return RouteRefusal(_not_shape_message(match, piece_kind, action, start, target))
    if len(fitting) > 1:
        return RouteRefusal(
            f"{geometry.format_square(start)} to {geometry.format_square(target)} can go two "
            "equally short ways round the Field, so it has no single most direct route"
        )
    return _route(geometry, piece_kind, start, fitting[0])


def shortest_displacements(
    geometry: FieldGeometry, start: Square, target: Square
) -> tuple[Displacement, ...]:
    """The displacements from start to target taking the shorter way on each axis."""
    columns = _axis(
        geometry.column_of(target) - geometry.column_of(start), geometry.columns, geometry.torus
    )
    rows = _axis(geometry.row_of(target) - geometry.row_of(start), geometry.rows, geometry.torus)
    return tuple((column, row) for column in columns for row in rows)


def shape_fits(match: FieldMatch, piece_kind: str, action: str, step: Displacement) -> bool:
    """Whether ``step`` is a move of ``piece_kind``'s ``action`` as the document words it."""
    across, up = abs(step[0]), abs(step[1])
    reach = whole_number(match, MOVE_RANGE)
    if action == CAPTURE:
        if piece_kind != PAWN:
            raise ValueError(f"a {piece_kind} has no Capture action")
        return across == up == 1
    if action != MOVE:
        raise ValueError(f"{action} is not a movement action")
    cardinal = min(across, up) == 0 and 1 <= max(across, up) <= reach
    diagonal = across == up and 1 <= across <= reach
    eight_way = match.adjacency is Adjacency.EIGHT
    shapes = {
        # "an adjacent space": the Field's adjacency (eight squares in B-Chess).
        KING: max(across, up) == 1 if eight_way else across + up == 1,
        PAWN: across + up == 1,
        ROOK: cardinal,
        BISHOP: diagonal,
        QUEEN: cardinal or diagonal,
        KNIGHT: sorted((across, up)) == sorted(number_pair(match, KNIGHT_JUMP)),
    }
    if piece_kind not in shapes:
        raise ValueError(f"B-Chess defines no Move for a {piece_kind}")
    return shapes[piece_kind]


def shape_description(match: FieldMatch, piece_kind: str, action: str) -> str:
    """The shape of a move in words, e.g. "a Rook moves up to 8 squares in a cardinal direction"."""
    reach = whole_number(match, MOVE_RANGE)
    long, short = number_pair(match, KNIGHT_JUMP)
    if action == CAPTURE:
        return "a Pawn captures on an adjacent square in a diagonal direction"
    descriptions = {
        KING: "a King moves to an adjacent square in any of the eight directions",
        PAWN: "a Pawn moves to an adjacent square in a cardinal direction",
        ROOK: f"a Rook moves up to {reach} squares in a cardinal direction",
        BISHOP: f"a Bishop moves up to {reach} squares in a diagonal direction",
        QUEEN: f"a Queen moves up to {reach} squares in a cardinal or diagonal direction",
        KNIGHT: (
            f"a Knight moves {long} squares in one cardinal direction and {short} "
            "in a perpendicular one"
        ),
    }
    return descriptions.get(piece_kind, f"a {piece_kind} does not move")


def first_blocker(route: Route, standing: Mapping[Square, FieldObject]) -> FieldObject | None:
    """The first piece standing in the route's way (never one for a jump)."""
    if route.jumps:
        return None
    return next((standing[square] for square in route.passes if square in standing), None)


def reach_of(
    match: FieldMatch, piece: FieldObject, standing: Mapping[Square, FieldObject]
) -> frozenset[Square]:
    """The squares ``piece`` could end on in a single Turn (see the module's reading)."""
    if piece.square is None:
        return frozenset()
    geometry = match.geometry
    actions = (MOVE, CAPTURE) if piece.kind == PAWN else (MOVE,)
    reached: set[Square] = set()
    for action in actions:
        for step in _shape_steps(match, piece.kind, action):
            target = _shifted(geometry, piece.square, step)
            if target is None:
                continue
            # The same judgement as a Move request: shortest way, shape, path.
            route = plan_route(match, piece.kind, action, piece.square, target)
            if isinstance(route, Route) and first_blocker(route, standing) is None:
                reached.add(target)
    return frozenset(reached)


@functools.cache
def _shape_steps(match: FieldMatch, piece_kind: str, action: str) -> tuple[Displacement, ...]:
    """Every displacement of ``piece_kind``'s ``action`` shape, whatever the Field."""
    limit = max(whole_number(match, MOVE_RANGE), *number_pair(match, KNIGHT_JUMP), 1)
    span = range(-limit, limit + 1)
    return tuple(
        (across, up)
        for across in span
        for up in span
        if shape_fits(match, piece_kind, action, (across, up))
    )


def _shifted(geometry: FieldGeometry, start: Square, step: Displacement) -> Square | None:
    column = geometry.column_of(start) + step[0]
    row = geometry.row_of(start) + step[1]
    if geometry.torus:
        return geometry.square_at(column % geometry.columns, row % geometry.rows)
    if 0 <= column < geometry.columns and 0 <= row < geometry.rows:
        return geometry.square_at(column, row)
    return None


def _axis(delta: int, size: int, torus: bool) -> tuple[int, ...]:
    if not torus:
        return (delta,)
    forward = delta % size
    candidates = sorted({forward, forward - size}, key=abs)
    return tuple(value for value in candidates if abs(value) == abs(candidates[0]))


def _route(geometry: FieldGeometry, piece_kind: str, start: Square, step: Displacement) -> Route:
    if piece_kind == KNIGHT:
        return Route(step, (), jumps=True)
    length = max(abs(step[0]), abs(step[1]))
    unit = (_sign(step[0]), _sign(step[1]))
    passes = tuple(_offset(geometry, start, unit, distance) for distance in range(1, length))
    return Route(step, passes)


def _offset(geometry: FieldGeometry, start: Square, unit: Displacement, distance: int) -> Square:
    column = geometry.column_of(start) + unit[0] * distance
    row = geometry.row_of(start) + unit[1] * distance
    if geometry.torus:
        column, row = column % geometry.columns, row % geometry.rows
    return geometry.square_at(column, row)


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


def _not_shape_message(
    match: FieldMatch, piece_kind: str, action: str, start: Square, target: Square
) -> str:
    geometry = match.geometry
    return (
        f"{shape_description(match, piece_kind, action)}; "
        f"{geometry.format_square(start)} to {geometry.format_square(target)} is not such a move"
    )
