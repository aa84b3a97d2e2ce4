"""The email policy the bot writes its mails with: compat32, minus needless folding.

compat32 folds every header field through ``email.header.Header``, which
splits the value at whitespace and measures it piece by piece even when the
field fits on one line as it is; for the short ASCII fields a ruling carries
(From, To, Subject, Date, Message-ID...) that was most of the cost of
turning a ruling into bytes.  This policy writes such a field directly and
leaves every other field to compat32, so the bytes are compat32's, always.

Why the direct line is exactly what compat32 writes, for a str value made of
printable ASCII only (0x20-0x7E: no CR, LF or other line break that
``str.splitlines`` would split at, no tab, no surrogate) whose line
``name: value`` fits in ``max_line_length``:

* ``Compat32._fold`` makes ``Header(value, header_name=name)``; the value
  encodes to us-ascii, so it stays one us-ascii chunk, which is never
  RFC 2047-encoded (us-ascii has no header encoding);
* ``Header.encode`` feeds that one line to ``_ValueFormatter._ascii_split``,
  which cuts it into (whitespace, word) pairs that keep every space, runs
  and leading or trailing spaces included, and joins them back unchanged;
  only a line longer than the limit is split, and the line's length is the
  name, ": " and the value;
* the only other change it makes, dropping the trailing transition, removes
  a marker ``encode`` added itself; and the embedded-header check needs a
  line break, which the value does not have.

Anything else (non-ASCII, tabs, line breaks, long lines, ``Header``
objects) goes to compat32 unchanged.  tests/backbone/test_reply_bytes.py
compares the two policies' bytes for whole mails.
"""

from __future__ import annotations

from email.policy import Compat32

# Header.encode reads a max_line_length of 0 or None as "do not wrap" and
# uses this length instead.
UNWRAPPED_LINE_LENGTH = 1_000_000


class DirectCompat32(Compat32):
    """compat32, writing a field that needs no folding as ``name: value`` directly."""

    def fold(self, name: str, value: str) -> str:
        if self.writes_directly(name, value):
            return f"{name}: {value}{self.linesep}"
        return super().fold(name, value)

    def fold_binary(self, name: str, value: str) -> bytes:
        if self.writes_directly(name, value):
            return f"{name}: {value}{self.linesep}".encode("ascii")
        return super().fold_binary(name, value)

    def writes_directly(self, name: str, value: object) -> bool:
        """Whether compat32 would write this field as ``name: value`` unchanged
        (the module's docstring says why these conditions suffice)."""
        limit = self.max_line_length or UNWRAPPED_LINE_LENGTH
        return (
            isinstance(value, str)
            and value.isascii()
            and value.isprintable()
            and name.isascii()
            and len(name) + 2 + len(value) <= limit
        )


direct_compat32 = DirectCompat32()

__all__ = ["DirectCompat32", "direct_compat32"]
