"""The daemon: SMTP ingress and/or IMAP poller, worker, scheduler, sender, site.

Threads share nothing but the database and three wake-up events:
ingress wakes the worker when it stored mail; the worker wakes the sender
when it committed replies, and the site's builder (when a ``[site]
directory`` is configured) after each post it committed and each pass of
the scheduler.  SIGTERM and SIGINT stop everything cleanly: the
current message's transaction either commits or rolls back.

Supervision (what keeps the threads from dying silently):

* Every loop (worker with its scheduler pass, sender, IMAP poller) runs
  under ``_supervise``: a transient database error (``bot.store.errors``:
  the server down or restarting, SQLite busy, no pooled connection) is
  logged and the loop tries again after a capped exponential backoff
  (1 s, 2 s, 4 s, 8 s, then every 10 s), for as long as it lasts, or at
  once when new work wakes it (mail the ingress could store).  Nothing is
  shunted for it: the post stays queued.  Anything else that escapes a loop
  (a post's own defect never does: the worker shunts it) means the thread
  cannot go on: it is logged with its traceback, the SMTP ingress is shut at
  once (so no MTA hears 250 while no worker runs) and the process ends with
  a non-zero status for systemd to restart it (``Restart=on-failure``).
* The site's thread is the exception: the site is a copy of the public
  record, so a build that fails for any reason is logged and tried again
  (after the same kind of backoff, up to a minute), and judging, mail and
  the watchdog go on without it.
* Each loop records a heartbeat when it starts a pass and after each post
  or mail, and marks itself idle while it waits for work.  A supervisor
  thread sends systemd's ``WATCHDOG=1`` (``bot.systemd``) only while every
  thread is alive and no loop has been busy without a heartbeat for
  ``heartbeat_limit``, so a thread stuck for good (a call that never
  returns) gets the service restarted after ``WatchdogSec``.
* ``run_until_signalled`` first takes the database's lock
  (``bot.store.lease``): a second daemon on the same database waits,
  without opening its ingress, until the first is gone.  A daemon that
  finds its lock taken by another (after a PostgreSQL restart) stops with a
  non-zero status.
"""

from __future__ import annotations

import logging
import signal
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.app import App
from bot.engine.worker import process_queue
from bot.ingress.imap import ImapPoller
from bot.ingress.smtp import IngressHandler, make_controller
from bot.outbound.sender import recover_interrupted
from bot.outbound.transports import Transport
from bot.runner import advance_to, deliver, store_message
from bot.site import IncrementalBuilder
from bot.store.errors import is_transient
from bot.store.lease import Lease, LeaseState, lease_for
from bot.systemd import Notifier

log = logging.getLogger(__name__)

WORKER_TICK_SECONDS = 30.0  # the scheduler's wall-clock granularity
# The wall clock drives the scheduler this long behind, so that a post that
# reached the mailbox before an nweek ended but is fetched a little later is
# still judged (and rolled) before that nweek's dice seed is revealed.
SCHEDULER_LAG = timedelta(hours=1)
SENDER_TICK_SECONDS = 30.0  # retry cadence for deferred outbox rows
# A site build that failed is tried again after a backoff up to this long:
# a misplaced directory is logged once a minute, not ten times.
SITE_BACKOFF_CAP = 60.0
EXIT_FAILURE = 1
# The loops whose heartbeats the watchdog requires (the IMAP poller works
# inside imapclient's IDLE, out of our sight; it is watched for being alive).
WATCHED_LOOPS = ("worker", "sender")


@dataclass(frozen=True)
class Supervision:
    """How the daemon retries, watches and waits (seconds)."""

    backoff_first: float = 1.0
    backoff_cap: float = 10.0
    # A busy loop beats per post or mail; one busy this long without a beat
    # is stuck, and the watchdog goes unfed.  (A post, a mail or a scheduler
    # pass taking longer than this is a defect of its own.)
    heartbeat_limit: float = 120.0
    check_interval: float = 1.0  # the supervisor thread's cadence
    lease_retry: float = 5.0  # a waiting daemon tries the lock this often
    lease_check: float = 5.0  # a working daemon checks it still holds it this often
    join_timeout: float = 30.0


class Backoff:
    """Capped exponential delays: first, 2 x first, 4 x first, ... at most cap."""

    def __init__(self, first: float, cap: float) -> None:
        self.first, self.cap, self.attempts = first, cap, 0

    def next_delay(self) -> float:
        delay = min(self.cap, self.first * 2.0**self.attempts)
        self.attempts += 1
        return delay

    def reset(self) -> None:
        self.attempts = 0


class Daemon:
    def __init__(
        self,
        app: App,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        supervision: Supervision | None = None,
        notifier: Notifier | None = None,
    ) -> None:
        self.app = app
        self.clock = clock
        self.supervision = supervision or Supervision()
        self.notifier = notifier or Notifier.from_environment()
        self.stop = threading.Event()
        self.work_ready = threading.Event()
        self.mail_ready = threading.Event()
        self.site_ready = threading.Event()
        self.site_builder: IncrementalBuilder | None = None  # with a [site] directory
        self.site_builds = 0  # builds swapped in
        self.site_failures = 0  # builds that failed (logged, tried again)
        self.threads: list[threading.Thread] = []
        self.controller: object | None = None
        self.lease: Lease | None = None
        self.failure: str | None = None  # the thread that could not go on
        self.heartbeats: dict[str, float | None] = {}  # None: idle, waiting for work
        self.retries: dict[str, int] = {}  # transient database errors ridden out, per loop
        self.watchdog_pings = 0
        self._last_ping = 0.0
        self._stale_reported: list[str] = []
        self._guard = threading.Lock()

    def start(self) -> None:
        settings = self.app.settings
        recover_interrupted(self.app.session_factory)
        for name in WATCHED_LOOPS:
            self._idle(name)
        self._spawn("worker", lambda: self._supervise("worker", self._work_once, self.work_ready))
        transport = _BeatingTransport(self.app.transport(), lambda: self._beat("sender"))
        self._spawn(
            "sender",
            lambda: self._supervise("sender", lambda: self._send_once(transport), self.mail_ready),
        )
        if settings.site.directory:
            builder = IncrementalBuilder(self.app, Path(settings.site.directory))
            self.site_builder = builder
            self._spawn("site", lambda: self._keep_site(builder))
        if settings.imap.enabled:
            poller = ImapPoller(settings.imap, self.app.session_factory, self.work_ready.set)
            self._spawn("imap", lambda: self._supervise("imap", lambda: poller.run(self.stop)))
        self._spawn("supervisor", self._watch)
        if settings.smtp_ingress.enabled:
            self._start_smtp()
        self.work_ready.set()

    def _start_smtp(self) -> None:
        ingress = self.app.settings.smtp_ingress
        handler = IngressHandler(
            lambda raw, at: store_message(self.app, raw, "smtp", at),
            self.work_ready.set,
            self.clock,
        )
        controller = make_controller(handler, ingress.host, ingress.port, ingress.max_message_bytes)
        controller.start()
        with self._guard:
            self.controller = controller
        log.info("SMTP ingress listening on %s:%s", ingress.host, ingress.port)

    def _stop_smtp(self) -> None:
        with self._guard:
            controller, self.controller = self.controller, None
        if controller is not None:
            controller.stop()  # type: ignore[attr-defined]

    def _spawn(self, name: str, target: Callable[[], None]) -> None:
        thread = threading.Thread(target=target, name=f"nomicbot-{name}", daemon=True)
        thread.start()
        self.threads.append(thread)

    def _beat(self, name: str) -> None:
        self.heartbeats[name] = time.monotonic()

    def _idle(self, name: str) -> None:
        self.heartbeats[name] = None

    def _supervise(
        self, name: str, once: Callable[[], None], wake: threading.Event | None = None
    ) -> None:
        """Run ``once`` until the daemon stops; ride out transient database errors.

        Any other exception ends the process (``_fail``): see the module docstring.
        """
        backoff = Backoff(self.supervision.backoff_first, self.supervision.backoff_cap)
        while not self.stop.is_set():
            try:
                once()
                backoff.reset()
            except Exception as error:
                if not is_transient(error):
                    log.critical(
                        "the %s thread cannot go on; stopping nomicbot:\n%s",
                        name,
                        traceback.format_exc(),
                    )
                    self._fail(name)
                    return
                delay = backoff.next_delay()
                self.retries[name] = self.retries.get(name, 0) + 1
                log.warning(
                    "%s: the database is unavailable (%s); retrying in %.0f s",
                    name,
                    _first_line(error),
                    delay,
                )
                self._idle(name)  # waiting for the database is not being stuck
                if wake is None:
                    self.stop.wait(delay)
                else:
                    wake.wait(delay)  # new work (or stopping) cuts the wait short
                    wake.set()  # and the next pass starts at once, not at the next tick

    def _work_once(self) -> None:
        self._idle("worker")
        self.work_ready.wait(WORKER_TICK_SECONDS)
        self.work_ready.clear()
        if self.stop.is_set():
            return
        self._beat("worker")
        report = process_queue(self.app.session_factory, self.app.services, progress=self._judged)
        advance_to(self.app, self.clock() - SCHEDULER_LAG)
        if report.processed or report.shunted:
            log.info("judged %d post(s), shunted %d", report.processed, report.shunted)
        self.mail_ready.set()
        # After the scheduler's pass too: its events, and the Clock the front
        # page shows, move with the time (rules 3, 23).
        self.site_ready.set()

    def _judged(self) -> None:
        self._beat("worker")
        self.mail_ready.set()
        self.site_ready.set()

    def _keep_site(self, builder: IncrementalBuilder) -> None:
        """The site's thread: rebuild whenever woken; ten wake-ups during a build make one
        more build, which shows them all.  A failure is logged and tried again."""
        backoff = Backoff(self.supervision.backoff_first, SITE_BACKOFF_CAP)
        while not self.stop.is_set():
            if not self.site_ready.wait(WORKER_TICK_SECONDS) or self.stop.is_set():
                continue
            self.site_ready.clear()
            try:
                report = builder.rebuild(self.clock())
            except Exception as error:
                self.site_failures += 1
                delay = backoff.next_delay()
                if is_transient(error):
                    log.warning("site: %s; rebuilding in %.0f s", _first_line(error), delay)
                else:
                    log.error("site: the build failed; rebuilding in %.0f s", delay, exc_info=True)
                self.stop.wait(delay)
                self.site_ready.set()
                continue
            backoff.reset()
            self.site_builds += 1
            log.debug("site rebuilt: %d page(s) written, %d kept", report.written, report.linked)

    def _send_once(self, transport: Transport) -> None:
        self._idle("sender")
        self.mail_ready.wait(SENDER_TICK_SECONDS)
        self.mail_ready.clear()
        self._beat("sender")
        report = deliver(self.app, transport, self.clock)  # dated when handed over
        if report.sent or report.failed:
            log.info("sent %d mail(s), %d failed for good", report.sent, report.failed)

    def _fail(self, name: str) -> None:
        """A thread cannot go on: shut the ingress now and stop with a failure status."""
        with self._guard:
            if self.failure is not None:
                return
            self.failure = name
        self._stop_smtp()
        self.stop.set()
        self.work_ready.set()
        self.mail_ready.set()
        self.site_ready.set()

    def _watch(self) -> None:
        """The supervisor thread: feed systemd's watchdog while all is well; check the lock."""
        last_lease_check = time.monotonic()
        while not self.stop.wait(self.supervision.check_interval):
            dead = [t.name for t in self.threads if not t.is_alive()]
            if dead and not self.stop.is_set():
                log.critical("thread %s ended; stopping nomicbot", ", ".join(dead))
                self._fail(dead[0])
                return
            if self.lease is not None and (
                time.monotonic() - last_lease_check >= self.supervision.lease_check
            ):
                last_lease_check = time.monotonic()
                if self.lease.check() is LeaseState.LOST:
                    log.critical("another nomicbot took the database lock; stopping this one")
                    self._fail("lease")
                    return
            if not self._stale():
                self._feed_watchdog()

    def _stale(self) -> list[str]:
        """The watched loops busy without a heartbeat for ``heartbeat_limit`` (logged on change)."""
        now, limit = time.monotonic(), self.supervision.heartbeat_limit
        beats = [(name, self.heartbeats.get(name)) for name in WATCHED_LOOPS]
        stale = [name for name, at in beats if at is not None and now - at > limit]
        if stale != self._stale_reported:
            if stale:
                log.warning(
                    "no progress from %s for %.0f s: not feeding the watchdog", stale, limit
                )
            else:
                log.info("every loop makes progress again")
            self._stale_reported = stale
        return stale

    def _feed_watchdog(self) -> None:
        interval = self.notifier.watchdog_seconds
        if interval is None:
            return
        if time.monotonic() - self._last_ping >= interval / 3 and self.notifier.notify(
            "WATCHDOG=1"
        ):
            self._last_ping = time.monotonic()
            self.watchdog_pings += 1

    def shutdown(self, timeout: float | None = None) -> bool:
        """Stop every thread; True if all of them ended within ``timeout`` each."""
        self._stop_smtp()
        self.stop.set()
        self.work_ready.set()
        self.mail_ready.set()
        self.site_ready.set()
        wait = self.supervision.join_timeout if timeout is None else timeout
        for thread in self.threads:
            thread.join(wait)
        return not any(thread.is_alive() for thread in self.threads)

    def run_until_signalled(self) -> int:
        """Take the database's lock, run until SIGTERM or SIGINT; the exit status.

        0 after a signal; ``EXIT_FAILURE`` when a thread could not go on.
        """
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda *_: self.stop.set())
        lease = lease_for(self.app.settings.database_url)
        self.notifier.notify("READY=1", "STATUS=taking the database lock")
        ended = False
        try:
            if not self._wait_for_lease(lease):
                return 0
            self.lease = lease
            self.start()
            self.notifier.notify("STATUS=working")
            while not self.stop.wait(1.0):
                pass
        finally:
            self.notifier.notify("STOPPING=1")
            ended = self.shutdown()
            if ended:  # else the process's end releases it, after any straggler
                lease.release()
        return EXIT_FAILURE if self.failure else 0

    def _wait_for_lease(self, lease: Lease) -> bool:
        """Take the lock, waiting while another daemon holds it; False if stopped first."""
        waiting = False
        while not self.stop.is_set():
            try:
                if lease.acquire():
                    log.info("holding the database lock (%s)", lease.description)
                    return True
                if not waiting:
                    log.warning(
                        "another nomicbot works on this database: waiting for the database "
                        "lock (%s), trying every %.0f s",
                        lease.description,
                        self.supervision.lease_retry,
                    )
                    self.notifier.notify("STATUS=waiting for the database lock")
                    waiting = True
            except Exception as error:
                if not is_transient(error):
                    raise
                log.warning("cannot reach the database for its lock: %s", _first_line(error))
            self._feed_watchdog()  # waiting is this daemon's work for now
            self.stop.wait(self.supervision.lease_retry)
        return False


class _BeatingTransport:
    """A transport that records the sender's heartbeat before each mail."""

    def __init__(self, transport: Transport, beat: Callable[[], None]) -> None:
        self.transport = transport
        self.beat = beat
        self.recognises_repeats = transport.recognises_repeats

    def send(self, raw: bytes, sender: str, recipients: Sequence[str], message_id: str) -> None:
        self.beat()
        self.transport.send(raw, sender, recipients, message_id)


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0] if lines else ''}"
