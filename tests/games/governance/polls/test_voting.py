"""Casting votes on a Poll: eligibility, last vote counts, Strict, the deadline (rule 15)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.games.errors import IllegalActionError
from bot.games.governance.polls import (
    CFI_OPTIONS,
    Choice,
    Flag,
    Outcome,
    Poll,
    RealTimePoint,
    Tally,
    call_poll,
    cast_vote,
    conclude,
    current_votes,
    read_vote,
    tally_votes,
)

CALLED = datetime(2004, 3, 1, 12, 0, tzinfo=UTC)
DEADLINE = datetime(2004, 3, 4, 0, 0, tzinfo=UTC)
SECOND = timedelta(seconds=1)


def poll(*flags: Flag, voters: str = "ann bob cat") -> Poll:
    return call_poll("Proposal 2041", voters.split(), RealTimePoint(DEADLINE), CALLED, flags=flags)


def vote(target: Poll, voter: str, text: str, minutes: int, *, private: bool = False) -> Poll:
    at = CALLED + timedelta(minutes=minutes)
    return cast_vote(target, voter, read_vote(text, target.options), at, private=private)


def test_the_last_vote_counts() -> None:
    changed = vote(vote(vote(poll(), "ann", "yes", 1), "bob", "no", 2), "ann", "nay", 3)
    assert [(cast.voter, cast.vote.choice) for cast in current_votes(changed.votes)] == [
        ("bob", Choice.NO),
        ("ann", Choice.NO),
    ]
    assert tally_votes(changed.votes) == Tally(no=2)
    assert len(changed.votes) == 3  # every vote is kept for the record


def test_a_changed_vote_decides_the_outcome() -> None:
    flipped = vote(vote(vote(poll(), "ann", "no", 1), "bob", "yes", 2), "ann", "sure", 3)
    assert conclude(flipped, DEADLINE).outcome is Outcome.PASSED


def test_only_eligible_voters_may_vote() -> None:
    with pytest.raises(IllegalActionError) as raised:
        vote(poll(), "dan", "yes", 1)
    assert raised.value.rule == "15"
    assert "you are not an Eligible Voter" in raised.value.message


def test_strict_keeps_the_first_vote_and_rejects_a_second() -> None:
    # Rule 15 B Strict: "each Voter gets exactly one Vote"; rule 33 lets the
    # later section B override the body's "the last one submitted".
    strict = vote(poll(Flag.STRICT), "ann", "yes", 1)
    with pytest.raises(IllegalActionError) as raised:
        vote(strict, "ann", "no", 2)
    assert raised.value.rule == "15 B"
    assert tally_votes(strict.votes) == Tally(yes=1)


def test_strict_still_lets_other_voters_vote() -> None:
    strict = vote(vote(poll(Flag.STRICT), "ann", "yes", 1), "bob", "no", 2)
    assert tally_votes(strict.votes) == Tally(yes=1, no=1)


def test_an_unclear_first_vote_on_a_strict_poll_is_the_voters_one_vote() -> None:
    strict = vote(poll(Flag.STRICT), "ann", "hmm", 1)
    with pytest.raises(IllegalActionError):
        vote(strict, "ann", "yes", 2)
    assert tally_votes(strict.votes) == Tally(abstain=1)


def test_a_vote_one_second_before_the_deadline_counts() -> None:
    late = cast_vote(poll(), "ann", read_vote("yes"), DEADLINE - SECOND)
    assert conclude(late, DEADLINE).tally == Tally(yes=1)


@pytest.mark.parametrize("at", [DEADLINE, DEADLINE + SECOND], ids=["at", "one second after"])
def test_a_vote_at_or_after_the_deadline_is_too_late(at: datetime) -> None:
    with pytest.raises(IllegalActionError) as raised:
        cast_vote(poll(), "ann", read_vote("yes"), at)
    assert raised.value.rule == "15 A"
    assert "Concluded at 2004-03-04T00:00:00+00:00" in raised.value.message


def test_a_private_vote_needs_a_concealable_poll() -> None:
    with pytest.raises(IllegalActionError) as raised:
        vote(poll(), "ann", "yes", 1, private=True)
    assert "not Concealable" in raised.value.message


def test_votes_out_of_order_are_a_defect() -> None:
    later = vote(poll(), "ann", "yes", 10)
    with pytest.raises(ValueError, match="earlier than the last vote"):
        vote(later, "bob", "yes", 5)


def test_a_vote_before_the_poll_is_called_is_a_defect() -> None:
    with pytest.raises(ValueError, match="before the poll was called"):
        cast_vote(poll(), "ann", read_vote("yes"), CALLED - SECOND)


def test_a_choice_the_poll_does_not_offer_is_a_defect() -> None:
    with pytest.raises(ValueError, match="Refused is not offered"):
        cast_vote(poll(), "ann", read_vote("refused", CFI_OPTIONS), CALLED)


def test_naive_instants_are_refused() -> None:
    with pytest.raises(TypeError):
        cast_vote(poll(), "ann", read_vote("yes"), datetime(2004, 3, 2))


def test_a_democratic_poll_needs_its_active_players() -> None:
    with pytest.raises(ValueError, match="Democratic"):
        poll(Flag.DEMOCRATIC)
