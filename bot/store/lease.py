"""One working daemon per database: the lock a daemon holds while it works.

Two ``nomicbot run`` on one database would judge the same posts (or fight
over SQLite's write lock until a thread died).  So a daemon takes the
database's lock before it starts its threads, and a second one waits,
trying again every few seconds, until the first is gone:

* **PostgreSQL**: a session-level advisory lock, ``pg_try_advisory_lock``
  on ``LOCK_KEY``, held by a connection of its own (no pool).  The server
  releases it when that session ends, whether the daemon stopped, died or
  lost its connection.  A daemon whose lock connection broke (a server
  restart) takes the lock again as soon as it can; if another daemon took
  it first, the lock is *lost* and the daemon must stop working.
* **SQLite**: an exclusive ``flock`` on a file next to the database
  (``nomicbot.sqlite3.lock``), which the kernel releases when the process
  ends.  It only guards daemons on one machine, as SQLite itself does.

Any other database gets no lock (a warning says so).
"""

from __future__ import annotations

import enum
import fcntl
import logging
import os
from pathlib import Path
from typing import IO, Protocol

from sqlalchemy import Connection, create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

log = logging.getLogger(__name__)

# "nomicbot" as a 64-bit integer: the advisory lock's key, one per database.
LOCK_KEY = int.from_bytes(b"nomicbot", "big")
# A dead server or network must not hang the lock's connection for long.
POSTGRES_CONNECT_ARGUMENTS = {
    "connect_timeout": 5,
    "keepalives": 1,
    "keepalives_idle": 10,
    "keepalives_interval": 5,
    "keepalives_count": 3,
}


class LeaseState(enum.Enum):
    HELD = "held"
    UNKNOWN = "unknown"  # the database cannot be reached now; try again later
    LOST = "lost"  # another daemon holds it now


class Lease(Protocol):
    description: str

    def acquire(self) -> bool:
        """Try once: True if this process holds the lock now, False if another does.

        Raises the database's errors (a transient one: try again later).
        """
        ...

    def check(self) -> LeaseState:
        """Whether this process still holds the lock; never raises."""
        ...

    def release(self) -> None: ...


def lease_for(database_url: str) -> Lease:
    """The lock that guards ``database_url`` (see the module's docstring)."""
    url = make_url(database_url)
    backend = url.get_backend_name()
    if backend == "postgresql":
        return AdvisoryLease(database_url)
    if backend == "sqlite" and url.database and url.database != ":memory:":
        return FileLease(Path(url.database).with_name(Path(url.database).name + ".lock"))
    log.warning("no lock guards a %s database: run one daemon on it only", backend)
    return NoLease()


class FileLease:
    """An exclusive ``flock`` on ``path``, which holds this process's id while held."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.description = f"lock file {path}"
        self._handle: IO[str] | None = None

    def acquire(self) -> bool:
        if self._handle is not None:
            return True
        handle = open(self.path, "a+", encoding="ascii")  # noqa: SIM115 (held open while locked)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            return False
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        self._handle = handle
        return True

    def check(self) -> LeaseState:
        return LeaseState.HELD if self._handle is not None else LeaseState.LOST

    def release(self) -> None:
        if self._handle is not None:
            fcntl.flock(self._handle, fcntl.LOCK_UN)
            self._handle.close()
            self._handle = None


class AdvisoryLease:
    """PostgreSQL's session-level advisory lock on ``LOCK_KEY``, on a connection of its own."""

    def __init__(self, database_url: str) -> None:
        url = make_url(database_url)
        self.description = f"advisory lock {LOCK_KEY} on {url.render_as_string()}"
        self._engine = create_engine(
            url, poolclass=NullPool, connect_args=POSTGRES_CONNECT_ARGUMENTS
        )
        self._connection: Connection | None = None
        self._held = False

    def acquire(self) -> bool:
        if self._connection is None:
            connection = self._engine.connect()
            self._connection = connection.execution_options(isolation_level="AUTOCOMMIT")
        try:
            statement = text("SELECT pg_try_advisory_lock(:key)")
            self._held = bool(self._connection.execute(statement, {"key": LOCK_KEY}).scalar())
        except Exception:
            self._close()
            raise
        return self._held

    def check(self) -> LeaseState:
        if self._held and self._connection is not None:
            try:
                self._connection.execute(text("SELECT 1"))
                return LeaseState.HELD
            except Exception as error:  # the session, and with it the lock, is gone
                log.warning("the connection holding the database lock broke: %s", error)
                self._close()
        try:
            return LeaseState.HELD if self.acquire() else LeaseState.LOST
        except Exception as error:
            log.warning("cannot take the database lock again yet: %s", error)
            return LeaseState.UNKNOWN

    def _close(self) -> None:
        self._held = False
        if self._connection is not None:
            try:
                self._connection.close()
            except Exception as error:  # already broken: nothing more to release
                log.debug("closing the lock's connection: %s", error)
            self._connection = None

    def release(self) -> None:
        if self._held and self._connection is not None:
            try:
                self._connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": LOCK_KEY})
            except Exception as error:  # closing the session releases it anyway
                log.debug("unlocking: %s", error)
        self._close()
        self._engine.dispose()


class NoLease:
    description = "no lock"

    def acquire(self) -> bool:
        return True

    def check(self) -> LeaseState:
        return LeaseState.HELD

    def release(self) -> None:
        return None
