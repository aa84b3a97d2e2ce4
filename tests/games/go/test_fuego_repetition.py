"""Fuego's positional-superko regression cases (rule 1639 E, seed 004).

Between two players without Allies, rule 1639 E is positional superko: no
placement may recreate any earlier board.  Fuego's ``repetition.tst`` asks
``is_legal`` under ``pos_superko`` for five positions; the cases are read in
place from the shared corpora (``go/rules_expectations.jsonl``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sgfmill import common, sgf  # type: ignore[import-untyped]

from bot.games.errors import IllegalActionError
from bot.games.go import (
    GoParameters,
    GoState,
    InMemoryHistory,
    MoveContext,
    add_players,
    new_game,
    pass_move,
    place_stone,
    with_stones,
)

NO_CHECK = InMemoryHistory({})


def superko_cases(corpora: Path) -> list[dict[str, Any]]:
    lines = (corpora / "go" / "rules_expectations.jsonl").read_text().splitlines()
    rows = [json.loads(line) for line in lines if line.strip()]
    return [
        row
        for row in rows
        if row["command"] == "is_legal"
        and row["go_param_rules_in_effect"].get("ko_rule") == "pos_superko"
    ]


def test_fuego_positional_superko_cases(corpora: Path) -> None:
    cases = superko_cases(corpora)
    assert len(cases) == 5
    for case in cases:
        game = sgf.Sgf_game.from_bytes((corpora / "go" / case["sgf"]).read_bytes())
        state, period = _loaded(game, case["load_until"])
        colour, vertex = case["args"].split()
        row, column = common.move_from_vertex(vertex, game.get_size())
        legal = _is_legal(state, MoveContext(colour, period), row * game.get_size() + column)
        assert legal == (case["expected_regex"] == "1"), f"{case['sgf']} {case['args']}"


def _loaded(game: sgf.Sgf_game, load_until: str | None) -> tuple[GoState, int]:
    # GTP ``loadsgf file N`` gives the position before move N is played.  The
    # recorded games repeat positions on purpose, and like Fuego's loader the
    # moves are replayed without the repetition check but still recorded.
    size = game.get_size()
    black, white, _ = game.get_root().get_setup_stones()
    state = add_players(new_game(GoParameters(size=size)), ["b", "w"])
    stones = {row * size + column: "b" for row, column in black}
    state = with_stones(state, stones | {row * size + column: "w" for row, column in white})
    moves = [node.get_move() for node in game.get_main_sequence()[1:]]
    moves = [(colour, move) for colour, move in moves if colour is not None]
    if load_until is not None:
        moves = moves[: int(load_until) - 1]
    for period, (colour, move) in enumerate(moves):
        context = MoveContext(colour, period)
        if move is None:
            state = pass_move(state, context).state
        else:
            point = move[0] * size + move[1]
            state = place_stone(state, context, point, history=NO_CHECK).state
    return state, len(moves)


def _is_legal(state: GoState, context: MoveContext, point: int) -> bool:
    try:
        place_stone(state, context, point)
    except IllegalActionError as error:
        assert error.rule == "1639 E", error.message
        return False
    return True


@pytest.mark.parametrize("vertex", ["b1", "c9"])
def test_gtp_vertices_skip_the_letter_i(vertex: str) -> None:
    # Guard for the conversion above: GTP has no column I, our 9x9 board does.
    row, column = common.move_from_vertex(vertex, 9)
    assert column == "abcdefgh".index(vertex[0])
    assert row == int(vertex[1:]) - 1
