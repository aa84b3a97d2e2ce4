"""``nomicbot state proposals`` / ``state ballot`` / ``state polls``: read-only views.

Rule 15 B: a vote sent privately to a Concealable poll is never shown
before the poll is closed; only how many are held back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session

from bot.engine.governance import polls as poll_store
from bot.engine.governance.proposal_book import (
    Proposal,
    current_proposals,
    latest_ballot,
    load_book,
    load_proposal,
)
from bot.engine.private_records import sealed_count
from bot.games.governance.polls import Flag, deadline_of

if TYPE_CHECKING:
    from bot.engine.services import Services
    from bot.engine.views import View


def governance_views() -> dict[str, Callable[[Session, Services], View]]:
    return {"proposals": proposals_view, "ballot": ballot_view, "polls": polls_view}


def proposals_view(session: Session, services: Services) -> View:
    """Every proposal ever submitted (``nomicbot state proposals``): the whole book."""
    _, book = load_book(session)
    return _proposals_listed(
        [book.proposals[serial] for serial in sorted(book.proposals)], "no proposals yet"
    )


def current_proposals_view(session: Session, services: Services) -> View:
    """Rule 625 D.10's "Public Display of all current proposals": those not yet decided.

    One indexed read, whatever the number of proposals decided before: the
    Chairman's digest shows it every day of a game that may last years.
    """
    return _proposals_listed(current_proposals(session), "no current proposals")


def _proposals_listed(proposals: list[Proposal], empty: str) -> View:
    from bot.engine.views import View

    data = [
        {
            "id": proposal.id_string,
            "serial": proposal.serial,
            "title": proposal.title,
            "proponent": proposal.proponent,
            "status": proposal.status.value,
            "submitted_at": proposal.revisions[0].at.isoformat(),
            "text": proposal.current.text,
            # What the next ruling on it reads: rescinding (rule 1440) and the
            # next Ballot (rule 23) ask whether it was ever shelved; rule 216's kind.
            "ever_shelved": proposal.ever_shelved,
            "creates_rule": proposal.creates_rule,
            "ballots": [nweek + 1 for nweek in proposal.ballots],
        }
        for proposal in proposals
    ]
    lines = [
        f"{item['id']} {item['title']} by {item['proponent']}: {item['status']}" for item in data
    ]
    return View("\n".join(lines) or empty, data)


def ballot_view(session: Session, services: Services, electorate: bool = True) -> View:
    """The latest Ballot with its running tally: public votes only until it closes.

    Without ``electorate``, the data names no Eligible Voters (the text never
    does): for the Chairman's digest, which shows the votes only.
    """
    from bot.engine.views import View

    # The latest Ballot and its proposals only, not the whole book: digests show it.
    ballot = latest_ballot(session)
    if ballot is None:
        return View("no Ballot has been called yet", None)
    items = [
        _ballot_item(session, services, serial, number, electorate)
        for serial, number in sorted(ballot.polls.items())
    ]
    state = "closed" if ballot.closed_at else "open"
    data = {"nweek": ballot.nweek + 1, "state": state, "proposals": items}
    lines = [f"Ballot of nweek {ballot.nweek + 1} ({state})"]
    lines.extend(_item_line(item) for item in items)
    return View("\n".join(lines), data)


def _ballot_item(
    session: Session, services: Services, serial: int, number: int, electorate: bool
) -> dict[str, Any]:
    proposal = load_proposal(session, serial)
    assert proposal is not None, "a Ballot's proposals are stored with it"
    stored = poll_store.load_poll(session, services.clock, number)
    assert stored is not None, "a Ballot's polls are stored with it"
    return {
        "id": proposal.id_string,
        "title": proposal.title,
        "status": proposal.status.value,
        **_poll_data(session, stored, electorate),
    }


def polls_view(session: Session, services: Services) -> View:
    from bot.engine.views import View

    polls = poll_store.all_polls(session, services.clock)
    data = [
        {
            "number": stored.number,
            "kind": stored.kind,
            "subject": stored.subject,
            **_poll_data(session, stored),
        }
        for stored in polls
    ]
    lines = [
        f"poll {item['number']} ({item['kind']}, {item['subject']}): " + _votes_text(item)
        for item in data
    ]
    return View("\n".join(lines) or "no polls yet", data)


def _poll_data(
    session: Session, stored: poll_store.StoredPoll, electorate: bool = True
) -> dict[str, Any]:
    """What may be published of a poll: its votes, electorate and deadline.

    Rule 15 B keeps a Concealable poll's private voters out of the public
    view entirely, so its Eligible Voters are shown only once it is closed
    (beside the votes shown, they would name who voted privately), and only
    the Duration's deadline is shown: an early conclusion may rest on
    private votes.
    """
    visible = poll_store.visible_votes(stored)
    closed = stored.closed_at is not None
    concealed = stored.poll.has(Flag.CONCEALABLE) and not closed
    shown = electorate and not concealed
    eligible = sorted(stored.poll.eligible_voters) if shown else []
    named = poll_store.names(session, [cast.voter for cast in visible.votes] + eligible)
    deadline = deadline_of(stored.poll.duration, stored.poll.called_at)
    return {
        "closed": closed,
        "called_at": stored.poll.called_at.isoformat(),
        "deadline": deadline.isoformat() if deadline else None,
        "eligible_voters": sorted(named[voter] for voter in eligible) if shown else None,
        "flags": sorted(flag.value for flag in stored.poll.flags),
        "votes": [
            {"voter": named[cast.voter], "vote": poll_store.vote_label(stored, cast)}
            for cast in visible.votes
        ],
        # Sealed: committed to in the archive, revealed at the close (docs/archive.md).
        "withheld": visible.withheld + (0 if closed else sealed_count(session, stored.number)),
    }


def _item_line(item: dict[str, Any]) -> str:
    return f"  {item['id']} {item['title']} [{item['status']}]: {_votes_text(item)}"


def _votes_text(item: dict[str, Any]) -> str:
    votes = ", ".join(f"{vote['voter']} {vote['vote']}" for vote in item["votes"]) or "no votes"
    withheld = (
        f"; {item['withheld']} sent privately, shown at the close" if item["withheld"] else ""
    )
    return votes + withheld
