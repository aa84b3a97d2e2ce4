"""Political Go's position after each Move, from the public action log (rule 1639 C).

Each applied Move's recorded effects say which stones it placed and which
it captured; an administrator's set-up and a forfeit's removal change the
board between Moves.  Folding them in order gives the board at any Move.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.site.documents import PublicAction

MOVES = frozenset({"go.place", "go.pass"})


@dataclass(frozen=True)
class GoMove:
    number: int
    player: str
    text: str
    post_message_id: str
    ntime: str
    placed: str | None
    stones: dict[str, str]


def go_moves(actions: Iterable[PublicAction], game: str = "go") -> list[GoMove]:
    """The board after each applied Move, in order (Move 1 first)."""
    stones: dict[str, str] = {}
    moves: list[GoMove] = []
    for action in actions:
        if action.ruling != "applied":
            continue
        placed = _apply_effects(stones, action.effects, game)
        if action.action in MOVES:
            moves.append(
                GoMove(
                    number=len(moves) + 1,
                    player=action.player,
                    text=action.text,
                    post_message_id=action.post_message_id,
                    ntime=action.ntime,
                    placed=placed,
                    stones=dict(stones),
                )
            )
    return moves


def _apply_effects(stones: dict[str, str], effects: list[object], game: str) -> str | None:
    """Change ``stones`` by ``effects``; the point a stone was placed on, if one was."""
    placed = None
    for effect in effects:
        if not isinstance(effect, dict) or effect.get("game") != game or "point" not in effect:
            continue
        point, change = str(effect["point"]), str(effect.get("change", ""))
        if change in ("placed", "set up"):
            stones[point] = str(effect["owner"])
            placed = point if change == "placed" else placed
        else:
            stones.pop(point, None)
    return placed
