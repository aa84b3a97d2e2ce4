"""The public displays and the console: `state players`, `state holdings`, addresses."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from click.testing import CliRunner

from bot.cli import main
from bot.testing.apps import write_config
from bot.testing.go_game import ALICE, BOB

if TYPE_CHECKING:
    from conftest import Table

CAROL = ("Carol", "carol@example.test")


def console(config: Path, *arguments: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, [*arguments, "--config", str(config)])
    return result.exit_code, result.output


def played(table: Table, tmp_path: Path) -> Path:
    table.post(CAROL, "I request to become a player with the name Carol.")
    table.post(ALICE, "I change my name to Alicia.", table.at(1, 2))
    table.post(BOB, "I go On Leave.", table.at(1, 3))
    return write_config(tmp_path / "bot")


def test_state_players_shows_the_roster(table: Table, tmp_path: Path) -> None:
    config = played(table, tmp_path)
    code, text = console(config, "state", "players")
    assert code == 0
    assert text.splitlines() == [
        "Players: 3 (1 On Leave)",
        "  Alicia                         configured         1 address  formerly Alice",
        "  Bob                  On Leave  configured         1 address",
        "  Carol                          joined 2026-01-01  1 address",
    ]
    code, output = console(config, "state", "players", "--json")
    carol = json.loads(output)[2]
    assert {key: carol[key] for key in ("name", "status", "on_leave", "address_count")} == {
        "name": "Carol",
        "status": "player",
        "on_leave": False,
        "address_count": 1,
    }
    assert json.loads(output)[0]["former_names"] == ["Alice"]


def test_state_holdings_is_the_twiddlers_display(table: Table, tmp_path: Path) -> None:
    config = played(table, tmp_path)
    code, text = console(config, "state", "holdings")
    # Alice and Bob hold the 10BW of the nweek the game starts in (rule 212).
    assert (code, text) == (
        0,
        "Alicia: 0 points, 0~, 10BW\nBob: 0 points, 0~, 10BW\nCarol: 1 point, 500~, 4BW\n",
    )
    code, output = console(config, "state", "holdings", "--json")
    assert json.loads(output) == {
        "Alicia": {"bandwidth": 10},
        "Bob": {"bandwidth": 10},
        "Carol": {"bandwidth": 4, "points": 1, "tildex": 500},
    }


def test_a_player_may_post_from_a_second_address(table: Table, tmp_path: Path) -> None:
    config = write_config(tmp_path / "bot")
    code, output = console(config, "player", "address", "add", "Alice", "Alice@Home.Example")
    assert (code, output) == (0, "address added to Alice\n")
    judged = table.post(("Alice", "alice@home.example"), "I go On Leave.")
    assert judged.rulings == [("roster.leave", "applied", "205", "Alice is now On Leave")]
    code, output = console(config, "player", "address", "remove", "Alice", "alice@example.test")
    assert (code, output) == (0, "address removed from Alice\n")


def test_address_changes_that_would_break_the_roster_are_refused(tmp_path: Path) -> None:
    config = write_config(tmp_path / "bot")
    code, output = console(config, "player", "address", "add", "Alice", "bob@example.test")
    assert code != 0 and "bob@example.test is already Bob's address (rule 14)" in output
    code, output = console(config, "player", "address", "remove", "Bob", "bob@example.test")
    assert code != 0 and "only address, and a player needs a working one" in output
    code, output = console(config, "player", "address", "add", "Zed", "zed@example.test")
    assert code != 0 and 'there is no player or Lost Soul called "Zed" (rule 2)' in output
