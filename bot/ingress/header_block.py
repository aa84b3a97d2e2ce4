"""A post's header block, read once on arrival: its Message-ID and the list's stamp.

Storing a post needs three header fields before any stage runs: the
Message-ID that keys it, and the ``List-Post`` and ``Received`` fields that
date it (``bot.ingress.instant``).  They are read from the header block
alone (the body is not read at all), as compat32's ``BytesHeaderParser``
reads them and ``str()`` of its values gives them, since the key and the
instant must not depend on which reader ran (the trust model relies on both,
docs/trust.md).

``arrival_fields`` finds them with two patterns and a few searches instead
of the parser's line-by-line reading, following ``email.feedparser``
(``_parsegen`` and ``_parse_headers``) for every header section whose lines
all end in LF or CRLF (tests/ingress/test_arrival_fields.py compares the
two on the corpora, the bench archive, hand-made shapes and generated
header blocks):

* The header section is the run of lines from the start that each begin
  with ``From ``, with a field name (printable ASCII but ``:``, possibly
  none) and a colon, or with a space or tab; the first other line (a blank
  line, a line without a colon, a name with a space or an 8-bit byte in it)
  ends it.
* A field is a line with a name and a colon, and the lines after it that
  begin with a space or tab.  Lines starting with ``From `` and lines with
  nothing before the colon are no fields (nor are the lines folded under
  them), and cannot be confused with the three fields read here.
* A field's value (compat32's ``header_source_parse``) is the rest of its
  first line without the spaces and tabs after the colon, then its folded
  lines as they are, without the line ends at the very end; the bytes are
  decoded as ASCII with surrogate escapes, and a value holding 8-bit bytes is
  handed to compat32's ``header_fetch_parse`` (an ``email.header.Header``),
  whose ``str()`` is taken, exactly as the parser's value would be.
* Names are compared ignoring ASCII case; the first Message-ID and List-Post
  count, and every Received field in order.

A header section holding a lone CR (a line end of its own in the parser,
where the patterns see none) is read by the parser itself
(``arrival_headers``): such mail is rare, and the patterns would have to
follow the parser's reading of CR into every corner.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from email.message import Message
from email.parser import BytesHeaderParser
from email.policy import compat32

HEADER_END = re.compile(rb"\r?\n\r?\n")
_PARSER = BytesHeaderParser(policy=compat32)
# feedparser's headerRE, line by line, up to the first line that is not a
# header line; every line ends in LF (or is the last) once lone CRs are ruled out.
_HEADER_LINES = re.compile(rb"(?:(?:From |[\x21-\x39\x3b-\x7e]*:|[\t ])[^\n]*(?:\n|\Z))*")
_LONE_CR = re.compile(rb"\r(?!\n)")
# A field's value: the rest of its first line, then its folded lines.
_FIELD_VALUE = re.compile(rb"([^\n]*(?:\n|\Z))((?:[\t ][^\n]*(?:\n|\Z))*)")


@dataclass(frozen=True, slots=True)
class ArrivalFields:
    """The header fields storing a post needs, each as ``str()`` of compat32's value."""

    message_id: str | None  # the first Message-ID field; None: there is none
    list_post: str | None  # the first List-Post field; None: there is none
    received: tuple[str, ...]  # every Received field, topmost first


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


def arrival_fields(raw: bytes) -> ArrivalFields:
    """Message-ID, List-Post and Received of ``raw``, as ``arrival_headers`` gives them."""
    section = header_section(raw)
    if section is None:
        return fields_of(arrival_headers(raw))
    return read_fields(section)


def header_section(raw: bytes) -> bytes | None:
    """The header lines of ``raw`` as the parser reads them; None: a lone CR is among them.

    The section found in ``raw`` is the one the parser finds in its header
    block: the block holds the line that ends the section whenever it does
    not hold all of ``raw`` (``header_block``).  Up to the first lone CR the
    parser's lines are the lines ending in LF, and a lone CR in the line
    that ends the section cannot make it a header line (the start that
    makes a header line holds no CR), so only a lone CR inside the section
    sends the post to the parser.
    """
    section_end = _HEADER_LINES.match(raw)
    assert section_end is not None  # the pattern matches the empty string
    section = raw[: section_end.end()]
    if b"\r" in section and _LONE_CR.search(section) is not None:
        return None
    return section


def fields_of(headers: Message) -> ArrivalFields:
    """The arrival fields of a compat32 parse."""
    message_id = headers.get("Message-ID")
    list_post = headers.get("List-Post")
    return ArrivalFields(
        None if message_id is None else str(message_id),
        None if list_post is None else str(list_post),
        tuple(str(value) for value in headers.get_all("Received") or ()),
    )


def read_fields(section: bytes) -> ArrivalFields:
    """The arrival fields of a header section whose lines end in LF or CRLF (see above)."""
    # Lower-casing keeps every offset, and the "\n" put in front makes every
    # line start follow one: a field found at ``start`` in ``lowered`` is the
    # line at ``start`` of the section.
    lowered = b"\n" + section.lower()
    message_id = _values_of(section, lowered, b"\nmessage-id:", first_only=True)
    list_post = _values_of(section, lowered, b"\nlist-post:", first_only=True)
    received = _values_of(section, lowered, b"\nreceived:", first_only=False)
    return ArrivalFields(
        message_id[0] if message_id else None,
        list_post[0] if list_post else None,
        tuple(received),
    )


def _values_of(section: bytes, lowered: bytes, start: bytes, *, first_only: bool) -> list[str]:
    values: list[str] = []
    found = lowered.find(start)
    while found >= 0:
        colon = found + len(start) - 2
        value = _FIELD_VALUE.match(section, colon + 1)
        assert value is not None  # the pattern matches the empty string
        source = value.group(1).lstrip(b" \t") + value.group(2)
        values.append(_value_text(section[found:colon].decode("ascii"), source))
        if first_only:
            break
        found = lowered.find(start, found + 1)
    return values


def _value_text(name: str, source: bytes) -> str:
    # compat32's header_source_parse strips the line ends at the very end;
    # its header_fetch_parse turns a value with 8-bit bytes into a Header.
    value = source.rstrip(b"\r\n")
    if value.isascii():
        return value.decode("ascii")
    return str(compat32.header_fetch_parse(name, value.decode("ascii", "surrogateescape")))
