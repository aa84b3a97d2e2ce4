"""A Field board as an SVG grid, for the web site (Life's and B-Chess's boards, drawn).

It draws the text board the Field's rules render (``play.board``): the
column letters on top, then one labelled line per row, top row first, one
cell per column.  Each cell keeps its letter, so the picture reads without
colour.  Standard library only.
"""

from __future__ import annotations

import re
from html import escape

CELL = 28
MARGIN = 24
_ROW = re.compile(r"^\s*(\d+)\s\s(.*)$")
# Life's colours (seed 000) drawn as themselves; any other piece letter grey.
FILLS = {"R": "#d55e00", "G": "#009e73", "B": "#0072b2", ".": "#ffffff"}


def board_rows(board: str) -> list[tuple[str, list[str]]]:
    """(row label, cells) of every row line of ``board``, top row first."""
    rows = []
    for line in board.splitlines():
        match = _ROW.match(line)
        if match is not None:
            rows.append((match.group(1), match.group(2).split()))
    return rows


def column_header(board: str) -> list[str]:
    """The column letters of ``board``: the line just above its first row."""
    previous = ""
    for line in board.splitlines():
        if _ROW.match(line) is not None:
            return previous.split()
        previous = line if line.strip() else previous
    return []


def grid_svg(board: str) -> str:
    """An SVG document of the rows of the text ``board``; empty boards draw an empty grid."""
    rows = board_rows(board)
    columns = column_header(board)
    width = max([len(columns), *(len(cells) for _, cells in rows)], default=0)
    extent_x, extent_y = MARGIN + width * CELL + 4, MARGIN + len(rows) * CELL + 4
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {extent_x} {extent_y}" '
        f'width="{extent_x}" height="{extent_y}" role="img" class="field-board">'
    ]
    style = 'font-family="monospace" font-size="13" text-anchor="middle"'
    for index, letter in enumerate(columns):
        x = MARGIN + index * CELL + CELL // 2
        parts.append(f'<text x="{x}" y="{MARGIN - 8}" {style}>{escape(letter)}</text>')
    for row_index, (label, cells) in enumerate(rows):
        y = MARGIN + row_index * CELL
        parts.append(f'<text x="{MARGIN // 2}" y="{y + 18}" {style}>{escape(label)}</text>')
        parts.extend(_cell(index, y, cell) for index, cell in enumerate(cells))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _cell(column: int, y: int, letter: str) -> str:
    x = MARGIN + column * CELL
    fill = FILLS.get(letter, "#dddddd")
    ink = "#ffffff" if letter in ("R", "G", "B") else "#000000"
    shown = "" if letter == "." else escape(letter)
    return (
        f'<g class="cell" data-letter="{escape(letter)}"><rect x="{x}" y="{y}" width="{CELL}" '
        f'height="{CELL}" fill="{fill}" stroke="#555"/><text x="{x + CELL // 2}" y="{y + 18}" '
        f'font-family="monospace" font-size="13" text-anchor="middle" fill="{ink}">'
        f"{shown}</text></g>"
    )
