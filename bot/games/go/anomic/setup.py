"""Setting up a position without moves: handicap stones, diagrams, tests.

Rule 365 starts Political Go on an empty Board, so set-up stones come only
from an administrator (the Go Consul loading a handicap, say).  They are not
placements: they make nobody a Go player, nobody the last placer, and the
position they make is one more configuration for rule 368 a.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from bot.games.go.anomic.state import AnomicState, add_players
from bot.games.go.anomic.superko import board_key
from bot.games.go.points import Point
from bot.games.go.state import PlayerId


def with_stones(state: AnomicState, stones: Mapping[Point, PlayerId]) -> AnomicState:
    """``state`` with ``stones`` added (In Play, rule 376); the position restarts the log.

    ``ValueError`` for a point that is off the board or already occupied.
    """
    state = add_players(state, sorted(set(stones.values()), key=list(stones.values()).index))
    board = bytearray(state.board)
    for point, owner in stones.items():
        if not 0 <= point < len(board):
            raise ValueError(f"point {point} is off the board")
        if board[point]:
            raise ValueError(f"{state.parameters.format_point(point)} is already occupied")
        board[point] = state.player_codes[owner]
    final = bytes(board)
    key = board_key(final)
    return replace(
        state,
        board=final,
        key=key,
        positions=state.positions.with_board(final, key, state.move_number),
    )


def with_alliances(state: AnomicState, pairs: Iterable[tuple[PlayerId, PlayerId]]) -> AnomicState:
    """``state`` with these alliances in force (set-up, not moves)."""
    state = add_players(state, [name for pair in pairs for name in pair])
    return replace(state, alliances=state.alliances | {frozenset(pair) for pair in pairs})


def as_go_players(state: AnomicState, names: Iterable[PlayerId]) -> AnomicState:
    """``state`` with ``names`` counted as Go players (as if they had moved)."""
    names = list(names)
    state = add_players(state, names)
    players = tuple(
        replace(record, is_go_player=True) if record.name in names else record
        for record in state.players
    )
    return replace(state, players=players)
