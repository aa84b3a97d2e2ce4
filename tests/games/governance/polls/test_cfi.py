"""Calls For Inquiry: the poll, the ruling by rule 125's sums, rewards, the Resolution."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from bot.games.errors import IllegalActionError
from bot.games.governance.polls import (
    CFI_OPTIONS,
    Cfi,
    Flag,
    Reward,
    Ruling,
    Tally,
    cfi_deadline,
    cfi_eligible_voters,
    concluded_at,
    rule_on_cfi,
    ruling_for,
    submit_cfi,
    submit_defendant_argument,
    vote_on_cfi,
)

CREATED = datetime(2004, 3, 1, 15, 30, tzinfo=UTC)
DEADLINE = datetime(2004, 3, 5, 0, 0, tzinfo=UTC)
PLAYERS = ("ann", "bob", "cat", "dan", "eve", "fay", "gus")
SECOND = timedelta(seconds=1)
EASTERN = timezone(timedelta(hours=-5))


def cfi(defendant: str | None = "bob") -> Cfi:
    return submit_cfi(
        "Is the Clock On?",
        plaintiff="ann",
        argument="Rule 3 says so.",
        resolution=("Turn the Clock On.", "Give ann 1 tildex."),
        created_at=CREATED,
        players_off_leave=PLAYERS,
        defendant=defendant,
    )


def voted(case: Cfi, *ballots: str) -> Cfi:
    """Cast "voter:word" ballots one minute apart."""
    for minute, ballot in enumerate(ballots, start=1):
        voter, word = ballot.split(":")
        case = vote_on_cfi(case, voter, word, CREATED + timedelta(minutes=minute))
    return case


@pytest.mark.parametrize(
    ("created", "deadline"),
    [
        (CREATED, DEADLINE),
        (datetime(2004, 3, 1, 0, 0, tzinfo=UTC), DEADLINE),  # that midnight is not "after"
        (datetime(2004, 3, 1, 23, 59, 59, tzinfo=UTC), DEADLINE),
        (datetime(2004, 3, 2, 0, 0, 1, tzinfo=UTC), DEADLINE + timedelta(days=1)),
        # 23:30 at UTC-5 is 04:30 UTC the next day: midnights are counted in UTC.
        (datetime(2004, 3, 1, 23, 30, tzinfo=EASTERN), DEADLINE + timedelta(days=1)),
    ],
)
def test_the_deadline_is_the_fourth_midnight_utc_after_creation(
    created: datetime, deadline: datetime
) -> None:
    assert cfi_deadline(created) == deadline


def test_the_poll_is_short_circuited_strict_and_offers_refused() -> None:
    poll = cfi().poll
    assert poll.flags == {Flag.SHORT_CIRCUITED, Flag.STRICT}
    assert poll.options == CFI_OPTIONS
    assert poll.eligible_voters == {"cat", "dan", "eve", "fay", "gus"}


def test_eligible_voters_exclude_the_plaintiff_and_defendant_and_players_on_leave() -> None:
    assert cfi_eligible_voters(["ann", "cat", "dan"], "ann", None) == {"cat", "dan"}
    assert cfi_eligible_voters(["ann", "cat", "dan"], "ann", "dan") == {"cat"}


@pytest.mark.parametrize("voter", ["ann", "bob"], ids=["plaintiff", "defendant"])
def test_the_parties_cannot_vote(voter: str) -> None:
    with pytest.raises(IllegalActionError):
        voted(cfi(), f"{voter}:yes")


# Rule 125: In Favor if Yes > No + Refused; Against if No > Yes + Refused;
# "Otherwise" Refused -- so every tie, and no votes at all, is Refused.
SUMS = [
    (Tally(yes=3, no=1, refused=1), Ruling.IN_FAVOR),
    (Tally(yes=1), Ruling.IN_FAVOR),
    (Tally(yes=1, abstain=4), Ruling.IN_FAVOR),  # Abstain is in neither sum
    (Tally(yes=2, no=1, refused=1), Ruling.REFUSED),  # Yes ties No + Refused
    (Tally(no=3, yes=1, refused=1), Ruling.AGAINST),
    (Tally(no=2, yes=1, refused=1), Ruling.REFUSED),  # No ties Yes + Refused
    (Tally(yes=2, no=2), Ruling.REFUSED),
    (Tally(refused=1), Ruling.REFUSED),
    (Tally(abstain=5), Ruling.REFUSED),
    (Tally(), Ruling.REFUSED),
]


@pytest.mark.parametrize(("tally", "ruling"), SUMS)
def test_the_ruling_follows_the_rules_sums(tally: Tally, ruling: Ruling) -> None:
    assert ruling_for(tally) is ruling


def test_a_cfi_ruled_in_favor_reports_its_resolution() -> None:
    case = voted(cfi(), "cat:true", "dan:Yes", "eve:FALSE", "fay:sure", "gus:refused")
    ruling = rule_on_cfi(case, CREATED + timedelta(minutes=5))
    assert (ruling.ruling, ruling.tally) == (Ruling.IN_FAVOR, Tally(yes=3, no=1, refused=1))
    assert ruling.changes_to_implement == ("Turn the Clock On.", "Give ann 1 tildex.")
    assert ruling.concluded_at == CREATED + timedelta(minutes=5)  # Short-Circuited


def test_a_tie_is_refused_and_implements_nothing() -> None:
    case = voted(cfi(), "cat:yes", "dan:yes", "eve:no", "fay:refused")
    ruling = rule_on_cfi(case, DEADLINE)
    assert ruling.ruling is Ruling.REFUSED
    assert ruling.changes_to_implement == ()
    assert ruling.concluded_at == DEADLINE


def test_against_implements_nothing() -> None:
    ruling = rule_on_cfi(voted(cfi(), "cat:no", "dan:nay", "eve:yes"), DEADLINE)
    assert (ruling.ruling, ruling.changes_to_implement) == (Ruling.AGAINST, ())


def test_every_non_abstaining_voter_is_rewarded_whatever_the_ruling() -> None:
    case = voted(cfi(), "cat:no", "dan:abstain", "eve:refused", "fay:what?", "gus:false")
    ruling = rule_on_cfi(case, DEADLINE)
    assert ruling.ruling is Ruling.AGAINST
    assert ruling.rewards == (Reward("cat"), Reward("eve"), Reward("gus"))
    assert (Reward("cat").tildex, Reward("cat").temporary_wisdom) == (5, 1)


def test_a_second_vote_is_rejected_because_the_poll_is_strict() -> None:
    with pytest.raises(IllegalActionError) as raised:
        voted(cfi(), "cat:yes", "cat:no")
    assert raised.value.rule == "15 B"


def test_votes_one_second_before_and_after_the_deadline() -> None:
    on_time = vote_on_cfi(cfi(), "cat", "yes", DEADLINE - SECOND)
    assert rule_on_cfi(on_time, DEADLINE).ruling is Ruling.IN_FAVOR
    with pytest.raises(IllegalActionError):
        vote_on_cfi(cfi(), "cat", "yes", DEADLINE + SECOND)


def test_no_ruling_while_the_poll_is_open() -> None:
    with pytest.raises(ValueError, match="still open"):
        rule_on_cfi(voted(cfi(), "cat:yes"), DEADLINE - SECOND)
    assert concluded_at(cfi().poll, DEADLINE - SECOND) is None


def test_the_defendant_may_argue_until_the_poll_closes() -> None:
    argued = submit_defendant_argument(cfi(), "bob", "The Clock is Off.", DEADLINE - SECOND)
    assert argued.defendant_argument == "The Clock is Off."
    with pytest.raises(IllegalActionError, match="has closed"):
        submit_defendant_argument(cfi(), "bob", "Too late.", DEADLINE)


@pytest.mark.parametrize(("defendant", "author"), [("bob", "cat"), (None, "bob")])
def test_only_the_defendant_may_argue(defendant: str | None, author: str) -> None:
    with pytest.raises(IllegalActionError) as raised:
        submit_defendant_argument(cfi(defendant), author, "Me too.", CREATED)
    assert raised.value.rule == "125"
