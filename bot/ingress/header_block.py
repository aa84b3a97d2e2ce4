"""A post's header block, read once on arrival: its Message-ID and the list's stamp.

Storing a post needs two header fields before any stage runs (the
Message-ID that keys it, and the list's ``Received`` stamp that dates it,
``bot.ingress.instant``).  Both are read from one parse of the header
block alone, with compat32, which is several times faster than the full
parse the pipeline does later; the body is not read at all.
"""

from __future__ import annotations

import re
from email.message import Message
from email.parser import BytesHeaderParser
from email.policy import compat32

HEADER_END = re.compile(rb"\r?\n\r?\n")
_PARSER = BytesHeaderParser(policy=compat32)


def header_block(raw: bytes) -> bytes:
    """The bytes of ``raw`` up to the end of its header block (the first blank line)."""
    # The first 64 KiB hold the headers of any ordinary post; a longer header
    # block (a huge Message-ID) is read to its end, so that it is hashed whole.
    head = raw[:65536]
    if HEADER_END.search(head) is not None or len(raw) <= len(head):
        return head
    end = HEADER_END.search(raw)
    return raw if end is None else raw[: end.end()]


def arrival_headers(raw: bytes) -> Message:
    """The header fields of ``raw`` (compat32), parsed from its header block only."""
    return _PARSER.parsebytes(header_block(raw))
