"""The daemon speaks systemd's notification protocol, and feeds the watchdog only while it works.

systemd's side is played by a real unix datagram socket in the abstract
namespace (``@name``), as $NOTIFY_SOCKET names it.  The stuck worker is
real too: another connection holds SQLite's write lock, so the worker's
COMMIT waits inside SQLite's busy handler and makes no progress.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import time
from pathlib import Path

from sqlalchemy import exc

from bot.daemon import Backoff, Supervision
from bot.runner import store_message
from bot.store.errors import is_system_defect, is_transient, summary
from bot.systemd import Notifier, socket_address, watchdog_seconds
from bot.testing import go_game
from bot.testing.apps import make_app, message_statuses, write_config
from bot.testing.daemons import NotifyListener, ScriptClock, running, start_nomicbot
from bot.testing.support import wait_until

PING = "WATCHDOG=1"


def test_the_watchdog_is_fed_only_while_the_worker_makes_progress(tmp_path: Path) -> None:
    app = make_app(tmp_path / "bot")
    post = go_game.SCRIPT[0]
    supervision = Supervision(heartbeat_limit=1.0, check_interval=0.05)
    with NotifyListener() as systemd:
        notifier = Notifier(systemd.address, watchdog_seconds=0.3)
        with running(app, ScriptClock(post.at), supervision, notifier) as daemon:
            assert wait_until(lambda: systemd.count(PING) >= 3, timeout=10)
            store_message(app, post.raw(), "smtp", post.at)
            blocker = sqlite3.connect(tmp_path / "bot" / "nomicbot.sqlite3", isolation_level=None)
            blocker.execute("BEGIN IMMEDIATE")  # the write lock: the worker's COMMIT waits
            daemon.work_ready.set()
            time.sleep(1.5)  # past the heartbeat limit
            stuck_since = time.monotonic()
            time.sleep(1.5)
            assert systemd.count(PING, since=stuck_since) == 0
            assert message_statuses(app) == {post.message_id: "queued"}
            blocker.execute("ROLLBACK")
            blocker.close()
            assert wait_until(lambda: message_statuses(app)[post.message_id] == "processed", 10)
            freed = time.monotonic()
            assert wait_until(lambda: systemd.count(PING, since=freed) >= 2, timeout=10)
            assert daemon.failure is None
    app.dispose()


def test_nomicbot_run_says_ready_feeds_the_watchdog_and_says_stopping(tmp_path: Path) -> None:
    folder, log = tmp_path / "bot", tmp_path / "daemon.log"
    config = write_config(folder)
    with NotifyListener() as systemd:
        environment = {"NOTIFY_SOCKET": systemd.address, "WATCHDOG_USEC": "1000000"}
        daemon = start_nomicbot(config, log, environment)
        try:
            assert wait_until(lambda: systemd.count(PING) >= 3, timeout=30), log.read_text()
            os.killpg(daemon.pid, signal.SIGTERM)
            assert daemon.wait(30) == 0, log.read_text()
        finally:
            if daemon.poll() is None:
                os.killpg(daemon.pid, signal.SIGKILL)
                daemon.wait(10)
        assert wait_until(lambda: systemd.count("STOPPING=1") == 1, timeout=5)
        lines = [line for _, line in systemd.lines()]
    assert lines[0] == "READY=1"
    assert "STATUS=working" in lines
    assert lines.index("READY=1") < lines.index(PING) < lines.index("STOPPING=1")


def test_backoff_doubles_up_to_its_cap_and_starts_again_after_a_success() -> None:
    backoff = Backoff(first=1.0, cap=10.0)
    assert [backoff.next_delay() for _ in range(6)] == [1, 2, 4, 8, 10, 10]
    backoff.reset()
    assert backoff.next_delay() == 1


def test_notify_socket_addresses_and_the_watchdog_interval() -> None:
    assert socket_address("@systemd/notify") == b"\0systemd/notify"
    assert socket_address("/run/systemd/notify") == "/run/systemd/notify"
    assert watchdog_seconds({"WATCHDOG_USEC": "60000000"}) == 60.0
    assert watchdog_seconds({"WATCHDOG_USEC": "60000000", "WATCHDOG_PID": "1"}) is None
    assert watchdog_seconds({"WATCHDOG_USEC": "0"}) is None
    assert watchdog_seconds({}) is None
    assert not Notifier(None).notify("READY=1")


def sqlite_error(tmp_path: Path, sql: str, lock: bool = False) -> exc.DBAPIError:
    """The SQLAlchemy error a real SQLite database raises for ``sql``."""
    from sqlalchemy import create_engine, text

    path = tmp_path / "errors.sqlite3"
    engine = create_engine(f"sqlite:///{path}", connect_args={"timeout": 0})
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("CREATE TABLE IF NOT EXISTS t (x)")
    if lock:
        blocker.execute("BEGIN EXCLUSIVE")
    try:
        with engine.begin() as connection:
            connection.execute(text(sql))
    except exc.DBAPIError as error:
        return error
    finally:
        blocker.close()
        engine.dispose()
    raise AssertionError(f"{sql} did not fail")


def test_database_errors_are_sorted_into_transient_and_defects(tmp_path: Path) -> None:
    locked = sqlite_error(tmp_path, "INSERT INTO t VALUES (1)", lock=True)
    assert is_transient(locked) and not is_system_defect(locked)
    missing = sqlite_error(tmp_path, "SELECT * FROM no_such_table")
    assert is_system_defect(missing) and not is_transient(missing)
    assert (
        summary(missing)
        == "OperationalError: (sqlite3.OperationalError) no such table: no_such_table"
    )
    assert not is_transient(ValueError("a post's own defect"))
    assert not is_system_defect(ValueError("a post's own defect"))
