"""Commit to visible: how soon the site the daemon keeps shows a ruling.

    PYTHONPATH=. python bench/site_latency.py [--rate 10] [--seconds 30] [--players 20]

Starts a private Dovecot (``bot.testing.dovecot``) and the real daemon
(``bot.daemon.Daemon``: the IMAP poller in IDLE, the worker, the sender to
a Maildir, and the site's thread keeping a ``[site] directory``) on a fresh
SQLite database, reading the wall clock; the site is served by ``nomicbot
serve``'s server.  A feeder APPENDs list posts at a steady ``--rate`` posts
a second for ``--seconds`` seconds, each "I roll 1d6." from one of
``--players`` players (as bench/latency.py), and a watcher fetches
``history.json`` over HTTP as fast as it can, noting when each ruling first
appears in it.

A post's latency is from its ruling's commit (the instant its unit of work
judged it, ``processed_at``, set in the transaction just before the commit)
to the first fetch of ``history.json`` that lists the ruling.  Prints its
median, 90th and 99th percentiles and maximum, and how many builds the site
thread made.  Fails loudly if a ruling is not shown within ``--drain``
seconds of the end of the feed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from imapclient import IMAPClient
from sqlalchemy import select
from timing import percentile

from bot.app import build_app
from bot.daemon import Daemon
from bot.store.models import Message
from bot.testing.dovecot import DovecotServer, ImapAccount
from bot.testing.live_site import json_document, live_settings, post, served


def message_id(number: int) -> str:
    return f"site-latency-{number}@example.test"


class HistoryWatcher:
    """When each post's ruling first appeared in the served ``history.json``, by Message-ID."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.shown: dict[str, datetime] = {}
        self.fetches = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._watch, daemon=True)

    def _watch(self) -> None:
        while not self.stop.is_set():
            history = json_document(self.base, "history")
            now = datetime.now(UTC)
            self.fetches += 1
            for mail in [] if history is None else history["data"]:
                if mail["post_message_id"]:
                    self.shown.setdefault(mail["post_message_id"], now)


def feed(account: ImapAccount, rate: float, seconds: float, players: int) -> int:
    """APPEND posts at ``rate`` a second for ``seconds``; how many."""
    count = int(rate * seconds)
    with IMAPClient(account.host, port=account.port, ssl=False) as client:
        client.login(account.username, account.password)
        origin = time.monotonic()
        for number in range(count):
            pause = origin + number / rate - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            client.append("INBOX", post(number % players, "I roll 1d6.", message_id(number)))
    return count


def main(arguments: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=10.0, help="posts a second")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long to feed")
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--drain", type=float, default=60.0, help="seconds to wait at the end")
    options = parser.parse_args(arguments)
    with (
        tempfile.TemporaryDirectory(prefix="nomicbot-site-latency-") as scratch,
        DovecotServer() as dovecot,
    ):
        folder = Path(scratch)
        account = dovecot.add_user("referee", "site-latency-bench")
        site = folder / "site"
        app = build_app(live_settings(folder, account, site, options.players))
        daemon = Daemon(app, lambda: datetime.now(UTC))
        daemon.start()
        try:
            with served(site) as base:
                watcher = HistoryWatcher(base)
                deadline = time.monotonic() + 30
                while json_document(base, "history") is None and time.monotonic() < deadline:
                    time.sleep(0.05)  # the first build, after the scheduler's first pass
                builds_before = daemon.site_builds
                watcher.thread.start()
                started = time.monotonic()
                count = feed(account, options.rate, options.seconds, options.players)
                fed = time.monotonic() - started
                deadline = time.monotonic() + options.drain
                while len(watcher.shown) < count and time.monotonic() < deadline:
                    time.sleep(0.1)
                watcher.stop.set()
                watcher.thread.join(10)
        finally:
            daemon.shutdown()
        with app.session_factory() as session:
            judged = dict(session.execute(select(Message.message_id, Message.processed_at)).all())
        app.dispose()
    builds = daemon.site_builds - builds_before
    return report(options, count, fed, judged, watcher, builds, daemon.site_failures)


def report(
    options: argparse.Namespace,
    count: int,
    fed: float,
    judged: dict[str, datetime | None],
    watcher: HistoryWatcher,
    builds: int,
    failures: int,
) -> int:
    latencies = []
    for number in range(count):
        committed, shown = judged.get(message_id(number)), watcher.shown.get(message_id(number))
        if committed is not None and shown is not None:
            latencies.append((shown - committed).total_seconds())
    print(
        f"fed {count} posts in {fed:.1f} s ({count / fed:.1f} posts/s, asked {options.rate:g}); "
        f"{builds} site builds, {failures} failed; the watcher fetched history.json "
        f"{watcher.fetches} times"
    )
    if latencies:
        print(
            f"commit to visible (the ruling in the served history.json): "
            f"p50 {statistics.median(latencies):.3f} s, p90 {percentile(latencies, 0.9):.3f} s, "
            f"p99 {percentile(latencies, 0.99):.3f} s, max {max(latencies):.3f} s "
            f"({len(latencies)} posts)"
        )
    missing = count - len(latencies)
    if missing:
        print(f"ERROR: {missing} ruling(s) not shown within {options.drain:g} s", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
