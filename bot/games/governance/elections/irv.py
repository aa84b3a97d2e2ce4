"""Instant Runoff Voting (rule 1823 C.3, seed 004).

"The choices are then eliminated, one by one, by repeatedly eliminating the
choice which ranked highest on the fewest number of votes, and then removing
that choice from each of the votes ... If there are multiple such choices,
and removing them would not remove all remaining choices, then all of them
are eliminated simultaneously.  If this results in all but one choice being
eliminated, then that choice is Selected by the election.  Otherwise, the
Moderator selects one of the winning choices."

So eliminations go on until one choice is left or every remaining choice is
tied for fewest; those tied are "the winning choices" and the Moderator
picks.  There is no early stop at a majority: a choice ranked highest on
more than half the votes is never the fewest, so it wins all the same.  A
choice ranked highest on no vote has the fewest (zero) and goes first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.games.governance.elections.methods import Choice
from bot.games.governance.elections.positional import check_ranked_votes, top_choice_counts
from bot.games.governance.elections.selection import Selection, leader_selection
from bot.games.governance.elections.votes import RankedVote

RULE = "1823 C.3"


@dataclass(frozen=True)
class IrvRound:
    """One count: on how many votes each remaining choice ranks highest, and who went.

    ``eliminated`` is empty in a last round where every remaining choice tied.
    """

    number: int
    counts: tuple[tuple[Choice, int], ...]
    eliminated: tuple[Choice, ...]

    def describe(self) -> str:
        listed = ", ".join(f"{choice} {count}" for choice, count in self.counts)
        fewest = min(count for _, count in self.counts)
        if not self.eliminated:
            return f"round {self.number}: {listed}; all tied, so none can be eliminated"
        together = " (simultaneously)" if len(self.eliminated) > 1 else ""
        gone = ", ".join(self.eliminated)
        return f"round {self.number}: {listed}; eliminated {gone}{together} with fewest, {fewest}"


@dataclass(frozen=True)
class IrvResult:
    """The rounds in order and the Selection."""

    choices: tuple[Choice, ...]
    votes_cast: int
    rounds: tuple[IrvRound, ...]
    selection: Selection

    def explain(self) -> tuple[str, ...]:
        header = f"Instant Runoff Voting (rule {RULE}): {self.votes_cast} votes"
        lines = [header] + [count.describe() for count in self.rounds]
        if self.selection.draw is not None:
            lines.append(self.selection.draw.describe())
        return (*lines, self.selection.describe())


def tally_irv(votes: Sequence[RankedVote], choices: Sequence[Choice]) -> IrvResult:
    """Eliminate until one choice is left or the rest all tie (then ``needs_moderator``).

    Raises ``ValueError`` for no choices or a vote that does not rank exactly
    ``choices`` (defects: votes are judged when cast).
    """
    if not choices:
        raise ValueError("an IRV election needs at least one choice")
    check_ranked_votes(votes, choices)
    remaining = tuple(choices)
    rounds: list[IrvRound] = []
    while len(remaining) > 1:
        rounds.append(count_round(len(rounds) + 1, votes, remaining))
        if not rounds[-1].eliminated:
            break
        remaining = tuple(choice for choice in remaining if choice not in rounds[-1].eliminated)
    return IrvResult(tuple(choices), len(votes), tuple(rounds), leader_selection(RULE, remaining))


def count_round(
    number: int, votes: Sequence[RankedVote], remaining: tuple[Choice, ...]
) -> IrvRound:
    """Count the remaining choices and eliminate the fewest, unless that is all of them."""
    counts = top_choice_counts(votes, remaining)
    fewest = min(counts.values())
    lowest = tuple(choice for choice in remaining if counts[choice] == fewest)
    eliminated = () if len(lowest) == len(remaining) else lowest
    return IrvRound(number, tuple(counts.items()), eliminated)
