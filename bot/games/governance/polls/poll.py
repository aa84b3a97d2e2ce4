"""The Poll value: Eligible Voters, Duration, Issue, flags and the votes cast (rule 15).

A ``Poll`` is immutable and keeps every vote in the order cast, public and
private alike; who is counted ("the *last* one submitted is their actual
vote") is derived by ``current_votes``.  Casting is in ``voting``, deciding
when the Duration Concludes in ``conclusion``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from enum import Enum

from bot.games.governance.polls.durations import Duration
from bot.games.governance.polls.votes import STANDARD_OPTIONS, Vote, VoteOptions
from bot.games.ntime import require_utc

# Rule 15: voters are "Game Objects", not only players.
VoterId = str


class Flag(Enum):
    """Rule 15 B's optional flags."""

    SHORT_CIRCUITED = "Short-Circuited"
    VERY_BADLY_WIRED = "Very Badly Wired"
    STRICT = "Strict"
    CONCEALABLE = "Concealable"
    DEMOCRATIC = "Democratic"


@dataclass(frozen=True)
class CastVote:
    """One vote as submitted: who, what, when, and whether it was sent privately."""

    voter: VoterId
    vote: Vote
    cast_at: datetime
    private: bool = False


@dataclass(frozen=True)
class Poll:
    """A Poll (rule 15): call it with ``call_poll``, vote with ``cast_vote``.

    ``active_players`` is the Democratic poll's electorate for the
    legislative veto, "all active players (as defined at the start of
    voting)" (rule 15 B); it is None on a poll that is not Democratic.
    """

    issue: str
    eligible_voters: frozenset[VoterId]
    duration: Duration
    called_at: datetime
    flags: frozenset[Flag] = frozenset()
    options: VoteOptions = STANDARD_OPTIONS
    active_players: frozenset[VoterId] | None = None
    votes: tuple[CastVote, ...] = ()

    def __post_init__(self) -> None:
        require_utc(self.called_at, "called_at")
        if (Flag.DEMOCRATIC in self.flags) != (self.active_players is not None):
            raise ValueError("a Democratic poll needs active_players, and only it has them")

    def has(self, flag: Flag) -> bool:
        return flag in self.flags


def call_poll(
    issue: str,
    eligible_voters: Iterable[VoterId],
    duration: Duration,
    called_at: datetime,
    *,
    flags: Iterable[Flag] = (),
    options: VoteOptions = STANDARD_OPTIONS,
    active_players: Iterable[VoterId] | None = None,
) -> Poll:
    """A new Poll with no votes.

    Rule 15's defaults are the caller's to apply, since they need the game
    state: no Eligible Voters given means all Players; no Duration given
    means an ``NtimePoint`` at the end of the current nweek.  Raises
    ``ValueError`` for a Democratic poll without ``active_players``.
    """
    return Poll(
        issue=issue,
        eligible_voters=frozenset(eligible_voters),
        duration=duration,
        called_at=called_at,
        flags=frozenset(flags),
        options=options,
        active_players=None if active_players is None else frozenset(active_players),
    )


def current_votes(votes: Iterable[CastVote]) -> tuple[CastVote, ...]:
    """Each voter's actual vote: "the *last* one submitted" (rule 15), in order cast."""
    latest: dict[VoterId, CastVote] = {}
    for cast in votes:
        latest.pop(cast.voter, None)  # re-inserted so the order is that of the last votes
        latest[cast.voter] = cast
    return tuple(latest.values())
