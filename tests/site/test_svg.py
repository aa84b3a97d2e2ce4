"""The boards as pictures (pure SVG beside the rules' text renderers), and page names."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path
from xml.etree import ElementTree

import pytest

from bot.engine.views import game_view
from bot.games.field.life.grid import parse_grid, render_grid
from bot.games.field.svg import board_rows, column_header, grid_svg
from bot.games.go.render import parse_board
from bot.games.go.svg import board_svg, player_colour
from bot.site import build_site
from bot.site.pages import slug
from bot.testing import go_game
from bot.testing.field_matches import RITA, FieldTable, field_app, nweek_start

SVG = "{http://www.w3.org/2000/svg}"


def stones_of(svg: str) -> dict[str, str]:
    """Each placed stone's point and its owner, the ``data-owner`` of its player's group."""
    root = ElementTree.fromstring(svg)
    return {
        stone.get("data-point", ""): group.get("data-owner", "")
        for group in root.iter(f"{SVG}g")
        if group.get("class") == "stones"
        for stone in group.iter(f"{SVG}use")
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


def test_a_life_match_is_drawn_on_the_field_page(tmp_path: Path) -> None:
    # Rita, the Referee, selects and initializes Life (seeds 003 and 000).
    table = FieldTable(field_app(tmp_path / "bot"))
    table.post(
        RITA, nweek_start(0) + timedelta(hours=10), "I select Life as the Current Field Match."
    )
    table.post(RITA, nweek_start(0) + timedelta(hours=11), "I initialize the field.")
    with table.app.session_factory() as session:
        data = game_view(session, table.app.services, "field").data
    board = data["board"]
    site = tmp_path / "site"
    build_site(table.app, site, at=nweek_start(0) + timedelta(hours=12))
    table.app.dispose()
    page = (site / "view-field.html").read_text()
    cells = [cell for _, row in board_rows(board) for cell in row]
    assert page.count('<g class="cell"') == len(cells)
    assert len(cells) == 25  # a 5 x 5 torus (seed 000)
    # Every square holds a Cell, null (".") or coloured (seed 000: Initialize).
    assert len([item for item in data["objects"] if item["square"]]) == len(cells)
    assert 0 < sum(cell != "." for cell in cells) < len(cells)
    assert column_header(board) == ["A", "B", "C", "D", "E"]
    assert page.count('class="cell" data-letter=".') == cells.count(".")


def test_names_that_differ_get_pages_that_differ() -> None:
    names = ["Alice", "Bob the Voting Fish", "Bob-the-Voting-Fish", "Ærin", "rin", "Erin!"]
    slugs = [slug(name) for name in names]
    assert len(set(slugs)) == len(names)
    assert slugs[0] == "Alice"
    assert all(re.fullmatch(r"[A-Za-z0-9_-]+", item) for item in slugs)
