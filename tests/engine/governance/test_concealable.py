"""Concealable votes (rule 15 B, rule 23): sent privately, published with the results only."""

from __future__ import annotations

import json
from typing import Any

from bot.engine.refusals import refused_posts

SECRET_WORD = "nope"  # Bob's private vote: a variant nobody else uses


def test_a_private_vote_appears_in_no_public_mail_before_the_ballot_closes(new_game: Any) -> None:
    game = new_game()
    game.advance(game.at(1, 0))
    game.post("Alice", "I submit a proposal: __Cake__ {{ Cake for all. }}", game.at(1, 1))
    game.advance(game.at(1, 7))
    game.post("Alice", "I vote FOR 100", game.at(1, 7, 60))
    game.post("Bob", f"I vote {SECRET_WORD} on 100", game.at(1, 7, 120), private=True)
    game.post("Bob", "I vote FOR 100", game.at(1, 7, 180))  # public, then private again
    game.post("Bob", f"I vote {SECRET_WORD} on 100", game.at(1, 8), private=True)
    game.post("Carol", "I vote FOR 100", game.at(1, 8, 60))

    before_close = game.sent()
    public = [mail for mail in before_close if mail.public]
    assert public and all(SECRET_WORD not in mail.body for mail in public)
    private = [mail for mail in before_close if not mail.public]
    assert [mail.recipients for mail in private] == [("bob@example.test",)] * 2
    assert all(SECRET_WORD in mail.body for mail in private)
    # The running tally withholds Bob's actual (private) vote, not just its word.
    view = game.view("ballot")
    (item,) = view.data["proposals"]
    assert [vote["voter"] for vote in item["votes"]] == ["Alice", "Carol"]
    assert item["withheld"] == 1 and "Bob" not in view.text
    assert "Bob" not in game.view("polls").text
    assert "Bob" not in json.dumps([game.view(name).data for name in ("ballot", "polls")])

    game.advance(game.at(2, 0))
    (results,) = game.sent_of("ballot-results")
    assert results.public
    assert f'Bob: No ("{SECRET_WORD}"), sent privately' in results.body
    assert "Bob" in game.view("ballot").text


def test_a_private_post_may_vote_but_not_submit(new_game: Any) -> None:
    game = new_game()
    game.advance(game.at(1, 0))
    game.post("Alice", "I submit a proposal {{ Private cake. }}", game.at(1, 1), private=True)
    ((action, ruling, reason, rule),) = game.rulings()
    assert (action, ruling, rule) == ("proposals.submit", "rejected", "1896")
    assert "privately" in reason
    assert game.view("proposals").data == []


def test_a_forged_private_vote_does_not_replace_the_real_one(new_game: Any) -> None:
    # docs/trust.md: a private mail counts only from an authenticated sender.
    game = new_game()
    game.advance(game.at(1, 0))
    game.post("Alice", "I submit a proposal: __Cake__ {{ Cake for all. }}", game.at(1, 1))
    game.advance(game.at(1, 7))
    game.post("Bob", f"I vote {SECRET_WORD} on 100", game.at(1, 7, 60), private=True)
    forged = game.post("Bob", "I vote FOR 100", game.at(1, 7, 120), private=True, vouched=False)

    with game.app.session_factory() as session:
        [refusal] = [post for post in refused_posts(session) if post.message_id == forged]
    assert refusal.claimed_sender == "bob@example.test"
    assert "could not be authenticated" in refusal.reason
    # Nobody is answered about the forgery: Bob got only his own vote's ruling.
    private = [mail for mail in game.sent() if not mail.public]
    assert [mail.recipients for mail in private] == [("bob@example.test",)]
    assert all(forged not in mail.body for mail in game.sent())

    game.advance(game.at(2, 0))
    (results,) = game.sent_of("ballot-results")
    assert f'Bob: No ("{SECRET_WORD}"), sent privately' in results.body
