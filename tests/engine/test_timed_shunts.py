"""A timed event that raises is shunted as an event, and the posts go on being judged.

The defect is planted in rule 212's nweek handler (the Bandwidth reset at
the start of each nweek): its per-nweek step raises.  Before the fix, every
post after the nweek boundary was shunted in its place (the scheduler ran in
each post's transaction), and the daemon's worker thread died on it.  Now
the event is recorded with its handler, interval and traceback, listed by
``nomicbot shunted``, and run again by the worker once re-queued.
"""

from __future__ import annotations

import smtplib
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from bot.app import App
from bot.config import OutboundSettings, SmtpIngressSettings
from bot.engine import bandwidth, holdings, scheduler
from bot.engine.worker import process_queue
from bot.runner import store_message
from bot.store.models import LedgerEntry, Message, OutboxMessage, ShuntedEvent
from bot.testing import go_game
from bot.testing.apps import make_app, message_statuses, nomicbot, write_config
from bot.testing.daemons import ScriptClock, mails_received, running
from bot.testing.smtp_sink import SmtpSink
from bot.testing.support import free_loopback_port, wait_until

pytestmark = pytest.mark.shunts_events

DEFECT = "defect planted in the Bandwidth reset"
NWEEK_2_START = go_game.EPOCH + timedelta(days=10)  # the first nweek boundary of the script
POSTS = go_game.SCRIPT[:12]  # periods 0 to 5: nweek 1 and the first half of nweek 2


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    built = make_app(tmp_path / "bot")
    yield built
    built.dispose()


@pytest.fixture
def defective(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    def reset_at_nweek_start(*_arguments: object) -> int:
        raise RuntimeError(DEFECT)

    monkeypatch.setattr(bandwidth, "reset_at_nweek_start", reset_at_nweek_start)
    return monkeypatch


def outbox_kinds(app: App) -> list[tuple[str, str]]:
    with app.session_factory() as session:
        rows = session.execute(select(OutboxMessage.kind, OutboxMessage.message_id)).all()
        return [(row.kind, row.message_id) for row in rows]


def test_every_post_is_judged_although_a_timed_event_raised(
    app: App, defective: pytest.MonkeyPatch
) -> None:
    for post in POSTS:
        store_message(app, post.raw(), "replay", post.at)
    report = process_queue(app.session_factory, app.services)
    assert set(message_statuses(app).values()) == {"processed"}
    assert (report.processed, report.shunted) == (len(POSTS), 0)
    kinds = [kind for kind, _ in outbox_kinds(app)]
    # The other events of the same instant were not held back by the broken one.
    assert kinds.count("dice-reveal") == 1 and kinds.count("dice-commitment") == 2
    [event] = events(app)
    assert event.handler == "bot.engine.bandwidth.reset_bandwidth"
    assert event.due_after < NWEEK_2_START == event.due_until
    assert (event.status, event.failures) == ("shunted", 1)
    assert event.error == f"RuntimeError: {DEFECT}"
    assert "Traceback (most recent call last)" in event.traceback
    assert bandwidth_resets(app) == []  # nothing of the failed handler was kept


def test_a_shunted_event_is_listed_requeued_and_run_again_at_its_instant(
    app: App, tmp_path: Path, defective: pytest.MonkeyPatch
) -> None:
    for post in POSTS:
        store_message(app, post.raw(), "replay", post.at)
    process_queue(app.session_factory, app.services)
    [event] = events(app)
    config = write_config(tmp_path / "bot")
    listed = nomicbot(config, "shunted")
    assert listed.stdout == (
        f"event {event.id}\tbot.engine.bandwidth.reset_bandwidth\t"
        f"({event.due_after:%Y-%m-%d %H:%M}, 2026-01-11 00:00]\tshunted\tRuntimeError: {DEFECT}\n"
    )
    assert "0 shunted message(s), 1 shunted event(s)" in listed.stderr
    assert f"RuntimeError: {DEFECT}" in nomicbot(config, "shunted", "list", "--traceback").stdout
    requeued = nomicbot(config, "shunted", "requeue", "--event", str(event.id))
    assert "0 message(s) re-queued, 1 event(s) re-queued" in requeued.stdout
    assert "\tqueued\t" in nomicbot(config, "shunted").stdout
    defective.undo()  # the defect is mended
    # Two posts wait: one that arrived (late) before the event's instant,
    # one after it.  The event runs between them.
    earlier = go_game.ScriptedPost(go_game.ALICE, NWEEK_2_START - timedelta(hours=2), "Hi.", 900)
    later = go_game.SCRIPT[12]
    for post in (later, earlier):
        store_message(app, post.raw(), "replay", post.at)
    assert process_queue(app.session_factory, app.services).processed == 2
    # The reset is recorded at the instant the nweek began, not when it ran.
    assert bandwidth_resets(app) == [("Alice", NWEEK_2_START), ("Bob", NWEEK_2_START)]
    [event] = events(app)
    assert event.status == "done" and event.done_at is not None
    assert processed_at(app, earlier) < event.done_at < processed_at(app, later)
    assert "0 shunted event(s)" in nomicbot(config, "shunted").stderr


def test_a_handler_that_raises_on_every_run_fills_one_row(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    def reset_bandwidth(*_arguments: object) -> None:
        raise RuntimeError(DEFECT)

    # The scheduler holds its events as values (bot.engine.scheduler.OWN_EVENTS);
    # without a next due instant the handler runs, and raises, at every post.
    events_with_defect = tuple(
        replace(event, handler=reset_bandwidth, next_due=None)
        if event.handler is bandwidth.reset_bandwidth
        else event
        for event in scheduler.OWN_EVENTS
    )
    monkeypatch.setattr(scheduler, "OWN_EVENTS", events_with_defect)
    for post in POSTS:
        store_message(app, post.raw(), "replay", post.at)
    assert process_queue(app.session_factory, app.services).processed == len(POSTS)
    [event] = events(app)
    assert event.handler.endswith("reset_bandwidth")
    assert event.due_until == POSTS[-1].at and event.failures > len(POSTS)


def processed_at(app: App, post: go_game.ScriptedPost) -> datetime:
    with app.session_factory() as session:
        at = session.scalar(
            select(Message.processed_at).where(Message.message_id == post.message_id)
        )
        assert at is not None, f"{post.message_id} was not processed"
        return at


def events(app: App) -> list[ShuntedEvent]:
    with app.session_factory() as session:
        return list(session.scalars(select(ShuntedEvent).order_by(ShuntedEvent.id)))


def bandwidth_resets(app: App) -> list[tuple[str, object]]:
    from bot.store.models import Player

    with app.session_factory() as session:
        rows = session.execute(
            select(Player.name, LedgerEntry.occurred_at)
            .join(Player, Player.id == LedgerEntry.player_id)
            .where(
                LedgerEntry.currency == holdings.BANDWIDTH,
                LedgerEntry.source == "scheduler",
                LedgerEntry.occurred_at == NWEEK_2_START,
            )
            .order_by(Player.name)
        ).all()
        return [(row.name, row.occurred_at) for row in rows]


def test_the_daemon_keeps_judging_after_a_timed_event_raised(
    tmp_path: Path, smtp_sink: SmtpSink, defective: pytest.MonkeyPatch
) -> None:
    port = free_loopback_port()
    app = make_app(
        tmp_path / "bot",
        smtp_ingress=SmtpIngressSettings(enabled=True, host="127.0.0.1", port=port),
        outbound=OutboundSettings(smtp_host=smtp_sink.host, smtp_port=smtp_sink.port),
    )
    clock = ScriptClock(go_game.SCRIPT[0].at)
    first, later = go_game.SCRIPT[0], go_game.SCRIPT[8]  # nweek 1; nweek 2, period 4
    with running(app, clock) as daemon:
        send(port, first)
        assert wait_until(lambda: judged(app, first), timeout=20)
        # The wall clock passes the nweek boundary: the worker's own scheduler
        # pass meets the broken handler (before the fix, the worker died here).
        clock.now = later.at - timedelta(hours=1)
        daemon.work_ready.set()
        assert wait_until(lambda: "dice-reveal" in kinds_sent(smtp_sink), timeout=20)
        clock.now = later.at
        send(port, later)
        assert wait_until(lambda: judged(app, later), timeout=20), message_statuses(app)
        assert wait_until(lambda: f"<{later.message_id}>" in replies_sent(smtp_sink), timeout=20)
        assert all(thread.is_alive() for thread in daemon.threads)
    app.dispose()


def send(port: int, post: go_game.ScriptedPost) -> None:
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as client:
        client.sendmail(post.author[1], [go_game.LIST_ADDRESS], post.raw())


def judged(app: App, post: go_game.ScriptedPost) -> bool:
    with app.session_factory() as session:
        status = session.scalar(select(Message.status).where(Message.message_id == post.message_id))
        return status == "processed"


def kinds_sent(sink: SmtpSink) -> list[str]:
    return [str(mail["X-Nomicbot-Kind"]) for mail in mails_received(sink)]


def replies_sent(sink: SmtpSink) -> list[str]:
    return [str(mail["In-Reply-To"]) for mail in mails_received(sink) if mail["In-Reply-To"]]
