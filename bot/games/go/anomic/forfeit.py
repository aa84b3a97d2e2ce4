"""A forfeit in A Nomic's Political Go (rules 365-377 of seed 002, rule 14 of seed 004).

The roster is B Nomic's, so a player leaves by rule 14's forfeit and "loses
all game defined properties and attributes except for eir Name".  Here that
is eir Stones in all three of rule 373's states: those In Play leave the
Board (not a capture: rule 369 divides nothing), eir Reserve and Captured
Stones are gone, and so are eir captures of this game (370's Go score).
Eir alliances end, offers to or from em are void (368.2), and e is no
longer a Go player (365).  It is not a move: no 19-hour limit runs from it
and it starts no game.  The Board left is one more configuration for rule
368 a.

Eir record stays under a Lost Soul label (``bot.games.lost_souls``), as
in rule set B: its board code keeps the superko log's stored boards
readable, and the name is free for whoever bears it next.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.go.anomic.setup import with_breathless
from bot.games.go.anomic.state import AnomicState, GoPlayer, renamed
from bot.games.go.anomic.superko import board_key
from bot.games.go.points import Point
from bot.games.go.state import PlayerId
from bot.games.lost_souls import lost_soul_label


@dataclass(frozen=True)
class Forfeiture:
    """What a forfeit took: stones In Play (their points), Reserve and Captured
    Stones, captures of this game, allies, and the offers to or from em."""

    player: PlayerId
    stones: tuple[Point, ...] = ()
    reserve: int = 0
    captured: int = 0
    captures: int = 0
    allies: tuple[PlayerId, ...] = ()
    offers: tuple[tuple[PlayerId, PlayerId], ...] = ()

    @property
    def changed(self) -> bool:
        return bool(
            self.stones
            or self.reserve
            or self.captured
            or self.captures
            or self.allies
            or self.offers
        )


def forfeited(state: AnomicState, name: PlayerId) -> tuple[AnomicState, Forfeiture]:
    """``state`` after ``name`` forfeited, and what e lost (see the module docstring).

    ``state`` itself when ``name`` has no record.
    """
    if not state.has_player(name):
        return state, Forfeiture(name)
    code = state.player_codes[name]
    before = state.record_of(name)
    lost = Forfeiture(
        name,
        stones=tuple(point for point, owner in enumerate(state.board) if owner == code),
        reserve=before.reserve,
        captured=before.captured,
        captures=before.captures,
        allies=tuple(sorted(state.allies_of(name))),
        offers=tuple(sorted(offer for offer in state.offers if name in offer)),
    )
    label = lost_soul_label(name, code)
    state = renamed(state, name, label)
    board = bytes(0 if owner == code else owner for owner in state.board)
    key = board_key(board)
    positions = state.positions
    if lost.stones:
        positions = positions.with_board(board, key, state.move_number)
    players = tuple(
        GoPlayer(label, record.mark) if record.name == label else record for record in state.players
    )
    after = state._replace(
        board=board,
        players=players,
        alliances=frozenset(pair for pair in state.alliances if label not in pair),
        offers=frozenset(offer for offer in state.offers if label not in offer),
        key=key,
        positions=positions,
    )
    # Freed vertices are Liberties: a Dragon left without any may have one now.
    return with_breathless(after), lost
