"""What a player is told when a sentence starts like an action but cannot be read."""

from __future__ import annotations

from bot.games.errors import ActionSyntaxError
from bot.parser import NotUnderstood, parse_post


def only_problem(text: str) -> NotUnderstood:
    result = parse_post(text)
    assert result.actions == ()
    (problem,) = result.not_understood
    return problem


def test_a_point_off_the_board_is_pointed_at() -> None:
    problem = only_problem("I place a stone at G33")
    assert problem.text == "I place a stone at G33"
    assert problem.column == 20
    assert problem.expected == ("a point such as G3",)
    headline, sentence_line, caret_line = problem.message.split("\n")
    assert headline.startswith('I could not read "G33" as a point on the board')
    # The parser knows no board: the rows a board has are the engine's to name (a 9x9
    # board's are 1 to 9), so the message names none.
    assert "a column letter and a row number" in headline and "19" not in headline
    assert sentence_line == "  I place a stone at G33"
    assert caret_line == "  " + " " * 19 + "^"


def test_bad_dice_cite_rule_9() -> None:
    problem = only_problem("I roll 3x6.")
    assert problem.column == 8
    assert "dice such as 3d6" in problem.expected
    assert problem.message.startswith('I could not read "3x6" as dice: rule 9')


def test_an_action_that_stops_short_says_what_was_missing() -> None:
    problem = only_problem("I form an alliance")
    assert problem.column == len("I form an alliance") + 1
    assert problem.expected == ('"with"',)
    assert problem.message.startswith('The action stops short after "I form an alliance"')


def test_words_after_a_whole_action_are_quoted_back() -> None:
    problem = only_problem("I place a stone at G3 and G4")
    assert problem.column == 23
    assert "the end of the action" in problem.expected
    assert 'I understood "I place a stone at G3" but not what follows it, "and G4"' in (
        problem.message
    )
    assert "own verb" in problem.message


def test_alternatives_are_not_chosen_between() -> None:
    # An ambiguous sentence is answered with its readings, and none is taken.
    problem = only_problem("I roll 2d6 or 3d6")
    assert problem.readings == ("I roll 2d6", "I roll 3d6")
    assert "I took none of them" in problem.message
    assert problem.column == len("I roll 2d6 ") + 1


def test_an_alternative_that_reads_as_no_action_is_not_understood() -> None:
    problem = only_problem("I place a stone at G3 or whatever")
    assert problem.readings == ()
    assert "cannot choose between alternatives" in problem.message


def test_a_registration_without_a_name_asks_for_one() -> None:
    problem = only_problem("Please register me as a player.")
    assert "rule 14" in problem.message
    assert problem.expected == ('your name, as in "with the name Alice"',)


def test_the_caret_follows_a_sentence_wrapped_over_two_lines() -> None:
    text = "Having thought long and hard about this I\nplace a stone at Z99 now."
    problem = only_problem(text)
    assert problem.text == text
    assert text[problem.column - 1 :].startswith("Z99")
    sentence_line, caret_line = problem.message.split("\n")[1:]
    assert "\n" not in sentence_line
    assert sentence_line[caret_line.index("^") :].startswith("Z99")


def test_a_long_sentence_is_shown_around_the_caret() -> None:
    text = "I place a stone at Q44 " + "because the corner matters a great deal " * 5
    problem = only_problem(text)
    sentence_line, caret_line = problem.message.split("\n")[1:]
    assert len(sentence_line) < len(text)
    assert sentence_line[caret_line.index("^") :].startswith("Q44")


def test_to_json_and_as_error() -> None:
    problem = only_problem("I roll")
    assert problem.to_json() == {
        "text": "I roll",
        "column": 7,
        "expected": list(problem.expected),
        "message": problem.message,
    }
    error = problem.as_error()
    assert isinstance(error, ActionSyntaxError)
    assert error.message == problem.message
    assert error.rule == "1896"


def test_prose_that_merely_opens_a_line_with_a_verb_is_ignored() -> None:
    # An imperative counts only when its second word fits the action.
    assert parse_post("Roll call is on Monday.\nPass the salt, please.").not_understood == ()
    assert only_problem("Place a stone at G33").column == 18
