"""Life's selection and Initialize (seeds 000 and 003): Cells, Teams, Advantage, all from
published draws that anyone can replay, and the board mailed back."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace

import pytest

from bot.games.dice import Draw, DrawKind, DrawSource, replay_draw
from bot.games.errors import IllegalActionError
from bot.games.field import (
    FieldMatch,
    FieldState,
    Request,
    TurnContext,
    match_from_json,
    match_to_json,
    turn_field,
    validate_match,
)
from bot.games.field.life import (
    LIFE,
    LIFE_RULES,
    Colour,
    advantage_of,
    grid_of,
    initialize,
    parse_life_board,
    position_from_board,
    render_life_board,
    start_life,
    team_of,
)

SEED = bytes(range(32))
PLAYERS = ("alice", "bob", "carol")
CONTEXT = TurnContext(nweek=14, referee="referee", players=PLAYERS)


def initialized(
    context_id: str = "init", match: FieldMatch = LIFE
) -> tuple[FieldState, DrawSource]:
    state = start_life(FieldState(), CONTEXT, DrawSource(SEED, "select"), match).state
    source = DrawSource(SEED, context_id)
    return initialize(state, CONTEXT, source).state, source


def draws_by_purpose(source: DrawSource) -> dict[str, Draw]:
    return {draw.purpose: draw for draw in source.draws}


def chosen(draw: Draw) -> str:
    return draw.options[draw.result[0]]


def test_life_is_a_valid_field_match_and_selecting_it_sets_the_field() -> None:
    assert validate_match(LIFE) == ()
    state = start_life(FieldState(), CONTEXT, DrawSource(SEED, "select")).state
    assert state.geometry.describe() == "5 x 5 torus" and state.objects == ()
    with pytest.raises(IllegalActionError, match="Life is already the Current Field Match"):
        start_life(state, CONTEXT, DrawSource(SEED, "again"))


def test_every_square_gets_a_cell_coloured_as_the_published_draws_say() -> None:
    state, source = initialized()
    draws = draws_by_purpose(source)
    grid = grid_of(state)
    assert len(state.objects) == 25
    for square in range(25):
        name = state.geometry.format_square(square)
        number = draws[f"Initialize: Cell {name} (1-11 null)"]
        assert number.kind is DrawKind.RANDINT and number.bounds == (1, 16)
        colour = draws.get(f"Initialize: colour of Cell {name}")
        assert (number.result[0] <= 11) == (colour is None)
        expected = None if colour is None else Colour(chosen(colour))
        assert grid.colour_at(square) is expected


def test_teams_and_advantage_are_drawn_and_every_draw_replays() -> None:
    state, source = initialized()
    draws = draws_by_purpose(source)
    for player in PLAYERS:
        assert team_of(state, player) is Colour(chosen(draws[f"Initialize: Team of {player}"]))
    assert advantage_of(state) is Colour(chosen(draws["Initialize: Advantage"]))
    assert all(replay_draw(SEED, "init", draw) == draw for draw in source.draws)


def test_the_cells_enter_the_priority_list_in_the_drawn_order() -> None:
    state, source = initialized()
    shuffle = source.draws[-1]
    assert shuffle.purpose == "Initialize: Priority List order of 25 new Field Objects"
    order = [shuffle.options[index] for index in shuffle.result]
    labels = [
        f"Cell #{item.object_id} at {state.geometry.format_square(item.square or 0)}"
        for item in state.objects
    ]
    assert labels == order


def test_about_eleven_cells_in_sixteen_are_null() -> None:
    # 200 Fields of 25 Cells: the null count's standard deviation is about 33.
    counts = Counter(grid_of(initialized(f"fairness {run}")[0]).population for run in range(200))
    coloured = sum(population * times for population, times in counts.items())
    assert abs(coloured - 5000 * 5 / 16) < 5 * 33


def test_initialize_happens_once_and_only_by_the_referee() -> None:
    state, _ = initialized()
    with pytest.raises(IllegalActionError) as refused:
        initialize(state, CONTEXT, DrawSource(SEED, "again"))
    assert refused.value.message == "Life is already initialized: Cells exist"
    assert refused.value.rule == "Life: Initialize (seed 000)"
    fresh = start_life(FieldState(), CONTEXT, DrawSource(SEED, "s")).state
    request = Request("alice", "Initialize")
    result = turn_field(fresh, LIFE_RULES, (request,), CONTEXT, DrawSource(SEED, "x"))
    assert [r.message for r in result.record.refusals] == ["only the Referee may Initialize Life"]


@pytest.mark.parametrize(("chance", "coloured"), [([0, 16], 42), ([16, 16], 0)])
def test_the_size_and_the_null_chance_are_data_of_the_match(
    chance: list[int], coloured: int
) -> None:
    document = match_to_json(LIFE)
    document.update(rows=6, columns=7)
    document["parameters"]["null chance"] = chance
    amended = match_from_json(json.loads(json.dumps(document)))
    assert validate_match(amended) == ()
    state, _ = initialized("amended", amended)
    assert len(state.objects) == 42 and grid_of(state).population == coloured


def test_the_board_mailed_back_shows_the_grid_the_advantage_and_the_teams() -> None:
    text = """Life: 5 x 5 torus
   A B C D E
5  . . . . .
4  . . R . .
3  . G R B .
2  . . R . .
1  . . . . .
Advantage: Green
Red team: alice, carol
Green team: none
Blue team: bob
No team: dave"""
    state = position_from_board(text)
    assert render_life_board(state, ("alice", "bob", "carol", "dave")) == text
    board = parse_life_board(text)
    assert board.advantage is Colour.GREEN
    assert board.teams == (
        ("alice", Colour.RED),
        ("carol", Colour.RED),
        ("bob", Colour.BLUE),
        ("dave", None),
    )
    everyone_placed = render_life_board(state, ("alice", "bob", "carol"))
    assert everyone_placed.endswith("Blue team: bob")


def test_a_board_of_the_wrong_size_is_not_a_position_of_the_match() -> None:
    with pytest.raises(ValueError, match="the board is 3 x 3 torus, Life is 5 x 5 torus"):
        position_from_board(". . .\n. R .\n. . .")
    assert position_from_board(". . .\n. R .\n. . .", replace(LIFE, rows=3, columns=3)).objects
