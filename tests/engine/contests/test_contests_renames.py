"""Rule 151: a rename rewrites the contests' players, never the words players wrote."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.engine.games.contests import renamed_state
from bot.games.contests.challenges import post_challenge, submit_answer
from bot.games.contests.rules import SIMILARITY, Contest
from bot.games.contests.serialize import state_from_json, state_to_json
from bot.games.contests.state import new_state

AT = datetime(2026, 1, 2, 9, tzinfo=UTC)


def test_a_rename_keeps_the_answers_and_what_was_committed() -> None:
    state, _challenge = post_challenge(
        new_state({Contest.SIMILARITY: "Alice"}), SIMILARITY, "Alice", "Dave, Bob, Carol", AT
    )
    state, _challenge, _fee = submit_answer(state, SIMILARITY, "Dave", "Dave", AT, "c0ffee", "n")
    renamed = renamed_state(state_to_json(state), "Dave", "David")
    assert renamed is not None
    (answer,) = state_from_json(renamed).of(Contest.SIMILARITY).challenge(1).answers
    assert (answer.player, answer.content, answer.committed_as) == ("David", "Dave", "Dave")
    challenge = state_from_json(renamed).of(Contest.SIMILARITY).challenge(1)
    assert challenge.text == "Dave, Bob, Carol"
    assert renamed_state(state_to_json(state), "Erin", "Eve") is None
