"""Engine and session factory, built once by the composition root."""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

from bot.resources import resource_directory

MIGRATIONS = resource_directory("migrations")


def make_engine(url: str) -> Engine:
    """Create the engine; SQLite files get WAL and their folder is created."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": 30})
        event.listen(engine, "connect", _sqlite_pragmas)
        event.listen(engine, "savepoint", _begin_before_savepoint)
        return engine
    return create_engine(url, pool_pre_ping=True)


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    # WAL lets the SMTP/IMAP threads store mail while the worker processes;
    # synchronous=NORMAL is durable across application crashes in WAL mode.
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _begin_before_savepoint(connection: Connection, _name: str | None) -> None:
    """Open the SQLite transaction a SAVEPOINT must belong to (Trust II, item 8).

    The sqlite3 driver's legacy transaction control emits BEGIN only before
    INSERT, UPDATE and DELETE, so a SAVEPOINT coming first (``ingest()``
    stores each post in one) started a transaction of its own, and its
    RELEASE committed the post at once, without the IMAP cursor of its batch.
    SQLAlchemy's recipe (``isolation_level = None`` and BEGIN in a ``begin``
    event) would cure this too, but it opens every transaction at its first
    SELECT: a transaction that reads and then writes while another thread
    commits fails at once with "database is locked" (SQLite cannot upgrade a
    stale read snapshot), which is how the worker, the ingress and the
    sender share this database.  So only a SAVEPOINT gets its BEGIN, as an
    INSERT gets one from the driver; IMMEDIATE, since it is there to write.
    """
    dbapi_connection = connection.connection.dbapi_connection
    if dbapi_connection is not None and not dbapi_connection.in_transaction:
        cursor = dbapi_connection.cursor()
        cursor.execute("BEGIN IMMEDIATE")
        cursor.close()


def make_session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)


def alembic_config(url: str) -> Any:
    from alembic.config import Config

    # Alembic's default is the sys.stdout of when alembic.config was first
    # imported, which may be a stream closed since (a test's captured output).
    config = Config(stdout=sys.stdout)
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def upgrade_database(engine: Engine) -> None:
    """Bring the schema to the newest migration (idempotent).

    A database already at the head is left alone without running Alembic's
    environment: every command of the console starts here, and a process
    that opens many databases (a test replaying hundreds of games) read the
    migration scripts again for each.
    """
    from alembic import command
    from alembic.runtime.migration import MigrationContext

    with engine.begin() as connection:
        stored = MigrationContext.configure(connection).get_current_heads()
        if frozenset(stored) == head_revisions():
            return
        config = alembic_config(engine.url.render_as_string(hide_password=False))
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


@functools.cache
def head_revisions() -> frozenset[str]:
    """The newest migrations' revisions, read from the scripts once per process."""
    from alembic.script import ScriptDirectory

    return frozenset(ScriptDirectory(str(MIGRATIONS)).get_heads())
