"""Replay of an archive (mbox or Maildir) in archive order.

Each post's time is its delivery time in the archive: the mbox ``From ``
line, else the topmost Received header, and only as a last resort the Date
header (which the sender's machine wrote and may be wrong).
"""

from __future__ import annotations

import contextlib
import mailbox
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from email.parser import BytesHeaderParser
from email.policy import compat32
from email.utils import parsedate_to_datetime
from pathlib import Path

from bot.ingress.mbox_reader import count_entries, mbox_entries
from bot.mail.decode import topmost_received_time

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
ASCTIME = "%a %b %d %H:%M:%S %Y"
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
# The asctime form every mbox writer puts in its From_ lines, with only the
# numbers ``time.strptime`` reads the same way (two-digit day, hour, minute and
# second within their ranges; seconds 60 and 61 are left to strptime).
_PLAIN_ASCTIME = re.compile(
    r"(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (?P<month>" + "|".join(_MONTHS) + r") "
    r"(?P<day>0[1-9]|[12]\d|3[01]) (?P<hour>[01]\d|2[0-3]):(?P<minute>[0-5]\d):"
    r"(?P<second>[0-5]\d) (?P<year>\d{4})",
    re.ASCII,
)


@dataclass(frozen=True)
class ArchivedPost:
    raw: bytes
    received_at: datetime
    key: str


def archive_posts(path: Path) -> Iterator[ArchivedPost]:
    """The posts of an mbox file or Maildir folder, in archive order."""
    if path.is_dir():
        yield from _maildir_posts(path)
    else:
        yield from _mbox_posts(path)


def count_posts(path: Path) -> int:
    if path.is_dir():
        return len(mailbox.Maildir(str(path), factory=None, create=False).keys())
    return count_entries(path)


def _mbox_posts(path: Path) -> Iterator[ArchivedPost]:
    # The entries are those of ``mailbox.mbox`` (``bot.ingress.mbox_reader``),
    # numbered as its keys are.
    for key, entry in enumerate(mbox_entries(path)):
        # The From_ line is the first line of the stored entry: reading it
        # there avoids parsing the whole message to ask for it.
        from_line, _, raw = entry.partition(b"\n")
        moment = _from_line_time(from_line.decode("latin-1").removeprefix("From "))
        yield ArchivedPost(raw, moment or _header_time(raw), str(key))


def _maildir_posts(path: Path) -> Iterator[ArchivedPost]:
    # A Maildir has no order of its own: sort by delivery time, then by name
    # (Maildir names start with the delivery's Unix time).
    box = mailbox.Maildir(str(path), factory=None, create=False)
    posts = []
    for key in box.iterkeys():
        raw = box.get_bytes(key)
        posts.append(ArchivedPost(raw, _header_time(raw), key))
    yield from sorted(posts, key=lambda post: (post.received_at, post.key))


def _from_line_time(from_line: str) -> datetime | None:
    # Rule 3 B (timing, docs/readings.md): a post takes effect when it reached
    # the forum, in an archive its delivery time.  "sender@example Sat Nov 21
    # 13:37:25 2026": mbox From_ lines carry it in asctime form; taken as UTC.
    parts = from_line.split()
    if len(parts) < 5:
        return None
    return asctime_moment(" ".join(parts[-5:]))


def asctime_moment(text: str) -> datetime | None:
    """``text`` read with ``time.strptime(text, ASCTIME)`` as UTC; None if it does not read."""
    # strptime costs more than the rest of reading an entry: the plain form
    # is read directly, to the same date (tests/ingress/test_mbox_reader.py).
    plain = _PLAIN_ASCTIME.fullmatch(text)
    if plain is not None:
        with contextlib.suppress(ValueError):  # a day the month has not: strptime says
            return datetime(
                int(plain["year"]),
                _MONTHS.index(plain["month"]) + 1,
                int(plain["day"]),
                int(plain["hour"]),
                int(plain["minute"]),
                int(plain["second"]),
                tzinfo=UTC,
            )
    try:
        parsed = time.strptime(text, ASCTIME)
    except ValueError:
        return None
    return datetime(*parsed[:6], tzinfo=UTC)


def _header_time(raw: bytes) -> datetime:
    received = topmost_received_time(raw)
    if received is not None:
        return received
    return _date_header_time(raw) or EPOCH


def _date_header_time(raw: bytes) -> datetime | None:
    value = BytesHeaderParser(policy=compat32).parsebytes(raw[:65536]).get("Date")
    try:
        moment = parsedate_to_datetime(str(value)) if value else None
    except (TypeError, ValueError, IndexError):
        return None
    if moment is None:
        return None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
