"""An SMTP server on loopback that captures every message the bot sends.

aiosmtpd's threaded ``Controller`` runs the server in its own thread with its
own event loop; the handler appends each accepted message to a list guarded
by a condition variable, which test code reads or waits on.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

from bot.testing.support import LOOPBACK, LoopbackServer, free_loopback_port


@dataclass(frozen=True)
class CapturedMessage:
    """One message as the sink received it: envelope and the DATA bytes unchanged."""

    mail_from: str
    recipients: tuple[str, ...]
    data: bytes
    peer: str


class CapturingHandler:
    """aiosmtpd handler that keeps every message in arrival order."""

    def __init__(self) -> None:
        self._messages: list[CapturedMessage] = []
        self._arrived = threading.Condition()

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        # original_content is the DATA payload after dot-unstuffing, line
        # endings exactly as sent; aiosmtpd only decodes a copy of it.
        message = CapturedMessage(
            mail_from=envelope.mail_from or "",
            recipients=tuple(envelope.rcpt_tos),
            data=envelope.original_content or b"",
            peer=str(session.peer),
        )
        with self._arrived:
            self._messages.append(message)
            self._arrived.notify_all()
        return "250 Message accepted for delivery"

    def snapshot(self) -> tuple[CapturedMessage, ...]:
        with self._arrived:
            return tuple(self._messages)

    def clear(self) -> None:
        with self._arrived:
            self._messages.clear()

    def wait_for(self, count: int, timeout: float) -> tuple[CapturedMessage, ...]:
        """Block until ``count`` messages are held; raises TimeoutError otherwise."""
        deadline = time.monotonic() + timeout
        with self._arrived:
            while len(self._messages) < count:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError(
                        f"SMTP sink holds {len(self._messages)} message(s) after "
                        f"{timeout} s; expected {count}"
                    )
                self._arrived.wait(remaining)
            return tuple(self._messages)


class SmtpSink(LoopbackServer):
    """aiosmtpd on a free port of 127.0.0.1, capturing mail; use as a context manager."""

    host = LOOPBACK

    def __init__(
        self, *, ready_timeout: float = 5.0, handler: CapturingHandler | None = None
    ) -> None:
        self.ready_timeout = ready_timeout
        self._handler = handler or CapturingHandler()
        self._controller: Controller | None = None
        self._port = 0

    @property
    def messages(self) -> tuple[CapturedMessage, ...]:
        """Every message received so far, oldest first."""
        return self._handler.snapshot()

    def start(self) -> None:
        """Start listening; returns once the server answers connections."""
        # aiosmtpd's start-up check connects to the configured port, so it
        # needs a real port number rather than 0.
        self._port = free_loopback_port()
        self._controller = Controller(
            self._handler,
            hostname=self.host,
            port=self._port,
            ready_timeout=self.ready_timeout,
        )
        self._controller.start()

    def stop(self) -> None:
        if self._controller is not None:
            self._controller.stop()
            self._controller = None

    def wait_for(self, count: int, timeout: float = 5.0) -> tuple[CapturedMessage, ...]:
        """Wait until at least ``count`` messages arrived and return them all.

        Raises:
            TimeoutError: fewer than ``count`` arrived within ``timeout`` seconds.
        """
        return self._handler.wait_for(count, timeout)

    def clear(self) -> None:
        """Forget the messages received so far."""
        self._handler.clear()
