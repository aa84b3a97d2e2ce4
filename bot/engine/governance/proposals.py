"""Proposals and votes by mail: rules 19, 23, 216, 217 and 1440 of seed 004, and rule 15's votes.

Two adapters: ``ProposalsAdapter`` ("proposals.submit", "proposals.revise",
"proposals.rescind") and ``VotesAdapter`` ("polls.vote", on a Ballot's
proposal or on any stored poll by number).  A vote is the one action that
may be mailed to the bot privately: rule 15 B lets Concealable polls'
votes "be sent to the Chairman privately", and the Ballot's polls are
Concealable (rule 23).  The Ballot itself is called and closed by the timed
handler in ``bot.engine.governance.ballot``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from sqlalchemy.orm import Session

from bot.engine import holdings
from bot.engine.governance import polls as poll_store
from bot.engine.governance.proposal_book import (
    Proposal,
    ProposalBook,
    Revision,
    Status,
    highest_serial,
    load_ballot,
    load_proposal,
    renamed_book,
    save_book,
)
from bot.engine.rulings import Board, PlayerRef, Ruling, Turn, applied, rejected
from bot.games.errors import ActionError, IllegalActionError
from bot.parser import ParsedAction

if TYPE_CHECKING:
    from bot.engine.games.base import GameAdapter
    from bot.engine.services import Services

BALLOT_KIND = "ballot"


def governance_adapters(session: Session, services: Services) -> tuple[GameAdapter, ...]:
    """The adapters of this module, for ``Services.make_adapters``."""
    return (ProposalsAdapter(session, services), VotesAdapter(session, services))


class ProposalsAdapter:
    prefix = "proposals"
    private_actions: frozenset[str] = frozenset()  # rule 1897: submitted in the Public Forum

    def __init__(self, session: Session, services: Services) -> None:
        self.session = session
        self.services = services
        # Read on demand, so a post reads only what it touches: a submission
        # the highest serial (rule 5), a revision or rescission its proposal;
        # a post with no proposal action reads nothing.  ``_read`` is the
        # book as read, for ``save_book`` to tell what changed.
        self._read: ProposalBook | None = None
        self._book: ProposalBook | None = None
        self.changed = False

    @property
    def book(self) -> ProposalBook:
        if self._book is None:
            self._read = self._book = ProposalBook(highest_serial=highest_serial(self.session))
        return self._book

    def _proposal(self, serial: int) -> Proposal | None:
        """Proposal ``serial`` as this post has it, read from the store the first time."""
        found = self.book.proposals.get(serial)
        if found is None and (found := load_proposal(self.session, serial)) is not None:
            assert self._read is not None  # read with ``book``
            self._book, self._read = self.book.with_proposal(found), self._read.with_proposal(found)
        return found

    def apply(self, action: ParsedAction, turn: Turn) -> Ruling:
        handlers = {
            "proposals.submit": self._submit,
            "proposals.revise": self._revise,
            "proposals.rescind": self._rescind,
        }
        try:
            book, summary, rule = handlers[action.action](action, turn)
        except ActionError as error:
            return rejected(
                action.action, action.args, action.text, turn, error.message, error.rule
            )
        self._book, self.changed = book, True
        effects = ({"kind": "proposal", "action": action.action, "summary": summary},)
        return applied(
            action.action, action.args, action.text, turn, summary, rule=rule, effects=effects
        )

    def _submit(self, action: ParsedAction, turn: Turn) -> tuple[ProposalBook, str, str]:
        player = _player_of(turn)
        serial = self.book.next_serial(self.services.settings.proposals.first_serial)
        cost = self.services.settings.holdings.proposal_cost_bandwidth
        # Rule 19: General Props cost 2BW; rule 212's Bandwidth Chits pay for them.
        holdings.spend(
            self.session,
            player.id,
            holdings.BANDWIDTH,
            cost,
            at=turn.occurred_at,
            rule="19, 212",
            note=f"submitting proposal {serial}",
            message_pk=holdings.message_pk_of(self.session, turn.message_id),
        )
        title = str(action.args.get("title", ""))
        revision = Revision(0, title, str(action.args["text"]), turn.occurred_at, turn.message_id)
        proposal = Proposal(
            serial=serial,
            proponent_id=player.id,
            proponent=player.name,
            revisions=(revision,),
            creates_rule=bool(action.args.get("creates_rule", False)),
        )
        shown = f' "{title}"' if title else ""
        summary = f"proposal {proposal.id_string}{shown} submitted by {player.name} for {cost}BW"
        return self.book.with_proposal(proposal), summary, "19"

    def _revise(self, action: ParsedAction, turn: Turn) -> tuple[ProposalBook, str, str]:
        proposal = self._own_proposal(int(str(action.args["serial"])), turn, "revise")
        # Rule 19: revisable "between when they were first proposed and the next
        # beginning of a voting period"; rule 23: a Shelved one until the next.
        if not proposal.status.awaits_ballot:
            raise IllegalActionError(
                f"proposal {proposal.id_string} is {proposal.status.value}; a proposal may be "
                "revised only until the next Voting Period begins",
                rule="19",
            )
        title = str(action.args.get("title", "")) or proposal.current.title
        revision = Revision(
            proposal.current.number + 1,
            title,
            str(action.args["text"]),
            turn.occurred_at,
            turn.message_id,
        )
        revised = replace(proposal, revisions=(*proposal.revisions, revision))
        summary = f"proposal {proposal.serial} revised: it is now {revised.id_string}"
        return self.book.with_proposal(revised), summary, "19"

    def _rescind(self, action: ParsedAction, turn: Turn) -> tuple[ProposalBook, str, str]:
        proposal = self._own_proposal(int(str(action.args["serial"])), turn, "rescind")
        problem = _rescind_problem(proposal)
        if problem:
            raise IllegalActionError(f"proposal {proposal.id_string} {problem}", rule="1440")
        rescinded = replace(proposal, status=Status.RESCINDED)
        summary = f"proposal {proposal.id_string} is rescinded (its Bandwidth is not returned)"
        return self.book.with_proposal(rescinded), summary, "1440"

    def _own_proposal(self, serial: int, turn: Turn, verb: str) -> Proposal:
        player = _player_of(turn)
        proposal = self._proposal(serial)
        if proposal is None or proposal.status is Status.RESCINDED:
            raise IllegalActionError(f"there is no proposal {serial}", rule="19")
        if proposal.proponent_id != player.id:
            rule = "19" if verb == "revise" else "1440"
            raise IllegalActionError(
                f"proposal {proposal.id_string} was proposed by {proposal.proponent}; "
                f"only e may {verb} it",
                rule=rule,
            )
        return proposal

    def notes(self, visible_text: str) -> tuple[str, ...]:
        return ()

    def changed_boards(self) -> tuple[Board, ...]:
        return ()

    def rename_player(self, old: str, new: str) -> None:
        """Rule 151 earlier in this post: the proposals read before it follow the name.

        The stored ones were renamed in their rows (``rename_in_proposals``).
        """
        if self._book is not None:
            self._book = renamed_book(self._book, old, new)

    def save(self) -> None:
        if self.changed and self._read is not None and self._book is not None:
            self._read = save_book(self.session, self._read, self._book)


def _rescind_problem(proposal: Proposal) -> str:
    """Why rule 1440 does not allow rescinding ``proposal``, or ""."""
    if proposal.status is Status.ON_BALLOT:
        return "is being voted on"
    if proposal.ever_shelved:
        return "was shelved, and a previously shelved prop cannot be rescinded"
    if proposal.status in {Status.PASSED, Status.FAILED}:
        return f"has already {proposal.status.value}"
    return ""


def _player_of(turn: Turn) -> PlayerRef:
    if turn.player is None:  # the engine passes only players' actions
        raise IllegalActionError("only a player may do that", rule="1896")
    return turn.player


class VotesAdapter:
    prefix = "polls"
    # Rule 15 B: a Concealable poll's votes "may be sent to the Chairman privately".
    private_actions: frozenset[str] = frozenset({"polls.vote"})

    def __init__(self, session: Session, services: Services) -> None:
        self.session = session
        self.services = services

    def apply(self, action: ParsedAction, turn: Turn) -> Ruling:
        try:
            summary, rule, number = self._vote(action, turn)
        except ActionError as error:
            return rejected(
                action.action, action.args, action.text, turn, error.message, error.rule
            )
        # The poll voted on, for the commitment of a private vote (bot.engine.private_records).
        effects = ({"game": "polls", "poll": number, "private": turn.private},)
        return applied(
            action.action, action.args, action.text, turn, summary, rule=rule, effects=effects
        )

    def _vote(self, action: ParsedAction, turn: Turn) -> tuple[str, str, int]:
        player = _player_of(turn)
        number, label = self._poll_number(str(action.args["on"]), int(str(action.args["number"])))
        word = str(action.args["vote"])
        stored, vote = poll_store.vote_by_mail(
            self.session,
            self.services.clock,
            number,
            str(player.id),
            word,
            at=turn.occurred_at,
            private=turn.private,
        )
        sent = " (sent privately: published when the poll concludes)" if turn.private else ""
        summary = f'{player.name} votes "{word}" on {label}: {vote.reason}{sent}'
        return summary, "23" if stored.kind == BALLOT_KIND else "15", number

    def _poll_number(self, target: str, number: int) -> tuple[int, str]:
        if target == "poll":
            return number, f"poll {number}"
        proposal = load_proposal(self.session, number)
        if proposal is None or proposal.status is Status.RESCINDED:
            raise IllegalActionError(f"there is no proposal {number}", rule="19")
        if proposal.status is not Status.ON_BALLOT and proposal.ballots:
            raise IllegalActionError(
                f"voting on proposal {proposal.id_string} ended when the Ballot of nweek "
                f"{proposal.ballots[-1] + 1} closed; it is {proposal.status.value}",
                rule="23",
            )
        if proposal.status is not Status.ON_BALLOT:
            raise IllegalActionError(
                f"proposal {proposal.id_string} is {proposal.status.value}, not on the Ballot; "
                "the Ballot is called at the start of each Voting Period",
                rule="23",
            )
        ballot = load_ballot(self.session, proposal.ballots[-1])
        assert ballot is not None, "a proposal on the Ballot has its Ballot stored"
        return ballot.polls[number], f"proposal {proposal.id_string}"

    def notes(self, visible_text: str) -> tuple[str, ...]:
        return ()

    def changed_boards(self) -> tuple[Board, ...]:
        return ()

    def save(self) -> None:
        """Votes are stored as they are cast."""
