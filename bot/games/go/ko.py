"""Ko under alliances (rule 1639 E, seed 004).

Two boards are *equivalent* when they differ only at points where a stone of
one player stands in place of a stone of another and those two players are
Allies "in either state" (the earlier position's alliances or the current
ones).  A Move that places a stone may not leave the board equivalent to any
previous board position.

Equivalence never empties or fills a point, so only positions with the same
occupied points (``occupancy_key``) can be equivalent: a ``PositionHistory``
is asked for exactly that key, one lookup per placement, never a scan.  The
engine keeps the history in its database; ``InMemoryHistory`` serves the
positions kept in ``GoState.history`` so pure code and tests need none.

Readings of the rule:

* "a previous board position" includes the position just before the Move
  and every position after any earlier Move, alliance Moves included, and
  the position the game was set up with.  (A placement can never recreate
  the position just before it: that would mean the new stone was captured,
  which rule 1639 D already forbids.)
* Passing and forming or breaking alliances place no stone, so ko never
  refuses them, even when they bring back an earlier position.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol

from bot.games.go.state import GoState, PositionRecord, friendship_of, occupancy_key


class PositionHistory(Protocol):
    """Earlier board positions, looked up by their occupied points."""

    def positions_with(self, occupancy: bytes) -> Iterable[PositionRecord]:
        """Every earlier position whose ``occupancy_key(board)`` is ``occupancy``."""
        ...


@dataclass(frozen=True)
class InMemoryHistory:
    """A ``PositionHistory`` over a ``GoState.history`` mapping."""

    positions: Mapping[bytes, tuple[PositionRecord, ...]]

    def positions_with(self, occupancy: bytes) -> Iterable[PositionRecord]:
        """The positions recorded under ``occupancy`` (none if it is unknown)."""
        return self.positions.get(occupancy, ())


def history_of(state: GoState) -> InMemoryHistory:
    """The history kept in ``state`` itself, as a ``PositionHistory``."""
    return InMemoryHistory(state.history)


def is_equivalent(state: GoState, board: bytes, earlier: PositionRecord) -> bool:
    """Whether ``board`` (under ``state``'s alliances) is equivalent to ``earlier``.

    Rule 1639 E: at every point where the two differ, both must hold stones
    of players allied in either state.  Board codes are stable (players are
    only ever appended), so codes of ``earlier`` name the same players.
    """
    if board == earlier.board:
        return True
    if len(board) != len(earlier.board):
        return False
    friends_now = state.friendship
    friends_then = friendship_of(state.players, earlier.alliances)
    for code_now, code_then in zip(board, earlier.board, strict=True):
        if code_now == code_then:
            continue
        # friendship[0] is empty, so a stone against an empty point fails here.
        if code_then not in friends_now[code_now] and code_then not in friends_then[code_now]:
            return False
    return True


def equivalent_position(
    state: GoState, board: bytes, history: PositionHistory
) -> PositionRecord | None:
    """The first earlier position in ``history`` equivalent to ``board``, if any."""
    for earlier in history.positions_with(occupancy_key(board)):
        if is_equivalent(state, board, earlier):
            return earlier
    return None


def ko_message(player: str, where: str, earlier: PositionRecord) -> str:
    """Why a placement that repeats ``earlier`` is refused, in a player's words."""
    when = (
        "an earlier position"
        if earlier.move_number is None
        else f"the position after Move {earlier.move_number}"
    )
    return (
        f"{player} cannot place a stone at {where}: the board would then be equivalent "
        f"to {when} (the same stones, up to swaps between Allies), and no Move that "
        "places a stone may repeat a previous board position."
    )
