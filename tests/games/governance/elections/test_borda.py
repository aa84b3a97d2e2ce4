"""The Borda Count, stage by stage (rule 1823 C.1, seed 004), as vote diagrams.

Each diagram line is ``count: first > second > ...``.  The approval rating is
x*n - m (x votes, n choices, m the sum of a choice's ranks); the Choice Pool
keeps the best rating, then the most first places, second places, ..., then
draws at random.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from bot.games.dice import DrawSource
from bot.games.governance.elections import (
    BordaResult,
    RankedVote,
    SelectedBy,
    positional_scores,
    tally_borda,
    tally_election,
)
from bot.games.governance.elections.borda import ordinal
from bot.games.governance.elections.methods import SelectionMethod

Ranked = Callable[[str], list[RankedVote]]
THREE = ("alice", "bob", "carol")


def test_the_best_approval_rating_wins_alone(ranked: Ranked, scripted: Callable[..., Any]) -> None:
    votes = ranked(
        """
        3: alice > bob > carol
        2: bob > alice > carol
        """
    )
    result = tally_borda(votes, THREE, scripted())
    # x=5, n=3: alice 15-(1+1+1+2+2)=8, bob 15-(2+2+2+1+1)=7, carol 15-15=0.
    assert result.ratings == (("alice", 8), ("bob", 7), ("carol", 0))
    assert result.selection.selected == "alice"
    assert result.selection.selected_by is SelectedBy.SOLE_LEADER
    assert result.explain() == (
        "Borda Count (rule 1823 C.1): 5 votes, 3 choices; approval rating = 5*3 - sum of ranks",
        "approval rating: alice 8, bob 7, carol 0; removed bob, carol (fewer than 8)",
        "rule 1823 C.1: alice is selected (it alone led)",
    )


def test_the_rating_is_the_rule_formula_and_the_comment_is_off_by_the_vote_count(
    ranked: Ranked, scripted: Callable[..., Any]
) -> None:
    votes = ranked(
        """
        3: alice > bob > carol
        2: bob > carol > alice
        """
    )
    result = tally_borda(votes, THREE, scripted())
    n_minus_place = positional_scores(votes, THREE, lambda place, size: Fraction(size - place))
    n_for_first = positional_scores(votes, THREE, lambda place, size: Fraction(size - place + 1))
    for choice in THREE:
        # x*n - m is the sum of n - place; the rule 8 comment's "n points for first" adds x = 5.
        assert result.rating_of(choice) == n_minus_place[choice]
        assert n_for_first[choice] == result.rating_of(choice) + 5


def test_equal_ratings_are_split_by_first_places(
    ranked: Ranked, scripted: Callable[..., Any]
) -> None:
    votes = ranked(
        """
        2: alice > bob > carol
        1: bob > carol > alice
        """
    )
    result = tally_borda(votes, THREE, scripted())
    # x=3, n=3: alice 9-(1+1+3)=4, bob 9-(2+2+1)=4, carol 9-(3+3+2)=1.
    # First places among alice and bob: 2 against 1, so bob goes.
    assert result.selection.winner_set == ("alice", "bob")
    assert result.selection.selected == "alice"
    assert result.selection.selected_by is SelectedBy.PLACE_TIE_BREAK
    assert [step.describe() for step in result.steps] == [
        "approval rating: alice 4, bob 4, carol 1; removed carol (fewer than 4)",
        "first places: alice 2, bob 1; removed bob (fewer than 2)",
    ]


def test_equal_ratings_and_first_places_are_split_by_second_places(
    ranked: Ranked, scripted: Callable[..., Any]
) -> None:
    four = ("alice", "bob", "carol", "dave")
    votes = ranked(
        """
        1: dave > bob > carol > alice
        1: bob > alice > carol > dave
        1: carol > alice > dave > bob
        """
    )
    result = tally_borda(votes, four, scripted())
    # x=3, n=4: alice 12-(4+2+2)=4, bob 12-(2+1+4)=5, carol 12-(3+3+1)=5, dave 12-(1+4+3)=4.
    # bob and carol have one first place each; bob has a second place (vote 1), carol none.
    assert [step.describe() for step in result.steps] == [
        "approval rating: alice 4, bob 5, carol 5, dave 4; removed alice, dave (fewer than 5)",
        "first places: bob 1, carol 1; all equal, nothing removed",
        "second places: bob 1, carol 0; removed carol (fewer than 1)",
    ]
    assert result.selection.selected == "bob"


def test_third_places_decide_when_everything_before_them_is_equal(
    ranked: Ranked, scripted: Callable[..., Any]
) -> None:
    five = ("alice", "bob", "carol", "dave", "erin")
    votes = ranked(
        """
        1: dave > erin > bob > carol > alice
        1: carol > alice > dave > erin > bob
        1: bob > alice > dave > erin > carol
        1: erin > bob > carol > alice > dave
        """
    )
    result = tally_borda(votes, five, scripted())
    # x=4, n=5: bob 20-(3+5+1+2)=9, erin 20-(2+4+4+1)=9, dave 8, alice 7, carol 7.
    # bob and erin: one first place each, one second place each; bob has a third place.
    assert result.ratings == (("alice", 7), ("bob", 9), ("carol", 7), ("dave", 8), ("erin", 9))
    assert [step.criterion for step in result.steps] == [
        "approval rating",
        "first places",
        "second places",
        "third places",
    ]
    assert result.steps[-1].removed == ("erin",)
    assert result.selection.selected == "bob"


def test_places_count_the_votes_as_cast_not_as_transferred(
    ranked: Ranked, scripted: Callable[..., Any]
) -> None:
    votes = ranked(
        """
        2: alice > carol > bob
        1: bob > carol > alice
        1: carol > alice > bob
        """
    )
    result = tally_borda(votes, THREE, scripted())
    # x=4, n=3: alice 12-(1+1+3+2)=5, carol 12-(2+2+2+1)=5, bob 12-(3+3+1+3)=2.
    # bob leaves the Pool, but the vote bob > carol > alice still gives carol a
    # second place, not a first: as cast, alice 2 first places, carol 1.  Were
    # bob's first place handed on as in IRV, they would tie 2-2 and go on.
    assert (
        result.steps[1].describe() == "first places: alice 2, carol 1; removed carol (fewer than 2)"
    )
    assert result.selection.selected == "alice"


def test_a_pool_tied_at_every_place_is_settled_by_a_recorded_draw(ranked: Ranked) -> None:
    votes = ranked(
        """
        1: alice > bob > carol
        1: bob > carol > alice
        1: carol > alice > bob
        """
    )
    source = DrawSource(bytes(32), "election ministry of the rules")
    result = tally_election(SelectionMethod.BORDA_COUNT, votes, THREE, source)
    assert isinstance(result, BordaResult)
    (draw,) = source.draws
    # Every rating is 9-6=3 and each choice has one vote at each place: the
    # Pool keeps all three, offered to the draw in the election's choice order.
    assert draw.options == THREE
    assert draw.purpose == "rule 1823 C.1 Borda Count, Choice Pool"
    assert result.selection.selected == THREE[draw.result[0]]
    assert result.selection.selected_by is SelectedBy.RANDOM_DRAW
    assert result.selection.draw is not None
    assert result.selection.draw.options == THREE
    assert len(result.steps) == 4  # the rating, then first, second and third places
    assert result.explain()[-2] == (
        f"rule 1823 C.1 Borda Count, Choice Pool: drew {result.selection.selected} "
        "at random from alice, bob, carol"
    )


def test_no_votes_at_all_leave_every_choice_to_the_draw(scripted: Callable[..., Any]) -> None:
    source = scripted("carol")
    result = tally_borda([], THREE, source)
    assert result.ratings == (("alice", 0), ("bob", 0), ("carol", 0))
    assert source.calls == [("rule 1823 C.1 Borda Count, Choice Pool", THREE, "carol")]
    assert result.selection.selected == "carol"


def test_a_single_choice_is_selected_without_any_step(scripted: Callable[..., Any]) -> None:
    result = tally_borda([RankedVote(("alice",))], ("alice",), scripted())
    assert result.steps == ()
    assert result.selection.selected == "alice"
    assert result.rating_of("alice") == 0  # x*n - m = 1*1 - 1


def test_places_past_the_eighth_are_named_with_numerals() -> None:
    assert [ordinal(number) for number in (1, 8, 9, 11, 12, 21, 22, 23, 111)] == [
        "first",
        "eighth",
        "9th",
        "11th",
        "12th",
        "21st",
        "22nd",
        "23rd",
        "111th",
    ]
