"""Instant Runoff Voting (rule 1823 C.3, seed 004): simultaneous elimination of
the tied fewest, and the Moderator's pick when every remaining choice ties."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.games.dice import DrawSource
from bot.games.errors import IllegalActionError
from bot.games.governance.elections import (
    ModeratorDefault,
    RankedVote,
    SelectedBy,
    moderator_picks,
    settle_by_default,
    tally_irv,
)

Ranked = Callable[[str], list[RankedVote]]
FOUR = ("alice", "bob", "carol", "dave")
THREE = ("alice", "bob", "carol")
CYCLE = """
    1: alice > bob > carol
    1: bob > carol > alice
    1: carol > alice > bob
"""


def test_choices_tied_for_fewest_are_eliminated_simultaneously(ranked: Ranked) -> None:
    votes = ranked(
        """
        4: alice > carol > bob > dave
        3: bob > alice > carol > dave
        1: carol > bob > alice > dave
        1: dave > bob > alice > carol
        """
    )
    result = tally_irv(votes, FOUR)
    # Round 1: carol and dave tie for fewest (1 each); removing both leaves
    # alice and bob, so both go at once and their votes pass to bob (5 to 4).
    assert [count.describe() for count in result.rounds] == [
        "round 1: alice 4, bob 3, carol 1, dave 1; eliminated carol, dave (simultaneously) "
        "with fewest, 1",
        "round 2: alice 4, bob 5; eliminated alice with fewest, 4",
    ]
    assert result.selection.selected == "bob"
    assert result.selection.selected_by is SelectedBy.SOLE_LEADER


def test_simultaneous_elimination_differs_from_one_at_a_time(ranked: Ranked) -> None:
    votes = ranked(
        """
        1: bob > alice > dave > carol
        1: alice > carol > bob > dave
        1: dave > bob > carol > alice
        1: dave > carol > alice > bob
        1: dave > bob > alice > carol
        1: bob > alice > carol > dave
        1: carol > alice > bob > dave
        """
    )
    result = tally_irv(votes, FOUR)
    # Round 1: dave 3, bob 2, alice 1, carol 1.  Rule 1823 C.3 removes alice
    # and carol together; both their votes pass to bob, who beats dave 4-3.
    # One at a time the winner would hang on the order: alice alone first
    # leaves bob 2, carol 2, dave 3, and bob alone next hands dave the win
    # 4-3; carol alone first leaves alice 2, bob 2, dave 3, and bob next
    # hands alice the win 4-3.
    assert result.rounds[0].eliminated == ("alice", "carol")
    assert result.rounds[1].counts == (("bob", 4), ("dave", 3))
    assert result.selection.selected == "bob"


def test_a_choice_ranked_highest_on_no_vote_goes_first(ranked: Ranked) -> None:
    votes = ranked(
        """
        2: alice > bob > carol > dave
        1: bob > alice > carol > dave
        """
    )
    result = tally_irv(votes, FOUR)
    assert result.rounds[0].counts == (("alice", 2), ("bob", 1), ("carol", 0), ("dave", 0))
    assert result.rounds[0].eliminated == ("carol", "dave")
    assert result.selection.selected == "alice"


def test_a_majority_does_not_stop_the_count_early(ranked: Ranked) -> None:
    votes = ranked(
        """
        4: alice > bob > carol
        2: bob > carol > alice
        1: carol > bob > alice
        """
    )
    result = tally_irv(votes, THREE)
    # alice has 4 of 7 from the start, yet C.3 eliminates until one choice is left.
    assert len(result.rounds) == 2
    assert result.selection.selected == "alice"


def test_when_every_remaining_choice_ties_the_moderator_selects(ranked: Ranked) -> None:
    result = tally_irv(ranked(CYCLE), THREE)
    assert result.rounds[0].eliminated == ()
    assert result.selection.needs_moderator
    assert result.selection.winner_set == THREE
    assert result.selection.selected is None
    assert result.explain()[-2:] == (
        "round 1: alice 1, bob 1, carol 1; all tied, so none can be eliminated",
        "rule 1823 C.3: tied between alice, bob, carol; the Moderator picks one of them",
    )
    picked = moderator_picks(result, "bob")
    assert picked.selection.selected == "bob"
    assert picked.selection.selected_by is SelectedBy.MODERATOR
    assert picked.rounds == result.rounds


def test_the_moderator_must_pick_a_tied_choice(ranked: Ranked) -> None:
    votes = ranked(
        """
        2: alice > bob > carol
        2: bob > alice > carol
        1: carol > alice > bob
        """
    )
    result = tally_irv(votes, THREE)
    # carol goes first; her vote passes to alice, who then leads 3 to 2.
    assert result.selection.selected == "alice"
    with pytest.raises(IllegalActionError, match="already decided") as caught:
        moderator_picks(result, "bob")
    assert caught.value.rule == "1823 C.3"
    pending = tally_irv(ranked(CYCLE), THREE)
    with pytest.raises(IllegalActionError, match="one of the tied choices"):
        moderator_picks(pending, "dave")


def test_the_configured_default_draws_for_the_moderator_and_records_it(ranked: Ranked) -> None:
    pending = tally_irv(ranked(CYCLE), THREE)
    source = DrawSource(bytes(range(32)), "election ministry of arcana")
    assert settle_by_default(pending, ModeratorDefault.ASK_MODERATOR, source) == pending
    settled = settle_by_default(pending, ModeratorDefault.RECORDED_DRAW, source)
    (draw,) = source.draws
    assert draw.options == THREE
    assert settled.selection.selected == THREE[draw.result[0]]
    assert settled.selection.selected_by is SelectedBy.DEFAULT_DRAW
    assert settled.explain()[-1].endswith("(a random draw standing in for the Moderator's pick)")


def test_no_votes_leave_every_choice_tied() -> None:
    result = tally_irv([], THREE)
    assert result.selection.winner_set == THREE
    assert result.selection.needs_moderator
