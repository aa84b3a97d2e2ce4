"""The boards as pictures: the pure SVG renderers beside the rules' text renderers."""

from __future__ import annotations

from xml.etree import ElementTree

import pytest

from bot.games.field.life.grid import parse_grid, render_grid
from bot.games.field.svg import grid_svg
from bot.games.go.render import parse_board
from bot.games.go.svg import board_svg, player_colour
from bot.testing import go_game

SVG = "{http://www.w3.org/2000/svg}"


def stones_of(svg: str) -> dict[str, str]:
    root = ElementTree.fromstring(svg)
    return {
        stone.get("data-point", ""): stone.get("data-owner", "") for stone in root.iter(f"{SVG}use")
    }


def test_the_go_picture_holds_the_stones_of_the_rules_board() -> None:
    marks = {"Alice": "a", "Bob": "b"}
    stones = {point: owner for point, owner in _board_points().items()}
    svg = board_svg(9, stones, ["Alice", "Bob"], marks, last_move="G3")
    assert stones_of(svg) == stones
    assert set(stones) == go_game.FINAL_ALICE | go_game.FINAL_BOB
    root = ElementTree.fromstring(svg)
    assert (
        root.findtext(f"{SVG}title")
        == "A 9x9 Political Go board with 19 stones; the last Move was G3"
    )
    drawn = {use.get("href") for use in root.iter(f"{SVG}use")}
    assert drawn == {"#stone-0", "#stone-1"}
    circles = {group.get("id"): group.find(f"{SVG}circle") for group in root.iter(f"{SVG}g")}
    fills = {name: circle.get("fill") for name, circle in circles.items() if circle is not None}
    assert fills == {"stone-0": player_colour(0), "stone-1": player_colour(1)}


def _board_points() -> dict[str, str]:
    names = {"a": "Alice", "b": "Bob"}
    labels = "ABCDEFGHI"
    return {
        f"{labels[point % 9]}{point // 9 + 1}": names[mark]
        for point, mark in parse_board(go_game.EXPECTED_BOARD).items()
    }


def test_a_stone_of_someone_not_playing_is_refused() -> None:
    with pytest.raises(ValueError, match="Carol"):
        board_svg(9, {"E5": "Carol"}, ["Alice"], {"Alice": "a"})


def test_the_field_picture_draws_every_cell_of_the_text_board() -> None:
    text = render_grid(parse_grid(". R .\nG . B\n. . ."))
    root = ElementTree.fromstring(grid_svg(text))
    letters = [group.get("data-letter") for group in root.iter(f"{SVG}g")]
    assert letters == [".", "R", ".", "G", ".", "B", ".", ".", "."]
