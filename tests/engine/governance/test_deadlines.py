"""The Ballot's deadline in ntime (rules 3, 15 A, 23): to the second, across ends and stops."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any


def ballot_with_one_proposal(game: Any) -> None:
    game.advance(game.at(1, 0))
    game.post("Alice", "I submit a proposal: __Cake__ {{ Cake for all. }}", game.at(1, 1))
    game.advance(game.at(1, 7))


def test_a_vote_one_second_before_the_end_counts_and_one_at_or_after_it_does_not(
    new_game: Any,
) -> None:
    game = new_game()
    ballot_with_one_proposal(game)
    game.post("Bob", "I vote FOR 100", game.at(2, 0, -1))
    game.post("Carol", "I vote FOR 100", game.at(2, 0))
    game.post("Alice", "I vote FOR 100", game.at(2, 0, 1))
    rulings = game.rulings()[1:]
    assert [r[1] for r in rulings] == ["applied", "rejected", "rejected"]
    assert "ended when the Ballot of nweek 2 closed" in rulings[1][2]
    body = game.sent_of("ballot-results")[0].body
    assert "Bob: Yes" in body and "Carol" not in body


def test_a_deadline_across_a_month_and_a_year_end(new_game: Any) -> None:
    game = new_game(epoch=datetime(2026, 12, 12, tzinfo=UTC))
    ballot_with_one_proposal(game)  # the Voting Period runs 29 December to 1 January
    assert game.at(2, 0) == datetime(2027, 1, 1, tzinfo=UTC)
    game.post("Bob", "I vote AGAINST 100", datetime(2026, 12, 31, 23, 59, 59, tzinfo=UTC))
    game.post("Carol", "I vote FOR 100", datetime(2027, 1, 1, tzinfo=UTC))
    assert [r[1] for r in game.rulings()[1:]] == ["applied", "rejected"]
    (results,) = game.sent_of("ballot-results")
    assert results.date == "Fri, 01 Jan 2027 00:00:00 +0000"
    assert "FAILED" in results.body and "Bob: No" in results.body


def test_a_clock_off_period_moves_the_deadline(new_game: Any) -> None:
    game = new_game(switches=("2026-01-19T12:00:00+00:00 off", "2026-01-23T00:00:00+00:00 on"))
    ballot_with_one_proposal(game)
    # The Clock stood still four days: nday 9 begins 24 January, nweek 3 on 25 January.
    end = datetime(2026, 1, 25, tzinfo=UTC)
    game.advance(datetime(2026, 1, 21, 12, tzinfo=UTC))
    assert game.sent_of("ballot-results") == []
    game.post("Bob", "I vote FOR 100", datetime(2026, 1, 24, 23, 59, 59, tzinfo=UTC))
    game.advance(datetime(2026, 1, 24, 23, 59, 59, tzinfo=UTC))
    assert game.sent_of("ballot-results") == []
    game.advance(end)
    (results,) = game.sent_of("ballot-results")
    assert results.date == "Sun, 25 Jan 2026 00:00:00 +0000"
    assert "PASSED" in results.body and "Bob: Yes" in results.body


def test_a_vote_posted_while_the_clock_is_off_counts_when_it_is_turned_on(
    new_game: Any,
) -> None:
    game = new_game(switches=("2026-01-19T12:00:00+00:00 off", "2026-01-23T00:00:00+00:00 on"))
    ballot_with_one_proposal(game)
    game.post("Carol", "I vote FOR 100", datetime(2026, 1, 21, tzinfo=UTC))
    game.advance(datetime(2026, 1, 25, tzinfo=UTC))
    assert [r[1] for r in game.rulings()[1:]] == ["applied"]
    assert "Carol: Yes" in game.sent_of("ballot-results")[0].body
