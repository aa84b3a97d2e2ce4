"""Casting a vote on a Poll: eligibility, the Duration, Strict and Concealable (rule 15).

Strict (rule 15 B): "each Voter gets exactly one Vote; this sentence takes
precedence over any rule other than Rule 33 that would allow players to cast
multiple votes on a Poll."  Read here as: on a Strict poll a voter's first
vote is final, and a second one is rejected rather than replacing it.  The
body of rule 15 is what allows submitting "more than one vote" (the last
counting), and rule 33 says the later section of a rule prevails over the
earlier one, so section B's Strict overrides it.  Every vote already weighs
one, since no rule in seed 004 gives anyone extra votes.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from bot.games.errors import IllegalActionError
from bot.games.governance.polls.conclusion import concluded_at
from bot.games.governance.polls.poll import CastVote, Flag, Poll, VoterId
from bot.games.governance.polls.votes import Vote
from bot.games.ntime import require_utc


def cast_vote(
    poll: Poll, voter: VoterId, vote: Vote, cast_at: datetime, *, private: bool = False
) -> Poll:
    """``poll`` with ``voter``'s ``vote`` added, sent privately if ``private``.

    Raises ``IllegalActionError`` when ``voter`` is not an Eligible Voter,
    the poll has Concluded by ``cast_at``, a Strict poll already has the
    voter's vote, or a private vote is sent on a poll that is not
    Concealable.  Raises ``ValueError`` (a defect in the caller) for a vote
    before the poll was called, out of order, or for a choice the poll does
    not offer.
    """
    check_order(poll, vote, require_utc(cast_at, "cast_at"))
    check_voter(poll, voter, cast_at)
    check_privacy(poll, private)
    cast = CastVote(voter=voter, vote=vote, cast_at=cast_at, private=private)
    return replace(poll, votes=(*poll.votes, cast))


def check_order(poll: Poll, vote: Vote, cast_at: datetime) -> None:
    """Raise ``ValueError`` for votes the engine should never hand over."""
    if cast_at < poll.called_at:
        raise ValueError(f"vote at {cast_at.isoformat()} before the poll was called")
    if poll.votes and cast_at < poll.votes[-1].cast_at:
        raise ValueError(f"vote at {cast_at.isoformat()} is earlier than the last vote")
    if vote.choice not in poll.options.choices:
        raise ValueError(f"{vote.choice.value} is not offered; read it with the poll's options")


def check_voter(poll: Poll, voter: VoterId, cast_at: datetime) -> None:
    """Raise ``IllegalActionError`` if ``voter`` may not vote on ``poll`` at ``cast_at``.

    The reasons speak to the voter ("you"): the engine's voter ids are not
    the names a player reads.
    """
    if voter not in poll.eligible_voters:
        raise IllegalActionError(
            f"you are not an Eligible Voter on the poll on {poll.issue!r}", rule="15"
        )
    closed = concluded_at(poll, cast_at)
    if closed is not None:
        raise IllegalActionError(
            f"the poll on {poll.issue!r} Concluded at {closed.isoformat()}; "
            f"the vote at {cast_at.isoformat()} is too late",
            rule="15 A",
        )
    if poll.has(Flag.STRICT) and any(cast.voter == voter for cast in poll.votes):
        raise IllegalActionError(
            f"the poll on {poll.issue!r} is Strict: you have already voted "
            "and each Voter gets exactly one Vote",
            rule="15 B",
        )


def check_privacy(poll: Poll, private: bool) -> None:
    """Raise ``IllegalActionError`` for a private vote on a poll that is not Concealable.

    Rule 15 B lets votes be "sent to the Chairman privately" only on a
    Concealable poll; rule 16 otherwise requires actions in a public forum.
    """
    if private and not poll.has(Flag.CONCEALABLE):
        raise IllegalActionError(
            f"the poll on {poll.issue!r} is not Concealable: vote in a public forum",
            rule="15 B",
        )
