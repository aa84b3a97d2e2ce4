"""The governance of seed 004, declared as four games a nomic enables one by one.

* ``elections``: Ministries and Elections (rules 625, 1272, 1823), Kurt
  Godel's digest section (625 D.2);
* ``digests``: the Ministers' digests (rule 625 D), on request and at their
  hours, after every other event of the instant (they report on them);
* ``proposals``: proposals, polls and the Ballot (rules 5, 15, 19, 23),
  with private votes (rule 15 B: committed publicly, revealed at the
  poll's end) and the Chairman's digest section (625 D.10);
* ``cfis``: Calls For Inquiry (rule 125) and the Attorney Generalist's
  digest section (625 D.3).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from bot.engine.admin_records import AdminRecord
from bot.engine.game import AdminCommand, Game, StateView, TimedEvent, rule
from bot.engine.games.base import GameAdapter
from bot.engine.governance import election_state, ministries, proposal_book
from bot.engine.governance.ballot import ballot_due, run_ballot
from bot.engine.governance.cfis import CfiAdapter, cfi_due, cfis_view, close_due_cfis
from bot.engine.governance.digest_sections import (
    attorney_generalist_sections,
    chairman_sections,
    godel_sections,
)
from bot.engine.governance.digests import (
    DigestAdapter,
    digests_due,
    digests_view,
    send_scheduled_digests,
)
from bot.engine.governance.elections import (
    ElectionsAdapter,
    advance_elections,
    elections_due,
    elections_state,
    ministries_state,
)
from bot.engine.governance.proposals import VotesAdapter, governance_adapters
from bot.engine.governance.views import ballot_view, polls_view, proposals_view
from bot.engine.private_records import apply_commit, apply_reveal, commit_private_votes
from bot.engine.services import Services
from bot.engine.views import View
from bot.parser.areas import elections as elections_area
from bot.parser.areas.cfi import AREA as CFI_AREA  # rule 125
from bot.parser.areas.digest import AREA as DIGEST_AREA  # a Minister's digest (issue 5)
from bot.parser.areas.polls import AREA as POLLS_AREA
from bot.parser.areas.proposals import AREA as PROPOSALS_AREA
from bot.store.models import ElectionRow, PollRow

# What the next due answers below are read from (``TimedEvent.next_due_reads``):
# the open polls' deadlines and early conclusions (rule 15), the Elections
# in progress (rule 1823).
POLL_ROWS = frozenset({PollRow.__tablename__})
ELECTION_ROWS = frozenset({ElectionRow.__tablename__})

# -- elections and Ministries --------------------------------------------------------------


def elections_adapters(session: Session, services: Services) -> tuple[GameAdapter, ...]:
    return (ElectionsAdapter(session, services),)


def rename_in_elections(
    session: Session, services: Services, old: str, new: str
) -> tuple[str, ...]:
    changed = []
    if rename_in_election_rows(session, old, new):
        changed.append(election_state.RECORD_NAME)
    if rename_in_ministries(session, services, old, new):
        changed.append(ministries.RECORD_NAME)
    return tuple(changed)


def rename_in_election_rows(session: Session, old: str, new: str) -> bool:
    """Rule 151 in every Election; whether any changed (only those are written)."""
    _loaded, book = election_state.load_book(session)
    renamed = election_state.renamed_book(book, old, new)
    changed = [
        after
        for before, after in zip(book.elections, renamed.elections, strict=True)
        if after != before
    ]
    for election in changed:
        election_state.write_election(session, election, election_state.BallotsWritten.ALL_BALLOTS)
    return bool(changed)


def rename_in_ministries(session: Session, services: Services, old: str, new: str) -> bool:
    # Same first nweek as ``ElectionDesk``: a list seeded from the
    # configuration is written now, or the configured old name would return.
    first_nweek = services.clock.config.epoch_reading.nweek
    record, loaded = ministries.load_ministries(session, services.settings.ministries, first_nweek)
    changed = ministries.renamed_ministries(loaded, old, new)
    if changed == loaded:
        return False
    ministries.save_ministries(session, record, changed)
    return True


ELECTIONS = Game(
    name="elections",
    title="Ministries and Elections (rules 625, 1272, 1823)",
    adapters=elections_adapters,
    areas=(elections_area.AREA,),
    settings_section="elections",
    views=(
        StateView(
            "ministries",
            "who holds each Ministry, and the Deputies (rule 625)",
            lambda session, services, at: View(*ministries_state(session, services)),
        ),
        StateView(
            "elections",
            "Elections in progress and decided (rules 625, 1823)",
            lambda session, services, at: View(*elections_state(session, services)),
        ),
    ),
    # And rule 1823's deadlines.
    timed_events=(
        TimedEvent(
            advance_elections, rule(625), next_due=elections_due, next_due_reads=ELECTION_ROWS
        ),
    ),
    digest_sections=(godel_sections,),
    renames=(rename_in_elections,),
    private_actions=ElectionsAdapter.private_actions,
    templates="elections",
)

# -- the Ministers' digests ------------------------------------------------------------------


def digest_adapters(session: Session, services: Services) -> tuple[GameAdapter, ...]:
    return (DigestAdapter(session, services),)


def show_digests(session: Session, services: Services, at: datetime | None) -> View:
    return View(*digests_view(session, services, at))


DIGESTS = Game(
    name="digests",
    title="The Ministers' digests (rule 625 D)",
    adapters=digest_adapters,
    areas=(DIGEST_AREA,),
    settings_section="digests",
    views=(
        # Rule 625 D: a digest is mailed to its Minister alone, so the view is not public.
        StateView(
            "digests",
            "what each Minister would receive now, or --at (rule 625 D)",
            show_digests,
            public=False,
        ),
    ),
    timed_events=(
        TimedEvent(
            send_scheduled_digests,
            rule(625),
            reports=True,
            next_due=digests_due,
            next_due_reads=frozenset(),
        ),
    ),
    private_actions=DigestAdapter.private_actions,
    while_clock_off=frozenset({"digest.request"}),  # a request for information changes nothing
    templates="digests",
)

# -- proposals, polls and the Ballot -----------------------------------------------------------


def rename_in_proposals(
    session: Session, services: Services, old: str, new: str
) -> tuple[str, ...]:
    loaded, book = proposal_book.load_book(session)
    renamed = proposal_book.renamed_book(book, old, new)
    if renamed == book:
        return ()
    # renamed_book replaces only the proponent's proposals: only they are written.
    proposal_book.save_book(session, loaded, renamed)
    return (proposal_book.RECORD_NAME,)


def describe_commit(arguments: Mapping[str, Any]) -> str:
    # Rule 15 B: what may be public of a private vote before its poll concludes.
    polls = ", ".join(f"poll {vote['poll']} ({vote['subject']})" for vote in arguments["votes"])
    return f"a private vote on {polls}"


def describe_reveal(arguments: Mapping[str, Any]) -> str:
    return f"the private votes on poll {arguments['poll']} ({arguments['subject']}), revealed"


def apply_private_commit(session: Session, services: Services, record: AdminRecord) -> str:
    return apply_commit(session, services, record)


def apply_private_reveal(session: Session, services: Services, record: AdminRecord) -> str:
    return apply_reveal(session, services, record)


PROPOSALS = Game(
    name="proposals",
    title="Proposals, polls and the Ballot (rules 5, 15, 19, 23)",
    adapters=governance_adapters,
    areas=(PROPOSALS_AREA, POLLS_AREA),
    settings_section="proposals",
    views=(
        StateView(
            "proposals",
            "every proposal, its revisions and status (rules 5, 19)",
            lambda session, services, at: proposals_view(session, services),
        ),
        StateView(
            "ballot",
            "the Ballots called, with their polls (rule 23)",
            lambda session, services, at: ballot_view(session, services),
        ),
        StateView(
            "polls",
            "every poll: Eligible Voters, votes, outcome (rule 15)",
            lambda session, services, at: polls_view(session, services),
        ),
    ),
    timed_events=(TimedEvent(run_ballot, rule(23), next_due=ballot_due, next_due_reads=POLL_ROWS),),
    digest_sections=(chairman_sections,),
    renames=(rename_in_proposals,),
    admin_commands={  # rule 15 B (bot.engine.private_records)
        "private.commit": AdminCommand(apply_private_commit, describe_commit),
        "private.reveal": AdminCommand(apply_private_reveal, describe_reveal),
    },
    private_actions=VotesAdapter.private_actions,  # rule 15 B: Concealable votes
    after_private_post=commit_private_votes,
    # Rule 151: "No player may change eir name to that of an entity defined
    # in a current proposal" (nor take it on joining, docs/readings.md).
    name_checks=(proposal_book.refuse_name_of_proposed_entity,),
    templates="governance",
)

# -- Calls For Inquiry -----------------------------------------------------------------------


def cfi_adapters(session: Session, services: Services) -> tuple[GameAdapter, ...]:
    return (CfiAdapter(session, services),)


CFIS = Game(
    name="cfis",
    title="Calls For Inquiry (rule 125)",
    adapters=cfi_adapters,
    areas=(CFI_AREA,),
    settings_section="cfis",
    views=(
        StateView(
            "cfis",
            "pending CFIs and who has not voted (rule 125)",
            lambda session, services, at: cfis_view(session, services),
        ),
    ),
    # At a CFI poll's 4th midnight.
    timed_events=(
        TimedEvent(close_due_cfis, rule(125), next_due=cfi_due, next_due_reads=POLL_ROWS),
    ),
    digest_sections=(attorney_generalist_sections,),
    private_actions=CfiAdapter.private_actions,
    # Rule 3 B: "Actions related to the submitting and judging of CFIs ... happen
    # upon reaching the forum regardless of the state of the Clock".
    while_clock_off=frozenset({"cfi.submit", "cfi.argue", "cfi.vote"}),
    templates="cfi",
)
