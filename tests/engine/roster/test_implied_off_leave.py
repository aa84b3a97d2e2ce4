"""Rule 205 (seed 004): "By taking any game action on a public forum, a player
who is On Leave automatically, by implication, declares emself to be Off Leave."
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.testing.go_game import ALICE, BOB

if TYPE_CHECKING:
    from conftest import Table


def test_a_game_action_takes_a_player_off_leave_and_the_ruling_says_so(table: Table) -> None:
    table.post(BOB, "I go On Leave.")
    judged = table.post(BOB, "I roll 1d6.", table.at(1, 2))
    (action, ruling, rule, summary) = judged.rulings[0]
    assert (action, ruling, rule) == ("dice.roll", "applied", "9")
    assert summary.endswith(
        "; Bob was On Leave and, by taking this game action, is now Off Leave (rule 205)"
    )
    assert not table.player("Bob").on_leave
    assert "Players: 2 (0 On Leave)" in judged.reply  # the roster changed, so it is mailed


def test_a_rejected_action_is_not_taken_and_leaves_the_leave_alone(table: Table) -> None:
    table.post(BOB, "I go On Leave.")
    judged = table.post(BOB, "I place a stone at J9.", table.at(1, 2))  # off the 9x9 board
    assert judged.rulings[0][:2] == ("go.place", "rejected")
    assert table.player("Bob").on_leave


def test_asking_for_a_statement_is_not_a_game_action(table: Table) -> None:
    table.post(ALICE, "I go On Leave.")
    table.post(ALICE, "My holdings please.", table.at(1, 2))
    assert table.player("Alice").on_leave


def test_a_name_change_is_a_game_action(table: Table) -> None:
    table.post(ALICE, "I go On Leave.")
    judged = table.post(ALICE, "I change my name to Alicia.", table.at(1, 2))
    assert "Alicia was On Leave" in judged.rulings[0][3]
    assert not table.player("Alicia").on_leave
