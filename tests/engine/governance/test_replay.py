"""Replaying the same posts into a new database gives the same state and the same mails."""

from __future__ import annotations

from typing import Any

VIEWS = ("proposals", "ballot", "polls", "holdings")


def play(game: Any) -> None:
    game.advance(game.at(1, 0))
    game.post("Alice", "I submit a proposal: __Cake__ {{ Cake for all. }}", game.at(1, 1))
    game.post("Bob", "I submit a proposal: __Tea__ {{ Tea {{ nested }} for all. }}", game.at(1, 2))
    game.post("Bob", "I revise proposal 101 to read {{ Tea for some. }}", game.at(1, 3))
    game.advance(game.at(1, 7))
    game.post("Alice", "I vote FOR 100, shelve on 101", game.at(1, 7, 60))
    game.post("Bob", "I vote nay on 100", game.at(1, 7, 120), private=True)
    game.post("Carol", "I vote sure on 100 and 101", game.at(1, 8))
    game.post("Bob", "I vote FOR 100", game.at(1, 9))
    game.advance(game.at(2, 0))


def test_the_same_posts_give_the_same_state_and_mails(new_game: Any) -> None:
    first, second = new_game(), new_game()
    play(first)
    play(second)
    for name in VIEWS:
        assert first.view(name).data == second.view(name).data
        assert first.view(name).text == second.view(name).text
    assert first.sent() == second.sent()
    assert first.rulings() == second.rulings()
    assert len(first.sent_of("ballot-results")) == 1
