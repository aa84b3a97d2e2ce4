"""The digest sections of each Ministry's duties (rule 625 D of seed 004).

One provider per duty, each ``(session, services, at) -> tuple[DigestSection,
...]`` and listed in ``digests.providers()``.  A provider reads the stores
as they are when the digest is made, says what is pending, and flags what is
overdue with the rule behind it.

Kurt Godel (625 D.2) gets the Ministries, the Elections and the next
Ministry Rotation; the Minister of the Roster (625 D.6) the roster and its
changes since the last digest, with the requests to join e must recognise;
the Twiddler (625 D.5) the tildex each player and entity holds and what
the Basin created this nweek; the GameKeeper (625 D.12) the board of
Political Go and when the game will end; the Referee
(Minister of Play, seed 003) the Field and Life's Evolve, and the posts
refused as possibly forged since the last digest (docs/trust.md); the
Chairman (625 D.10) the proposals and the current Ballot with its running
tally, never showing a vote sent privately before its poll closes (rule 15 B).
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from bot.engine import ledger
from bot.engine.game import DigestSection, Overdue
from bot.engine.governance.digests import previous_digest, sections_for
from bot.engine.governance.election_desk import needs_rotation
from bot.engine.governance.election_state import (
    ElectionBook,
    Phase,
    load_heads_with_running_ballots,
    timetable_of,
)
from bot.engine.governance.elections import describe_election
from bot.engine.governance.ministries import Ministries, describe_ministry, load_ministries
from bot.engine.holdings import TILDEX, basin_count_at, format_amount
from bot.engine.ledger import entity_holdings
from bot.engine.players import all_players, render_roster, roster
from bot.games import ntime
from bot.store.models import ActionRecord, Message

if TYPE_CHECKING:
    from bot.engine.services import Services

META_MINISTRY = "Meta-Ministry"  # rule 625 D.2: its Minister is Kurt Godel
ROSTER_MINISTRY = "Ministry of the Roster"  # rule 625 D.6
TWIDDLES_MINISTRY = "Ministry of Twiddles"  # rule 625 D.5: the Twiddler
BOARD_MINISTRY = "Ministry of the Board"  # rule 625 D.12: the GameKeeper
PLAY_MINISTRY = "Ministry of Play"  # seed 003: the Minister of Play is the Referee
CHANGE_MINISTRY = "Ministry of Change"  # rule 625 D.10: the Chairman
JUSTICE_MINISTRY = "Ministry of Justice"  # rule 625 D.3: the Attorney Generalist
LIFE = "life"  # the Field Match whose Referee must Evolve each nweek (seed 000)
VOTING_POSITION = 2  # rule 23: the third Checking Period of each nweek
REFUSED_SHOWN = 10  # refused posts a digest lists; `nomicbot refused` lists them all
REFUSED_WIDTH = 72  # where a refused post's line wraps, before the section's indent


def when(services: Services, instant: datetime) -> str:
    """An instant as ntime and UTC: "nweek 1, nday 4 (2026-01-04 00:00 UTC)"."""
    label = services.clock.reading(instant).label
    return f"{label} ({instant.astimezone(UTC):%Y-%m-%d %H:%M} UTC)"


# -- Kurt Godel (rule 625 D.2) ------------------------------------------------------------


@sections_for(META_MINISTRY)
def godel_sections(session: Session, services: Services, at: datetime) -> tuple[DigestSection, ...]:
    """The list of which players hold which Ministries, and the Elections."""
    nweek = services.clock.reading(at).nweek
    _record, ministries = load_ministries(session, services.settings.ministries, nweek)
    if not ministries.items:
        return ()
    book = load_heads_with_running_ballots(session)
    return (
        DigestSection(
            META_MINISTRY,
            "Ministries and their holders (rule 625 D.2)",
            tuple(describe_ministry(item) for item in ministries.items),
            rotation_overdue(ministries, book, nweek),
        ),
        DigestSection(
            META_MINISTRY,
            "Elections (rules 625 B and 1823)",
            election_lines(services, book, previous_digest(services, at), at),
            elections_overdue(services, book, at),
        ),
        DigestSection(
            META_MINISTRY,
            "The next Ministry Rotation (rule 625 B)",
            rotation_lines(services, ministries, nweek),
        ),
    )


def election_lines(
    services: Services, book: ElectionBook, since: datetime, at: datetime
) -> tuple[str, ...]:
    timetable = timetable_of(services)
    running = [
        describe_election(election, timetable.next_deadline(election))
        for election in book.elections
        if election.phase.in_progress
    ]
    closed = [
        describe_election(election, None)
        for election in book.elections
        if election.closed_at is not None and since < election.closed_at <= at
    ]
    lines = running or ["No Election is in progress."]
    if closed:
        lines += ["Closed since the last digest:", *(f"  {line}" for line in closed)]
    return tuple(lines)


def elections_overdue(services: Services, book: ElectionBook, at: datetime) -> tuple[Overdue, ...]:
    # The bot moves each Election on at its deadline (rule 625 B); one still
    # in the old phase afterwards was not.
    timetable = timetable_of(services)
    overdue = []
    for election in book.elections:
        deadline = timetable.next_deadline(election)
        if election.phase.in_progress and deadline is not None and deadline < at:
            overdue.append(
                Overdue(
                    f"{election.label()} is still {election.phase.value}, "
                    f"due to move on at {when(services, deadline)}",
                    "1823" if election.phase is Phase.AWAITING_MODERATOR else "625 B",
                )
            )
    return tuple(overdue)


def rotation_overdue(ministries: Ministries, book: ElectionBook, nweek: int) -> tuple[Overdue, ...]:
    """Rule 625 B: "At the beginning of each nweek, Godel must perform Ministry Rotation".

    Not for the nweek the bot began keeping the list in: it cannot know
    what happened at that nweek's beginning.
    """
    if nweek <= ministries.created_nweek:
        return ()
    return tuple(
        Overdue(
            f"Ministry Rotation was not performed for {ministry.name} "
            f"at the beginning of nweek {nweek + 1}",
            "625 B",
        )
        for ministry in ministries.items
        if needs_rotation(ministry, nweek, ministries)
        and (ministry.rotated_nweek is None or ministry.rotated_nweek < nweek)
        and book.in_progress_for(ministry.name) is None
    )


def rotation_lines(services: Services, ministries: Ministries, nweek: int) -> tuple[str, ...]:
    start = ntime.nweek_start(services.clock.config, nweek + 1)
    due = [item.name for item in ministries.items if needs_rotation(item, nweek + 1, ministries)]
    if start is None:
        return ("The Clock is Off: the next nweek has no known beginning.",)
    if not due:
        return (f"At {when(services, start)}: no Ministry needs an Election.",)
    return (f"At {when(services, start)}, Elections for: {', '.join(due)}.",)


# -- the Minister of the Roster (rule 625 D.6) ------------------------------------------------


@sections_for(ROSTER_MINISTRY)
def roster_sections(
    session: Session, services: Services, at: datetime
) -> tuple[DigestSection, ...]:
    """The Roster, its changes since the last digest, and the new players to recognise."""
    since = previous_digest(services, at)
    changes = roster_actions(session, since, at, "applied")
    joined = [line for action, line in changes if action == "roster.register"]
    refused = roster_actions(session, since, at, "rejected")
    requests = [line for action, line in refused if action == "roster.register"]
    return (
        DigestSection(
            ROSTER_MINISTRY,
            "The Roster (rule 625 D.6)",
            tuple(render_roster(roster(session)).splitlines()),
        ),
        DigestSection(
            ROSTER_MINISTRY,
            f"Roster changes since {when(services, since)}",
            tuple(line for _action, line in changes) or ("None.",),
        ),
        DigestSection(
            ROSTER_MINISTRY,
            "New players to recognise (rules 14 and 625 D.6)",
            (*joined, *(f"refused by the bot, for you to judge: {line}" for line in requests))
            or ("None since the last digest.",),
        ),
    )


def roster_actions(
    session: Session, since: datetime, at: datetime, ruling: str
) -> list[tuple[str, str]]:
    """(action, line) for each roster action with ``ruling`` in ``(since, at]``, in order."""
    rows = session.execute(
        select(ActionRecord, Message.sender)
        .join(Message, Message.id == ActionRecord.message_pk)
        .where(
            ActionRecord.action.like("roster.%"),
            ActionRecord.ruling == ruling,
            ActionRecord.occurred_at > since,
            ActionRecord.occurred_at <= at,
        )
        .order_by(ActionRecord.id)
    ).all()
    return [(record.action, _roster_line(record, sender)) for record, sender in rows]


def _roster_line(record: ActionRecord, sender: str) -> str:
    what = record.summary if record.ruling == "applied" else f'"{" ".join(record.text.split())}"'
    return f"{record.occurred_at:%Y-%m-%d %H:%M} UTC  {sender}: {what}"


# -- the Twiddler (rule 625 D.5) ----------------------------------------------------------------


@sections_for(TWIDDLES_MINISTRY)
def twiddler_sections(
    session: Session, services: Services, at: datetime
) -> tuple[DigestSection, ...]:
    """Rule 625 D.5: "the current amount of Tildex held by each game entity": each
    player's, each entity's that holds any (the Store), and the Basin's count (21 A.2)."""
    held = tildex_balances(session)
    lines = [
        f"{player.name}: {format_amount(TILDEX, held.get(player.id, 0))}"
        for player in all_players(session)
    ]
    lines += [
        f"{entity}: {format_amount(TILDEX, amounts[TILDEX])}"
        for entity, amounts in entity_holdings(session).items()
        if amounts.get(TILDEX)
    ]
    basin = basin_count_at(session, services.clock, at)
    if basin.created:
        lines.append(basin.line())
    return (
        DigestSection(TWIDDLES_MINISTRY, "Tildex (rule 21 A.2)", tuple(lines) or ("No players.",)),
    )


def tildex_balances(session: Session) -> dict[int, int]:
    """Each player's Tildex (``ledger.balance`` of every player at once), by player id.

    One read, not one per player: the digest lists a crowd of players.
    """
    return ledger.player_balances(session, TILDEX)


# -- the Chairman (rule 625 D.10) -------------------------------------------------------------


@sections_for(CHANGE_MINISTRY)
def chairman_sections(
    session: Session, services: Services, at: datetime
) -> tuple[DigestSection, ...]:
    """The current proposals, and the current Ballot with its running tally (rule 23)."""
    from bot.engine.governance.views import ballot_view, current_proposals_view

    # Rule 625 D.10: "all current proposals"; the decided ones are in the
    # Ballots' results and `nomicbot state proposals`, not read every day.
    proposals = current_proposals_view(session, services).text
    # The tally counts the votes: the names of every Eligible Voter are not needed.
    ballot = ballot_view(session, services, electorate=False)
    return (
        DigestSection(
            CHANGE_MINISTRY, "Current proposals (rule 625 D.10)", tuple(proposals.splitlines())
        ),
        DigestSection(
            CHANGE_MINISTRY,
            "The current Ballot and its running tally (rule 23)",
            (*ballot.text.splitlines(), *tally_lines(ballot.data)),
            ballot_overdue(session, services, at),
        ),
    )


def tally_lines(data: dict[str, Any] | None) -> tuple[str, ...]:
    """Counts of the votes that may be shown; private ones only as a number (rule 15 B)."""
    if not data:
        return ()
    lines = []
    for item in data["proposals"]:
        counts = Counter(vote["vote"] for vote in item["votes"])
        shown = ", ".join(f"{choice} {counts[choice]}" for choice in sorted(counts)) or "none"
        hidden = f"; {item['withheld']} private" if item["withheld"] else ""
        lines.append(f"Tally of {item['id']}: {shown}{hidden}")
    return tuple(lines)


def ballot_overdue(session: Session, services: Services, at: datetime) -> tuple[Overdue, ...]:
    from bot.engine.governance import polls as poll_store
    from bot.engine.governance.ballot import BALLOT_KIND
    from bot.engine.governance.proposal_book import load_ballot

    clock = services.clock.reading(at)
    overdue = [
        Overdue(f"{stored.label} has Concluded but is not closed", "15")
        for stored in poll_store.due_polls(session, services.clock, at, BALLOT_KIND)
    ]
    voting = clock.checking_period % 3 == VOTING_POSITION
    if voting and load_ballot(session, clock.nweek) is None:
        overdue.append(
            Overdue(
                f"the Ballot of nweek {clock.nweek + 1} is not published in its Voting Period", "23"
            )
        )
    return tuple(overdue)


@sections_for(JUSTICE_MINISTRY)
def attorney_generalist_sections(
    session: Session, services: Services, at: datetime
) -> tuple[DigestSection, ...]:
    """The pending CFIs, their deadlines and who has not voted (rules 125, 625 D.3)."""
    from bot.engine.governance.cfis import cfis_view

    view = cfis_view(session, services)
    return (
        DigestSection(
            JUSTICE_MINISTRY,
            "Pending CFIs (rule 625 D.3)",
            tuple(view.text.splitlines()),
            cfis_overdue(session, services, at),
        ),
    )


def cfis_overdue(session: Session, services: Services, at: datetime) -> tuple[Overdue, ...]:
    """A CFI whose poll has passed its 4th midnight without a ruling (rule 125)."""
    from bot.engine.governance.cfis import all_cfis
    from bot.games.governance.polls import cfi_deadline

    return tuple(
        Overdue(f"CFI {stored.number} passed its deadline without a ruling", "125")
        for stored in all_cfis(session)
        if stored.ruling is None and cfi_deadline(stored.submitted_at) < at
    )
