"""Board coordinates (rule 1639 A) and player marks (rule 1639 H), seed 004."""

from __future__ import annotations

import pytest

from bot.games.errors import ActionSyntaxError, IllegalActionError
from bot.games.go import GoParameters, add_players, format_point, new_game, parse_point
from bot.games.go.anomic.state import A_NOMIC
from bot.games.go.marks import choose_mark
from bot.games.go.parameters import B_NOMIC
from bot.games.go.points import MAXIMUM_SIZE, MINIMUM_SIZE, point_names, points_by_name
from bot.games.go.state import MAXIMUM_PLAYERS


@pytest.mark.parametrize(
    ("text", "expected"),
    [("A1", 0), ("a1", 0), ("I1", 8), ("A2", 9), ("G3", 24), ("g3", 24), (" i9 ", 80)],
)
def test_points_are_lettered_a_to_i_and_numbered_from_the_bottom(text: str, expected: int) -> None:
    assert parse_point(text, 9) == expected


def test_every_point_formats_and_parses_back() -> None:
    for size in (2, 9, 19, 26):
        names = [format_point(point, size) for point in range(size * size)]
        assert len(set(names)) == size * size
        assert [parse_point(name, size) for name in names] == list(range(size * size))


@pytest.mark.parametrize("lowercase", [False, True])
def test_the_point_tables_are_format_point_and_its_exact_inverse(lowercase: bool) -> None:
    for size in range(MINIMUM_SIZE, MAXIMUM_SIZE + 1):
        points = range(size * size)
        names = point_names(size, lowercase=lowercase)
        assert names == tuple(format_point(point, size, lowercase=lowercase) for point in points)
        by_name = points_by_name(size, lowercase=lowercase)
        assert dict(by_name) == {name: point for point, name in enumerate(names)}
        assert all(parse_point(name, size) == by_name[name] for name in names)
        parameters = GoParameters(size=size, lowercase_columns=lowercase)
        assert parameters.point_names is names
        assert parameters.points_by_name is by_name


def test_the_point_table_cannot_be_changed_by_a_caller() -> None:
    with pytest.raises(TypeError):
        points_by_name(9)["J1"] = 0  # type: ignore[index]


def test_lowercase_columns_for_a_nomic() -> None:
    parameters = GoParameters(size=19, lowercase_columns=True)
    assert parameters.column_labels == "abcdefghijklmnopqrs"
    assert parameters.format_point(parameters.parse_point("S19")) == "s19"


@pytest.mark.parametrize("text", ["J1", "A10", "A0", "Z5"])
def test_off_board_points_are_illegal_under_rule_1639_a(text: str) -> None:
    with pytest.raises(IllegalActionError) as raised:
        parse_point(text, 9)
    assert raised.value.rule == "1639 A"
    assert str(raised.value) == f"{text} is not on the 9x9 board (columns A-I, rows 1-9)"


def test_an_off_board_point_is_named_in_the_boards_own_lettering() -> None:
    # Rule 1639 A (seed 004): 9x9, rows 1 to 9; A Nomic rule 366 (seed 002):
    # "lettered horizontally from "a" to "s"", rows 1 to 19.
    with pytest.raises(IllegalActionError) as nine:
        B_NOMIC.parse_point("E10")
    assert str(nine.value) == "E10 is not on the 9x9 board (columns A-I, rows 1-9)"
    with pytest.raises(IllegalActionError) as nineteen:
        A_NOMIC.parse_point("t5")
    assert nineteen.value.rule == "366"
    assert str(nineteen.value) == "t5 is not on the 19x19 board (columns a-s, rows 1-19)"


@pytest.mark.parametrize("text", ["", "G", "33", "GG3", "G-3", "é3"])
def test_malformed_points_are_syntax_errors(text: str) -> None:
    with pytest.raises(ActionSyntaxError) as raised:
        parse_point(text, 9)
    assert raised.value.rule == "1639 A"


def test_board_size_is_checked() -> None:
    with pytest.raises(ValueError):
        GoParameters(size=27)


def test_marks_follow_the_rule_1639_h_example() -> None:
    state = add_players(new_game(), ["Rob", "Bob the Voting Fish", "Someone Else"])
    assert [record.mark for record in state.players] == ["R", "b", "S"]


def test_colliding_names_take_later_letters_then_the_alphabet() -> None:
    names = ["Rob", "Rachel", "Ron", "Ro", "R"]
    state = add_players(new_game(), names)
    assert [state.record_of(name).mark for name in names] == ["R", "r", "O", "o", "J"]


def test_marks_are_stable_as_players_join() -> None:
    first = add_players(new_game(), ["Sue", "Rob"])
    later = add_players(first, ["Sam", "Rob", "Sid"])
    assert [record.mark for record in later.players] == ["S", "R", "s", "i"]
    assert later.players[:2] == first.players


def test_marks_never_use_column_letters_or_dot() -> None:
    taken: list[str] = []
    # 43 letters that are not 9x9 column letters, then 12 symbols: all ASCII.
    for number in range(55):
        mark = choose_mark(f"Player {number}", taken, "ABCDEFGHI")
        assert mark not in taken and mark not in "ABCDEFGHI." and len(mark) == 1
        taken.append(mark)
    assert all(mark.isascii() for mark in taken)
    # Trust II, item 5: the 56th player used to raise; the fallback is one
    # more single character (Greek first), so 1639 H's board still reads back.
    assert choose_mark("Player 55", taken, "ABCDEFGHI") == "Γ"


@pytest.mark.parametrize("size", [9, 19, 26])
def test_every_board_has_a_distinct_one_character_mark_for_255_players(size: int) -> None:
    labels = GoParameters(size=size).column_labels
    taken: list[str] = []
    for number in range(MAXIMUM_PLAYERS):
        mark = choose_mark(f"Player {number}", taken, labels)
        assert len(mark) == 1 and not mark.isspace() and mark not in labels + ".|-'[],"
        taken.append(mark)
    assert len(set(taken)) == MAXIMUM_PLAYERS


def test_lowercase_columns_free_the_capital() -> None:
    state = add_players(new_game(GoParameters(size=19, lowercase_columns=True)), ["Bob"])
    assert state.record_of("Bob").mark == "B"
