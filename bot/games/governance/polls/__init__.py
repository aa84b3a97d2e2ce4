"""Polls (B Nomic rule 15, seed 004) and the CFIs decided by them (rule 125), pure.

Standard library only (plus ``bot.games.errors`` and ``bot.games.ntime``'s
UTC check).  The engine holds the clock: every function takes the instants it
needs, and ntime Durations arrive already resolved to UTC instants.

* ``votes``: ``read_vote`` and the obvious variants of Yes/No/Abstain.
* ``durations``: rule 15 A's kinds of Duration.
* ``poll``: the ``Poll`` value and ``call_poll``; ``voting``: ``cast_vote``.
* ``counting``: the tally, Passed/Failed, the legislative veto.
* ``conclusion``: ``concluded_at``, Short-Circuited and Very Badly Wired.
* ``results``: ``conclude`` and the Concealable-safe ``public_view``.
* ``cfi``: rule 125's CFI, its poll, ruling and rewards.
"""

from bot.games.governance.polls.cfi import (
    Cfi,
    CfiRuling,
    Reward,
    Ruling,
    cfi_deadline,
    cfi_eligible_voters,
    rewards_for,
    rule_on_cfi,
    ruling_for,
    submit_cfi,
    submit_defendant_argument,
    vote_on_cfi,
)
from bot.games.governance.polls.conclusion import (
    concluded_at,
    conclusion_instant,
    everyone_voted,
    is_open,
    outcome_is_settled,
)
from bot.games.governance.polls.counting import Outcome, Tally, outcome_of, tally_votes
from bot.games.governance.polls.durations import (
    Duration,
    Indeterminate,
    NtimePeriod,
    NtimePoint,
    RealTimePeriod,
    RealTimePoint,
    deadline_of,
)
from bot.games.governance.polls.poll import CastVote, Flag, Poll, VoterId, call_poll, current_votes
from bot.games.governance.polls.results import PollResult, PublicView, conclude, public_view
from bot.games.governance.polls.votes import (
    CFI_OPTIONS,
    STANDARD_OPTIONS,
    Choice,
    Vote,
    VoteOptions,
    read_vote,
)
from bot.games.governance.polls.voting import cast_vote

__all__ = [
    "CFI_OPTIONS",
    "STANDARD_OPTIONS",
    "CastVote",
    "Cfi",
    "CfiRuling",
    "Choice",
    "Duration",
    "Flag",
    "Indeterminate",
    "NtimePeriod",
    "NtimePoint",
    "Outcome",
    "Poll",
    "PollResult",
    "PublicView",
    "RealTimePeriod",
    "RealTimePoint",
    "Reward",
    "Ruling",
    "Tally",
    "Vote",
    "VoteOptions",
    "VoterId",
    "call_poll",
    "cast_vote",
    "cfi_deadline",
    "cfi_eligible_voters",
    "conclude",
    "concluded_at",
    "conclusion_instant",
    "current_votes",
    "deadline_of",
    "everyone_voted",
    "is_open",
    "outcome_is_settled",
    "outcome_of",
    "public_view",
    "read_vote",
    "rewards_for",
    "rule_on_cfi",
    "ruling_for",
    "submit_cfi",
    "submit_defendant_argument",
    "tally_votes",
    "vote_on_cfi",
]
