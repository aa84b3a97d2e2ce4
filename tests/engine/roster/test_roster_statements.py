"""The roster's work does not grow with the number of players (rules 14, 151, 205).

Counted in SQL statements, not timed: a registration ruling, a forfeit, a
rename, the roster view and the start-up sync of the configured players
send as many statements to the database with 200 players as with 10, and
so does the Twiddler's display of holdings (rule 21 A.2).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, event, select

from bot.app import App, build_app
from bot.config import PlayerEntry
from bot.engine.views import game_view
from bot.engine.worker import process_queue
from bot.posts import compose_post
from bot.runner import store_message
from bot.store.models import Player, PlayerAddress
from bot.testing import go_game
from bot.testing.apps import make_app
from bot.testing.judged import recorded_rulings
from bot.testing.statements import counted


def configured(count: int) -> tuple[PlayerEntry, ...]:
    return tuple(
        PlayerEntry(f"Player{number}", (f"player{number}@example.test",)) for number in range(count)
    )


def post(app: App, author: tuple[str, str], body: str, number: int) -> str:
    """Judge one post by ``author`` at ``number`` minutes past 01:00 of nday 1; its rulings."""
    identifier = f"cost-{number:03d}@example.test"
    at = go_game.EPOCH + timedelta(hours=1, minutes=number)
    raw = compose_post(*author, "[Nomic] Roster", body, identifier, at)
    store_message(app, raw, "smtp", at)
    process_queue(app.session_factory, app.services)
    return " ".join(ruling for _action, ruling, _rule, _text in recorded_rulings(app, identifier))


def statements_of_roster_posts(folder: Path, players: int) -> dict[str, int]:
    """How many statements each kind of roster post takes with ``players`` configured."""
    app = make_app(folder, players=configured(players))
    try:
        # The first post of the nweek runs its timed events (rule 212's Bandwidth
        # for each player): that is the scheduler's work, not the roster's.
        assert post(app, ("Dana", "dana@example.test"), "I join the game as Dana.", 0) == "applied"
        counts: dict[str, int] = {}
        steps: list[tuple[str, tuple[str, str], str]] = [
            ("register", ("Erin", "erin@example.test"), "I join the game as Erin."),
            ("rename", ("Erin", "erin@example.test"), "I change my name to Erinna."),
            ("leave", ("Erin", "erin@example.test"), "I go On Leave."),
            ("forfeit", ("Erin", "erin@example.test"), "I forfeit the game."),
        ]
        for number, (kind, author, body) in enumerate(steps, start=1):
            with counted(app.engine) as statements:
                assert post(app, author, body, number) == "applied", kind
            counts[kind] = len(statements)
        counts["players view"] = statements_of(app, lambda: view_text(app, "players"))
        counts["holdings view"] = statements_of(app, lambda: view_text(app, "holdings"))
        return counts
    finally:
        app.dispose()


def view_text(app: App, name: str) -> str:
    with app.session_factory() as session:
        return game_view(session, app.services, name).text


def statements_of(app: App, action: Callable[[], object]) -> int:
    with counted(app.engine) as statements:
        action()
    return len(statements)


def test_roster_posts_and_the_roster_view_take_as_many_statements_at_200_players_as_at_10(
    tmp_path: Path,
) -> None:
    few = statements_of_roster_posts(tmp_path / "few", 10)
    many = statements_of_roster_posts(tmp_path / "many", 200)
    assert many == few
    assert all(count > 0 for count in few.values())


def test_the_view_still_lists_every_player(tmp_path: Path) -> None:
    app = make_app(tmp_path / "bot", players=configured(200))
    try:
        lines = view_text(app, "players").splitlines()
    finally:
        app.dispose()
    assert lines[0] == "Players: 200 (0 On Leave)"
    assert len(lines) == 201 and lines[-1].split() == ["Player199", "configured", "1", "address"]


def start_statements(folder: Path, players: int) -> tuple[int, int]:
    """Statements of a first start with ``players`` configured, and of a restart."""
    with counted_builds() as first:
        app = make_app(folder, players=configured(players))
    app.dispose()
    with counted_builds() as restart:
        again = build_app(app.settings)
    try:
        with again.session_factory() as session:
            names = session.scalars(select(Player.name)).all()
            addresses = session.scalars(select(PlayerAddress.address)).all()
    finally:
        again.dispose()
    assert len(names) == players and len(addresses) == players  # nothing added twice
    return len(first), len(restart)


@contextmanager
def counted_builds() -> Iterator[list[str]]:
    """The statements of every engine made inside the block."""
    statements: list[str] = []

    def record(*arguments: Any) -> None:
        statements.append(arguments[2])

    event.listen(Engine, "before_cursor_execute", record)
    try:
        yield statements
    finally:
        event.remove(Engine, "before_cursor_execute", record)


def test_starting_with_200_configured_players_takes_as_many_statements_as_with_10(
    tmp_path: Path,
) -> None:
    assert start_statements(tmp_path / "few", 10) == start_statements(tmp_path / "many", 200)
