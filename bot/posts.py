"""Building a player's post as real mail bytes (for the demo, tests and benchmarks)."""

from __future__ import annotations

from datetime import datetime
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import format_datetime


def compose_post(
    author: str,
    address: str,
    subject: str,
    body: str,
    message_id: str,
    date: datetime,
    to: str = "nomic@nomic.invalid",
    in_reply_to: str | None = None,
) -> bytes:
    """A plain-text post as a mail client would send it (CRLF line ends)."""
    mail = EmailMessage(policy=SMTP)
    mail["From"] = f"{author} <{address}>"
    mail["To"] = to
    mail["Subject"] = subject
    mail["Date"] = format_datetime(date)
    mail["Message-ID"] = f"<{message_id}>"
    if in_reply_to:
        mail["In-Reply-To"] = f"<{in_reply_to}>"
        mail["References"] = f"<{in_reply_to}>"
    mail.set_content(body)
    return mail.as_bytes()


def mbox_from_line(address: str, date: datetime) -> str:
    """The ``From `` line an mbox archive puts before a post delivered at ``date``."""
    return f"From {address} {date.strftime('%a %b %d %H:%M:%S %Y')}"
