"""Name changes (rule 151) and leaves of absence (rule 205) by post."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.app import build_app
from bot.engine.players import active_players, find_player_by_name, player_known_as
from bot.testing.go_game import ALICE, BOB

if TYPE_CHECKING:
    from conftest import Table


def test_a_player_changes_eir_name_and_the_old_one_is_kept(table: Table) -> None:
    judged = table.post(ALICE, "I change my name to Alicia.")
    assert judged.rulings == [("roster.rename", "applied", "151", "Alice is now known as Alicia")]
    assert "Alicia" in judged.reply and "formerly Alice" in judged.reply
    with table.app.session_factory() as session:
        alicia = find_player_by_name(session, "Alicia")
        # The archive's old name still leads to the player (rule 151).
        assert player_known_as(session, "alice") == alicia


def test_later_actions_of_the_post_use_the_new_name(table: Table) -> None:
    judged = table.post(ALICE, "I change my name to Alicia. I go On Leave.")
    assert judged.rulings[1] == ("roster.leave", "applied", "205", "Alicia is now On Leave")


def test_a_name_borne_by_another_player_is_refused(table: Table) -> None:
    judged = table.post(ALICE, "I change my name to BOB.")
    assert judged.rulings == [
        ("roster.rename", "rejected", "2", 'the name "BOB" belongs to Bob; names are unique')
    ]
    assert table.player("Alice").former_names == []


def test_changing_to_the_same_name_is_refused(table: Table) -> None:
    judged = table.post(ALICE, "I change my name to Alice.")
    assert judged.rulings == [("roster.rename", "rejected", "151", 'your name is already "Alice"')]


def test_a_renamed_configured_player_stays_one_player_on_restart(table: Table) -> None:
    table.post(ALICE, "I change my name to Alicia.")
    again = build_app(table.app.settings)  # the configuration still says "Alice"
    try:
        with again.session_factory() as session:
            names = sorted(player.name for player in active_players(session))
    finally:
        again.dispose()
    assert names == ["Alicia", "Bob"]


def test_going_on_leave_and_back(table: Table) -> None:
    judged = table.post(BOB, "I go On Leave.")
    assert judged.rulings == [("roster.leave", "applied", "205", "Bob is now On Leave")]
    assert "Players: 2 (1 On Leave)" in judged.reply
    with table.app.session_factory() as session:
        assert [player.name for player in active_players(session)] == ["Alice"]
    back = table.post(BOB, "I return from leave.", table.at(1, 2))
    assert back.rulings == [("roster.return", "applied", "205", "Bob is now Off Leave")]
    assert not table.player("Bob").on_leave


def test_leave_cannot_be_declared_twice(table: Table) -> None:
    judged = table.post(BOB, "I go On Leave. I declare myself to be On Leave.")
    assert judged.rulings[1] == ("roster.leave", "rejected", "205", "Bob is already On Leave")
    off = table.post(ALICE, "I go Off Leave.", table.at(1, 2))
    assert off.rulings == [("roster.return", "rejected", "205", "Alice is already Off Leave")]


def test_forfeiting_ends_a_leave(table: Table) -> None:
    table.post(BOB, "I go On Leave.")
    table.post(BOB, "I forfeit the game.", table.at(1, 2))
    bob = table.player("Bob")
    assert not bob.active and not bob.on_leave
