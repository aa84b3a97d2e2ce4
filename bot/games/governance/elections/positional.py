"""Exact tally primitives over ranked votes: place counts and positional scores.

Everything is an ``int`` or a ``Fraction``: a tie the rules see must stay a
tie however the votes are summed (float sums depend on their order).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from fractions import Fraction

from bot.games.governance.elections.methods import Choice
from bot.games.governance.elections.votes import RankedVote

PlaceWeight = Callable[[int, int], Fraction]
"""Points for being ranked at ``place`` (1 is first) among ``n`` choices."""


def check_ranked_votes(votes: Sequence[RankedVote], choices: Sequence[Choice]) -> None:
    """Raises ``ValueError`` when a vote does not rank exactly ``choices``.

    Votes are judged legal when cast (``read_ranked_vote``), so a bad vote
    reaching a tally is a defect in the caller, not a ruling.
    """
    if len(set(choices)) != len(choices):
        raise ValueError(f"the choices repeat: {list(choices)}")
    for vote in votes:
        if sorted(vote.ranking) != sorted(choices):
            raise ValueError(f"the vote {list(vote.ranking)} does not rank {list(choices)}")


def place_counts(
    votes: Sequence[RankedVote], choices: Sequence[Choice]
) -> dict[Choice, tuple[int, ...]]:
    """For each choice, how many votes put it first, second, ..., n-th."""
    counts = {choice: [0] * len(choices) for choice in choices}
    for vote in votes:
        for index, choice in enumerate(vote.ranking):
            counts[choice][index] += 1
    return {choice: tuple(row) for choice, row in counts.items()}


def positional_scores(
    votes: Sequence[RankedVote], choices: Sequence[Choice], weight: PlaceWeight
) -> dict[Choice, Fraction]:
    """Each choice's total of ``weight(place, n)`` over all votes, exactly."""
    size = len(choices)
    scores = {choice: Fraction(0) for choice in choices}
    for vote in votes:
        for index, choice in enumerate(vote.ranking):
            scores[choice] += weight(index + 1, size)
    return scores


def borda_weight(place: int, size: int) -> Fraction:
    """n - place: rule 1823 C.1's x*n - m is the sum of this over the votes."""
    return Fraction(size - place)


def top_choice_counts(
    votes: Sequence[RankedVote], remaining: Collection[Choice]
) -> dict[Choice, int]:
    """For each remaining choice, on how many votes it ranks highest among ``remaining``."""
    counts = dict.fromkeys(remaining, 0)
    for vote in votes:
        highest = next((choice for choice in vote.ranking if choice in counts), None)
        if highest is not None:
            counts[highest] += 1
    return counts


def keep_best(values: dict[Choice, int]) -> tuple[list[Choice], list[Choice]]:
    """``(kept, removed)``: the choices at the greatest value and the rest, in order.

    Raises ``ValueError`` for no choices at all.
    """
    best = max(values.values())
    kept = [key for key, value in values.items() if value == best]
    removed = [key for key, value in values.items() if value != best]
    return kept, removed
