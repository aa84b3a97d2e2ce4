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
    vouched_by: str = "",
) -> bytes:
    """A plain-text post as a mail client would send it (CRLF line ends).

    With ``vouched_by`` (a receiving server's authserv-id), the post arrives
    as that server delivers mail from an authenticated sender: topmost, its
    Authentication-Results reporting DKIM and DMARC ``pass`` for the From
    domain (RFC 8601).  A private mail to the bot counts only so (or signed,
    or with its player's secret; docs/trust.md).
    """
    mail = EmailMessage(policy=SMTP)
    if vouched_by:
        mail["Authentication-Results"] = receiving_server_results(vouched_by, address)
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


def receiving_server_results(authserv_id: str, address: str) -> str:
    """The Authentication-Results value ``authserv_id`` writes for an authenticated ``address``."""
    domain = address.rpartition("@")[2]
    return f"{authserv_id}; dkim=pass header.d={domain}; dmarc=pass header.from={domain}"


def mbox_from_line(address: str, date: datetime) -> str:
    """The ``From `` line an mbox archive puts before a post delivered at ``date``."""
    return f"From {address} {date.strftime('%a %b %d %H:%M:%S %Y')}"
