"""The Borda Count and its Choice Pool (rule 1823 C.1, seed 004).

"The approval rating of a choice in this case is xn-m, where x is the number
of votes cast, n is the number of choices in the Election, and m is the sum
of the ranks it received in all Voter's votes."  The comment after it (n
points for a first place) has no force (rule 8) and is off by one: x*n - m
gives n-1 for a first place.  The difference is x for every choice, so the
order is the same; the bot publishes the rule's x*n - m.

The Choice Pool starts as every choice; removals are made "until only one
choice remains", each among the choices left: "every choice that had a lower
approval rating than any other choice", then fewer first places, then
second, ..., then a random selection.  "Lower than any other choice" is read
as lower than some other choice still in the Pool, so each step keeps only
the choices at the Pool's best value: the reading "lower than every other"
would remove nothing when two choices share the lowest rating, and the first
place step would then remove a choice with the highest rating.  Places are
counted on the votes as cast (nothing is transferred, unlike IRV).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.games.governance.elections.draws import ChoiceSource, draw_from
from bot.games.governance.elections.methods import Choice
from bot.games.governance.elections.positional import (
    check_ranked_votes,
    keep_best,
    place_counts,
)
from bot.games.governance.elections.selection import SelectedBy, Selection
from bot.games.governance.elections.votes import RankedVote

RULE = "1823 C.1"
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


@dataclass(frozen=True)
class PoolStep:
    """One removal from the Choice Pool.

    ``values`` is each pooled choice's approval rating or count of votes for
    the place, before the step; ``removed`` had fewer than the best of them.
    """

    criterion: str
    values: tuple[tuple[Choice, int], ...]
    removed: tuple[Choice, ...]
    remaining: tuple[Choice, ...]

    def describe(self) -> str:
        listed = ", ".join(f"{choice} {value}" for choice, value in self.values)
        if not self.removed:
            return f"{self.criterion}: {listed}; all equal, nothing removed"
        best = max(value for _, value in self.values)
        return f"{self.criterion}: {listed}; removed {', '.join(self.removed)} (fewer than {best})"


@dataclass(frozen=True)
class BordaResult:
    """A Borda Count, every step published.

    ``ratings`` and ``places`` (votes for first, second, ... place) are in
    the election's choice order; ``steps`` are the Choice Pool removals in
    order, up to the one that left a single choice.
    """

    choices: tuple[Choice, ...]
    votes_cast: int
    ratings: tuple[tuple[Choice, int], ...]
    places: tuple[tuple[Choice, tuple[int, ...]], ...]
    steps: tuple[PoolStep, ...]
    selection: Selection

    def rating_of(self, choice: Choice) -> int:
        return dict(self.ratings)[choice]

    def explain(self) -> tuple[str, ...]:
        """Lines for the ruling, in the order rule 1823 C.1 takes the steps."""
        size = len(self.choices)
        header = (
            f"Borda Count (rule {RULE}): {self.votes_cast} votes, {size} choices; "
            f"approval rating = {self.votes_cast}*{size} - sum of ranks"
        )
        lines = [header] + [step.describe() for step in self.steps]
        if self.selection.draw is not None:
            lines.append(self.selection.draw.describe())
        return (*lines, self.selection.describe())


def tally_borda(
    votes: Sequence[RankedVote], choices: Sequence[Choice], source: ChoiceSource
) -> BordaResult:
    """Select one of ``choices`` by the Borda Count; ``source`` is drawn from only on a full tie.

    Raises ``ValueError`` for no choices or a vote that does not rank exactly
    ``choices`` (defects: votes are judged when cast).
    """
    if not choices:
        raise ValueError("a Borda Count needs at least one choice")
    check_ranked_votes(votes, choices)
    ratings = approval_ratings(votes, choices)
    places = place_counts(votes, choices)
    steps = choice_pool_steps(choices, ratings, places)
    return BordaResult(
        choices=tuple(choices),
        votes_cast=len(votes),
        ratings=tuple(ratings.items()),
        places=tuple(places.items()),
        steps=steps,
        selection=select_from_pool(choices, steps, source),
    )


def approval_ratings(votes: Sequence[RankedVote], choices: Sequence[Choice]) -> dict[Choice, int]:
    """x*n - m for each choice, exactly as rule 1823 C.1 writes it."""
    cast, size = len(votes), len(choices)
    rank_sums = dict.fromkeys(choices, 0)
    for vote in votes:
        for index, choice in enumerate(vote.ranking):
            rank_sums[choice] += index + 1
    return {choice: cast * size - rank_sum for choice, rank_sum in rank_sums.items()}


def choice_pool_steps(
    choices: Sequence[Choice],
    ratings: dict[Choice, int],
    places: dict[Choice, tuple[int, ...]],
) -> tuple[PoolStep, ...]:
    """The removals, stopping as soon as one choice remains."""
    criteria = [("approval rating", ratings)] + [
        (f"{ordinal(place + 1)} places", {choice: row[place] for choice, row in places.items()})
        for place in range(len(choices))
    ]
    pool = tuple(choices)
    steps: list[PoolStep] = []
    for criterion, values in criteria:
        if len(pool) == 1:
            break
        steps.append(removal_step(criterion, {choice: values[choice] for choice in pool}))
        pool = steps[-1].remaining
    return tuple(steps)


def removal_step(criterion: str, values: dict[Choice, int]) -> PoolStep:
    kept, removed = keep_best(values)
    return PoolStep(criterion, tuple(values.items()), tuple(removed), tuple(kept))


def select_from_pool(
    choices: Sequence[Choice], steps: tuple[PoolStep, ...], source: ChoiceSource
) -> Selection:
    """The last choice in the Pool, or a random one when several survive every step."""
    winner_set = steps[0].remaining if steps else tuple(choices)
    pool = steps[-1].remaining if steps else tuple(choices)
    if len(winner_set) == 1:
        return Selection(RULE, winner_set, winner_set[0], SelectedBy.SOLE_LEADER)
    if len(pool) == 1:
        return Selection(RULE, winner_set, pool[0], SelectedBy.PLACE_TIE_BREAK)
    # Rule 1823 C.1: "a choice is selected at random from the Choice Pool" (equally, rule 9).
    draw = draw_from(pool, f"rule {RULE} Borda Count, Choice Pool", source)
    return Selection(RULE, winner_set, draw.chosen, SelectedBy.RANDOM_DRAW, draw)


def ordinal(number: int) -> str:
    """``first`` ... ``eighth``, then ``9th``, ``11th``, ``21st``, ..."""
    if number <= len(ORDINALS):
        return ORDINALS[number - 1]
    if number % 100 in (11, 12, 13):
        return f"{number}th"
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"
