"""Rule 151 (seed 004): "No player may change eir name to that of an entity
defined in a current proposal."  Read for every name a player takes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.games.governance.definitions import defined_names, defines_name
from bot.testing.go_game import ALICE, BOB

if TYPE_CHECKING:
    from conftest import Table

CAROL = ("Carol", "carol@example.test")
VIZIER = (
    "I submit a proposal: __The Vizier__ {{ There exists an office called the Grand Vizier. "
    "The Grand Vizier is an Outsider.  Everyone gets cake. }}"
)


def test_the_names_a_proposal_defines() -> None:
    text = (
        'There exist Game Objects known as Bandwidth Chits. "Snark" means a player who '
        "posted twice.  A Zorg is a Game Object.  Everyone gets cake.  X is called bob."
    )
    assert defined_names(text) == {"Bandwidth Chits", "Snark", "Zorg"}
    assert defines_name("A Ministry called the Ministry of Fun.", "the ministry  of fun")
    assert not defines_name(text, "cake") and not defines_name(text, "bob")


def test_a_name_defined_in_a_current_proposal_cannot_be_taken(table: Table) -> None:
    table.post(ALICE, VIZIER, table.at(1, 2))
    refused = table.post(BOB, "I change my name to Grand Vizier.", table.at(1, 3))
    assert refused.rulings == [
        (
            "roster.rename",
            "rejected",
            "151",
            '"Grand Vizier" is the name of an entity defined in proposal 100/0, '
            "a current proposal: no player may take it",
        )
    ]
    joined = table.post(CAROL, "I request to become a player named the Grand Vizier.")
    assert [ruling[1:3] for ruling in joined.rulings] == [("rejected", "151")]
    # A word the proposal only uses defines nothing.
    cake = table.post(BOB, "I change my name to Cake.", table.at(1, 4))
    assert cake.rulings[0][1] == "applied"


def test_the_name_is_free_once_the_proposal_is_no_longer_current(table: Table) -> None:
    table.post(ALICE, VIZIER, table.at(1, 2))
    table.post(ALICE, "I rescind proposal 100.", table.at(1, 3))
    judged = table.post(BOB, "I change my name to Grand Vizier.", table.at(1, 4))
    assert judged.rulings[0][1:3] == ("applied", "151")
