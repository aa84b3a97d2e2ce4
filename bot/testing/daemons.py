"""Run the real daemon in a test with a scripted clock, and read what it mailed.

The end-to-end tests (the Go game over SMTP and IMAP, the Field matches,
the governance week) all start a ``Daemon`` whose idea of "now" the test
moves post by post, and stop it however the test ends.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default

from bot.app import App
from bot.daemon import Daemon
from bot.testing.smtp_sink import SmtpSink


class ScriptClock:
    """The instant the daemon believes it is: set ``now`` to each post's scripted arrival."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@contextmanager
def running(app: App, clock: ScriptClock) -> Iterator[Daemon]:
    """Start a daemon for ``app`` reading ``clock``; shut it down when the block exits.

    Raises whatever ``Daemon.start`` raises; the daemon is then not started.
    """
    daemon = Daemon(app, clock)
    daemon.start()
    try:
        yield daemon
    finally:
        daemon.shutdown()


def mails_received(sink: SmtpSink) -> list[EmailMessage]:
    """Every mail the sink captured, parsed, in arrival order.

    Raises TypeError if the parser returns anything but an ``EmailMessage``
    (it cannot with ``policy=default``; the check narrows the type).
    """
    mails = []
    for captured in sink.messages:
        mail = message_from_bytes(captured.data, policy=default)
        if not isinstance(mail, EmailMessage):
            raise TypeError(f"expected an EmailMessage, got {type(mail).__name__}")
        mails.append(mail)
    return mails
