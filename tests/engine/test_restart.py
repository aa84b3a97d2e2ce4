"""Killing the daemon and starting it again loses and repeats nothing.

The real ``nomicbot run`` reads a real Dovecot mailbox; it is killed with
SIGKILL while it works, more mail arrives (including a post it has already
seen, again), and a second daemon finishes the job.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import re
import signal
from collections import Counter
from datetime import timedelta
from pathlib import Path

from aiosmtpd.smtp import SMTP, Envelope, Session
from sqlalchemy import select

from bot.app import App
from bot.ingress.ingest import message_id_of
from bot.store.models import ImapCursor, OutboxMessage
from bot.testing import go_game
from bot.testing.apps import (
    action_log,
    append_to_mailbox,
    board_text,
    fill_outbox,
    maildir_mails,
    make_app,
    message_statuses,
    write_config,
)
from bot.testing.daemons import start_nomicbot
from bot.testing.dovecot import ImapAccount
from bot.testing.go_game import EXPECTED_BOARD, expected_log
from bot.testing.smtp_sink import CapturingHandler, SmtpSink
from bot.testing.support import wait_until

CHATTER = 300


def chatter(count: int) -> tuple[go_game.ScriptedPost, ...]:
    """Posts with no actions in them, interleaved with the game by arrival time."""
    return tuple(
        go_game.ScriptedPost(
            go_game.ALICE,
            post.at + timedelta(minutes=minute),
            "Good game so far.  I think I will place a stone somewhere soon.",
            1000 + index,
        )
        for index, (post, minute) in enumerate(
            (go_game.SCRIPT[n % 18], n // 18 + 1) for n in range(count)
        )
    )


def rulings(outbox: Path) -> Counter[str]:
    if not (outbox / "new").exists():
        return Counter()
    return Counter(
        str(m["In-Reply-To"]) for m in maildir_mails(outbox) if m["X-Nomicbot-Kind"] == "ruling"
    )


def test_kill_and_restart_loses_and_repeats_nothing(tmp_path: Path, imap_user: ImapAccount) -> None:
    folder = tmp_path / "bot"
    config = go_game_config(folder, imap_user)
    app = make_app(folder)  # the same database and settings, to inspect
    log = tmp_path / "daemon.log"
    # A backlog, so that the kill lands while the daemon is working.
    append_to_mailbox(imap_user, go_game.arrivals(go_game.SCRIPT[:18] + chatter(CHATTER)))
    first = start_nomicbot(config, log)
    try:
        assert wait_until(lambda: sum(rulings(folder / "outbox").values()) >= 6, timeout=60), (
            log.read_text()
        )
    finally:
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(10)
    print(
        f"killed with {Counter(message_statuses(app).values())} and "
        f"{sum(rulings(folder / 'outbox').values())} rulings mailed"
    )
    # The rest of the game, and two posts it has already judged, again.
    append_to_mailbox(imap_user, go_game.arrivals(go_game.SCRIPT[18:] + go_game.SCRIPT[2:4]))
    second = start_nomicbot(config, log)
    try:
        assert wait_until(lambda: len(rulings(folder / "outbox")) >= 26, timeout=60), (
            log.read_text()
        )
    finally:
        second.send_signal(signal.SIGTERM)
        assert second.wait(30) == 0, log.read_text()
    assert set(message_statuses(app).values()) == {"processed"}
    assert len(message_statuses(app)) == 26 + CHATTER
    assert action_log(app) == expected_log()  # nothing judged twice
    assert set(rulings(folder / "outbox").values()) == {1}  # nothing mailed twice
    assert board_text(app) == EXPECTED_BOARD
    with app.session_factory() as session:
        assert session.scalar(select(ImapCursor.last_uid)) == 28 + CHATTER


def go_game_config(folder: Path, account: ImapAccount) -> Path:
    return write_config(
        folder,
        (
            f'[imap]\nenabled = true\nhost = "{account.host}"\nport = {account.port}\n'
            f'username = "{account.username}"\npassword = "{account.password}"\n'
        ),
    )


# Trust II, item 7: `nomicbot run` SIGKILLed while its sender works through
# an outbox of 150 mails.  Each kill lands while a mail is in flight: the
# sink has received it but holds back its answer, so the sender never learns
# that the relay took it.  The runs are cut after 7, 3, 60, 1 and 20 mails
# received (the old sender claimed and marked 50 rows at a time).
OUTBOX_MAILS = 150
SENDER_KILLS = (7, 3, 60, 1, 20)
HOLD_SECONDS = 30.0  # longer than any kill takes to land


class HoldingHandler(CapturingHandler):
    """Captures every mail; keeps the connection waiting for its answer after the ``hold`` ones."""

    def __init__(self, hold: set[int]) -> None:
        super().__init__()
        self.hold = hold

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        answer = await super().handle_DATA(server, session, envelope)
        if len(self.snapshot()) in self.hold:
            await asyncio.sleep(HOLD_SECONDS)
        return answer


def outbox_statuses(app: App) -> Counter[str]:
    with app.session_factory() as session:
        return Counter(session.scalars(select(OutboxMessage.status)))


def without_date(raw: bytes) -> bytes:
    return re.sub(rb"(?m)^Date: [^\r\n]*\r?\n", b"", raw, count=1)


def test_a_sender_sigkilled_mid_outbox_repeats_at_most_the_mail_in_flight(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "bot"
    log = tmp_path / "daemon.log"
    kill_points = list(itertools.accumulate(SENDER_KILLS))
    with SmtpSink(handler=HoldingHandler(set(kill_points))) as sink:
        config = write_config(
            folder, f'[outbound]\nsmtp_host = "{sink.host}"\nsmtp_port = {sink.port}\n'
        )
        app = make_app(folder)
        fill_outbox(app, OUTBOX_MAILS)
        for point in kill_points:
            daemon = start_nomicbot(config, log)
            try:
                sink.wait_for(point, timeout=60)
            finally:
                os.killpg(daemon.pid, signal.SIGKILL)
                daemon.wait(10)
            print(f"killed after {point} deliveries: {outbox_statuses(app)}")
        daemon = start_nomicbot(config, log)
        try:
            done = wait_until(lambda: set(outbox_statuses(app)) == {"sent"}, timeout=60)
            assert done, log.read_text()
        finally:
            daemon.send_signal(signal.SIGTERM)
            assert daemon.wait(30) == 0, log.read_text()
        copies: dict[str, list[bytes]] = {}
        for mail in sink.messages:
            copies.setdefault(message_id_of(mail.data), []).append(mail.data)
    with app.session_factory() as session:
        stored = set(session.scalars(select(OutboxMessage.message_id)))
    deliveries = sum(len(sent) for sent in copies.values())
    print(f"{deliveries} deliveries of {len(copies)} mails after {len(SENDER_KILLS)} kills")
    # Every mail arrived, under the Message-ID stored with its row...
    assert set(copies) == stored and len(stored) == OUTBOX_MAILS + 1  # + nweek 1's commitment
    # ...and a kill repeated at most the one mail in flight, the same bytes but the Date.
    assert deliveries - len(copies) <= len(SENDER_KILLS)
    for sent in copies.values():
        assert {without_date(raw) for raw in sent} == {without_date(sent[0])}
