"""The long-history benchmark's generator (bench/history_plan.py): the plan obeys the rules.

``bench/history.py`` checks the referee's rulings against this plan, so a
plan that broke a rule would blame the referee for the generator's slip.
These are the invariants the plan's expectations rest on, on the first
nweek of a seeded game (about a second to plan).
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
POSTS = 900


@pytest.fixture(scope="module")
def planner():  # type: ignore[no-untyped-def]
    sys.path.insert(0, str(BENCH))
    try:
        import history_plan

        yield history_plan.plan_history(POSTS, seed=4)
    finally:
        sys.path.remove(str(BENCH))


def applied(post, action: str) -> int:  # type: ignore[no-untyped-def]
    return sum(e.action == action and e.outcome == "applied" for e in post.expected)


def test_posts_come_in_time_order_with_distinct_message_ids(planner) -> None:  # type: ignore[no-untyped-def]
    posts = planner.posts
    assert len(posts) == POSTS
    assert all(earlier.at < later.at for earlier, later in zip(posts, posts[1:], strict=False))
    assert len({post.message_id for post in posts}) == POSTS


def test_the_same_seed_plans_the_same_game(planner) -> None:  # type: ignore[no-untyped-def]
    import history_plan

    sys.path.insert(0, str(BENCH))
    try:
        first, second = (history_plan.plan_history(200, seed=4) for _ in range(2))
    finally:
        sys.path.remove(str(BENCH))
    assert [(p.message_id, p.at, p.expected) for p in first.posts] == [
        (p.message_id, p.at, p.expected) for p in second.posts
    ]


def test_proposals_get_consecutive_serial_numbers_within_bandwidth(planner) -> None:  # type: ignore[no-untyped-def]
    # Rule 5: serial numbers from 100; rules 19 and 212: 2BW a proposal, 10BW an nweek
    # (4BW in the nweek a player enters), so at most five proposals each in nweek 1.
    submissions = [post for post in planner.posts if applied(post, "proposals.submit")]
    assert submissions
    assert sorted(planner.proposals) == list(range(100, 100 + len(submissions)))
    import history_plan

    per_author = Counter((post.author.name, history_plan.nweek_of(post.at)) for post in submissions)
    assert max(per_author.values()) <= 5
    refused = [
        post
        for post in planner.posts
        if any(e.action == "proposals.submit" and e.outcome == "rejected" for e in post.expected)
    ]
    # A refusal for want of Bandwidth comes after at least two accepted submissions.
    assert all(
        per_author[post.author.name, history_plan.nweek_of(post.at)] >= 2 for post in refused
    )


def test_ballot_votes_fall_in_the_voting_period(planner) -> None:  # type: ignore[no-untyped-def]
    import history_plan

    votes = [post for post in planner.posts if applied(post, "polls.vote")]
    assert votes
    # Rule 23: the Ballot is called at the start of the third Checking Period (nday 8).
    assert all((post.at - history_plan.EPOCH).days >= 7 for post in votes)


def test_cfi_votes_respect_the_deadline_and_the_plaintiff(planner) -> None:  # type: ignore[no-untyped-def]
    assert planner.cfis
    for cfi in planner.cfis.values():
        assert cfi.plaintiff not in cfi.eligible  # rule 125
        assert cfi.voters <= cfi.eligible
        assert 2 * len(cfi.voters) <= len(cfi.eligible)  # never Short-Circuited
        assert cfi.deadline.hour == 0 and cfi.deadline > cfi.created
