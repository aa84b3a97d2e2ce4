"""The board mailed after each turn: both matrices, scores, destroyed dice, whose turn."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.games.errors import ActionSyntaxError
from bot.games.knucklebones import (
    ClockStop,
    EndReason,
    ExpireTurn,
    Game,
    KnucklebonesState,
    LastTurn,
    Outcome,
    Phase,
    apply,
    forfeit_deadline,
    matrix_from_columns,
    parse_matrices,
    render_game,
)

NOTIFIED = datetime(2026, 1, 4, 12, 0, tzinfo=UTC)

BOARD_AFTER_ALICES_SIX = """\
Knucklebones game 1: Alice v Bob

Alice                      Bob
column   1   2   3         column   1   2   3
row 1    4   6   .         row 1    2   .   5
row 2    4   .   .         row 2    .   .   .
row 3    1   .   .         row 3    .   .   .
points  17   6   0         points   2   0   5
score   23                 score    7

Last turn: Alice put a 6 in column 2, destroying 2 of Bob's 6s.
Bob's turn: Bob rolled a 5 (notified 2026-01-04 12:00 UTC).
Bob chooses column 1, 2 or 3 by 2026-01-05 12:00 UTC, or forfeits.
"""


def game_after_alices_six() -> Game:
    matrices = (matrix_from_columns([[4, 4, 1], [6], []]), matrix_from_columns([[2], [], [5]]))
    return Game(
        1,
        ("Alice", "Bob"),
        matrices,
        to_move=1,
        roll=5,
        notified_at=NOTIFIED,
        turns=5,
        last_turn=LastTurn("Alice", 6, 2, 2),
    )


def test_the_board_after_a_turn() -> None:
    assert render_game(game_after_alices_six()) == BOARD_AFTER_ALICES_SIX


def test_the_board_reads_back() -> None:
    game = game_after_alices_six()
    assert parse_matrices(render_game(game)) == game.matrices
    with pytest.raises(ActionSyntaxError):
        parse_matrices("row 1 . . .")


def test_a_full_column_is_not_offered_and_a_clock_stop_moves_the_deadline() -> None:
    matrices = (matrix_from_columns([[], [], []]), matrix_from_columns([[1, 2, 3], [], [4]]))
    game = Game(2, ("Alice", "Bob"), matrices, to_move=1, roll=1, notified_at=NOTIFIED)
    stop = ClockStop(NOTIFIED, NOTIFIED + timedelta(hours=2))
    text = render_game(game, deadline=forfeit_deadline(NOTIFIED, (stop,)))
    assert text.endswith("Bob chooses column 2 or 3 by 2026-01-05 14:00 UTC, or forfeits.\n")


def test_a_single_destroyed_die_and_the_start_of_a_game() -> None:
    game = Game(3, ("Carol", "Dave"), last_turn=LastTurn("Dave", 3, 1, 1), to_move=0)
    text = render_game(game)
    assert "Last turn: Dave put a 3 in column 1, destroying Carol's 3.\n" in text
    assert text.endswith("Carol's turn: Carol is to be notified.\n")


def test_the_result_lines() -> None:
    full = Outcome(EndReason.FULL_MATRIX, "Alice", (66, 9))
    won = render_game(Game(1, ("Alice", "Bob"), outcome=full))
    assert won.endswith(
        "Game over: a matrix is full, 66 to 9; Alice wins and gains one Handy Pack and one Chip.\n"
    )
    tie = Outcome(EndReason.FULL_MATRIX, None, (18, 18))
    assert render_game(Game(1, ("Alice", "Bob"), outcome=tie)).endswith(
        "Game over: a matrix is full, 18 to 18; equal scores, so the game ends without a winner.\n"
    )
    state = KnucklebonesState(Phase.BATTLE, games=(game_after_alices_six(),))
    state, _ = apply(state, ExpireTurn(1, NOTIFIED + timedelta(days=1)))
    assert render_game(state.game(1)).endswith(
        "Game over: Bob did not take eir turn within 24 hours and forfeits; "
        "Alice wins and gains one Handy Pack and one Chip.\n"
    )
