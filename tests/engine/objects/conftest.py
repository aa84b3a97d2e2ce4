"""A bot with players Alice and Bob, and the objects they hold, for the objects tests.

Everything is real: the SQLite schema from the migrations, the pipeline, the
engine and the outbox.  ``Bot.post`` stores one post at an instant and lets
the worker judge it, as the daemon would.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from bot.app import App
from bot.engine.worker import process_queue
from bot.posts import compose_post
from bot.runner import store_message
from bot.store.models import Player
from bot.testing import go_game
from bot.testing.apps import make_app
from bot.testing.judged import recorded_rulings, reply_body


class Bot:
    """The game under test: post as someone, then read the ruling's record and reply."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.count = 0

    @staticmethod
    def at(hours: float) -> datetime:
        return go_game.EPOCH + timedelta(hours=hours)

    def post(
        self, author: tuple[str, str], body: str, at: datetime, private: bool = False
    ) -> tuple[list[tuple[str, str, str, str]], str]:
        """``body`` to the list (or, ``private``, to the bot alone): (rulings, reply body)."""
        self.count += 1
        identifier = f"objects-{self.count:03d}@example.test"
        to = go_game.BOT_ADDRESS if private else go_game.LIST_ADDRESS
        vouched_by = go_game.RECEIVING_SERVER if private else ""
        raw = compose_post(
            *author, "[Nomic] Objects", body, identifier, at, to=to, vouched_by=vouched_by
        )
        store_message(self.app, raw, "smtp", at)
        process_queue(self.app.session_factory, self.app.services)
        return recorded_rulings(self.app, identifier), reply_body(self.app, identifier)

    def player_id(self, name: str) -> int:
        with self.app.session_factory() as session:
            found = session.scalar(select(Player.id).where(Player.name == name))
        assert found is not None, f"no player {name}"
        return found


@pytest.fixture
def bot(tmp_path: Path) -> Iterator[Bot]:
    app = make_app(tmp_path / "bot")
    yield Bot(app)
    app.dispose()
