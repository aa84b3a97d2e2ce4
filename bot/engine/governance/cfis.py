"""Calls For Inquiry by mail (rule 125 of seed 004): submit, defend, vote, rule, reward.

``CfiAdapter`` ("cfi.submit", "cfi.argue", "cfi.vote") keeps each CFI in a
``cfi`` row, found by its number or its poll's (the ``game`` row ``cfis``
holds the next number), and
its poll in the poll store (``kind="cfi"``): Eligible Voters the players not
On Leave at the creation, less Plaintiff and Defendant; Duration until the
4th Midnight UTC after the creation (real time, so no Clock stop moves it);
Short-Circuited and Strict; options Refused, True and False.

``close_due_cfis`` is the timed handler: it closes every CFI poll that has
Concluded (by its deadline or by the last Eligible Voter's vote, to the
second), rules by rule 125's sums, pays every non-abstaining voter 5 tildex
and 1 Temporary Wisdom through the holdings ledger, and mails the ruling
with every vote to the list.  The bot changes no game state by itself: a
Resolution ruled In Favor is mailed for implementation, as a passed
proposal is reported for recognition.

Readings: Strict means a voter's first vote on a CFI is final (see
``bot.games.governance.polls.voting``), so a changed vote is rejected; the
Defendant must be a player (so that e can argue and is left out of the
voters), and cannot be the Plaintiff.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from bot.engine import holdings
from bot.engine.governance import polls as poll_store
from bot.engine.players import active_players, find_player_by_name
from bot.engine.rulings import Board, PlayerRef, Ruling, Turn, applied, rejected
from bot.games.errors import ActionError, IllegalActionError
from bot.games.governance.polls import (
    CFI_OPTIONS,
    Cfi,
    CfiRuling,
    Flag,
    RealTimePoint,
    cfi_deadline,
    cfi_eligible_voters,
    conclusion_instant,
    rule_on_cfi,
    submit_defendant_argument,
)
from bot.games.governance.polls.cfi import REWARD_TEMPORARY_WISDOM, REWARD_TILDEX
from bot.games.governance.polls.serialize import instant_from_text, instant_to_text
from bot.outbound.compose import compose_report
from bot.parser import ParsedAction
from bot.parser.areas.cfi import read_document
from bot.store.models import CfiRow

if TYPE_CHECKING:
    from bot.engine.services import Services
    from bot.engine.views import View

CFI_KIND = "cfi"
COUNTER_NAME = "cfis"


@dataclass(frozen=True)
class StoredCfi:
    """A CFI as stored: the document, its parties by player id, its poll number, its ruling."""

    number: int
    title: str
    plaintiff: str
    argument: str
    resolution: tuple[str, ...]
    poll_number: int
    submitted_at: datetime
    defendant: str | None = None
    defendant_argument: str | None = None
    ruling: str | None = None

    def as_cfi(self, stored_poll: poll_store.StoredPoll) -> Cfi:
        """The pure ``Cfi`` of rule 125 with its poll as stored."""
        return Cfi(
            self.title,
            self.plaintiff,
            self.argument,
            self.resolution,
            stored_poll.poll,
            defendant=self.defendant,
            defendant_argument=self.defendant_argument,
        )


class CfiAdapter:
    prefix = "cfi"
    private_actions: frozenset[str] = frozenset()  # rule 125 polls are not Concealable

    def __init__(self, session: Session, services: Services) -> None:
        self.session = session
        self.services = services

    def apply(self, action: ParsedAction, turn: Turn) -> Ruling:
        handlers = {"cfi.submit": self._submit, "cfi.argue": self._argue, "cfi.vote": self._vote}
        try:
            summary = handlers[action.action](action.args, turn)
        except ActionError as error:
            return rejected(
                action.action, action.args, action.text, turn, error.message, error.rule
            )
        return applied(action.action, action.args, action.text, turn, summary, rule="125")

    def _submit(self, args: Mapping[str, Any], turn: Turn) -> str:
        plaintiff = _player_of(turn)
        defendant_name = args.get("defendant")
        document = read_document(
            str(args.get("text", "")), str(args.get("title", "")), defendant_name
        )
        defendant = self._defendant(document.defendant, plaintiff)
        voters = cfi_eligible_voters(
            (str(player.id) for player in active_players(self.session)),
            str(plaintiff.id),
            None if defendant is None else str(defendant.id),
        )
        first = self.services.settings.cfis.first_serial  # rule 5: 100 unless continuing
        number = poll_store.next_serial(self.session, COUNTER_NAME, first)
        stored_poll = poll_store.create_poll(
            self.session,
            kind=CFI_KIND,
            subject=f"CFI {number}",
            issue=f"CFI {number}, {document.title}",
            voters=voters,
            duration=RealTimePoint(cfi_deadline(turn.occurred_at)),
            called_at=turn.occurred_at,
            flags=(Flag.SHORT_CIRCUITED, Flag.STRICT),
            options=CFI_OPTIONS,
        )
        stored = StoredCfi(
            number,
            document.title,
            str(plaintiff.id),
            document.argument,
            document.resolution,
            stored_poll.number,
            turn.occurred_at,
            defendant=None if defendant is None else str(defendant.id),
        )
        save_cfi(self.session, stored)
        against = f" against {defendant.name}" if defendant else ""
        deadline = cfi_deadline(turn.occurred_at).strftime("%Y-%m-%d %H:%M UTC")
        return (
            f'CFI {number} "{document.title}" submitted by {plaintiff.name}{against}; '
            f"{len(voters)} eligible voter(s), voting until {deadline}"
        )

    def _defendant(self, name: str | None, plaintiff: PlayerRef) -> PlayerRef | None:
        if name is None:
            return None
        defendant = find_player_by_name(self.session, name)
        if defendant.id == plaintiff.id:
            raise IllegalActionError("the Plaintiff cannot also be the Defendant", rule="125")
        return defendant

    def _argue(self, args: Mapping[str, Any], turn: Turn) -> str:
        author = _player_of(turn)
        stored, stored_poll = self._cfi(int(args["number"]))
        if stored.defendant is None or stored.defendant != str(author.id):
            raise IllegalActionError(
                f"only the Defendant may argue on CFI {stored.number}, and {author.name} is not",
                rule="125",
            )
        if stored_poll.closed_at is not None:
            raise IllegalActionError(f"the poll on CFI {stored.number} has closed", rule="125")
        cfi = submit_defendant_argument(
            stored.as_cfi(stored_poll), str(author.id), str(args["text"]), turn.occurred_at
        )
        save_cfi(self.session, replace(stored, defendant_argument=cfi.defendant_argument))
        return f"{author.name} submits the Defendant's Argument in CFI {stored.number}"

    def _vote(self, args: Mapping[str, Any], turn: Turn) -> str:
        voter = _player_of(turn)
        stored, _ = self._cfi(int(args["number"]))
        word = str(args["vote"])
        updated, vote = poll_store.vote_by_mail(
            self.session,
            self.services.clock,
            stored.poll_number,
            str(voter.id),
            word,
            at=turn.occurred_at,
        )
        summary = f'{voter.name} votes "{word}" on CFI {stored.number}: {vote.reason}'
        # Rule 15 B Short-Circuited: the last Eligible Voter's vote concludes
        # the poll at once, so the ruling is made with this post.
        if conclusion_instant(updated.poll) == turn.occurred_at:
            decision = close_cfi(self.session, self.services, stored, updated, turn.occurred_at)
            summary += f"; every Eligible Voter has voted: CFI {stored.number} is ruled "
            summary += decision.ruling.value
        return summary

    def _cfi(self, number: int) -> tuple[StoredCfi, poll_store.StoredPoll]:
        stored = load_cfi(self.session, number)
        if stored is None:
            raise IllegalActionError(f"there is no CFI {number}", rule="125")
        stored_poll = poll_store.load_poll(self.session, self.services.clock, stored.poll_number)
        assert stored_poll is not None, "a CFI's poll is stored with it"
        return stored, stored_poll

    def notes(self, visible_text: str) -> tuple[str, ...]:
        return ()

    def changed_boards(self) -> tuple[Board, ...]:
        return ()

    def save(self) -> None:
        """CFIs and votes are stored as they are made."""


def _player_of(turn: Turn) -> PlayerRef:
    if turn.player is None:  # the engine passes only players' actions
        raise IllegalActionError("only a player may do that", rule="125")
    return turn.player


def close_due_cfis(session: Session, services: Services, after: datetime, until: datetime) -> None:
    """Timed handler: rule on every CFI whose poll Concluded by ``until``, in time order."""
    due = poll_store.due_polls(session, services.clock, until, CFI_KIND)
    for stored_poll in sorted(due, key=lambda item: (conclusion_instant(item.poll), item.number)):
        stored = _cfi_of_poll(session, stored_poll.number)
        instant = conclusion_instant(stored_poll.poll)
        assert stored is not None and instant is not None, "a due CFI poll has a CFI and an end"
        close_cfi(session, services, stored, stored_poll, instant)


def cfi_due(session: Session, services: Services, after: datetime) -> datetime | None:
    """When ``close_due_cfis`` next has something to do: a CFI poll's conclusion (rule 125)."""
    return poll_store.earliest_conclusion(session, services.clock, CFI_KIND)


def close_cfi(
    session: Session,
    services: Services,
    stored: StoredCfi,
    stored_poll: poll_store.StoredPoll,
    at: datetime,
) -> CfiRuling:
    """Rule 125 at the conclusion: the ruling, the rewards, and the mail to the list."""
    decision = rule_on_cfi(stored.as_cfi(stored_poll), at)
    closed, _ = poll_store.close_poll(session, stored_poll, at)
    save_cfi(session, replace(stored, ruling=decision.ruling.value))
    nweek = services.clock.reading(decision.concluded_at).nweek
    created = {
        int(reward.player): _pay(
            session, stored.number, int(reward.player), decision.concluded_at, nweek
        )
        for reward in decision.rewards
    }
    session.add(_ruling_mail(session, services, stored, closed, decision, created))
    return decision


def _pay(
    session: Session, number: int, player_id: int, at: datetime, nweek: int
) -> holdings.BasinCreation:
    # Rule 125: "each player who voted something besides Abstain in the CFI
    # receives 5 tildex and 1 Temporary Wisdom": tildex with no source, so the
    # Basin's, within its 10000~ of the nweek (rule 21 A.2).
    note = f"voting on CFI {number}"
    created = holdings.create_tildex(
        session,
        player_id,
        REWARD_TILDEX,
        nweek=nweek,
        at=at,
        rule="125",
        note=note,
        source="scheduler",
    )
    wisdom = holdings.renown("Wisdom", permanent=False)
    holdings.gain(
        session,
        player_id,
        wisdom,
        REWARD_TEMPORARY_WISDOM,
        at=at,
        rule="125, 1899",
        note=note,
        source="scheduler",
    )
    return created


def _basin_cuts(named: dict[str, str], created: dict[int, holdings.BasinCreation]) -> list[str]:
    """Rule 21 A.2: the rewards the Basin's cap cut, each with what it created."""
    return [
        f"{named[str(player)]} receives {holdings.format_amount(holdings.TILDEX, made.created)}"
        f" (rule 21 A.2: {made.shortfall()})."
        for player, made in created.items()
        if made.withheld
    ]


def _ruling_mail(
    session: Session,
    services: Services,
    stored: StoredCfi,
    closed: poll_store.StoredPoll,
    decision: CfiRuling,
    created: dict[int, holdings.BasinCreation],
) -> Any:
    named = poll_store.names(session, _parties(stored) + [cast.voter for cast in closed.poll.votes])
    votes = poll_store.visible_votes(closed).votes
    early = decision.concluded_at < cfi_deadline(stored.submitted_at)
    variables = {
        **_cfi_item(stored, named),
        "ruling": decision.ruling.value,
        "in_favor": bool(decision.changes_to_implement),
        "changes": list(decision.changes_to_implement),
        "tally": {
            "yes": decision.tally.yes,
            "no": decision.tally.no,
            "refused": decision.tally.refused,
            "abstain": decision.tally.abstain,
        },
        "votes": [
            {"voter": named[cast.voter], "vote": cast.vote.choice.value, "text": cast.vote.text}
            for cast in votes
        ],
        "rewarded": [named[reward.player] for reward in decision.rewards],
        "tildex": REWARD_TILDEX,
        "basin_cuts": _basin_cuts(named, created),
        "wisdom": REWARD_TEMPORARY_WISDOM,
        "closed": instant_label(decision.concluded_at),
        "how": "every Eligible Voter has voted (Short-Circuited)" if early else "its deadline",
    }
    return compose_report(
        services,
        "cfi-ruling",
        str(stored.number),
        f"[cfi] CFI {stored.number} ruled {decision.ruling.value}",
        "cfi/ruling.txt.j2",
        variables,
        decision.concluded_at,
    )


def _parties(stored: StoredCfi) -> list[str]:
    return [stored.plaintiff] + ([stored.defendant] if stored.defendant else [])


def _cfi_item(stored: StoredCfi, named: Mapping[str, str]) -> dict[str, Any]:
    return {
        "number": stored.number,
        "title": stored.title,
        "plaintiff": named[stored.plaintiff],
        "defendant": named[stored.defendant] if stored.defendant else None,
        "argument": stored.argument,
        "defendant_argument": stored.defendant_argument,
        "resolution": list(stored.resolution),
    }


def instant_label(instant: datetime) -> str:
    return instant.strftime("%Y-%m-%d %H:%M:%S UTC")


def cfis_view(session: Session, services: Services) -> View:
    """The Attorney Generalist's display: pending CFIs, deadlines, votes, who has not voted."""
    from bot.engine.views import View

    pending = [
        (stored, stored_poll)
        for stored in all_cfis(session)
        if stored.ruling is None
        for stored_poll in [poll_store.load_poll(session, services.clock, stored.poll_number)]
        if stored_poll is not None
    ]
    data = [_pending_item(session, stored, stored_poll) for stored, stored_poll in pending]
    lines = [_pending_line(item) for item in data]
    return View("\n".join(lines) or "no pending CFIs", data)


def _pending_item(
    session: Session, stored: StoredCfi, stored_poll: poll_store.StoredPoll
) -> dict[str, Any]:
    voted = [cast.voter for cast in poll_store.visible_votes(stored_poll).votes]
    waiting = sorted(stored_poll.poll.eligible_voters - set(voted))
    named = poll_store.names(session, _parties(stored) + voted + waiting)
    return {
        **_cfi_item(stored, named),
        "deadline": instant_to_text(cfi_deadline(stored.submitted_at)),
        "votes": [
            {"voter": named[cast.voter], "vote": cast.vote.choice.value}
            for cast in poll_store.visible_votes(stored_poll).votes
        ],
        "not_voted": sorted(named[voter] for voter in waiting),
    }


def _pending_line(item: Mapping[str, Any]) -> str:
    votes = ", ".join(f"{vote['voter']} {vote['vote']}" for vote in item["votes"]) or "no votes"
    waiting = ", ".join(item["not_voted"]) or "nobody"
    return (
        f"CFI {item['number']} {item['title']} by {item['plaintiff']}, until "
        f"{item['deadline']}: {votes}; not voted: {waiting}"
    )


def load_cfi(session: Session, number: int) -> StoredCfi | None:
    row = session.get(CfiRow, number)
    return None if row is None else from_state(row.state)


def all_cfis(session: Session) -> list[StoredCfi]:
    rows = session.scalars(select(CfiRow).order_by(CfiRow.number))
    return [from_state(row.state) for row in rows]


def _cfi_of_poll(session: Session, poll_number: int) -> StoredCfi | None:
    row = session.scalar(select(CfiRow).where(CfiRow.poll_number == poll_number))
    return None if row is None else from_state(row.state)


def save_cfi(session: Session, stored: StoredCfi) -> None:
    row = session.get(CfiRow, stored.number)
    if row is None:
        state = to_state(stored)
        session.add(CfiRow(number=stored.number, poll_number=stored.poll_number, state=state))
        return
    row.poll_number, row.state = stored.poll_number, to_state(stored)


def to_state(stored: StoredCfi) -> dict[str, Any]:
    return {
        "number": stored.number,
        "title": stored.title,
        "plaintiff": stored.plaintiff,
        "argument": stored.argument,
        "resolution": list(stored.resolution),
        "poll_number": stored.poll_number,
        "submitted_at": instant_to_text(stored.submitted_at),
        "defendant": stored.defendant,
        "defendant_argument": stored.defendant_argument,
        "ruling": stored.ruling,
    }


def from_state(state: Mapping[str, Any]) -> StoredCfi:
    """Raises ``KeyError``/``ValueError`` for a row ``to_state`` did not write."""
    return StoredCfi(
        number=int(state["number"]),
        title=str(state["title"]),
        plaintiff=str(state["plaintiff"]),
        argument=str(state["argument"]),
        resolution=tuple(str(item) for item in state["resolution"]),
        poll_number=int(state["poll_number"]),
        submitted_at=instant_from_text(state["submitted_at"]),
        defendant=state.get("defendant"),
        defendant_argument=state.get("defendant_argument"),
        ruling=state.get("ruling"),
    )
