"""The bot's own DKIM key: what makes an administrator's record in the archive the bot's.

A deployment names its key in ``[bot] dkim_key_file`` (an RSA private key in
PEM, as ``openssl genrsa -traditional 2048`` writes it) and publishes the
public half as ``<dkim_selector>._domainkey.<the bot's domain>``.  When none
is configured the bot makes one, once, in its data directory (like the dice
master secret), with its published form beside it in ``dkim-public.txt``:
"NAME TXT-VALUE", the line ``[trust] key_file`` reads.  The bot always knows
its own public record, so its own replays need no DNS; an auditor elsewhere
uses the published record.
"""

from __future__ import annotations

import base64
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

import dkim

GENERATED_KEY = "dkim-private.pem"
GENERATED_RECORD = "dkim-public.txt"


class BotKeyError(RuntimeError):
    """The key cannot be read or made (no openssl to make one)."""


@dataclass(frozen=True)
class BotKey:
    domain: str
    selector: str
    private_pem: bytes
    public_base64: str

    @property
    def record_name(self) -> str:
        return f"{self.selector}._domainkey.{self.domain}"

    @property
    def record(self) -> str:
        return f"v=DKIM1; k=rsa; p={self.public_base64}"

    def sign(self, raw: bytes, headers: tuple[str, ...]) -> bytes:
        """``raw`` with the bot's DKIM-Signature on top, covering ``headers`` and the whole body."""
        message = raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
        signature: bytes = dkim.sign(
            message,
            self.selector.encode(),
            self.domain.encode(),
            self.private_pem,
            include_headers=[name.lower().encode() for name in headers],
        )
        return signature + message


def load_bot_key(key_file: str, selector: str, domain: str, data_dir: Path) -> BotKey:
    """The configured key, or the one made in ``data_dir``.  Raises BotKeyError."""
    path = Path(key_file) if key_file else data_dir / GENERATED_KEY
    if not key_file and not path.exists():
        _generate(path)
    try:
        private_pem = path.read_bytes()
    except OSError as error:
        raise BotKeyError(f"cannot read the bot's DKIM key {path}: {error.strerror}") from None
    key = BotKey(domain.lower(), selector, private_pem, _public_half(private_pem, path))
    if not key_file:
        record = data_dir / GENERATED_RECORD
        if not record.exists():
            record.write_text(f"{key.record_name} {key.record}\n")
    return key


def _generate(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        made = subprocess.run(
            ["openssl", "genrsa", "-traditional", "2048"],
            capture_output=True,
            check=True,
            timeout=60,
        )
    except (OSError, subprocess.CalledProcessError) as error:
        raise BotKeyError(f"cannot make a DKIM key with openssl: {error}") from None
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as handle:
        handle.write(made.stdout)


def _public_half(private_pem: bytes, path: Path) -> str:
    try:
        der = subprocess.run(
            ["openssl", "rsa", "-pubout", "-outform", "DER"],
            input=private_pem,
            capture_output=True,
            check=True,
            timeout=60,
        ).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        raise BotKeyError(f"{path} is not an RSA private key openssl can read: {error}") from None
    return base64.b64encode(der).decode("ascii")
