"""The Go Board as text, and back (A Nomic, seed 002).

A Nomic's rules prescribe no display, so this one follows rule 366's
coordinates: files "a" to "s" left to right, ranks 1 to 19 bottom to top,
``.`` for an empty vertex and each player's one-character mark for eir
Stones.  Below the board, a legend per player with the Stone counts of rule
373 (In Play, Reserve, Captured), eir captures this game, and eir allies;
then the open alliance offers and who placed the last stone (368 c).
"""

from __future__ import annotations

import re

from bot.games.go.anomic.state import AnomicParameters, AnomicState
from bot.games.go.points import Point
from bot.games.lost_souls import is_lost_soul_label

_ROW = re.compile(r"^\s*(\d+)\s+(.*?)\s+\1\s*$")


def render_board(state: AnomicState, title: str = "Political Go (A Nomic rules 365-377)") -> str:
    """The board and legend, as mailed to the list."""
    size = state.parameters.size
    labels = " ".join(state.parameters.column_labels)
    width = len(str(size))
    lines = [f"{title}: game {state.game_number}, after move {state.move_number}", ""]
    header = f"{' ' * width}  {labels}"
    lines.append(header)
    marks = {code: record.mark for code, record in enumerate(state.players, 1)}
    for row in range(size - 1, -1, -1):
        cells = " ".join(marks.get(state.board[row * size + column], ".") for column in range(size))
        lines.append(f"{row + 1:>{width}}  {cells}  {row + 1}")
    lines.append(header)
    lines.append("")
    lines.extend(legend(state))
    return "\n".join(lines) + "\n"


def legend(state: AnomicState) -> list[str]:
    rows = [("Mark", "Player", "In Play", "Reserve", "Captured", "Captures", "Allies")]
    # A forfeit's record (rule 14) keeps its board code only for the superko log.
    for record in (item for item in state.players if not is_lost_soul_label(item.name)):
        allies = ", ".join(sorted(state.allies_of(record.name))) or "none"
        rows.append(
            (
                record.mark,
                record.name + ("" if record.is_go_player else " (not a Go player yet)"),
                str(state.in_play(record.name)),
                str(record.reserve),
                str(record.captured),
                str(record.captures),
                allies,
            )
        )
    widths = [max(len(row[index]) for row in rows) for index in range(len(rows[0]) - 1)]
    lines = [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=False))
        + "  "
        + row[-1]
        for row in rows
    ]
    offers = sorted(state.offers)
    lines.append("")
    lines.append(
        "Open alliance offers: "
        + ("; ".join(f"{offerer} to {offeree}" for offerer, offeree in offers) or "none")
    )
    lines.append(f"Last stone placed by: {state.last_placer or 'nobody yet'}")
    return [line.rstrip() for line in lines]


def parse_diagram(text: str, parameters: AnomicParameters) -> dict[Point, str]:
    """Vertex -> mark for every stone in a board drawn as ``render_board`` draws it.

    Rows are the lines that start and end with the same rank number; cells are
    separated by single spaces.  ``ValueError`` for a malformed board.
    """
    size = parameters.size
    stones: dict[Point, str] = {}
    ranks: set[int] = set()
    for line in text.splitlines():
        match = _ROW.match(line)
        if match is None:
            continue
        rank = int(match.group(1))
        cells = match.group(2).split(" ")
        if len(cells) != size or not 1 <= rank <= size:
            raise ValueError(f"rank {rank} of a {size}x{size} board has {len(cells)} cells")
        ranks.add(rank)
        for column, cell in enumerate(cells):
            if cell != ".":
                stones[(rank - 1) * size + column] = cell
    if len(ranks) != size:
        raise ValueError(f"found {len(ranks)} ranks, expected {size}")
    return stones
