"""The Political Go board as an SVG picture, for the web site (rule 1639 H's board, drawn).

The text board of rule 1639 H stays the record; this draws the same
position for people who would rather look: one colour per player (the
legend's order), each stone carrying its owner's mark letter too, so the
picture reads without colour; the last move ringed.  Each player's stone is
drawn once and placed with ``<use>``, so a board of a year's play stays
small.  Standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

from bot.games.go.points import column_labels

# Distinct on white and for the common colour blindnesses (Okabe and Ito's palette).
PALETTE = ("#000000", "#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7")
DARK = frozenset({"#000000", "#0072b2", "#d55e00", "#009e73"})
CELL = 32
MARGIN = 36
RADIUS = CELL // 2 - 3


def player_colour(position: int) -> str:
    """The colour of the player at ``position`` in the legend (zero-based); it repeats after 8."""
    return PALETTE[position % len(PALETTE)]


def board_svg(
    size: int,
    stones: Mapping[str, str],
    players: Sequence[str],
    marks: Mapping[str, str],
    last_move: str | None = None,
) -> str:
    """An SVG document of a ``size`` board whose ``stones`` map points ("E5") to owners.

    Raises ValueError for a stone whose owner is not among ``players``.
    """
    extent = 2 * MARGIN + (size - 1) * CELL
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {extent} {extent}" '
        f'width="{extent}" height="{extent}" role="img" class="go-board">',
        f"<title>{_summary(size, stones, last_move)}</title>",
        _player_stones(players, marks),
        f'<rect width="{extent}" height="{extent}" fill="#dcb35c"/>',
        _grid(size),
        _labels(size),
    ]
    parts.extend(_stones(size, stones, players))
    if last_move is not None:
        x, y = _centre(last_move, size)
        parts.append(
            f'<circle class="last-move" data-point="{escape(last_move)}" cx="{x}" cy="{y}" '
            f'r="{CELL // 2 - 1}" fill="none" stroke="#d00000" stroke-width="3"/>'
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _stones(size: int, stones: Mapping[str, str], players: Sequence[str]) -> list[str]:
    """One group per player holding eir stones, each placed by ``<use>``.

    The owner is said once, on the group, and each stone names only its
    point: a board of a long game is mostly these lines.
    """
    by_owner: dict[str, list[str]] = {name: [] for name in players}
    for point, owner in sorted(stones.items()):
        if owner not in by_owner:
            raise ValueError(f"the stone on {point} belongs to {owner!r}, who is not playing")
        by_owner[owner].append(point)
    groups = []
    for position, (owner, points) in enumerate(by_owner.items()):
        if not points:
            continue
        placed = "".join(
            f'<use href="#stone-{position}" x="{x}" y="{y}" data-point="{escape(point)}"/>'
            for point in points
            for x, y in (_centre(point, size),)
        )
        groups.append(f'<g class="stones" data-owner="{escape(owner)}">{placed}</g>')
    return groups


def _summary(size: int, stones: Mapping[str, str], last_move: str | None) -> str:
    """The picture's name for a screen reader; the page lists every stone beside it."""
    last = f"; the last Move was {escape(last_move)}" if last_move else ""
    return f"A {size}x{size} Political Go board with {len(stones)} stones{last}"


def _player_stones(players: Sequence[str], marks: Mapping[str, str]) -> str:
    """One stone per player, centred on the origin, for ``<use>`` to place."""
    shapes = []
    for position, name in enumerate(players):
        colour = player_colour(position)
        ink = "#ffffff" if colour in DARK else "#000000"
        shapes.append(
            f'<g id="stone-{position}"><circle r="{RADIUS}" fill="{colour}" stroke="#000"/>'
            f'<text y="5" fill="{ink}">{escape(marks.get(name, ""))}</text></g>'
        )
    return (
        '<defs font-family="sans-serif" font-size="14" text-anchor="middle">'
        + "".join(shapes)
        + "</defs>"
    )


def _centre(point: str, size: int) -> tuple[int, int]:
    column = column_labels(size).index(point[0].upper())
    row = int(point[1:]) - 1
    return MARGIN + column * CELL, MARGIN + (size - 1 - row) * CELL


def _grid(size: int) -> str:
    """Every line of the grid as one path."""
    low, length = MARGIN, (size - 1) * CELL
    steps = [
        f"M{low} {MARGIN + index * CELL}h{length}M{MARGIN + index * CELL} {low}v{length}"
        for index in range(size)
    ]
    return f'<path d="{"".join(steps)}" stroke="#333" fill="none"/>'


def _labels(size: int) -> str:
    far = 2 * MARGIN + (size - 1) * CELL - 6
    labels = []
    for index, letter in enumerate(column_labels(size)):
        x = MARGIN + index * CELL
        labels.append(f'<text x="{x}" y="{MARGIN // 2}">{letter}</text>')
        labels.append(f'<text x="{x}" y="{far}">{letter}</text>')
    for row in range(size):
        y = MARGIN + (size - 1 - row) * CELL + 4
        labels.append(f'<text x="{MARGIN // 2}" y="{y}">{row + 1}</text>')
    style = 'font-family="sans-serif" font-size="12" text-anchor="middle" fill="#333"'
    return f"<g {style}>" + "".join(labels) + "</g>"
