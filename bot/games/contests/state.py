"""The contests' state: immutable values, replaced by each action.

``ContestsState`` holds, per contest of seed 002, its Contestmaster (the
"line of Contestmasters" is the challenges' own record), its challenges,
and for Mediocrity (rule 343) its games.  Players are named as the rules'
messages name them; answers keep their arrival time (rule 336: "a
time-stampable medium") and their content, or ``None`` while the content is
sealed in the archive (a replay that has met the commitment and not yet
the reveal).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import Enum

from bot.games.contests.rules import Contest

PlayerId = str


class Status(Enum):
    OPEN = "open"  # answers accepted until the deadline
    JUDGING = "judging"  # the period is over; the Contestmaster judges (336)
    FINISHED = "finished"


@dataclass(frozen=True)
class Answer:
    """One player's answer to one challenge (336: "up to one complete answer")."""

    player: PlayerId
    received_at: datetime
    content: str | None  # None: sealed (its commitment seen, its reveal not yet)
    fee: int  # the points taken from the player as its entry fee
    commitment: str = ""
    nonce: str | None = None
    incomplete: bool = False  # "Partial or incomplete answers (as determined by the Contestmaster)"
    # The name the commitment hashed (a rename, rule 151, changes ``player`` only).
    committed_as: str = ""

    @property
    def submitted(self) -> bool:
        """Rule 336: partial or incomplete answers "are not considered submissions"."""
        return not self.incomplete


@dataclass(frozen=True)
class Outcome:
    """How a challenge ended: its winner (None: finished with no winner) and why."""

    winner: PlayerId | None
    reason: str
    prize: int = 0
    judged_at: datetime | None = None
    judged_best: tuple[PlayerId, ...] = ()  # several judged most correct: the earliest wins


@dataclass(frozen=True)
class Challenge:
    """One challenge of one contest, from its post to its outcome."""

    number: int  # numbered within its contest, from 1
    contest: Contest
    contestmaster: PlayerId
    text: str
    posted_at: datetime
    deadline: datetime
    status: Status = Status.OPEN
    answers: tuple[Answer, ...] = ()
    outcome: Outcome | None = None
    reminded: bool = False  # the judging reminder was mailed (336: "like 2 days at most")
    mediocrity_game: int | None = None  # 343: the game it is a challenge of

    @property
    def submissions(self) -> tuple[Answer, ...]:
        """The answers that count, earliest first (336: the earliest wins a tie)."""
        return tuple(sorted((a for a in self.answers if a.submitted), key=lambda a: a.received_at))

    def answer_of(self, player: PlayerId) -> Answer | None:
        return next((answer for answer in self.answers if answer.player == player), None)

    @property
    def fees_taken(self) -> int:
        return sum(answer.fee for answer in self.answers)

    def with_answer(self, answer: Answer) -> Challenge:
        kept = tuple(a for a in self.answers if a.player != answer.player)
        ordered = sorted((*kept, answer), key=lambda a: a.received_at)
        return replace(self, answers=tuple(ordered))


@dataclass(frozen=True)
class MediocrityGame:
    """A game of Mediocrity (rule 343): level x, y players required, z sub-games per level."""

    number: int
    founder: PlayerId  # "the first S.M of the game"
    level: int  # x
    players_required: int  # y
    sub_games: int  # z
    started_at: datetime
    challenges: tuple[int, ...] = ()  # the numbers of the challenges that counted, in order
    collection: int = 0  # every entry fee taken, held for the game's winner
    winner: PlayerId | None = None
    finished_at: datetime | None = None

    @property
    def challenges_needed(self) -> int:
        """343: a level n game is z level n-1 sub-games; level 1 is z challenges."""
        return int(self.sub_games**self.level)

    @property
    def finished(self) -> bool:
        return self.finished_at is not None


@dataclass(frozen=True)
class ContestState:
    """One contest: its current Contestmaster and everything played."""

    contest: Contest
    contestmaster: PlayerId | None
    challenges: tuple[Challenge, ...] = ()
    games: tuple[MediocrityGame, ...] = ()  # Mediocrity only

    @property
    def current(self) -> Challenge | None:
        """The challenge not finished yet, if any (one at a time)."""
        return next((c for c in self.challenges if c.status is not Status.FINISHED), None)

    @property
    def active_game(self) -> MediocrityGame | None:
        return next((game for game in self.games if not game.finished), None)

    def challenge(self, number: int) -> Challenge:
        for challenge in self.challenges:
            if challenge.number == number:
                return challenge
        raise ValueError(f"no challenge {number} of {self.contest.value}")

    def with_challenge(self, challenge: Challenge) -> ContestState:
        others = tuple(c for c in self.challenges if c.number != challenge.number)
        return replace(self, challenges=tuple(sorted((*others, challenge), key=lambda c: c.number)))

    def with_game(self, game: MediocrityGame) -> ContestState:
        others = tuple(g for g in self.games if g.number != game.number)
        return replace(self, games=tuple(sorted((*others, game), key=lambda g: g.number)))


@dataclass(frozen=True)
class ContestsState:
    contests: tuple[ContestState, ...] = field(default_factory=tuple)

    def of(self, contest: Contest) -> ContestState:
        for state in self.contests:
            if state.contest is contest:
                return state
        raise ValueError(f"no contest {contest.value}")

    def with_contest(self, state: ContestState) -> ContestsState:
        others = tuple(c for c in self.contests if c.contest is not state.contest)
        order = list(Contest)
        return ContestsState(tuple(sorted((*others, state), key=lambda c: order.index(c.contest))))


def new_state(first_contestmasters: dict[Contest, PlayerId | None]) -> ContestsState:
    """Every contest with its first Contestmaster (337, 339; 343's is whoever starts a game)."""
    return ContestsState(
        tuple(ContestState(contest, first_contestmasters.get(contest)) for contest in Contest)
    )
