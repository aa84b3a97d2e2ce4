"""Rule 212 (seed 004): Bandwidth becomes 10 at the beginning of each nweek.

The reset is a timed handler the scheduler runs before every post; it must
happen once per nweek for every player (not Lost Souls), and a replay of
the archive must write exactly the same entries.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import select

from bot.app import App
from bot.engine import holdings
from bot.engine.bandwidth import reset_at_nweek_start, reset_bandwidth
from bot.engine.holdings import BANDWIDTH
from bot.outbound.transports import MaildirTransport
from bot.posts import compose_post, mbox_from_line
from bot.runner import replay_archive
from bot.store.models import LedgerEntry, Player
from bot.testing.apps import make_app, write_mbox
from bot.testing.go_game import ALICE, BOB, EPOCH, LIST_ADDRESS

if TYPE_CHECKING:
    from conftest import Table

CAROL = ("Carol", "carol@example.test")
JOIN = "I request to become a player with the name Carol."
NWEEK_2_START = EPOCH.replace(day=11)  # ten ndays of one day each (rule 3 A)


def spend_bandwidth(app: App, name: str, amount: int) -> None:
    """What a proposal's submission does (rule 19: 2BW), through the holdings API."""
    with app.session_factory.begin() as session:
        player = session.scalar(select(Player).where(Player.name == name))
        assert player is not None
        holdings.spend(
            session, player.id, BANDWIDTH, amount, at=EPOCH.replace(day=2), rule="19", note="test"
        )


def test_every_player_has_10bw_when_an_nweek_begins(table: Table) -> None:
    table.post(ALICE, "I roll 1d6.")
    table.post(CAROL, JOIN, table.at(1, 2))
    spend_bandwidth(table.app, "Carol", 2)
    table.post(BOB, "I roll 1d6.", table.at(2, 5))
    assert [table.balance(name, BANDWIDTH) for name in ("Alice", "Bob", "Carol")] == [10, 10, 10]
    assert table.entries("Carol", BANDWIDTH) == [
        (4, "212", "post", "roster-002@example.test"),
        (-2, "19", "post", None),
        (8, "212", "scheduler", None),
    ]


def test_the_reset_happens_once_per_nweek(table: Table) -> None:
    table.post(ALICE, "I roll 1d6.")
    table.post(BOB, "I roll 1d6.", table.at(2, 5))
    spend_bandwidth(table.app, "Alice", 3)
    with table.app.session_factory.begin() as session:
        # The scheduler's interval again, as a replay into a kept database would.
        reset_bandwidth(session, table.app.services, table.at(1), table.at(2, 5))
        assert reset_at_nweek_start(session, 1, NWEEK_2_START, 10) == 0
    assert table.balance("Alice", BANDWIDTH) == 7
    assert table.entries("Alice", BANDWIDTH) == [
        (10, "212", "scheduler", None),  # the nweek the game starts in
        (0, "212", "scheduler", None),  # nweek 2 begins: still 10
        (-3, "19", "post", None),
    ]


def test_a_player_who_rejoined_with_0bw_gets_10_next_nweek(table: Table) -> None:
    table.post(CAROL, JOIN)
    table.post(CAROL, "I forfeit the game.", table.at(1, 2))
    table.post(CAROL, JOIN, table.at(1, 3))
    assert table.balance("Carol", BANDWIDTH) == 0
    table.post(ALICE, "I roll 1d6.", table.at(2))
    assert table.balance("Carol", BANDWIDTH) == 10


def test_the_configured_players_hold_10bw_in_the_nweek_the_bot_starts_in(table: Table) -> None:
    # Rule 212: "At the beginning of each nweek, the number of Chits held by
    # each player becomes 10"; the configured players are players from the
    # start, so the first nweek is no exception.
    table.post(ALICE, "I roll 1d6.", table.at(1, 3))
    assert [table.balance(name, BANDWIDTH) for name in ("Alice", "Bob")] == [10, 10]
    assert table.entries("Bob", BANDWIDTH) == [(10, "212", "scheduler", None)]
    # "When an External Force becomes a Player, the number of Chits held by
    # that Player becomes 4", in the first nweek as in any other.
    table.post(CAROL, JOIN, table.at(1, 4))
    assert table.balance("Carol", BANDWIDTH) == 4


def test_lost_souls_are_not_reset(table: Table) -> None:
    table.post(CAROL, JOIN)
    table.post(CAROL, "I forfeit the game.", table.at(1, 2))
    table.post(ALICE, "I roll 1d6.", table.at(3))
    assert table.balance("Carol", BANDWIDTH) == 0


def ledger_rows(app: App) -> list[tuple[str, str, int, str, str]]:
    with app.session_factory() as session:
        rows = session.execute(
            select(
                Player.name,
                LedgerEntry.currency,
                LedgerEntry.amount,
                LedgerEntry.rule,
                LedgerEntry.occurred_at,
            )
            .join(Player, Player.id == LedgerEntry.player_id)
            .order_by(LedgerEntry.id)
        )
        return [(n, c, a, r, at.isoformat()) for n, c, a, r, at in rows]


def test_a_replay_writes_the_same_entries_and_a_second_replay_none(tmp_path: Path) -> None:
    posts = [
        (ALICE, "I roll 1d6.", EPOCH.replace(hour=1)),
        (CAROL, JOIN, EPOCH.replace(hour=2)),
        (CAROL, "I forfeit the game.", EPOCH.replace(day=3)),
        (CAROL, JOIN, EPOCH.replace(day=4)),
        (BOB, "I roll 1d6.", EPOCH.replace(day=12)),
        (ALICE, "I roll 1d6.", EPOCH.replace(day=25)),
    ]
    archive = tmp_path / "archive.mbox"
    write_mbox(
        archive,
        [
            (
                compose_post(*who, "[Nomic] x", body, f"r{n}@example.test", at, to=LIST_ADDRESS),
                mbox_from_line(who[1], at),
            )
            for n, (who, body, at) in enumerate(posts)
        ],
    )
    until = EPOCH.replace(day=26)
    results = []
    for name in ("first", "second"):
        app = make_app(tmp_path / name)
        replay_archive(app, archive, MaildirTransport(tmp_path / f"{name}-out"), until=until)
        results.append(ledger_rows(app))
        if name == "second":
            replay_archive(app, archive, MaildirTransport(tmp_path / "again-out"), until=until)
            assert ledger_rows(app) == results[0]
        app.dispose()
    assert results[0] == results[1]
    # The game starts (the configured Alice and Bob), then nweeks 2 and 3
    # began (days 11 and 21): three players reset each time.
    resets = [row for row in results[0] if row[3] == "212" and row[1] == BANDWIDTH]
    assert [(row[0], row[2]) for row in resets] == [
        ("Alice", 10),
        ("Bob", 10),
        ("Carol", 4),  # joining; forfeiting is rule 14's, and rejoining changes nothing
        ("Alice", 0),
        ("Bob", 0),
        ("Carol", 10),
        ("Alice", 0),
        ("Bob", 0),
        ("Carol", 0),
    ]
