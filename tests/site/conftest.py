"""The site tests' databases, each played once per test session (bot/testing/site_games.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.app import App
from bot.testing.site_games import PlayedWeek, play_go_game, play_week


@pytest.fixture(scope="session")
def week_played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayedWeek]:
    played = play_week(tmp_path_factory.mktemp("week"))
    yield played
    played.app.dispose()


@pytest.fixture(scope="session")
def week_app_played(week_played: PlayedWeek) -> App:
    """The governance nweek, judged to its end (the Ballot closed, the private vote revealed)."""
    return week_played.app


@pytest.fixture(scope="session")
def go_app_played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    app = play_go_game(tmp_path_factory.mktemp("go"))
    yield app
    app.dispose()
