"""One entry point for the engine: tally an Election's votes by its Selection Method,
then settle a tie left to the Moderator (rule 1823 C.2, C.3).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TypeVar

from bot.games.governance.elections.approval import ApprovalResult, tally_approval
from bot.games.governance.elections.borda import BordaResult, tally_borda
from bot.games.governance.elections.draws import ChoiceSource
from bot.games.governance.elections.irv import IrvResult, tally_irv
from bot.games.governance.elections.methods import Choice, SelectionMethod
from bot.games.governance.elections.selection import (
    ModeratorDefault,
    pick_by_draw,
    pick_by_moderator,
)
from bot.games.governance.elections.votes import ApprovalVote, RankedVote, Vote

ElectionResult = BordaResult | ApprovalResult | IrvResult
# Bound, not constrained, so the union ``tally_election`` returns is accepted too.
ResultT = TypeVar("ResultT", bound=ElectionResult)


def tally_election(
    method: SelectionMethod,
    votes: Sequence[Vote],
    choices: Sequence[Choice],
    source: ChoiceSource,
) -> ElectionResult:
    """Tally the actual votes by ``method``; ``source`` is drawn from only for a Borda full tie.

    Raises ``ValueError`` when a vote is of the wrong kind for ``method`` or
    does not fit ``choices`` (defects: votes are judged when cast).
    """
    if method is SelectionMethod.APPROVAL_VOTING:
        return tally_approval([approval_vote(vote) for vote in votes], choices)
    ranked = [ranked_vote(vote) for vote in votes]
    if method is SelectionMethod.INSTANT_RUNOFF:
        return tally_irv(ranked, choices)
    return tally_borda(ranked, choices, source)


def moderator_picks(result: ResultT, pick: Choice) -> ResultT:
    """``result`` with the Moderator's ``pick`` among the tied choices.

    Raises ``IllegalActionError`` when no pick is awaited or ``pick`` was not tied.
    """
    return replace(result, selection=pick_by_moderator(result.selection, pick))


def settle_by_default(result: ResultT, policy: ModeratorDefault, source: ChoiceSource) -> ResultT:
    """``result`` as the configured ``policy`` leaves it when the Moderator's pick is awaited.

    ``ASK_MODERATOR`` leaves it pending (the engine mails the Moderator);
    ``RECORDED_DRAW`` draws among the tied choices.  A decided result is returned as is.
    """
    if not result.selection.needs_moderator or policy is ModeratorDefault.ASK_MODERATOR:
        return result
    return replace(result, selection=pick_by_draw(result.selection, source))


def approval_vote(vote: Vote) -> ApprovalVote:
    if not isinstance(vote, ApprovalVote):
        raise ValueError(f"an Approval Voting election was given a ranked vote {vote!r}")
    return vote


def ranked_vote(vote: Vote) -> RankedVote:
    if not isinstance(vote, RankedVote):
        raise ValueError(f"a ranked election was given an Approval vote {vote!r}")
    return vote
