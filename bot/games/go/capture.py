"""Capturing Dragons and dividing the Go Points (rule 1639 D, seed 004).

Readings of the rule, as a fair referee would take them:

* Capturers are, literally, "the players having Stones directly adjacent to
  that Dragon", Allies of the captured players included.  (No player can own
  a stone in the Dragon and one next to it: that stone would be in the Dragon.)
* Division: every Capturer gets ``stones // capturers``; the remainder, always
  fewer points than there are Capturers, is handed out one point each down a
  ranking by most adjacent stones, then by who played most recently (the
  mover of the capturing Move counts as most recent), then by the order the
  players joined the game.  So nobody gets two extra points while another
  Capturer gets none; the other reading, "the whole remainder to the single
  top Capturer", is rejected because the rule divides "as equally as
  possible" and its sister rule A Nomic 369 (seed 002) deals captured stones
  out one per Capturer in the same ranking.
* Order: the mover may choose the order (``capture_order``); the default
  takes Dragons without the new stone first, then the one with the lowest
  point (A1, B1, ... then A2, ...).  A Dragon that lost stones to an
  overlapping capture, or gained a Liberty, is spared.
* Self-capture: a placement is illegal when, after the captures in the
  chosen or default order, the new stone is gone.  The default order never
  loses the stone when another order would save it: every Dragon without
  Liberties that lacks the new stone contains a stone next to it (only such
  Dragons can die from one placement), so capturing any of them first gives
  the new stone a Liberty.
* Tie-breaks never need randomness here, so no random source is injected;
  A Nomic's rule 369 ("ties broken randomly") will need one.

Captures work on a ``bytearray`` copy of the board that the caller turns back
into ``bytes`` for the next state.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence

from bot.games.errors import AmbiguousActionError, IllegalActionError
from bot.games.go.dragons import (
    Dragon,
    Friendship,
    Neighbours,
    adjacent_stones,
    all_dragons,
    dead_group_of,
    dragons_through,
    has_liberty,
)
from bot.games.go.events import CaptureShare, DragonCaptured, StoneLoss
from bot.games.go.parameters import GoParameters
from bot.games.go.points import Point
from bot.games.go.state import PlayerId

# A Dragon named by one of its points, or by several points when one point is
# shared by more than one Dragon without Liberties.
DragonSelector = Point | Collection[Point]


def divide_points(
    stone_count: int, adjacent_counts: Mapping[PlayerId, int], recency: Mapping[PlayerId, int]
) -> tuple[CaptureShare, ...]:
    """Share ``stone_count`` Go Points among the Capturers (rule 1639 D).

    ``adjacent_counts`` gives each Capturer's stones next to the Dragon, in a
    fixed order used for the last tie-break; ``recency`` each player's latest
    move number.  Each Capturer gets the equal share; the remainder (always
    fewer points than Capturers) goes one point each to the Capturers ranked
    by most adjacent stones, then by who played most recently.
    """
    ranking = sorted(
        adjacent_counts, key=lambda player: (-adjacent_counts[player], -recency.get(player, 0))
    )
    if not ranking:
        return ()
    equal_share, remainder = divmod(stone_count, len(ranking))
    return tuple(
        CaptureShare(player, adjacent_counts[player], equal_share + (1 if rank < remainder else 0))
        for rank, player in enumerate(ranking)
    )


def capture_dragon(
    board: bytearray,
    dragon: Dragon,
    names: Sequence[PlayerId],
    recency: Mapping[PlayerId, int],
    neighbours: Neighbours,
) -> DragonCaptured:
    """Remove ``dragon`` from ``board`` and say who loses and gains what.

    ``names[code - 1]`` is the owner of board code ``code``.  Rule 1639 D:
    the Capturers are the players with stones directly adjacent to the Dragon.
    """
    adjacent = Counter(board[point] for point in adjacent_stones(board, dragon, neighbours))
    lost = Counter(board[point] for point in dragon)
    adjacent_counts = {names[code - 1]: adjacent[code] for code in sorted(adjacent)}
    for point in dragon:
        board[point] = 0
    return DragonCaptured(
        stones=tuple(sorted(dragon)),
        losses=tuple(StoneLoss(names[code - 1], lost[code]) for code in sorted(lost)),
        shares=divide_points(len(dragon), adjacent_counts, recency),
    )


def dead_dragons_after_placement(
    board: bytearray, placed: Point, friendship: Friendship, neighbours: Neighbours
) -> list[Dragon]:
    """Dragons without Liberties once a stone stands on ``placed``.

    Only Dragons through the new stone or a stone next to it can have lost
    their last Liberty: every other Dragon is unchanged.
    """
    dead: set[Dragon] = set()
    for seed in (placed, *neighbours[placed]):
        owner = board[seed]
        if owner == 0:
            continue
        if len(friendship[owner]) > 1:
            dragons = dragons_through(board, seed, friendship, neighbours)
            dead.update(dragon for dragon in dragons if not has_liberty(board, dragon, neighbours))
        elif not any(seed in dragon for dragon in dead):
            # Without Allies the stone's only Dragon is its group: flood fill
            # it, stopping at the first Liberty (the hot path of a plain game).
            group = dead_group_of(board, seed, neighbours)
            if group is not None:
                dead.add(group)
    return sorted(dead, key=min)


def dead_dragons_anywhere(
    board: bytearray, friendship: Friendship, neighbours: Neighbours
) -> list[Dragon]:
    """Every Dragon without Liberties (after alliances change, any may be)."""
    dragons = all_dragons(board, friendship, neighbours)
    return [dragon for dragon in dragons if not has_liberty(board, dragon, neighbours)]


def resolve_captures(
    board: bytearray,
    dead: Sequence[Dragon],
    chosen_order: Sequence[Dragon],
    placed: Point | None,
    names: Sequence[PlayerId],
    recency: Mapping[PlayerId, int],
    neighbours: Neighbours,
) -> tuple[DragonCaptured, ...]:
    """Capture the ``dead`` Dragons one at a time (rule 1639 D).

    ``chosen_order`` (the mover's choice) goes first; the rest follow the
    default order: Dragons without the stone on ``placed`` before those with
    it, then by lowest point.  After each capture a Dragon that gained a
    Liberty, or lost stones to an overlapping capture, is spared: "If a
    capture creates Liberties for a Dragon that had none, then the Dragon with
    the newly-found Liberties is not captured."
    """
    pending = list(dead)
    queue = list(chosen_order)
    captures: list[DragonCaptured] = []
    while pending:
        dragon = _next_dragon(pending, queue, placed)
        captures.append(capture_dragon(board, dragon, names, recency, neighbours))
        pending = [other for other in pending if _still_dead(board, other, dragon, neighbours)]
    return tuple(captures)


def _next_dragon(pending: list[Dragon], queue: list[Dragon], placed: Point | None) -> Dragon:
    while queue:
        chosen = queue.pop(0)
        if chosen in pending:
            return chosen
    return min(pending, key=lambda dragon: (placed in dragon, min(dragon)))


def _still_dead(board: bytearray, dragon: Dragon, captured: Dragon, neighbours: Neighbours) -> bool:
    # A Dragon that lost stones to an overlapping capture no longer exists as
    # such; what is left of it borders the emptied points, so it has Liberties.
    if dragon == captured or any(board[point] == 0 for point in dragon):
        return False
    return not has_liberty(board, dragon, neighbours)


def select_dragons(
    dead: Sequence[Dragon], selectors: Sequence[DragonSelector], parameters: GoParameters
) -> list[Dragon]:
    """The mover's capture order as Dragons, each named by one or more of its points.

    Raises ``IllegalActionError`` if a selector names no Dragon without
    Liberties and ``AmbiguousActionError`` if it names several.
    """
    return [_select_dragon(dead, selector, parameters) for selector in selectors]


def _select_dragon(
    dead: Sequence[Dragon], selector: DragonSelector, parameters: GoParameters
) -> Dragon:
    points = frozenset({selector} if isinstance(selector, int) else selector)
    matches = [dragon for dragon in dead if points <= dragon]
    named = ", ".join(parameters.format_point(point) for point in sorted(points))
    if not matches:
        raise IllegalActionError(
            f"There is no Dragon without Liberties at {named} to capture.",
            rule=parameters.rule_capture,
        )
    if len(matches) > 1:
        raise AmbiguousActionError(
            f"{named} lies in {len(matches)} Dragons without Liberties; "
            "name a stone that belongs to only one of them.",
            rule=parameters.rule_capture,
        )
    return matches[0]
