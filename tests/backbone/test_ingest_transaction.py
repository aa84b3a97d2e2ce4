"""Trust II, item 8: a batch of ingested posts and the IMAP cursor commit together.

``ingest()`` stores each post inside a SAVEPOINT of the caller's transaction,
so that the poller records its cursor in the same commit.  With the sqlite3
driver's legacy transaction control, a SAVEPOINT emitted before any BEGIN
opened a transaction of its own, and its RELEASE committed the post at once:
a failure later in the batch (here an exception before the commit, standing
for a crash or a lost connection) left the posts stored and the cursor not.
Run on SQLite and on a real PostgreSQL.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import create_engine, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError

from bot.app import App
from bot.ingress.ingest import ArrivingPost, ingest, ingest_many
from bot.store.models import ImapCursor, Message
from bot.testing import go_game
from bot.testing.apps import make_app
from bot.testing.postgres import PostgresDatabase

ACCOUNT = "player@127.0.0.1:143/INBOX"
_numbers = itertools.count(1)


class FailedLater(Exception):
    """Stands for whatever ends the batch's transaction before its commit."""


@pytest.fixture(params=["sqlite", "postgresql"])
def app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[App]:
    """A bot on a fresh SQLite file, or on a fresh database of the session's PostgreSQL."""
    if request.param == "sqlite":
        app = make_app(tmp_path / "bot")
        yield app
        app.dispose()
        return
    postgres: PostgresDatabase = request.getfixturevalue("postgres")
    name = f"nomicbot_ingest_{next(_numbers)}"
    server = create_engine(postgres.url, isolation_level="AUTOCOMMIT")
    with server.connect() as connection:
        connection.execute(text(f"DROP DATABASE IF EXISTS {name}"))
        connection.execute(text(f"CREATE DATABASE {name}"))
    url = make_url(postgres.url).set(database=name).render_as_string(hide_password=False)
    app = make_app(tmp_path / "bot", url)
    yield app
    app.dispose()
    with server.connect() as connection:
        connection.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
    server.dispose()


def stored(app: App) -> tuple[list[str], int | None]:
    """The stored posts' Message-IDs and the cursor's last UID (None: no cursor)."""
    with app.session_factory() as session:
        ids = list(session.scalars(select(Message.message_id).order_by(Message.id)))
        return ids, session.scalar(select(ImapCursor.last_uid))


def start_cursor(app: App) -> None:
    with app.session_factory.begin() as session:
        session.add(ImapCursor(account=ACCOUNT, uidvalidity=7, last_uid=0))


def ingest_batch_then_fail(app: App, count: int) -> None:
    """What ``ImapPoller._ingest_batch`` does in one transaction, failing before the commit."""
    with app.session_factory.begin() as session:
        for post in go_game.SCRIPT[:count]:
            ingest(session, post.raw(), "imap", post.at)
        cursor = session.scalar(select(ImapCursor).where(ImapCursor.account == ACCOUNT))
        assert cursor is not None
        cursor.last_uid = count
        raise FailedLater


def test_a_batch_cut_short_stores_neither_its_posts_nor_the_cursor(app: App) -> None:
    start_cursor(app)
    with pytest.raises(FailedLater):
        ingest_batch_then_fail(app, 3)
    assert stored(app) == ([], 0)


def test_a_batch_that_commits_stores_its_posts_and_the_cursor(app: App) -> None:
    start_cursor(app)
    with app.session_factory.begin() as session:
        for post in go_game.SCRIPT[:3]:
            ingest(session, post.raw(), "imap", post.at)
        cursor = session.scalar(select(ImapCursor).where(ImapCursor.account == ACCOUNT))
        assert cursor is not None
        cursor.last_uid = 3
    assert stored(app) == ([post.message_id for post in go_game.SCRIPT[:3]], 3)


def test_the_cursor_written_first_is_not_kept_without_its_batch(app: App) -> None:
    start_cursor(app)
    with pytest.raises(FailedLater), app.session_factory.begin() as session:
        cursor = session.scalar(select(ImapCursor).where(ImapCursor.account == ACCOUNT))
        assert cursor is not None
        cursor.last_uid = 3
        session.flush()
        for post in go_game.SCRIPT[:3]:
            ingest(session, post.raw(), "imap", post.at)
        raise FailedLater
    assert stored(app) == ([], 0)


def test_an_archive_batch_cut_short_stores_nothing(app: App) -> None:
    """``ingest_many`` (the replay's batches) runs in the caller's transaction too."""
    posts = [ArrivingPost(post.raw(), post.at) for post in go_game.SCRIPT[:5]]
    with pytest.raises(FailedLater), app.session_factory.begin() as session:
        assert ingest_many(session, posts, "replay") == 5
        ingest(session, go_game.SCRIPT[5].raw(), "replay", go_game.SCRIPT[5].at + timedelta(1))
        raise FailedLater
    assert stored(app) == ([], None)


def test_storing_while_another_thread_judges_never_finds_the_database_locked(
    tmp_path: Path,
) -> None:
    """SQLite: a batch's transaction reads, then writes in a SAVEPOINT, while the worker
    reads and writes in its own.  Opening every transaction at its first SELECT (the
    recipe of SQLAlchemy's pysqlite notes) failed most of these with "database is
    locked"; only the SAVEPOINT begins the transaction early, so none fails here."""
    app = make_app(tmp_path / "bot")
    start_cursor(app)
    errors: list[Exception] = []
    posts = [replace(go_game.SCRIPT[0], number=5000 + n) for n in range(150)]

    def store() -> None:
        for number, post in enumerate(posts, start=1):
            try:
                with app.session_factory.begin() as session:
                    ingest(session, post.raw(), "imap", post.at)
                    cursor = session.scalar(select(ImapCursor))
                    assert cursor is not None
                    cursor.last_uid = number
            except OperationalError as error:
                errors.append(error)

    def judge() -> None:
        for _ in range(300):
            try:
                with app.session_factory.begin() as session:
                    queued = session.scalar(select(Message).where(Message.status == "queued"))
                    time.sleep(0.001)
                    if queued is not None:
                        queued.status = "processed"
            except OperationalError as error:
                errors.append(error)

    threads = [threading.Thread(target=store), threading.Thread(target=judge)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert errors == []
    assert stored(app)[1] == len(posts)
    with app.engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    app.dispose()
