"""Elections' Selection Methods (B Nomic rule 1823 C, seed 004), pure.

Standard library only (plus ``bot.games.errors``).  Arithmetic is exact
(ints and ``Fraction``); randomness comes only from an injected recorded
source (``ChoiceSource``, the shape of ``bot.games.dice.DrawSource``).  Every
result explains itself line by line so the bot can publish it.

* ``methods``: the three methods, the Borda default, ``method_named``.
* ``votes``: what a legal vote is under each method; the last vote counts.
* ``positional``: exact place counts and positional scores.
* ``borda``, ``approval``, ``irv``: the tallies (C.1, C.2, C.3).
* ``selection``: the outcome, the Moderator's pick, the recorded-draw default.
* ``tallies``: ``tally_election`` and settling a tie left to the Moderator.
"""

from bot.games.governance.elections.approval import ApprovalResult, tally_approval
from bot.games.governance.elections.borda import BordaResult, PoolStep, tally_borda
from bot.games.governance.elections.draws import ChoiceSource, TieDraw
from bot.games.governance.elections.irv import IrvResult, IrvRound, tally_irv
from bot.games.governance.elections.methods import (
    DEFAULT_METHOD,
    Choice,
    SelectionMethod,
    method_named,
)
from bot.games.governance.elections.positional import place_counts, positional_scores
from bot.games.governance.elections.selection import (
    ModeratorDefault,
    SelectedBy,
    Selection,
    pick_by_draw,
    pick_by_moderator,
)
from bot.games.governance.elections.tallies import (
    ElectionResult,
    moderator_picks,
    settle_by_default,
    tally_election,
)
from bot.games.governance.elections.votes import (
    ApprovalVote,
    CastVote,
    RankedVote,
    Vote,
    VoterId,
    actual_votes,
    read_approval_vote,
    read_numbered_vote,
    read_ranked_vote,
    read_vote,
)

__all__ = [
    "DEFAULT_METHOD",
    "ApprovalResult",
    "ApprovalVote",
    "BordaResult",
    "CastVote",
    "Choice",
    "ChoiceSource",
    "ElectionResult",
    "IrvResult",
    "IrvRound",
    "ModeratorDefault",
    "PoolStep",
    "RankedVote",
    "SelectedBy",
    "Selection",
    "SelectionMethod",
    "TieDraw",
    "Vote",
    "VoterId",
    "actual_votes",
    "method_named",
    "moderator_picks",
    "pick_by_draw",
    "pick_by_moderator",
    "place_counts",
    "positional_scores",
    "read_approval_vote",
    "read_numbered_vote",
    "read_ranked_vote",
    "read_vote",
    "settle_by_default",
    "tally_approval",
    "tally_borda",
    "tally_election",
    "tally_irv",
]
