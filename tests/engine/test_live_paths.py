"""The scripted game through the daemon: real SMTP ingress, real Dovecot IMAP.

Replies go to a real SMTP server (the sink).  Both paths must reach exactly
the state the replay of the same posts reaches.
"""

from __future__ import annotations

import smtplib
from datetime import UTC
from email import message_from_bytes
from email.policy import default
from pathlib import Path

from imapclient import IMAPClient

from bot.app import App
from bot.config import OutboundSettings, SmtpIngressSettings
from bot.testing import go_game
from bot.testing.apps import (
    action_log,
    append_to_mailbox,
    board_text,
    imap_settings,
    make_app,
    message_statuses,
)
from bot.testing.daemons import ScriptClock, running
from bot.testing.dovecot import ImapAccount
from bot.testing.go_game import EXPECTED_BOARD, GAME_END, expected_log
from bot.testing.smtp_sink import SmtpSink
from bot.testing.support import free_loopback_port, wait_until

DONE = {"processed", "ignored"}


def judged(app: App) -> int:
    return sum(status in DONE for status in message_statuses(app).values())


def rulings_sent(sink: SmtpSink) -> list[str]:
    kinds = [message_from_bytes(m.data, policy=default) for m in sink.messages]
    return [str(mail["In-Reply-To"]) for mail in kinds if mail["X-Nomicbot-Kind"] == "ruling"]


def to_sink(sink: SmtpSink) -> OutboundSettings:
    return OutboundSettings(smtp_host=sink.host, smtp_port=sink.port)


def test_smtp_ingress_plays_the_game_like_the_replay(tmp_path: Path, smtp_sink: SmtpSink) -> None:
    port = free_loopback_port()
    ingress = SmtpIngressSettings(enabled=True, host="127.0.0.1", port=port)
    app = make_app(tmp_path, smtp_ingress=ingress, outbound=to_sink(smtp_sink))
    clock = ScriptClock(go_game.SCRIPT[0].at)
    with running(app, clock):
        for number, post in enumerate(go_game.SCRIPT, start=1):
            clock.now = post.at
            with smtplib.SMTP("127.0.0.1", port, timeout=30) as client:
                client.sendmail(post.author[1], [go_game.LIST_ADDRESS], post.raw())
            assert wait_until(lambda n=number: judged(app) >= n, timeout=30)
        clock.now = GAME_END
        assert wait_until(lambda: len(rulings_sent(smtp_sink)) >= 26, timeout=30)
    assert action_log(app) == expected_log()
    assert board_text(app) == EXPECTED_BOARD
    assert sorted(rulings_sent(smtp_sink)) == sorted(f"<{p.message_id}>" for p in go_game.SCRIPT)


def test_imap_poller_plays_the_game_like_the_replay(
    tmp_path: Path, imap_user: ImapAccount, smtp_sink: SmtpSink
) -> None:
    half = len(go_game.SCRIPT) // 2
    # Half the posts wait in the mailbox before the bot starts, ...
    append_to_mailbox(imap_user, go_game.arrivals(go_game.SCRIPT[:half]))
    app = make_app(tmp_path, imap=imap_settings(imap_user), outbound=to_sink(smtp_sink))
    with running(app, ScriptClock(GAME_END)):
        assert wait_until(lambda: judged(app) >= half, timeout=30)
        # ... the rest arrive while it IDLEs.
        append_to_mailbox(imap_user, go_game.arrivals(go_game.SCRIPT[half:]))
        assert wait_until(lambda: judged(app) >= 26, timeout=30)
        assert wait_until(lambda: len(rulings_sent(smtp_sink)) >= 26, timeout=30)
    assert action_log(app) == expected_log()
    assert board_text(app) == EXPECTED_BOARD
    with IMAPClient(imap_user.host, port=imap_user.port, ssl=False) as client:
        client.login(imap_user.username, imap_user.password)
        client.select_folder("INBOX", readonly=True)
        assert client.search(["SEEN"]) == []  # the bot never changed the mailbox
        assert len(client.search(["ALL"])) == 26


def test_post_arrival_time_is_the_imap_internaldate(tmp_path: Path, imap_user: ImapAccount) -> None:
    post = go_game.SCRIPT[5]
    append_to_mailbox(imap_user, [(post.raw(), post.at)])
    app = make_app(tmp_path, imap=imap_settings(imap_user))
    from bot.ingress.imap import ImapPoller

    report = ImapPoller(app.settings.imap, app.session_factory).poll_once()
    assert (report.fetched, report.stored) == (1, 1)
    from sqlalchemy import select

    from bot.store.models import Message

    with app.session_factory() as session:
        arrival = session.scalar(select(Message.received_at))
    assert arrival == post.at.astimezone(UTC)
