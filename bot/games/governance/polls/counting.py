"""Counting a Poll: the tally, Passed or Failed, the legislative veto, and VBW (rule 15).

Rule 15: "The Issue is said to have Passed if more Yes votes than No votes
were cast on the Poll; otherwise, it Fails."  Rule 15 B (Democratic): "the
Issue Fails if at least half of all active players (as defined at the start
of voting) vote against it."
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from bot.games.governance.polls.poll import CastVote, Poll, VoterId, current_votes
from bot.games.governance.polls.votes import Choice


class Outcome(Enum):
    """How the Issue is resolved (rule 15)."""

    PASSED = "Passed"
    FAILED = "Failed"


@dataclass(frozen=True)
class Tally:
    """How many actual votes (the last of each voter) counted as each choice."""

    yes: int = 0
    no: int = 0
    abstain: int = 0
    refused: int = 0

    @property
    def voters(self) -> int:
        return self.yes + self.no + self.abstain + self.refused


def tally_votes(votes: Iterable[CastVote]) -> Tally:
    """The tally of the voters' actual votes among ``votes`` (last vote counts)."""
    counts = dict.fromkeys(Choice, 0)
    for cast in current_votes(votes):
        counts[cast.vote.choice] += 1
    return Tally(
        yes=counts[Choice.YES],
        no=counts[Choice.NO],
        abstain=counts[Choice.ABSTAIN],
        refused=counts[Choice.REFUSED],
    )


def votes_against_from(votes: Iterable[CastVote], electorate: frozenset[VoterId]) -> int:
    """How many members of ``electorate`` actually voted No."""
    return sum(
        1
        for cast in current_votes(votes)
        if cast.voter in electorate and cast.vote.choice is Choice.NO
    )


def is_vetoed(votes_against: int, active_players: int) -> bool:
    """Rule 15 B's legislative veto: at least half of all active players voted against.

    Exact integer form of "at least half": 2 * against >= active.  The veto
    needs at least one vote against: with no active players nobody "votes
    against it", so an empty electorate does not veto every Issue.
    """
    return votes_against > 0 and 2 * votes_against >= active_players


def decide(tally: Tally, vetoed: bool) -> Outcome:
    """Passed when more Yes than No votes were cast and no veto applies (rule 15)."""
    return Outcome.PASSED if tally.yes > tally.no and not vetoed else Outcome.FAILED


def legislative_veto(poll: Poll, votes: Iterable[CastVote]) -> bool:
    """Whether ``votes`` on ``poll`` meet the Democratic veto (False if not Democratic)."""
    if poll.active_players is None:
        return False
    against = votes_against_from(votes, poll.active_players)
    return is_vetoed(against, len(poll.active_players))


def outcome_of(poll: Poll, votes: Iterable[CastVote]) -> Outcome:
    """The outcome ``poll`` would have if ``votes`` were all the votes cast on it."""
    listed = tuple(votes)
    return decide(tally_votes(listed), legislative_veto(poll, listed))
