"""A long B Nomic game (seed 004) as planned posts, with the ruling each action should get.

Test-data generation for bench/history.py (seeded; not game randomness).  It
extends the Political Go archive of ``archive_game`` (Moves, dice, chatter,
quotes, auto-replies, the two newcomers) with the governance of many nweeks:

- citizens who register (rule 14), go On Leave and come back (rule 205),
  forfeit (rule 14) and sometimes rejoin in a later nweek;
- proposals submitted in the Public Forum for 2BW (rules 19, 212), put on the
  Ballot called at the start of the Voting Period (rule 23) and voted on it
  (rule 15); a vote on a proposal that is on no open Ballot is refused, and
  so is a submission its author has no Bandwidth for;
- CFIs (rule 125) voted TRUE, FALSE or Refused by Eligible Voters before the
  4th midnight; the Plaintiff's own vote and a second vote (Strict) are refused;
- the Elections of Ministry Rotation (rule 625 B) every fourth nweek, with
  self-nominations in the nomination phase and Borda ballots (rule 1823) in
  the voting phase; one of them has a crowd of new players who register to
  vote in it, more than 2,000 in a full-length archive.

The Clock never stops: no Ministry of the Rules is configured, so the bot
recognises the rule changes at once (rule 23), and few players are On Leave
(rule 205).  Candidates are players who never forfeit, so no Ministry falls
Open and Rotation is the only source of Elections.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import archive_game as base
from archive_game import EPOCH, Action, ArchivePlanner, Expected, PeriodState, Person, PlannedPost

NWEEK = timedelta(days=base.NDAYS_PER_NWEEK)
FIRST_SERIAL = 100  # rule 5: the first proposal and the first CFI (each its own series)
# Rule 625 D names these Ministries; Cards is left out (the Cards game is not enabled, so
# "Minister of Cards" would be read as an unrefereed subgame's words).
MINISTRIES: tuple[tuple[str, str], ...] = (
    ("Ministry of Change", "Alice"),
    ("Ministry of Justice", "Bob"),
    ("Ministry of Twiddles", "Carol"),
    ("Ministry of Arcana", "Dave"),
    ("Ministry of Forking", "Erin"),
)
ROTATION_EVERY = 4  # rule 625 B: rotated when the last rotation is more than three nweeks ago
NOMINATION_NDAYS = 5  # rule 625 B
VOTING_NDAYS = 4  # rule 1823 A as configured by default ([elections] voting_ndays)
SUBMISSION_COST = 2  # rule 19
BANDWIDTH_PER_NWEEK = 10  # rule 212
BANDWIDTH_ON_ENTRY = 4  # rule 212
POSTS_PER_NWEEK = 1000  # the pace of the planned game
CITIZEN_CLIENTS = ("gmail", "thunderbird", "mutt", "apple")
# Names of three syllables: 140,608 of them, more than any archive needs.
SYLLABLES = tuple(consonant + vowel for consonant in "bdfklmnprstvz" for vowel in "aeio")
TOPICS = (
    "Tea Time",
    "More Cake",
    "Raise the Cap",
    "Quiet Hours",
    "Honest Dice",
    "A Fairer Ballot",
    "Longer Nweeks",
    "Bandwidth Relief",
    "The Gardener's Share",
    "Shorter Elections",
)


@dataclass
class Citizen:
    person: Person
    joined: datetime
    on_leave: bool = False
    bandwidth: int = BANDWIDTH_ON_ENTRY
    bandwidth_nweek: int = 0  # the nweek ``bandwidth`` was last reset in
    steadfast: bool = False  # never forfeits nor leaves: may stand for office


@dataclass
class Proposal:
    serial: int
    proponent: str
    ballot_nweek: int  # the nweek whose Voting Period puts it on the Ballot (rule 23)
    voters: set[str] = field(default_factory=set)


@dataclass
class Cfi:
    serial: int
    plaintiff: str
    created: datetime
    eligible: frozenset[str]  # rule 125: players not On Leave at the creation, less the Plaintiff
    voters: set[str] = field(default_factory=set)

    @property
    def deadline(self) -> datetime:
        # Rule 125: the 4th midnight UTC after the creation.
        midnight = self.created.replace(hour=0, minute=0, second=0, microsecond=0)
        return midnight + timedelta(days=4)


@dataclass
class Election:
    ministry: str
    called: datetime  # the Rotation, at the nweek's first instant (rule 625 B)
    candidates: list[str] = field(default_factory=list)
    voters: set[str] = field(default_factory=set)

    @property
    def title(self) -> str:
        return self.ministry.replace("Ministry of", "Minister of")

    @property
    def nominations_close(self) -> datetime:
        return self.called + timedelta(days=NOMINATION_NDAYS)

    @property
    def voting_closes(self) -> datetime:
        return self.nominations_close + timedelta(days=VOTING_NDAYS)


def nweek_of(at: datetime) -> int:
    return (at - EPOCH) // NWEEK


def nweek_start(nweek: int) -> datetime:
    return EPOCH + nweek * NWEEK


@dataclass(frozen=True)
class Scheduled:
    at: datetime
    kind: str
    author: Person


class HistoryPlanner(ArchivePlanner):
    """Plans ``count`` posts of a long game: the Go archive's posts plus the governance."""

    def __init__(self, seed: int, count: int) -> None:
        super().__init__(seed)
        self.count = count
        self.nweeks = max(1, count // POSTS_PER_NWEEK)
        self.citizens: dict[str, Citizen] = {}
        self.lost_souls: dict[str, Citizen] = {}  # forfeited, may rejoin (rule 14)
        self.names = self._name_pool()
        self.proposals: dict[int, Proposal] = {}
        self.cfis: dict[int, Cfi] = {}
        self.elections: list[Election] = []
        self.big_election: Election | None = None
        self.big_ballots: list[int] = []  # post numbers of the crowd's ballots
        self.scheduled: dict[int, list[Scheduled]] = {}
        self.now = EPOCH
        self.crowd_size = max(40, min(2100, count // 45))
        self.big_nweek = self._big_nweek()
        for person in base.CONFIGURED_PLAYERS:
            self.citizens[person.name] = Citizen(
                person, EPOCH, bandwidth=BANDWIDTH_PER_NWEEK, steadfast=True
            )

    # --- the timeline -------------------------------------------------------

    def _big_nweek(self) -> int:
        """The Rotation nweek about 40% along the game whose Election has the crowd."""
        target = max(ROTATION_EVERY, int(0.4 * self.nweeks))
        return max(ROTATION_EVERY, target - target % ROTATION_EVERY)

    def _plan_period(self, period: PeriodState, count: int) -> None:
        start, end = base.period_bounds(period.index)
        if period.index % len(base.PERIOD_FIRST_NDAY) == 0:
            self._open_nweek(nweek_of(start))
        kinds = self._period_kinds(count) + self._governance_kinds(period.index)
        entries = [
            Scheduled(at, kind, author)
            for (kind, author), at in zip(kinds, self._times(period.index, len(kinds)), strict=True)
        ]
        entries += self.scheduled.pop(period.index, [])
        for entry in _distinct_instants(sorted(entries, key=lambda item: item.at), end):
            self.now = entry.at
            self.posts.append(self._post(entry.kind, entry.author, entry.at, period))

    def _open_nweek(self, nweek: int) -> None:
        """The nweek's first instant: Rotation (rule 625 B) and, once, the crowd's schedule."""
        if nweek and nweek % ROTATION_EVERY == 0:
            called = nweek_start(nweek)
            rotation = [Election(ministry, called) for ministry, _holder in MINISTRIES]
            self.elections += rotation
            for election in rotation:
                self._schedule_campaign(election)
            if nweek == self.big_nweek:
                self.big_election = rotation[2]
                self._schedule_crowd(self.big_election)

    def _schedule_campaign(self, election: Election) -> None:
        """Nominations and ballots in the Election's phases; each goes to the neediest."""
        nobody = base.OUTSIDER  # the author is chosen when the post is planned
        chooser = self.chooser
        nominations = _spread(
            chooser, election.called, election.nominations_close, chooser.randint(2, 4)
        )
        ballots = _spread(
            chooser, election.nominations_close, election.voting_closes, chooser.randint(8, 30)
        )
        for at in nominations:
            self._schedule(Scheduled(at, "nominate", nobody))
        for at in ballots:
            self._schedule(Scheduled(at, "election_vote", nobody))

    def _schedule_crowd(self, election: Election) -> None:
        """New players who register in the nomination phase to vote in ``election``."""
        chooser = self.chooser
        joins = _spread(chooser, election.called, election.nominations_close, self.crowd_size)
        votes = _spread(
            chooser, election.nominations_close, election.voting_closes, self.crowd_size
        )
        for joined, voted in zip(joins, votes, strict=True):
            person = self._new_person()
            self._schedule(Scheduled(joined, "crowd_register", person))
            self._schedule(Scheduled(voted, "crowd_vote", person))

    def _schedule(self, entry: Scheduled) -> None:
        index = _period_index(entry.at)
        self.scheduled.setdefault(index, []).append(entry)

    def _governance_kinds(self, period: int) -> list[tuple[str, Person]]:
        voting_period = period % len(base.PERIOD_FIRST_NDAY) == 2
        nobody = base.OUTSIDER  # the author is chosen when the post is planned
        counts = {
            "propose": 12,
            "cfi": self.chooser.randint(0, 2),
            "cfi_vote": 8,
            "citizen_register": self.chooser.randint(0, 3),
            "leave": self.chooser.randint(0, 2),
            "return": self.chooser.randint(0, 2),
            "forfeit": self.chooser.randint(0, 2),
            "rejoin": 1 if self.chooser.random() < 0.2 else 0,
            "nominate": 1,
            "election_vote": 2,
            "ballot_vote": 60 if voting_period else 0,
            "late_ballot_vote": 1 if voting_period else 0,
            "citizen_chatter": 160 if voting_period else 200,
        }
        kinds = [(kind, nobody) for kind, number in counts.items() for _ in range(number)]
        return kinds

    # --- one post -------------------------------------------------------------

    def _post(self, kind: str, author: Person, at: datetime, period: PeriodState) -> PlannedPost:
        handler = self._governance_handlers().get(kind)
        if handler is None:
            post = super()._post(kind, author, at, period)
            if kind == "register":
                self._enter(post.author, steadfast=True)
            return post
        chosen, actions = handler(author)
        if chosen is None:  # nobody can take that action now: chatter instead
            chosen, actions = self._any_citizen(), []
            kind = "citizen_chatter"
        planned = self._compose(kind, chosen, at, actions)
        if kind == "crowd_vote":
            self.big_ballots.append(planned.number)
        return planned

    def _governance_handlers(
        self,
    ) -> dict[str, Callable[[Person], tuple[Person | None, list[Action]]]]:
        return {
            "propose": lambda _: self._propose(),
            "ballot_vote": lambda _: self._ballot_vote(),
            "late_ballot_vote": lambda _: self._late_ballot_vote(),
            "cfi": lambda _: self._submit_cfi(),
            "cfi_vote": lambda _: self._cfi_vote(),
            "citizen_register": lambda _: self._register(self._new_person()),
            "crowd_register": self._register,
            "crowd_vote": self._crowd_vote,
            "leave": lambda _: self._leave(),
            "return": lambda _: self._return(),
            "forfeit": lambda _: self._forfeit(),
            "rejoin": lambda _: self._rejoin(),
            "nominate": lambda _: self._nominate(),
            "election_vote": lambda _: self._election_vote(),
            "citizen_chatter": lambda _: (self._any_citizen(), self._decoys()),
        }

    # --- players (rules 14, 205, 212) ----------------------------------------------

    def _name_pool(self) -> list[str]:
        names = [
            (first + second + third).capitalize()
            for first in SYLLABLES
            for second in SYLLABLES
            for third in SYLLABLES
        ]
        self.chooser.shuffle(names)
        return names

    def _new_person(self) -> Person:
        name = self.names.pop()
        client = self.chooser.choice(CITIZEN_CLIENTS)
        domain = self.chooser.choice(("example.net", "mail.example.com", "example.co.uk"))
        return Person(name, f"{name.lower()}@{domain}", client)

    def _enter(self, person: Person, steadfast: bool = False) -> Citizen:
        citizen = Citizen(person, self.now, steadfast=steadfast)
        citizen.bandwidth_nweek = nweek_of(self.now)
        self.citizens[person.name] = citizen
        return citizen

    def _register(self, person: Person) -> tuple[Person | None, list[Action]]:
        self._enter(person)
        line = self.chooser.choice(
            (
                f"I request to become a player with the name {person.name}.",
                f"I wish to become a player; my name is {person.name}.",
            )
        )
        return person, [Action(line, (Expected("roster.register", "applied"),))]

    def _rejoin(self) -> tuple[Person | None, list[Action]]:
        # Rule 212: a Lost Soul who was a player earlier in this nweek re-enters with 0BW;
        # only those gone since an earlier nweek rejoin here, with 4BW.
        nweek = nweek_of(self.now)
        ready = [c for c in self.lost_souls.values() if c.bandwidth_nweek < nweek]
        if not ready:
            return None, []
        citizen = self.chooser.choice(sorted(ready, key=lambda c: c.person.name))
        del self.lost_souls[citizen.person.name]
        return self._register(citizen.person)

    def _leave(self) -> tuple[Person | None, list[Action]]:
        players = len(self.citizens)
        away = sum(c.on_leave for c in self.citizens.values())
        # Rule 205: keep well clear of the two-thirds stop of the Clock.
        if (away + 1) * 4 > players:
            return None, []
        citizen = self._pick(lambda c: not c.on_leave and not c.steadfast)
        if citizen is None:
            return None, []
        citizen.on_leave = True
        line = self.chooser.choice(("I go On Leave.", "I hereby go On Leave."))
        return citizen.person, [Action(line, (Expected("roster.leave", "applied"),))]

    def _return(self) -> tuple[Person | None, list[Action]]:
        citizen = self._pick(lambda c: c.on_leave)
        if citizen is None:
            return None, []
        citizen.on_leave = False
        line = "I declare myself Off Leave."
        return citizen.person, [Action(line, (Expected("roster.return", "applied"),))]

    def _forfeit(self) -> tuple[Person | None, list[Action]]:
        citizen = self._pick(lambda c: not c.steadfast)
        if citizen is None:
            return None, []
        del self.citizens[citizen.person.name]
        citizen.on_leave = False
        citizen.bandwidth, citizen.bandwidth_nweek = 0, nweek_of(self.now)
        self.lost_souls[citizen.person.name] = citizen
        line = self.chooser.choice(("I forfeit the game.", "I hereby forfeit the game."))
        return citizen.person, [Action(line, (Expected("roster.forfeit", "applied"),))]

    def _pick(self, wanted: Callable[[Citizen], bool]) -> Citizen | None:
        # Sampling first keeps the choice cheap with thousands of players.
        citizens = list(self.citizens.values())
        for _ in range(20):
            citizen = self.chooser.choice(citizens)
            if wanted(citizen):
                return citizen
        return None

    def _any_citizen(self) -> Person:
        return self.chooser.choice(list(self.citizens.values())).person

    def _act(self, citizen: Citizen) -> None:
        # Rule 205: an applied public game action takes a player On Leave Off Leave.
        citizen.on_leave = False

    def _bandwidth(self, citizen: Citizen) -> int:
        # Rule 212: every player's Bandwidth is reset at the beginning of each nweek.
        nweek = nweek_of(self.now)
        if citizen.bandwidth_nweek < nweek:
            citizen.bandwidth, citizen.bandwidth_nweek = BANDWIDTH_PER_NWEEK, nweek
        return citizen.bandwidth

    # --- proposals and the Ballot (rules 15, 19, 23) ----------------------------------

    def _propose(self) -> tuple[Person | None, list[Action]]:
        citizen = self._pick(lambda c: True)
        if citizen is None:
            return None, []
        serial = FIRST_SERIAL + len(self.proposals)
        topic = self.chooser.choice(TOPICS)
        line = (
            f"I submit the following proposal: __{topic} {serial}__ "
            f"{{{{ Amend rule {self.chooser.randint(2, 2000)} so that {topic.lower()} applies. }}}}"
        )
        if self._bandwidth(citizen) < SUBMISSION_COST:
            return citizen.person, [Action(line, (Expected("proposals.submit", "rejected"),))]
        citizen.bandwidth -= SUBMISSION_COST
        self._act(citizen)
        self.proposals[serial] = Proposal(serial, citizen.person.name, self._ballot_nweek())
        return citizen.person, [Action(line, (Expected("proposals.submit", "applied"),))]

    def _ballot_nweek(self) -> int:
        # Rule 23: the Ballot at the start of the Voting Period (nday 8) takes every
        # proposal not yet balloted; one submitted during the Voting Period waits a nweek.
        nweek = nweek_of(self.now)
        voting_starts = nweek_start(nweek) + timedelta(days=base.PERIOD_FIRST_NDAY[2])
        return nweek if self.now < voting_starts else nweek + 1

    def _ballot_vote(self) -> tuple[Person | None, list[Action]]:
        nweek = nweek_of(self.now)
        on_ballot = [p for p in self.proposals.values() if p.ballot_nweek == nweek]
        voting_starts = nweek_start(nweek) + timedelta(days=base.PERIOD_FIRST_NDAY[2])
        # Rule 15: the Eligible Voters are the players when the Ballot is called.
        citizen = self._pick(lambda c: c.joined < voting_starts)
        if not on_ballot or citizen is None or self.now < voting_starts:
            return None, []
        chosen = self.chooser.sample(on_ballot, min(len(on_ballot), self.chooser.randint(1, 6)))
        actions = []
        for proposal in sorted(chosen, key=lambda p: p.serial):
            word = self.chooser.choice(("FOR", "AGAINST", "FOR", "PRESENT"))
            # Rule 15: a player may vote again; the last vote counts.
            proposal.voters.add(citizen.person.name)
            actions.append(
                Action(
                    f"I vote {word} proposal {proposal.serial}."
                    if word != "PRESENT"
                    else f"I vote PRESENT on {proposal.serial}.",
                    (Expected("polls.vote", "applied"),),
                )
            )
        self._act(citizen)
        return citizen.person, actions

    def _late_ballot_vote(self) -> tuple[Person | None, list[Action]]:
        # A vote on a proposal whose Ballot closed a nweek ago: on no open poll (rule 15).
        nweek = nweek_of(self.now)
        closed = [p for p in self.proposals.values() if p.ballot_nweek == nweek - 1]
        citizen = self._pick(lambda c: True)
        if not closed or citizen is None:
            return None, []
        proposal = self.chooser.choice(closed)
        line = f"I vote AGAINST proposal {proposal.serial}."
        return citizen.person, [Action(line, (Expected("polls.vote", "rejected"),))]

    # --- CFIs (rule 125) -------------------------------------------------------------

    def _submit_cfi(self) -> tuple[Person | None, list[Action]]:
        citizen = self._pick(lambda c: not c.on_leave)
        if citizen is None:
            return None, []
        serial = FIRST_SERIAL + len(self.cfis)
        plaintiff = citizen.person.name
        eligible = frozenset(
            name for name, c in self.citizens.items() if not c.on_leave and name != plaintiff
        )
        self.cfis[serial] = Cfi(serial, plaintiff, self.now, eligible)
        topic = self.chooser.choice(TOPICS)
        line = (
            f"I submit a CFI: {{{{ __{topic} is Ambiguous {serial}__\n"
            f"Argument: The wording of rule {self.chooser.randint(2, 2000)} is unclear.\n"
            "Resolution:\n- The rule is read as its author meant it\n}}"
        )
        return citizen.person, [Action(line, (Expected("cfi.submit", "applied"),))]

    def _cfi_vote(self) -> tuple[Person | None, list[Action]]:
        open_cfis = [c for c in self.cfis.values() if self.now < c.deadline - timedelta(hours=1)]
        if not open_cfis:
            return None, []
        cfi = self.chooser.choice(open_cfis)
        word = self.chooser.choice(("TRUE", "FALSE", "TRUE", "Refused"))
        line = f"I vote {word} on CFI {cfi.serial}."
        roll = self.chooser.random()
        if roll < 0.05 and cfi.plaintiff in self.citizens:
            # Rule 125: the Plaintiff is no Eligible Voter.
            author = self.citizens[cfi.plaintiff].person
            return author, [Action(line, (Expected("cfi.vote", "rejected"),))]
        if roll < 0.1 and cfi.voters:
            # Rule 15 B, Strict: the first vote is final.
            voter = self.citizens.get(self.chooser.choice(sorted(cfi.voters)))
            if voter is not None:
                return voter.person, [Action(line, (Expected("cfi.vote", "rejected"),))]
        return self._first_cfi_vote(cfi, line)

    def _first_cfi_vote(self, cfi: Cfi, line: str) -> tuple[Person | None, list[Action]]:
        # Short-Circuited: the poll would conclude once every Eligible Voter has voted;
        # half of them at most vote here, so each CFI runs to its deadline.
        if 2 * (len(cfi.voters) + 1) > len(cfi.eligible):
            return None, []
        citizen = self._pick(
            lambda c: (
                c.person.name in cfi.eligible and c.person.name not in cfi.voters and not c.on_leave
            )
        )
        if citizen is None:
            return None, []
        cfi.voters.add(citizen.person.name)
        return citizen.person, [Action(line, (Expected("cfi.vote", "applied"),))]

    # --- Elections (rules 625 B, 1823) ----------------------------------------------------

    def _nominate(self) -> tuple[Person | None, list[Action]]:
        nominating = [e for e in self.elections if e.called < self.now < e.nominations_close]
        closed = [e for e in self.elections if e.nominations_close <= self.now < e.voting_closes]
        if nominating:
            election = min(nominating, key=lambda e: len(e.candidates))
            outcome = "applied"
        elif closed and self.chooser.random() < 0.1:
            election, outcome = self.chooser.choice(closed), "rejected"  # rule 1823: too late
        else:
            return None, []
        # Candidates are the steady core, so no Ministry falls Open by a forfeit (rule 625 A).
        standing = [
            c
            for c in self.citizens.values()
            if c.steadfast and c.person.name not in election.candidates
        ]
        if not standing:
            return None, []
        citizen = self.chooser.choice(standing)
        if outcome == "applied":
            self._act(citizen)
            election.candidates.append(citizen.person.name)
        line = f"I nominate myself for {election.title}."
        return citizen.person, [Action(line, (Expected("elections.nominate", outcome),))]

    def _election_vote(self) -> tuple[Person | None, list[Action]]:
        voting = [
            e
            for e in self.elections
            if e.nominations_close < self.now < e.voting_closes and len(e.candidates) > 1
        ]
        if not voting:
            return None, []
        election = min(voting, key=lambda e: len(e.voters))
        citizen = self._pick(
            lambda c: c.person.name not in election.voters and c.joined < election.nominations_close
        )
        if citizen is None:
            return None, []
        return citizen.person, [self._borda_ballot(election, citizen)]

    def _crowd_vote(self, person: Person) -> tuple[Person | None, list[Action]]:
        citizen = self.citizens.get(person.name)
        election = self.big_election
        if citizen is None or election is None or len(election.candidates) < 2:
            return None, []
        return person, [self._borda_ballot(election, citizen)]

    def _borda_ballot(self, election: Election, citizen: Citizen) -> Action:
        ranking = list(election.candidates)
        self.chooser.shuffle(ranking)
        election.voters.add(citizen.person.name)
        self._act(citizen)
        line = f"I vote {', '.join(ranking)} for {election.title}."
        return Action(line, (Expected("elections.vote", "applied"),))


def _spread(chooser: random.Random, start: datetime, end: datetime, count: int) -> list[datetime]:
    """``count`` instants between ``start`` and ``end``, an hour clear of both."""
    span = int((end - start).total_seconds()) - 7200
    return sorted(start + timedelta(seconds=3600 + chooser.randrange(span)) for _ in range(count))


def _period_index(at: datetime) -> int:
    nweek = nweek_of(at)
    offset = (at - nweek_start(nweek)).days
    position = sum(offset >= first for first in base.PERIOD_FIRST_NDAY) - 1
    return nweek * len(base.PERIOD_FIRST_NDAY) + position


def _distinct_instants(entries: list[Scheduled], end: datetime) -> list[Scheduled]:
    """``entries`` at strictly increasing whole seconds (a list stamps whole seconds)."""
    distinct: list[Scheduled] = []
    for entry in entries:
        at = entry.at.replace(microsecond=0)
        if distinct and at <= distinct[-1].at:
            at = distinct[-1].at + timedelta(seconds=1)
        distinct.append(Scheduled(min(at, end - timedelta(seconds=1)), entry.kind, entry.author))
    return distinct


def plan_history(count: int, seed: int) -> HistoryPlanner:
    planner = HistoryPlanner(seed, count)
    planner.plan(count)
    planner.posts = planner.posts[:count]
    return planner
