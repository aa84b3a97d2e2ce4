"""The daemon's threads survive what they can and end the process on what they cannot.

Each test runs the real daemon (its worker, sender and SMTP ingress
threads) against real servers: a private PostgreSQL cluster that is stopped
and started again for the outage, a PostgreSQL trigger that refuses one
post's transaction at COMMIT, an ntime epoch days ahead of the clock, and a
table renamed under a running ``nomicbot run``.

The reported outage lasted 35 s; this one lasts 12 s (set
``NOMICBOT_TEST_OUTAGE_SECONDS=35`` to run the long one).  What killed the
threads was meeting the outage at all; what matters now is that each loop
keeps retrying until the server is back.  With the backoff's 1, 2, 4, 8 s
the loops retry at about 1, 3, 7 and 15 s, so 12 s already spans three
failed retries of each; a 35 s outage only adds retries every 10 s (the
backoff's cap) and a longer test.
"""

from __future__ import annotations

import os
import signal
import smtplib
import sqlite3
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from bot.app import App
from bot.config import NtimeSettings, OutboundSettings, SmtpIngressSettings
from bot.store.models import Message
from bot.testing import go_game
from bot.testing.apps import maildir_mails, make_app, message_statuses, write_config
from bot.testing.daemons import (
    ScriptClock,
    answers_smtp,
    mails_received,
    post_over_smtp,
    running,
    start_nomicbot,
)
from bot.testing.postgres import PostgresServer
from bot.testing.smtp_sink import SmtpSink
from bot.testing.support import free_loopback_port, wait_until

OUTAGE_SECONDS = float(os.environ.get("NOMICBOT_TEST_OUTAGE_SECONDS", "12"))


@pytest.fixture
def paused_postgres() -> Iterator[PostgresServer]:
    """A private PostgreSQL cluster of this test's own, which the test may stop and start."""
    with PostgresServer() as server:
        yield server


def daemon_app(folder: Path, sink: SmtpSink, database_url: str = "", **sections: object) -> App:
    """The scripted game's bot with its SMTP ingress on a free port, replying to ``sink``."""
    ingress = SmtpIngressSettings(enabled=True, host="127.0.0.1", port=free_loopback_port())
    outbound = OutboundSettings(smtp_host=sink.host, smtp_port=sink.port)
    return make_app(folder, database_url, smtp_ingress=ingress, outbound=outbound, **sections)


def send(app: App, post: go_game.ScriptedPost) -> None:
    """Post through the daemon's SMTP ingress; raises smtplib errors as the client sees them."""
    port = app.settings.smtp_ingress.port
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as client:
        client.sendmail(post.author[1], [go_game.LIST_ADDRESS], post.raw())


def status_of(app: App, post: go_game.ScriptedPost) -> str | None:
    with app.session_factory() as session:
        return session.scalar(select(Message.status).where(Message.message_id == post.message_id))


def replied(sink: SmtpSink, post: go_game.ScriptedPost) -> bool:
    return any(str(m["In-Reply-To"]) == f"<{post.message_id}>" for m in mails_received(sink))


def test_worker_and_sender_ride_out_a_postgresql_outage(
    tmp_path: Path, smtp_sink: SmtpSink, paused_postgres: PostgresServer
) -> None:
    app = daemon_app(tmp_path, smtp_sink, paused_postgres.url)
    before, during, after = go_game.SCRIPT[0], go_game.SCRIPT[1], go_game.SCRIPT[3]
    clock = ScriptClock(before.at)
    with running(app, clock) as daemon:
        send(app, before)
        assert wait_until(lambda: replied(smtp_sink, before), timeout=20)
        paused_postgres.pause()
        outage_began = time.monotonic()
        daemon.work_ready.set()  # both loops meet the outage at once
        daemon.mail_ready.set()
        clock.now = during.at
        # No worker can judge it now: the ingress says "try later", never 250.
        with pytest.raises(smtplib.SMTPDataError) as refused:
            send(app, during)
        assert refused.value.smtp_code == 451
        time.sleep(max(0.0, OUTAGE_SECONDS - (time.monotonic() - outage_began)))
        assert all(thread.is_alive() for thread in daemon.threads)
        # Each loop met the outage, and tried again (and failed again) with backoff.
        assert daemon.retries["worker"] >= 3 and daemon.retries["sender"] >= 3, daemon.retries
        paused_postgres.resume()
        clock.now = after.at
        send(app, after)
        assert wait_until(lambda: replied(smtp_sink, after), timeout=30), message_statuses(app)
        assert all(thread.is_alive() for thread in daemon.threads)
        assert daemon.failure is None
    assert message_statuses(app) == {before.message_id: "processed", after.message_id: "processed"}
    app.dispose()


REFUSE_AT_COMMIT = """
CREATE FUNCTION refuse_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM message WHERE id = NEW.message_pk AND message_id = :refused) THEN
    RAISE EXCEPTION 'planted: this transaction is refused at COMMIT'
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER refuse_at_commit AFTER INSERT ON action_log
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse_at_commit();
"""


def test_a_post_whose_commit_fails_is_shunted_and_the_worker_goes_on(
    tmp_path: Path, smtp_sink: SmtpSink, fresh_postgres_url: str
) -> None:
    app = daemon_app(tmp_path, smtp_sink, fresh_postgres_url)
    good, refused, later = go_game.SCRIPT[0], go_game.SCRIPT[1], go_game.SCRIPT[3]
    with app.engine.begin() as connection:
        # A deferred constraint: the error comes from COMMIT itself, after
        # the whole post was judged without one.
        sql = REFUSE_AT_COMMIT.replace(":refused", f"'{refused.message_id}'")
        connection.exec_driver_sql(sql)
    clock = ScriptClock(good.at)
    with running(app, clock) as daemon:
        for post in (good, refused, later):
            clock.now = post.at
            send(app, post)
        assert wait_until(lambda: replied(smtp_sink, later), timeout=30), message_statuses(app)
        assert all(thread.is_alive() for thread in daemon.threads)
    assert status_of(app, good) == status_of(app, later) == "processed"
    assert status_of(app, refused) == "shunted"
    with app.session_factory() as session:
        reason = session.scalar(
            select(Message.status_reason).where(Message.message_id == refused.message_id)
        )
    assert reason is not None and "refused at COMMIT" in reason
    app.dispose()


def test_an_ntime_epoch_days_ahead_does_not_stop_the_worker(
    tmp_path: Path, smtp_sink: SmtpSink
) -> None:
    epoch = go_game.EPOCH + timedelta(days=30)
    app = daemon_app(tmp_path, smtp_sink, ntime=NtimeSettings(epoch=epoch.isoformat()))
    post = go_game.SCRIPT[0]  # 29 days and some hours before the game begins
    with running(app, ScriptClock(post.at)) as daemon:
        send(app, post)
        assert wait_until(lambda: replied(smtp_sink, post), timeout=20), message_statuses(app)
        assert all(thread.is_alive() for thread in daemon.threads)
    [ruling] = [m for m in mails_received(smtp_sink) if m["X-Nomicbot-Kind"] == "ruling"]
    assert "nweek 1, nday 1" in ruling.get_body(preferencelist=("plain",)).get_content()
    assert status_of(app, post) == "processed"
    app.dispose()


def rulings_in(outbox: Path) -> set[str]:
    if not (outbox / "new").exists():
        return set()
    return {
        str(m["In-Reply-To"]) for m in maildir_mails(outbox) if m["X-Nomicbot-Kind"] == "ruling"
    }


def rename_table(database: Path, old: str, new: str) -> None:
    with sqlite3.connect(database) as connection:
        connection.execute(f"ALTER TABLE {old} RENAME TO {new}")


def test_a_loop_that_cannot_go_on_ends_the_process_non_zero(tmp_path: Path) -> None:
    folder, port, log = tmp_path / "bot", free_loopback_port(), tmp_path / "daemon.log"
    config = write_config(folder)
    ingress = {"NOMICBOT_SMTP_INGRESS_ENABLED": "true", "NOMICBOT_SMTP_INGRESS_PORT": str(port)}
    first, second = go_game.SCRIPT[0], go_game.SCRIPT[1]
    daemon = start_nomicbot(config, log, ingress)
    try:
        assert wait_until(lambda: answers_smtp(port), timeout=30), log.read_text()
        post_over_smtp(port, first)
        assert wait_until(lambda: f"<{first.message_id}>" in rulings_in(folder / "outbox"), 30)
        # The schema changes under the running daemon: no post is at fault,
        # and no retry can mend it.
        rename_table(folder / "nomicbot.sqlite3", "outbox", "outbox_elsewhere")
        post_over_smtp(port, second)
        wait_until(lambda: daemon.poll() is not None, timeout=30)
    finally:
        if daemon.poll() is None:
            os.killpg(daemon.pid, signal.SIGKILL)
            daemon.wait(10)
    assert daemon.returncode not in (0, None, -signal.SIGKILL), log.read_text()
    assert not answers_smtp(port)  # a sending MTA now queues the mail and retries
    assert "no such table: outbox" in log.read_text()
    rename_table(folder / "nomicbot.sqlite3", "outbox_elsewhere", "outbox")
    app = make_app(folder)
    assert status_of(app, second) == "queued"  # not shunted: it was not the post's fault
    app.dispose()
