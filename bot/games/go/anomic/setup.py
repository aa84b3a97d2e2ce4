"""Setting up a position without moves: handicap stones, diagrams, tests.

Rule 365 starts Political Go on an empty Board, so set-up stones come only
from an administrator (the Go Consul loading a handicap, say).  They are not
placements: they make nobody a Go player, nobody the last placer, and the
position they make is one more configuration for rule 368 a.

A set-up (stones or alliances) may leave a Dragon without Liberties.  It is
recorded in ``breathless`` like one a move left, so that rule 369 captures it
after the next move of a player it is unfriendly to.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bot.games.go.anomic.state import AnomicState, add_players
from bot.games.go.anomic.superko import board_key
from bot.games.go.dragons import all_dragons, has_liberty
from bot.games.go.points import Point, neighbour_table
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
    return with_breathless(
        state._replace(
            board=final,
            key=key,
            positions=state.positions.with_board(final, key, state.move_number),
        )
    )


def with_alliances(state: AnomicState, pairs: Iterable[tuple[PlayerId, PlayerId]]) -> AnomicState:
    """``state`` with these alliances in force (set-up, not moves)."""
    state = add_players(state, [name for pair in pairs for name in pair])
    allied = state._replace(alliances=state.alliances | {frozenset(pair) for pair in pairs})
    return with_breathless(allied)


def as_go_players(state: AnomicState, names: Iterable[PlayerId]) -> AnomicState:
    """``state`` with ``names`` counted as Go players (as if they had moved)."""
    names = list(names)
    state = add_players(state, names)
    players = tuple(
        record._replace(is_go_player=True) if record.name in names else record
        for record in state.players
    )
    return state._replace(players=players)


def with_breathless(state: AnomicState) -> AnomicState:
    """``state`` with ``breathless`` naming every Dragon now without Liberties."""
    neighbours = neighbour_table(state.parameters.size)
    dead = (
        dragon
        for dragon in all_dragons(state.board, state.friendship, neighbours)
        if not has_liberty(state.board, dragon, neighbours)
    )
    return state._replace(breathless=frozenset(min(dragon) for dragon in dead))
