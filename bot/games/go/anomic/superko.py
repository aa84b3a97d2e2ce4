"""Positional superko for A Nomic's rule 368 a (seed 002), without a scan.

"Stones may not be placed so as to repeat a previous Board configuration."
A Board configuration is which Stone (whose) stands on which vertex, so this
is *positional* superko: alliances play no part, unlike B Nomic's 1639 E.

Each board has a 64-bit Zobrist key, the XOR of one fixed number per
(vertex, owner code).  A placement changes the key by a few XORs, so the
check is one dictionary lookup; on a hit the boards themselves are compared,
so a key collision can never refuse a legal move.  The numbers come from
BLAKE2b of the vertex and code: fixed forever, so keys stored by the engine
stay valid across versions and machines.

``PositionLog`` is the in-state history: an append-only log shared between a
state and its successors (each state knows how much of it is its own), so
recording a position costs O(1) instead of copying the history per move.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Protocol

from bot.games.go.points import BuiltOnFirstUse

MAXIMUM_POINTS = 26 * 26


def _zobrist_table(code: int) -> tuple[int, ...]:
    """The Zobrist numbers of a stone of board code ``code``, by point."""
    return tuple(_number(f"{point}.{code}") for point in range(MAXIMUM_POINTS))


def _number(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


# Board code -> its Zobrist numbers by point; every placement reads one.
ZOBRIST: BuiltOnFirstUse[int, tuple[int, ...]] = BuiltOnFirstUse(_zobrist_table)


def board_key(board: bytes | bytearray) -> int:
    """The Zobrist key of a whole board (0 for the empty board)."""
    key = 0
    for point, code in enumerate(board):
        if code:
            key ^= ZOBRIST[code][point]
    return key


@dataclass(frozen=True)
class Earlier:
    """Where a repeated configuration was seen: after ``move_number`` (0: the start)."""

    move_number: int


class BoardHistory(Protocol):
    """Earlier configurations of this game, looked up by Zobrist key."""

    def earlier(self, key: int, board: bytes) -> Earlier | None:
        """The first time ``board`` (whose key is ``key``) was on the Go Board, if ever."""
        ...


class PositionLog:
    """Every configuration of the current game, in order; persistent.

    ``with_board`` returns a new log and leaves this one unchanged as far as
    anyone can observe: the underlying list and index are shared and only
    appended to, and each log reads only its first ``len(self)`` entries.
    The index maps a key to the position of its board, or to a list of
    positions in the rare case of a Zobrist collision.
    """

    __slots__ = ("_entries", "_index", "_length")

    def __init__(self) -> None:
        self._entries: list[tuple[int, bytes, int]] = []
        self._index: dict[int, int | list[int]] = {}
        self._length = 0

    def __len__(self) -> int:
        return self._length

    def __iter__(self) -> Iterator[tuple[int, bytes, int]]:
        """(key, board, move_number) of every configuration, oldest first."""
        return iter(self._entries[: self._length])

    def earlier(self, key: int, board: bytes) -> Earlier | None:
        found = self._index.get(key)
        if found is None:  # nearly always: one lookup and done
            return None
        return self._earlier_among(found, board)

    def _earlier_among(self, found: int | list[int], board: bytes) -> Earlier | None:
        for position in (found,) if isinstance(found, int) else found:
            if position < self._length and self._entries[position][1] == board:
                return Earlier(self._entries[position][2])
        return None

    def with_board(self, board: bytes, key: int | None = None, move_number: int = 0) -> PositionLog:
        """This log plus ``board`` (its key computed when not given); itself if already seen."""
        board = bytes(board)
        key = board_key(board) if key is None else key
        extended = self.with_unseen_board(board, key, move_number)
        return self if extended is None else extended

    def with_unseen_board(self, board: bytes, key: int, move_number: int) -> PositionLog | None:
        """This log plus ``board``, or None when ``board`` is in it already.

        Looks the board up and records it in one call: rule 368 a asks this
        of every placement.
        """
        entries, index, length = self._entries, self._index, self._length
        found = index.get(key)
        if found is not None and self._earlier_among(found, board) is not None:
            return None
        if len(entries) != length:
            # Another successor already appended here: branch off a copy.
            entries, index = entries[:length], _index_of(entries[:length])
            found = index.get(key)
        if found is None:
            index[key] = length
        else:  # a Zobrist collision: another board with the same key
            _add_collision(index, key, found, length)
        entries.append((key, board, move_number))
        # Built without __init__, whose fresh list and dict would be thrown away.
        successor = PositionLog.__new__(PositionLog)
        successor._entries, successor._index, successor._length = entries, index, length + 1
        return successor


def _index_of(entries: list[tuple[int, bytes, int]]) -> dict[int, int | list[int]]:
    """``PositionLog``'s index of ``entries``: key -> position, or positions on a collision."""
    index: dict[int, int | list[int]] = {}
    for position, (key, _board, _number) in enumerate(entries):
        found = index.get(key)
        if found is None:
            index[key] = position
        else:
            _add_collision(index, key, found, position)
    return index


def _add_collision(
    index: dict[int, int | list[int]], key: int, found: int | list[int], position: int
) -> None:
    """Index ``position`` under ``key``, which already has ``found``."""
    if isinstance(found, int):
        index[key] = [found, position]
    else:
        found.append(position)


@dataclass(frozen=True)
class CombinedHistory:
    """Several histories asked in turn (the engine's stored one, then the state's)."""

    parts: tuple[BoardHistory, ...]

    def earlier(self, key: int, board: bytes) -> Earlier | None:
        for part in self.parts:
            found = part.earlier(key, board)
            if found is not None:
                return found
        return None


def histories(*parts: BoardHistory | None) -> BoardHistory:
    present: Iterable[BoardHistory] = (part for part in parts if part is not None)
    return CombinedHistory(tuple(present))
