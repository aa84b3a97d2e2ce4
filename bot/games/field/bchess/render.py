"""The B-Chess board as mailed back, in rule 1900 C's convention, and read back.

Rule 1900 C (seed 004): "An owned piece is thus represented by two
characters, the first denoting the owner, the second denoting the type of
piece", each owner having "a unique character ... a single printable ASCII
character", and "-" for unowned pieces.  Seed 003 asks the Referee for a
Public Display of the Field, the Field Objects and the Priority List.  So::

    B-Chess: 20 x 20 torus
        A  B  C  D  ...  T
    20  .. .. .. ..  ... ..
    ...
     3  .. .. aK ..  ... ..
     2  .. .. aP ..  ... ..
     1  .. .. .. bN  ... ..
    Pieces: K King, Q Queen, R Rook, B Bishop, N Knight, P Pawn; .. unoccupied
    a = alice: 1 King, captured 0 times
    b = bob: 0 Kings, captured 1 time
    Priority List: aK C3, aP C2, bN D1, bR not placed

Rows are numbered from the bottom and columns lettered from the left, as
the Field's squares are (``bot.games.field.squares``).  Owner characters
come from the engine (each player's chosen character); a player it does
not name gets the first unused of a-z, A-Z, 0-9 in name order.  "." (the
empty square), "-" (unowned, rule 1900 C) and space are not owner
characters.  ``parse_bchess_board`` reads this text back into a position,
so tests are before/after diagrams; a diagram of another size is read as
an amended copy of the document of that size.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from dataclasses import replace

from bot.games.field.bchess.board import kings_of, players_seen, times_captured
from bot.games.field.bchess.document import BCHESS, PIECE_KINDS, PIECE_LETTERS, TIMES_CAPTURED
from bot.games.field.match import FieldMatch
from bot.games.field.objects import FieldObject, PlayerId
from bot.games.field.squares import column_label
from bot.games.field.state import FieldState, create_object, with_player_attribute

EMPTY_CELL = ".."
UNOWNED = "-"
NOT_PLACED = "not placed"
PRIORITY_LABEL = "Priority List:"
LINE_WIDTH = 78
CONTINUATION = "  "
_SPARE_CHARACTERS = string.ascii_lowercase + string.ascii_uppercase + string.digits
_FORBIDDEN_CHARACTERS = frozenset(". -")
_LEGEND = re.compile(r"^(\S) = (.+): (\d+) Kings?, captured (\d+) times?$")
_KIND_OF_LETTER = {letter: kind for kind, letter in PIECE_LETTERS.items()}


def render_bchess_board(state: FieldState, players: Mapping[PlayerId, str]) -> str:
    """The Field, a legend of owners (``players`` maps each to eir character), the Priority List.

    Raises ``ValueError`` if there is no Current Field Match or a character
    is not a single printable ASCII character, is reserved or is shared.
    """
    characters = owner_characters(state, players)
    lines = [f"{state.current_match.name}: {state.geometry.describe()}"]
    lines.extend(_grid_lines(state, characters))
    pieces = ", ".join(f"{PIECE_LETTERS[kind]} {kind}" for kind in PIECE_KINDS)
    lines.append(f"Pieces: {pieces}; {EMPTY_CELL} unoccupied")
    lines.extend(_legend_line(state, player, character) for player, character in characters.items())
    entries = [_priority_entry(state, item, characters) for item in state.objects]
    lines.extend(_wrapped(PRIORITY_LABEL, entries or ["empty"]))
    return "\n".join(lines)


def owner_characters(state: FieldState, players: Mapping[PlayerId, str]) -> dict[PlayerId, str]:
    """Each player's character: as given, else the first spare one (see the module)."""
    characters: dict[PlayerId, str] = {}
    for player, character in players.items():
        _check_character(character)
        if character in characters.values():
            raise ValueError(f"owner character {character!r} is given to two players")
        characters[player] = character
    for player in players_seen(state, players):
        if player not in characters:
            spare = next(c for c in _SPARE_CHARACTERS if c not in characters.values())
            characters[player] = spare
    return characters


def parse_bchess_board(text: str, match: FieldMatch = BCHESS) -> FieldState:
    """A position drawn as ``render_bchess_board`` draws it (no history, Turn 0).

    Pieces join the Priority List in the order its line gives, or from A1
    along each row when there is none.  Raises ``ValueError`` for a
    malformed diagram: unequal rows, an unknown owner or piece character, a
    King count or Priority List that disagrees with the grid.
    """
    owners = board_owners(text)
    by_character = {character: player for player, character in owners.items()}
    grid = _read_grid(text)
    rows, columns = len(grid), len(grid[0])
    if (rows, columns) != (match.rows, match.columns):
        match = replace(match, rows=rows, columns=columns)
    cells = {
        match.geometry.square_at(column, rows - 1 - index): cell
        for index, line in enumerate(grid)
        for column, cell in enumerate(line)
        if cell != EMPTY_CELL
    }
    state = FieldState(match=match)
    for square, kind, owner in _placement_order(text, match, cells, by_character):
        state, _ = create_object(state, kind, owner=owner, square=square)
    return _with_captures(state, text, owners)


def board_owners(text: str) -> dict[PlayerId, str]:
    """The legend of a drawn board: each player's owner character."""
    owners: dict[PlayerId, str] = {}
    for line in text.splitlines():
        found = _LEGEND.match(line.strip())
        if found:
            owners[found.group(2)] = found.group(1)
    return owners


def _check_character(character: str) -> None:
    if len(character) != 1 or not (character.isascii() and character.isprintable()):
        raise ValueError(f"owner character {character!r} is not one printable ASCII character")
    if character in _FORBIDDEN_CHARACTERS:
        raise ValueError(f"owner character {character!r} is reserved on the B-Chess board")


def _grid_lines(state: FieldState, characters: Mapping[PlayerId, str]) -> list[str]:
    geometry = state.geometry
    width = len(str(geometry.rows))
    cells: dict[int, str] = {
        item.square: _cell(item, characters) for item in state.objects if item.square is not None
    }
    header = " " * (width + 2) + " ".join(
        column_label(column).ljust(2) for column in range(geometry.columns)
    )
    lines = [header.rstrip()]
    for row in reversed(range(geometry.rows)):
        row_cells = " ".join(
            cells.get(geometry.square_at(column, row), EMPTY_CELL)
            for column in range(geometry.columns)
        )
        lines.append(f"{str(row + 1).rjust(width)}  {row_cells}")
    return lines


def _cell(item: FieldObject, characters: Mapping[PlayerId, str]) -> str:
    owner = UNOWNED if item.owner is None else characters[item.owner]
    return owner + PIECE_LETTERS.get(item.kind, "?")


def _legend_line(state: FieldState, player: PlayerId, character: str) -> str:
    kings = len(kings_of(state, player))
    captured = times_captured(state, player)
    return (
        f"{character} = {player}: {kings} King{'' if kings == 1 else 's'}, "
        f"captured {captured} time{'' if captured == 1 else 's'}"
    )


def _priority_entry(
    state: FieldState, item: FieldObject, characters: Mapping[PlayerId, str]
) -> str:
    where = NOT_PLACED if item.square is None else state.geometry.format_square(item.square)
    return f"{_cell(item, characters)} {where}"


def _wrapped(label: str, entries: list[str]) -> list[str]:
    # Mail lines stay short (a long game has hundreds of pieces); a
    # continuation line starts with spaces, so the list reads back whole.
    lines = [label]
    for index, entry in enumerate(entries):
        piece = entry + ("," if index < len(entries) - 1 else "")
        if len(lines[-1]) + 1 + len(piece) > LINE_WIDTH and lines[-1] != label:
            lines.append(CONTINUATION + piece)
        else:
            lines[-1] += " " + piece
    return lines


def _read_grid(text: str) -> list[list[str]]:
    rows: list[tuple[int, list[str]]] = []
    for line in text.splitlines():
        tokens = line.split()
        if len(tokens) > 1 and tokens[0].isdigit() and all(len(t) == 2 for t in tokens[1:]):
            rows.append((int(tokens[0]), tokens[1:]))
    if not rows or len({len(cells) for _, cells in rows}) != 1:
        raise ValueError("a B-Chess board needs rows of equal length")
    labels = [label for label, _ in rows]
    if labels != list(range(len(rows), 0, -1)):
        raise ValueError(f"board rows must be numbered {len(rows)} down to 1, not {labels}")
    return [cells for _, cells in rows]


def _placement_order(
    text: str, match: FieldMatch, cells: Mapping[int, str], by_character: Mapping[str, PlayerId]
) -> list[tuple[int | None, str, PlayerId | None]]:
    entries = _priority_entries(text, match)
    if entries is None:
        entries = [(cell, square) for square, cell in sorted(cells.items())]
    else:
        listed = sorted(square for _, square in entries if square is not None)
        if listed != sorted(cells):
            raise ValueError("the Priority List does not list exactly the pieces on the grid")
        for cell, square in entries:
            if square is not None and cells[square] != cell:
                raise ValueError(f"the Priority List says {cell} where the grid disagrees")
    return [(square, *_piece_of(cell, by_character)) for cell, square in entries]


def _priority_entries(text: str, match: FieldMatch) -> list[tuple[str, int | None]] | None:
    lines = text.splitlines()
    start = next((i for i, li in enumerate(lines) if li.startswith(PRIORITY_LABEL)), None)
    if start is None:
        return None
    body = lines[start].removeprefix(PRIORITY_LABEL).strip()
    for line in lines[start + 1 :]:
        if not line.startswith(CONTINUATION) or not line.strip():
            break
        body += " " + line.strip()
    if body == "empty":
        return []
    entries: list[tuple[str, int | None]] = []
    for entry in body.split(", "):
        cell, _, where = entry.partition(" ")
        square = None if where == NOT_PLACED else match.geometry.parse_square(where)
        entries.append((cell, square))
    return entries


def _piece_of(cell: str, by_character: Mapping[str, PlayerId]) -> tuple[str, PlayerId | None]:
    owner_character, letter = cell[0], cell[1]
    if letter not in _KIND_OF_LETTER:
        raise ValueError(f"unknown piece character {letter!r} in {cell!r}")
    if owner_character == UNOWNED:
        return _KIND_OF_LETTER[letter], None
    if owner_character not in by_character:
        raise ValueError(f"owner character {owner_character!r} is not in the legend")
    return _KIND_OF_LETTER[letter], by_character[owner_character]


def _with_captures(state: FieldState, text: str, owners: Mapping[PlayerId, str]) -> FieldState:
    for line in text.splitlines():
        found = _LEGEND.match(line.strip())
        if not found:
            continue
        player, kings, captured = found.group(2), int(found.group(3)), int(found.group(4))
        if len(kings_of(state, player)) != kings:
            raise ValueError(f"the legend gives {player} {kings} Kings; the grid disagrees")
        state = with_player_attribute(state, player, TIMES_CAPTURED, captured)
    return state
