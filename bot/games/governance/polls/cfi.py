"""Calls For Inquiry (CFIs): the document, its poll, the ruling and the rewards (rule 125).

Rule 125: a CFI consists of "a Title, a Plaintiff, a Defendant (optionally),
a Plantiff's Argument, a Defendant's Argument (optional), and a Resolution
(which is a list of changes to the game state)".  Its poll's "Eligible Voters
are all Players that are not On Leave as of the creation of the Poll and are
also not the CFI's Plaintiff or Defendant.  Its duration is until the 4th
Midnight UTC that occurs after the Poll was created.  The Poll is
Short-Circuited and Strict."  Rule 3 B: CFI actions happen when they reach
the forum "regardless of the state of the Clock", and the deadline is in
real time, so no ntime is involved.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, time, timedelta
from enum import Enum

from bot.games.errors import IllegalActionError
from bot.games.governance.polls.conclusion import concluded_at, is_open
from bot.games.governance.polls.counting import Tally, tally_votes
from bot.games.governance.polls.durations import RealTimePoint
from bot.games.governance.polls.poll import Flag, Poll, VoterId, call_poll, current_votes
from bot.games.governance.polls.votes import CFI_OPTIONS, Choice, read_vote
from bot.games.governance.polls.voting import cast_vote
from bot.games.ntime import require_utc

MIDNIGHTS_TO_DEADLINE = 4
REWARD_TILDEX = 5
REWARD_TEMPORARY_WISDOM = 1


class Ruling(Enum):
    """The three rulings of rule 125."""

    IN_FAVOR = "In Favor of the Plaintiff"
    AGAINST = "Against the Plaintiff"
    REFUSED = "Refused"


@dataclass(frozen=True)
class Cfi:
    """A submitted CFI with its poll.  ``resolution`` is the list of changes, one per item."""

    title: str
    plaintiff: VoterId
    argument: str
    resolution: tuple[str, ...]
    poll: Poll
    defendant: VoterId | None = None
    defendant_argument: str | None = None


@dataclass(frozen=True)
class Reward:
    """What rule 125 gives one voter "who voted something besides Abstain"."""

    player: VoterId
    tildex: int = REWARD_TILDEX
    temporary_wisdom: int = REWARD_TEMPORARY_WISDOM


@dataclass(frozen=True)
class CfiRuling:
    """A CFI's ruling at the conclusion of its poll.

    ``changes_to_implement`` is the Resolution when ruled In Favor of the
    Plaintiff ("the list of changes in the Resolution part of the CFI
    occur") and empty otherwise; rewards are paid "regardless of the ruling".
    """

    ruling: Ruling
    tally: Tally
    concluded_at: datetime
    rewards: tuple[Reward, ...]
    changes_to_implement: tuple[str, ...]


def cfi_deadline(created_at: datetime) -> datetime:
    """The 4th Midnight UTC that occurs after ``created_at`` (rule 125).

    "After" is strict: a CFI created at exactly 00:00:00 UTC does not count
    that midnight, so in every case it is midnight at the start of the day
    four days after the UTC date of creation.
    """
    creation_day = require_utc(created_at, "created_at").date()
    return datetime.combine(creation_day, time(0), UTC) + timedelta(days=MIDNIGHTS_TO_DEADLINE)


def cfi_eligible_voters(
    players_off_leave: Iterable[VoterId], plaintiff: VoterId, defendant: VoterId | None
) -> frozenset[VoterId]:
    """Players not On Leave at the poll's creation, less the Plaintiff and the Defendant."""
    return frozenset(players_off_leave) - {plaintiff, defendant}


def submit_cfi(
    title: str,
    plaintiff: VoterId,
    argument: str,
    resolution: Sequence[str],
    created_at: datetime,
    players_off_leave: Iterable[VoterId],
    *,
    defendant: VoterId | None = None,
) -> Cfi:
    """A CFI submitted by ``plaintiff``, with its Short-Circuited, Strict poll (rule 125).

    ``players_off_leave`` are the Players not On Leave as of ``created_at``
    (the submitter among them: taking a game action puts em Off Leave, rule
    205).  That the submitter is a Player is the caller's check.
    """
    poll = call_poll(
        issue=title,
        eligible_voters=cfi_eligible_voters(players_off_leave, plaintiff, defendant),
        duration=RealTimePoint(cfi_deadline(created_at)),
        called_at=created_at,
        flags=(Flag.SHORT_CIRCUITED, Flag.STRICT),
        options=CFI_OPTIONS,
    )
    return Cfi(title, plaintiff, argument, tuple(resolution), poll, defendant=defendant)


def vote_on_cfi(cfi: Cfi, voter: VoterId, text: str, cast_at: datetime) -> Cfi:
    """``cfi`` with ``voter``'s vote ``text`` (Refused, True and False allowed) cast.

    Raises ``IllegalActionError`` as ``cast_vote`` does: not eligible, too
    late, or a second vote on this Strict poll.
    """
    poll = cast_vote(cfi.poll, voter, read_vote(text, CFI_OPTIONS), cast_at)
    return replace(cfi, poll=poll)


def submit_defendant_argument(
    cfi: Cfi, author: VoterId, argument: str, submitted_at: datetime
) -> Cfi:
    """``cfi`` with the Defendant's Argument set (rule 125).

    "The Defendant may Submit an Argument between the creation of the CFI
    and the closing of its Poll"; a later submission replaces an earlier
    one.  Raises ``IllegalActionError`` if ``author`` is not the Defendant
    or the poll is closed at ``submitted_at``.
    """
    if cfi.defendant is None or author != cfi.defendant:
        raise IllegalActionError(
            f"only the Defendant may argue on CFI {cfi.title!r}, and {author} is not", rule="125"
        )
    if not is_open(cfi.poll, require_utc(submitted_at, "submitted_at")):
        raise IllegalActionError(f"the poll on CFI {cfi.title!r} has closed", rule="125")
    return replace(cfi, defendant_argument=argument)


def ruling_for(tally: Tally) -> Ruling:
    """Rule 125's sums, strict inequalities; every tie falls to "Otherwise": Refused.

    In Favor: "more Yes votes than the sum of No and Refused votes".  Against:
    "more No votes than the sum of the Yes and Refused votes".  At most one
    holds (each would need more than half of the non-Abstain votes).
    """
    if tally.yes > tally.no + tally.refused:
        return Ruling.IN_FAVOR
    if tally.no > tally.yes + tally.refused:
        return Ruling.AGAINST
    return Ruling.REFUSED


def rewards_for(cfi: Cfi) -> tuple[Reward, ...]:
    """A Reward for each voter whose actual vote is not Abstain, in the order cast.

    An unclear vote was read as Abstain (rule 15), so it earns nothing.
    """
    actual = current_votes(cfi.poll.votes)
    return tuple(Reward(cast.voter) for cast in actual if cast.vote.choice is not Choice.ABSTAIN)


def rule_on_cfi(cfi: Cfi, now: datetime) -> CfiRuling:
    """The ruling on ``cfi``, whose poll must have Concluded by ``now``.

    Raises ``ValueError`` while the poll is open (a defect in the caller).
    """
    instant = concluded_at(cfi.poll, now)
    if instant is None:
        raise ValueError(f"the poll on CFI {cfi.title!r} is still open at {now.isoformat()}")
    tally = tally_votes(cfi.poll.votes)
    ruling = ruling_for(tally)
    changes = cfi.resolution if ruling is Ruling.IN_FAVOR else ()
    return CfiRuling(ruling, tally, instant, rewards_for(cfi), changes)
