"""Where committed outbox rows go: an SMTP relay or a local Maildir."""

from __future__ import annotations

import hashlib
import mailbox
import os
import re
import smtplib
import ssl
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from bot.config import OutboundSettings


class Transport(Protocol):
    # True if sending a Message-ID again delivers nothing more: the sender
    # may then mark rows sent in batches (bot.outbound.sender).
    recognises_repeats: bool

    def send(self, raw: bytes, sender: str, recipients: Sequence[str], message_id: str) -> None:
        """Deliver one message; raises OSError or smtplib.SMTPException on failure."""
        ...


class MaildirTransport:
    """Writes each mail into a Maildir (``new/``), for local or test use.

    The file is named after the mail's Message-ID, so delivering the same
    outbox row again (after a crash between delivery and the ``sent`` mark)
    finds it already there and writes nothing: exactly once.
    """

    recognises_repeats = True

    def __init__(self, path: Path) -> None:
        self.path = path
        mailbox.Maildir(str(path), create=True)  # creates tmp/, new/, cur/

    def send(self, raw: bytes, sender: str, recipients: Sequence[str], message_id: str) -> None:
        name = _file_name(message_id)
        if any((self.path / folder / name).exists() for folder in ("new", "cur")) or any(
            (self.path / "cur").glob(f"{name}:*")
        ):
            return
        temporary = self.path / "tmp" / name
        with open(temporary, "wb") as handle:
            handle.write(raw)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, self.path / "new" / name)


class SmtpTransport:
    """Relays through an SMTP server (plain, STARTTLS or TLS, optional login)."""

    recognises_repeats = False  # the relay delivers every copy it accepts

    def __init__(self, settings: OutboundSettings, timeout: float = 60.0) -> None:
        self.settings = settings
        self.timeout = timeout

    def send(self, raw: bytes, sender: str, recipients: Sequence[str], message_id: str) -> None:
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


def _file_name(message_id: str) -> str:
    # Maildir names must not contain "/" or ":" (the flag separator).
    safe = re.sub(r"[^A-Za-z0-9._@=+-]", "_", message_id)
    return f"{safe[:200]}.{hashlib.sha256(message_id.encode()).hexdigest()[:12]}"


def _crlf(raw: bytes) -> bytes:
    # smtplib does not normalise bare LF and some servers reject it.
    return raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


def make_transport(settings: OutboundSettings, maildir: Path) -> Transport:
    if settings.smtp_host:
        return SmtpTransport(settings)
    return MaildirTransport(maildir)
