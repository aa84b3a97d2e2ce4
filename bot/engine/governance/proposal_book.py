"""Proposals (rules 4, 5, 19, 23, 1440 of seed 004) and the Ballots, as data.

Kept a row per proposal (``proposal``: its revisions, as JSON) and a row
per nweek's Ballot (``proposal_ballot``: the poll number of each proposal
on it; the polls themselves are in the poll store), so saving writes only
the items a post changed, and rule 151's check reads only the current
proposals (an indexed column).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import Enum
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from bot.games.errors import IllegalActionError
from bot.games.governance.definitions import defines_name
from bot.games.governance.polls.serialize import instant_from_text, instant_to_text
from bot.store.models import ProposalBallotRow, ProposalRow

# What a rename reports as changed (``bot.engine.renames``).
RECORD_NAME = "proposals"


class Status(Enum):
    SUBMITTED = "submitted"  # waiting for the next Ballot (rule 23)
    ON_BALLOT = "on the Ballot"
    PASSED = "passed"
    FAILED = "failed"
    SHELVED = "shelved"  # returns on the next Ballot (rule 23)
    RESCINDED = "rescinded"  # rule 1440

    @property
    def awaits_ballot(self) -> bool:
        return self in {Status.SUBMITTED, Status.SHELVED}


@dataclass(frozen=True)
class Revision:
    """One text of a proposal; rule 4's id string is "serial/revision"."""

    number: int
    title: str
    text: str
    at: datetime
    message_id: str


@dataclass(frozen=True)
class Proposal:
    serial: int
    proponent_id: int
    proponent: str
    revisions: tuple[Revision, ...]
    status: Status = Status.SUBMITTED
    creates_rule: bool = False  # rule 216: "to propose a rule"
    ever_shelved: bool = False  # rule 1440: a previously shelved prop cannot be rescinded
    ballots: tuple[int, ...] = ()  # the nweeks whose Ballots it was on

    @property
    def current(self) -> Revision:
        return self.revisions[-1]

    @property
    def id_string(self) -> str:
        """Rule 4: "n/r", serial number and revision number."""
        return f"{self.serial}/{self.current.number}"

    @property
    def title(self) -> str:
        return self.current.title or "(untitled)"


@dataclass(frozen=True)
class Ballot:
    """One nweek's Ballot: the poll number of each proposal on it, by serial."""

    nweek: int
    called_at: datetime
    polls: dict[int, int] = field(hash=False)
    closed_at: datetime | None = None


@dataclass(frozen=True)
class ProposalBook:
    proposals: dict[int, Proposal] = field(default_factory=dict, hash=False)
    ballots: dict[int, Ballot] = field(default_factory=dict, hash=False)
    highest_serial: int | None = None

    def next_serial(self, first_serial: int) -> int:
        """Rule 5: one higher than the highest ever used; the configured first one before that."""
        return first_serial if self.highest_serial is None else self.highest_serial + 1

    def with_proposal(self, proposal: Proposal) -> ProposalBook:
        highest = max(proposal.serial, self.highest_serial or proposal.serial)
        proposals = {**self.proposals, proposal.serial: proposal}
        return replace(self, proposals=proposals, highest_serial=highest)

    def with_ballot(self, ballot: Ballot) -> ProposalBook:
        return replace(self, ballots={**self.ballots, ballot.nweek: ballot})

    def awaiting_ballot(self) -> list[Proposal]:
        return [
            self.proposals[serial]
            for serial in sorted(self.proposals)
            if self.proposals[serial].status.awaits_ballot
        ]


def renamed_book(book: ProposalBook, old: str, new: str) -> ProposalBook:
    """``book`` with the proponent ``old`` called ``new`` (rule 151).

    Who may revise or rescind is judged by ``proponent_id``; the name is
    what the Ballot's results and the displays print, so it follows too.
    """
    proposals = {
        serial: replace(proposal, proponent=new) if proposal.proponent == old else proposal
        for serial, proposal in book.proposals.items()
    }
    return replace(book, proposals=proposals)


def load_book(session: Session) -> tuple[ProposalBook, ProposalBook]:
    """The book as loaded (to give ``save_book``) and the book to work on: the same."""
    proposals = session.scalars(select(ProposalRow).order_by(ProposalRow.serial))
    ballots = session.scalars(select(ProposalBallotRow).order_by(ProposalBallotRow.nweek))
    book = ProposalBook(
        proposals={row.serial: _proposal_from_dict(row.state) for row in proposals},
        ballots={row.nweek: _ballot_from_dict(row.state) for row in ballots},
    )
    highest = max(book.proposals, default=None)
    book = replace(book, highest_serial=highest)
    return book, book


def load_current_book(session: Session, nweek: int) -> tuple[ProposalBook, ProposalBook]:
    """As ``load_book``, with only nweek ``nweek``'s Ballot, if there is one, its proposals
    and the current ones (rule 151): what calling or closing that Ballot reads (rule 23).

    The proposals decided long ago are not read: indexed reads whatever the
    game's age.  ``save_book`` writes what changed, as with the whole book.
    """
    ballot = load_ballot(session, nweek)
    on_ballot = () if ballot is None else tuple(ballot.polls)
    proposals = session.scalars(
        select(ProposalRow)
        .where(ProposalRow.current.is_(True) | ProposalRow.serial.in_(on_ballot))
        .order_by(ProposalRow.serial)
    )
    book = ProposalBook(
        proposals={row.serial: _proposal_from_dict(row.state) for row in proposals},
        ballots={} if ballot is None else {nweek: ballot},
        highest_serial=highest_serial(session),
    )
    return book, book


def latest_ballot(session: Session) -> Ballot | None:
    """The Ballot of the latest nweek, if any was called (one indexed read)."""
    row = session.scalars(
        select(ProposalBallotRow).order_by(ProposalBallotRow.nweek.desc()).limit(1)
    ).first()
    return None if row is None else _ballot_from_dict(row.state)


def highest_serial(session: Session) -> int | None:
    """Rule 5: the highest serial number used so far, if any."""
    return session.scalar(select(func.max(ProposalRow.serial)))


def load_proposal(session: Session, serial: int) -> Proposal | None:
    row = session.get(ProposalRow, serial)
    return None if row is None else _proposal_from_dict(row.state)


def load_ballot(session: Session, nweek: int) -> Ballot | None:
    row = session.get(ProposalBallotRow, nweek)
    return None if row is None else _ballot_from_dict(row.state)


def save_book(session: Session, loaded: ProposalBook, book: ProposalBook) -> ProposalBook:
    """Write the proposals and Ballots of ``book`` that are not those ``loaded``.

    Items are frozen and replaced when they change, so identity tells what
    changed without encoding the rest.  Returns ``book``, the new baseline.
    """
    for serial, proposal in book.proposals.items():
        if loaded.proposals.get(serial) is not proposal:
            _write_proposal(session, proposal)
    for nweek, ballot in book.ballots.items():
        if loaded.ballots.get(nweek) is not ballot:
            _write_ballot(session, ballot)
    return book


def _write_proposal(session: Session, proposal: Proposal) -> None:
    row = session.get(ProposalRow, proposal.serial)
    current = proposal.status in CURRENT_PROPOSAL
    state = _proposal_to_dict(proposal)
    if row is None:
        session.add(ProposalRow(serial=proposal.serial, current=current, state=state))
        return
    row.current, row.state = current, state


def _write_ballot(session: Session, ballot: Ballot) -> None:
    row = session.get(ProposalBallotRow, ballot.nweek)
    is_open = ballot.closed_at is None
    state = _ballot_to_dict(ballot)
    if row is None:
        session.add(ProposalBallotRow(nweek=ballot.nweek, is_open=is_open, state=state))
        return
    row.is_open, row.state = is_open, state


def open_ballots(session: Session) -> list[Ballot]:
    """The Ballots not yet closed, oldest first (an indexed read)."""
    rows = session.scalars(
        select(ProposalBallotRow)
        .where(ProposalBallotRow.is_open.is_(True))
        .order_by(ProposalBallotRow.nweek)
    )
    return [_ballot_from_dict(row.state) for row in rows]


def current_proposals(session: Session) -> list[Proposal]:
    """Rule 151's current proposals, by serial (an indexed read)."""
    rows = session.scalars(
        select(ProposalRow).where(ProposalRow.current.is_(True)).order_by(ProposalRow.serial)
    )
    return [_proposal_from_dict(row.state) for row in rows]


def _proposal_to_dict(proposal: Proposal) -> dict[str, Any]:
    return {
        "serial": proposal.serial,
        "proponent_id": proposal.proponent_id,
        "proponent": proposal.proponent,
        "status": proposal.status.value,
        "creates_rule": proposal.creates_rule,
        "ever_shelved": proposal.ever_shelved,
        "ballots": list(proposal.ballots),
        "revisions": [
            {
                "number": revision.number,
                "title": revision.title,
                "text": revision.text,
                "at": instant_to_text(revision.at),
                "message_id": revision.message_id,
            }
            for revision in proposal.revisions
        ],
    }


def _proposal_from_dict(data: dict[str, Any]) -> Proposal:
    revisions = tuple(
        Revision(
            int(item["number"]),
            str(item["title"]),
            str(item["text"]),
            instant_from_text(item["at"]),
            str(item["message_id"]),
        )
        for item in data["revisions"]
    )
    return Proposal(
        serial=int(data["serial"]),
        proponent_id=int(data["proponent_id"]),
        proponent=str(data["proponent"]),
        revisions=revisions,
        status=Status(data["status"]),
        creates_rule=bool(data.get("creates_rule", False)),
        ever_shelved=bool(data.get("ever_shelved", False)),
        ballots=tuple(int(nweek) for nweek in data.get("ballots", [])),
    )


def _ballot_to_dict(ballot: Ballot) -> dict[str, Any]:
    return {
        "nweek": ballot.nweek,
        "called_at": instant_to_text(ballot.called_at),
        "polls": {str(serial): number for serial, number in sorted(ballot.polls.items())},
        "closed_at": None if ballot.closed_at is None else instant_to_text(ballot.closed_at),
    }


def _ballot_from_dict(data: dict[str, Any]) -> Ballot:
    closed = data.get("closed_at")
    return Ballot(
        nweek=int(data["nweek"]),
        called_at=instant_from_text(data["called_at"]),
        polls={int(serial): int(number) for serial, number in data["polls"].items()},
        closed_at=None if closed is None else instant_from_text(closed),
    )


# Rule 151's "current proposal": one still to be decided.
CURRENT_PROPOSAL = frozenset({Status.SUBMITTED, Status.ON_BALLOT, Status.SHELVED})


def refuse_name_of_proposed_entity(session: Session, name: str) -> None:
    """Rule 151: "No player may change eir name to that of an entity defined in a
    current proposal."

    A current proposal is one not yet decided (submitted, on the Ballot or
    shelved); its latest revision is what it defines.  Read for every name
    a player takes (a new player's, rule 14, and a Lost Soul's on
    rejoining) as for a change: one name for a player and a proposed
    entity is the confusion the rule prevents, however the name came.

    Raises IllegalActionError (rule 151) naming the proposal.
    """
    for proposal in current_proposals(session):
        if defines_name(proposal.current.text, name):
            raise IllegalActionError(
                f'"{name}" is the name of an entity defined in proposal '
                f"{proposal.id_string}, a current proposal: no player may take it",
                rule="151",
            )
