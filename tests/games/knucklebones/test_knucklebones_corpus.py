"""Every case of ``knucklebones/knucklebones_cases.json`` through the pure rules.

The corpus (see its PROVENANCE.md) gathers Cult of the Lamb Knucklebones
cases from three public test suites: placements with destruction and the
mover's score (AradD7/Go-Knucklebones), matrix scores, a destruction table
and a game's end (CodingMentalModels/knucklebones-solver), and a two-matrix
score (bertrand-sifre/cutl-knucklebones).  Its rule of scoring, "a value v
appearing k times contributes v*k*k", is seed 001's rule Knucklebones/Winning.

Orientation: AradD7's boards are ``board[row][col]`` with row 0 at the top
and dice falling to the bottom, so a column read from the bottom up is our
column in the order inserted.  That source re-packs a column after dice are
destroyed (PROVENANCE's caveat); seed 001 says "the row a dice is inserted
in has no relevance to the game", and our columns close up too, so even the
order of the dice left agrees.  The solver's boards are not packed (a die
may stand above an empty cell): only which dice stand in which column
matters, so those are compared per column as multisets.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.games.knucklebones import (
    EMPTY_MATRIX,
    DiceDestroyed,
    Game,
    GameEnded,
    KnucklebonesState,
    Matrix,
    Phase,
    PlaceDie,
    PrizeAwarded,
    apply,
    is_full,
    matrix_from_columns,
    matrix_from_rows,
    matrix_score,
)

EXPECTED_CASES = 20
NOTIFIED = datetime(2026, 1, 4, 12, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def cases(corpora: Path) -> list[dict[str, Any]]:
    path = corpora / "knucklebones" / "knucklebones_cases.json"
    if not path.is_file():
        pytest.skip(f"the Knucklebones corpus {path} is absent")
    loaded: list[dict[str, Any]] = json.loads(path.read_text())["cases"]
    return loaded


def gravity_matrix(board: Sequence[Sequence[int]]) -> Matrix:
    """AradD7's ``board[row][col]`` (row 0 on top, 0 empty), each column bottom-up."""
    return matrix_from_rows([list(row) for row in reversed(board)])


def text_matrix(text: str) -> Matrix:
    """The solver's rows of digits, "_" for an empty cell."""
    return matrix_from_rows(
        [[None if cell == "_" else int(cell) for cell in line] for line in text.splitlines()]
    )


def as_multisets(matrix: Matrix) -> list[list[int]]:
    return [sorted(column) for column in matrix]


def one_turn(mine: Matrix, theirs: Matrix, die: int, column: int) -> tuple[Game, tuple[Any, ...]]:
    """ "Player" (to move, notified with ``die``) puts it in ``column`` (1 to 3)."""
    game = Game(1, ("Player", "Opponent"), (mine, theirs), roll=die, notified_at=NOTIFIED)
    state = KnucklebonesState(phase=Phase.BATTLE, games=(game,))
    after, events = apply(state, PlaceDie("Player", column))
    return after.game(1), events


def check_placement(case: dict[str, Any]) -> None:
    game, events = one_turn(
        gravity_matrix(case["player_board"]),
        gravity_matrix(case["opponent_board"]),
        case["die"],
        case["col"] + 1,
    )
    assert game.matrices[0] == gravity_matrix(case["expected_player_board"])
    assert game.matrices[1] == gravity_matrix(case["expected_opponent_board"])
    assert game.scores[0] == case["expected_player_score"]
    destroyed = sum(event.count for event in events if isinstance(event, DiceDestroyed))
    before = sum(len(column) for column in gravity_matrix(case["opponent_board"]))
    assert destroyed == before - sum(len(column) for column in game.matrices[1])


def check_score(case: dict[str, Any]) -> None:
    assert matrix_score(text_matrix(case["board"])) == case["expected_score"]


def check_eliminations(case: dict[str, Any]) -> None:
    # The solver's board is the opponent's; "Player" places each die in turn.
    board = text_matrix(case["board"])
    for elimination in case["eliminate"]:
        game, _ = one_turn(EMPTY_MATRIX, board, elimination["die"], elimination["column"] + 1)
        assert as_multisets(game.matrices[1]) == as_multisets(text_matrix(elimination["expected"]))


def check_game_end(case: dict[str, Any]) -> None:
    # "after the move player 1 board is full (game over); scores 27 vs 44"
    row, column = case["move_row_col"]
    first, second = text_matrix(case["player1_board"]), text_matrix(case["player2_board"])
    game, events = one_turn(first, second, case["player1_die"], column + 1)
    assert is_full(game.matrices[0])
    assert game.outcome is not None
    assert game.outcome.scores == (27, 44)
    assert GameEnded(1, game.outcome.reason, "Opponent", (27, 44)) in events
    assert PrizeAwarded(1, "Opponent", ("Handy Pack", "Chip")) in events
    assert row == 2  # the empty cell the solver fills; rows have no relevance here


def check_two_matrices(case: dict[str, Any]) -> None:
    first, second = (matrix_from_columns(columns) for columns in case["board"])
    assert (matrix_score(first), matrix_score(second)) == (
        case["expected_player1"],
        case["expected_player2"],
    )


def check_case(case: dict[str, Any]) -> None:
    if "player_board" in case:
        check_placement(case)
    elif "eliminate" in case:
        check_eliminations(case)
    elif "player1_board" in case:
        check_game_end(case)
    elif "expected_player1" in case:
        check_two_matrices(case)
    else:
        check_score(case)


def test_the_corpus_holds_every_case(cases: list[dict[str, Any]]) -> None:
    assert len(cases) == EXPECTED_CASES


@pytest.mark.parametrize("index", range(EXPECTED_CASES))
def test_case_agrees_with_the_seed(cases: list[dict[str, Any]], index: int) -> None:
    check_case(cases[index])
