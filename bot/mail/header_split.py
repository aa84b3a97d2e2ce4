"""A post's header block cut from its body as the stdlib feed parser cuts it.

``BytesHeaderParser(policy=...).parsebytes(raw)`` runs the feed parser over
the header block and then over every line of the body too, only to join
the body's lines back into one payload; for a post of a few kilobytes that
line-by-line reading is most of the cost of the header-only parse.
``split_header_block`` finds the end of the header block with one regular
expression and takes the rest of the text as the payload at once.  It
follows ``email.feedparser`` (``FeedParser._parsegen`` and
``_parse_headers``) step by step, so a header-only message built from its
result (``header_only_message``) has the same fields (as ``raw_items``
gives them), envelope line, defects and payload as the stdlib's
(tests/mail/test_header_split.py compares them).  The stdlib is not
altered: this is a second reader of the same format, usable with any
``email.policy`` whose ``header_source_parse`` is the stdlib's
(``policy.default``, ``policy.compat32`` and their clones).

How the feed parser reads a header block, which the split follows
(RFC 5322 section 2.2, with the parser's leniencies):

* The bytes are text as ASCII with surrogate escapes (``BytesParser``).
* Lines end at CRLF, a lone CR or a lone LF, and only there; the last line
  may have no line end.
* The block is the run of lines from the start that each begin as
  ``email.feedparser.headerRE`` says a field, a continuation or an envelope
  ("From ") line begins.  The first line outside it ends the block: a blank
  line is dropped, any other line is the payload's first line and a
  MissingHeaderBodySeparatorDefect, recorded before the block's own defects.
* In the block: a continuation line before any field is dropped with a
  FirstHeaderLineIsContinuationDefect; a "From " line is the envelope line
  if it is the first line, else a MisplacedEnvelopeHeaderDefect (but see
  below); a line starting with ":" is dropped with an InvalidHeaderDefect.
  Every other line starts a field, which its continuation lines extend.

The one shape the split leaves to the stdlib parser (it returns None): a
"From " line that is the block's last line but not its first, which the
parser puts back in front of the payload after dropping the blank line
that ended the block.  No mail client writes it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from email.errors import (
    FirstHeaderLineIsContinuationDefect,
    InvalidHeaderDefect,
    MessageDefect,
    MisplacedEnvelopeHeaderDefect,
    MissingHeaderBodySeparatorDefect,
)
from email.message import Message
from email.policy import Policy

__all__ = ["HeaderBlock", "header_only_message", "split_header_block", "split_header_bytes"]

# A run of lines that each begin as email.feedparser.headerRE says a field,
# a continuation or an envelope line begins, with their line ends.  Every
# alternative takes at least one character, so the run never loops on "".
HEADER_RUN = re.compile(r"(?:(?:From |[\041-\071\073-\176]*:|[\t ])[^\r\n]*(?:\r\n|\r|\n|\Z))*")
# Lines with their line ends, as the feed parser cracks them (not str.splitlines).
LINES = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")
LINE_END = re.compile(r"(?:\r\n|\r|\n)\Z")


@dataclass(frozen=True, slots=True)
class HeaderBlock:
    """What the header-only parse of a post reads: its header block, and the rest as text."""

    fields: tuple[tuple[str, str], ...]  # (name, value) as ``Message.raw_items`` gives them
    unixfrom: str | None  # the envelope "From " line, without its line end
    defects: tuple[MessageDefect, ...]  # in the parser's order
    payload: str  # the rest of the post after the header block


class _NotFollowed(Exception):
    """The block takes a turn of the feed parser that the split does not follow."""


def split_header_bytes(raw: bytes) -> HeaderBlock | None:
    """``split_header_block`` of raw bytes read as ``BytesParser`` reads them."""
    return split_header_block(raw.decode("ascii", errors="surrogateescape"))


def split_header_block(text: str) -> HeaderBlock | None:
    """The header block and payload of ``text`` as the header-only feed parse reads them.

    None: the block takes a turn the split does not follow (see the module's
    docstring); the stdlib parser must read it.
    """
    run = HEADER_RUN.match(text)
    assert run is not None  # it matches the empty string
    end = run.end()
    defects: list[MessageDefect] = []
    if end < len(text):
        if text[end] in "\r\n":  # the blank line after the block, dropped
            end += 2 if text.startswith("\r\n", end) else 1
        else:
            defects.append(MissingHeaderBodySeparatorDefect())
    try:
        fields, unixfrom = _parse_header_lines(LINES.findall(text, 0, run.end()), defects)
    except _NotFollowed:
        return None
    return HeaderBlock(tuple(fields), unixfrom, tuple(defects), text[end:])


def _parse_header_lines(
    lines: Sequence[str], defects: list[MessageDefect]
) -> tuple[list[tuple[str, str]], str | None]:
    """As ``FeedParser._parse_headers``: the fields and envelope line; adds to ``defects``."""
    fields: list[tuple[str, str]] = []
    unixfrom: str | None = None
    field: list[str] = []
    last = len(lines) - 1
    for number, line in enumerate(lines):
        if line[0] in " \t":
            if field:
                field.append(line)
            else:
                defects.append(FirstHeaderLineIsContinuationDefect(line))
            continue
        if field:
            fields.append(_field(field))
            field = []
        if line.startswith("From "):
            if number == 0:
                unixfrom = LINE_END.sub("", line)
            elif number == last:
                raise _NotFollowed  # the parser puts it back in front of the payload
            else:
                defects.append(MisplacedEnvelopeHeaderDefect(line))
        elif line.startswith(":"):
            defects.append(InvalidHeaderDefect("Missing header name."))
        else:
            field = [line]
    if field:
        fields.append(_field(field))
    return fields, unixfrom


def _field(lines: list[str]) -> tuple[str, str]:
    # As policy.EmailPolicy.header_source_parse (and Compat32's, the same).
    name, value = lines[0].split(":", 1)
    value = value.lstrip(" \t") + "".join(lines[1:])
    return name, value.rstrip("\r\n")


def header_only_message(block: HeaderBlock, policy: Policy) -> Message:
    """The message ``BytesHeaderParser(policy=policy)`` makes of the post ``block`` was split from.

    ``policy`` must read header lines as the stdlib's policies do
    (``header_source_parse``).  Raises ValueError for a policy that raises
    on defects (``raise_on_defect``): the parser's defects are recorded here.
    """
    if policy.raise_on_defect:
        raise ValueError("the feed parser would raise on the block's first defect")
    factory = policy.message_factory or Message
    message = factory(policy=policy)
    for name, value in block.fields:
        message.set_raw(name, value)
    if block.unixfrom is not None:
        message.set_unixfrom(block.unixfrom)
    message.defects.extend(block.defects)
    message.set_payload(block.payload)
    return message
