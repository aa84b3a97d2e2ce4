"""The Political Go board as an SVG picture, for the web site (rule 1639 H's board, drawn).

The text board of rule 1639 H stays the record; this draws the same
position for people who would rather look: one colour per player (the
legend's order), each stone carrying its owner's mark letter too, so the
picture reads without colour; the last move ringed.  Standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

from bot.games.go.points import column_labels

# Distinct on white and for the common colour blindnesses (Okabe and Ito's palette).
PALETTE = ("#000000", "#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7")
CELL = 32
MARGIN = 36


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
        f'<rect width="{extent}" height="{extent}" fill="#dcb35c"/>',
        *_grid_lines(size),
        *_labels(size),
    ]
    for point, owner in sorted(stones.items()):
        if owner not in players:
            raise ValueError(f"the stone on {point} belongs to {owner!r}, who is not playing")
        parts.append(_stone(point, owner, size, players.index(owner), marks.get(owner, "")))
    if last_move is not None:
        x, y = _centre(last_move, size)
        parts.append(
            f'<circle class="last-move" data-point="{escape(last_move)}" cx="{x}" cy="{y}" '
            f'r="{CELL // 2 - 1}" fill="none" stroke="#d00000" stroke-width="3"/>'
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _summary(size: int, stones: Mapping[str, str], last_move: str | None) -> str:
    """The picture's name for a screen reader; the page lists every stone beside it."""
    last = f"; the last Move was {escape(last_move)}" if last_move else ""
    return f"A {size}x{size} Political Go board with {len(stones)} stones{last}"


def _centre(point: str, size: int) -> tuple[int, int]:
    column = column_labels(size).index(point[0].upper())
    row = int(point[1:]) - 1
    return MARGIN + column * CELL, MARGIN + (size - 1 - row) * CELL


def _grid_lines(size: int) -> list[str]:
    low, high = MARGIN, MARGIN + (size - 1) * CELL
    lines = []
    for index in range(size):
        offset = MARGIN + index * CELL
        lines.append(f'<line x1="{low}" y1="{offset}" x2="{high}" y2="{offset}" stroke="#333"/>')
        lines.append(f'<line x1="{offset}" y1="{low}" x2="{offset}" y2="{high}" stroke="#333"/>')
    return lines


def _labels(size: int) -> list[str]:
    labels = []
    style = 'font-family="sans-serif" font-size="12" text-anchor="middle" fill="#333"'
    for index, letter in enumerate(column_labels(size)):
        x = MARGIN + index * CELL
        labels.append(f'<text x="{x}" y="{MARGIN // 2}" {style}>{letter}</text>')
        labels.append(
            f'<text x="{x}" y="{2 * MARGIN + (size - 1) * CELL - 6}" {style}>{letter}</text>'
        )
    for row in range(size):
        y = MARGIN + (size - 1 - row) * CELL + 4
        labels.append(f'<text x="{MARGIN // 2}" y="{y}" {style}>{row + 1}</text>')
    return labels


def _stone(point: str, owner: str, size: int, position: int, mark: str) -> str:
    x, y = _centre(point, size)
    colour = player_colour(position)
    ink = "#ffffff" if colour in ("#000000", "#0072b2", "#d55e00", "#009e73") else "#000000"
    return (
        f'<g class="stone" data-point="{escape(point)}" data-owner="{escape(owner)}">'
        f"<title>{escape(point)}: {escape(owner)}</title>"
        f'<circle cx="{x}" cy="{y}" r="{CELL // 2 - 3}" fill="{colour}" stroke="#000"/>'
        f'<text x="{x}" y="{y + 5}" font-family="sans-serif" font-size="14" '
        f'text-anchor="middle" fill="{ink}">{escape(mark)}</text></g>'
    )
