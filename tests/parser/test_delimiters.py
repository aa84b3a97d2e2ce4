"""Rule 217's Standard Delimiters in posts: {{ }} sets text apart, __ __ titles it."""

from __future__ import annotations

from bot.mail.comments import strip_comments
from bot.parser import parse_post
from bot.parser.delimiters import block_spans, set_apart, split_title


def test_nested_blocks_are_one_block() -> None:
    text = "a {{ b {{ c }} d }} e {{ f }}"
    assert [text[start:end] for start, end in block_spans(text)] == [
        "{{ b {{ c }} d }}",
        "{{ f }}",
    ]
    delimited = set_apart(text)
    assert delimited.masked == "a {{§1}} e {{§2}}"
    assert delimited.blocks == (" b {{ c }} d ", " f ")


def test_an_unclosed_opening_sets_nothing_apart() -> None:
    assert block_spans("I pass {{ and so on") == []
    assert block_spans("stray }} here") == []


def test_actions_inside_a_block_are_not_taken() -> None:
    result = parse_post("I submit a proposal: {{ I roll 3d6. I forfeit the game. }}")
    assert [action.action for action in result.actions] == ["proposals.submit"]
    assert result.actions[0].args["text"] == "I roll 3d6. I forfeit the game."
    assert result.not_understood == ()


def test_a_block_that_is_no_action_argument_is_still_not_read() -> None:
    result = parse_post("Here is an idea: {{ I roll 3d6 }}\n\nI roll 1d6.")
    assert [(action.action, dict(action.args)) for action in result.actions] == [
        ("dice.roll", {"count": 1, "sides": 6})
    ]


def test_nested_delimiters_stay_in_the_text() -> None:
    (action,) = parse_post("I propose {{ Amend rule 8 to read {{ new text }} . }}").actions
    assert action.args["text"] == "Amend rule 8 to read {{ new text }} ."


def test_comments_inside_a_block_are_kept_and_outside_dropped() -> None:
    visible = strip_comments("I submit a proposal [[ my first ]] {{ Text [[ its note ]] }}")
    (action,) = parse_post(visible).actions
    assert action.args["text"] == "Text [[ its note ]]"


def test_a_title_inside_the_block_is_removed_from_the_text() -> None:
    assert split_title("\n__Cake__\nCake for all.\n") == ("Cake", "Cake for all.")
    assert split_title(" no title here ") == (None, "no title here")
    (action,) = parse_post("I propose {{ __Cake__ Cake for all. }}").actions
    assert dict(action.args) == {"title": "Cake", "text": "Cake for all."}


def test_a_title_before_the_block_on_its_own_lines() -> None:
    post = "I submit the following proposal:\n\n__Cake__\n\n{{\nCake for all.\n\nI pass.\n}}\n"
    (action,) = parse_post(post).actions
    assert dict(action.args) == {"title": "Cake", "text": "Cake for all.\n\nI pass."}
    # The reply quotes the sentence with the block shortened, not the placeholder.
    assert action.text == ("I submit the following proposal: __Cake__ {{ Cake for all. I pass. }}")


def test_a_title_after_the_block_applies_to_the_proposal() -> None:
    (action,) = parse_post("I submit a proposal {{ Cake for all. }} __Cake__").actions
    assert action.args["title"] == "Cake"


def test_a_long_block_is_shortened_in_the_quoted_sentence() -> None:
    words = " ".join(["cake"] * 40)
    (action,) = parse_post(f"I propose {{{{ {words} }}}}").actions
    assert action.args["text"] == words
    assert action.text.endswith("… }}") and len(action.text) < 80
