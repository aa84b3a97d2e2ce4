"""A multipart body cut into parts as the stdlib feed parser cuts it, for well-formed mail.

The stdlib feed parser (``email.feedparser``, ``_parsegen``) reads a
multipart body line by line through every part and compiles a new regular
expression for every boundary it meets: most of the cost of reading a
multipart post, since every post carries new boundaries.  ``split_multipart``
finds the lines that look like boundary lines with one pattern compiled once,
cuts the body at them, reads each part's header block as the parser does
(``FeedParser._parse_headers``, with the policy's own ``header_source_parse``)
and takes the rest of the part as its payload, recursing into nested
multiparts.  It follows ``_parsegen`` step by step for what it accepts, so
the parts are the parser's parts: the same headers, payloads, preambles,
epilogues and defects, in the same order (tests/mail/test_mime_split.py
compares the two trees).  The stdlib is not altered: the split is a second
reader of the same format, used where it is sure.

Anything it does not follow step by step is left to the stdlib parser
(``split_multipart`` returns None): a missing start or close boundary, a
multipart with no boundary or a transfer encoding other than 7bit, 8bit or
binary, a multipart/digest, message/* parts, nesting deeper than
``MAX_SPLIT_DEPTH``, a boundary line repeated up to the close boundary, an
enclosing boundary met inside a part, a part header block ending in a
"From " line.

How ``_parsegen`` reads, which the split follows (RFC 2046 section 5.1.1):

* Lines end at CRLF, a lone CR or LF (``StringIO(newline='')``), and only
  there.
* A line is a boundary line of boundary B when it is ``--B``, then ``--``
  for the close boundary, then only spaces and tabs up to the line end.
* While a part is read, a line that is a boundary line of the part's own
  multipart or of any enclosing one ends the part (an inner part ends at
  any enclosing boundary: the parser's stack of end-of-file matchers).
* The line end before a boundary line belongs to the boundary: it is cut
  from the end of the part's payload, or of its epilogue for a multipart
  part (an empty epilogue becomes None), and from the preamble.
* A part's header block ends at its first line that is neither a header
  field nor a continuation; a blank line there is dropped, any other line
  starts the payload and is a MissingHeaderBodySeparatorDefect, which comes
  before the header block's own defects.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from dataclasses import dataclass
from email.errors import (
    FirstHeaderLineIsContinuationDefect,
    InvalidHeaderDefect,
    MessageDefect,
    MisplacedEnvelopeHeaderDefect,
    MissingHeaderBodySeparatorDefect,
)
from email.message import EmailMessage, Message

from bot.mail.parsing_policy import DEFAULT_REMEMBERING
from bot.mail.parts import part_type

__all__ = ["MAX_SPLIT_DEPTH", "split_multipart"]

# Deeper nesting is left to the stdlib parser (hostile input, never a list's post).
MAX_SPLIT_DEPTH = 8

# ``--``, the rest of the line without its trailing spaces and tabs (a
# boundary never ends in white space: ``Message.get_boundary`` strips it),
# and the line end if any.  Where it starts a line, it may be a boundary
# line; a lookbehind for the line start would make the search three times
# slower, so that is checked on the few matches instead.
DASHES = re.compile(r"--([^\r\n]*?)[ \t]*(?:\r\n|\r|\n|\Z)")
# Lines with their line ends, as the feed parser cracks them (not str.splitlines).
LINES = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")
# A run of lines that each start as email.feedparser.headerRE says a header
# field, a continuation or an envelope line starts.
HEADER_LINES = re.compile(r"(?:(?:From |[\041-\071\073-\176]*:|[\t ])[^\r\n]*(?:\r\n|\r|\n|\Z))*")
# Multipart transfer encodings RFC 2045 section 6.4 allows (as ``_parsegen`` checks).
MULTIPART_ENCODINGS = frozenset({"7bit", "8bit", "binary"})
NO_MARKS: frozenset[str] = frozenset()


class _NotFollowed(Exception):
    """The body takes a turn of ``_parsegen`` that the split does not follow."""


@dataclass(frozen=True, slots=True)
class _BoundaryLine:
    """A line that starts with ``--``: a boundary line of the boundary whose marks hold ``mark``."""

    start: int
    end: int  # after the line end
    mark: str  # after ``--``, without trailing spaces and tabs


def _marks(boundary: str) -> frozenset[str]:
    """What follows ``--`` on the separator and on the close line of ``boundary``."""
    return frozenset((boundary, boundary + "--"))


class _Body:
    """The text being split and the lines in it that start with ``--``, in order."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = [
            _BoundaryLine(found.start(), found.end(), found.group(1))
            for found in DASHES.finditer(text)
            if found.start() == 0 or text[found.start() - 1] in "\r\n"
        ]
        self.starts = [line.start for line in self.lines]

    def next_boundary(self, position: int, marks: frozenset[str]) -> _BoundaryLine | None:
        """The first boundary line of ``marks`` at or after ``position``."""
        for index in range(bisect.bisect_left(self.starts, position), len(self.lines)):
            if self.lines[index].mark in marks:
                return self.lines[index]
        return None

    def boundary_at(self, position: int, marks: frozenset[str]) -> _BoundaryLine | None:
        """The line starting at ``position`` if it is a boundary line of ``marks``."""
        index = bisect.bisect_left(self.starts, position)
        if index < len(self.lines) and self.starts[index] == position:
            line = self.lines[index]
            if line.mark in marks:
                return line
        return None

    def end_of_part(self, position: int, marks: frozenset[str]) -> int:
        """Where reading from ``position`` meets a boundary line of ``marks``, or the end."""
        found = self.next_boundary(position, marks)
        return len(self.text) if found is None else found.start


def split_multipart(fields: Iterable[tuple[str, str]], payload: str) -> Message | None:
    """The message the stdlib parser makes of header ``fields`` over ``payload``, or None.

    ``fields`` are raw (name, value) pairs as ``Message.raw_items`` gives
    them.  None: not a multipart, or the body takes a turn that the split
    does not follow, and the stdlib parser must read it.
    """
    message = EmailMessage(policy=DEFAULT_REMEMBERING)
    for name, value in fields:
        message.set_raw(name, value)
    if part_type(message).maintype != "multipart":
        return None
    try:
        _split_into(message, _Body(payload), 0, NO_MARKS, depth=0)
    except _NotFollowed:
        return None
    return message


def _split_into(
    message: Message, body: _Body, position: int, enclosing: frozenset[str], depth: int
) -> int:
    """Reads the parts of multipart ``message`` from ``position``; returns where it stopped.

    ``enclosing``: the marks of the enclosing multiparts' boundaries, whose
    lines end this multipart's parts and its epilogue.
    """
    boundary = _boundary(message, depth)
    own = _marks(boundary)
    ending = enclosing | own
    first = body.next_boundary(position, ending)
    # An enclosing boundary, the close line or the end before the first
    # separator: the parser reports StartBoundaryNotFoundDefect.
    if first is None or first.mark in enclosing or first.mark != boundary:
        raise _NotFollowed
    if first.start > position:
        message.preamble = _without_line_end(body.text[position : first.start])
    parts: list[Message | str] = []
    separator = first
    while True:
        start = _after_repeats(body, separator, boundary, enclosing)
        part, position = _read_part(body, start, ending, depth)
        parts.append(part)
        following = body.boundary_at(position, ending)
        # The end of the body or an enclosing boundary before the close
        # line: the parser reports CloseBoundaryNotFoundDefect.
        if following is None or following.mark in enclosing:
            raise _NotFollowed
        if following.mark != boundary:
            break
        separator = following
    message.set_payload(parts)
    # The epilogue runs to an enclosing boundary: this one no longer ends anything.
    epilogue_end = body.end_of_part(following.end, enclosing)
    message.epilogue = body.text[following.end : epilogue_end]
    return epilogue_end


def _boundary(message: Message, depth: int) -> str:
    """The boundary of a multipart the split follows (else ``_NotFollowed``)."""
    boundary = message.get_boundary()
    encoding = str(message.get("content-transfer-encoding", "8bit")).lower()
    if (
        depth >= MAX_SPLIT_DEPTH
        or not boundary
        or encoding not in MULTIPART_ENCODINGS
        # Its parts are message/rfc822 by default.
        or part_type(message).content_type == "multipart/digest"
    ):
        raise _NotFollowed
    return boundary


def _after_repeats(
    body: _Body, separator: _BoundaryLine, boundary: str, enclosing: frozenset[str]
) -> int:
    """Where the part after ``separator`` starts: the parser skips repeated separators."""
    position = separator.end
    while True:
        repeated = body.boundary_at(position, enclosing | _marks(boundary))
        if repeated is None:
            return position
        # A repeated close line is skipped too, and the part read past it.
        if repeated.mark in enclosing or repeated.mark != boundary:
            raise _NotFollowed
        position = repeated.end


def _read_part(
    body: _Body, position: int, ending: frozenset[str], depth: int
) -> tuple[Message, int]:
    """One part from ``position``, read up to a boundary line of ``ending``; and where it stopped.

    RFC 2046 section 5.1.1: the line end before the boundary line belongs to
    the boundary, so it is cut from the payload (a multipart's epilogue).
    """
    part, position = _read_header_block(body, position, ending)
    # part_type answers as get_content_maintype, once for the split and the body's choice.
    maintype = part_type(part).maintype
    if maintype == "message":
        raise _NotFollowed
    if maintype == "multipart":
        position = _split_into(part, body, position, ending, depth + 1)
        # An empty epilogue becomes None; one emptied by the cut stays empty.
        part.epilogue = _without_line_end(part.epilogue) if part.epilogue else None
        return part, position
    end = body.end_of_part(position, ending)
    part.set_payload(_without_line_end(body.text[position:end]))
    return part, end


def _read_header_block(body: _Body, position: int, ending: frozenset[str]) -> tuple[Message, int]:
    """The part's header fields, and where its payload starts.

    The block ends at a boundary line, at the end of the body or at the
    first line that is neither a header field nor a continuation: a blank
    line there is dropped, any other is the payload's first line and a
    MissingHeaderBodySeparatorDefect, which comes before the block's defects.
    """
    text = body.text
    run = HEADER_LINES.match(text, position)
    assert run is not None  # it matches the empty string
    end = run.end()
    # A boundary line ends the block even if it looks like a header field
    # ("--a:b"): the parser checks for boundaries before anything else.
    stop = body.next_boundary(position, ending)
    if stop is not None and stop.start < end:
        end = stop.start
    lines = LINES.findall(text, position, end)
    part = EmailMessage(policy=DEFAULT_REMEMBERING)
    if end < len(text) and (stop is None or stop.start != end):
        if text[end] in "\r\n":  # the blank line after the block, dropped
            end += 2 if text.startswith("\r\n", end) else 1
        else:
            _add_defect(part, MissingHeaderBodySeparatorDefect())
    _parse_header_lines(part, lines)
    return part, end


def _parse_header_lines(part: Message, lines: list[str]) -> None:
    """As ``FeedParser._parse_headers``: the fields, envelope line and defects of a header block."""
    field: list[str] = []
    for number, line in enumerate(lines):
        if line[0] in " \t":
            if field:
                field.append(line)
            else:
                _add_defect(part, FirstHeaderLineIsContinuationDefect(line))
            continue
        if field:
            part.set_raw(*DEFAULT_REMEMBERING.header_source_parse(field))
            field = []
        if line.startswith("From "):
            if number == 0:
                part.set_unixfrom(_without_line_end(line))
            elif number == len(lines) - 1:
                # The parser puts a last "From " line back as the payload's first.
                raise _NotFollowed
            else:
                part.defects.append(MisplacedEnvelopeHeaderDefect(line))
        elif line.startswith(":"):
            part.defects.append(InvalidHeaderDefect("Missing header name."))
        else:
            field = [line]
    if field:
        part.set_raw(*DEFAULT_REMEMBERING.header_source_parse(field))


def _add_defect(part: Message, defect: MessageDefect) -> None:
    # As the parser files them: through the policy (policy.default keeps them on the part).
    DEFAULT_REMEMBERING.handle_defect(part, defect)


def _without_line_end(text: str) -> str:
    if text.endswith("\r\n"):
        return text[:-2]
    if text.endswith(("\r", "\n")):
        return text[:-1]
    return text
