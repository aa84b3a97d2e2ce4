"""The Ministerial Elections in progress and held (rules 625 B and 1823, seed 004), as data.

Kept a row per Election (``election``, its data as JSON but its ballots)
with whether it is in progress indexed, and a row per ballot
(``election_ballot``), so the scheduler's look for due phase changes reads
only the Elections in progress, a ballot cast writes one row, and saving
writes only the Elections a post changed.  An Election passes
through nominations (five ndays), voting (four ndays), possibly a wait for
the Moderator's pick on a tie, and is then closed with its result.

Deadlines are ntime: "five ndays following the start" ends when the Clock
has advanced five ndays past the start, at the same time of day (with the
Clock On throughout, exactly 5 x 24 hours later; each whole day the Clock
stands Off adds a day, rule 3 A's "the person still has 6 days left").  They
are stored as the instants the periods began and resolved against the
Clock's switches whenever they are needed, so a Clock stop announced later
moves them; ``None`` means the Clock is Off with no restart known yet.

A period's length is the one in force when the period begins (rule 1823 A;
docs/readings.md): the ``[elections]`` ndays may change from an instant on
(``bot.engine.rule_changes``), and an Election called before a change keeps
its nomination period, while its voting takes the length in force when the
voting opens.  Each length is stored on the Election as its period begins,
so no deadline already announced moves.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from enum import Enum
from typing import TYPE_CHECKING, Any

from sqlalchemy import Select, delete, select
from sqlalchemy.orm import Session

from bot.games import ntime
from bot.games.governance.elections import SelectionMethod, method_named
from bot.store.models import ElectionBallotRow, ElectionRow

if TYPE_CHECKING:
    from bot.engine.services import Services

# What a rename reports as changed (``bot.engine.renames``).
RECORD_NAME = "elections"


class Phase(Enum):
    NOMINATING = "nominating"  # rule 625 B: "For five ndays following the start"
    VOTING = "voting"  # "four ndays as its Duration"
    AWAITING_MODERATOR = "awaiting the Moderator"  # rule 1823 C.2, C.3 ties
    CLOSED = "closed"

    @property
    def in_progress(self) -> bool:
        return self is not Phase.CLOSED


class Answer(Enum):
    PENDING = "pending"
    ACCEPTED = "accepted"
    REJECTED = "rejected"


@dataclass(frozen=True)
class Nomination:
    nominee: str
    nominator: str
    at: datetime
    answer: Answer = Answer.PENDING


@dataclass(frozen=True)
class Ballot:
    """One vote as cast; rule 1823: the last one a voter submits is eir actual vote."""

    voter: str
    choices: tuple[str, ...]
    at: datetime
    message_id: str


@dataclass(frozen=True)
class Election:
    number: int
    ministry: str
    caller: str
    moderator: str | None  # rule 625 B: the caller; None when nobody can be asked
    method: SelectionMethod
    called_at: datetime
    rotation: bool = False  # called by Kurt Godel's Ministry Rotation
    phase: Phase = Phase.NOMINATING
    nominations: tuple[Nomination, ...] = ()
    voting_started_at: datetime | None = None
    candidates: tuple[str, ...] = ()  # fixed when the voting starts
    ballots: tuple[Ballot, ...] = ()
    moderator_asked_at: datetime | None = None
    closed_at: datetime | None = None
    winner: str | None = None
    report: tuple[str, ...] = ()  # the published count, line by line
    # The ndays of each period, fixed as it begins (rule 1823 A): None before it
    # begins, and in states stored before the lengths were (read as in force then).
    nomination_ndays: int | None = None
    voting_ndays: int | None = None
    moderator_wait_ndays: int | None = None

    @property
    def accepted(self) -> tuple[str, ...]:
        """Rule 625 B: "those that accept become candidates", in the order nominated."""
        return tuple(n.nominee for n in self.nominations if n.answer is Answer.ACCEPTED)

    def nomination_of(self, player: str) -> Nomination | None:
        """The player's latest nomination in this Election."""
        found = [n for n in self.nominations if n.nominee == player]
        return found[-1] if found else None

    def with_answer(self, player: str, answer: Answer) -> Election:
        latest = self.nomination_of(player)
        nominations = tuple(
            replace(n, answer=answer) if n is latest else n for n in self.nominations
        )
        return replace(self, nominations=nominations)

    def label(self) -> str:
        return f"Election #{self.number} for {self.ministry}"


@dataclass(frozen=True)
class ElectionBook:
    elections: tuple[Election, ...] = ()

    def in_progress_for(self, ministry: str) -> Election | None:
        found = [e for e in self.elections if e.ministry == ministry and e.phase.in_progress]
        return found[0] if found else None

    def next_number(self) -> int:
        return max((e.number for e in self.elections), default=0) + 1

    def with_election(self, election: Election) -> ElectionBook:
        others = tuple(e for e in self.elections if e.number != election.number)
        return ElectionBook(tuple(sorted((*others, election), key=lambda e: e.number)))


# -- deadlines (rule 3 A ndays) -------------------------------------------------------


# When The Clock came to read so many ndays: ``GameClock.nday_start``, which remembers.
NdayStart = Callable[[int], datetime | None]


def ndays_after(
    config: ntime.NtimeConfig, start: datetime, ndays: int, nday_start: NdayStart | None = None
) -> datetime | None:
    """When ``ndays`` ndays following ``start`` have passed (see the module docstring).

    ``nday_start``, if given, answers ``ntime.nday_start`` through the same ``config``.
    """
    if ndays <= 0:
        return start
    reading = ntime.clock_at(config, start)
    wanted = reading.ndays + ndays
    if nday_start is not None:
        tick = nday_start(wanted)
    else:
        tick = ntime.nday_start(config, ntime.ClockReading.from_ndays(wanted))
    if tick is None:
        return None
    utc = start.astimezone(UTC)
    midnight = utc.replace(hour=0, minute=0, second=0, microsecond=0)
    return tick + (utc - midnight)


# The ndays an ``[elections]`` setting gives at an instant: (key, instant) -> ndays.
LengthAt = Callable[[str, datetime], int]


@dataclass(frozen=True)
class Timetable:
    """The ndays rule 625 B gives each phase, each as in force when the phase begins."""

    config: ntime.NtimeConfig
    length_at: LengthAt
    nday_start: NdayStart | None = None

    def nomination_ndays(self, election: Election) -> int:
        if election.nomination_ndays is not None:
            return election.nomination_ndays
        return self.length_at("nomination_ndays", election.called_at)

    def voting_ndays(self, election: Election, opens: datetime) -> int:
        """The voting's length: stored once open, else the one in force at ``opens``."""
        if election.voting_ndays is not None:
            return election.voting_ndays
        return self.length_at("voting_ndays", election.voting_started_at or opens)

    def moderator_wait_ndays(self, election: Election, asked: datetime) -> int:
        if election.moderator_wait_ndays is not None:
            return election.moderator_wait_ndays
        return self.length_at("moderator_wait_ndays", election.moderator_asked_at or asked)

    def nominations_close(self, election: Election) -> datetime | None:
        ndays = self.nomination_ndays(election)
        return ndays_after(self.config, election.called_at, ndays, self.nday_start)

    def voting_closes(self, election: Election) -> datetime | None:
        start = election.voting_started_at
        if start is None:
            return None
        ndays = self.voting_ndays(election, start)
        return ndays_after(self.config, start, ndays, self.nday_start)

    def moderator_deadline(self, election: Election) -> datetime | None:
        asked = election.moderator_asked_at
        if asked is None:
            return None
        ndays = self.moderator_wait_ndays(election, asked)
        return ndays_after(self.config, asked, ndays, self.nday_start)

    def next_deadline(self, election: Election) -> datetime | None:
        """When ``election`` next changes phase by time, if it is known."""
        if election.phase is Phase.NOMINATING:
            return self.nominations_close(election)
        if election.phase is Phase.VOTING:
            return self.voting_closes(election)
        if election.phase is Phase.AWAITING_MODERATOR:
            return self.moderator_deadline(election)
        return None


def timetable_of(services: Services) -> Timetable:
    """The timetable with the ``[elections]`` ndays in force at each instant."""
    rules = services.rules

    def length_at(key: str, instant: datetime) -> int:
        return int(rules.value_at(f"elections.{key}", instant))

    return Timetable(services.clock.config, length_at, services.clock.nday_start)


def describe_instant(instant: datetime | None, label: str) -> str:
    if instant is None:
        return "when the Clock has run that long (it is Off now)"
    return f"{label} ({instant.astimezone(UTC):%Y-%m-%d %H:%M:%S} UTC)"


# -- storage ----------------------------------------------------------------------------


def load_book(session: Session) -> tuple[ElectionBook, ElectionBook]:
    """Every Election with all its ballots: the book as loaded and the book to work on.

    For the views and a rename; a post's desk reads ``load_heads``.
    """
    ballots = _ballots_by_election(session, select(ElectionBallotRow))
    heads = session.scalars(select(ElectionRow).order_by(ElectionRow.number))
    book = ElectionBook(
        tuple(
            replace(election_from_json(row.state), ballots=ballots.get(row.number, ()))
            for row in heads
        )
    )
    return book, book


def load_heads(session: Session) -> ElectionBook:
    """Every Election without its ballots (``ballots`` empty; see ``stored_ballots``)."""
    rows = session.scalars(select(ElectionRow).order_by(ElectionRow.number))
    return ElectionBook(tuple(election_from_json(row.state) for row in rows))


def load_heads_with_running_ballots(session: Session) -> ElectionBook:
    """Every Election, with its ballots only while it is in progress (rule 1823).

    For the displays of the Elections: a closed one shows its winner, not its
    ballots, so a crowd's ballots in an old Election are not read again.
    """
    running = select(ElectionRow.number).where(ElectionRow.in_progress.is_(True))
    query = select(ElectionBallotRow).where(ElectionBallotRow.election_number.in_(running))
    ballots = _ballots_by_election(session, query)
    return ElectionBook(
        tuple(
            replace(election, ballots=ballots.get(election.number, ()))
            for election in load_heads(session).elections
        )
    )


def elections_in_progress(session: Session) -> tuple[Election, ...]:
    """The Elections not yet closed, by number, without their ballots (an indexed read)."""
    rows = session.scalars(
        select(ElectionRow).where(ElectionRow.in_progress.is_(True)).order_by(ElectionRow.number)
    )
    return tuple(election_from_json(row.state) for row in rows)


def stored_ballots(session: Session, number: int) -> tuple[Ballot, ...]:
    """Election ``number``'s ballots as stored, in the order cast."""
    query = select(ElectionBallotRow).where(ElectionBallotRow.election_number == number)
    return _ballots_by_election(session, query).get(number, ())


def has_stored_ballot(session: Session, number: int, voter: str) -> bool:
    """Whether ``voter`` has a ballot stored in Election ``number`` (an indexed read)."""
    query = select(ElectionBallotRow.id).where(
        ElectionBallotRow.election_number == number, ElectionBallotRow.voter == voter
    )
    return session.scalar(query.limit(1)) is not None


def _ballots_by_election(
    session: Session, query: Select[ElectionBallotRow]
) -> dict[int, tuple[Ballot, ...]]:
    found: dict[int, list[Ballot]] = {}
    for row in session.scalars(query.order_by(ElectionBallotRow.id)):
        ballot = Ballot(row.voter, tuple(row.choices), row.cast_at, row.message_id)
        found.setdefault(row.election_number, []).append(ballot)
    return {number: tuple(ballots) for number, ballots in found.items()}


def write_election(session: Session, election: Election, ballots: BallotsWritten) -> None:
    """Store ``election``'s head, and its ballots as ``ballots`` says.

    ``ALL_BALLOTS``: ``election.ballots`` are all of them (the stored ones are
    replaced); ``NEW_BALLOTS``: they are cast since the last write (added).
    """
    row = session.get(ElectionRow, election.number)
    in_progress = election.phase.in_progress
    state = election_to_json(election)
    del state["ballots"]
    if row is None:
        row = ElectionRow(number=election.number, in_progress=in_progress)
        session.add(row)
    row.in_progress, row.state = in_progress, state
    if ballots is BallotsWritten.ALL_BALLOTS:
        session.flush()  # the Election's row before its ballots (their foreign key)
        session.execute(
            delete(ElectionBallotRow).where(ElectionBallotRow.election_number == election.number)
        )
    session.add_all(_ballot_row(election.number, ballot) for ballot in election.ballots)


class BallotsWritten(Enum):
    ALL_BALLOTS = "all"
    NEW_BALLOTS = "new"


def _ballot_row(number: int, ballot: Ballot) -> ElectionBallotRow:
    return ElectionBallotRow(
        election_number=number,
        voter=ballot.voter,
        choices=list(ballot.choices),
        cast_at=ballot.at,
        message_id=ballot.message_id,
    )


def _instant(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _parsed(value: Any) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def election_to_json(election: Election) -> dict[str, Any]:
    return {
        "number": election.number,
        "ministry": election.ministry,
        "caller": election.caller,
        "moderator": election.moderator,
        "method": election.method.value,
        "called_at": election.called_at.isoformat(),
        "rotation": election.rotation,
        "phase": election.phase.value,
        "nominations": [
            [n.nominee, n.nominator, n.at.isoformat(), n.answer.value] for n in election.nominations
        ],
        "voting_started_at": _instant(election.voting_started_at),
        "candidates": list(election.candidates),
        "ballots": [
            [b.voter, list(b.choices), b.at.isoformat(), b.message_id] for b in election.ballots
        ],
        "moderator_asked_at": _instant(election.moderator_asked_at),
        "closed_at": _instant(election.closed_at),
        "winner": election.winner,
        "report": list(election.report),
        "nomination_ndays": election.nomination_ndays,
        "voting_ndays": election.voting_ndays,
        "moderator_wait_ndays": election.moderator_wait_ndays,
    }


def election_from_json(data: dict[str, Any]) -> Election:
    return Election(
        number=int(data["number"]),
        ministry=str(data["ministry"]),
        caller=str(data["caller"]),
        moderator=data["moderator"],
        method=method_named(data["method"]),
        called_at=datetime.fromisoformat(data["called_at"]),
        rotation=bool(data["rotation"]),
        phase=Phase(data["phase"]),
        nominations=tuple(
            Nomination(nominee, nominator, datetime.fromisoformat(at), Answer(answer))
            for nominee, nominator, at, answer in data["nominations"]
        ),
        voting_started_at=_parsed(data["voting_started_at"]),
        candidates=tuple(data["candidates"]),
        ballots=tuple(
            Ballot(voter, tuple(choices), datetime.fromisoformat(at), message_id)
            for voter, choices, at, message_id in data.get("ballots", ())
        ),
        moderator_asked_at=_parsed(data["moderator_asked_at"]),
        closed_at=_parsed(data["closed_at"]),
        winner=data["winner"],
        report=tuple(data["report"]),
        nomination_ndays=data.get("nomination_ndays"),
        voting_ndays=data.get("voting_ndays"),
        moderator_wait_ndays=data.get("moderator_wait_ndays"),
    )


# -- a player's change of name (rule 151) ------------------------------------------------


def renamed_book(book: ElectionBook, old: str, new: str) -> ElectionBook:
    """``book`` with the player ``old`` called ``new`` (rule 151: the same player).

    Callers, Moderators, nominees and nominators, candidates, voters, ballot
    choices and winners follow the name, so an open nomination, a ballot
    (rule 1823: a voter's last one counts) or a Moderator's pick survives
    it.  The published count (``report``) is left as it was published.
    """
    return ElectionBook(tuple(_renamed_election(item, old, new) for item in book.elections))


def _renamed_election(election: Election, old: str, new: str) -> Election:
    def swap(name: str) -> str:
        return new if name == old else name

    return replace(
        election,
        caller=swap(election.caller),
        moderator=None if election.moderator is None else swap(election.moderator),
        nominations=tuple(
            replace(item, nominee=swap(item.nominee), nominator=swap(item.nominator))
            for item in election.nominations
        ),
        candidates=tuple(map(swap, election.candidates)),
        ballots=tuple(
            replace(item, voter=swap(item.voter), choices=tuple(map(swap, item.choices)))
            for item in election.ballots
        ),
        winner=None if election.winner is None else swap(election.winner),
    )


# -- a player's forfeit (rule 14) ---------------------------------------------------------


def forfeited_book(book: ElectionBook, name: str) -> tuple[ElectionBook, tuple[str, ...]]:
    """``book`` after ``name`` forfeited (rule 14), and what changed, in words.

    Only Elections in progress change; closed ones are the record of what
    happened.  Rule 625 B nominates "players" and makes "all players" the
    Eligible Voters, so a Lost Soul's nominations are withdrawn (eir
    candidacy with them: e leaves the candidates, and every ballot, cast
    while the candidates were fixed, drops em and stays a full ranking of
    those left) and eir ballots no longer count.  A Lost Soul can post no
    pick, so when e is the Moderator nobody is asked and a recorded draw
    stands in (docs/readings.md, 1823 C.2, C.3).  Nominations e made and
    Elections e called stand.
    """
    notes: list[str] = []
    elections: list[Election] = []
    for election in book.elections:
        changed = _forfeited_election(election, name) if election.phase.in_progress else election
        if changed != election:
            notes.append(_forfeit_note(election, changed, name))
        elections.append(changed)
    return ElectionBook(tuple(elections)), tuple(notes)


def _forfeited_election(election: Election, name: str) -> Election:
    return replace(
        election,
        nominations=tuple(item for item in election.nominations if item.nominee != name),
        candidates=tuple(item for item in election.candidates if item != name),
        ballots=tuple(
            replace(item, choices=tuple(choice for choice in item.choices if choice != name))
            for item in election.ballots
            if item.voter != name
        ),
        moderator=None if election.moderator == name else election.moderator,
    )


def _forfeit_note(before: Election, after: Election, name: str) -> str:
    lost = []
    if any(item.nominee == name for item in before.nominations):
        lost.append("eir nomination is withdrawn")
    if name in before.candidates:
        lost.append("e is no longer a Candidate")
    if any(item.voter == name for item in before.ballots):
        lost.append("eir vote no longer counts")
    if before.moderator == name and after.moderator is None:
        lost.append("e is no longer its Moderator (a recorded draw stands in for a pick)")
    return f"{before.label()}: {'; '.join(lost)} (rules 625 B, 1823)"
