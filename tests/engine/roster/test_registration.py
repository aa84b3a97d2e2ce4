"""Joining and forfeiting by post: rules 14, 21 A.2 and 212 of seed 004."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.engine.holdings import BANDWIDTH, POINTS, TILDEX
from bot.testing.go_game import BOB

if TYPE_CHECKING:
    from conftest import Table

CAROL = ("Carol", "carol@example.test")

JOIN = "I request to become a player with the name Carol."


def test_a_new_player_gets_the_welcome_point_500_tildex_and_4bw(table: Table) -> None:
    judged = table.post(CAROL, JOIN)
    assert judged.rulings == [
        (
            "roster.register",
            "applied",
            "14",
            "carol@example.test is now a player, known as Carol, and receives "
            "1 Welcome Point, 500~ (rule 21 A.2) and 4BW (rule 212)",
        )
    ]
    # Every entry names the post and the rule that caused it.
    assert table.entries("Carol", POINTS) == [(1, "14", "post", "roster-001@example.test")]
    assert table.entries("Carol", TILDEX) == [(500, "21 A.2", "post", "roster-001@example.test")]
    assert table.entries("Carol", BANDWIDTH) == [(4, "212", "post", "roster-001@example.test")]


def test_the_reply_carries_the_roster(table: Table) -> None:
    reply = table.post(CAROL, JOIN).reply
    assert "The roster, after this post:" in reply
    assert "Players: 3 (0 On Leave)" in reply
    assert "Carol" in reply and "joined 2026-01-01" in reply and "1 address" in reply
    assert "carol@example.test" not in reply.split("The roster")[1]  # counted, not shown


def test_a_taken_name_is_refused(table: Table) -> None:
    judged = table.post(CAROL, "I request to become a player with the name bob.")
    assert judged.rulings == [
        ("roster.register", "rejected", "14", 'the name "bob" is already taken')
    ]
    assert "The roster" not in judged.reply


def test_a_player_cannot_register_again(table: Table) -> None:
    judged = table.post(BOB, "I request to become a player with the name Robert.")
    assert judged.rulings == [
        ("roster.register", "rejected", "14", "bob@example.test is already a player's address")
    ]


def test_forfeiting_makes_a_lost_soul_who_holds_nothing(table: Table) -> None:
    table.post(CAROL, JOIN)
    judged = table.post(CAROL, "I forfeit the game.", table.at(1, 2))
    assert judged.rulings[0][:3] == ("roster.forfeit", "applied", "14")
    player = table.player("Carol")
    assert not player.active and player.left_nweek == 0
    # Rule 14: e "loses all game defined properties and attributes except for eir Name".
    assert [table.balance("Carol", c) for c in (POINTS, TILDEX, BANDWIDTH)] == [0, 0, 0]
    assert table.entries("Carol", TILDEX)[-1] == (-500, "14", "post", "roster-002@example.test")
    assert "Lost Souls: 1" in judged.reply


def test_a_lost_soul_rejoining_in_the_same_nweek_gets_0bw(table: Table) -> None:
    table.post(CAROL, JOIN)
    table.post(CAROL, "I forfeit the game.", table.at(1, 2))
    judged = table.post(CAROL, JOIN, table.at(1, 3))
    assert judged.rulings[0][1] == "applied"
    assert judged.rulings[0][3].endswith("0BW (e was a player earlier this nweek) (rule 212)")
    assert table.balance("Carol", BANDWIDTH) == 0
    # Rule 21 A.2 and 14 give their amounts on every entry into the game.
    assert table.balance("Carol", TILDEX) == 500
    assert table.balance("Carol", POINTS) == 1


def test_a_lost_soul_rejoining_in_a_later_nweek_gets_4bw(table: Table) -> None:
    table.post(CAROL, JOIN)
    table.post(CAROL, "I forfeit the game.", table.at(1, 2))
    judged = table.post(CAROL, "I join the game as Caroline.", table.at(2))
    assert judged.rulings[0][1] == "applied"
    assert table.balance("Caroline", BANDWIDTH) == 4
    assert table.player("Caroline").former_names[0]["name"] == "Carol"


def test_a_non_player_cannot_forfeit_or_go_on_leave(table: Table) -> None:
    judged = table.post(CAROL, "I forfeit the game.\n\nI go On Leave.")
    assert [(action, ruling, rule) for action, ruling, rule, _ in judged.rulings] == [
        ("roster.forfeit", "rejected", "14"),
        ("roster.leave", "rejected", "14"),
    ]
