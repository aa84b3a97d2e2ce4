"""Two ``nomicbot run`` on one database: one works, the other waits, and takes over.

Both real daemons read the same configuration (so they would listen on the
same SMTP port).  The second waits for the database's lock, without binding
the port or judging anything; when the first is killed, the second takes
the lock, opens the ingress and judges the next post.  On SQLite the lock is
a file next to the database; on PostgreSQL a session-level advisory lock.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

from bot.testing import go_game
from bot.testing.apps import maildir_mails, make_app, message_statuses, write_config
from bot.testing.daemons import answers_smtp, post_over_smtp, start_nomicbot
from bot.testing.support import free_loopback_port, wait_until

WAITING = "waiting for the database lock"


def rulings_in(outbox: Path) -> list[str]:
    if not (outbox / "new").exists():
        return []
    mails = maildir_mails(outbox)
    return [str(m["In-Reply-To"]) for m in mails if m["X-Nomicbot-Kind"] == "ruling"]


def stop(process: subprocess.Popen[bytes], how: signal.Signals) -> int:
    if process.poll() is None:
        os.killpg(process.pid, how)
    return process.wait(30)


def two_daemons_take_turns(tmp_path: Path, database_url: str) -> None:
    folder, port = tmp_path / "bot", free_loopback_port()
    config = write_config(folder)
    environment = {
        "NOMICBOT_SMTP_INGRESS_ENABLED": "true",
        "NOMICBOT_SMTP_INGRESS_PORT": str(port),
    }
    if database_url:
        environment["NOMICBOT_DATABASE_URL"] = database_url
    first_log, second_log = tmp_path / "first.log", tmp_path / "second.log"
    outbox = folder / "outbox"
    before, after = go_game.SCRIPT[0], go_game.SCRIPT[1]
    first = start_nomicbot(config, first_log, environment)
    second: subprocess.Popen[bytes] | None = None
    try:
        assert wait_until(lambda: answers_smtp(port), timeout=30), first_log.read_text()
        second = start_nomicbot(config, second_log, environment)
        assert wait_until(lambda: WAITING in second_log.read_text(), timeout=30), (
            second_log.read_text()
        )
        post_over_smtp(port, before)
        assert wait_until(lambda: f"<{before.message_id}>" in rulings_in(outbox), timeout=30)
        time.sleep(1.0)  # the waiting daemon stays alive and idle
        assert second.poll() is None, second_log.read_text()
        assert "judged" not in second_log.read_text()
        assert stop(first, signal.SIGKILL) == -signal.SIGKILL
        # The second takes the lock, opens the same port and works.
        assert wait_until(lambda: answers_smtp(port), timeout=30), second_log.read_text()
        post_over_smtp(port, after)
        assert wait_until(lambda: f"<{after.message_id}>" in rulings_in(outbox), timeout=30), (
            second_log.read_text()
        )
        assert stop(second, signal.SIGTERM) == 0, second_log.read_text()
    finally:
        for process in (first, second):
            if process is not None and process.poll() is None:
                stop(process, signal.SIGKILL)
    assert sorted(rulings_in(outbox)) == sorted(f"<{p.message_id}>" for p in (before, after))
    app = make_app(folder, database_url)
    assert set(message_statuses(app).values()) == {"processed"}
    app.dispose()


def test_two_daemons_on_one_sqlite_database(tmp_path: Path) -> None:
    two_daemons_take_turns(tmp_path, "")


def test_two_daemons_on_one_postgresql_database(tmp_path: Path, fresh_postgres_url: str) -> None:
    two_daemons_take_turns(tmp_path, fresh_postgres_url)
