"""Approval Voting (rule 1823 C.2, seed 004): the choice on the most votes, and
the Moderator's pick on a tie (asked by mail, or a configured recorded draw)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot.games.dice import DrawSource
from bot.games.errors import IllegalActionError
from bot.games.governance.elections import (
    ApprovalVote,
    ModeratorDefault,
    SelectedBy,
    SelectionMethod,
    moderator_picks,
    read_approval_vote,
    settle_by_default,
    tally_approval,
    tally_election,
)

THREE = ("alice", "bob", "carol")


def approvals(*lists: str) -> list[ApprovalVote]:
    """``"alice bob"`` per vote: the choices it lists; ``""`` lists none."""
    return [read_approval_vote(listed.split(), THREE) for listed in lists]


def test_the_choice_on_the_most_votes_is_selected() -> None:
    result = tally_approval(approvals("alice bob", "bob", "bob carol", ""), THREE)
    assert result.counts == (("alice", 1), ("bob", 3), ("carol", 1))
    assert result.selection.selected == "bob"
    assert result.explain() == (
        "Approval Voting (rule 1823 C.2): 4 votes; appeared on: alice 1, bob 3, carol 1",
        "rule 1823 C.2: bob is selected (it alone led)",
    )


def test_a_tie_waits_for_the_moderator_who_picks_one_of_the_tied(
    scripted: Callable[..., Any],
) -> None:
    votes = approvals("alice", "alice bob", "bob carol")
    result = tally_election(SelectionMethod.APPROVAL_VOTING, votes, THREE, scripted())
    assert result.selection.needs_moderator
    assert result.selection.winner_set == ("alice", "bob")
    assert result.explain()[-1] == (
        "rule 1823 C.2: tied between alice, bob; the Moderator picks one of them"
    )
    picked = moderator_picks(result, "bob")
    assert picked.selection.selected == "bob"
    assert picked.selection.selected_by is SelectedBy.MODERATOR
    with pytest.raises(IllegalActionError, match="one of the tied choices") as caught:
        moderator_picks(result, "carol")
    assert caught.value.rule == "1823 C.2"


def test_asking_the_moderator_leaves_the_tie_open_and_draws_nothing(
    scripted: Callable[..., Any],
) -> None:
    source = scripted()
    pending = tally_approval(approvals("alice", "bob"), THREE)
    assert settle_by_default(pending, ModeratorDefault.ASK_MODERATOR, source) == pending
    assert source.calls == []


def test_the_configured_default_is_a_recorded_draw_among_the_tied() -> None:
    pending = tally_approval(approvals("alice carol", "bob carol", "alice bob"), THREE)
    source = DrawSource(bytes(32), "election webministry")
    settled = settle_by_default(pending, ModeratorDefault.RECORDED_DRAW, source)
    (draw,) = source.draws
    assert draw.purpose == "rule 1823 C.2 tie, drawn for the Moderator"
    assert draw.options == THREE
    assert settled.selection.selected == THREE[draw.result[0]]
    assert settled.selection.draw is not None
    assert settled.explain()[-2] == settled.selection.draw.describe()


def test_a_decided_election_is_left_as_it_is_by_the_default(
    scripted: Callable[..., Any],
) -> None:
    decided = tally_approval(approvals("alice", "alice"), THREE)
    assert settle_by_default(decided, ModeratorDefault.RECORDED_DRAW, scripted()) == decided


def test_a_vote_with_a_choice_outside_the_election_is_a_defect_at_tally() -> None:
    with pytest.raises(ValueError, match="not a choice"):
        tally_approval([ApprovalVote(("dave",))], THREE)
