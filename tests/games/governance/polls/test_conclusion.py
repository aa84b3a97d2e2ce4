"""When a Poll Concludes and how it is decided: Durations, flags, the veto (rule 15)."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.games.errors import IllegalActionError
from bot.games.governance.polls import (
    CastVote,
    Duration,
    Flag,
    Indeterminate,
    NtimePeriod,
    NtimePoint,
    Outcome,
    Poll,
    RealTimePeriod,
    RealTimePoint,
    call_poll,
    cast_vote,
    conclude,
    concluded_at,
    conclusion_instant,
    deadline_of,
    is_open,
    outcome_is_settled,
    outcome_of,
    read_vote,
)

CALLED = datetime(2004, 3, 1, 12, 0, tzinfo=UTC)
FAR_FUTURE = datetime(2100, 1, 1, tzinfo=UTC)
WEEK = RealTimePeriod(timedelta(days=7))


def minute(number: int) -> datetime:
    return CALLED + timedelta(minutes=number)


def poll(
    voters: str,
    *flags: Flag,
    duration: Duration = WEEK,
    active: str | None = None,
) -> Poll:
    return call_poll(
        "Issue",
        voters.split(),
        duration,
        CALLED,
        flags=flags,
        active_players=None if active is None else active.split(),
    )


def votes(target: Poll, *ballots: str) -> Poll:
    """Cast "voter:word" ballots one minute apart, from minute 1."""
    for number, ballot in enumerate(ballots, start=1):
        voter, word = ballot.split(":")
        target = cast_vote(target, voter, read_vote(word), minute(number))
    return target


# --- Durations (rule 15 A) ---------------------------------------------------


def test_each_duration_kind_has_its_deadline() -> None:
    end = datetime(2004, 3, 5, tzinfo=UTC)
    assert deadline_of(NtimePoint("nweek 212, nday 6", end), CALLED) == end
    assert deadline_of(NtimePeriod("three ndays", end), CALLED) == end
    assert deadline_of(RealTimePoint(end), CALLED) == end
    assert deadline_of(RealTimePeriod(timedelta(hours=5)), CALLED) == CALLED + timedelta(hours=5)
    assert deadline_of(Indeterminate(), CALLED) is None


def test_an_absolute_point_already_passed_concludes_immediately() -> None:
    past = poll("ann bob", duration=NtimePoint("nweek 2, nday 1", CALLED - timedelta(days=3)))
    assert concluded_at(past, CALLED) == CALLED
    with pytest.raises(IllegalActionError):
        votes(past, "ann:yes")


def test_an_open_poll_has_not_concluded() -> None:
    week = poll("ann bob")
    assert concluded_at(week, CALLED + timedelta(days=7) - timedelta(seconds=1)) is None
    assert concluded_at(week, CALLED + timedelta(days=7)) == CALLED + timedelta(days=7)
    with pytest.raises(ValueError, match="has not Concluded"):
        conclude(week, CALLED)


def test_an_indeterminate_poll_without_flags_never_concludes() -> None:
    forever = votes(poll("ann bob", duration=Indeterminate()), "ann:yes", "bob:yes")
    assert conclusion_instant(forever) is None
    assert is_open(forever, FAR_FUTURE)


def test_negative_periods_are_refused() -> None:
    with pytest.raises(ValueError):
        RealTimePeriod(timedelta(seconds=-1))


# --- Passing and failing (rule 15) -------------------------------------------


@pytest.mark.parametrize(
    ("ballots", "outcome"),
    [
        (("ann:yes", "bob:no", "cat:yes"), Outcome.PASSED),
        (("ann:yes", "bob:no"), Outcome.FAILED),  # a tie is not "more Yes votes"
        (("ann:yes", "bob:abstain", "cat:abstain"), Outcome.PASSED),
        ((), Outcome.FAILED),
    ],
)
def test_passed_needs_more_yes_than_no(ballots: tuple[str, ...], outcome: Outcome) -> None:
    result = conclude(votes(poll("ann bob cat"), *ballots), FAR_FUTURE)
    assert result.outcome is outcome
    assert not result.vetoed


# --- Short-Circuited (rule 15 B) ----------------------------------------------


def test_short_circuited_concludes_when_every_eligible_voter_has_voted() -> None:
    circuit = votes(poll("ann bob cat", Flag.SHORT_CIRCUITED), "ann:yes", "bob:no")
    assert is_open(circuit, minute(3))
    done = cast_vote(circuit, "cat", read_vote("no"), minute(3))
    assert conclusion_instant(done) == minute(3)
    with pytest.raises(IllegalActionError):
        cast_vote(done, "ann", read_vote("yes"), minute(3))  # the same instant is too late


def test_short_circuited_with_no_eligible_voters_concludes_at_once() -> None:
    assert concluded_at(poll("", Flag.SHORT_CIRCUITED), CALLED) == CALLED


def test_the_deadline_still_concludes_a_short_circuited_poll() -> None:
    circuit = votes(poll("ann bob cat", Flag.SHORT_CIRCUITED), "ann:yes")
    assert conclusion_instant(circuit) == CALLED + timedelta(days=7)


def test_an_indeterminate_short_circuited_poll_concludes_on_the_last_vote() -> None:
    circuit = poll("ann bob", Flag.SHORT_CIRCUITED, duration=Indeterminate())
    assert conclusion_instant(votes(circuit, "ann:no", "bob:yes")) == minute(2)


# --- Very Badly Wired (rule 15 B) ---------------------------------------------


@pytest.mark.parametrize(
    ("voters", "ballots", "concluded_on"),
    [
        ("ann bob cat", ("ann:yes", "bob:yes"), 2),  # 2 Yes beat the 1 left
        ("ann bob cat", ("ann:no", "bob:no"), 2),  # 2 No: at best a 1-2 loss
        ("ann bob cat", ("ann:yes", "bob:no"), None),  # cat decides
        ("ann bob cat", ("ann:abstain", "bob:abstain"), None),  # cat's Yes passes it
        ("ann bob cat dan", ("ann:yes", "bob:no", "cat:no"), 3),  # at best a 2-2 tie: Fails
        ("ann bob cat dan", ("ann:yes", "bob:yes", "cat:no"), None),  # dan can tie it
        ("ann bob cat dan e f", ("ann:yes", "bob:yes", "cat:yes", "dan:yes"), 4),
        ("ann bob cat dan e f", ("ann:yes", "bob:yes", "cat:yes"), None),
    ],
)
def test_very_badly_wired_concludes_once_the_rest_cannot_change_it(
    voters: str, ballots: tuple[str, ...], concluded_on: int | None
) -> None:
    wired = votes(poll(voters, Flag.VERY_BADLY_WIRED), *ballots)
    expected = None if concluded_on is None else minute(concluded_on)
    assert concluded_at(wired, minute(len(ballots))) == expected


def test_very_badly_wired_with_no_eligible_voters_concludes_at_once() -> None:
    assert conclusion_instant(poll("", Flag.VERY_BADLY_WIRED)) == CALLED


def test_very_badly_wired_rejects_a_vote_after_it_concluded() -> None:
    wired = votes(poll("ann bob cat", Flag.VERY_BADLY_WIRED), "ann:yes", "bob:yes")
    with pytest.raises(IllegalActionError):
        cast_vote(wired, "cat", read_vote("no"), minute(3))
    assert conclude(wired, minute(3)).outcome is Outcome.PASSED


# --- Democratic: the legislative veto (rule 15 B) -----------------------------


def test_half_of_the_active_players_against_vetoes_a_majority() -> None:
    not_vetoed = votes(
        poll("ann bob cat dan eve", Flag.DEMOCRATIC, active="ann bob cat dan"),
        "ann:yes",
        "bob:yes",
        "cat:yes",
        "dan:no",
        "eve:no",
    )
    # 3 Yes beat 2 No, but only dan is an active player against: 1 of 4.
    assert conclude(not_vetoed, FAR_FUTURE).outcome is Outcome.PASSED
    vetoing = votes(
        poll("ann bob cat dan eve", Flag.DEMOCRATIC, active="ann bob cat dan"),
        "ann:yes",
        "bob:yes",
        "eve:yes",
        "cat:no",
        "dan:no",
    )
    result = conclude(vetoing, FAR_FUTURE)  # 2 of 4 active players against: "at least half"
    assert (result.tally.yes, result.tally.no, result.vetoed) == (3, 2, True)
    assert result.outcome is Outcome.FAILED


def test_less_than_half_against_is_no_veto() -> None:
    democratic = poll("a b c d e", Flag.DEMOCRATIC, active="a b c d e")
    five = votes(democratic, "a:yes", "b:yes", "c:yes", "d:no", "e:no")
    assert conclude(five, FAR_FUTURE).outcome is Outcome.PASSED  # 2 of 5 is less than half


def test_a_veto_settles_a_very_badly_wired_poll() -> None:
    wired = votes(
        poll("ann bob cat dan", Flag.DEMOCRATIC, Flag.VERY_BADLY_WIRED, active="ann bob cat dan"),
        "ann:no",
        "bob:no",
    )
    assert concluded_at(wired, minute(2)) == minute(2)
    assert conclude(wired, minute(2)).vetoed


def test_outcome_is_settled_counts_remaining_active_voters_for_the_veto() -> None:
    # Yes 2 - No 0 with two left: their two No votes would tie it and veto it.
    democratic = poll("a b c d", Flag.DEMOCRATIC, active="a b c d")
    assert not outcome_is_settled(democratic, votes(democratic, "a:yes", "b:yes").votes)


# --- VBW's extremes agree with brute force ------------------------------------

CHOICES = ("yes", "no", "abstain")


def every_completion(target: Poll, remaining: list[str]) -> set[Outcome]:
    """The outcomes of every way the remaining voters could vote (or not vote)."""
    outcomes: set[Outcome] = set()
    for words in itertools.product((*CHOICES, None), repeat=len(remaining)):
        extra = [
            CastVote(voter, read_vote(word), FAR_FUTURE)
            for voter, word in zip(remaining, words, strict=True)
            if word is not None
        ]
        outcomes.add(outcome_of(target, (*target.votes, *extra)))
    return outcomes


@given(
    st.lists(st.sampled_from(CHOICES), max_size=5),
    st.integers(min_value=0, max_value=4),
    st.sets(st.sampled_from("abcdefghi")),
    st.booleans(),
)
def test_settled_is_exactly_when_no_completion_changes_the_outcome(
    cast: list[str], left: int, active: set[str], democratic: bool
) -> None:
    voters = [f"v{number}" for number in range(len(cast) + left)]
    flags = (Flag.DEMOCRATIC,) if democratic else ()
    electorate = " ".join(sorted(active | set(voters[::2]))) if democratic else None
    target = votes(
        poll(" ".join(voters), *flags, active=electorate),
        *(f"{voter}:{word}" for voter, word in zip(voters, cast, strict=False)),
    )
    brute_force = len(every_completion(target, voters[len(cast) :])) == 1
    assert outcome_is_settled(target, target.votes) == brute_force
