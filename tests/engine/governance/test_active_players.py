"""One definition of "active player": a player Off Leave (rules 15 B and 205 of seed 004).

Rule 15 B: "Democratic: In a Democratic poll, the Issue Fails if at least
half of all active players (as defined at the start of voting) vote against
it."  Rule 205: "Each player, at any given time, shall be either On Leave
or Off Leave"; a player On Leave is not active.
"""

from __future__ import annotations

from typing import Any

from bot.engine.players import active_players, all_players


def test_a_player_on_leave_is_not_counted_in_the_democratic_veto(new_game: Any) -> None:
    game = new_game()
    game.advance(game.at(1, 0))
    game.post("Alice", "I submit a proposal: __Cake__ {{ Cake for all. }}", game.at(1, 1))
    game.post("Carol", "I go On Leave.", game.at(1, 2))
    game.advance(game.at(1, 7))  # the Ballot is called: Alice and Bob are the active players
    with game.app.session_factory() as session:
        assert [player.name for player in active_players(session)] == ["Alice", "Bob"]
        assert [player.name for player in all_players(session)] == ["Alice", "Bob", "Carol"]
    game.post("Alice", "I vote FOR 100.", game.at(1, 7, 60))
    game.post("Bob", "I vote AGAINST 100.", game.at(1, 7, 120))
    # Carol is still an Eligible Voter (rule 15: "all Players"); voting takes
    # her Off Leave (rule 205), but the active players were fixed at the start.
    game.post("Carol", "I vote FOR 100.", game.at(1, 8))
    game.advance(game.at(2, 0))
    (results,) = game.sent_of("ballot-results")
    body = " ".join(results.body.split())
    # Yes 2, No 1; one No is half of the two active players: vetoed.  Counting
    # Carol among the active players (3) would have let it pass.
    assert "Yes 2, No 1, Shelve 0, Abstain 0; legislative veto (rule 15 B)" in body
    assert "Proposal 100/0: Cake (by Alice) FAILED" in body
