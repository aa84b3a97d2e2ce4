"""A forfeiting proponent's proposal (rules 14 and 19 of seed 004): decided, paying nobody."""

from __future__ import annotations

from typing import Any


def test_a_proposal_outlives_its_proponents_forfeit_and_rewards_nobody(new_game: Any) -> None:
    game = new_game()
    game.advance(game.at(1, 0))
    game.post("Alice", "I submit a proposal: __Cake__ {{ Cake for all. }}", game.at(1, 1))
    game.post("Alice", "I forfeit the game.", game.at(1, 2))
    game.advance(game.at(1, 7))
    # Rule 19: the proposal stays (a Game Document, not Alice's property) and is voted on.
    game.post("Bob", "I vote FOR 100", game.at(1, 7, 60))
    game.post("Carol", "I vote FOR 100", game.at(1, 7, 120))
    game.advance(game.at(2, 0))
    (results,) = game.sent_of("ballot-results")
    body = " ".join(results.body.split())
    assert "Proposal 100/0: Cake (by Alice) PASSED" in body
    # "its proponent, if one exists, receives this bonus": a Lost Soul holds nothing (14).
    assert "no reward or penalty: Alice has forfeited, and a Lost Soul holds nothing" in body
    assert "rolled 3d6" in body  # rolled all the same: later proof lines stay in place
    assert game.balance("Alice", "points") == 0
    assert game.balance("Alice", "renown:Honor:temporary") == 0
