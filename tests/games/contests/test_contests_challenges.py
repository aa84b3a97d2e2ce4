"""Rule 336's machinery, pure: fees, refunds, judging, ties by the earliest, succession.

A Nomic's rule 336 (seed 002) is quoted beside each check.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.games.contests.challenges import (
    close_period,
    due_challenges,
    judge,
    mark_incomplete,
    overdue_judgements,
    post_challenge,
    submit_answer,
)
from bot.games.contests.rules import JUDGING_TIME, POETRY, SIMILARITY, Contest
from bot.games.contests.serialize import state_from_json, state_to_json
from bot.games.contests.state import ContestsState, Status, new_state
from bot.games.contests.transfers import Transfer
from bot.games.errors import IllegalActionError, NotYetError

POSTED = datetime(2026, 1, 2, 9, tzinfo=UTC)
DEADLINE = POSTED + SIMILARITY.period


def fresh() -> ContestsState:
    return new_state({Contest.SIMILARITY: "Alice", Contest.POETRY: "Erin"})


def challenged() -> ContestsState:
    state, _challenge = post_challenge(
        fresh(), SIMILARITY, "Alice", "apple, fire engine, ladybird", POSTED
    )
    return state


def answered(*players: str) -> ContestsState:
    state = challenged()
    for hour, player in enumerate(players, start=1):
        state, _challenge, _fee = submit_answer(
            state, SIMILARITY, player, f"{player}'s answer", POSTED + timedelta(hours=hour)
        )
    return state


def closed(*players: str) -> tuple[ContestsState, tuple[Transfer, ...]]:
    return close_period(answered(*players), SIMILARITY, 1)


def test_only_the_contestmaster_posts_the_challenge() -> None:
    # 336: "The Contestmaster of the C/RG (Contestmaster) should post the/a Challenge".
    with pytest.raises(IllegalActionError, match="only the Similarity Officer"):
        post_challenge(fresh(), SIMILARITY, "Bob", "a, b, c", POSTED)


def test_the_similarity_challenge_lists_three_distinct_items() -> None:
    # 337: "The S.O. will publish a list containing at least three distinct items."
    with pytest.raises(IllegalActionError, match="2 distinct"):
        post_challenge(fresh(), SIMILARITY, "Alice", "apple, Apple and pear", POSTED)
    _state, challenge = post_challenge(fresh(), SIMILARITY, "Alice", "apple, pear and plum", POSTED)
    assert challenge.deadline == POSTED + timedelta(days=7)


def test_each_answer_pays_twice_the_entry_fee_to_the_contestmaster() -> None:
    # 336: "For each answer submitted, (entry fee)*2 points shall be transferred from
    # each submitting player to the Contestmaster."
    _state, _challenge, fee = submit_answer(challenged(), SIMILARITY, "Bob", "red", POSTED)
    assert (fee.payer, fee.payee, fee.amount, fee.entry_fee) == ("Bob", "Alice", 4, True)


def test_one_answer_each_in_the_period_and_not_the_contestmasters() -> None:
    # 336: "The other Players may ... submit"; "Each player may submit up to one
    # complete answer"; "within the period of duration after the challenge was posted".
    state = answered("Bob")
    with pytest.raises(IllegalActionError, match="answered challenge 1 already"):
        submit_answer(state, SIMILARITY, "Bob", "again", POSTED + timedelta(days=1))
    with pytest.raises(IllegalActionError, match="only the other players"):
        submit_answer(state, SIMILARITY, "Alice", "mine", POSTED + timedelta(days=1))
    with pytest.raises(IllegalActionError, match="no challenge open"):
        submit_answer(state, SIMILARITY, "Carol", "late", DEADLINE)


def test_fewer_than_two_answers_finish_with_no_winner_and_refunds() -> None:
    # 336: "If less than 2 answers are submitted, the game is considered finished with no
    # winner.  All points taken from players as entry fees for the game are returned ...
    # the Contestmaster does not change".
    state, transfers = closed("Bob")
    challenge = state.of(Contest.SIMILARITY).challenge(1)
    assert challenge.status is Status.FINISHED and challenge.outcome is not None
    assert challenge.outcome.winner is None
    assert [(t.payer, t.payee, t.amount) for t in transfers] == [("Alice", "Bob", 4)]
    assert state.of(Contest.SIMILARITY).contestmaster == "Alice"


def test_two_answers_go_to_judging() -> None:
    state, transfers = closed("Bob", "Carol")
    assert state.of(Contest.SIMILARITY).challenge(1).status is Status.JUDGING
    assert transfers == ()
    assert due_challenges(answered("Bob"), DEADLINE - timedelta(seconds=1)) == ()
    assert [c.number for c in due_challenges(answered("Bob"), DEADLINE)] == [1]


def test_the_earliest_of_those_judged_most_correct_wins_half_the_fees() -> None:
    # 336: "If more than one answer is judged (most) correct, the answer submitted
    # earliest will be selected the winner.  Half the total of the entry fees shall be
    # transferred to the winner of the challenge [[the Contestmaster keeps the other
    # half]].  If the C/RG is repetitive, the winner of the challenge shall be the
    # Contestmaster for the following challenge."
    state, _ = closed("Bob", "Carol", "Dave")
    state, transfers = judge(state, SIMILARITY, "Alice", ("Dave", "Carol"), DEADLINE)
    outcome = state.of(Contest.SIMILARITY).challenge(1).outcome
    assert outcome is not None and outcome.winner == "Carol"  # Carol answered before Dave
    assert [(t.payer, t.payee, t.amount) for t in transfers] == [("Alice", "Carol", 6)]
    assert state.of(Contest.SIMILARITY).contestmaster == "Carol"


def test_only_the_contestmaster_judges_after_the_period_an_answer_given() -> None:
    with pytest.raises(NotYetError, match="has not ended"):
        judge(answered("Bob", "Carol"), SIMILARITY, "Alice", ("Bob",), POSTED)
    state, _ = closed("Bob", "Carol")
    with pytest.raises(IllegalActionError, match="only the Similarity Officer"):
        judge(state, SIMILARITY, "Bob", ("Bob",), DEADLINE)
    with pytest.raises(IllegalActionError, match="Dave submitted no answer"):
        judge(state, SIMILARITY, "Alice", ("Dave",), DEADLINE)


def test_an_incomplete_answer_is_no_submission() -> None:
    # 336: "Partial or incomplete answers (as determined by the Contestmaster) are not
    # considered submissions": its fee is returned; one left is fewer than two.
    state, _ = closed("Bob", "Carol")
    state, transfers = mark_incomplete(state, SIMILARITY, "Alice", ("Bob",), DEADLINE)
    assert [(t.payer, t.payee, t.amount) for t in transfers] == [
        ("Alice", "Bob", 4),
        ("Alice", "Carol", 4),
    ]
    challenge = state.of(Contest.SIMILARITY).challenge(1)
    assert challenge.outcome is not None and challenge.outcome.winner is None


def test_a_judgement_overdue_by_two_days_is_reminded_once() -> None:
    # 336: "This judgement should be made in a reasonable amount of time [[like 2 days
    # at most]]".
    state, _ = closed("Bob", "Carol")
    assert (
        overdue_judgements(state, DEADLINE + JUDGING_TIME - timedelta(seconds=1), JUDGING_TIME)
        == ()
    )
    assert len(overdue_judgements(state, DEADLINE + JUDGING_TIME, JUDGING_TIME)) == 1


def test_the_poetry_contest_has_its_own_laureate() -> None:
    # 339: "When they feel like it, the Poet Laureate should post a Challenge".
    state, challenge = post_challenge(fresh(), POETRY, "Erin", "the sea", POSTED)
    assert challenge.contest is Contest.POETRY
    assert state.of(Contest.SIMILARITY).current is None


def test_the_state_survives_its_json() -> None:
    state, _ = closed("Bob", "Carol", "Dave")
    state, _ = judge(state, SIMILARITY, "Alice", ("Dave",), DEADLINE)
    assert state_from_json(state_to_json(state)) == state
