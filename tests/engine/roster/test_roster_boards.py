"""The roster board of a ruling: the counts and the lines the post changed (rules 14, 151, 205).

The whole roster is ``nomicbot state players`` and the Minister of the
Roster's digest; a ruling shows what its post changed, so its length does not
grow with the number of players.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.testing.go_game import ALICE, BOB

if TYPE_CHECKING:
    from conftest import Table

CAROL = ("Carol", "carol@example.test")
JOIN = "I request to become a player with the name Carol."


def roster_board(reply: str) -> list[str]:
    """The lines of the reply's roster board."""
    board = reply.split("The roster, after this post:\n\n", 1)[1]
    return board.split("\n\n", 1)[0].splitlines()


def test_a_registration_shows_the_counts_and_the_new_player_alone(table: Table) -> None:
    assert roster_board(table.post(CAROL, JOIN).reply) == [
        "Players: 3 (0 On Leave)",
        "Changed by this post:",
        "  Carol                          joined 2026-01-01  1 address",
    ]


def test_a_forfeit_shows_the_lost_soul(table: Table) -> None:
    table.post(CAROL, JOIN)
    judged = table.post(CAROL, "I forfeit the game.", table.at(1, 2))
    assert roster_board(judged.reply) == [
        "Players: 2 (0 On Leave)",
        "Lost Souls: 1",
        "Changed by this post:",
        "  Carol                Lost Soul joined 2026-01-01  1 address",
    ]


def test_a_rename_and_a_leave_in_one_post_show_one_line(table: Table) -> None:
    judged = table.post(ALICE, "I change my name to Alicia. I go On Leave.")
    assert roster_board(judged.reply) == [
        "Players: 2 (1 On Leave)",
        "Changed by this post:",
        "  Alicia               On Leave  configured         1 address  formerly Alice",
    ]


def test_an_implied_off_leave_shows_the_player_line(table: Table) -> None:
    # Rule 205: a game action by a player On Leave takes em Off Leave.
    table.post(BOB, "I go On Leave.")
    judged = table.post(BOB, "I roll 1d6.", table.at(1, 2))
    assert roster_board(judged.reply) == [
        "Players: 2 (0 On Leave)",
        "Changed by this post:",
        "  Bob                            configured         1 address",
    ]
