"""The HMAC-SHA256 byte stream and unbiased integers drawn from it.

See the package docstring for the derivation written out for third parties.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Protocol

SEED_LENGTH = 32
LABEL_PREFIX = "nomicbot dice v1"


class ByteSource(Protocol):
    def take(self, count: int) -> bytes: ...


class HmacStream:
    """``HMAC-SHA256(seed, label + "\\n" + "0") || HMAC-SHA256(seed, label + "\\n" + "1") || ...``

    Raises ``ValueError`` unless ``seed`` is 32 bytes.
    """

    def __init__(self, seed: bytes, label: str) -> None:
        self._seed = check_seed(seed)
        self._label = label.encode("utf-8")
        self._block = 0
        self._buffer = b""

    def take(self, count: int) -> bytes:
        while len(self._buffer) < count:
            self._buffer += self._next_block()
        taken, self._buffer = self._buffer[:count], self._buffer[count:]
        return taken

    def _next_block(self) -> bytes:
        message = self._label + b"\n" + str(self._block).encode("ascii")
        self._block += 1
        return hmac.new(self._seed, message, hashlib.sha256).digest()


def check_seed(seed: bytes) -> bytes:
    """Return ``seed`` if it is 32 raw bytes; else raise ``ValueError`` (hex text is a defect)."""
    if not isinstance(seed, bytes) or len(seed) != SEED_LENGTH:
        raise ValueError(f"a dice seed is {SEED_LENGTH} raw bytes, got {seed!r:.80}")
    return seed


def draw_below(source: ByteSource, bound: int) -> int:
    """A uniform integer in ``[0, bound)`` by rejection sampling; ``ValueError`` if bound < 1.

    Reads ``size`` bytes as a big-endian number and accepts it only below the
    largest multiple of ``bound`` that fits, so every result is equally likely
    (rule 9: "with equal probability") whatever ``bound`` is.
    """
    if bound < 1:
        raise ValueError(f"cannot draw an integer below {bound}")
    size = max(1, ((bound - 1).bit_length() + 7) // 8)
    span = 256**size
    limit = span - span % bound
    while True:
        value = int.from_bytes(source.take(size), "big")
        if value < limit:
            return value % bound


def check_label_part(text: str, what: str) -> str:
    """Return ``text`` if it can sit on one line of a label; else raise ``ValueError``.

    Label parts are separated by newlines, so a part containing a line break
    or other control character could make two different inputs share a stream.
    """
    if not text or not text.isprintable():
        raise ValueError(f"{what} {text!r} must be non-empty printable text on one line")
    return text


def roll_label(message_id: str, action_index: int) -> str:
    return f"{LABEL_PREFIX}\nroll\n{message_id}\n{action_index}"


def draw_label(context_id: str, number: int) -> str:
    return f"{LABEL_PREFIX}\ndraw\n{context_id}\n{number}"
