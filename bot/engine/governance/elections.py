"""Ministerial Elections and Deputies by mail (rules 625 B-C, 1823 and 1272, seed 004).

``ElectionsAdapter`` judges the ``elections.*`` actions of a post;
``advance_elections`` is the timed handler that closes nominations and
votes at their deadlines and performs Ministry Rotation at the start of each
nweek; ``elections_view`` and ``ministries_state`` are the ``nomicbot state``
views.  The bookkeeping they share is ``election_desk.ElectionDesk``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session

from bot.engine import timed
from bot.engine.forfeits import Forfeited
from bot.engine.governance.election_desk import ElectionDesk, last_ballots
from bot.engine.governance.election_state import (
    Answer,
    Ballot,
    Election,
    Nomination,
    Phase,
    describe_instant,
    election_to_json,
    elections_in_progress,
    load_book,
    ndays_after,
    timetable_of,
)
from bot.engine.governance.ministries import (
    Ministry,
    designate_deputy,
    ministries_view,
    revoke_deputy,
    without_deputy,
)
from bot.engine.players import find_player_by_name
from bot.engine.rulings import Board, Ruling, Turn, applied, rejected
from bot.games.errors import ActionError, AmbiguousActionError, IllegalActionError
from bot.games.governance.elections import method_named, read_vote
from bot.parser import ParsedAction

if TYPE_CHECKING:
    from bot.engine.services import Services

OPEN_NDAYS = 5  # rule 625 B: "no player other than emself has held the Ministry for ... five ndays"
RULES = {
    "elections.call": "625 B",
    "elections.nominate": "625 B",
    "elections.accept": "625 B",
    "elections.reject": "625 B",
    "elections.vote": "1823",
    "elections.pick": "1823 C",
    "elections.designate": "1272",
    "elections.revoke": "1272",
    "elections.resign": "1272",
}
Handler = Callable[[ParsedAction, Turn, str], str]


class ElectionsAdapter:
    prefix = "elections"
    # Ministerial Elections are not Concealable (rule 625 B): every action is public.
    private_actions: frozenset[str] = frozenset()

    def __init__(self, session: Session, services: Services) -> None:
        self.session = session
        self.services = services
        self._desk: ElectionDesk | None = None

    def desk(self) -> ElectionDesk:
        if self._desk is None:
            self._desk = ElectionDesk(self.session, self.services)
        return self._desk

    def apply(self, action: ParsedAction, turn: Turn) -> Ruling:
        assert turn.player is not None, "the engine only passes players' actions"
        handlers: dict[str, Handler] = {
            "elections.call": self._call,
            "elections.nominate": self._nominate,
            "elections.accept": self._accept,
            "elections.reject": self._reject,
            "elections.vote": self._vote,
            "elections.pick": self._pick,
            "elections.designate": self._designate,
            "elections.revoke": self._revoke,
            "elections.resign": self._resign,
        }
        rule = RULES.get(action.action, "625")
        try:
            summary = handlers[action.action](action, turn, turn.player.name)
        except ActionError as error:
            return rejected(
                action.action, action.args, action.text, turn, error.message, error.rule or rule
            )
        return applied(action.action, action.args, action.text, turn, summary, rule=rule)

    # -- calling (rule 625 B, C) ---------------------------------------------------

    def _call(self, action: ParsedAction, turn: Turn, player: str) -> str:
        desk = self.desk()
        ministry = desk.ministries.named(str(action.args["ministry"]))
        method = method_named(_optional(action, "method"))
        self._check_may_call(desk, ministry, player, turn.occurred_at)
        election = desk.call(ministry, player, player, method, turn.occurred_at)
        return desk.describe_call(election)

    def _check_may_call(
        self, desk: ElectionDesk, ministry: Ministry, player: str, at: datetime
    ) -> None:
        """Raises ``IllegalActionError`` naming the condition of rule 625 B or C that fails."""
        running = desk.book.in_progress_for(ministry.name)
        if running is not None:
            raise IllegalActionError(
                f"there is already an Election in progress for {ministry.name} "
                f"({running.label()}, {running.phase.value})",
                rule="625 B",
            )
        if ministry.holder == player:
            return  # rule 625 C: a Minister leaves eir Ministry by calling an Election for it
        if not ministry.is_open:
            raise IllegalActionError(
                f"{ministry.name} is not Open: {ministry.holder} holds it, and only an Open "
                "Ministry's Election may be called (its Minister may call one to leave it, 625 C)",
                rule="625 B",
            )
        if desk.godel() == player:
            return  # "Kurt Godel may call such elections regardless of how many ndays have passed"
        self._check_open_long_enough(ministry, player, at)

    def _check_open_long_enough(self, ministry: Ministry, player: str, at: datetime) -> None:
        if ministry.open_since is None or ministry.last_holder in (None, player):
            return
        allowed = ndays_after(self.services.clock.config, ministry.open_since, OPEN_NDAYS)
        if allowed is None or at < allowed:
            raise IllegalActionError(
                f"{ministry.last_holder} held {ministry.name} within the last five ndays (it is "
                f"Open since {ministry.open_since:%Y-%m-%d %H:%M:%S} UTC); any player may call "
                f"its Election from {describe_instant(allowed, 'then')}, Kurt Godel at any time",
                rule="625 B",
            )

    # -- nominations (rule 625 B) -----------------------------------------------------

    def _nominating(self, ministry_text: str, at: datetime) -> Election:
        desk = self.desk()
        ministry = desk.ministries.named(ministry_text)
        election = self._current(desk, ministry)
        closes = desk.timetable.nominations_close(election)
        if election.phase is not Phase.NOMINATING or (closes is not None and at >= closes):
            raise IllegalActionError(
                f"the nominations for {election.label()} closed at {self.desk().when(closes)}",
                rule="625 B",
            )
        return election

    def _current(self, desk: ElectionDesk, ministry: Ministry) -> Election:
        """The Election in progress for ``ministry``, else the last one (closed)."""
        election = desk.book.in_progress_for(ministry.name)
        held = [e for e in desk.book.elections if e.ministry == ministry.name]
        if election is not None:
            return election
        if not held:
            raise IllegalActionError(
                f"there is no Election in progress for {ministry.name}", rule="625 B"
            )
        return held[-1]

    def _nominate(self, action: ParsedAction, turn: Turn, player: str) -> str:
        election = self._nominating(str(action.args["ministry"]), turn.occurred_at)
        written = str(action.args.get("nominee") or "")
        nominee = find_player_by_name(self.session, written).name if written else player
        if nominee in election.accepted:
            raise IllegalActionError(
                f"{nominee} is already a Candidate in {election.label()}", rule="625 B"
            )
        # A player who nominates emself has accepted in the same breath (docs/readings.md).
        answer = Answer.ACCEPTED if nominee == player else Answer.PENDING
        nomination = Nomination(nominee, player, turn.occurred_at, answer)
        self.desk().put(replace(election, nominations=(*election.nominations, nomination)))
        if answer is Answer.ACCEPTED:
            return f"{nominee} nominates emself and is a Candidate in {election.label()}"
        return (
            f"{nominee} is nominated in {election.label()}; e becomes a Candidate on posting "
            f'"I accept my nomination for {election.ministry}"'
        )

    def _accept(self, action: ParsedAction, turn: Turn, player: str) -> str:
        election = self._own_nomination(action, turn, player)
        self.desk().put(election.with_answer(player, Answer.ACCEPTED))
        return f"{player} accepts eir nomination and is a Candidate in {election.label()}"

    def _reject(self, action: ParsedAction, turn: Turn, player: str) -> str:
        election = self._own_nomination(action, turn, player)
        self.desk().put(election.with_answer(player, Answer.REJECTED))
        return f"{player} rejects eir nomination and is not a Candidate in {election.label()}"

    def _own_nomination(self, action: ParsedAction, turn: Turn, player: str) -> Election:
        written = _optional(action, "ministry")
        if written is not None:
            election = self._nominating(written, turn.occurred_at)
            if election.nomination_of(player) is None:
                raise IllegalActionError(
                    f"{player} has not been nominated in {election.label()}", rule="625 B"
                )
            return election
        desk = self.desk()
        mine = [
            e
            for e in desk.book.elections
            if e.phase is Phase.NOMINATING and e.nomination_of(player) is not None
        ]
        if not mine:
            raise IllegalActionError(
                f"{player} has no nomination in an open Election", rule="625 B"
            )
        if len(mine) > 1:
            labels = ", ".join(e.label() for e in mine)
            raise AmbiguousActionError(
                f"{player} is nominated in {labels}: say which", rule="625 B"
            )
        return self._nominating(mine[0].ministry, turn.occurred_at)

    # -- voting (rule 1823) ---------------------------------------------------------------

    def _vote(self, action: ParsedAction, turn: Turn, player: str) -> str:
        election = self._voting(str(action.args["ministry"]), turn.occurred_at)
        entries = [str(entry) for entry in _list(action.args.get("choices"))]
        choices = tuple(candidate_named(election, entry) for entry in entries)
        read_vote(choices, election.candidates, election.method)  # raises when not a legal vote
        ballot = Ballot(player, choices, turn.occurred_at, turn.message_id)
        replaced = (
            " (replacing eir earlier vote)" if self.desk().has_voted(election, player) else ""
        )
        self.desk().cast(election, ballot)
        listed = ", ".join(choices) or "nobody"
        kind = "approves" if not election.method.is_ranked else "ranks"
        return f"{player} {kind} {listed} in {election.label()}{replaced}"

    def _voting(self, ministry_text: str, at: datetime) -> Election:
        desk = self.desk()
        ministry = desk.ministries.named(ministry_text)
        election = self._current(desk, ministry)
        if election.phase is Phase.NOMINATING:
            opens = desk.timetable.nominations_close(election)
            raise IllegalActionError(
                f"the voting in {election.label()} has not begun: nominations are open until "
                f"{desk.when(opens)}",
                rule="625 B",
            )
        closes = desk.timetable.voting_closes(election)
        if election.phase is Phase.CLOSED:
            closes = election.closed_at
        if election.phase is not Phase.VOTING or (closes is not None and at >= closes):
            raise IllegalActionError(
                f"the voting in {election.label()} closed at {desk.when(closes)}",
                rule="1823",
            )
        return election

    def _pick(self, action: ParsedAction, turn: Turn, player: str) -> str:
        desk = self.desk()
        ministry = desk.ministries.named(str(action.args["ministry"]))
        election = desk.book.in_progress_for(ministry.name)
        if election is None or election.phase is not Phase.AWAITING_MODERATOR:
            raise IllegalActionError(
                f"no Election for {ministry.name} awaits a Moderator's pick", rule="1823 C"
            )
        if election.moderator != player:
            raise IllegalActionError(
                f"only the Moderator of {election.label()}, {election.moderator}, picks",
                rule="1823",
            )
        choice = candidate_named(election, str(action.args["choice"]))
        return desk.pick(election, choice, turn.occurred_at)

    # -- Deputies (rule 1272) -----------------------------------------------------------------

    def _designate(self, action: ParsedAction, turn: Turn, player: str) -> str:
        ministry = self._ministers_ministry(action, turn, player)
        deputy = find_player_by_name(self.session, str(action.args["deputy"])).name
        self.desk().put_ministry(designate_deputy(ministry, player, deputy))
        return f"{deputy} is {player}'s Deputy for {ministry.name} (rule 1272)"

    def _revoke(self, action: ParsedAction, turn: Turn, player: str) -> str:
        ministry = self._ministers_ministry(action, turn, player)
        deputy = find_player_by_name(self.session, str(action.args["deputy"])).name
        self.desk().put_ministry(revoke_deputy(ministry, player, deputy))
        return f"{deputy} is no longer a Deputy for {ministry.name} (rule 1272)"

    def _resign(self, action: ParsedAction, turn: Turn, player: str) -> str:
        desk = self.desk()
        written = _optional(action, "ministry")
        if written is not None:
            ministry = desk.ministries.named(written)
        else:
            ministry = _only(
                [m for m in desk.ministries.items if player in m.deputies],
                f"{player} is nobody's Deputy",
            )
        desk.put_ministry(without_deputy(ministry, player))
        return f"{player} resigns as Deputy for {ministry.name} (rule 1272)"

    def _ministers_ministry(self, action: ParsedAction, turn: Turn, player: str) -> Ministry:
        desk = self.desk()
        written = _optional(action, "ministry")
        if written is not None:
            return desk.ministries.named(written)
        return _only(list(desk.ministries.held_by(player)), f"{player} holds no Ministry")

    # -- the engine's protocol ---------------------------------------------------------------------

    def changed_boards(self) -> tuple[Board, ...]:
        return ()

    def notes(self, visible_text: str) -> tuple[str, ...]:
        return ()

    def rename_player(self, old: str, new: str) -> None:
        if self._desk is not None:
            self._desk.rename_player(old, new)

    def forfeit_player(self, name: str, at: datetime) -> Forfeited:
        """Rule 14: what ``name``'s forfeit takes from the Ministries and Elections."""
        return Forfeited(self.desk().forfeit_player(name, at))

    def save(self) -> None:
        if self._desk is not None:
            self._desk.save()


def candidate_named(election: Election, written: str) -> str:
    """The Candidate ``written`` names, exactly or by an unambiguous abbreviation (rule 2)."""
    wanted = " ".join(written.split()).casefold()
    exact = [c for c in election.candidates if c.casefold() == wanted]
    partial = [c for c in election.candidates if c.casefold().startswith(wanted)]
    found = exact or partial
    if not found:
        raise IllegalActionError(
            f'"{written}" is not a Candidate in {election.label()} '
            f"(Candidates: {', '.join(election.candidates)})",
            rule="1823",
        )
    if len(found) > 1:
        raise AmbiguousActionError(f'"{written}" could mean any of: {", ".join(found)}', rule="2")
    return found[0]


def _optional(action: ParsedAction, key: str) -> str | None:
    value = action.args.get(key)
    return str(value) if value else None


def _list(value: object) -> list[object]:
    return list(value) if isinstance(value, list | tuple) else []


def _only(ministries: list[Ministry], none: str) -> Ministry:
    if not ministries:
        raise IllegalActionError(none, rule="1272")
    if len(ministries) > 1:
        names = ", ".join(m.name for m in ministries)
        raise AmbiguousActionError(f"say which Ministry: {names}", rule="1272")
    return ministries[0]


# -- the timed handler -------------------------------------------------------------------------


def advance_elections(
    session: Session, services: Services, after: datetime, until: datetime
) -> None:
    """Every phase change and Ministry Rotation due in ``(after, until]``, in time order.

    Cheap when nothing is due: one indexed read of the Elections in
    progress (none is read once all are closed), and the Clock is consulted
    for nweek starts only when a midnight has passed.
    """
    rotations = list(_nweek_starts(services, after, until))
    if not rotations and not _any_due(session, services, until):
        return
    desk = ElectionDesk(session, services)
    while True:
        due = desk.due(until)
        # At the same instant, deadlines go first: a closing Election seats its
        # winner before the Rotation looks at which Ministries are Open.
        if due is not None and (not rotations or due[0] <= rotations[0][0]):
            desk.advance(due[1], due[0])
        elif rotations:
            instant, nweek = rotations.pop(0)
            desk.rotate(nweek, instant)
        else:
            break
    desk.save()


def elections_due(session: Session, services: Services, after: datetime) -> datetime | None:
    """When ``advance_elections`` next has something to do (``bot.engine.timed``).

    The next nweek start (Ministry Rotation, rule 1272) or the first phase
    change of an Election in progress (rule 1823), whichever is first.
    """
    timetable = timetable_of(services)
    deadlines = (timetable.next_deadline(election) for election in elections_in_progress(session))
    return timed.earliest(timed.next_nweek_start(session, services, after), *deadlines)


def _any_due(session: Session, services: Services, until: datetime) -> bool:
    """Whether an Election in progress changes phase by ``until``."""
    timetable = timetable_of(services)
    for election in elections_in_progress(session):
        deadline = timetable.next_deadline(election)
        if deadline is not None and deadline <= until:
            return True
    return False


def _nweek_starts(
    services: Services, after: datetime, until: datetime
) -> list[tuple[datetime, int]]:
    if after.astimezone(UTC).date() == until.astimezone(UTC).date():
        return []
    return [
        (change.instant, change.begun)
        for change in services.clock.nweek_changes_between(after, until)
    ]


# -- views ----------------------------------------------------------------------


def ministries_state(session: Session, services: Services) -> tuple[str, Any]:
    """``nomicbot state ministries``."""
    first_nweek = services.clock.config.epoch_reading.nweek
    return ministries_view(session, services.settings.ministries, first_nweek)


def elections_state(session: Session, services: Services) -> tuple[str, Any]:
    """``nomicbot state elections``: every Election, with its phase and deadline."""
    _record, book = load_book(session)
    desk = ElectionDesk(session, services)
    lines: list[str] = []
    data: list[dict[str, Any]] = []
    for election in book.elections:
        deadline = desk.timetable.next_deadline(election)
        lines.append(describe_election(election, deadline))
        data.append(
            election_to_json(election) | {"deadline": deadline.isoformat() if deadline else None}
        )
    return "\n".join(lines) or "no Elections yet", data


def describe_election(election: Election, deadline: datetime | None) -> str:
    head = f"{election.label()} ({election.method.value}, called by {election.caller})"
    if election.phase is Phase.CLOSED:
        return f"{head}: closed; selected {election.winner or 'nobody'}"
    until = f" until {deadline:%Y-%m-%d %H:%M:%S} UTC" if deadline else ""
    candidates = ", ".join(election.candidates or election.accepted) or "none yet"
    votes = len(last_ballots(election.ballots))
    return f"{head}: {election.phase.value}{until}; candidates {candidates}; {votes} voter(s)"
