"""A Poll's result, and what may be published of it: Concealable votes (rule 15 B).

Concealable: "votes may be sent to the Chairman privately; when the Duration
Concludes, the Chairman must post publicly the private votes."  Until then
``public_view`` holds back every vote sent privately: a voter whose actual
vote is private is left out of the listed votes and the tally, even if an
earlier public vote of eirs is superseded by it (showing the stale public
vote would misreport the count; showing it changed would hint at the private
one).  Only the number of votes held back is shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.games.governance.polls.conclusion import concluded_at
from bot.games.governance.polls.counting import (
    Outcome,
    Tally,
    decide,
    legislative_veto,
    tally_votes,
)
from bot.games.governance.polls.poll import CastVote, Poll, current_votes


@dataclass(frozen=True)
class PollResult:
    """A Concluded poll: when, the tally, the outcome, and every vote now public.

    ``vetoed`` is True when the Democratic legislative veto was met (the
    outcome is then Failed).  ``votes`` are the actual votes in the order
    cast; ``private_votes`` are all votes that were sent privately, in order,
    superseded ones included, which rule 15 B has posted at Conclusion.
    """

    concluded_at: datetime
    tally: Tally
    outcome: Outcome
    vetoed: bool
    votes: tuple[CastVote, ...]
    private_votes: tuple[CastVote, ...]


@dataclass(frozen=True)
class PublicView:
    """What may be posted about a poll at one instant.

    ``withheld`` counts actual votes held back because they were sent
    privately and the poll has not Concluded; it is 0 once it has.
    """

    concluded: bool
    votes: tuple[CastVote, ...]
    tally: Tally
    withheld: int
    private_votes: tuple[CastVote, ...]


def conclude(poll: Poll, now: datetime) -> PollResult:
    """The result of ``poll``, which must have Concluded by ``now``.

    Raises ``ValueError`` while the poll is open: asking for the result of an
    open poll is a defect in the caller (check ``concluded_at`` first).
    """
    instant = concluded_at(poll, now)
    if instant is None:
        raise ValueError(f"the poll on {poll.issue!r} has not Concluded at {now.isoformat()}")
    tally = tally_votes(poll.votes)
    vetoed = legislative_veto(poll, poll.votes)
    return PollResult(
        concluded_at=instant,
        tally=tally,
        outcome=decide(tally, vetoed),
        vetoed=vetoed,
        votes=current_votes(poll.votes),
        private_votes=tuple(cast for cast in poll.votes if cast.private),
    )


def public_view(poll: Poll, now: datetime) -> PublicView:
    """What may be published of ``poll`` at ``now``: never a private vote before Conclusion."""
    actual = current_votes(cast for cast in poll.votes if cast.cast_at <= now)
    if concluded_at(poll, now) is not None:
        private = tuple(cast for cast in poll.votes if cast.private)
        return PublicView(True, actual, tally_votes(actual), 0, private)
    shown = tuple(cast for cast in actual if not cast.private)
    return PublicView(False, shown, tally_votes(shown), len(actual) - len(shown), ())
