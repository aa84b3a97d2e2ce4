"""The result values: frozen, hashable, JSON-able."""

from __future__ import annotations

import dataclasses
import json

import pytest

from bot.parser import ParsedAction, ParseResult, parse_post


def test_to_json_leaves_out_defaults() -> None:
    action = ParsedAction(action="go.pass", args={}, text="I pass")
    assert action.to_json() == {"action": "go.pass", "args": {}, "text": "I pass"}


def test_to_json_marks_conditions_and_repeats() -> None:
    (action,) = parse_post("If Bob agrees, I roll 2d6 twice.").actions
    assert action.to_json() == {
        "action": "dice.roll",
        "args": {"count": 2, "sides": 6},
        "text": "If Bob agrees, I roll 2d6 twice.",
        "conditional": True,
        "repeat": 2,
    }


def test_actions_are_frozen_and_hashable() -> None:
    action = ParsedAction(action="go.place", args={"point": "G3"}, text="I play G3")
    with pytest.raises(dataclasses.FrozenInstanceError):
        action.repeat = 2  # type: ignore[misc]
    with pytest.raises(TypeError):
        action.args["point"] = "G4"  # type: ignore[index]
    same = ParsedAction(action="go.place", args={"point": "G3"}, text="I play G3")
    assert same == action
    assert len({action, same}) == 1


def test_a_whole_result_serialises_to_json() -> None:
    result = parse_post("I pass. I roll 3x6.")
    assert isinstance(result, ParseResult)
    document = json.loads(json.dumps(result.to_json()))
    assert [action["action"] for action in document["actions"]] == ["go.pass"]
    assert [problem["column"] for problem in document["not_understood"]] == [8]


def test_every_action_quotes_its_sentence_from_the_post() -> None:
    post = "Hello all.\n\nI place a stone at G3 and roll 2d6.  Then I pass."
    result = parse_post(post)
    assert [action.text for action in result.actions] == [
        "I place a stone at G3 and roll 2d6.",
        "I place a stone at G3 and roll 2d6.",
        "Then I pass.",
    ]
