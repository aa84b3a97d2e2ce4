"""Where committed outbox rows go: an SMTP relay or a local Maildir."""

from __future__ import annotations

import hashlib
import mailbox
import os
import re
import smtplib
import ssl
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
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

    Each mail is made durable (fsync) before it is moved into ``new/``, so
    that a file found there after a crash is whole.  Within ``deferred()``
    (a replay's delivery of many mails), the mails are written to ``tmp/``
    and moved into ``new/`` by ``settle``, which the sender calls before it
    marks them sent: one sync of the file system before the moves and one
    after, instead of one fsync per mail, with the same guarantee.
    """

    recognises_repeats = True

    def __init__(self, path: Path) -> None:
        self.path = path
        mailbox.Maildir(str(path), create=True)  # creates tmp/, new/, cur/
        self._tmp, self._new = str(path / "tmp"), str(path / "new")
        self.deferring = False
        self._written: dict[str, str] = {}  # final name -> its file in tmp/, not settled yet
        self._present: set[str] | None = None  # names in new/ and cur/, while deferring

    def send(self, raw: bytes, sender: str, recipients: Sequence[str], message_id: str) -> None:
        name = _file_name(message_id)
        if self._delivered(name):
            return
        temporary = os.path.join(self._tmp, name)
        descriptor = os.open(temporary, _CREATE_FLAGS, 0o666)
        try:
            _write_all(descriptor, raw)
            if self.deferring:
                self._written[name] = temporary
                return
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
        os.replace(temporary, os.path.join(self._new, name))

    def settle(self) -> None:
        """Make the mails written while deferring durable, in ``new/``; nothing else to do."""
        if self._written:
            os.sync()  # the files' contents, before any is in new/
            for name, temporary in self._written.items():
                os.replace(temporary, os.path.join(self._new, name))
            os.sync()  # the moves, before the rows are marked sent
        if self._present is not None:
            # Listed once per deferred run, not once per batch: the folder
            # holds every mail of a long replay, and readers only rename
            # within it (new/ to cur/, with ":2,..." flags).
            self._present.update(self._written)
        self._written = {}

    @contextmanager
    def deferred(self) -> Iterator[None]:
        """Within: mails are made durable by ``settle`` together, not one by one.

        Mails not settled when an error ends it stay in ``tmp/``, where no
        reader looks: their rows are not marked sent, and are sent again.
        """
        self.deferring = True
        try:
            yield
            self.settle()
        finally:
            self.deferring = False
            self._written = {}
            self._present = None

    def _delivered(self, name: str) -> bool:
        if not self.deferring:
            return any((self.path / folder / name).exists() for folder in ("new", "cur")) or any(
                (self.path / "cur").glob(f"{name}:*")
            )
        if self._present is None:
            # One listing per deferred run, not one per mail; a reader
            # moving a mail to cur/ adds ":2,..." flags to its name.
            listed = (*os.listdir(self.path / "new"), *os.listdir(self.path / "cur"))
            self._present = {entry.partition(":")[0] for entry in listed}
        return name in self._present or name in self._written


# As ``open(path, "wb")`` opens: created or emptied (a mail left in tmp/ by
# a crash is written again whole), not inherited by a child process.
_CREATE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC


def _write_all(descriptor: int, data: bytes) -> None:
    """Write all of ``data``: ``os.write`` may write less than it is given.

    Unbuffered, as one mail is one write: a buffered file object costs three
    more system calls per mail (fstat, ioctl, lseek) and buys nothing here.
    """
    view = memoryview(data)
    while view:
        view = view[os.write(descriptor, view) :]


def deferred_durability(transport: Transport) -> AbstractContextManager[None]:
    """``MaildirTransport.deferred`` for a Maildir; nothing for another transport."""
    return transport.deferred() if isinstance(transport, MaildirTransport) else nullcontext()


def settle(transport: Transport) -> None:
    """Make what ``transport`` was given durable before it is marked sent (a deferring Maildir)."""
    if isinstance(transport, MaildirTransport):
        transport.settle()


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
