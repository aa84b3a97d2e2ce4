"""Approval Voting (rule 1823 C.2, seed 004).

"The choice selected by the Election is whichever choice appeared on the
greatest number of Eligible voters' votes; in the event of a tie, the
Moderator picks one of the tied choices to be selected."  The votes handed
in are the Eligible voters' actual votes (``votes.actual_votes``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.games.governance.elections.methods import Choice
from bot.games.governance.elections.positional import keep_best
from bot.games.governance.elections.selection import Selection, leader_selection
from bot.games.governance.elections.votes import ApprovalVote

RULE = "1823 C.2"


@dataclass(frozen=True)
class ApprovalResult:
    """How many votes each choice appeared on, in choice order, and the Selection."""

    choices: tuple[Choice, ...]
    votes_cast: int
    counts: tuple[tuple[Choice, int], ...]
    selection: Selection

    def explain(self) -> tuple[str, ...]:
        listed = ", ".join(f"{choice} {count}" for choice, count in self.counts)
        header = f"Approval Voting (rule {RULE}): {self.votes_cast} votes; appeared on: {listed}"
        lines = [header]
        if self.selection.draw is not None:
            lines.append(self.selection.draw.describe())
        return (*lines, self.selection.describe())


def tally_approval(votes: Sequence[ApprovalVote], choices: Sequence[Choice]) -> ApprovalResult:
    """Count the votes; a tie at the top is left to the Moderator (``needs_moderator``).

    Raises ``ValueError`` for no choices, repeated choices or a vote listing
    something that is not a choice (defects: votes are judged when cast).
    """
    counts = approval_counts(votes, choices)
    leaders, _ = keep_best(counts)
    return ApprovalResult(
        choices=tuple(choices),
        votes_cast=len(votes),
        counts=tuple(counts.items()),
        selection=leader_selection(RULE, tuple(leaders)),
    )


def approval_counts(votes: Sequence[ApprovalVote], choices: Sequence[Choice]) -> dict[Choice, int]:
    """On how many votes each choice appears."""
    if not choices or len(set(choices)) != len(choices):
        raise ValueError(f"an Approval election needs distinct choices, not {list(choices)}")
    counts = dict.fromkeys(choices, 0)
    for vote in votes:
        for choice in set(vote.approved):
            if choice not in counts:
                raise ValueError(f"the vote {list(vote.approved)} lists {choice!r}, not a choice")
            counts[choice] += 1
    return counts
