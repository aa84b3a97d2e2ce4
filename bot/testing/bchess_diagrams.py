"""Board diagrams and Turn helpers for the tests of B-Chess (``bot.games.field.bchess``, seed 000).

STYLE.md rule of thumb 5: boards are text first, so the rules tests are
before/after diagrams drawn as ``render_bchess_board`` draws them (rule 1900 C
of seed 004).  A 20 x 20 diagram is four hundred cells around a handful of
pieces, and the tests' diagrams differ in a few of them, so a test names its
pieces in the board's own Priority List notation (``"aR C3"``: alice's Rook on
C3) and :func:`bchess_board` draws the whole text from them.  The helpers live
here because pytest's importlib mode lets no test file import another.

``tests/games/field/bchess/test_bchess_board.py`` writes one board out in
full: it pins the drawing convention itself, independently of this module.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping, Sequence
from typing import TypeVar

from bot.games.dice import DrawSource
from bot.games.field import FieldState, Request, TurnContext
from bot.games.field.bchess import BChessTurn, play_turn

Item = TypeVar("Item")

SEED = bytes(range(32))
"""The seed of every ``DrawSource`` the B-Chess tests draw from."""

PIECES_LINE = "Pieces: K King, Q Queen, R Rook, B Bishop, N Knight, P Pawn; .. unoccupied"
ALICE_AND_BOB = (
    "a = alice: 1 King, captured 0 times",
    "b = bob: 1 King, captured 0 times",
)
"""The legend of a two-player board where neither King has been captured."""

_EMPTY_CELL = ".."
_PRIORITY_LABEL = "Priority List:"
_LINE_WIDTH = 78
_ENTRY = re.compile(r"^(\S\S) (?:([A-Z])(\d+)|not placed)$")


def bchess_board(
    pieces: str, legend: Sequence[str], *, priority_list: bool = True, size: int = 20
) -> str:
    """The board text with ``pieces`` on a ``size`` x ``size`` torus, then the ``legend`` lines.

    ``pieces`` is written as the Priority List line is: ``"aR C3, bK C9, bR not
    placed"``, owner character and piece letter, then a square.  With
    ``priority_list`` the text ends in that list, in that order (wrapped at 78
    columns as mail is); without it, the parser lists the pieces from A1 along
    each row, so their order here does not matter and none may be unplaced.
    Raises ``ValueError`` for an entry that is not such a piece, a square off
    the board or given twice, or an unplaced piece without a Priority List.
    """
    entries = [entry.strip() for entry in pieces.split(",")]
    cells = _cells(entries, size)
    lines = [f"B-Chess: {size} x {size} torus", *_grid_lines(cells, size), PIECES_LINE]
    lines.extend(legend)
    if priority_list:
        lines.extend(_wrapped_priority_list(entries))
    elif len(cells) < len(entries):
        raise ValueError(f"{pieces!r}: an unplaced piece needs a Priority List")
    return "\n".join(lines)


def _cells(entries: Sequence[str], size: int) -> dict[tuple[int, int], str]:
    """Each placed entry's cell by (zero-based column, one-based row)."""
    cells: dict[tuple[int, int], str] = {}
    for entry in entries:
        found = _ENTRY.match(entry)
        if not found:
            raise ValueError(f"{entry!r} is not a piece such as 'aR C3' or 'bR not placed'")
        cell, letter, row = found.groups()
        if letter is None:
            continue
        where = (string.ascii_uppercase.index(letter), int(row))
        if where[0] >= size or not 1 <= where[1] <= size:
            raise ValueError(f"{entry!r} is off the {size} x {size} board")
        if where in cells:
            raise ValueError(f"{entry!r}: {letter}{row} holds two pieces")
        cells[where] = cell
    return cells


def _grid_lines(cells: Mapping[tuple[int, int], str], size: int) -> list[str]:
    """The column letters, then the rows from ``size`` down to 1, numbers right-aligned."""
    width = len(str(size))
    letters = "  ".join(string.ascii_uppercase[:size])
    lines = [" " * (width + 2) + letters]
    for row in range(size, 0, -1):
        row_cells = " ".join(cells.get((column, row), _EMPTY_CELL) for column in range(size))
        lines.append(f"{str(row).rjust(width)}  {row_cells}")
    return lines


def _wrapped_priority_list(entries: Sequence[str]) -> list[str]:
    # As the board is mailed: an entry that would pass column 78 starts a
    # line of its own, indented two spaces so the list still reads as one.
    lines = [_PRIORITY_LABEL]
    for index, entry in enumerate(entries):
        piece = entry + ("," if index < len(entries) - 1 else "")
        if len(lines[-1]) + 1 + len(piece) > _LINE_WIDTH and lines[-1] != _PRIORITY_LABEL:
            lines.append("  " + piece)
        else:
            lines[-1] += " " + piece
    return lines


def bchess_turn(
    state: FieldState,
    requests: Sequence[Request],
    macks: Mapping[str, int] | None = None,
    *,
    context: TurnContext,
    draws: str = "t",
) -> BChessTurn:
    """One Turn of the Field in ``context``, drawing from ``SEED`` under the name ``draws``.

    ``macks`` are the players' balances (none by default).  A test file binds
    its own ``context`` once, e.g. ``turn = partial(bchess_turn, context=CONTEXT)``.
    """
    return play_turn(state, context, requests, DrawSource(SEED, draws), macks or {})


class ScriptedSource:
    """A RandomSource answering from a script, remembering what each draw offered.

    ``choice`` answers with the option equal to the next scripted answer and
    ``randint`` with the next answer itself; ``shuffle`` keeps the order.
    Raises ``AssertionError`` when a draw's answer is not one it could give.
    """

    def __init__(self, answers: Sequence[object]) -> None:
        self.answers = list(answers)
        self.offered: list[tuple[str, tuple[object, ...]]] = []

    @property
    def purposes(self) -> list[str]:
        """The purpose of each draw made so far, in order."""
        return [purpose for purpose, _ in self.offered]

    def choice(self, options: Sequence[Item], purpose: str) -> Item:
        self.offered.append((purpose, tuple(options)))
        answer = self.answers.pop(0)
        for option in options:
            if option == answer:
                return option
        raise AssertionError(f"the script answers {answer!r} to {purpose}, not an option")

    def randint(self, low: int, high: int, purpose: str) -> int:
        answer = self.answers.pop(0)
        if not (isinstance(answer, int) and low <= answer <= high):
            raise AssertionError(f"the script answers {answer!r} to {purpose}, not {low}-{high}")
        self.offered.append((purpose, (low, high)))
        return answer

    def shuffle(self, items: Sequence[Item], purpose: str) -> list[Item]:
        return list(items)
