"""The built-in SMTP ingress (real aiosmtpd on loopback), alone and beside the IMAP poller.

A sending MTA that saw 250 may forget the mail, so 250 must mean "stored";
what cannot be stored is refused with the right code, and a post that
arrives twice, or by both SMTP and IMAP, is judged once.
"""

from __future__ import annotations

import smtplib
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from bot.app import App
from bot.config import SmtpIngressSettings
from bot.daemon import Daemon
from bot.engine.worker import process_queue
from bot.ingress.ingest import IngestResult
from bot.ingress.smtp import IngressHandler, make_controller
from bot.runner import store_message
from bot.store.models import ImapCursor, Message
from bot.testing import go_game
from bot.testing.apps import append_to_mailbox, imap_settings, maildir_mails, make_app
from bot.testing.dovecot import ImapAccount
from bot.testing.support import LOOPBACK, free_loopback_port, wait_until

SMALL_LIMIT = 20_000
STORE_DELAY = 0.3  # seconds the store takes, so a premature 250 would be seen
POST = go_game.SCRIPT[0]  # Alice: "I place a stone at E5. I roll 3d6."


def slow_store(app: App) -> Callable[[bytes, datetime], IngestResult]:
    def store(raw: bytes, at: datetime) -> IngestResult:
        time.sleep(STORE_DELAY)
        return store_message(app, raw, "smtp", at)

    return store


@pytest.fixture
def ingress_port(game_app: App) -> Iterator[int]:
    """The SMTP ingress of ``game_app`` on a free loopback port, storing slowly."""
    port = free_loopback_port()
    handler = IngressHandler(slow_store(game_app), lambda: None, lambda: POST.at)
    controller = make_controller(handler, LOOPBACK, port, SMALL_LIMIT)
    controller.start()
    yield port
    controller.stop()


def send_data(port: int, raw: bytes) -> tuple[int, bytes]:
    """MAIL, RCPT and DATA without the SIZE extension; the server's answer to DATA."""
    with smtplib.SMTP(LOOPBACK, port, timeout=30) as client:
        client.ehlo()
        client.mail(POST.author[1])
        client.rcpt(go_game.LIST_ADDRESS)
        return client.data(raw)


def stored_count(app: App) -> int:
    with app.session_factory() as session:
        return int(session.scalar(select(func.count(Message.id))) or 0)


def test_250_means_the_post_is_already_in_the_database(
    game_app: App, ingress_port: int, records: Any
) -> None:
    code, answer = send_data(ingress_port, POST.raw())
    assert (code, stored_count(game_app)) == (250, 1)  # read at once, no waiting
    message = records.message(game_app, POST.message_id)
    assert f"stored as message {message.id}".encode() in answer
    assert (message.source, message.status, message.received_at) == ("smtp", "queued", POST.at)


def oversized() -> bytes:
    return POST.raw() + b"padding padding padding\r\n" * (SMALL_LIMIT // 20)


def test_an_oversized_post_announced_with_size_gets_552(game_app: App, ingress_port: int) -> None:
    with (
        smtplib.SMTP(LOOPBACK, ingress_port, timeout=30) as client,
        pytest.raises(smtplib.SMTPSenderRefused) as refused,
    ):
        client.sendmail(POST.author[1], [go_game.LIST_ADDRESS], oversized())
    assert refused.value.smtp_code == 552
    assert stored_count(game_app) == 0


def test_an_oversized_post_sent_without_size_gets_552(game_app: App, ingress_port: int) -> None:
    code, _answer = send_data(ingress_port, oversized())
    assert code == 552
    assert stored_count(game_app) == 0


def test_a_message_without_a_header_block_gets_550(game_app: App, ingress_port: int) -> None:
    code, answer = send_data(ingress_port, b"I place a stone at E5.\r\n\r\nAlice\r\n")
    assert code == 550
    assert b"no header block" in answer
    assert stored_count(game_app) == 0


def test_the_same_post_twice_is_stored_and_judged_once(
    game_app: App, ingress_port: int, records: Any
) -> None:
    first, second = send_data(ingress_port, POST.raw()), send_data(ingress_port, POST.raw())
    assert (first[0], second[0]) == (250, 250)
    assert b"not stored twice" in second[1]
    assert process_queue(game_app.session_factory, game_app.services).processed == 1
    third = send_data(ingress_port, POST.raw())  # after it was judged, too
    assert third[0] == 250
    assert process_queue(game_app.session_factory, game_app.services).processed == 0
    assert stored_count(game_app) == 1
    assert len(records.rulings(game_app, POST.message_id)) == 1
    assert [a.action for a in records.actions(game_app, POST.message_id)] == [
        "go.place",
        "dice.roll",
    ]


def test_the_same_post_on_four_connections_at_once_is_stored_once(
    game_app: App, ingress_port: int
) -> None:
    answers: list[int] = []
    ready = threading.Barrier(4)

    def deliver() -> None:
        with smtplib.SMTP(LOOPBACK, ingress_port, timeout=30) as client:
            client.ehlo()
            client.mail(POST.author[1])
            client.rcpt(go_game.LIST_ADDRESS)
            ready.wait(10)
            answers.append(client.data(POST.raw())[0])

    senders = [threading.Thread(target=deliver) for _ in range(4)]
    for thread in senders:
        thread.start()
    for thread in senders:
        thread.join(30)
    assert answers == [250] * 4
    assert stored_count(game_app) == 1


def both_ingresses(folder: Path, account: ImapAccount, port: int) -> App:
    smtp = SmtpIngressSettings(enabled=True, host=LOOPBACK, port=port)
    return make_app(folder, imap=imap_settings(account), smtp_ingress=smtp)


@contextmanager
def running(app: App) -> Iterator[Daemon]:
    daemon = Daemon(app, lambda: POST.at)
    daemon.start()
    try:
        yield daemon
    finally:
        daemon.shutdown()


def imap_fetched(app: App, uid: int = 1) -> bool:
    with app.session_factory() as session:
        return session.scalar(select(ImapCursor.last_uid)) == uid


def wait_for_idle(app: App) -> None:
    """Until the poller has made its first search and gone idle.

    A post appended between the poller's search and its IDLE command is not
    reported by Dovecot when IDLE starts; the poller then sees it only when it
    renews IDLE (9 minutes), so the test does not race the poller's start.
    """
    assert wait_until(lambda: imap_fetched(app, 0), timeout=30)
    time.sleep(0.5)


def judged(app: App) -> bool:
    with app.session_factory() as session:
        return session.scalar(select(Message.status)) == "processed"


def rulings_mailed(app: App) -> int:
    outbox = app.settings.outbox_maildir
    if not (outbox / "new").exists():
        return 0
    return sum(mail["X-Nomicbot-Kind"] == "ruling" for mail in maildir_mails(outbox))


def send_by_smtp(port: int) -> None:
    with smtplib.SMTP(LOOPBACK, port, timeout=30) as client:
        client.sendmail(POST.author[1], [go_game.LIST_ADDRESS], POST.raw())


@pytest.mark.parametrize("first", ["smtp", "imap"])
def test_a_post_by_smtp_and_by_imap_is_judged_once(
    tmp_path: Path, imap_user: ImapAccount, records: Any, first: str
) -> None:
    port = free_loopback_port()
    app = both_ingresses(tmp_path / "bot", imap_user, port)
    with running(app):
        wait_for_idle(app)
        if first == "smtp":
            send_by_smtp(port)
            assert wait_until(lambda: judged(app), timeout=30)
            append_to_mailbox(imap_user, [(POST.raw(), POST.at)])
            assert wait_until(lambda: imap_fetched(app), timeout=30)
        else:
            append_to_mailbox(imap_user, [(POST.raw(), POST.at)])
            assert wait_until(lambda: judged(app), timeout=30)
            send_by_smtp(port)
        assert wait_until(lambda: rulings_mailed(app) >= 1, timeout=30)
        time.sleep(0.5)  # room for a wrong second judgement to show up
    assert stored_count(app) == 1
    assert records.message(app, POST.message_id).source == first
    assert len(records.actions(app, POST.message_id)) == 2
    assert rulings_mailed(app) == 1
    app.dispose()
