"""The daemon: SMTP ingress and/or IMAP poller, worker, scheduler, sender.

Threads share nothing but the database and two wake-up events:
ingress wakes the worker when it stored mail; the worker wakes the sender
when it committed replies.  SIGTERM and SIGINT stop everything cleanly: the
current message's transaction either commits or rolls back.
"""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from bot.app import App
from bot.engine.worker import process_queue
from bot.ingress.imap import ImapPoller
from bot.ingress.smtp import IngressHandler, make_controller
from bot.outbound.sender import recover_interrupted
from bot.runner import advance_to, deliver, store_message

log = logging.getLogger(__name__)

WORKER_TICK_SECONDS = 30.0  # the scheduler's wall-clock granularity
# The wall clock drives the scheduler this long behind, so that a post that
# reached the mailbox before an nweek ended but is fetched a little later is
# still judged (and rolled) before that nweek's dice seed is revealed.
SCHEDULER_LAG = timedelta(hours=1)
SENDER_TICK_SECONDS = 30.0  # retry cadence for deferred outbox rows


class Daemon:
    def __init__(self, app: App, clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.app = app
        self.clock = clock
        self.stop = threading.Event()
        self.work_ready = threading.Event()
        self.mail_ready = threading.Event()
        self.threads: list[threading.Thread] = []
        self.controller: object | None = None

    def start(self) -> None:
        settings = self.app.settings
        recover_interrupted(self.app.session_factory)
        self._spawn("worker", self._work_loop)
        self._spawn("sender", self._send_loop)
        if settings.imap.enabled:
            poller = ImapPoller(settings.imap, self.app.session_factory, self.work_ready.set)
            self._spawn("imap", lambda: poller.run(self.stop))
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
        self.controller = controller
        log.info("SMTP ingress listening on %s:%s", ingress.host, ingress.port)

    def _spawn(self, name: str, target: Callable[[], None]) -> None:
        thread = threading.Thread(target=target, name=f"nomicbot-{name}", daemon=True)
        thread.start()
        self.threads.append(thread)

    def _work_loop(self) -> None:
        while not self.stop.is_set():
            self.work_ready.wait(WORKER_TICK_SECONDS)
            self.work_ready.clear()
            if self.stop.is_set():
                break
            report = process_queue(
                self.app.session_factory, self.app.services, progress=self.mail_ready.set
            )
            advance_to(self.app, self.clock() - SCHEDULER_LAG)
            if report.processed or report.shunted:
                log.info("judged %d post(s), shunted %d", report.processed, report.shunted)
            self.mail_ready.set()

    def _send_loop(self) -> None:
        transport = self.app.transport()
        while not self.stop.is_set():
            self.mail_ready.wait(SENDER_TICK_SECONDS)
            self.mail_ready.clear()
            report = deliver(self.app, transport)
            if report.sent or report.failed:
                log.info("sent %d mail(s), %d failed for good", report.sent, report.failed)

    def shutdown(self, timeout: float = 30.0) -> None:
        self.stop.set()
        self.work_ready.set()
        self.mail_ready.set()
        if self.controller is not None:
            self.controller.stop()  # type: ignore[attr-defined]
        for thread in self.threads:
            thread.join(timeout)

    def run_until_signalled(self) -> None:
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda *_: self.stop.set())
        self.start()
        try:
            while not self.stop.wait(1.0):
                pass
        finally:
            self.shutdown()
