"""Dragons and Liberties (rule 1639 D, seed 004), computed on raw boards.

"A Dragon is a set of adjacent Stones that belong to players who are all
Allied with each other, and that are not adjacent to any other stones
belonging to a mutual ally of those players."  So a Dragon is a connected set
of stones whose owners are pairwise friendly (the same player, or Allies) and
that no further adjacent stone could join.  With non-transitive alliances a
stone can lie in several Dragons: in AAABBCCC with A-B and B-C allied, both
AAABB and BBCCC are Dragons.

Every Dragon through a stone ``s`` is the connected piece around ``s`` of the
stones owned by some maximal clique of friendly players containing ``s``'s
owner; keeping the pieces that no other piece strictly contains gives exactly
the Dragons through ``s``.  When the owner has no Allies this is an ordinary
Go group, found by a plain flood fill (the fast path for two-player games).

Boards here are ``bytes``/``bytearray`` as in ``GoState.board``; ``friendship``
is ``GoState.friendship`` (board code -> codes of that player and eir Allies).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.go.points import Point

Dragon = frozenset[Point]
Board = bytes | bytearray
Friendship = Sequence[frozenset[int]]
Neighbours = Sequence[tuple[Point, ...]]


def group_of(board: Board, start: Point, neighbours: Neighbours) -> Dragon:
    """The stones connected to ``start`` that share its owner."""
    owner = board[start]
    found = {start}
    frontier = [start]
    while frontier:
        for other in neighbours[frontier.pop()]:
            if board[other] == owner and other not in found:
                found.add(other)
                frontier.append(other)
    return frozenset(found)


def dead_group_of(board: Board, start: Point, neighbours: Neighbours) -> Dragon | None:
    """Like ``group_of``, but None as soon as the group shows a Liberty."""
    owner = board[start]
    found = {start}
    frontier = [start]
    while frontier:
        for other in neighbours[frontier.pop()]:
            stone = board[other]
            if stone == 0:
                return None
            if stone == owner and other not in found:
                found.add(other)
                frontier.append(other)
    return frozenset(found)


def dragons_through(
    board: Board, start: Point, friendship: Friendship, neighbours: Neighbours
) -> tuple[Dragon, ...]:
    """Every Dragon containing the stone on ``start`` (one unless alliances overlap)."""
    owner = board[start]
    if len(friendship[owner]) == 1:
        return (group_of(board, start, neighbours),)
    region = _connected(board, start, friendship[owner], neighbours)
    present = frozenset(board[point] for point in region)
    pieces = {
        _connected(board, start, clique, neighbours)
        for clique in maximal_cliques_through(owner, present, friendship)
    }
    return tuple(sorted(_maximal_sets(pieces), key=min))


def all_dragons(board: Board, friendship: Friendship, neighbours: Neighbours) -> tuple[Dragon, ...]:
    """Every Dragon on the board, ordered by lowest point."""
    found: set[Dragon] = set()
    covered: set[Point] = set()
    for point, owner in enumerate(board):
        if owner == 0 or point in covered:
            continue
        dragons = dragons_through(board, point, friendship, neighbours)
        found.update(dragons)
        if len(friendship[owner]) == 1:
            # A player without Allies is in exactly one Dragon per stone, so
            # the rest of this group need not be visited again.
            covered.update(dragons[0])
    return tuple(sorted(found, key=min))


def has_liberty(board: Board, dragon: Dragon, neighbours: Neighbours) -> bool:
    """Whether any point next to ``dragon`` (inside it or out) is empty."""
    return any(board[other] == 0 for point in dragon for other in neighbours[point])


def liberties_of(board: Board, dragon: Dragon, neighbours: Neighbours) -> frozenset[Point]:
    """The Liberties of ``dragon``: empty points adjacent to it, interior ones too."""
    return frozenset(other for point in dragon for other in neighbours[point] if board[other] == 0)


def adjacent_stones(board: Board, dragon: Dragon, neighbours: Neighbours) -> frozenset[Point]:
    """Stones next to ``dragon`` that are not part of it."""
    return frozenset(
        other
        for point in dragon
        for other in neighbours[point]
        if board[other] != 0 and other not in dragon
    )


def maximal_cliques_through(
    vertex: int, present: frozenset[int], friendship: Friendship
) -> list[frozenset[int]]:
    """Maximal sets of mutually friendly owners in ``present`` that include ``vertex``.

    Bron-Kerbosch with pivoting; owners number a handful, so this is cheap.
    """
    cliques: list[frozenset[int]] = []
    candidates = (friendship[vertex] & present) - {vertex}
    _extend_cliques(frozenset({vertex}), set(candidates), set(), friendship, cliques)
    return cliques


def _extend_cliques(
    chosen: frozenset[int],
    candidates: set[int],
    excluded: set[int],
    friendship: Friendship,
    cliques: list[frozenset[int]],
) -> None:
    if not candidates and not excluded:
        cliques.append(chosen)
        return
    pivot = max(candidates | excluded, key=lambda owner: len(friendship[owner] & candidates))
    # The pivot's neighbours exclude the pivot itself, which must be branched on.
    for owner in sorted(candidates - (friendship[pivot] - {pivot})):
        friends = friendship[owner] - {owner}
        _extend_cliques(
            chosen | {owner}, candidates & friends, excluded & friends, friendship, cliques
        )
        candidates.remove(owner)
        excluded.add(owner)


def _connected(
    board: Board, start: Point, owners: frozenset[int], neighbours: Neighbours
) -> Dragon:
    """Stones reachable from ``start`` through stones whose owner is in ``owners``."""
    found = {start}
    frontier = [start]
    while frontier:
        for other in neighbours[frontier.pop()]:
            if board[other] in owners and other not in found:
                found.add(other)
                frontier.append(other)
    return frozenset(found)


def _maximal_sets(sets: set[Dragon]) -> list[Dragon]:
    return [candidate for candidate in sets if not any(candidate < other for other in sets)]
