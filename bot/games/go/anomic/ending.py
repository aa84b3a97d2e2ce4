"""The end of a game (365), Go scoring (370) and clearing the Board (371).

Rule 365: "A game of Political Go ends if it is no longer legal to place a
Stone, or if a nweek passes in which no Player places a Stone."  Then 370
scores and 371 clears, and the next game starts on the empty Board.

Readings:

* "No longer legal to place a Stone": no empty vertex where any player could
  place under 368 a-c, counting every Go player except the last placer and a
  player who has not yet moved (anyone may become a Go player by placing).
  The 19-hour limit and Reserve Stones are ignored: they only delay a
  placement.
* "A nweek passes in which no Player places a Stone": checked when nweek N
  begins; the game ends if its latest placement (or, with none yet, its
  first move) was before nweek N-1, so the whole of nweek N-1 saw no stone.
* Dead Dragons (one Liberty, 367) are captured at the end "by the Go players
  whose unfriendly Dragons are adjacent to them": the owners of stones next
  to the Dead Dragon whose own Dragons are unfriendly to it, divided as in
  369 by those stones.  "All dead Dragons" go at once, so a neighbouring
  Dragon counts even when it is dead too: two dead Dragons next to each
  other capture each other.  A dead Dragon with no such neighbour stays.
* Territory (367): an empty vertex is territory for a Go player when every
  Dragon reachable from it through empty vertices is friendly to that player
  (all its stones are eirs or eir allies') and at least one is.  Occupied
  vertices are not territory.  Allies can therefore share territory, each
  counting it in full.
* Go score (370) = territory + Stones captured in this game (369 and the
  dead-Dragon captures).  The winner is the highest score; equal highest
  scores are joint winners.
* Clearing (371): each Go player gets as many new Captured Stones as eir
  territory, and eir Stones In Play become eir Captured Stones.  The next
  game starts empty, unallied, with no offers and no Go players.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from bot.games.errors import IllegalActionError
from bot.games.go.anomic.events import DragonCaptured
from bot.games.go.anomic.moves import MoveContext, Shuffler, divide_stones, place_stone
from bot.games.go.anomic.state import AnomicState, GoPlayer
from bot.games.go.anomic.superko import BoardHistory, PositionLog
from bot.games.go.dragons import Dragon, all_dragons, dragons_through, liberties_of
from bot.games.go.points import Point, neighbour_table
from bot.games.go.state import PlayerId

Item = TypeVar("Item")


@dataclass(frozen=True)
class GoScore:
    player: PlayerId
    territory: int
    captures: int

    @property
    def total(self) -> int:
        return self.territory + self.captures


@dataclass(frozen=True)
class EndResult:
    """The scored game and the cleared state the next game starts from."""

    reason: str
    dead_captures: tuple[DragonCaptured, ...]
    scores: tuple[GoScore, ...]
    winners: tuple[PlayerId, ...]
    scored_board: bytes
    state: AnomicState


def placement_possible(state: AnomicState, history: BoardHistory | None = None) -> bool:
    """Whether any player could still place a stone somewhere (rule 365)."""
    newcomer = "\x00newcomer"
    candidates = [name for name in state.go_players if name != state.last_placer]
    candidates.append(newcomer)
    free = state._replace(
        players=tuple(record._replace(last_limited_move_at=None) for record in state.players),
        parameters=replace(state.parameters, placement_uses_reserve=False),
    )
    for point, code in enumerate(state.board):
        if code:
            continue
        for name in candidates:
            try:
                place_stone(free, MoveContext(name, 0), point, history=history, draws=_NoDraws())
            except IllegalActionError:
                continue
            return True
    return False


def quiet_nweek_passed(state: AnomicState, nweek: int) -> bool:
    """Whether, as nweek ``nweek`` begins, a whole nweek passed with no stone placed."""
    if state.started_nweek is None:
        return False
    latest = state.last_placement_nweek
    since = latest if latest is not None else state.started_nweek
    return since < nweek - 1


def end_game(state: AnomicState, reason: str, draws: Shuffler | None = None) -> EndResult:
    """Rules 370 and 371: capture dead Dragons, count territory, score, clear."""
    neighbours = neighbour_table(state.parameters.size)
    friendship = state.friendship
    board = bytearray(state.board)
    players = list(state.players)
    events: list[DragonCaptured] = []
    dead = [
        dragon
        for dragon in all_dragons(board, friendship, neighbours)
        if len(liberties_of(board, dragon, neighbours)) == 1
    ]
    taken: set[Point] = set()
    for dragon in sorted(dead, key=min):
        capturers = _unfriendly_neighbours(board, dragon, friendship, neighbours)
        stones = dragon - taken
        if not capturers or not stones:
            continue
        taken |= stones
        named = [(players[code - 1].name, count) for code, count in capturers.items()]
        where = state.parameters.format_point(min(dragon))
        shares, tie_order = divide_stones(
            len(stones), named, draws, f"rule 370 tie for the dead Dragon at {where}"
        )
        for share in shares:
            index = state.player_codes[share.player] - 1
            players[index] = players[index]._replace(
                captured=players[index].captured + share.stones,
                captures=players[index].captures + share.stones,
            )
        losses = Counter(players[board[point] - 1].name for point in stones)
        events.append(
            DragonCaptured(frozenset(stones), tuple(sorted(losses.items())), shares, tie_order)
        )
    for point in taken:
        board[point] = 0
    scored = state._replace(board=bytes(board), players=tuple(players))
    land = territories(scored)
    scores = tuple(
        GoScore(record.name, land.get(record.name, 0), record.captures)
        for record in scored.players
        if record.is_go_player
    )
    best = max((score.total for score in scores), default=0)
    winners = tuple(score.player for score in scores if score.total == best) if scores else ()
    return EndResult(
        reason, tuple(events), scores, winners, scored.board, clear_board(scored, land)
    )


def territories(state: AnomicState) -> dict[PlayerId, int]:
    """Territory of every Go player (rule 367), on the board as it stands."""
    neighbours = neighbour_table(state.parameters.size)
    friendship = state.friendship
    board = state.board
    seen: set[Point] = set()
    counts: Counter[PlayerId] = Counter()
    go_players = [
        (code, record.name) for code, record in enumerate(state.players, 1) if record.is_go_player
    ]
    for start, code in enumerate(board):
        if code or start in seen:
            continue
        region, borders = _empty_region(board, start, neighbours)
        seen |= region
        dragons: set[Dragon] = set()
        for stone in borders:
            dragons.update(dragons_through(board, stone, friendship, neighbours))
        if not dragons:
            continue
        for player_code, name in go_players:
            friends = friendship[player_code]
            if all(all(board[point] in friends for point in dragon) for dragon in dragons):
                counts[name] += len(region)
    return dict(counts)


def clear_board(state: AnomicState, land: dict[PlayerId, int]) -> AnomicState:
    """Rule 371, and the empty, unallied Board of the next game (365)."""
    players: list[GoPlayer] = []
    for record in state.players:
        gained = (
            (land.get(record.name, 0) + state.in_play(record.name))
            if record.is_go_player
            else state.in_play(record.name)
        )
        players.append(
            record._replace(captured=record.captured + gained, captures=0, is_go_player=False)
        )
    empty = bytes(state.parameters.point_count)
    return state._replace(
        board=empty,
        players=tuple(players),
        alliances=frozenset(),
        offers=frozenset(),
        last_placer=None,
        move_number=0,
        game_number=state.game_number + 1,
        started_nweek=None,
        last_placement_nweek=None,
        breathless=frozenset(),
        key=0,
        positions=PositionLog().with_board(empty, 0, 0),
    )


def _unfriendly_neighbours(
    board: bytearray,
    dragon: Dragon,
    friendship: tuple[frozenset[int], ...],
    neighbours: tuple[tuple[Point, ...], ...],
) -> Counter[int]:
    """Owner code -> stones next to ``dragon`` in Dragons unfriendly to it.

    Stones of other dead Dragons count: rule 370 captures all dead Dragons
    together, judged on the board as it stands before any is removed.
    """
    owners = {board[point] for point in dragon}
    counts: Counter[int] = Counter()
    for point in {other for stone in dragon for other in neighbours[stone]}:
        code = board[point]
        if not code or point in dragon:
            continue
        if any(
            any(board[stone] not in friendship[owner] for owner in owners for stone in other)
            for other in dragons_through(board, point, friendship, neighbours)
        ):
            counts[code] += 1
    return counts


def _empty_region(
    board: bytes, start: Point, neighbours: tuple[tuple[Point, ...], ...]
) -> tuple[set[Point], set[Point]]:
    region, borders, frontier = {start}, set(), [start]
    while frontier:
        for other in neighbours[frontier.pop()]:
            if board[other]:
                borders.add(other)
            elif other not in region:
                region.add(other)
                frontier.append(other)
    return region, borders


class _NoDraws:
    """Trial placements are thrown away, so their divisions need no real draw."""

    def shuffle(self, items: Sequence[Item], purpose: str) -> list[Item]:
        return list(items)
