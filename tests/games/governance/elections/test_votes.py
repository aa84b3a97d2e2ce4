"""Legal votes under each Selection Method (rule 1823 C.1-C.3), the last vote
counting (rule 1823), and naming a method (rule 1823 C, rule 625 B)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot.games.errors import ActionSyntaxError, AmbiguousActionError, IllegalActionError
from bot.games.governance.elections import (
    ApprovalVote,
    CastVote,
    RankedVote,
    SelectionMethod,
    actual_votes,
    method_named,
    read_approval_vote,
    read_numbered_vote,
    read_ranked_vote,
    read_vote,
    tally_election,
)

CHOICES = ("alice", "bob", "carol")
BORDA = SelectionMethod.BORDA_COUNT
IRV = SelectionMethod.INSTANT_RUNOFF


def test_a_ranked_vote_lists_every_choice_once_matched_ignoring_case() -> None:
    vote = read_ranked_vote([" Carol", "ALICE ", "bob"], CHOICES, BORDA)
    assert vote == RankedVote(("carol", "alice", "bob"))


@pytest.mark.parametrize("method", [BORDA, IRV])
def test_a_ranked_vote_leaving_a_choice_out_is_illegal(method: SelectionMethod) -> None:
    with pytest.raises(IllegalActionError) as caught:
        read_ranked_vote(["carol", "alice"], CHOICES, method)
    assert caught.value.rule == method.rule
    assert "leaves out bob" in caught.value.message


def test_a_choice_ranked_twice_is_illegal() -> None:
    with pytest.raises(IllegalActionError, match="ranks alice twice") as caught:
        read_ranked_vote(["alice", "bob", "alice"], CHOICES, IRV)
    assert caught.value.rule == "1823 C.3"


def test_an_entry_that_is_not_a_choice_is_illegal_and_the_choices_are_quoted() -> None:
    with pytest.raises(IllegalActionError) as caught:
        read_ranked_vote(["alice", "bob", "dave"], CHOICES, BORDA)
    assert caught.value.message == (
        "'dave' is not a choice in this election (choices: alice, bob, carol)"
    )
    assert caught.value.rule == "1823 C.1"


def test_an_empty_ranked_vote_or_a_blank_entry_is_a_syntax_error() -> None:
    with pytest.raises(ActionSyntaxError):
        read_ranked_vote([], CHOICES, BORDA)
    with pytest.raises(ActionSyntaxError, match="blank entry"):
        read_ranked_vote(["alice", " ", "bob"], CHOICES, BORDA)


def test_choices_differing_only_in_case_make_an_entry_ambiguous() -> None:
    with pytest.raises(AmbiguousActionError, match="Bob, bob"):
        read_ranked_vote(["BOB", "alice"], ("Bob", "bob", "alice"), BORDA)


def test_a_numbered_borda_vote_is_ordered_by_its_numbers() -> None:
    vote = read_numbered_vote([(2, "alice"), (3, "bob"), (1, "carol")], CHOICES)
    assert vote == RankedVote(("carol", "alice", "bob"))


def test_a_numbered_borda_vote_must_number_one_to_n_each_once() -> None:
    with pytest.raises(IllegalActionError, match="numbered 1 to 3") as caught:
        read_numbered_vote([(1, "alice"), (1, "bob"), (3, "carol")], CHOICES)
    assert caught.value.rule == "1823 C.1"


def test_an_approval_vote_may_list_any_number_of_choices_even_none() -> None:
    assert read_approval_vote([], CHOICES) == ApprovalVote(())
    assert read_approval_vote(["bob", "Alice"], CHOICES) == ApprovalVote(("bob", "alice"))


def test_an_approval_vote_naming_a_choice_twice_counts_it_once() -> None:
    # Rule 1823 C.2 counts the votes a choice "appeared on": a repeat changes nothing.
    assert read_approval_vote(["bob", "bob"], CHOICES) == ApprovalVote(("bob",))


def test_an_approval_vote_naming_a_non_choice_is_illegal() -> None:
    with pytest.raises(IllegalActionError) as caught:
        read_approval_vote(["zed"], CHOICES)
    assert caught.value.rule == "1823 C.2"


def test_read_vote_dispatches_on_the_method() -> None:
    approval = read_vote(["bob"], CHOICES, SelectionMethod.APPROVAL_VOTING)
    ranked = read_vote(["bob", "alice", "carol"], CHOICES, IRV)
    assert approval == ApprovalVote(("bob",))
    assert ranked == RankedVote(("bob", "alice", "carol"))


def test_the_last_vote_submitted_is_the_actual_vote() -> None:
    first = ApprovalVote(("alice",))
    changed = ApprovalVote(("bob",))
    other = ApprovalVote(("carol",))
    cast = [CastVote("pat", first), CastVote("quinn", other), CastVote("pat", changed)]
    assert actual_votes(cast) == (other, changed)


@pytest.mark.parametrize(
    ("text", "method"),
    [
        (None, SelectionMethod.BORDA_COUNT),
        ("  ", SelectionMethod.BORDA_COUNT),
        ("borda count", SelectionMethod.BORDA_COUNT),
        ("Approval", SelectionMethod.APPROVAL_VOTING),
        ("IRV", SelectionMethod.INSTANT_RUNOFF),
        ("Instant Runoff Voting (IRV)", SelectionMethod.INSTANT_RUNOFF),
    ],
)
def test_a_method_is_named_or_defaults_to_the_borda_count(
    text: str | None, method: SelectionMethod
) -> None:
    assert method_named(text) is method


def test_only_methods_the_rules_define_may_be_used() -> None:
    with pytest.raises(IllegalActionError, match="not a Selection Method") as caught:
        method_named("Condorcet")
    assert caught.value.rule == "1823 C"


def test_tallying_a_vote_of_the_wrong_kind_is_a_defect(scripted: Callable[..., Any]) -> None:
    approval = SelectionMethod.APPROVAL_VOTING
    with pytest.raises(ValueError, match="ranked vote"):
        tally_election(approval, [RankedVote(CHOICES)], CHOICES, scripted())
    with pytest.raises(ValueError, match="Approval vote"):
        tally_election(IRV, [ApprovalVote(("bob",))], CHOICES, scripted())


def test_tallying_a_ranked_vote_that_does_not_fit_the_choices_is_a_defect(
    scripted: Callable[..., Any],
) -> None:
    with pytest.raises(ValueError, match="does not rank"):
        tally_election(BORDA, [RankedVote(("alice", "bob"))], CHOICES, scripted())
