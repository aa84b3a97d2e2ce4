"""Rule 343, Mediocrity: games of levels and sub-games, their winners computed.

"A level n game of Mediocrity sub-game consists of z n-1 sub games, unless
n=1 in which case it consists of z individual challenges."  A game of level
x is therefore z^x challenges in a row; the challenges that counted (those
with at least y entries, docs/readings.md) fill the tree in order: level 1
sub-game k is challenges k*z .. k*z+z-1, level 2 sub-game k is level 1
sub-games k*z .. k*z+z-1, and so on.

Reading (docs/readings.md, 343): each challenge has a winner, the most
mediocre quantity; a level 1 sub-game, "z individual challenges", is won by
the most mediocre number of challenge wins, as a level n game is won by the
most mediocre number of level n-1 wins.  The participants of a sub-game are
every player with an entry in one of its challenges (so a participant
with no win counts, as 0).  "The ContestMaster of each Mediocrity sub-game
is the winner of the previous sub-game of the same game": the S.M of the
next challenge is the winner of the sub-game concluded last (when a
challenge also concludes its level 1 and level 2 sub-games, the largest).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction

from bot.games.contests.mediocre import Entry, most_mediocre, quantity_of
from bot.games.contests.state import Challenge, MediocrityGame, PlayerId


@dataclass(frozen=True)
class SubGameResult:
    """The winner of one sub-game: level 0 is a challenge, level x the whole game."""

    level: int
    index: int  # within its level, from 0
    winner: PlayerId | None
    wins: tuple[tuple[PlayerId, int], ...] = ()  # level >= 1: each participant's wins
    challenge: int = 0  # level 0: the challenge's number

    def describe(self) -> str:
        if self.level == 0:
            return f"challenge {self.challenge}: {self.winner}"
        counts = ", ".join(f"{player} {wins}" for player, wins in self.wins)
        return f"level {self.level} sub-game {self.index + 1}: {self.winner} (wins: {counts})"


def challenge_winner(challenge: Challenge) -> tuple[Entry | None, tuple[Entry, ...]]:
    """343: "the player whose specified quantity is the most mediocre" (ties: the earliest)."""
    entries = [
        Entry(answer.player, quantity_of(answer.content), answer.received_at)
        for answer in challenge.submissions
        if answer.content is not None
    ]
    return most_mediocre(entries)


def sub_game_result(
    game: MediocrityGame, challenges: Mapping[int, Challenge], level: int, index: int
) -> SubGameResult:
    """The winner of sub-game ``index`` of ``level`` (0: a challenge), once it is complete."""
    size = game.sub_games**level
    numbers = game.challenges[index * size : (index + 1) * size]
    if level == 0:
        outcome = challenges[numbers[0]].outcome
        won_by = None if outcome is None else outcome.winner
        return SubGameResult(0, index, won_by, challenge=numbers[0])
    units = [
        sub_game_result(game, challenges, level - 1, index * game.sub_games + unit)
        for unit in range(game.sub_games)
    ]
    first_entry: dict[PlayerId, datetime] = {}
    for number in numbers:
        for answer in challenges[number].submissions:
            first_entry.setdefault(answer.player, answer.received_at)
            first_entry[answer.player] = min(first_entry[answer.player], answer.received_at)
    participants = sorted(first_entry, key=lambda player: (first_entry[player], player))
    wins = {player: sum(1 for unit in units if unit.winner == player) for player in participants}
    entries = [
        Entry(player, Fraction(wins[player]), first_entry[player]) for player in participants
    ]
    winner, _tied = most_mediocre(entries)
    return SubGameResult(
        level,
        index,
        None if winner is None else winner.player,
        tuple((player, wins[player]) for player in participants),
    )


def concluded_by_last(
    game: MediocrityGame, challenges: Mapping[int, Challenge]
) -> tuple[SubGameResult, ...]:
    """The sub-games the game's latest counted challenge concluded, smallest first."""
    count = len(game.challenges)
    results = []
    for level in range(0, game.level + 1):
        size = game.sub_games**level
        if count and count % size == 0:
            results.append(sub_game_result(game, challenges, level, count // size - 1))
    return tuple(results)


def every_result(
    game: MediocrityGame, challenges: Mapping[int, Challenge]
) -> tuple[SubGameResult, ...]:
    """Every sub-game concluded so far, by level then index (for the view)."""
    results = []
    for level in range(0, game.level + 1):
        size = game.sub_games**level
        for index in range(len(game.challenges) // size):
            results.append(sub_game_result(game, challenges, level, index))
    return tuple(results)
