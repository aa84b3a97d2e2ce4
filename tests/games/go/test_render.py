"""The board as text (rule 1639 H, seed 004) and reading it back."""

from __future__ import annotations

import textwrap

import pytest

from bot.games.errors import ActionSyntaxError
from bot.games.go import (
    GoParameters,
    GoState,
    LegendEntry,
    add_players,
    new_game,
    parse_board,
    parse_board_diagram,
    parse_legend,
    parse_point,
    position_from_diagram,
    render_board,
    with_alliances,
    with_stones,
)

# Rule 1639 H's example with its indentation restored, byte for byte.
GOLDEN = (
    "   A B C D E F G H I\n"
    " .-------------------.\n"
    "9| . . . . . . . . . |9\n"
    "8| . . . . . . . . . |8\n"
    "7| S . . . . . . . . |7\n"
    "6| . . . R . . . . . |6\n"
    "5| . . . . . S . . . |5\n"
    "4| . . . . . . . . . |4\n"
    "3| . . . . . . R . . |3\n"
    "2| . . . . . . . . . |2\n"
    "1| . . . . . . R . . |1\n"
    " '-------------------'\n"
    "   A B C D E F G H I\n"
    "[R] Rob 0 points Allies: S\n"
    "[b] Bob the Voting Fish 0 points Allies: none\n"
    "[S] Someone Else 0 points Allies: R\n"
)
PLAYERS = ["Rob", "Bob the Voting Fish", "Someone Else"]


def assert_same_position(read: GoState, original: GoState) -> None:
    """Same stones, alliances, scores and marks (player order and history may differ)."""
    assert read.stones == original.stones
    assert read.alliances == original.alliances
    assert read.parameters == original.parameters
    for record in original.players:
        assert (read.record_of(record.name).mark, read.score_of(record.name)) == (
            record.mark,
            record.score,
        )


def test_render_matches_the_rule_1639_h_example_exactly() -> None:
    state = add_players(new_game(), PLAYERS)
    stones = {"A7": "Someone Else", "D6": "Rob", "F5": "Someone Else", "G3": "Rob", "G1": "Rob"}
    state = with_stones(state, {parse_point(name, 9): owner for name, owner in stones.items()})
    state = with_alliances(state, [("Rob", "Someone Else")])
    assert render_board(state, PLAYERS) == GOLDEN


def test_golden_diagram_reads_back_to_the_same_state_text() -> None:
    state = position_from_diagram(GOLDEN)
    assert render_board(state, PLAYERS) == GOLDEN
    assert state.score_of("Rob") == 0
    assert state.allies_of("Someone Else") == {"Rob"}


def test_parse_board_reads_marks_by_point() -> None:
    assert parse_board(GOLDEN) == {
        parse_point("A7", 9): "S",
        parse_point("D6", 9): "R",
        parse_point("F5", 9): "S",
        parse_point("G3", 9): "R",
        parse_point("G1", 9): "R",
    }


def test_parse_board_tolerates_prose_indentation_and_a_quoted_board() -> None:
    quoted = "\n".join("> " + line for line in GOLDEN.replace("R", "S").splitlines())
    body = textwrap.indent(GOLDEN, "    ")
    post = f"Hi all,\n\nI place a stone at G3.\n\n{body}\nCheers, Rob\n\n{quoted}\n"
    diagram = parse_board_diagram(post)
    assert diagram.size == 9
    assert diagram.marks == parse_board(GOLDEN)


def test_parse_board_tolerates_the_seed_text_without_leading_spaces() -> None:
    flattened = "\n".join(line.lstrip() for line in GOLDEN.splitlines())
    assert parse_board(flattened) == parse_board(GOLDEN)


@pytest.mark.parametrize(
    ("text", "detail"),
    [
        ("I pass.", ""),
        (GOLDEN.replace("5| . . . . . S . . . |5", "5| . . . . . S . . |5"), "row 5 does not have"),
        (GOLDEN.replace("4| . . . . . . . . . |4", "3| . . . . . . . . . |3", 1), "row 3 is where"),
    ],
)
def test_unreadable_boards_are_syntax_errors(text: str, detail: str) -> None:
    with pytest.raises(ActionSyntaxError, match=f"No Political Go board could be read.*{detail}"):
        parse_board(text)


def test_parse_legend() -> None:
    assert parse_legend(GOLDEN) == (
        LegendEntry("R", "Rob", 0, ("S",)),
        LegendEntry("b", "Bob the Voting Fish", 0, ()),
        LegendEntry("S", "Someone Else", 0, ("R",)),
    )


def test_inconsistent_legend_is_refused() -> None:
    one_sided = GOLDEN.replace("Else 0 points Allies: R", "Else 0 points Allies: none")
    with pytest.raises(ActionSyntaxError, match="lists Someone Else among Rob's Allies"):
        position_from_diagram(one_sided)
    with pytest.raises(ActionSyntaxError, match="no player in the legend has the mark S"):
        position_from_diagram(GOLDEN.replace("[S] Someone Else 0 points Allies: R\n", ""))


def test_large_boards_right_align_two_digit_row_numbers() -> None:
    state = add_players(new_game(GoParameters(size=10)), ["Rob", "Sue"])
    state = with_stones(state, {parse_point("J10", 10): "Rob", parse_point("A1", 10): "Sue"})
    state = with_alliances(state, [("Rob", "Sue")])
    text = render_board(state, ["Sue", "Rob"])
    assert text.splitlines() == [
        "    A B C D E F G H I J",
        "  .---------------------.",
        "10| . . . . . . . . . R |10",
        " 9| . . . . . . . . . . |9",
        " 8| . . . . . . . . . . |8",
        " 7| . . . . . . . . . . |7",
        " 6| . . . . . . . . . . |6",
        " 5| . . . . . . . . . . |5",
        " 4| . . . . . . . . . . |4",
        " 3| . . . . . . . . . . |3",
        " 2| . . . . . . . . . . |2",
        " 1| S . . . . . . . . . |1",
        "  '---------------------'",
        "    A B C D E F G H I J",
        "[S] Sue 0 points Allies: R",
        "[R] Rob 0 points Allies: S",
    ]
    assert_same_position(position_from_diagram(text), state)


def test_nineteen_by_nineteen_round_trips_with_lowercase_columns() -> None:
    parameters = GoParameters(size=19, lowercase_columns=True)
    state = add_players(new_game(parameters), ["Bob", "Sue"])
    state = with_stones(state, {parameters.parse_point("s19"): "Bob", 0: "Sue", 200: "Bob"})
    text = render_board(state, ["Bob", "Sue"])
    assert text.splitlines()[0] == "    a b c d e f g h i j k l m n o p q r s"
    assert_same_position(position_from_diagram(text, parameters), state)


def test_unknown_players_get_provisional_marks_without_changing_the_state() -> None:
    state = add_players(new_game(), ["Rob"])
    text = render_board(state, ["Rob", "Bob the Voting Fish"])
    assert text.endswith(
        "[R] Rob 0 points Allies: none\n[b] Bob the Voting Fish 0 points Allies: none\n"
    )
    assert not state.has_player("Bob the Voting Fish")


def test_allies_are_listed_in_legend_order() -> None:
    state = add_players(new_game(), ["Tom", "Sue", "Rob"])
    state = with_alliances(state, [("Rob", "Tom"), ("Rob", "Sue")])
    legend = render_board(state, ["Rob", "Sue", "Tom"]).splitlines()[-3:]
    assert legend[0] == "[R] Rob 0 points Allies: S, T"
