"""Property tests: parse_post never raises, and what it returns points into the post."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.parser import ParseResult, parse_post

ACTION_PHRASES = (
    "I place a stone at G3",
    "I play g 13",
    "place a stone at Q44",
    "I pass",
    "Pass",
    "I roll 3d6",
    "roll a d20 twice",
    "I roll 3x6",
    "I form an alliance with Bob the Voting Fish",
    "I break my alliance with 'Bob'",
    "I request to become a player, with the name Alice",
    "please register me as a player named",
    "I forfeit the game",
    "If Bob passes,",
    "unless nobody objects",
    "Should I",
    "Bob said 'I pass'",
    "I will roll",
    "three times",
    "x3",
    "my name is Carol",
    "I'd like to",
)
SEPARATORS = (" ", ". ", ", ", " and ", "; ", "\n", "\n\n", "\n- ", "? ", " then ", "", '"', "'")

phrases = st.lists(
    st.tuples(st.sampled_from(ACTION_PHRASES), st.sampled_from(SEPARATORS)), max_size=12
).map(lambda pairs: "".join(phrase + separator for phrase, separator in pairs))


def assert_points_into(text: str, result: ParseResult) -> None:
    for action in result.actions:
        assert action.text and action.text in text
        assert action.repeat >= 1
    for problem in result.not_understood:
        assert problem.text and problem.text in text
        assert 1 <= problem.column <= len(problem.text) + 1
        assert problem.message.count("^") >= 1


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(st.text())
def test_arbitrary_text_never_raises(text: str) -> None:
    assert_points_into(text, parse_post(text))


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(phrases)
def test_concatenated_action_phrases_never_raise(text: str) -> None:
    assert_points_into(text, parse_post(text))


@settings(max_examples=200)
@given(st.text(alphabet=st.sampled_from(list("Ii placetonG3d6r,.;'\"\n-?!&x")), max_size=200))
def test_text_made_of_action_characters_never_raises(text: str) -> None:
    assert_points_into(text, parse_post(text))
