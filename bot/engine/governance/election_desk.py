"""Kurt Godel's desk: what happens to Elections as time passes (rules 625 B and 1823, seed 004).

Shared by the post adapter and the timed handler: calling an Election,
opening the voting when the nominations close, closing the voting with the
pure tally (``bot.games.governance.elections``), asking the Moderator on a
tie or standing in with a recorded draw when e does not answer in time,
seating the winner, and Ministry Rotation at the start of each nweek.  Every
change of phase is mailed to the list; random draws come from the nweek's
committed seed and carry ``draw-v1`` proof lines for ``nomicbot verify-dice``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy.orm import Session

from bot.engine.governance.election_state import (
    Ballot,
    BallotsWritten,
    Election,
    Phase,
    describe_instant,
    forfeited_book,
    has_stored_ballot,
    load_heads,
    renamed_book,
    stored_ballots,
    timetable_of,
    write_election,
)
from bot.engine.governance.ministries import (
    META_MINISTRY,
    Ministries,
    Ministry,
    elected,
    forfeited_ministries,
    load_ministries,
    renamed_ministries,
    save_ministries,
)
from bot.games import dice
from bot.games.governance import elections as methods
from bot.games.governance.elections import SelectionMethod
from bot.outbound.compose import compose_report

if TYPE_CHECKING:
    from bot.engine.services import Services

ROTATION_GAP = 3  # rule 625 B: "not experienced such Rotation in the last three nweeks"
BOT_GODEL = "the referee, for Kurt Godel"
TEMPLATE = "elections/report.txt.j2"


class ShuffledChoice:
    """A ``ChoiceSource`` over ``dice.DrawSource``: the first of a recorded shuffle.

    ``nomicbot verify-dice`` re-derives ``draw-v1`` proofs as shuffles, so a
    choice is drawn as one: every option is equally likely first (rule 9).
    """

    def __init__(self, source: dice.DrawSource) -> None:
        self.source = source

    def choice(self, options: Sequence[str], purpose: str) -> str:
        return self.source.shuffle(list(options), purpose)[0]


class NoDraws:
    """For re-tallies that cannot draw (Approval and IRV never do)."""

    def choice(self, options: Sequence[str], purpose: str) -> str:
        raise AssertionError(f"{purpose}: a re-tally drew at random")


@dataclass(frozen=True)
class Drawn:
    """The proof lines of one event's draws, for ``nomicbot verify-dice``."""

    lines: tuple[str, ...] = ()


class ElectionDesk:
    """The elections and Ministries of one transaction; ``save`` writes what changed."""

    def __init__(self, session: Session, services: Services) -> None:
        self.session = session
        self.services = services
        # The ndays in force at each instant (rule 1823 A), not the starting values.
        self.timetable = timetable_of(services)
        # Without their ballots: a ballot cast adds one row and asks the index
        # whether the voter voted before (``cast``, ``has_voted``).  The
        # Elections whose ballots are all in memory are ``_complete``; the
        # others carry only the ballots cast since the last save.
        self.book = load_heads(session)
        self._saved = self.book
        self._complete: set[int] = set()
        # A Ministry with no Rotation on record counts as rotated when the game's
        # Clock began (``needs_rotation``): the same nweek on every replay.
        first_nweek = services.clock.config.epoch_reading.nweek
        entries = services.settings.ministries
        self._ministries_record, self.ministries = load_ministries(session, entries, first_nweek)
        self.changed = False

    # -- state ----------------------------------------------------------------

    def put(self, election: Election) -> None:
        self.book, self.changed = self.book.with_election(election), True

    def put_ministry(self, ministry: Ministry) -> None:
        self.ministries, self.changed = self.ministries.with_ministry(ministry), True

    def cast(self, election: Election, ballot: Ballot) -> None:
        """Rule 1823: ``ballot`` cast in ``election``; written with the next save."""
        self.put(replace(election, ballots=(*election.ballots, ballot)))

    def has_voted(self, election: Election, voter: str) -> bool:
        """Whether ``voter`` has cast a ballot in ``election`` before."""
        if any(ballot.voter == voter for ballot in election.ballots):
            return True
        complete = election.number in self._complete
        return not complete and has_stored_ballot(self.session, election.number, voter)

    def with_ballots(self, election: Election) -> Election:
        """``election`` with every ballot cast in it, for a count, a rename or a forfeit."""
        if election.number in self._complete:
            return election
        stored = stored_ballots(self.session, election.number)
        full = replace(election, ballots=(*stored, *election.ballots))
        self._complete.add(election.number)
        # Not a change: ``save`` writes it only if it changes further.
        self.book = self.book.with_election(full)
        self._saved = self._saved.with_election(full)
        return full

    def _in_progress_with_ballots(self) -> None:
        for election in self.book.elections:
            if election.phase.in_progress:
                self.with_ballots(election)

    def save(self) -> None:
        if not self.changed:
            return
        before = {election.number: election for election in self._saved.elections}
        for election in self.book.elections:
            if before.get(election.number) is not election:
                self._write(election)
        self._saved = self.book
        self._ministries_record = save_ministries(
            self.session, self._ministries_record, self.ministries
        )
        self.changed = False

    def _write(self, election: Election) -> None:
        if election.number in self._complete:
            write_election(self.session, election, BallotsWritten.ALL_BALLOTS)
            return
        write_election(self.session, election, BallotsWritten.NEW_BALLOTS)
        # The new ballots are stored now: they must not be added again.
        self.book = self.book.with_election(replace(election, ballots=()))

    def rename_player(self, old: str, new: str) -> None:
        """Rule 151 earlier in this post: the book and Ministries loaded before it follow.

        The rename may have written the Ministries' first row (``bot.engine.renames``):
        it is taken up, so that saving updates it instead of adding a second.
        """
        # The stored ballots were renamed in their rows (``rename_in_elections``):
        # only those in memory follow here.
        self.book = renamed_book(self.book, old, new)
        self.ministries = renamed_ministries(self.ministries, old, new)
        if self._ministries_record is None:
            first_nweek = self.services.clock.config.epoch_reading.nweek
            entries = self.services.settings.ministries
            self._ministries_record, _ = load_ministries(self.session, entries, first_nweek)

    def forfeit_player(self, name: str, at: datetime) -> tuple[str, ...]:
        """Rule 14: ``name`` forfeited; eir Ministries, Deputyhoods and part in the
        Elections in progress end (``forfeited_ministries``, ``forfeited_book``)."""
        self._in_progress_with_ballots()
        book, election_notes = forfeited_book(self.book, name)
        ministries, ministry_notes = forfeited_ministries(self.ministries, name, at)
        if book != self.book or ministries != self.ministries:
            self.book, self.ministries, self.changed = book, ministries, True
        return (*ministry_notes, *election_notes)

    def godel(self) -> str | None:
        """Kurt Godel, the holder of the Meta-Ministry (rule 625 D.2), if any."""
        for ministry in self.ministries.items:
            if ministry.key == META_MINISTRY:
                return ministry.holder
        return None

    # -- calling (rule 625 B) ---------------------------------------------------

    def call(
        self,
        ministry: Ministry,
        caller: str,
        moderator: str | None,
        method: SelectionMethod,
        at: datetime,
        rotation: bool = False,
    ) -> Election:
        election = Election(
            number=self.book.next_number(),
            ministry=ministry.name,
            caller=caller,
            moderator=moderator,
            method=method,
            called_at=at,
            rotation=rotation,
            nomination_ndays=self.timetable.length_at("nomination_ndays", at),
        )
        self.put(election)
        return election

    def describe_call(self, election: Election) -> str:
        closes = self.timetable.nominations_close(election)
        when = self.when(closes)
        moderator = election.moderator or "none (ties are drawn at random)"
        # As the rules stand at the call: the voting takes the length in force when it opens.
        voting = self.timetable.voting_ndays(election, election.called_at)
        return (
            f"{election.label()} is called by {election.caller} ({election.method.value}; "
            f"Moderator: {moderator}); nominations are open until {when}, then "
            f"{voting} ndays of voting (rule 625 B)"
        )

    def when(self, instant: datetime | None) -> str:
        """An instant as ntime and UTC, e.g. "nweek 1, nday 6 (2026-01-06 10:00:00 UTC)"."""
        return describe_instant(instant, self._label(instant))

    def _label(self, instant: datetime | None) -> str:
        return self.services.clock.reading(instant).label if instant is not None else ""

    # -- the timed events ---------------------------------------------------------

    def due(self, until: datetime) -> tuple[datetime, Election] | None:
        """The earliest phase change due by ``until``, if any."""
        found: list[tuple[datetime, int, Election]] = []
        for election in self.book.elections:
            deadline = self.timetable.next_deadline(election)
            if deadline is not None and deadline <= until:
                found.append((deadline, election.number, election))
        if not found:
            return None
        deadline, _, election = min(found, key=lambda item: (item[0], item[1]))
        return deadline, election

    def advance(self, election: Election, at: datetime) -> None:
        """Take ``election`` to its next phase at its deadline ``at``."""
        election = self.with_ballots(election)
        if election.phase is Phase.NOMINATING:
            self.open_voting(election, at)
        elif election.phase is Phase.VOTING:
            self.close_voting(election, at)
        elif election.phase is Phase.AWAITING_MODERATOR:
            self.settle_by_draw(election, at)

    def open_voting(self, election: Election, at: datetime) -> None:
        """Rule 625 B: after five ndays "the Election enters the Voting phase"."""
        candidates = election.accepted
        if not candidates:
            lines = (
                f"{election.label()}: the nominations closed with no candidate, "
                "so nobody can be selected; the Ministry stays as it was.",
            )
            self._close(election, at, None, lines, Drawn())
            return
        started = replace(
            election,
            phase=Phase.VOTING,
            voting_started_at=at,
            candidates=candidates,
            voting_ndays=self.timetable.voting_ndays(election, at),
        )
        self.put(started)
        closes = self.timetable.voting_closes(started)
        self._mail(
            started,
            "voting",
            f"[elections] Voting opens: {started.label()}",
            at,
            (
                f"{started.label()}: the nominations have closed and the voting is open "
                f"until {self.when(closes)} (rule 625 B).",
                f"Candidates (the choices): {', '.join(candidates)}.",
                f"Selection Method: {started.method.value} (rule {started.method.rule}).",
                "Every player is an Eligible Voter; the last vote a player submits counts.",
                _how_to_vote(started),
            ),
        )

    def close_voting(self, election: Election, at: datetime) -> None:
        """Rule 1823: when the Duration Concludes, "a single choice ... is selected"."""
        if not election.candidates:
            self._close_without_candidates(election, at)
            return
        source = self._draw_source(at, f"election-{election.number}-count")
        result = methods.tally_election(
            election.method, actual_votes(election), election.candidates, ShuffledChoice(source)
        )
        drawn = self._drawn(at, source)
        if result.selection.needs_moderator and self._moderator_can_answer(election, at):
            self._ask_moderator(election, result, at)
            return
        if result.selection.needs_moderator:
            source = self._draw_source(at, f"election-{election.number}-moderator")
            policy = methods.ModeratorDefault.RECORDED_DRAW
            result = methods.settle_by_default(result, policy, ShuffledChoice(source))
            drawn = self._drawn(at, source)
        self._close(election, at, result.selection.selected, count_lines(election, result), drawn)

    def _moderator_can_answer(self, election: Election, at: datetime) -> bool:
        wait = self.timetable.moderator_wait_ndays(election, at)
        return election.moderator is not None and wait > 0

    def _ask_moderator(
        self, election: Election, result: methods.ElectionResult, at: datetime
    ) -> None:
        waiting = replace(
            election,
            phase=Phase.AWAITING_MODERATOR,
            moderator_asked_at=at,
            moderator_wait_ndays=self.timetable.moderator_wait_ndays(election, at),
        )
        self.put(waiting)
        deadline = self.timetable.moderator_deadline(waiting)
        tied = ", ".join(result.selection.winner_set)
        self._mail(
            waiting,
            "moderator",
            f"[elections] Moderator's pick needed: {waiting.label()}",
            at,
            (
                *count_lines(waiting, result),
                "",
                f"To the Moderator, {waiting.moderator}: rule {result.selection.rule} leaves "
                f'the tie between {tied} to you.  Please post "I pick NAME for '
                f'{waiting.ministry}" by '
                f"{self.when(deadline)}; if no pick has arrived by "
                "then, a recorded random draw stands in for it.",
            ),
        )

    def pick(self, election: Election, pick: str, at: datetime) -> str:
        """The Moderator's pick among the tied choices; ``IllegalActionError`` if not tied."""
        election = self.with_ballots(election)
        result = methods.tally_election(
            election.method, actual_votes(election), election.candidates, NoDraws()
        )
        result = methods.moderator_picks(result, pick)
        self._close(election, at, pick, count_lines(election, result), Drawn())
        return f"{pick} is selected by the Moderator's pick; {election.ministry} is eirs"

    def _close_without_candidates(self, election: Election, at: datetime) -> None:
        """Every Candidate forfeited (rule 14) before the count: nobody can be selected."""
        lines = (
            f"{election.label()}: the voting closed with no candidate left, so nobody "
            "can be selected; the Ministry stays as it was.",
        )
        self._close(election, at, None, lines, Drawn())

    def settle_by_draw(self, election: Election, at: datetime) -> None:
        """No pick in time: a recorded draw stands in for the Moderator (docs/readings.md)."""
        if not election.candidates:
            self._close_without_candidates(election, at)
            return
        result = methods.tally_election(
            election.method, actual_votes(election), election.candidates, NoDraws()
        )
        source = self._draw_source(at, f"election-{election.number}-moderator")
        policy = methods.ModeratorDefault.RECORDED_DRAW
        result = methods.settle_by_default(result, policy, ShuffledChoice(source))
        note = f"The Moderator, {election.moderator}, did not pick in time."
        lines = (*count_lines(election, result), note)
        self._close(election, at, result.selection.selected, lines, self._drawn(at, source))

    def _close(
        self,
        election: Election,
        at: datetime,
        winner: str | None,
        lines: tuple[str, ...],
        drawn: Drawn,
    ) -> None:
        closed = replace(
            election, phase=Phase.CLOSED, closed_at=at, winner=winner, report=lines + drawn.lines
        )
        self.put(closed)
        seated = ""
        if winner is not None:
            self.put_ministry(elected(self.ministries.named(election.ministry), winner))
            seated = f"{winner} now holds {election.ministry} (rule 625 B)."
        subject = f"[elections] Result: {closed.label()}" + (f": {winner}" if winner else "")
        self._mail(closed, "result", subject, at, (*closed.report, "", seated))

    # -- Ministry Rotation (rule 625 B) ----------------------------------------------

    def rotate(self, nweek: int, at: datetime) -> None:
        """Call an Election for each Open Ministry and each not rotated in three nweeks."""
        called: list[str] = []
        for ministry in self.ministries.items:
            if not needs_rotation(ministry, nweek, self.ministries):
                continue
            self.put_ministry(replace(ministry, rotated_nweek=nweek))
            if self.book.in_progress_for(ministry.name) is not None:
                continue  # rule 625 B: one Election at a time; it serves as the Rotation
            godel = self.godel()
            # The Moderator in force at the call (bot.engine.rule_changes); the
            # Election keeps the one it was called with.
            named = self.services.at(at).settings.elections.moderator
            moderator = godel or named or None
            election = self.call(
                ministry, godel or BOT_GODEL, moderator, methods.DEFAULT_METHOD, at, rotation=True
            )
            called.append(self.describe_call(election))
        if called:
            lines = (
                f"Ministry Rotation at the beginning of nweek {nweek + 1} (rule 625 B):",
                *called,
            )
            self._report(
                "rotation",
                f"{nweek}",
                f"[elections] Ministry Rotation, nweek {nweek + 1}",
                at,
                lines,
            )

    # -- draws and mail ------------------------------------------------------------------

    def _draw_source(self, at: datetime, context: str) -> dice.DrawSource:
        from bot.engine.scheduler import open_nweek

        nweek = self.services.clock.reading(at).nweek
        open_nweek(self.session, self.services, nweek, at)
        return dice.DrawSource(dice.nweek_seed(self.services.master_secret, nweek), context)

    def _drawn(self, at: datetime, source: dice.DrawSource) -> Drawn:

        nweek = self.services.clock.reading(at).nweek
        return Drawn(
            tuple(dice.draw_proof(nweek, source.context_id, draw) for draw in source.draws)
        )

    def _mail(
        self, election: Election, kind: str, subject: str, at: datetime, lines: Sequence[str]
    ) -> None:
        self._report(kind, f"{election.number}", subject, at, lines)

    def _report(
        self, kind: str, key: str, subject: str, at: datetime, lines: Sequence[str]
    ) -> None:
        self.session.add(
            compose_report(
                self.services,
                f"election-{kind}",
                key,
                subject,
                TEMPLATE,
                {"lines": [line for line in lines]},
                at,
            )
        )


def needs_rotation(ministry: Ministry, nweek: int, ministries: Ministries) -> bool:
    """Rule 625 B: Open, or not rotated in the last three nweeks.

    A Ministry the bot has no Rotation on record for counts as rotated in
    the nweek of the ntime epoch (docs/readings.md), so starting the bot
    does not call an Election for every held Ministry at once.
    """
    if ministry.is_open:
        return True
    last = (
        ministry.rotated_nweek if ministry.rotated_nweek is not None else ministries.created_nweek
    )
    return nweek - last > ROTATION_GAP


def actual_votes(election: Election) -> tuple[methods.Vote, ...]:
    """Rule 1823: each voter's last ballot, read as a legal vote of the election's method."""
    cast = [
        methods.CastVote(
            ballot.voter, methods.read_vote(ballot.choices, election.candidates, election.method)
        )
        for ballot in election.ballots
    ]
    return methods.actual_votes(cast)


def last_ballots(ballots: Sequence[Ballot]) -> tuple[Ballot, ...]:
    latest: dict[str, Ballot] = {}
    for ballot in ballots:
        latest.pop(ballot.voter, None)
        latest[ballot.voter] = ballot
    return tuple(latest.values())


def count_lines(election: Election, result: methods.ElectionResult) -> tuple[str, ...]:
    """The full count: every actual vote, then the method's explanation."""
    ballots = last_ballots(election.ballots)
    votes = [f"  {ballot.voter}: {', '.join(ballot.choices) or '(nobody)'}" for ballot in ballots]
    return (
        f"{election.label()}: the voting has closed.",
        f"Candidates: {', '.join(election.candidates)}.",
        f"Votes ({len(ballots)}; each voter's last vote counts, rule 1823):",
        *(votes or ["  (none)"]),
        *result.explain(),
    )


def _how_to_vote(election: Election) -> str:
    first = ", ".join(election.candidates)
    if election.method is SelectionMethod.APPROVAL_VOTING:
        return (
            f'Vote by posting "I vote {first} for {election.ministry}" listing any number of '
            f'the candidates (rule 1823 C.2), or "I vote nobody for {election.ministry}".'
        )
    return (
        f'Vote by posting "I vote {first} for {election.ministry}" with every candidate, '
        f"first place first (rule {election.method.rule})."
    )
