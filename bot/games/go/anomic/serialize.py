"""An ``AnomicState`` as JSON-able data and back.

The board is a string of marks, one per vertex from a1 along each rank up to
s19, "." for empty (marks are unique and stored with the players).  The
position log of rule 368 a is left out: the engine keeps it in its own table
(``board_to_marks`` gives the row's text), and a loaded state starts a fresh
log holding only its current position.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

from bot.games.go.anomic.state import AnomicParameters, AnomicState, GoPlayer
from bot.games.go.anomic.superko import PositionLog, board_key

FORMAT = "political-go-a-nomic/1"
EMPTY_MARK = "."


def board_to_marks(state: AnomicState, board: bytes) -> str:
    marks = [EMPTY_MARK] + [record.mark for record in state.players]
    return "".join(marks[code] for code in board)


def marks_to_board(state: AnomicState, text: str) -> bytes:
    codes = {EMPTY_MARK: 0} | {record.mark: code for code, record in enumerate(state.players, 1)}
    return bytes(codes[mark] for mark in text)


def state_to_json(state: AnomicState) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "parameters": asdict(state.parameters),
        "players": [record._asdict() for record in state.players],
        "board": board_to_marks(state, state.board),
        "alliances": sorted(sorted(pair) for pair in state.alliances),
        "offers": sorted([list(offer) for offer in state.offers]),
        "last_placer": state.last_placer,
        "move_number": state.move_number,
        "game_number": state.game_number,
        "started_nweek": state.started_nweek,
        "last_placement_nweek": state.last_placement_nweek,
        "breathless": sorted(state.breathless),
    }


def state_from_json(
    data: Mapping[str, Any], parameters: AnomicParameters | None = None
) -> AnomicState:
    """The state ``state_to_json`` described (with ``parameters`` if given:
    a proposal may have changed them since).  ``ValueError`` for other data."""
    if data.get("format") != FORMAT:
        raise ValueError(f"not an A Nomic Political Go state: {data.get('format')!r}")
    params = parameters or AnomicParameters(**data["parameters"])
    players = tuple(GoPlayer(**record) for record in data["players"])
    shell = AnomicState(parameters=params, board=b"", players=players)
    board = marks_to_board(shell, data["board"])
    if len(board) != params.point_count:
        raise ValueError(
            f"the stored board has {len(board)} vertices, the game {params.point_count}"
        )
    key = board_key(board)
    return AnomicState(
        parameters=params,
        board=board,
        players=players,
        alliances=frozenset(frozenset(pair) for pair in data["alliances"]),
        offers=frozenset((offer[0], offer[1]) for offer in data["offers"]),
        last_placer=data["last_placer"],
        move_number=data["move_number"],
        game_number=data["game_number"],
        started_nweek=data["started_nweek"],
        last_placement_nweek=data["last_placement_nweek"],
        breathless=frozenset(data["breathless"]),
        key=key,
        positions=PositionLog().with_board(board, key, data["move_number"]),
    )
