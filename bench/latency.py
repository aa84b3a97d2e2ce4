"""Live latency: posts through real Dovecot IMAP IDLE, rulings to a real SMTP server.

    .venv/bin/python bench/latency.py [--rate 20] [--seconds 60] [--players 20]

Starts a private Dovecot (``bot.testing.dovecot``) and an SMTP server on
loopback (``bot.testing.smtp_sink``, aiosmtpd), and the real daemon
(``bot.daemon.Daemon``: the IMAP poller in IDLE, the worker, the sender) on
a fresh SQLite database with the embedded defaults, reading the wall clock.
A feeder APPENDs list posts to the bot's mailbox at a steady ``--rate``
posts a second for ``--seconds`` seconds: each is "I roll 1d6." from one of
``--players`` registered players, so each gets a ruling of its own (rule 9's
roll with its proof line).  The latency of a post is from the start of its
APPEND to its ruling reaching the SMTP server (matched by In-Reply-To).

A second IMAP connection sits in IDLE on the same mailbox and times each
APPEND to the server's EXISTS notification: that part of the latency is
Dovecot's own, and is printed separately.

Prints the latency's median, 90th and 99th percentiles and maximum (the goal:
p50 < 1 s and p99 < 2 s at 20 posts/s), the IDLE notification's, the rate
the feeder kept, and how many rulings arrived.  Fails loudly if a post gets
no ruling within ``--drain`` seconds of the end of the feed.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from imapclient import IMAPClient
from timing import percentile

from bot.config import OutboundSettings, PlayerEntry
from bot.posts import compose_post
from bot.testing import go_game
from bot.testing.apps import game_settings, imap_settings
from bot.testing.daemons import running
from bot.testing.dovecot import DovecotServer, ImapAccount
from bot.testing.smtp_sink import SmtpSink

IN_REPLY_TO = re.compile(rb"^In-Reply-To:\s*<([^>]+)>", re.IGNORECASE | re.MULTILINE)
KIND = re.compile(rb"^X-Nomicbot-Kind:\s*(\S+)", re.IGNORECASE | re.MULTILINE)


def player(number: int) -> tuple[str, str]:
    return f"Player{number:03d}", f"player{number:03d}@example.test"


def post(number: int, players: int) -> bytes:
    name, address = player(number % players)
    return compose_post(
        name,
        address,
        "[Nomic] Dice",
        f"I roll 1d6.\n\n-- \n{name}\n",
        f"latency-{number}@example.test",
        datetime.now(UTC),
        to=go_game.LIST_ADDRESS,
    )


class RulingClock:
    """When each ruling reached the SMTP server, by the Message-ID it answers."""

    def __init__(self, sink: SmtpSink) -> None:
        self.sink = sink
        self.arrived: dict[str, float] = {}
        self.seen = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._watch, daemon=True)

    def _watch(self) -> None:
        while not self.stop.is_set():
            try:
                messages = self.sink.wait_for(self.seen + 1, timeout=0.2)
            except TimeoutError:
                continue
            now = time.monotonic()
            for message in messages[self.seen :]:
                kind = KIND.search(message.data)
                answered = IN_REPLY_TO.search(message.data)
                if kind and kind[1] == b"ruling" and answered:
                    self.arrived.setdefault(answered[1].decode(), now)
            self.seen = len(messages)


class IdleClock:
    """When the server announced each new message (EXISTS) to a client in IDLE."""

    def __init__(self, account: ImapAccount) -> None:
        self.account = account
        self.announced: list[tuple[int, float]] = []  # (message count, instant)
        self.stop = threading.Event()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._watch, daemon=True)

    def _watch(self) -> None:
        with IMAPClient(self.account.host, port=self.account.port, ssl=False) as client:
            client.login(self.account.username, self.account.password)
            client.select_folder("INBOX", readonly=True)
            client.idle()
            self.ready.set()
            while not self.stop.is_set():
                for response in client.idle_check(timeout=0.2):
                    if len(response) >= 2 and response[1] == b"EXISTS":
                        self.announced.append((int(response[0]), time.monotonic()))
            client.idle_done()


def feed(account: ImapAccount, rate: float, seconds: float, players: int) -> list[float]:
    """APPEND posts at ``rate`` a second; the instant each APPEND started, by post number."""
    started: list[float] = []
    count = int(rate * seconds)
    with IMAPClient(account.host, port=account.port, ssl=False) as client:
        client.login(account.username, account.password)
        origin = time.monotonic()
        for number in range(count):
            due = origin + number / rate
            pause = due - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            raw = post(number, players)
            started.append(time.monotonic())
            client.append("INBOX", raw)
    return started


def describe(label: str, seconds: Sequence[float]) -> str:
    return (
        f"{label}: p50 {statistics.median(seconds):.3f} s, p90 {percentile(seconds, 0.9):.3f} s, "
        f"p99 {percentile(seconds, 0.99):.3f} s, max {max(seconds):.3f} s ({len(seconds)} posts)"
    )


def main(arguments: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=20.0, help="posts a second")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to feed")
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--drain", type=float, default=120.0, help="seconds to wait at the end")
    options = parser.parse_args(arguments)
    with (
        tempfile.TemporaryDirectory(prefix="nomicbot-latency-") as folder,
        DovecotServer() as dovecot,
        SmtpSink() as sink,
    ):
        account = dovecot.add_user("referee", "latency-bench")
        today = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
        settings = game_settings(Path(folder), imap=imap_settings(account))
        settings = replace(
            settings,
            ntime=replace(settings.ntime, epoch=today.isoformat()),
            outbound=OutboundSettings(smtp_host=sink.host, smtp_port=sink.port),
            players=tuple(
                PlayerEntry(*player(number)[:1], (player(number)[1],))
                for number in range(options.players)
            ),
        )
        from bot.app import build_app

        app = build_app(settings)
        rulings = RulingClock(sink)
        idle = IdleClock(account)
        rulings.thread.start()
        idle.thread.start()
        idle.ready.wait(10)
        with running(app, lambda: datetime.now(UTC)):
            time.sleep(2.0)  # the first pass: the nweek's commitment, Bandwidth
            feed_start = time.monotonic()
            started = feed(account, options.rate, options.seconds, options.players)
            feed_seconds = time.monotonic() - feed_start
            deadline = time.monotonic() + options.drain
            while len(rulings.arrived) < len(started) and time.monotonic() < deadline:
                time.sleep(0.1)
        rulings.stop.set()
        idle.stop.set()
        rulings.thread.join(5)
        idle.thread.join(5)
    return report(options, started, feed_seconds, rulings, idle)


def announcement_delays(started: list[float], announced: list[tuple[int, float]]) -> list[float]:
    """For each post, the time from its APPEND to the first EXISTS that counts it.

    "EXISTS n" says the mailbox holds n messages: the n-th post appended is
    announced by the first EXISTS of n or more (the server may announce several
    APPENDs at once).
    """
    delays = []
    position = 0
    for number, instant in enumerate(started, start=1):
        while position < len(announced) and announced[position][0] < number:
            position += 1
        if position == len(announced):
            break
        delays.append(announced[position][1] - instant)
    return delays


def report(
    options: argparse.Namespace,
    started: list[float],
    feed_seconds: float,
    rulings: RulingClock,
    idle: IdleClock,
) -> int:
    latencies = [
        rulings.arrived[f"latency-{number}@example.test"] - instant
        for number, instant in enumerate(started)
        if f"latency-{number}@example.test" in rulings.arrived
    ]
    notifications = announcement_delays(started, idle.announced)
    print(
        f"fed {len(started)} posts in {feed_seconds:.1f} s ({len(started) / feed_seconds:.1f} "
        f"posts/s, asked {options.rate:g}); rulings received: {len(latencies)}"
    )
    if notifications:
        print(describe("Dovecot IDLE notification (APPEND to EXISTS)", notifications))
    if latencies:
        print(describe("post to ruling (APPEND to the ruling at the SMTP server)", latencies))
        p50, p99 = statistics.median(latencies), percentile(latencies, 0.99)
        verdict = "meets" if p50 < 1.0 and p99 < 2.0 else "misses"
        print(f"goal p50 < 1 s and p99 < 2 s: {verdict} it")
    missing = len(started) - len(latencies)
    if missing:
        print(f"ERROR: {missing} post(s) got no ruling within {options.drain:g} s", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
