"""The configured players at start-up (rule 14): matched by address, then by name, in order.

The start-up reads the roster once and writes the new rows in bulk; each
entry is still matched as if the entries before it were already written.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from sqlalchemy import select

from bot.app import build_app
from bot.config import PlayerEntry
from bot.store.models import Player
from bot.testing.apps import make_app


def test_entries_match_the_roster_and_the_entries_before_them(tmp_path: Path) -> None:
    first = make_app(tmp_path / "bot")  # Alice and Bob
    first.dispose()
    entries = (
        PlayerEntry("alice", ("new1@example.test",)),  # Alice, by name without case (rule 2)
        PlayerEntry("Dora", ("d@example.test",)),  # a new player
        PlayerEntry("DORA", ("d2@example.test",)),  # the Dora of the entry above
        PlayerEntry("Eve", ("d@example.test",)),  # Dora again, by address before name
        PlayerEntry("Fay", ("f@example.test", "f@example.test")),  # one address, once
        PlayerEntry("Bob", ()),
    )
    again = build_app(replace(first.settings, players=entries))
    try:
        with again.session_factory() as session:
            players = session.scalars(select(Player).order_by(Player.id)).all()
            found = [
                (player.name, player.origin, sorted(item.address for item in player.addresses))
                for player in players
            ]
    finally:
        again.dispose()
    assert found == [
        ("Alice", "config", ["alice@example.test", "new1@example.test"]),
        ("Bob", "config", ["bob@example.test"]),
        ("Dora", "config", ["d2@example.test", "d@example.test"]),
        ("Fay", "config", ["f@example.test"]),
    ]
