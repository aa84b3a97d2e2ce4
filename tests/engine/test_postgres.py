"""The same engine on PostgreSQL: migrations, the scripted game, concurrent ingest."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from bot.ingress.ingest import ingest
from bot.outbound.transports import MaildirTransport
from bot.runner import replay_archive
from bot.store.database import alembic_config
from bot.testing import go_game
from bot.testing.apps import action_log, board_text, make_app, message_statuses
from bot.testing.go_game import EXPECTED_BOARD, GAME_END, expected_log
from bot.testing.postgres import PostgresDatabase

_numbers = itertools.count(1)


@pytest.fixture
def database_url(postgres: PostgresDatabase) -> Iterator[str]:
    """A fresh, empty database on the session's PostgreSQL server."""
    name = f"nomicbot_case_{next(_numbers)}"
    server = create_engine(postgres.url, isolation_level="AUTOCOMMIT")
    with server.connect() as connection:
        connection.execute(text(f"DROP DATABASE IF EXISTS {name}"))
        connection.execute(text(f"CREATE DATABASE {name}"))
    url = make_url(postgres.url).set(database=name)
    yield url.render_as_string(hide_password=False)
    with server.connect() as connection:
        connection.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
    server.dispose()


def test_migrations_upgrade_check_and_downgrade(database_url: str) -> None:
    config = alembic_config(database_url)
    command.upgrade(config, "head")
    command.check(config)  # the models and the migrations agree on PostgreSQL too
    command.downgrade(config, "base")
    command.upgrade(config, "head")


def test_the_scripted_game_on_postgresql(
    tmp_path: Path, database_url: str, game_mbox: Path
) -> None:
    app = make_app(tmp_path, database_url)
    replay_archive(app, game_mbox, MaildirTransport(tmp_path / "out"), until=GAME_END)
    assert action_log(app) == expected_log()
    assert board_text(app) == EXPECTED_BOARD
    app.dispose()


def test_the_same_post_stored_by_two_threads_at_once_is_kept_once(
    tmp_path: Path, database_url: str
) -> None:
    app = make_app(tmp_path, database_url)
    post = go_game.SCRIPT[0]
    barrier = threading.Barrier(4)
    results = []

    def store() -> None:
        barrier.wait()
        with app.session_factory.begin() as session:
            results.append(ingest(session, post.raw(), "smtp", post.at).stored)

    threads = [threading.Thread(target=store) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == [False, False, False, True]
    assert message_statuses(app) == {post.message_id: "queued"}
    app.dispose()
