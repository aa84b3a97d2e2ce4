"""The poll store: every Poll (rule 15, seed 004) the game has called, by number.

Each poll is one ``poll`` row holding its JSON (the pure ``Poll`` written
by ``bot.games.governance.polls.serialize``) and what the engine keeps
beside it: who called it for what (``kind``, ``subject``), the Ballot's
extra option Shelve (rule 23), an ntime deadline to re-resolve through The
Clock, and when it was closed.  ``kind`` and whether it is open are indexed
columns, so the scheduler's look for due polls reads only the open ones of
a kind.  The ``game`` row ``polls`` holds the next number.

General on purpose: the Ballot (rule 23) uses it now, CFIs (rule 125) and
any poll a later rule calls can use it as is.

Deadlines in ntime (rule 3 A: time a rule specifies is measured by The
Clock) are stored as the Clock reading they end at, ``deadline_ndays``, and
resolved through the Clock's switches whenever the poll is read, so a Clock
stop moves them; while The Clock is Off with no restart known the deadline
is unknown and the poll cannot Conclude by time.

Voters are player ids as text (``VoterId``), so a change of name (rule 151)
keeps a vote; displays name them through ``names``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from bot.engine.clock import GameClock
from bot.games.errors import IllegalActionError
from bot.games.governance.polls import (
    STANDARD_OPTIONS,
    CastVote,
    Choice,
    Duration,
    Flag,
    Indeterminate,
    NtimePoint,
    Outcome,
    Poll,
    PollResult,
    Vote,
    VoteOptions,
    call_poll,
    cast_vote,
    conclude,
    current_votes,
    outcome_of,
    read_vote,
)
from bot.games.governance.polls.conclusion import concludes_early
from bot.games.governance.polls.durations import deadline_of
from bot.games.governance.polls.serialize import (
    instant_from_text,
    instant_to_text,
    poll_from_dict,
    poll_to_dict,
)
from bot.games.governance.polls.votes import normalise
from bot.store.models import GameRecord, Player, PollRow

COUNTER_NAME = "polls"
SHELVE = "Shelve"
# Rule 23: "The polls on a Ballot have an additional voting option: Shelve."
SHELVE_WORDS = frozenset({"shelve", "shelf", "shelved", "to shelve"})


@dataclass(frozen=True)
class StoredPoll:
    """A poll as the store keeps it.

    ``poll.duration`` of an ntime poll holds the deadline as last resolved;
    ``deadline_ndays`` is the Clock reading (ndays since nweek 0, nday 0) it
    ends at.  ``extra_choices`` are options beyond Yes/No/Abstain/Refused
    (only "Shelve", rule 23).  ``closed_at`` is set once the poll's result
    has been acted on.
    """

    number: int
    kind: str
    subject: str
    poll: Poll
    deadline_ndays: int | None = None
    extra_choices: tuple[str, ...] = ()
    closed_at: datetime | None = None

    @property
    def label(self) -> str:
        return f"poll {self.number} ({self.subject})"

    def is_shelve(self, cast: CastVote) -> bool:
        """Whether ``cast`` is a Shelve vote (counted as No, rule 23)."""
        return SHELVE in self.extra_choices and normalise(cast.vote.text) in SHELVE_WORDS


@dataclass(frozen=True)
class VisibleVotes:
    """What may be published of a poll now: never a private vote before it is closed.

    ``withheld`` counts actual votes held back because they were sent
    privately to a Concealable poll that is still open (rule 15 B).
    """

    votes: tuple[CastVote, ...]
    withheld: int


def create_poll(
    session: Session,
    *,
    kind: str,
    subject: str,
    issue: str,
    voters: Iterable[str],
    duration: Duration,
    called_at: datetime,
    flags: Iterable[Flag] = (),
    options: VoteOptions = STANDARD_OPTIONS,
    active_players: Iterable[str] | None = None,
    extra_choices: tuple[str, ...] = (),
    deadline_ndays: int | None = None,
) -> StoredPoll:
    """Call a poll and store it under the next number.

    ``deadline_ndays`` makes an ``NtimePoint`` deadline follow The Clock (see
    the module docstring).  Raises ``ValueError`` as ``call_poll`` does.
    """
    poll = call_poll(
        issue,
        voters,
        duration,
        called_at,
        flags=flags,
        options=options,
        active_players=active_players,
    )
    stored = StoredPoll(
        next_serial(session, COUNTER_NAME), kind, subject, poll, deadline_ndays, extra_choices
    )
    save_poll(session, stored)
    return stored


def ntime_deadline(clock: GameClock, ndays: int, reading: str) -> Duration:
    """The Duration ending when The Clock comes to read ``ndays`` (rule 15 A, first kind).

    Indeterminate for now if The Clock is Off with no restart known.
    """
    ends_at = clock.nday_start(ndays)
    return Indeterminate() if ends_at is None else NtimePoint(reading, ends_at)


def load_poll(session: Session, clock: GameClock, number: int) -> StoredPoll | None:
    """Poll ``number`` with its deadline resolved through ``clock``, or None."""
    row = session.get(PollRow, number)
    return None if row is None else _resolved(from_state(row.state), clock)


def all_polls(
    session: Session, clock: GameClock, kind: str | None = None, open_only: bool = False
) -> list[StoredPoll]:
    """Every stored poll (of ``kind``; still open if ``open_only``), by number.

    ``kind`` and ``open_only`` are answered by the index on (kind, is_open):
    the closed polls of a long game are not read.
    """
    query = select(PollRow).order_by(PollRow.number)
    if kind is not None:
        query = query.where(PollRow.kind == kind)
    if open_only:
        query = query.where(PollRow.is_open.is_(True))
    return [_resolved(from_state(row.state), clock) for row in session.scalars(query)]


def save_poll(session: Session, stored: StoredPoll) -> None:
    row = session.get(PollRow, stored.number)
    is_open = stored.closed_at is None
    state = to_state(stored)
    if row is None:
        row = PollRow(number=stored.number, kind=stored.kind, is_open=is_open)
        session.add(row)
        early = _early_conclusion(stored, 0)
    else:
        held = _votes_held_before(row.state, state)
        early = row.early_conclusion if held is not None and row.early_conclusion else None
        if early is None:
            early = _early_conclusion(stored, held or 0)
    row.is_open, row.state = is_open, state
    _write_schedule(row, stored, early)


def _write_schedule(row: PollRow, stored: StoredPoll, early: datetime | None) -> None:
    """The columns the scheduler reads to find when ``stored`` Concludes (``conclusions``)."""
    poll = stored.poll
    row.called_at = poll.called_at
    row.deadline_ndays = stored.deadline_ndays
    # A deadline in ndays moves with The Clock (rule 3 A): resolved when read.
    fixed = stored.deadline_ndays is None
    row.fixed_deadline = deadline_of(poll.duration, poll.called_at) if fixed else None
    row.early_conclusion = early


def _votes_held_before(old: Mapping[str, Any], new: Mapping[str, Any]) -> int | None:
    """How many votes the old state of a poll held, if the new one is the same poll with
    votes only added after them; None otherwise.

    Those votes were checked for an early conclusion when they were written,
    so only the ones after them need be.
    """
    old_poll, new_poll = dict(old["poll"]), dict(new["poll"])
    held, votes = old_poll.pop("votes"), new_poll.pop("votes")
    # The deadline is not compared: it is resolved again through The Clock at each read.
    old_poll.pop("duration")
    new_poll.pop("duration")
    if old_poll != new_poll or votes[: len(held)] != held:
        return None
    return len(held)


def _early_conclusion(stored: StoredPoll, known_votes: int) -> datetime | None:
    """``early_conclusion(stored.poll)``, checking only the votes after the first
    ``known_votes`` (whose prefixes did not conclude the poll early, rule 15 B)."""
    poll = stored.poll
    if known_votes == 0 and concludes_early(poll, ()):
        return poll.called_at
    for count in range(max(known_votes, 0) + 1, len(poll.votes) + 1):
        if concludes_early(poll, poll.votes[:count]):
            return poll.votes[count - 1].cast_at
    return None


def write_record(session: Session, name: str, state: dict[str, Any]) -> None:
    """Store ``state`` as the game record ``name``, creating it or bumping its version."""
    record = session.scalar(select(GameRecord).where(GameRecord.name == name))
    if record is None:
        session.add(GameRecord(name=name, state=state, version=0))
        return
    record.state = state  # a new dict: the JSON column sees the change
    record.version += 1


def read_poll_vote(stored: StoredPoll, text: str) -> Vote:
    """``text`` as a vote on ``stored``: rule 15's variants, plus Shelve on a Ballot poll."""
    if SHELVE in stored.extra_choices and normalise(text) in SHELVE_WORDS:
        # Rule 23: "Shelve votes are treated as No votes".
        return Vote(Choice.NO, text, obvious=True, reason="read as Shelve, counted as No (rule 23)")
    return read_vote(text, stored.poll.options)


def vote_by_mail(
    session: Session,
    clock: GameClock,
    number: int,
    voter: str,
    text: str,
    *,
    at: datetime,
    private: bool = False,
) -> tuple[StoredPoll, Vote]:
    """Cast ``voter``'s vote ``text`` on poll ``number`` at ``at``; stored at once.

    Raises ``IllegalActionError`` when there is no such poll, it is closed,
    or ``cast_vote`` refuses the vote (not eligible, Concluded, Strict,
    private on a poll that is not Concealable).
    """
    stored = load_poll(session, clock, number)
    if stored is None:
        raise IllegalActionError(f"there is no poll {number}", rule="15")
    if stored.closed_at is not None:
        raise IllegalActionError(
            f"{stored.label} Concluded at {stored.closed_at.isoformat()}", rule="15 A"
        )
    vote = read_poll_vote(stored, text)
    updated = replace(stored, poll=cast_vote(stored.poll, voter, vote, at, private=private))
    save_poll(session, updated)
    return updated, vote


def due_polls(session: Session, clock: GameClock, until: datetime, kind: str) -> list[StoredPoll]:
    """The open polls of ``kind`` whose Duration has Concluded by ``until``, by number.

    Found from the indexed columns of when each open poll Concludes; only
    the due ones are read whole.
    """
    numbers = [
        number
        for number, instant in conclusions(session, clock, kind)
        if instant is not None and instant <= until
    ]
    if not numbers:
        return []
    rows = session.scalars(
        select(PollRow).where(PollRow.number.in_(numbers)).order_by(PollRow.number)
    )
    return [_resolved(from_state(row.state), clock) for row in rows]


def earliest_conclusion(session: Session, clock: GameClock, kind: str) -> datetime | None:
    """When the first open poll of ``kind`` Concludes on the votes it has (None: none will).

    ``due_polls`` finds nothing before this instant, so the scheduler need
    not ask it (``bot.engine.timed``).
    """
    instants = (instant for _number, instant in conclusions(session, clock, kind))
    return min((instant for instant in instants if instant is not None), default=None)


def conclusions(session: Session, clock: GameClock, kind: str) -> list[tuple[int, datetime | None]]:
    """(number, ``conclusion_instant``) of each open poll of ``kind``, by number.

    From the columns ``save_poll`` writes, not the polls' votes: the earlier
    of the deadline (rule 15 A; one in ntime resolved through The Clock now,
    rule 3 A) and the early conclusion (rule 15 B).
    """
    rows = session.execute(
        select(
            PollRow.number,
            PollRow.called_at,
            PollRow.deadline_ndays,
            PollRow.fixed_deadline,
            PollRow.early_conclusion,
        )
        .where(PollRow.kind == kind, PollRow.is_open.is_(True))
        .order_by(PollRow.number)
    )
    found = []
    for number, called_at, ndays, fixed, early in rows:
        deadline = fixed if ndays is None else _ntime_deadline_at(clock, ndays, called_at)
        known = [instant for instant in (deadline, early) if instant is not None]
        found.append((number, min(known, default=None)))
    return found


def _ntime_deadline_at(clock: GameClock, ndays: int, called_at: datetime | None) -> datetime | None:
    """``deadline_of`` a deadline ``ndays`` in ntime: when The Clock reads it (None while
    unknown), and never before the poll was called (rule 15 A)."""
    ends_at = clock.nday_start(ndays)
    if ends_at is None or called_at is None:
        return ends_at
    return max(ends_at, called_at)


def close_poll(
    session: Session, stored: StoredPoll, now: datetime
) -> tuple[StoredPoll, PollResult]:
    """Record ``stored`` as closed and return its result (rule 15's Passed/Failed).

    Raises ``ValueError`` if it has not Concluded by ``now`` (a defect in
    the caller: ask ``due_polls`` first).
    """
    result = conclude(stored.poll, now)
    closed = replace(stored, closed_at=result.concluded_at)
    save_poll(session, closed)
    return closed, result


def shelved_by_votes(stored: StoredPoll, result: PollResult) -> bool:
    """Rule 23: failed, but "would not have failed if the Shelve votes had been Yes votes"."""
    if result.outcome is Outcome.PASSED or SHELVE not in stored.extra_choices:
        return False
    as_yes = tuple(
        replace(cast, vote=replace(cast.vote, choice=Choice.YES))
        if stored.is_shelve(cast)
        else cast
        for cast in stored.poll.votes
    )
    return outcome_of(stored.poll, as_yes) is Outcome.PASSED


def visible_votes(stored: StoredPoll) -> VisibleVotes:
    """The actual votes that may be published now (rule 15 B Concealable)."""
    actual = current_votes(stored.poll.votes)
    if stored.closed_at is not None:
        return VisibleVotes(actual, 0)
    shown = tuple(cast for cast in actual if not cast.private)
    return VisibleVotes(shown, len(actual) - len(shown))


def vote_label(stored: StoredPoll, cast: CastVote) -> str:
    """How a vote is displayed: "Shelve", or the choice it counts as."""
    return SHELVE if stored.is_shelve(cast) else cast.vote.choice.value


def names(session: Session, voters: Iterable[str]) -> dict[str, str]:
    """Voter id -> the player's current name (the id itself for a non-player)."""
    wanted = [int(voter) for voter in voters if voter.isdigit()]
    rows = session.execute(select(Player.id, Player.name).where(Player.id.in_(wanted)))
    found = {str(row.id): row.name for row in rows}
    return {voter: found.get(voter, voter) for voter in voters}


def to_state(stored: StoredPoll) -> dict[str, Any]:
    return {
        "number": stored.number,
        "kind": stored.kind,
        "subject": stored.subject,
        "poll": poll_to_dict(stored.poll),
        "deadline_ndays": stored.deadline_ndays,
        "extra_choices": list(stored.extra_choices),
        "closed_at": None if stored.closed_at is None else instant_to_text(stored.closed_at),
    }


def from_state(state: Mapping[str, Any]) -> StoredPoll:
    """Raises ``ValueError`` for a row ``to_state`` did not write."""
    closed = state.get("closed_at")
    return StoredPoll(
        number=int(state["number"]),
        kind=str(state["kind"]),
        subject=str(state["subject"]),
        poll=poll_from_dict(dict(state["poll"])),
        deadline_ndays=state.get("deadline_ndays"),
        extra_choices=tuple(state.get("extra_choices", ())),
        closed_at=None if closed is None else instant_from_text(closed),
    )


def _resolved(stored: StoredPoll, clock: GameClock) -> StoredPoll:
    # Rule 3 A: a deadline in ntime moves with every stop of The Clock.
    if stored.deadline_ndays is None:
        return stored
    reading = (
        stored.poll.duration.reading
        if isinstance(stored.poll.duration, NtimePoint)
        else f"nweek {stored.deadline_ndays // 10 + 1}, nday {stored.deadline_ndays % 10 + 1}"
    )
    duration = ntime_deadline(clock, stored.deadline_ndays, reading)
    return replace(stored, poll=replace(stored.poll, duration=duration))


def next_serial(session: Session, counter_name: str, first: int = 1) -> int:
    """The next number (``first``, then one more each time) of the counter ``counter_name``."""
    record = session.scalar(select(GameRecord).where(GameRecord.name == counter_name))
    if record is None:
        session.add(GameRecord(name=counter_name, state={"next_number": first + 1}, version=0))
        session.flush()
        return first
    number = int(record.state["next_number"])
    record.state = {"next_number": number + 1}
    record.version += 1
    return number
