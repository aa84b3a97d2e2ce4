"""A nomic of any size: no view, board or replay raises because of how many players there are.

Trust II, item 5: with 56 registered players every view of rule set B's
Political Go raised ``no board mark is left for 'Player55'``, because the
board gave every registered player a one-character mark.  Rule 1639 H's
legend now lists the players in the game (stones, a Go Score or an Ally),
marks are given only to players whose stones or alliances need one, and
past the 55 ASCII marks further single characters are drawn from a fixed
list (docs/readings.md, rule 1639 H).
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from bot.app import App
from bot.config import PlayerEntry
from bot.engine.views import game_view
from bot.games.errors import IllegalActionError
from bot.games.go import (
    MoveContext,
    add_players,
    format_point,
    new_game,
    parse_board,
    parse_legend,
    pass_move,
)
from bot.games.go.state import MAXIMUM_PLAYERS
from bot.outbound.transports import MaildirTransport
from bot.posts import compose_post, mbox_from_line
from bot.runner import advance_to, replay_archive
from bot.testing.apps import make_app, write_mbox
from bot.testing.go_game import EPOCH


def roster_of(count: int) -> tuple[PlayerEntry, ...]:
    return tuple(
        PlayerEntry(f"Player{number}", (f"player{number}@example.test",)) for number in range(count)
    )


def author(number: int) -> tuple[str, str]:
    return f"Player{number}", f"player{number}@example.test"


def every_view(app: App) -> dict[str, str]:
    """The text of every ``nomicbot state`` view."""
    names = ("go", "players", "holdings", "ministries", "elections", "digests", "field")
    with app.session_factory() as session:
        return {name: game_view(session, app.services, name).text for name in names}


@pytest.mark.parametrize("count", [56, 300])
def test_every_view_of_a_large_nomic_with_nobody_playing_go(tmp_path: Path, count: int) -> None:
    app = make_app(tmp_path / "bot", players=roster_of(count))
    advance_to(app, EPOCH + timedelta(days=4))  # past the first Checkpoint (rule 1639 F)
    views = every_view(app)
    # Nobody is in the game: no legend line, and no mark handed out.
    assert "points Allies" not in views["go"]
    with app.session_factory() as session:
        data = game_view(session, app.services, "go").data
    assert data["marks"] == {} and data["stones"] == {}


def spread_points(size: int = 9) -> list[str]:
    """Points whose stones all keep a Liberty: every other point is next to an empty one.

    The empty points are those with (row + 2 * column) % 5 == 0 (a perfect
    cover of the grid); a point whose cover falls off the board stays empty
    too.  With one stone per player nothing is ever captured.
    """
    empty = {
        (row, column)
        for row in range(size)
        for column in range(size)
        if (row + 2 * column) % 5 == 0
    }
    points = []
    for row in range(size):
        for column in range(size):
            around = [(row + dr, column + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))]
            if (row, column) not in empty and any(point in empty for point in around):
                points.append(f"{'ABCDEFGHI'[column]}{row + 1}")
    return points


def test_57_players_on_the_board_read_back_past_the_checkpoints(tmp_path: Path) -> None:
    points = spread_points()
    count = len(points)
    assert count == 57  # two more than the ASCII marks of a 9x9 board
    posts = []
    for number in range(count):
        when = EPOCH + timedelta(hours=1, minutes=number)
        name, address = author(number)
        body = f"I place a stone at {points[number]}."
        raw = compose_post(name, address, "[Nomic] Go", body, f"m-{number}@example.test", when)
        posts.append((raw, mbox_from_line(address, when)))
    write_mbox(tmp_path / "posts.mbox", posts)
    app = make_app(tmp_path / "bot", players=roster_of(count))
    until = EPOCH + timedelta(days=16)  # past four Checkpoints and an nweek's start
    replay_archive(app, tmp_path / "posts.mbox", MaildirTransport(tmp_path / "out"), until=until)
    views = every_view(app)
    with app.session_factory() as session:
        data = game_view(session, app.services, "go").data
    assert len(data["stones"]) == count and len(data["marks"]) == count
    # Rule 1639 H: one character per point and per legend entry, all read back.
    marks = {name: mark for name, mark in data["marks"].items()}
    assert len(set(marks.values())) == count and all(len(mark) == 1 for mark in marks.values())
    assert "Γ" in marks.values()  # the first mark past the 55 ASCII ones
    legend = {entry.mark: entry.name for entry in parse_legend(views["go"])}
    assert legend == {mark: name for name, mark in marks.items()}
    drawn = {
        format_point(point, 9): legend[mark] for point, mark in parse_board(views["go"]).items()
    }
    assert drawn == data["stones"]


def test_the_256th_player_in_a_game_is_refused_not_crashed() -> None:
    state = add_players(new_game(), [f"Player{number}" for number in range(MAXIMUM_PLAYERS)])
    with pytest.raises(IllegalActionError, match="at most 255 players") as refused:
        pass_move(state, MoveContext("Player255", 0))
    assert refused.value.rule == "1639 A"
