"""Reading the roster's actions: rules 14, 151, 205 and the holdings statement."""

from __future__ import annotations

import pytest

from bot.parser import parse_post

READINGS = {
    # Rule 151: name changes
    "I change my name to Alicia.": ("roster.rename", {"name": "Alicia"}),
    "I hereby change my name to 'Alice Smith'.": ("roster.rename", {"name": "Alice Smith"}),
    "Please change my name to Zed.": ("roster.rename", {"name": "Zed"}),
    "I rename myself to Carol": ("roster.rename", {"name": "Carol"}),
    # Rule 205: leaves of absence
    "I go On Leave.": ("roster.leave", {}),
    "I am now on leave.": ("roster.leave", {}),
    "I am going on leave": ("roster.leave", {}),
    "I declare myself to be On Leave.": ("roster.leave", {}),
    "I take a leave of absence.": ("roster.leave", {}),
    "I go Off Leave.": ("roster.return", {}),
    "I return from leave.": ("roster.return", {}),
    "I come back from my leave of absence.": ("roster.return", {}),
    "I declare myself Off Leave": ("roster.return", {}),
    "I end my leave.": ("roster.return", {}),
    # A player's statement
    "My holdings please": ("roster.holdings", {}),
    "My holdings, please.": ("roster.holdings", {}),
    "What are my holdings": ("roster.holdings", {}),
    "Please send me my holdings.": ("roster.holdings", {}),
    "show my balance": ("roster.holdings", {}),
}

NOT_ACTIONS = (
    "I will go on leave next week.",  # intent
    "If nobody objects, I go on leave.",  # conditional: read, but marked so
    "My holdings are looking thin.",
    "My balance is 3.",
    "I think my balance is wrong.",
    "What are my holdings?",  # questions are never actions (grammar/README.md)
    "Bob changed his name to Robert.",
    "I was on leave last week.",
)


@pytest.mark.parametrize("text", list(READINGS))
def test_roster_actions_are_read(text: str) -> None:
    result = parse_post(text)
    assert [(a.action, dict(a.args)) for a in result.actions] == [READINGS[text]]
    assert not result.not_understood
    assert not result.actions[0].conditional


@pytest.mark.parametrize("text", NOT_ACTIONS)
def test_prose_and_intent_are_not_taken(text: str) -> None:
    result = parse_post(text)
    taken = [action for action in result.actions if not action.conditional]
    assert taken == [] and not result.not_understood


def test_a_leave_and_a_move_in_one_post_keep_their_order() -> None:
    result = parse_post("I go On Leave and place a stone at E5.\nMy holdings please.")
    assert [a.action for a in result.actions] == ["roster.leave", "go.place", "roster.holdings"]


def test_a_conditional_leave_is_marked_conditional() -> None:
    (action,) = parse_post("If nobody objects, I go on leave.").actions
    assert action.action == "roster.leave" and action.conditional
