"""The sender and the transports: retries, failures, exactly-once delivery.

The outbox rows are real ones (a judged post's ruling and the nweek's dice
commitment); the failing transports are fakes of our own Transport
protocol.  SmtpTransport talks to a real SMTP server on loopback.
"""

from __future__ import annotations

import os
import smtplib
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime, timedelta
from email import message_from_bytes
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import select

from bot.app import App
from bot.config import OutboundSettings
from bot.ingress.ingest import message_id_of
from bot.outbound.sender import (
    BACKOFF_BASE,
    DeliveryReport,
    dated,
    deliver_pending,
    recover_interrupted,
)
from bot.outbound.transports import MaildirTransport, SmtpTransport
from bot.store.models import OutboxMessage
from bot.testing import go_game
from bot.testing.apps import fill_outbox
from bot.testing.smtp_sink import SmtpSink
from bot.testing.support import LOOPBACK, free_loopback_port

SENDER = go_game.BOT_ADDRESS


class ProcessDied(BaseException):
    """Stands for the process being killed in the middle of a delivery."""


class ScriptedTransport:
    """Raises the scripted errors, one per call, then delivers; records what it delivered."""

    recognises_repeats = False

    def __init__(self, errors: Sequence[BaseException] = (), delay: float = 0.0) -> None:
        self.errors = list(errors)
        self.delay = delay
        self.calls = 0
        self.delivered: list[str] = []
        self.raws: list[bytes] = []
        self.lock = threading.Lock()

    def send(self, raw: bytes, sender: str, recipients: Sequence[str], message_id: str) -> None:
        with self.lock:
            self.calls += 1
            error = self.errors.pop(0) if self.errors else None
        time.sleep(self.delay)
        if error is not None:
            raise error
        with self.lock:
            self.delivered.append(message_id)
            self.raws.append(raw)


@pytest.fixture
def outbox_app(game_app: App, make_post: Callable[..., bytes], judge: Any) -> App:
    """A bot whose outbox holds two pending rows: the dice commitment and a ruling."""
    judge(game_app, [make_post("outbound@example.test", "I roll 2d6.")])
    assert len(rows(game_app)) == 2
    return game_app


def rows(app: App) -> list[OutboxMessage]:
    with app.session_factory() as session:
        return list(session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)))


def deliver(
    app: App,
    transport: Any,
    at: datetime | None = None,
    max_attempts: int = 8,
    clock: Callable[[], datetime] | None = None,
) -> DeliveryReport:
    return deliver_pending(app.session_factory, transport, SENDER, max_attempts, at, clock)


def later(seconds: float) -> datetime:
    return datetime.now(UTC) + timedelta(seconds=seconds)


def test_a_temporary_failure_is_retried_with_growing_backoff(outbox_app: App) -> None:
    transport = ScriptedTransport([OSError("connection refused")] * 4)
    started = datetime.now(UTC)
    assert deliver(outbox_app, transport) == DeliveryReport(0, 2, 0)
    first = rows(outbox_app)
    assert [(row.status, row.attempts) for row in first] == [("pending", 1)] * 2
    assert all(row.last_error == "OSError: connection refused" for row in first)
    assert all(row.next_attempt_at - started >= BACKOFF_BASE for row in first)
    assert deliver(outbox_app, transport) == DeliveryReport(0, 0, 0)  # not due yet
    assert deliver(outbox_app, transport, later(40)) == DeliveryReport(0, 2, 0)
    second = rows(outbox_app)
    assert all(row.next_attempt_at - started >= 2 * BACKOFF_BASE for row in second)
    assert deliver(outbox_app, transport, later(130)) == DeliveryReport(2, 0, 0)
    assert [(row.status, row.attempts, row.last_error) for row in rows(outbox_app)] == [
        ("sent", 3, "")
    ] * 2
    assert sorted(transport.delivered) == sorted(row.message_id for row in rows(outbox_app))


def test_a_row_fails_for_good_after_max_attempts(outbox_app: App) -> None:
    transport = ScriptedTransport([TimeoutError("relay timed out")] * 100)
    for hours in range(4):
        deliver(outbox_app, transport, later(hours * 3600 + 60), max_attempts=3)
    assert [(row.status, row.attempts) for row in rows(outbox_app)] == [("failed", 3)] * 2
    assert transport.calls == 6  # three attempts per row, none after "failed"


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (smtplib.SMTPResponseException(550, b"5.1.1 no such list"), "failed"),
        (smtplib.SMTPDataError(554, b"5.7.1 message refused"), "failed"),
        (smtplib.SMTPRecipientsRefused({go_game.LIST_ADDRESS: (550, b"5.1.1 unknown")}), "failed"),
        (smtplib.SMTPResponseException(451, b"4.3.0 try again later"), "pending"),
        (smtplib.SMTPRecipientsRefused({go_game.LIST_ADDRESS: (450, b"4.2.1 busy")}), "pending"),
        (smtplib.SMTPServerDisconnected("connection lost"), "pending"),
    ],
    ids=["550", "554-data", "550-every-recipient", "451", "450-recipient", "disconnected"],
)
def test_a_5xx_answer_fails_at_once_and_a_4xx_is_retried(
    outbox_app: App, error: Exception, status: str
) -> None:
    deliver(outbox_app, ScriptedTransport([error, error]))
    assert [(row.status, row.attempts) for row in rows(outbox_app)] == [(status, 1)] * 2


def test_delivering_again_sends_nothing_twice(outbox_app: App) -> None:
    transport = ScriptedTransport()
    assert deliver(outbox_app, transport) == DeliveryReport(2, 0, 0)
    assert deliver(outbox_app, transport, later(86_400)) == DeliveryReport(0, 0, 0)
    assert transport.calls == 2


def test_two_senders_at_once_deliver_each_row_once(outbox_app: App) -> None:
    transport = ScriptedTransport(delay=0.2)
    reports: list[DeliveryReport] = []
    senders = [
        threading.Thread(target=lambda: reports.append(deliver(outbox_app, transport)))
        for _ in range(2)
    ]
    for thread in senders:
        thread.start()
    for thread in senders:
        thread.join(30)
    assert sum(report.sent for report in reports) == 2
    assert Counter(transport.delivered) == Counter(row.message_id for row in rows(outbox_app))


def test_a_delivery_cut_short_is_recovered_and_sent(outbox_app: App) -> None:
    with pytest.raises(ProcessDied):
        deliver(outbox_app, ScriptedTransport([ProcessDied()]))
    # Only the row in flight was claimed when the process died.
    assert [row.status for row in rows(outbox_app)] == ["sending", "pending"]
    transport = ScriptedTransport()
    assert deliver(outbox_app, transport) == DeliveryReport(1, 0, 0)  # never a claimed row
    assert recover_interrupted(outbox_app.session_factory) == 1
    assert recover_interrupted(outbox_app.session_factory) == 0
    assert deliver(outbox_app, transport) == DeliveryReport(1, 0, 0)
    assert [row.status for row in rows(outbox_app)] == ["sent", "sent"]
    assert len(set(transport.delivered)) == 2


RAW_WITH_DOTS = (
    b"From: nomicbot <referee@example.test>\n"
    b"To: nomic@lists.example.test\n"
    b"Subject: dots\r\n"
    b"Message-ID: <dots@example.test>\n"
    b"\n"
    b".a line starting with a dot\n"
    b"..and one with two\r\n"
    b".\n"
    b"trailing spaces   \n"
    b"last line\n"
)


def test_smtp_transport_delivers_exact_bytes_with_crlf(smtp_sink: SmtpSink) -> None:
    settings = OutboundSettings(smtp_host=smtp_sink.host, smtp_port=smtp_sink.port)
    SmtpTransport(settings, timeout=10).send(
        RAW_WITH_DOTS, SENDER, [go_game.LIST_ADDRESS], "dots@example.test"
    )
    [captured] = smtp_sink.wait_for(1)
    assert captured.data == RAW_WITH_DOTS.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    assert (captured.mail_from, captured.recipients) == (SENDER, (go_game.LIST_ADDRESS,))


def test_a_real_ruling_reaches_the_smtp_server_unchanged(
    outbox_app: App, smtp_sink: SmtpSink
) -> None:
    settings = OutboundSettings(smtp_host=smtp_sink.host, smtp_port=smtp_sink.port)
    assert deliver(outbox_app, SmtpTransport(settings, timeout=10)) == DeliveryReport(2, 0, 0)
    captured = {message.data for message in smtp_sink.wait_for(2)}
    assert captured == {row.raw.replace(b"\n", b"\r\n") for row in rows(outbox_app)}


class RefusingHandler:
    """A real SMTP server that refuses every recipient with 550."""

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, options: Any
    ) -> str:
        return "550 5.1.1 no such mailbox here"


@pytest.fixture
def refusing_server() -> Iterator[int]:
    port = free_loopback_port()
    controller = Controller(RefusingHandler(), hostname=LOOPBACK, port=port)
    controller.start()
    yield port
    controller.stop()


def test_a_relay_refusing_every_recipient_fails_the_row_at_once(
    outbox_app: App, refusing_server: int
) -> None:
    settings = OutboundSettings(smtp_host=LOOPBACK, smtp_port=refusing_server)
    assert deliver(outbox_app, SmtpTransport(settings, timeout=10)) == DeliveryReport(0, 0, 2)
    assert all("550" in row.last_error for row in rows(outbox_app))


def maildir_files(folder: Path) -> list[Path]:
    return sorted(p for sub in ("new", "cur") for p in (folder / sub).iterdir())


def test_maildir_transport_writes_each_message_id_once(tmp_path: Path) -> None:
    transport = MaildirTransport(tmp_path / "out")
    transport.send(b"Subject: one\n\nfirst\n", SENDER, [], "one@example.test")
    transport.send(b"Subject: one\n\nagain\n", SENDER, [], "one@example.test")
    [written] = maildir_files(tmp_path / "out")
    assert written.read_bytes() == b"Subject: one\n\nfirst\n"
    written.rename(tmp_path / "out" / "cur" / f"{written.name}:2,S")  # a reader saw it
    transport.send(b"Subject: one\n\nthird\n", SENDER, [], "one@example.test")
    transport.send(b"Subject: two\n\nother\n", SENDER, [], "two/with:odd@example.test")
    assert len(maildir_files(tmp_path / "out")) == 2
    assert list((tmp_path / "out" / "tmp").iterdir()) == []


@pytest.mark.parametrize("deferring", [False, True])
def test_a_maildir_file_is_the_mail_whole_as_open_would_create_it(
    tmp_path: Path, deferring: bool
) -> None:
    out = tmp_path / "out"
    transport = MaildirTransport(out)
    # Larger than one pipe or page: every byte of a long mail reaches the file.
    mails = {f"{size}@example.test": os.urandom(size) for size in (0, 1, 5_000, 3_000_000)}
    if deferring:
        with transport.deferred():
            for message_id, raw in mails.items():
                transport.send(raw, SENDER, [], message_id)
    else:
        for message_id, raw in mails.items():
            transport.send(raw, SENDER, [], message_id)
    files = maildir_files(out)
    assert sorted(path.read_bytes() for path in files) == sorted(mails.values())
    assert all(path.parent.name == "new" for path in files)
    assert list((out / "tmp").iterdir()) == []
    reference = tmp_path / "reference"
    reference.write_bytes(b"")  # as open(path, "wb") creates a file, under the same umask
    assert {path.stat().st_mode for path in files} == {reference.stat().st_mode}


def test_a_mail_left_in_tmp_by_a_crash_is_written_again_whole(tmp_path: Path) -> None:
    out = tmp_path / "out"
    transport = MaildirTransport(out)
    transport.deferring = True  # as within deferred(), left without its end: the process died
    transport.send(b"Subject: long\n\n" + b"x" * 10_000, SENDER, [], "one@example.test")
    [left] = (out / "tmp").iterdir()
    again = MaildirTransport(out)  # the next process
    again.send(b"Subject: short\n\ny\n", SENDER, [], "one@example.test")
    [written] = maildir_files(out)
    assert written.read_bytes() == b"Subject: short\n\ny\n"
    assert written.name == left.name
    assert list((out / "tmp").iterdir()) == []


class DiesAfterWriting:
    """Writes the mail to the Maildir, then the process dies before the "sent" mark."""

    recognises_repeats = True

    def __init__(self, maildir: MaildirTransport) -> None:
        self.maildir = maildir

    def send(self, raw: bytes, sender: str, recipients: Sequence[str], message_id: str) -> None:
        self.maildir.send(raw, sender, recipients, message_id)
        raise ProcessDied()


def test_a_maildir_delivery_repeated_after_a_crash_writes_once(
    outbox_app: App, tmp_path: Path
) -> None:
    maildir = MaildirTransport(tmp_path / "out")
    with pytest.raises(ProcessDied):
        deliver(outbox_app, DiesAfterWriting(maildir))
    recover_interrupted(outbox_app.session_factory)
    assert deliver(outbox_app, maildir) == DeliveryReport(2, 0, 0)
    assert len(maildir_files(tmp_path / "out")) == 2


def test_a_deferring_maildir_shows_mails_once_settled_and_each_message_id_once(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    transport = MaildirTransport(out)
    transport.send(b"Subject: seen\n\nread\n", SENDER, [], "seen@example.test")
    [seen] = maildir_files(out)
    seen.rename(out / "cur" / f"{seen.name}:2,S")  # a reader saw it
    with transport.deferred():
        transport.send(b"Subject: one\n\nfirst\n", SENDER, [], "one@example.test")
        transport.send(b"Subject: one\n\nagain\n", SENDER, [], "one@example.test")
        transport.send(b"Subject: seen\n\nagain\n", SENDER, [], "seen@example.test")
        assert len(maildir_files(out)) == 1  # nothing shown before the sync
        transport.settle()
        transport.send(b"Subject: one\n\nthird\n", SENDER, [], "one@example.test")
        transport.send(b"Subject: two\n\nother\n", SENDER, [], "two@example.test")
    files = maildir_files(out)
    assert sorted(path.read_bytes() for path in files) == [
        b"Subject: one\n\nfirst\n",
        b"Subject: seen\n\nread\n",
        b"Subject: two\n\nother\n",
    ]
    assert list((out / "tmp").iterdir()) == []


def test_a_deferred_run_lists_the_maildir_once_however_many_batches_it_settles(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A long replay's outbox holds every reply of the game: listing it again
    # at each batch made delivering N replies cost N squared.
    out = tmp_path / "out"
    transport = MaildirTransport(out)
    listed: list[str] = []
    real_listdir = os.listdir

    def counting_listdir(path: str | os.PathLike[str]) -> list[str]:
        listed.append(os.fspath(path))
        return real_listdir(path)

    monkeypatch.setattr(os, "listdir", counting_listdir)
    with transport.deferred():
        for batch in range(3):
            for number in range(4):
                mail_id = f"{batch}.{number}@example.test"
                transport.send(b"Subject: x\n\nbody\n", SENDER, [], mail_id)
            transport.send(b"Subject: x\n\nagain\n", SENDER, [], "0.0@example.test")
            transport.settle()
    assert len(listed) == 2  # new/ and cur/, once
    assert len(maildir_files(out)) == 12  # each mail once, its repeats recognised


class DiesBeforeTheSync:
    """Writes each mail as a deferring Maildir does; the process dies before the sync."""

    recognises_repeats = True

    def __init__(self, maildir: MaildirTransport, sends: int) -> None:
        self.maildir = maildir
        self.sends = sends

    def send(self, raw: bytes, sender: str, recipients: Sequence[str], message_id: str) -> None:
        self.maildir.send(raw, sender, recipients, message_id)
        self.sends -= 1
        if self.sends == 0:
            raise ProcessDied()


def test_a_deferred_delivery_cut_short_before_its_sync_is_sent_again_once(
    outbox_app: App, tmp_path: Path
) -> None:
    maildir = MaildirTransport(tmp_path / "out")
    maildir.deferring = True  # as within deferred(), left without its end: the process died
    with pytest.raises(ProcessDied):
        deliver(outbox_app, DiesBeforeTheSync(maildir, sends=2))
    assert maildir_files(tmp_path / "out") == []  # written, but not shown as delivered
    assert {row.status for row in rows(outbox_app)} == {"sending"}
    recover_interrupted(outbox_app.session_factory)
    again = MaildirTransport(tmp_path / "out")  # the next process
    with again.deferred():
        assert deliver(outbox_app, again) == DeliveryReport(2, 0, 0)
    assert len(maildir_files(tmp_path / "out")) == 2
    assert {row.status for row in rows(outbox_app)} == {"sent"}


# Trust II, item 7: a crash repeats at most the one mail in flight.
CRASH_MAILS = 120
# Where each run dies, counted in mails the relay accepted in that run: within
# the first batch of the old sender (50 rows), across one, and a crash loop
# faster than any batch (1, 3).
KILLS = (7, 3, 60, 1, 20)


class KilledAfterAccepting:
    """The real relay accepts each mail; the process dies right after the ``kill_at``-th."""

    recognises_repeats = False

    def __init__(self, relay: SmtpTransport, kill_at: int) -> None:
        self.relay = relay
        self.kill_at = kill_at
        self.accepted = 0

    def send(self, raw: bytes, sender: str, recipients: Sequence[str], message_id: str) -> None:
        self.relay.send(raw, sender, recipients, message_id)
        self.accepted += 1
        if self.accepted == self.kill_at:
            raise ProcessDied()


def sent_rows(app: App) -> int:
    return sum(row.status == "sent" for row in rows(app))


def test_a_sender_killed_after_the_relay_accepted_repeats_only_that_mail(
    game_app: App, smtp_sink: SmtpSink
) -> None:
    fill_outbox(game_app, CRASH_MAILS)
    relay = SmtpTransport(OutboundSettings(smtp_host=smtp_sink.host, smtp_port=smtp_sink.port))
    for kill_at in KILLS:
        before = sent_rows(game_app)
        recover_interrupted(game_app.session_factory)  # what `nomicbot run` does first
        with pytest.raises(ProcessDied):
            deliver(game_app, KilledAfterAccepting(relay, kill_at))
        # Every mail the relay accepted is marked but the one the crash cut off.
        assert sent_rows(game_app) - before == kill_at - 1
    recover_interrupted(game_app.session_factory)
    deliver(game_app, relay)
    delivered = Counter(message_id_of(mail.data) for mail in smtp_sink.messages)
    print(f"{sum(delivered.values())} deliveries of {len(delivered)} mails, {len(KILLS)} kills")
    assert sorted(delivered) == sorted(row.message_id for row in rows(game_app))
    assert sent_rows(game_app) == CRASH_MAILS
    # Each kill cut off one accepted mail before its mark, sent again after
    # (the kill at 1 cut off that same mail again: it went out three times).
    assert sum(delivered.values()) - len(delivered) == len(KILLS)


def test_a_retry_is_dated_when_it_is_sent_again(outbox_app: App) -> None:
    """Trust II, item 9: with a clock (the daemon's) the Date is the moment of sending."""
    transport = ScriptedTransport([OSError("connection refused")] * 2)
    first_try = datetime(2031, 5, 1, 3, 46, tzinfo=UTC)
    assert deliver(outbox_app, transport, clock=lambda: first_try) == DeliveryReport(0, 2, 0)
    retry = first_try + timedelta(minutes=1)
    assert deliver(outbox_app, transport, later(40), clock=lambda: retry) == DeliveryReport(2, 0, 0)
    dates = {parsedate_to_datetime(str(message_from_bytes(raw)["Date"])) for raw in transport.raws}
    assert dates == {retry}
    # The stored rows keep the instant they were composed for; only the Date moved.
    stored = [row.raw for row in rows(outbox_app)]
    assert not set(stored) & set(transport.raws)
    assert {dated(raw, retry) for raw in stored} == set(transport.raws)
