"""Planned posts as the raw bytes a list archive holds, and the archive itself.

Test-data generation for bench/pipeline.py.  Each player's mail client gives
eir posts a shape seen on real lists: Gmail's multipart/alternative with
quoted-printable text, Thunderbird's format=flowed plain text, Outlook's
top-posted "Original Message" copies, Apple Mail, mutt, an HTML-only
webmail, and a Yahoo address whose From the list rewrites for DMARC.  The
list (Mailman 2.1) adds its trace, List-* headers and a footer: appended to a
single text/plain body, as a separate part of a multipart/mixed otherwise.
"""

from __future__ import annotations

import base64
import random
import re
from collections import Counter
from datetime import datetime, timedelta
from email.header import Header as Header_
from email.message import EmailMessage
from email.policy import default
from email.utils import format_datetime
from pathlib import Path

from archive_game import CONFIGURED_PLAYERS, EPOCH, PlannedPost

from bot.posts import mbox_from_line

LIST_ADDRESS = "nomic@lists.example.org"
LIST_HOST = "lists.example.org"
BOUNCES = "nomic-bounces@lists.example.org"
BOT_ADDRESS = "referee@nomic.example.org"
MASTER_SECRET = "62656e63682d6f6e6c792073656372657420666f72206e6f6d6963626f742121"
FOOTER = (
    "_______________________________________________\n"
    "Nomic mailing list\n"
    f"{LIST_ADDRESS}\n"
    f"https://{LIST_HOST}/mailman/listinfo/nomic\n"
)
_FROM_AT_LINE_START = re.compile(rb"\nFrom ")
# client -> (MIME shape, transfer encoding for non-ASCII text, software header)
CLIENT_SHAPES: dict[str, tuple[str, str, tuple[str, str]]] = {
    "gmail": ("alternative", "quoted-printable", ("X-Gm-Features", "")),
    "thunderbird": ("flowed", "8bit", ("User-Agent", "Mozilla Thunderbird 115.6.0")),
    "outlook": ("alternative", "quoted-printable", ("X-Mailer", "Microsoft Outlook 16.0")),
    "apple": ("plain", "quoted-printable", ("X-Mailer", "Apple Mail (2.3731.500.231)")),
    "yahoo": ("alternative", "quoted-printable", ("X-Mailer", "WebService/1.1.21952 YMailNorrin")),
    "mutt": ("plain", "8bit", ("User-Agent", "Mutt/2.2.12 (2023-09-09)")),
    "webmail": ("html", "base64", ("X-Mailer", "Roundcube Webmail/1.6.5")),
}


Header = tuple[str, str]


class MailWriter:
    """Turns planned posts into raw list mail (seeded, for reproducible bytes).

    The header block is written as text, folded the way mail servers fold
    (``email`` would encode a long DKIM signature as encoded words); only the
    MIME body and its Content-* headers come from ``EmailMessage``.
    """

    def __init__(self, seed: int) -> None:
        self.chooser = random.Random(seed)
        self.shapes: Counter[str] = Counter()

    def raw(self, post: PlannedPost) -> bytes:
        shape, encoding, software = CLIENT_SHAPES[post.author.client]
        if post.author.client == "yahoo" and self.chooser.random() < 0.3:
            shape = "html"  # some of Frank's mails are HTML only
        self.shapes[shape] += 1
        mime_headers, body = _split(self._body(post, shape, encoding))
        headers = [
            *self._trace_headers(post),
            *self._author_headers(post, software),
            *mime_headers,
            *self._list_headers(),
        ]
        head = "".join(f"{name}: {value}\n" for name, value in headers)
        return head.encode("utf-8") + b"\n" + body

    def _trace_headers(self, post: PlannedPost) -> list[Header]:
        domain = post.author.address.partition("@")[2]
        relay = f"mail-{self.chooser.choice('abcdefgh')}{self.chooser.randint(1, 99)}.{domain}"
        received = format_datetime(post.at)
        sent = format_datetime(post.at - timedelta(seconds=self.chooser.randint(1, 20)))
        signature = self._base64(256)
        folded = "\n\t  ".join(signature[i : i + 70] for i in range(0, len(signature), 70))
        return [
            ("Return-Path", f"<{BOUNCES}>"),
            ("Delivered-To", f"archive@{LIST_HOST}"),
            (
                "Received",
                f"from {LIST_HOST} (localhost [127.0.0.1])\n\tby {LIST_HOST} (Postfix) with "
                f"ESMTP id {self._hex(10)}\n\tfor <archive@{LIST_HOST}>; {received}",
            ),
            (
                "Received",
                f"from {relay} ({relay} [198.51.100.{self.chooser.randint(2, 250)}])\n\t"
                f"by {LIST_HOST} (Postfix) with ESMTPS id {self._hex(10)}\n\t"
                f"for <{LIST_ADDRESS}>; {sent}",
            ),
            ("X-Original-To", LIST_ADDRESS),
            (
                "DKIM-Signature",
                f"v=1; a=rsa-sha256; c=relaxed/relaxed;\n\td={domain}; s=20230601; "
                f"t={int(post.at.timestamp())};\n\th=to:subject:message-id:date:from:"
                f"mime-version:from:to:cc\n\t :subject:date:message-id:reply-to;\n\t"
                f"bh={self._base64(32)};\n\tb={folded}",
            ),
            (
                "X-Received",
                f"by 2002:a05:6402:{self._hex(4)} with SMTP id {self._hex(12)};\n\t{sent}",
            ),
        ]

    def _author_headers(self, post: PlannedPost, software: Header) -> list[Header]:
        author = post.author
        name = _encoded_name(author.name)
        headers: list[Header] = []
        if author.client == "yahoo":
            # Mailman's DMARC mitigation: From rewritten, the author in Reply-To.
            headers += [("From", f"{name} via Nomic <{LIST_ADDRESS}>")]
            headers += [("Reply-To", f"{name} <{author.address}>")]
        else:
            headers += [("From", f"{name} <{author.address}>")]
        sent = post.at - timedelta(seconds=self.chooser.randint(20, 90))
        headers += [
            ("To", f"B Nomic <{LIST_ADDRESS}>"),
            ("Subject", post.subject),
            ("Date", format_datetime(sent)),
            ("Message-ID", f"<{post.message_id}>"),
        ]
        if post.references:
            chain = "\n ".join(f"<{item}>" for item in post.references)
            headers += [("In-Reply-To", f"<{post.references[-1]}>"), ("References", chain)]
        headers.append((software[0], software[1] or self._base64(40)))
        if post.automatic:
            headers += [("Auto-Submitted", "auto-replied"), ("X-Autoreply", "yes")]
        return headers

    def _body(self, post: PlannedPost, shape: str, encoding: str) -> EmailMessage:
        mail = EmailMessage(policy=default)
        plain = post.text.plain(flowed=shape == "flowed")
        if shape in {"plain", "flowed"}:
            mail.set_content(plain + "\n" + FOOTER, cte=_encoding(plain, encoding))
            if shape == "flowed":
                mail.set_param("format", "flowed")
            return mail
        markup = post.text.html()
        if shape == "html":
            mail.set_content(markup, subtype="html", cte=_encoding(markup, encoding))
        else:
            mail.set_content(plain, cte=_encoding(plain, encoding))
            mail.make_alternative(boundary=self._boundary())
            mail.add_alternative(markup, subtype="html", cte=_encoding(markup, encoding))
        # Boundaries from the seeded generator: email's own are random.
        mail.make_mixed(boundary=self._boundary())
        mail.add_attachment(FOOTER, disposition="inline")
        return mail

    def _boundary(self) -> str:
        return f"000000000000{self._hex(12).lower()}"

    def _list_headers(self) -> list[Header]:
        return [
            ("X-BeenThere", LIST_ADDRESS),
            ("X-Mailman-Version", "2.1.39"),
            ("Precedence", "list"),
            ("List-Id", f"B Nomic discussion <nomic.{LIST_HOST}>"),
            (
                "List-Unsubscribe",
                f"<https://{LIST_HOST}/mailman/options/nomic>,\n "
                f"<mailto:nomic-request@{LIST_HOST}?subject=unsubscribe>",
            ),
            ("List-Archive", f"<https://{LIST_HOST}/pipermail/nomic/>"),
            ("List-Post", f"<mailto:{LIST_ADDRESS}>"),
            ("List-Help", f"<mailto:nomic-request@{LIST_HOST}?subject=help>"),
            (
                "List-Subscribe",
                f"<https://{LIST_HOST}/mailman/listinfo/nomic>,\n "
                f"<mailto:nomic-request@{LIST_HOST}?subject=subscribe>",
            ),
            ("Errors-To", BOUNCES),
            ("Sender", f'"Nomic" <{BOUNCES}>'),
        ]

    def _hex(self, length: int) -> str:
        return f"{self.chooser.getrandbits(4 * length):0{length}X}"

    def _base64(self, length: int) -> str:
        return base64.b64encode(self.chooser.randbytes(length)).decode("ascii")


def _split(mail: EmailMessage) -> tuple[list[Header], bytes]:
    """The MIME headers (as folded text) and the body of ``mail``."""
    head, _, body = mail.as_bytes().partition(b"\n\n")
    unfolded = head.decode("ascii").replace("\n ", "\r ").replace("\n\t", "\r\t").split("\n")
    pairs = [line.replace("\r", "\n").split(": ", 1) for line in unfolded]
    return [(name, value) for name, value in pairs], body


def _encoded_name(name: str) -> str:
    return name if name.isascii() else Header_(name, "utf-8").encode()


def _encoding(text: str, non_ascii: str) -> str | None:
    # ASCII text: let the library choose (7bit, or quoted-printable for long lines).
    return None if text.isascii() else non_ascii


def write_archive(path: Path, posts: list[PlannedPost], seed: int) -> Counter[str]:
    """Write the posts as an mbox, in time order (the order the list delivered them).

    Returns how many mails have each MIME shape (plain, flowed, alternative, html).
    """
    writer = MailWriter(seed)
    with open(path, "wb") as archive:
        for post in posts:
            archive.write(mbox_entry(writer.raw(post), mbox_from_line(BOUNCES, post.at)))
    return writer.shapes


def mbox_entry(raw: bytes, from_line: str) -> bytes:
    """One mboxo entry: the From_ line, the mail with "From " lines quoted, a blank line."""
    body = _FROM_AT_LINE_START.sub(b"\n>From ", raw)
    if not body.endswith(b"\n"):
        body += b"\n"
    return from_line.encode("ascii") + b"\n" + body + b"\n"


def write_config(path: Path, data_dir: Path) -> Path:
    """The TOML configuration a game master would write for this game."""
    players = "".join(
        f'[[players]]\nname = "{person.name}"\naddresses = ["{person.address}"]\n\n'
        for person in CONFIGURED_PLAYERS
    )
    path.write_text(
        f'[bot]\naddress = "{BOT_ADDRESS}"\nname = "nomicbot"\nlist_address = "{LIST_ADDRESS}"\n'
        f'data_dir = "{data_dir}"\nmaster_secret = "{MASTER_SECRET}"\n\n'
        f"[smtp_ingress]\nenabled = false\n\n"
        f'[ntime]\nepoch = "{EPOCH.isoformat()}"\n\n' + players,
        encoding="utf-8",
    )
    return path


def game_end(posts: list[PlannedPost]) -> datetime:
    """After the last post, late enough for the last nweek's dice seed to be revealed."""
    return posts[-1].at + timedelta(days=11)
