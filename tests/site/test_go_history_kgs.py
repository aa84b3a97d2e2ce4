"""Issue 15, acceptance 4: stepping to Move N of a KGS game shows sgfmill's position after N.

A sample of the ``go/kgs_sample`` records (the shortest even game and the
shortest handicap game of at least ``MINIMUM_PLACEMENTS`` placements, so
that set-up stones are in it) is replayed as mail
under rule set A (``bot.testing.kgs``), the site is built from the
database, and the board of ``go-move-N`` is compared with sgfmill's after
the set-up and the first N placements, for every N.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sgfmill import boards  # type: ignore[import-untyped]

from bot.app import build_app
from bot.config import load_settings
from bot.site import build_site
from bot.testing import kgs

SAMPLE_SIZE = 2
MINIMUM_PLACEMENTS = 30


def sample(records: list[kgs.KgsGame]) -> list[kgs.KgsGame]:
    playable = sorted(
        (
            game
            for game in records
            if not game.places_twice_in_a_row and len(game.placements) >= MINIMUM_PLACEMENTS
        ),
        key=lambda game: len(game.placements),
    )
    even = next(game for game in playable if not game.is_handicap)
    handicap = next(game for game in playable if game.is_handicap)
    return [even, handicap]


def sgfmill_positions(game: kgs.KgsGame) -> list[dict[str, str]]:
    """sgfmill's stones after each placement: point -> "Black"/"White"."""
    board = boards.Board(game.size)
    vertex = {point: (int(point[1:]) - 1, kgs.FILES.index(point[0])) for _, point in game.setup}
    board.apply_setup(
        [vertex[point] for colour, point in game.setup if colour == "b"],
        [vertex[point] for colour, point in game.setup if colour == "w"],
        [],
    )
    positions = []
    for colour, point in game.placements:
        board.play(int(point[1:]) - 1, kgs.FILES.index(point[0]), colour)
        positions.append(
            {
                kgs.point_name(row, column): kgs.PLAYERS[stone][0]
                for stone, (row, column) in board.list_occupied_points()
            }
        )
    return positions


@pytest.mark.parametrize("index", range(SAMPLE_SIZE))
def test_each_move_page_shows_sgfmills_position(corpora: Path, tmp_path: Path, index: int) -> None:
    game = sample(kgs.load_games(corpora / "go" / "kgs_sample"))[index]
    outcome = kgs.replay_as_mail(str(game.path), str(tmp_path))
    assert outcome.same_stones and not outcome.refusals
    app = build_app(load_settings(tmp_path / "bot" / "nomicbot.toml"))
    site = tmp_path / "site"
    try:
        build_site(app, site)
    finally:
        app.dispose()
    expected = sgfmill_positions(game)
    assert len(expected) >= MINIMUM_PLACEMENTS
    for number, stones in enumerate(expected, start=1):
        page = json.loads((site / f"go-move-{number}.json").read_text())["data"]
        assert page["stones"] == stones, f"{game.name}, Move {number}"
    assert not (site / f"go-move-{len(expected) + 1}.html").exists()
