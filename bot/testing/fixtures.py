"""pytest plugin: real servers on loopback as fixtures.

Register with ``pytest_plugins = ["bot.testing.fixtures"]`` in the top-level
conftest.  ``dovecot`` and ``postgres`` start once per session, ``smtp_sink``
once per test; ``imap_user`` adds a fresh mailbox user per test and
``fresh_postgres_url`` a fresh, empty database on the session's PostgreSQL.

A missing server FAILS the test with the install instruction: a skip would
hide a missing install step in CI.  ``NOMICBOT_TEST_PG_URL``, when set, points
the ``postgres`` fixture at an existing database instead of starting one.
"""

from __future__ import annotations

import itertools
import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from bot.testing.dovecot import DovecotServer, ImapAccount
from bot.testing.postgres import PostgresDatabase, PostgresServer
from bot.testing.smtp_sink import SmtpSink
from bot.testing.support import ServerError

EXTERNAL_POSTGRES_VARIABLE = "NOMICBOT_TEST_PG_URL"
_user_numbers = itertools.count(1)
_database_numbers = itertools.count(1)


@contextmanager
def failing_when_unavailable(server_name: str) -> Iterator[None]:
    """Turn a ServerError into a test failure that shows its message, not a traceback."""
    try:
        yield
    except ServerError as error:
        pytest.fail(f"{server_name} test server unavailable: {error}", pytrace=False)


@pytest.fixture(scope="session")
def dovecot() -> Iterator[DovecotServer]:
    """A private Dovecot IMAP server for the whole session."""
    with failing_when_unavailable("Dovecot"), DovecotServer() as server:
        yield server


@pytest.fixture
def imap_user(dovecot: DovecotServer) -> ImapAccount:
    """A new, empty mailbox user on the session's Dovecot, unique to this test."""
    username = f"player{next(_user_numbers)}-{secrets.token_hex(3)}"
    return dovecot.add_user(username, secrets.token_urlsafe(12))


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresDatabase]:
    """A PostgreSQL database for the whole session: private, or $NOMICBOT_TEST_PG_URL."""
    external_url = os.environ.get(EXTERNAL_POSTGRES_VARIABLE)
    if external_url:
        yield PostgresDatabase(url=external_url)
        return
    with failing_when_unavailable("PostgreSQL"), PostgresServer() as server:
        yield PostgresDatabase(url=server.url)


@pytest.fixture
def fresh_postgres_url(postgres: PostgresDatabase) -> Iterator[str]:
    """The URL of a new, empty database on the session's PostgreSQL, dropped afterwards."""
    name = f"nomicbot_fresh_{os.getpid()}_{next(_database_numbers)}"
    server = create_engine(postgres.url, isolation_level="AUTOCOMMIT")
    with server.connect() as connection:
        connection.execute(text(f"DROP DATABASE IF EXISTS {name}"))
        connection.execute(text(f"CREATE DATABASE {name}"))
    yield make_url(postgres.url).set(database=name).render_as_string(hide_password=False)
    with server.connect() as connection:
        connection.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
    server.dispose()


@pytest.fixture
def smtp_sink() -> Iterator[SmtpSink]:
    """An SMTP server on loopback capturing every message sent during this test."""
    with SmtpSink() as sink:
        yield sink
