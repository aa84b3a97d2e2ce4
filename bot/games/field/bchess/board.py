"""Questions the B-Chess actions ask of the Field: who stands where, whose Kings remain.

Every B-Chess piece has Size 1 x 1, so a placed piece occupies exactly its
``square``.  "Possessing a King" means owning a King on the Field: Kings are
created placed (Initialize, Join, Rejoin) and leave the Field only by being
destroyed, so a player who has ever possessed a King in the match either
owns one now or has had one captured ("Times captured" above zero).
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.games.field.bchess.document import KING, TIMES_CAPTURED
from bot.games.field.objects import FieldObject, PlayerId
from bot.games.field.squares import Square
from bot.games.field.state import FieldState, objects_of_kind, player_attribute


def occupants(state: FieldState) -> dict[Square, FieldObject]:
    """Every placed piece by its square."""
    return {item.square: item for item in state.objects if item.square is not None}


def unoccupied_squares(state: FieldState) -> tuple[Square, ...]:
    """The squares no piece stands on, from A1 along each row."""
    taken = occupants(state)
    return tuple(square for square in range(state.geometry.square_count) if square not in taken)


def kings_of(state: FieldState, player: PlayerId) -> tuple[FieldObject, ...]:
    """``player``'s Kings on the Field, in Priority List order."""
    return tuple(
        king for king in objects_of_kind(state, KING) if king.owner == player and king.is_placed
    )


def placed_kings(state: FieldState) -> tuple[FieldObject, ...]:
    return tuple(king for king in objects_of_kind(state, KING) if king.is_placed)


def times_captured(state: FieldState, player: PlayerId) -> int:
    value = player_attribute(state, player, TIMES_CAPTURED)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def total_captures(state: FieldState) -> int:
    return sum(times_captured(state, player) for player, _ in state.player_attributes)


def has_possessed_king(state: FieldState, player: PlayerId) -> bool:
    return bool(kings_of(state, player)) or times_captured(state, player) > 0


def owner_name(item: FieldObject) -> str:
    return item.owner if item.owner is not None else "nobody"


def describe_piece(item: FieldObject, state: FieldState) -> str:
    """E.g. ``"alice's Rook at C3"`` or ``"bob's Pawn (not placed)"``."""
    where = (
        "(not placed)" if item.square is None else f"at {state.geometry.format_square(item.square)}"
    )
    return f"{owner_name(item)}'s {item.kind} {where}"


def players_seen(state: FieldState, also: Mapping[PlayerId, object] | None = None) -> list[str]:
    """Players named by ``also``, then owners and players with attributes, each once."""
    seen: list[str] = list(also or {})
    extra = {item.owner for item in state.objects if item.owner is not None}
    extra |= {player for player, _ in state.player_attributes}
    seen.extend(sorted(extra - set(seen)))
    return seen
