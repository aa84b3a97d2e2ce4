"""Ending, scoring and resetting Political Go (rule 1639 F and G, seed 004).

Readings of the rule:

* Ending (F): "ends during a Checkpoint when the most recent move was to
  Pass, and nobody has placed a stone for more than an Nweek".  The caller
  names the Checking Period that the Checkpoint closes.  Checkpoints end the
  third, seventh and tenth nday of each nweek (rule 3), so an nweek is three
  consecutive Checking Periods.  A stone placed during period ``p`` was placed
  more than an nweek before the Checkpoint that closes period ``c`` exactly
  when ``c - p >= 3``: that Checkpoint is an nweek after the end of ``p``, and
  the stone came before the end of ``p``; at ``c - p == 2`` less than an nweek
  has passed since the start of ``p``.  While no stone has been placed since
  the game began, the count starts at the game's first Move; before any Move
  the most recent Move cannot be a Pass, so the game does not end.
* Territories (G) are the maximal connected sets of empty points; each
  player with a stone next to one gets ``2 * M // N`` Go Points; a Territory
  next to no stone gives nobody anything.  Shares go to "each player with
  stones directly adjacent", Allies or not.
* Conversion: each player's Go Score plus eir Territory points is eir total;
  only positive totals become Nomic points, zero and negative ones give none.
* Reset: stones, alliances, Go Scores and the ko history go; so do pending
  consents (they were consents to alliances of the finished game).  Players
  keep their marks, the Move count goes on, and each player's last Move and
  Checking Period are kept, so "at most once per Checking Period" still holds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace

from bot.games.go.points import Point, neighbour_table
from bot.games.go.state import (
    GoState,
    PlayerId,
    PositionRecord,
    is_retired,
    with_position_recorded,
)

NWEEK_CHECKING_PERIODS = 3


@dataclass(frozen=True)
class Territory:
    """A maximal set of adjacent empty points and the players sharing it."""

    points: tuple[Point, ...]
    owners: tuple[PlayerId, ...]
    points_each: int


@dataclass(frozen=True)
class PlayerTotal:
    """One player's Go Points at the end of the game and eir Nomic points."""

    player: PlayerId
    go_score: int
    territory_points: int
    total: int
    nomic_points: int


@dataclass(frozen=True)
class ScoreResult:
    """The scoring of a finished game of Political Go (rule 1639 G)."""

    territories: tuple[Territory, ...]
    totals: tuple[PlayerTotal, ...]

    @property
    def nomic_points(self) -> dict[PlayerId, int]:
        """Nomic points awarded, only for players with a positive total."""
        return {total.player: total.nomic_points for total in self.totals if total.nomic_points}


def game_should_end(
    state: GoState, at_checkpoint_period: int, nweek_periods: int = NWEEK_CHECKING_PERIODS
) -> bool:
    """Whether the game ends at the Checkpoint closing ``at_checkpoint_period``.

    Rule 1639 F: the most recent Move was a Pass and no stone has been placed
    for more than an nweek (``nweek_periods`` Checking Periods).  Raises
    ``ValueError`` if the Checkpoint comes before the last stone.
    """
    if not state.last_move_was_pass or state.stones_quiet_since is None:
        return False
    if at_checkpoint_period < state.stones_quiet_since:
        raise ValueError(
            f"checkpoint of period {at_checkpoint_period} is before the last stone "
            f"in period {state.stones_quiet_since}: the clock must not run backwards"
        )
    return at_checkpoint_period - state.stones_quiet_since >= nweek_periods


def territories(state: GoState) -> tuple[Territory, ...]:
    """Every Territory on the board with its owners and share, by lowest point."""
    result = []
    for points in _empty_regions(state):
        owners = _adjacent_owners(state, points)
        share = 2 * len(points) // len(owners) if owners else 0
        result.append(Territory(points, owners, share))
    return tuple(result)


def score_game(state: GoState) -> ScoreResult:
    """Score the board as rule 1639 G says; ``state`` is not changed."""
    found = territories(state)
    earned: Counter[PlayerId] = Counter()
    for territory in found:
        for owner in territory.owners:
            earned[owner] += territory.points_each
    # A forfeit's record (rule 14) holds no stone and no Go Score: not a player's total.
    totals = tuple(
        _player_total(record.name, record.score, earned[record.name])
        for record in state.players
        if not is_retired(record)
    )
    return ScoreResult(found, totals)


def reset_game(state: GoState, size: int | None = None) -> GoState:
    """The board cleared, alliances and consents gone, Go Scores 0 (rule 1639 G).

    ``size``: the board of the game that starts now, when a rule change made
    it other than 1639 A's (the game that ended keeps its own).
    """
    parameters = replace(state.parameters, size=size) if size else state.parameters
    board = bytes(parameters.point_count)
    players = tuple(replace(record, score=0) for record in state.players)
    history = with_position_recorded({}, PositionRecord(board, frozenset()))
    return replace(
        state,
        parameters=parameters,
        board=board,
        players=players,
        alliances=frozenset(),
        pending_consents=frozenset(),
        history=history,
        last_move_was_pass=False,
        stones_quiet_since=None,
    )


def _player_total(player: PlayerId, go_score: int, territory_points: int) -> PlayerTotal:
    total = go_score + territory_points
    # "any player with a positive number of Go Points receives that many
    # actual Nomic points": nothing is taken from a negative total.
    return PlayerTotal(player, go_score, territory_points, total, max(total, 0))


def _empty_regions(state: GoState) -> Iterator[tuple[Point, ...]]:
    neighbours = neighbour_table(state.parameters.size)
    seen: set[Point] = set()
    for start, code in enumerate(state.board):
        if code or start in seen:
            continue
        region, frontier = {start}, [start]
        while frontier:
            for next_point in neighbours[frontier.pop()]:
                if not state.board[next_point] and next_point not in region:
                    region.add(next_point)
                    frontier.append(next_point)
        seen |= region
        yield tuple(sorted(region))


def _adjacent_owners(state: GoState, region: tuple[Point, ...]) -> tuple[PlayerId, ...]:
    neighbours = neighbour_table(state.parameters.size)
    codes = {state.board[other] for point in region for other in neighbours[point]} - {0}
    return tuple(state.players[code - 1].name for code in sorted(codes))
