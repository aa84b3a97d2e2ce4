"""Sentence splitting: offsets, wrapping, lists and full stops that do not end sentences."""

from __future__ import annotations

from bot.parser.sentences import Sentence, split_sentences


def texts(post: str) -> list[str]:
    return [sentence.text for sentence in split_sentences(post)]


def test_a_point_at_the_end_of_a_sentence_ends_it() -> None:
    assert texts("I place a stone at G3. Then I roll 2d6.") == [
        "I place a stone at G3.",
        "Then I roll 2d6.",
    ]


def test_decimals_abbreviations_and_initials_do_not_end_sentences() -> None:
    post = "Bob has 3.5 points, e.g. more than Mr. Smith and J. Random. I pass."
    assert texts(post) == ["Bob has 3.5 points, e.g. more than Mr. Smith and J. Random.", "I pass."]


def test_a_lower_case_word_after_a_full_stop_continues_the_sentence() -> None:
    assert texts("See the board etc. and then decide.") == ["See the board etc. and then decide."]


def test_questions_and_exclamations_end_sentences() -> None:
    assert texts("Should I pass? no! I roll 2d6") == ["Should I pass?", "no!", "I roll 2d6"]


def test_a_wrapped_line_continues_the_sentence() -> None:
    post = (
        "After a lot of careful thought about the lower left corner of the board I\n"
        "place a stone at G3."
    )
    assert texts(post) == [post]


def test_a_short_line_followed_by_a_capital_is_a_new_sentence() -> None:
    assert texts("Place a stone at D4\nRoll 1d6") == ["Place a stone at D4", "Roll 1d6"]


def test_a_line_ending_in_a_joining_word_continues() -> None:
    assert texts("I form an alliance with\nBob the Voting Fish.") == [
        "I form an alliance with\nBob the Voting Fish."
    ]


def test_a_blank_line_always_ends_a_sentence() -> None:
    assert texts("I place a stone at the\n\npoint G3") == ["I place a stone at the", "point G3"]


def test_list_items_are_separate_sentences_without_their_bullets() -> None:
    post = "My moves:\n- I pass\n* I roll 2d6\n1. Place a stone at G3\n2) I forfeit\n  a) done"
    assert texts(post) == [
        "My moves:",
        "I pass",
        "I roll 2d6",
        "Place a stone at G3",
        "I forfeit",
        "done",
    ]


def test_offsets_point_into_the_post_and_line_starts_are_known() -> None:
    post = "Hi all. I pass.\n  Roll 2d6\n- Pass."
    sentences = split_sentences(post)
    for sentence in sentences:
        assert post[sentence.start : sentence.start + len(sentence.text)] == sentence.text
    assert [sentence.starts_line for sentence in sentences] == [True, False, True, True]


def test_empty_and_blank_posts_have_no_sentences() -> None:
    assert split_sentences("") == ()
    assert split_sentences(" \n\n \t\n") == ()
    assert split_sentences("x") == (Sentence(text="x", start=0, starts_line=True),)
