"""Questions about a position, and setting one up without playing moves.

Setting up is for tests, diagrams and administration (like sgfmill's
``apply_setup``); play goes through ``bot.games.go.moves``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from bot.games.go.dragons import Dragon, all_dragons, dragons_through, liberties_of
from bot.games.go.points import Point, neighbour_table
from bot.games.go.state import (
    Alliance,
    GoState,
    PlayerId,
    PositionRecord,
    add_players,
    with_position_recorded,
)


def dragons_at(state: GoState, point: Point) -> tuple[Dragon, ...]:
    """The Dragons containing the stone on ``point`` (none if it is empty)."""
    if not state.board[point]:
        return ()
    neighbours = neighbour_table(state.parameters.size)
    return dragons_through(state.board, point, state.friendship, neighbours)


def dragons_on_board(state: GoState) -> tuple[Dragon, ...]:
    """Every Dragon on the board, ordered by lowest point."""
    return all_dragons(state.board, state.friendship, neighbour_table(state.parameters.size))


def liberties(state: GoState, dragon: Dragon) -> frozenset[Point]:
    """The Liberties of ``dragon`` (rule 1639 D), interior ones included."""
    return liberties_of(state.board, dragon, neighbour_table(state.parameters.size))


def with_stones(state: GoState, stones: Mapping[Point, PlayerId]) -> GoState:
    """``state`` with exactly ``stones`` on the board, recorded in the history.

    Unknown owners join (in ascending point order).  Raises ``ValueError`` for
    an off-board point or if some Dragon would have no Liberties.
    """
    state = add_players(state, (stones[point] for point in sorted(stones)))
    board = bytearray(state.parameters.point_count)
    for point, owner in stones.items():
        if not 0 <= point < len(board):
            raise ValueError(f"point {point} is off the board")
        board[point] = state.player_codes[owner]
    return _checked(state, bytes(board), state.alliances)


def with_alliances(state: GoState, pairs: Iterable[tuple[PlayerId, PlayerId]]) -> GoState:
    """``state`` with exactly the alliances ``pairs``; raises ``ValueError`` for
    a player allied with emself or if some Dragon would have no Liberties."""
    alliances: set[Alliance] = set()
    for first, second in pairs:
        if first == second:
            raise ValueError(f"{first} cannot be allied with emself")
        alliances.add(frozenset((first, second)))
    state = add_players(state, (name for pair in sorted(map(sorted, alliances)) for name in pair))
    return _checked(state, state.board, frozenset(alliances))


def _checked(state: GoState, board: bytes, alliances: frozenset[Alliance]) -> GoState:
    updated = replace(state, board=board, alliances=alliances)
    dead = [dragon for dragon in dragons_on_board(updated) if not liberties(updated, dragon)]
    if dead:
        names = ", ".join(updated.parameters.format_point(min(dragon)) for dragon in dead)
        raise ValueError(f"Dragons without Liberties at {names}: not a legal position")
    history = with_position_recorded(state.history, PositionRecord(board, alliances))
    return replace(updated, history=history)
