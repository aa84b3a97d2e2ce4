"""Replay real 19x19 KGS games and compare every capture with sgfmill's Board.

Two players without Allies play ordinary Go under rule 1639 D, so each Dragon
is a plain group and captures must match sgfmill exactly.  The games are read
in place from the shared corpora (``go/kgs_sample``).
"""

from __future__ import annotations

from pathlib import Path

from sgfmill import boards, sgf  # type: ignore[import-untyped]

from bot.games.go import (
    DragonCaptured,
    GoParameters,
    GoState,
    MoveContext,
    add_players,
    new_game,
    pass_move,
    place_stone,
    with_stones,
)

SIZE = 19


def test_kgs_games_capture_exactly_as_sgfmill(corpora: Path) -> None:
    files = sorted((corpora / "go" / "kgs_sample").glob("*.sgf"))
    assert files, "the KGS sample is missing from the corpora"
    replayed = 0
    for path in files:
        game = sgf.Sgf_game.from_bytes(path.read_bytes())
        if game.get_size() == SIZE:
            replayed += _replay(game, path.name)
    assert replayed > 40_000


def _replay(game: sgf.Sgf_game, name: str) -> int:
    black, white, _ = game.get_root().get_setup_stones()
    reference = boards.Board(SIZE)
    reference.apply_setup(black, white, [])
    state = _set_up(black, white)
    moves = [node.get_move() for node in game.get_main_sequence()[1:]]
    moves = [(colour, move) for colour, move in moves if colour is not None]
    for period, (colour, move) in enumerate(moves):
        context = MoveContext(colour, period)
        if move is None:
            state = pass_move(state, context).state
            continue
        before = _stone_count(reference)
        reference.play(move[0], move[1], colour)
        result = place_stone(state, context, move[0] * SIZE + move[1])
        captured = sum(len(e.stones) for e in result.events if isinstance(e, DragonCaptured))
        assert captured == before + 1 - _stone_count(reference), f"{name} move {period + 1}"
        state = result.state
    assert state.stones == _stones_of(reference), name
    return len(moves)


def _set_up(black: set[tuple[int, int]], white: set[tuple[int, int]]) -> GoState:
    state = add_players(new_game(GoParameters(size=SIZE)), ["b", "w"])
    stones = {row * SIZE + column: "b" for row, column in black}
    stones |= {row * SIZE + column: "w" for row, column in white}
    return with_stones(state, stones) if stones else state


def _stones_of(reference: boards.Board) -> dict[int, str]:
    return {
        row * SIZE + column: colour
        for row, column in reference.board_points
        if (colour := reference.get(row, column)) is not None
    }


def _stone_count(reference: boards.Board) -> int:
    # sgfmill keeps rows as lists with None for empty points.
    empty: int = sum(row.count(None) for row in reference.board)
    return SIZE * SIZE - empty
