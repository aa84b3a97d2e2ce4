"""Words players use, judged by mail (issue 12): rule 15's unclear votes, the
catch-all for subgames not refereed yet, chatter from list members who are
not players, and a proposal written without rule 217's delimiters."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from bot.engine.worker import process_queue
from bot.posts import compose_post
from bot.runner import store_message
from bot.store.models import Message
from bot.testing.go_game import LIST_ADDRESS

STRANGER = ("Sam Lurker", "sam@example.test")


def post_as_stranger(game: Any, body: str, at: Any) -> str:
    """A list member who is no player posts ``body``."""
    game.counter += 1
    message_id = f"stranger-{game.counter}@example.test"
    raw = compose_post(*STRANGER, "Chatter", body, message_id, at, to=LIST_ADDRESS)
    store_message(game.app, raw, "smtp", at)
    process_queue(game.app.session_factory, game.app.services)
    return message_id


def status_of(game: Any, message_id: str) -> tuple[str, str]:
    with game.app.session_factory() as session:
        message = session.scalars(select(Message).where(Message.message_id == message_id)).one()
        return message.status, message.status_reason


def test_an_unclear_vote_is_an_abstain_vote_and_replaces_an_earlier_yes(new_game: Any) -> None:
    # Rule 15 B: "if it's not obvious what the vote means, it should be
    # interpreted as an Abstain vote"; rule 15: the last vote counts.
    game = new_game()
    game.advance(game.at(1, 0))
    game.post("Alice", "I submit a proposal: __Cake__ {{ Cake for all. }}", game.at(1, 1))
    game.post("Bob", "I submit a proposal: __Tea__ {{ Tea for all. }}", game.at(1, 2))
    game.advance(game.at(1, 7))
    game.post("Alice", "I vote Yes on proposal 100.", game.at(1, 7, 60))
    game.post("Alice", "I vote potato on proposal 100.", game.at(1, 7, 120))
    game.post("Bob", "I abstain on proposal 101.", game.at(1, 7, 180))
    game.post("Carol", "100: AGAINST\n101: FOR", game.at(1, 7, 240))
    game.advance(game.at(2, 0))
    (results,) = game.sent_of("ballot-results")
    body = " ".join(results.body.split())
    assert 'Alice: Abstain ("potato")' in body
    assert 'Bob: Abstain ("abstain")' in body
    assert 'Carol: No ("AGAINST")' in body and 'Carol: Yes ("for")' in body  # ballot lines


def test_an_action_of_a_subgame_not_refereed_is_answered_with_its_rule(new_game: Any) -> None:
    game = new_game()
    game.post("Alice", "I water my Garden. I play a card. I roll 1d6.", game.at(0, 1))
    rulings = game.rulings()
    assert rulings[0][:2] == ("unrefereed.gardens", "not_taken")
    assert rulings[0][2].startswith("not refereed by the bot: rule 1902 (Gardening 101")
    assert rulings[0][3] == "1902"
    assert rulings[1][:2] == ("unrefereed.cards", "not_taken") and rulings[1][3] == "1728"
    assert rulings[2][:2] == ("dice.roll", "applied")
    reply = game.sent_of("ruling")[-1].body
    assert "not refereed by the bot: rule 1902" in reply


def test_a_stranger_who_states_no_action_gets_no_reply(new_game: Any) -> None:
    game = new_game()
    silent = [
        "I put more information about my system there.",
        "I play Xyzzy tonight. [[ I roll 3d6 ]]",
        "Rolling dice is fun; I place my bets on G33.",
    ]
    for body in silent:
        message_id = post_as_stranger(game, body, game.at(0, 1))
        assert status_of(game, message_id)[0] == "processed"
    assert game.sent_of("ruling") == []
    # A request to join that lacks its name is an action: it is answered (rule 14).
    post_as_stranger(game, "I wish to become a player.", game.at(0, 2))
    (reply,) = game.sent_of("ruling")
    assert "rule 14" in reply.body


def test_a_proposal_with_labelled_lines_needs_no_delimiters(new_game: Any) -> None:
    # Rule 217: the delimiters "are not required to be used in any circumstance".
    game = new_game()
    game.advance(game.at(1, 0))
    body = "I submit the following proposal:\nTitle: Cake\nCake for all.\nAnd tea."
    game.post("Alice", body, game.at(1, 1))
    (proposal,) = game.view("proposals").data
    assert proposal["title"] == "Cake"
    assert "Cake for all." in proposal["text"] and "And tea." in proposal["text"]
