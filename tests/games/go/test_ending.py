"""Ending, scoring and resetting Political Go (rule 1639 F and G, seed 004)."""

from __future__ import annotations

import json
import textwrap

import pytest

from bot.games.go import (
    GoState,
    MoveContext,
    PlayerTotal,
    Territory,
    add_players,
    consent_to_alliance,
    game_should_end,
    new_game,
    parse_legend,
    parse_point,
    pass_move,
    place_stone,
    position_from_diagram,
    render_board,
    reset_game,
    score_game,
    state_from_json,
    state_to_json,
)


def diagram(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def points(size: int, *names: str) -> tuple[int, ...]:
    return tuple(sorted(parse_point(name, size) for name in names))


def stone_then_pass(stone_period: int, pass_period: int) -> GoState:
    state = add_players(new_game(), ["Rob", "Sue"])
    state = place_stone(state, MoveContext("Rob", stone_period), parse_point("E5", 9)).state
    return pass_move(state, MoveContext("Sue", pass_period)).state


@pytest.mark.parametrize(
    ("checkpoint_period", "ends"),
    [(4, False), (5, False), (6, False), (7, True), (12, True)],
)
def test_ends_after_a_pass_once_no_stone_for_more_than_an_nweek(
    checkpoint_period: int, ends: bool
) -> None:
    # Stone in period 4: the Checkpoint closing period 7 is a full nweek
    # (three Checking Periods) after period 4 ended.
    state = stone_then_pass(stone_period=4, pass_period=5)
    assert state.last_move_was_pass
    assert state.stones_quiet_since == 4
    assert game_should_end(state, checkpoint_period) is ends


def test_does_not_end_when_the_most_recent_move_placed_a_stone() -> None:
    state = stone_then_pass(stone_period=1, pass_period=2)
    state = place_stone(state, MoveContext("Rob", 3), parse_point("A1", 9)).state
    assert not state.last_move_was_pass
    assert not game_should_end(state, 30)


def test_does_not_end_when_an_alliance_move_came_after_the_pass() -> None:
    state = stone_then_pass(stone_period=1, pass_period=2)
    state = consent_to_alliance(state, MoveContext("Rob", 2), "Sue").state
    assert game_should_end(state, 5)  # a consent alone is not a Move
    state = consent_to_alliance(state, MoveContext("Sue", 3), "Rob").state
    assert not game_should_end(state, 30)


def test_without_any_stone_the_nweek_counts_from_the_first_move() -> None:
    state = add_players(new_game(), ["Rob", "Sue"])
    assert not game_should_end(state, 100)
    state = pass_move(state, MoveContext("Rob", 2)).state
    state = pass_move(state, MoveContext("Sue", 4)).state
    assert state.stones_quiet_since == 2
    assert not game_should_end(state, 4)
    assert game_should_end(state, 5)


def test_the_nweek_length_is_a_parameter() -> None:
    state = stone_then_pass(stone_period=4, pass_period=5)
    assert not game_should_end(state, 7, nweek_periods=4)
    assert game_should_end(state, 8, nweek_periods=4)


def test_a_checkpoint_before_the_last_stone_is_a_defect() -> None:
    with pytest.raises(ValueError, match="must not run backwards"):
        game_should_end(stone_then_pass(stone_period=4, pass_period=5), 3)


FINAL_POSITION = """
       A B C D E
     .-----------.
    5| . . R . . |5
    4| . . R S . |4
    3| R R R S S |3
    2| . . S . S |2
    1| . . S S S |1
     '-----------'
       A B C D E
    [R] Rob 2 points Allies: S
    [S] Sue -12 points Allies: R
    """


def test_territories_are_shared_by_every_adjacent_player() -> None:
    result = score_game(position_from_diagram(diagram(FINAL_POSITION)))
    assert result.territories == (
        Territory(points(5, "A1", "B1", "A2", "B2"), ("Rob", "Sue"), 4),
        Territory(points(5, "D2"), ("Sue",), 2),
        Territory(points(5, "A4", "B4", "A5", "B5"), ("Rob",), 8),
        # 2 * 3 / 2 = 3 each.
        Territory(points(5, "E4", "D5", "E5"), ("Rob", "Sue"), 3),
    )
    assert result.totals == (
        PlayerTotal("Rob", go_score=2, territory_points=15, total=17, nomic_points=17),
        PlayerTotal("Sue", go_score=-12, territory_points=9, total=-3, nomic_points=0),
    )
    assert result.nomic_points == {"Rob": 17}


def test_shares_are_rounded_down_and_only_positive_totals_pay() -> None:
    state = position_from_diagram(
        diagram(
            """
               A B C
             .-------.
            3| . . . |3
            2| R S T |2
            1| . . T |1
             '-------'
               A B C
            [R] Rob 0 points Allies: none
            [S] Sue -3 points Allies: none
            [T] Tom 1 points Allies: none
            """
        )
    )
    result = score_game(state)
    assert result.territories == (
        # 2 * 2 / 3 rounds down to 1; 2 * 3 / 3 is 2.
        Territory(points(3, "A1", "B1"), ("Rob", "Sue", "Tom"), 1),
        Territory(points(3, "A3", "B3", "C3"), ("Rob", "Sue", "Tom"), 2),
    )
    assert [total.total for total in result.totals] == [3, 0, 4]
    assert result.nomic_points == {"Rob": 3, "Tom": 4}


def test_a_territory_next_to_no_stone_scores_nothing() -> None:
    state = add_players(new_game(), ["Rob"])
    result = score_game(state)
    assert result.territories == (Territory(tuple(range(81)), (), 0),)
    assert result.totals == (PlayerTotal("Rob", 0, 0, 0, 0),)
    assert result.nomic_points == {}


def test_reset_clears_the_board_alliances_and_go_scores() -> None:
    state = position_from_diagram(diagram(FINAL_POSITION))
    state = pass_move(state, MoveContext("Rob", 7)).state
    state = consent_to_alliance(add_players(state, ["Tom"]), MoveContext("Tom", 7), "Rob").state
    reset = reset_game(state)
    expected = diagram(
        """
           A B C D E
         .-----------.
        5| . . . . . |5
        4| . . . . . |4
        3| . . . . . |3
        2| . . . . . |2
        1| . . . . . |1
         '-----------'
           A B C D E
        [R] Rob 0 points Allies: none
        [S] Sue 0 points Allies: none
        [T] Tom 0 points Allies: none
        """
    )
    assert render_board(reset, [entry.name for entry in parse_legend(expected)]) == expected
    assert reset.pending_consents == frozenset()
    assert [len(records) for records in reset.history.values()] == [1]
    assert not reset.last_move_was_pass
    assert reset.stones_quiet_since is None
    # The Move count and each player's last Checking Period carry on.
    assert reset.move_number == state.move_number
    assert reset.record_of("Rob").last_checking_period == 7


def test_json_keeps_the_ending_fields_and_move_numbers() -> None:
    state = stone_then_pass(stone_period=4, pass_period=5)
    data = json.loads(json.dumps(state_to_json(state)))
    assert data["last_move_was_pass"] is True
    assert data["stones_quiet_since"] == 4
    assert [position.get("move_number") for position in data["history"]] == [None, 1]
    restored = state_from_json(data)
    assert restored == state
    assert restored.last_move_was_pass
    assert restored.stones_quiet_since == 4
    assert [record.move_number for records in restored.history.values() for record in records] == [
        None,
        1,
    ]


def test_json_stored_before_ko_and_ending_loads_with_defaults() -> None:
    data = state_to_json(stone_then_pass(stone_period=4, pass_period=5))
    for key in ("last_move_was_pass", "stones_quiet_since"):
        del data[key]
    for key in ("rule_ko", "rule_ending", "rule_scoring"):
        del data["parameters"][key]
    for position in data["history"]:
        position.pop("move_number", None)
    old = state_from_json(data)
    assert not old.last_move_was_pass
    assert old.stones_quiet_since is None
    assert not game_should_end(old, 100)
    assert old.parameters.rule_ko == "1639 E"
    assert {record.move_number for records in old.history.values() for record in records} == {None}
    assert old.stones == {parse_point("E5", 9): "Rob"}
