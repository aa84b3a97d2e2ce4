"""Run the real daemon in a test with a scripted clock, and read what it mailed.

The end-to-end tests (the Go game over SMTP and IMAP, the Field matches,
the governance week) all start a ``Daemon`` whose idea of "now" the test
moves post by post, and stop it however the test ends.  The supervision
tests also start the real ``nomicbot run`` as a process of its own.
"""

from __future__ import annotations

import os
import smtplib
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from pathlib import Path

from bot.app import App
from bot.daemon import Daemon, Supervision
from bot.systemd import Notifier
from bot.testing import go_game
from bot.testing.smtp_sink import SmtpSink


class ScriptClock:
    """The instant the daemon believes it is: set ``now`` to each post's scripted arrival."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@contextmanager
def running(
    app: App,
    clock: ScriptClock,
    supervision: Supervision | None = None,
    notifier: Notifier | None = None,
) -> Iterator[Daemon]:
    """Start a daemon for ``app`` reading ``clock``; shut it down when the block exits.

    ``supervision`` and ``notifier`` go to the ``Daemon`` (default: its own).
    Raises whatever ``Daemon.start`` raises; the daemon is then not started.
    """
    daemon = Daemon(app, clock, supervision, notifier)
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


def start_nomicbot(
    config: Path, log: Path, environment: dict[str, str] | None = None
) -> subprocess.Popen[bytes]:
    """``nomicbot run --config config`` in a session of its own, its output appended to ``log``.

    ``environment`` is added to this process's (``NOMICBOT_...`` overrides,
    ``NOTIFY_SOCKET``).  Stop it with ``os.killpg(process.pid, signal)``.
    """
    variables = {**os.environ, **(environment or {})}
    with open(log, "ab") as output:
        return subprocess.Popen(
            [sys.executable, "-m", "bot.cli", "run", "--config", str(config)],
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env=variables,
        )


def answers_smtp(port: int) -> bool:
    """Whether something accepts TCP connections on 127.0.0.1:``port``."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2):
            return True
    except OSError:
        return False


def post_over_smtp(port: int, post: go_game.ScriptedPost) -> None:
    """Send a scripted post to an SMTP ingress on loopback; raises what smtplib raises."""
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as client:
        client.sendmail(post.author[1], [go_game.LIST_ADDRESS], post.raw())


class NotifyListener:
    """What systemd would read from $NOTIFY_SOCKET: a unix datagram socket in the
    abstract namespace, read by a thread of its own; use as a context manager.

    ``address`` is the ``@name`` to give the daemon; ``lines()`` is every line
    received so far, in order, with the ``time.monotonic()`` it arrived.
    """

    def __init__(self) -> None:
        self.address = f"@nomicbot-test-notify-{os.getpid()}-{id(self)}"
        self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self._socket.bind(b"\0" + self.address[1:].encode())
        self._socket.settimeout(0.1)
        self._received: list[tuple[float, str]] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._read, name="notify-listener", daemon=True)

    def __enter__(self) -> NotifyListener:
        self._thread.start()
        return self

    def __exit__(self, *_exception: object) -> None:
        self._stop.set()
        self._thread.join(5)
        self._socket.close()

    def _read(self) -> None:
        while not self._stop.is_set():
            try:
                datagram = self._socket.recv(4096)
            except TimeoutError:
                continue
            arrived = time.monotonic()
            with self._lock:
                self._received += [(arrived, line) for line in datagram.decode().splitlines()]

    def lines(self) -> list[tuple[float, str]]:
        with self._lock:
            return list(self._received)

    def count(self, line: str, since: float = 0.0) -> int:
        """How many times ``line`` arrived at or after the monotonic instant ``since``."""
        return sum(1 for at, text in self.lines() if text == line and at >= since)
