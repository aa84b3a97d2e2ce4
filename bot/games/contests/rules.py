"""Where each ruling of the contests rests, and the instances the rules define.

A Nomic's rules (seed 002): 336 (Challenge/Response Games, the machinery),
337 (the Similarity Game), 338 (Contests), 339 (the Poetry Contest) and 343
(Mediocrity).  Rule 336: "Each instance of a Challenge/Response Game ...
must include the following attributes: game name, Contestmaster title,
period of duration, repetitive or not (if yes, how often), and entry fee";
``ContestDefinition`` holds exactly those, and the first Contestmaster.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import timedelta
from enum import Enum

RULE_CRG = "336"  # the C/RG machinery: challenge, private answers, fees, judging
RULE_SIMILARITY = "337"
RULE_CONTESTS = "338"
RULE_POETRY = "339"
RULE_MEDIOCRITY = "343"
RULE_NO_NEGATIVE = "21 A.1"  # seed 004: no balance goes below zero

# Rule 336: "This judgement should be made in a reasonable amount of time
# [[like 2 days at most]]" (a comment, rule 8: the bot reminds, it forces nothing).
JUDGING_TIME = timedelta(days=2)


class Repetition(Enum):
    """Rule 336's "repetitive or not (if yes, how often)"."""

    NWEEKLY = "nweekly"  # 337: "repetitive: yes, nweekly"
    AT_DISCRETION = "at the discretion of the current Contestmaster"  # 339
    WHEN_FINISHED = "when finished"  # 343


class Contest(Enum):
    """The instances of rule 336 in seed 002, by the key players write."""

    SIMILARITY = "similarity"
    POETRY = "poetry"
    MEDIOCRITY = "mediocrity"


@dataclass(frozen=True)
class ContestDefinition:
    """One instance of a C/RG with rule 336's attributes."""

    contest: Contest
    game_name: str
    title: str  # the Contestmaster's title
    period: timedelta  # rule 336's "period of duration" of one challenge
    repetition: Repetition
    entry_fee: int
    first_contestmaster: str  # "" : the player who starts a game (343)
    rule: str

    @property
    def fee(self) -> int:
        """Rule 336: "(entry fee)*2 points shall be transferred from each submitting player"."""
        return self.entry_fee * 2

    def with_period(self, period: timedelta) -> ContestDefinition:
        return replace(self, period=period)

    def with_first_contestmaster(self, name: str) -> ContestDefinition:
        return replace(self, first_contestmaster=name)


# 337: "duration: until repealed" is how long the game lasts, not the period
# of a challenge; "repetitive: yes, nweekly" with "Once every nweek ... post
# a Challenge" makes each challenge's period one nweek (docs/readings.md).
SIMILARITY = ContestDefinition(
    Contest.SIMILARITY,
    "The Similarity Game",
    "Similarity Officer",
    timedelta(days=7),
    Repetition.NWEEKLY,
    2,
    "Benjamin",  # 337: "The first Contestmaster of the game is Benjamin."
    RULE_SIMILARITY,
)
# 339 gives no period either: an nweek, as the Similarity Game's, unless the
# Poet Laureate's challenge names another (docs/readings.md).
POETRY = ContestDefinition(
    Contest.POETRY,
    "The Poetry Contest",
    "A Nomic's Poet Laureate",
    timedelta(days=7),
    Repetition.AT_DISCRETION,
    2,
    "M'cachessilnath",  # 339: "The first Admin of the game is M'cachessilnath."
    RULE_POETRY,
)
# 343: "Players then have three days to respond with their quantites".
MEDIOCRITY = ContestDefinition(
    Contest.MEDIOCRITY,
    "Mediocrity sub-game",
    "the Supremely Mediocre",
    timedelta(days=3),
    Repetition.WHEN_FINISHED,
    2,
    "",  # 343: "any Player [may] start one and declare emself ContestMaster"
    RULE_MEDIOCRITY,
)
DEFINITIONS = {definition.contest: definition for definition in (SIMILARITY, POETRY, MEDIOCRITY)}

# 337: "The S.O. will publish a list containing at least three distinct items."
SIMILARITY_ITEMS = 3
# 343's recommended minimums: "(x) ... (min. 1)", "(y) ... (min 3)"; z has none.
MEDIOCRITY_MIN_LEVEL = 1
MEDIOCRITY_MIN_PLAYERS = 3
# 336: "If less than 2 answers are submitted, the game is considered finished
# with no winner."
FEWEST_ANSWERS = 2
