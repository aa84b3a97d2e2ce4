"""A governance post costs as many statements with 2,000 players as with 10.

Counted in SQL statements, not timed.  With a Ballot open (rule 23) and a
CFI open (rule 125), each poll holding every player as an Eligible Voter:
a post that only talks, a vote on the Ballot (rule 15), a vote on the CFI,
and a registration (rule 14, a name looked up in the index of folded names,
rule 2) each send as many statements to the database; so does the
Twiddler's digest section, every player's Tildex (rule 625 D.5).  The
scheduler's "anything due before this post?" reads the columns of when each
open poll Concludes, not the polls.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from pathlib import Path

from sqlalchemy import select

from bot.app import App, build_app
from bot.config import NtimeSettings, PlayerEntry
from bot.engine.governance.digest_sections import twiddler_sections
from bot.engine.worker import process_queue
from bot.posts import compose_post
from bot.runner import advance_to, store_message
from bot.store.models import PollRow
from bot.testing.apps import game_settings
from bot.testing.go_game import LIST_ADDRESS
from bot.testing.judged import recorded_rulings
from bot.testing.statements import counted
from tests.engine.governance.conftest import EPOCH, nday_start

NAMED = {"Alice": "alice@example.test", "Bob": "bob@example.test", "Carol": "carol@example.test"}
CFI = (
    "I submit a CFI: {{ __Rooms are not Tiles__\n"
    "Defendant: Bob\n"
    "Argument: Bob moved through a wall.\n"
    "Resolution:\n"
    "- Bob loses 1 point\n"
    "}}"
)


def players(extra: int) -> tuple[PlayerEntry, ...]:
    named = tuple(PlayerEntry(name, (address,)) for name, address in NAMED.items())
    crowd = (PlayerEntry(f"Voter{n}", (f"voter{n}@example.test",)) for n in range(extra))
    return (*named, *crowd)


class Table:
    def __init__(self, folder: Path, extra: int) -> None:
        settings = game_settings(folder)
        self.app: App = build_app(
            replace(
                settings,
                ntime=NtimeSettings(epoch=EPOCH.isoformat()),
                players=players(extra),
            )
        )
        advance_to(self.app, EPOCH)
        self.counter = 0

    def post(self, author: str, address: str, body: str, nday: int, seconds: int) -> str:
        """Judge one post of ``body``; its rulings, space-separated."""
        self.counter += 1
        identifier = f"cost-{self.counter:03d}@example.test"
        at = nday_start(1, nday) + timedelta(seconds=seconds)
        raw = compose_post(author, address, "Governance", body, identifier, at, to=LIST_ADDRESS)
        store_message(self.app, raw, "smtp", at)
        process_queue(self.app.session_factory, self.app.services)
        return " ".join(ruling for _a, ruling, _r, _t in recorded_rulings(self.app, identifier))


def statements_of_governance_posts(folder: Path, extra: int) -> dict[str, int]:
    table = Table(folder, extra)
    try:
        author = ("Alice", NAMED["Alice"])
        assert table.post(*author, "I submit a proposal: __Cake__ {{ Cake for all. }}", 1, 0)
        advance_to(table.app, nday_start(1, 7))  # the Voting Period: the Ballot is called
        assert table.post(*author, CFI, 7, 60) == "applied"
        with table.app.session_factory() as session:
            open_polls = session.scalars(select(PollRow).where(PollRow.is_open.is_(True))).all()
            assert len(open_polls) == 2
            assert all(len(row.state["poll"]["eligible_voters"]) >= extra for row in open_polls)
        steps = [
            ("talk", ("Bob", NAMED["Bob"]), "Nice weather for a Ballot."),
            ("ballot vote", ("Bob", NAMED["Bob"]), "I vote FOR 100."),
            ("cfi vote", ("Carol", NAMED["Carol"]), "I vote TRUE on CFI 100"),
            ("register", ("Zed", "zed@example.test"), "I join the game as Zed."),
        ]
        counts: dict[str, int] = {}
        for number, (kind, who, body) in enumerate(steps, start=2):
            with counted(table.app.engine) as statements:
                ruling = table.post(*who, body, 7, 60 * number)
            assert ruling == ("" if kind == "talk" else "applied"), kind
            counts[kind] = len(statements)
        with counted(table.app.engine) as statements, table.app.session_factory() as session:
            (section,) = twiddler_sections(session, table.app.services, nday_start(1, 8))
        # And Zed, and the Basin's line: it created Zed's 500~ this nweek (rule 21 A.2).
        assert len(section.lines) == len(NAMED) + extra + 2
        assert section.lines[-1].startswith("the Basin: created 500~ of its 10000~")
        counts["twiddler digest"] = len(statements)
        return counts
    finally:
        table.app.dispose()


def test_governance_posts_take_as_many_statements_at_2000_players_as_at_10(
    tmp_path: Path,
) -> None:
    few = statements_of_governance_posts(tmp_path / "few", 10)
    many = statements_of_governance_posts(tmp_path / "many", 2000)
    assert many == few
    assert all(count > 0 for count in few.values())
