"""A list post's instant: when the list's own server received it.

The bot meets a list post twice over the life of a game: live, when the
list delivers it to the bot's mailbox, and in a replay of the list's
archive.  The two deliveries happen at different moments (the archive is
written before the list sends its copies out, and the bot's mailbox may be
polled later still), so a post timed by its delivery would take effect a
few seconds apart live and in replay, and every ruling, ledger entry and
view that quotes the instant would differ.  Both copies do carry the same
stamp, though: the ``Received`` header that the list's mail server wrote
when the post reached the list, the topmost one whose ``for`` clause names
the list's posting address (RFC 5321 section 4.4; the address is read from
``List-Post``, RFC 2369, which the list writes).  In the archive's copy it
is the topmost header; in the bot's copy the list's outgoing hops sit above
it, naming the bot as recipient.  That stamp is the post's instant.

Anybody can type a ``Received`` header, but only below the ones the servers
on the way write: a post through the list cannot carry a forged stamp above
the list's.  A mail that did not come through the list may carry a forged
``List-Post`` and stamp; it is then not a list post (docs/trust.md), and
the stamp is only believed within ``WINDOW`` before its delivery (never
after it), so a private mail cannot be dated back by more than the window
allows a list to hold a post (moderation), nor forward at all.  Without
such a stamp, or outside the window, the delivery time stands.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from bot.ingress.header_block import ArrivalFields, arrival_fields
from bot.mail.headers import parse_date, unfold

# How long a list may plausibly hold a post before distributing it
# (moderation): a stamp older than this before delivery is not believed.
WINDOW = timedelta(days=1)
# A Received stamp's resolution (RFC 5322 dates have whole seconds).
STAMP_SECOND = timedelta(seconds=1)
_MAILTO = re.compile(r"<\s*mailto:([^>?\s]+)", re.IGNORECASE)
_FOR = re.compile(r"\bfor\s+<?([^\s<>;]+@[^\s<>;]+)>?", re.IGNORECASE)


def list_receipt_time(
    raw: bytes, delivered_at: datetime, headers: ArrivalFields | None = None
) -> datetime:
    """The instant the list's server received ``raw``, else ``delivered_at`` (see above).

    ``headers``: ``arrival_fields(raw)`` when the caller has read them.
    """
    if headers is None:
        headers = arrival_fields(raw)
    found = _MAILTO.search(unfold(headers.list_post or ""))
    if found is None:
        return delivered_at
    address = found.group(1).lower()
    for received in headers.received:
        text = unfold(received)
        named = _FOR.search(text.rsplit(";", 1)[0])
        if named is None or named.group(1).lower() != address or ";" not in text:
            continue
        stamp = parse_date(text.rsplit(";", 1)[1])
        # Never later than the delivery: the worker moves the game's clock to
        # a post's instant, and a typed stamp must not move it ahead.
        if stamp is not None and delivered_at - WINDOW <= stamp <= delivered_at:
            return stamp
        return delivered_at
    return delivered_at
