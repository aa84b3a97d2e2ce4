"""Where committed outbox rows go: an SMTP relay or a local Maildir."""

from __future__ import annotations

import mailbox
import smtplib
import ssl
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from bot.config import OutboundSettings


class Transport(Protocol):
    def send(self, raw: bytes, sender: str, recipients: Sequence[str]) -> None:
        """Deliver one message; raises OSError or smtplib.SMTPException on failure."""
        ...


class MaildirTransport:
    """Writes each mail into a Maildir (``new/``), for local or test use."""

    def __init__(self, path: Path) -> None:
        self.maildir = mailbox.Maildir(str(path), create=True)

    def send(self, raw: bytes, sender: str, recipients: Sequence[str]) -> None:
        self.maildir.add(raw)


class SmtpTransport:
    """Relays through an SMTP server (plain, STARTTLS or TLS, optional login)."""

    def __init__(self, settings: OutboundSettings, timeout: float = 60.0) -> None:
        self.settings = settings
        self.timeout = timeout

    def send(self, raw: bytes, sender: str, recipients: Sequence[str]) -> None:
        with self._connect() as client:
            if self.settings.username:
                client.login(self.settings.username, self.settings.password)
            client.sendmail(sender, list(recipients), _crlf(raw))

    def _connect(self) -> smtplib.SMTP:
        host, port = self.settings.smtp_host, self.settings.smtp_port
        if self.settings.security == "tls":
            return smtplib.SMTP_SSL(
                host, port, timeout=self.timeout, context=ssl.create_default_context()
            )
        client = smtplib.SMTP(host, port, timeout=self.timeout)
        if self.settings.security == "starttls":
            client.starttls(context=ssl.create_default_context())
        return client


def _crlf(raw: bytes) -> bytes:
    # smtplib does not normalise bare LF and some servers reject it.
    return raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


def make_transport(settings: OutboundSettings, maildir: Path) -> Transport:
    if settings.smtp_host:
        return SmtpTransport(settings)
    return MaildirTransport(maildir)
