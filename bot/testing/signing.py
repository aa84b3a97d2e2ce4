"""DKIM keys, signatures and ARC seals for tests, made with openssl and dkimpy.

A test plays the author's domain (``dkim_sign``) and the list (``arc_seal``,
as GNU Mailman 3 seals in delivery); ``write_key_file`` publishes the keys
the way ``[trust] key_file`` reads them, so no test needs DNS.
"""

from __future__ import annotations

import base64
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import dkim

from bot.trust.bot_key import BotKey

# Mailman 3's default [ARC] sig_headers (mailman/config/schema.cfg).
LIST_SIGNED_HEADERS = (
    "From",
    "Sender",
    "Reply-To",
    "Subject",
    "Date",
    "Message-ID",
    "To",
    "Cc",
    "MIME-Version",
    "Content-Type",
    "Content-Transfer-Encoding",
    "In-Reply-To",
    "References",
    "List-Id",
    "List-Help",
    "List-Unsubscribe",
    "List-Subscribe",
    "List-Post",
    "List-Owner",
    "List-Archive",
)


@dataclass(frozen=True)
class SigningKey(BotKey):
    """A test domain's key: signs as an author's domain does, and seals as a list does."""

    def dkim_sign(self, raw: bytes, **options: object) -> bytes:
        """``raw`` with this domain's DKIM-Signature on top (relaxed/simple, dkimpy's defaults)."""
        signature: bytes = dkim.sign(
            _crlf(raw), self.selector.encode(), self.domain.encode(), self.private_pem, **options
        )
        return signature + _crlf(raw)

    def arc_seal(self, raw: bytes, authserv_id: str, results: str) -> bytes:
        """``raw`` sealed as a list seals it: its Authentication-Results, then a new ARC set.

        ``results`` is the list's verdict on the arriving post, such as
        ``dkim=pass header.d=a.example; dmarc=pass header.from=a.example``.
        """
        message = f"Authentication-Results: {authserv_id}; {results}\r\n".encode() + _crlf(raw)
        lines = dkim.arc_sign(
            message,
            self.selector.encode(),
            self.domain.encode(),
            self.private_pem,
            authserv_id.encode(),
            include_headers=[name.lower().encode() for name in LIST_SIGNED_HEADERS],
        )
        return b"".join(lines) + message


@cache
def signing_key(domain: str, selector: str = "test") -> SigningKey:
    """A fresh 2048-bit RSA key for ``domain``, made once per test process."""
    private_pem = subprocess.run(
        ["openssl", "genrsa", "2048"], check=True, capture_output=True
    ).stdout
    public_der = subprocess.run(
        ["openssl", "rsa", "-pubout", "-outform", "DER"],
        input=private_pem,
        check=True,
        capture_output=True,
    ).stdout
    return SigningKey(domain, selector, private_pem, base64.b64encode(public_der).decode())


def write_key_file(path: Path, keys: Iterable[SigningKey], extra: Iterable[str] = ()) -> Path:
    """A ``[trust] key_file`` holding the keys' records (and any extra "NAME VALUE" lines)."""
    lines = [f"{key.record_name} {key.record}" for key in keys]
    path.write_text("\n".join([*lines, *extra]) + "\n", encoding="utf-8")
    return path


def _crlf(raw: bytes) -> bytes:
    return raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
