"""Concealable polls: private votes are published when the poll Concludes, never before (15 B)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from bot.games.governance.polls import (
    Flag,
    Poll,
    RealTimePoint,
    Tally,
    call_poll,
    cast_vote,
    conclude,
    conclusion_instant,
    public_view,
    read_vote,
)

CALLED = datetime(2004, 3, 1, 12, 0, tzinfo=UTC)
DEADLINE = CALLED + timedelta(hours=10)
VOTERS = ("ann", "bob", "cat", "dan")


def concealable(*flags: Flag) -> Poll:
    return call_poll(
        "Proposal 2041", VOTERS, RealTimePoint(DEADLINE), CALLED, flags=(Flag.CONCEALABLE, *flags)
    )


def vote(target: Poll, voter: str, word: str, minute: int, private: bool) -> Poll:
    at = CALLED + timedelta(minutes=minute)
    return cast_vote(target, voter, read_vote(word), at, private=private)


def test_a_private_vote_is_withheld_until_conclusion() -> None:
    poll = vote(vote(concealable(), "ann", "yes", 1, True), "bob", "no", 2, False)
    view = public_view(poll, DEADLINE - timedelta(seconds=1))
    assert [cast.voter for cast in view.votes] == ["bob"]
    assert (view.concluded, view.tally, view.withheld, view.private_votes) == (
        False,
        Tally(no=1),
        1,
        (),
    )


def test_a_public_vote_superseded_by_a_private_one_is_not_shown() -> None:
    poll = vote(vote(concealable(), "ann", "yes", 1, False), "ann", "no", 2, True)
    view = public_view(poll, CALLED + timedelta(minutes=3))
    assert (view.votes, view.tally, view.withheld) == ((), Tally(), 1)
    # Before the private vote arrived, the public one was ann's vote.
    earlier = public_view(poll, CALLED + timedelta(minutes=1))
    assert (earlier.tally, earlier.withheld) == (Tally(yes=1), 0)


def test_a_private_vote_superseded_by_a_public_one_is_still_withheld() -> None:
    poll = vote(vote(concealable(), "ann", "yes", 1, True), "ann", "no", 2, False)
    view = public_view(poll, CALLED + timedelta(minutes=3))
    assert (view.tally, view.withheld, view.private_votes) == (Tally(no=1), 0, ())


def test_at_conclusion_every_private_vote_is_published() -> None:
    poll = vote(concealable(), "ann", "yes", 1, True)
    poll = vote(poll, "ann", "no", 2, True)
    poll = vote(poll, "bob", "yes", 3, False)
    view = public_view(poll, DEADLINE)
    assert view.concluded and view.withheld == 0
    assert view.tally == Tally(yes=1, no=1)
    assert [cast.vote.text for cast in view.private_votes] == ["yes", "no"]
    result = conclude(poll, DEADLINE)
    assert result.private_votes == view.private_votes
    assert [cast.voter for cast in result.votes] == ["ann", "bob"]


def test_a_short_circuited_concealable_poll_publishes_on_the_last_vote() -> None:
    poll = concealable(Flag.SHORT_CIRCUITED)
    for minute, voter in enumerate(VOTERS, start=1):
        poll = vote(poll, voter, "yes", minute, True)
    assert public_view(poll, CALLED + timedelta(minutes=3)).withheld == 3
    assert public_view(poll, CALLED + timedelta(minutes=4)).tally == Tally(yes=4)


BALLOTS = st.lists(
    st.tuples(
        st.sampled_from(VOTERS),
        st.sampled_from(["yes", "no", "abstain", "maybe"]),
        st.booleans(),
        st.integers(min_value=0, max_value=90),
    ),
    max_size=12,
)
FLAG_SETS = st.sets(st.sampled_from([Flag.SHORT_CIRCUITED, Flag.VERY_BADLY_WIRED]))


def cast_while_open(poll: Poll, ballots: list[tuple[str, str, bool, int]]) -> Poll:
    minute = 0
    for voter, word, private, gap in ballots:
        minute += gap
        instant = conclusion_instant(poll)
        if instant is not None and CALLED + timedelta(minutes=minute) >= instant:
            break
        poll = vote(poll, voter, word, minute, private)
    return poll


@given(BALLOTS, FLAG_SETS, st.integers(min_value=0, max_value=700))
def test_no_private_vote_is_ever_public_before_conclusion(
    ballots: list[tuple[str, str, bool, int]], flags: set[Flag], minute: int
) -> None:
    poll = cast_while_open(concealable(*flags), ballots)
    now = CALLED + timedelta(minutes=minute)
    view = public_view(poll, now)
    latest = {cast.voter: cast for cast in poll.votes if cast.cast_at <= now}
    assert view.tally.voters + view.withheld == len(latest)
    if view.concluded:
        assert view.private_votes == tuple(cast for cast in poll.votes if cast.private)
    else:
        hidden = {voter for voter, cast in latest.items() if cast.private}
        assert not any(cast.private or cast.voter in hidden for cast in view.votes)
        assert (view.private_votes, view.withheld) == ((), len(hidden))
