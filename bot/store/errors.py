"""Which database errors are the database's passing trouble, and which are defects.

The worker, the sender and the scheduler sort every exception they meet
into three kinds:

* **transient**: the database is down, restarting, unreachable, busy or out
  of pooled connections.  Nothing is wrong with the work: wait and try again
  (``is_transient``).  A post is never shunted for this.
* **the system's defect**: the schema or the SQL is wrong (a missing table
  or column, a syntax error).  No post is at fault and no retry will mend it:
  the process must stop so that an operator (or systemd) sees it
  (``is_system_defect``).
* anything else met while judging a post (an ``IntegrityError`` at COMMIT
  included) is that post's: it is shunted with its traceback, as before.
"""

from __future__ import annotations

import sqlite3

from sqlalchemy import exc

# SQLite reports both passing trouble and defects as OperationalError; these
# phrases of its messages are the passing kind.
SQLITE_TRANSIENT_PHRASES = (
    "database is locked",
    "database table is locked",
    "database schema has changed",
    "unable to open database file",
    "disk i/o error",
)


def is_transient(error: BaseException) -> bool:
    """Whether ``error`` says the database is unavailable for now (retry later)."""
    if isinstance(error, exc.TimeoutError | exc.DisconnectionError):
        return True  # the pool had no connection to give, or lost one
    if isinstance(error, exc.DBAPIError) and error.connection_invalidated:
        return True
    if isinstance(error, exc.OperationalError):
        if isinstance(error.orig, sqlite3.OperationalError):
            text = str(error.orig).lower()
            return any(phrase in text for phrase in SQLITE_TRANSIENT_PHRASES)
        return True  # PostgreSQL: connection refused or lost, shutting down, recovery, ...
    return isinstance(error, exc.InterfaceError)


def summary(error: BaseException) -> str:
    """One line naming the error: its type and its message's first line (at most 500 characters).

    A traceback's last line would do for most errors, but SQLAlchemy ends its
    messages with a line pointing to its documentation.
    """
    lines = str(error).strip().splitlines()
    name = type(error).__name__
    return (f"{name}: {lines[0]}" if lines else name)[:500]


def is_system_defect(error: BaseException) -> bool:
    """Whether ``error`` is the installation's fault, whatever post met it (stop the process)."""
    if isinstance(error, exc.ProgrammingError | exc.NotSupportedError):
        return True  # missing table or column, bad SQL
    return isinstance(error, exc.OperationalError) and not is_transient(error)
