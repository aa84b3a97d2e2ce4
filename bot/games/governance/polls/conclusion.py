"""When a Poll's Duration Concludes: by time, Short-Circuited, or Very Badly Wired (rule 15).

A poll is open at instant ``t`` exactly when ``t`` is before the instant it
Concludes: a vote arriving at the deadline itself, or at the instant of the
vote that short-circuited the poll, is too late.  (Rule 3 B: "No two actions
may take place simultaneously", so votes are ordered and the concluding vote
comes first.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from bot.games.governance.polls.counting import decide, is_vetoed, tally_votes, votes_against_from
from bot.games.governance.polls.durations import deadline_of
from bot.games.governance.polls.poll import CastVote, Flag, Poll, VoterId
from bot.games.ntime import require_utc


def remaining_voters(poll: Poll, votes: Sequence[CastVote]) -> frozenset[VoterId]:
    """The Eligible Voters who have not cast a vote among ``votes``."""
    return poll.eligible_voters - {cast.voter for cast in votes}


def everyone_voted(poll: Poll, votes: Sequence[CastVote]) -> bool:
    """Rule 15 B Short-Circuited: "every Eligible Voter has cast a vote"."""
    return not remaining_voters(poll, votes)


def outcome_is_settled(poll: Poll, votes: Sequence[CastVote]) -> bool:
    """Rule 15 B VBW: no votes by the rest of the Voters could change the outcome.

    Exact, by the two extremes: the outcome is monotone in each remaining
    vote (a Yes never turns Passed into Failed, a No never turns Failed into
    Passed, and Abstain, Refused or no vote lie between), so it is settled
    exactly when "all the rest vote Yes" and "all the rest vote No" give the
    same outcome.  Votes already cast are taken as they stand, since the rule
    asks only about "the votes cast by the rest of the Voters".
    """
    remaining = remaining_voters(poll, votes)
    tally = tally_votes(votes)
    electorate = poll.active_players or frozenset()
    against = votes_against_from(votes, electorate)
    vetoable = poll.active_players is not None

    def veto(extra_against: int) -> bool:
        return vetoable and is_vetoed(against + extra_against, len(electorate))

    all_yes = decide(replace(tally, yes=tally.yes + len(remaining)), veto(0))
    all_no = decide(replace(tally, no=tally.no + len(remaining)), veto(len(remaining & electorate)))
    return all_yes == all_no


def concludes_early(poll: Poll, votes: Sequence[CastVote]) -> bool:
    """Whether, with ``votes`` cast, a Short-Circuited or VBW poll has Concluded."""
    if poll.has(Flag.SHORT_CIRCUITED) and everyone_voted(poll, votes):
        return True
    return poll.has(Flag.VERY_BADLY_WIRED) and outcome_is_settled(poll, votes)


def early_conclusion(poll: Poll) -> datetime | None:
    """The instant the flags made ``poll`` Conclude before its deadline, if they did.

    Checked when the poll is called (a Short-Circuited poll with no Eligible
    Voters Concludes at once: every one of them has voted) and after each vote.
    """
    if concludes_early(poll, ()):
        return poll.called_at
    for count, cast in enumerate(poll.votes, start=1):
        if concludes_early(poll, poll.votes[:count]):
            return cast.cast_at
    return None


def conclusion_instant(poll: Poll) -> datetime | None:
    """When ``poll`` Concludes on the votes it has, or None if it may stay open forever.

    The earlier of the Duration's deadline (rule 15 A) and the instant the
    Short-Circuited or VBW flag concluded it (rule 15 B).
    """
    instants = [deadline_of(poll.duration, poll.called_at), early_conclusion(poll)]
    known = [instant for instant in instants if instant is not None]
    return min(known, default=None)


def concluded_at(poll: Poll, now: datetime) -> datetime | None:
    """When ``poll`` Concluded, if it had by ``now``; None while it is still open."""
    require_utc(now, "now")
    instant = conclusion_instant(poll)
    return instant if instant is not None and instant <= now else None


def is_open(poll: Poll, at: datetime) -> bool:
    """Whether votes can still be cast on ``poll`` at instant ``at``."""
    return at >= poll.called_at and concluded_at(poll, at) is None
