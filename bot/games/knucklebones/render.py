"""The board mailed after each turn, and reading its matrices back.

Both 3x3 matrices side by side, in turn order, with each column's points and
each participant's score (rule Knucklebones/Winning), then the last turn and
the dice it destroyed, then whose turn it is, eir die and by when::

    Knucklebones game 1: Alice v Bob

    Alice                      Bob
    column   1   2   3         column   1   2   3
    row 1    4   6   .         row 1    2   .   5
    row 2    4   .   .         row 2    .   .   .
    row 3    1   .   .         row 3    .   .   .
    points  17   6   0         points   2   0   5
    score   23                 score    7

    Last turn: Alice put a 6 in column 2, destroying 2 of Bob's 6s.
    Bob's turn: Bob rolled a 5 (notified 2026-01-04 12:00 UTC).
    Bob chooses column 1, 2 or 3 by 2026-01-05 12:00 UTC, or forfeits.

A column's dice fill it from row 1 (see ``matrix``); "." is an empty cell.
"""

from __future__ import annotations

import re
from datetime import datetime

from bot.games.errors import ActionSyntaxError, utc_text
from bot.games.knucklebones.intents import PlayerId
from bot.games.knucklebones.matrix import (
    Matrix,
    column_scores,
    columns_with_room,
    matrix_from_rows,
    matrix_rows,
    matrix_score,
)
from bot.games.knucklebones.rules import PRIZE, RULE_FIELD
from bot.games.knucklebones.state import EndReason, Game, LastTurn

_GAP = 9
_ROW = re.compile(r"row ([1-3])((?:\s+[1-6.]){3})")


def render_game(game: Game, *, deadline: datetime | None = None) -> str:
    """The board of ``game`` as text; ``deadline`` overrides the notification plus
    24 hours (when the Clock stopped meanwhile, see ``timing``)."""
    blocks = [
        _matrix_block(name, matrix)
        for name, matrix in zip(game.players, game.matrices, strict=True)
    ]
    width = max(len(line) for line in blocks[0]) + _GAP
    lines = [f"{left:<{width}}{right}".rstrip() for left, right in zip(*blocks, strict=True)]
    heading = f"Knucklebones game {game.number}: {game.players[0]} v {game.players[1]}"
    footer = [_last_turn_line(game.last_turn, game)] if game.last_turn else []
    footer.append(_status_line(game, deadline))
    return "\n".join([heading, "", *lines, "", *footer]) + "\n"


def parse_matrices(text: str) -> tuple[Matrix, Matrix]:
    """The two matrices of a board ``render_game`` wrote (or any text with its
    "row N" lines); raises ``ActionSyntaxError`` if they are not all there."""
    rows: dict[int, list[list[int | None]]] = {1: [], 2: [], 3: []}
    for line in text.splitlines():
        for number, cells in _ROW.findall(line):
            rows[int(number)].append([None if cell == "." else int(cell) for cell in cells.split()])
    if any(len(found) != 2 for found in rows.values()):
        raise ActionSyntaxError("a board shows rows 1, 2 and 3 of two matrices", rule=RULE_FIELD)
    first = matrix_from_rows([rows[number][0] for number in (1, 2, 3)])
    second = matrix_from_rows([rows[number][1] for number in (1, 2, 3)])
    return first, second


def _matrix_block(name: PlayerId, matrix: Matrix) -> list[str]:
    lines = [name, "column" + _cells((1, 2, 3))]
    for number, row in enumerate(matrix_rows(matrix), 1):
        lines.append(f"row {number} " + _cells(row))
    lines.append("points" + _cells(column_scores(matrix)))
    lines.append(f"score{matrix_score(matrix):>5}")
    return lines


def _cells(values: tuple[int | None, ...]) -> str:
    return "".join(f"{'.' if value is None else value:>4}" for value in values)


def _last_turn_line(last: LastTurn, game: Game) -> str:
    text = f"Last turn: {last.player} put a {last.value} in column {last.column}"
    if last.destroyed:
        owner = game.opponent_of(last.player)
        dice = (
            f"{owner}'s {last.value}"
            if last.destroyed == 1
            else (f"{last.destroyed} of {owner}'s {last.value}s")
        )
        text += f", destroying {dice}"
    return text + "."


def _status_line(game: Game, deadline: datetime | None) -> str:
    if game.outcome is not None:
        return _result_line(game)
    player = game.player_to_move
    if game.roll is None or game.notified_at is None:
        return f"{player}'s turn: {player} is to be notified."
    room = [str(number) for number in columns_with_room(game.matrices[game.to_move])]
    columns = room[0] if len(room) == 1 else f"{', '.join(room[:-1])} or {room[-1]}"
    due = deadline or game.deadline
    by = f"by {utc_text(due)}" if due is not None else "once the Clock is On again"
    return (
        f"{player}'s turn: {player} rolled a {game.roll} (notified {utc_text(game.notified_at)}).\n"
        f"{player} chooses column {columns} {by}, or forfeits."
    )


def _result_line(game: Game) -> str:
    outcome = game.outcome
    assert outcome is not None
    scores = f"{outcome.scores[0]} to {outcome.scores[1]}"
    if outcome.reason is EndReason.FORFEIT:
        cause = f"{outcome.forfeited} did not take eir turn within 24 hours and forfeits"
    else:
        cause = f"a matrix is full, {scores}"
    if outcome.winner is None:
        return f"Game over: {cause}; equal scores, so the game ends without a winner."
    prize = " and one ".join(PRIZE)
    return f"Game over: {cause}; {outcome.winner} wins and gains one {prize}."
