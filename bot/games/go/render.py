"""The board as text (rule 1639 H, seed 004), and reading such text back.

Rule 1639 H's example lost its leading whitespace when the seed was
extracted; the layout here restores it so that the frame, the column letters
and the stones line up::

       A B C D E F G H I
     .-------------------.
    9| . . . . . . . . . |9
    ...
    1| . . . . . . R . . |1
     '-------------------'
       A B C D E F G H I
    [R] Rob 0 points Allies: S

On boards of ten or more rows the row numbers on the left are right-aligned to
two characters and everything else shifts right by one.  The legend says
"N points" literally, as the rule's example does, even for 1 or -1.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from bot.games.errors import ActionSyntaxError
from bot.games.go.parameters import GoParameters
from bot.games.go.points import Point, point_at
from bot.games.go.setup import with_alliances, with_stones
from bot.games.go.state import (
    GoState,
    PlayerId,
    PlayerRecord,
    PositionRecord,
    add_players,
    new_game,
    with_position_recorded,
)

EMPTY_MARK = "."
DISPLAY_RULE = "1639 H"
_ROW_PATTERN = re.compile(r"[ \t]*(\d{1,2})\|(.*)\|(\d{1,2})[ \t]*")
_LEGEND_PATTERN = re.compile(
    r"[ \t]*\[(\S)\][ \t]+(.+?)[ \t]+(-?\d+)[ \t]+points?[ \t]+Allies:[ \t]*(.*?)[ \t]*"
)


@dataclass(frozen=True)
class BoardDiagram:
    """A board read from text: its size and the mark on each occupied point."""

    size: int
    marks: Mapping[Point, str]


@dataclass(frozen=True)
class LegendEntry:
    """One legend line: ``[R] Rob 0 points Allies: S``."""

    mark: str
    name: PlayerId
    score: int
    ally_marks: tuple[str, ...]


def render_board(state: GoState, players: Sequence[PlayerId]) -> str:
    """The board and a legend of ``players`` in the given order, as rule 1639 H shows.

    Players the state has not seen get the marks they would receive on
    joining in this order; the state itself is not changed.
    """
    state = add_players(state, players)
    lines = [*_board_lines(state), *(_legend_line(state, name, players) for name in players)]
    return "\n".join(lines) + "\n"


def _board_lines(state: GoState) -> list[str]:
    size = state.parameters.size
    width = len(str(size))
    letters = " " * (width + 2) + " ".join(state.parameters.column_labels)
    border = "-" * (2 * size + 1)
    marks = (EMPTY_MARK, *(record.mark for record in state.players))
    rows = [
        f"{row + 1:>{width}}| {_row_cells(state.board, row, size, marks)} |{row + 1}"
        for row in reversed(range(size))
    ]
    top, bottom = " " * width + "." + border + ".", " " * width + "'" + border + "'"
    return [letters, top, *rows, bottom, letters]


def _row_cells(board: bytes, row: int, size: int, marks: Sequence[str]) -> str:
    return " ".join(marks[code] for code in board[row * size : (row + 1) * size])


def _legend_line(state: GoState, name: PlayerId, players: Sequence[PlayerId]) -> str:
    record = state.record_of(name)
    join_order = list(state.player_codes)
    allies = sorted(
        state.allies_of(name),
        key=lambda ally: (ally not in players, _position(players, ally), join_order.index(ally)),
    )
    ally_marks = ", ".join(state.record_of(ally).mark for ally in allies) or "none"
    return f"[{record.mark}] {name} {record.score} points Allies: {ally_marks}"


def _position(players: Sequence[PlayerId], name: PlayerId) -> int:
    return players.index(name) if name in players else len(players)


def parse_board(text: str, *, rule: str = DISPLAY_RULE) -> dict[Point, str]:
    """The marks on a board diagram in ``text`` (see ``parse_board_diagram``)."""
    return dict(parse_board_diagram(text, rule=rule).marks)


def parse_board_diagram(text: str, *, rule: str = DISPLAY_RULE) -> BoardDiagram:
    """Read the first complete board in ``text``, ignoring prose around it.

    Row lines (``9| . R . |9``) may be indented and spaced loosely; quoted
    lines (starting with ``>``) are not read.  The size is the number of
    rows.  Raises ``ActionSyntaxError`` if no complete board is found.
    """
    problems: list[str] = []
    for block in _row_blocks(text.splitlines()):
        try:
            return _diagram_from_rows(block)
        except ActionSyntaxError as error:
            problems.append(error.message)
    detail = f": {problems[0]}" if problems else ""
    raise ActionSyntaxError(f"No Political Go board could be read{detail}", rule=rule)


def _row_blocks(lines: Sequence[str]) -> list[list[re.Match[str]]]:
    """Runs of consecutive row lines."""
    blocks: list[list[re.Match[str]]] = [[]]
    for line in lines:
        match = _ROW_PATTERN.fullmatch(line)
        if match:
            blocks[-1].append(match)
        elif blocks[-1]:
            blocks.append([])
    return [block for block in blocks if block]


def _diagram_from_rows(rows: Sequence[re.Match[str]]) -> BoardDiagram:
    size = len(rows)
    marks: dict[Point, str] = {}
    for index, row in enumerate(rows):
        number = size - index
        cells = row.group(2).split()
        if int(row.group(1)) != number or int(row.group(3)) != number:
            raise ActionSyntaxError(f"row {row.group(1)} is where row {number} belongs")
        if len(cells) != size or any(len(cell) != 1 for cell in cells):
            raise ActionSyntaxError(f"row {number} does not have {size} one-character points")
        marks.update(
            (point_at(column, number - 1, size), cell)
            for column, cell in enumerate(cells)
            if cell != EMPTY_MARK
        )
    return BoardDiagram(size, marks)


def parse_legend(text: str) -> tuple[LegendEntry, ...]:
    """The legend lines (``[R] Rob 0 points Allies: S``) in ``text``, in order."""
    entries = []
    for line in text.splitlines():
        match = _LEGEND_PATTERN.fullmatch(line)
        if match:
            mark, name, score, allies = match.groups()
            ally_marks = () if allies.lower() == "none" else tuple(re.findall(r"[^,\s]", allies))
            entries.append(LegendEntry(mark, name, int(score), ally_marks))
    return tuple(entries)


def position_from_diagram(text: str, parameters: GoParameters | None = None) -> GoState:
    """A state set up from a board and its legend, as rule 1639 H displays them.

    Players, marks, Go Scores and alliances come from the legend, stones from
    the board; the history holds only this position.  Raises
    ``ActionSyntaxError`` if the diagram is unreadable or inconsistent, and
    ``ValueError`` if it shows a Dragon without Liberties.
    """
    rule = parameters.rule_display if parameters else DISPLAY_RULE
    diagram = parse_board_diagram(text, rule=rule)
    legend = parse_legend(text)
    parameters = parameters or GoParameters(size=diagram.size)
    if parameters.size != diagram.size:
        size = diagram.size
        raise ActionSyntaxError(f"the board is {size}x{size}, not {parameters.size}", rule=rule)
    names = _names_by_mark(legend, rule)
    players = tuple(PlayerRecord(entry.name, entry.mark, entry.score) for entry in legend)
    state = replace(new_game(parameters), players=players)
    state = with_alliances(state, _alliance_pairs(legend, names, rule))
    stones = {point: _owner(names, mark, rule) for point, mark in diagram.marks.items()}
    state = with_stones(state, stones)
    record = PositionRecord(state.board, state.alliances)
    return replace(state, history=with_position_recorded({}, record))


def _names_by_mark(legend: Sequence[LegendEntry], rule: str) -> dict[str, PlayerId]:
    names = {entry.mark: entry.name for entry in legend}
    if len(names) != len(legend) or len({entry.name for entry in legend}) != len(legend):
        raise ActionSyntaxError("the legend repeats a mark or a player", rule=rule)
    return names


def _owner(names: Mapping[str, PlayerId], mark: str, rule: str) -> PlayerId:
    if mark not in names:
        raise ActionSyntaxError(f"no player in the legend has the mark {mark}", rule=rule)
    return names[mark]


def _alliance_pairs(
    legend: Sequence[LegendEntry], names: Mapping[str, PlayerId], rule: str
) -> set[tuple[PlayerId, PlayerId]]:
    claimed = {
        (entry.name, _owner(names, mark, rule)) for entry in legend for mark in entry.ally_marks
    }
    one_sided = [pair for pair in claimed if (pair[1], pair[0]) not in claimed]
    if one_sided:
        first, second = sorted(one_sided)[0]
        raise ActionSyntaxError(
            f"the legend lists {second} among {first}'s Allies but not the reverse",
            rule=rule,
        )
    return {(first, second) for first, second in claimed if first < second}
