"""Raw list posts (bytes) to a ``DecodedMessage``; never raises.

Parsing uses the stdlib ``email`` package with ``policy.default`` (its header
objects remembered: ``bot.mail.parsing_policy``).  Every
problem met on the way (unknown charsets, 8-bit headers, broken MIME, a body
over the size cap, a parser crash) becomes a human-readable entry in
``DecodedMessage.defects`` instead of an exception, because a post that
cannot be read must still be answered, not lost.

Size caps, chosen so a hostile or accidental huge post costs bounded work:

* ``MAX_RAW_BYTES`` (32 MiB): bytes beyond it are not parsed.
* ``MAX_HTML_CHARS`` (2,000,000): HTML beyond it is not converted, because
  html2text is pure Python and slow on megabytes of markup.
* ``MAX_BODY_CHARS`` (1,000,000): the text handed on is cut there.  No game
  action needs more than a megabyte of text.
"""

from __future__ import annotations

import functools
import types
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from email import policy
from email.message import Message
from email.parser import BytesHeaderParser, BytesParser, Parser
from typing import Literal

from bot.mail.charsets import DecodedText, decode_bytes
from bot.mail.flowed import unflow
from bot.mail.header_split import header_only_message, split_header_bytes
from bot.mail.headers import (
    Mailbox,
    comment_display_name,
    header_text,
    mailbox_problem,
    message_ids,
    parse_date,
    parse_mailboxes,
    plain_header_text,
    unfold,
)
from bot.mail.html import convert_html, html_to_text
from bot.mail.mime_split import split_multipart
from bot.mail.parsing_policy import DEFAULT_REMEMBERING, MAX_REMEMBERED, MAX_REMEMBERED_CHARS
from bot.mail.parts import part_type

__all__ = [
    "MAX_BODY_CHARS",
    "MAX_HTML_CHARS",
    "MAX_RAW_BYTES",
    "DecodedMessage",
    "HeadersFirst",
    "decode_headers",
    "decode_message",
    "html_to_text",
    "topmost_received_time",
    "with_body",
]

MAX_RAW_BYTES = 32 * 1024 * 1024
MAX_HTML_CHARS = 2_000_000
MAX_BODY_CHARS = 1_000_000
# Deeper MIME nesting than this is not searched for a body (hostile input).
MAX_MIME_DEPTH = 32
# Said in the ruling when a post's body could not be read at all.
TOO_DEEP = (
    f"The body of this post is nested more than {MAX_MIME_DEPTH} MIME parts deep, deeper than "
    "the referee reads, so it was not read and no action was taken from it; "
    "send it again as plain text."
)
UNPARSEABLE = (
    "The body of this post could not be read (the mail parser failed on it: {problem}), "
    "so no action was taken from it; send it again as plain text."
)
# Defects past this many are summarised, so a torture test stays readable.
MAX_DEFECTS = 50
MAX_DEFECT_DETAIL = 120

BodySource = Literal["plain", "html", "none"]


@dataclass(frozen=True)
class DecodedMessage:
    """What the referee needs from one raw post."""

    message_id: str | None
    subject: str
    from_address: str | None
    from_name: str
    from_problem: str | None  # why From names no single author (None: it does)
    reply_to: tuple[str, ...]
    to: tuple[str, ...]
    cc: tuple[str, ...]
    date: datetime | None
    in_reply_to: str | None
    references: tuple[str, ...]
    headers: Mapping[str, tuple[str, ...]]
    body_text: str
    body_source: BodySource
    defects: tuple[str, ...]
    # Why the body could not be read at all, in a player's words ("": it was
    # read, or there is none); the pipeline puts it in the ruling.
    body_unread: str = ""


@dataclass(frozen=True)
class _Body:
    text: str
    source: BodySource
    defects: tuple[str, ...] = ()
    unread: str = ""


def decode_message(raw: bytes) -> DecodedMessage:
    """Decode one raw message; all problems are reported in ``defects``."""
    try:
        return _decode(raw)
    except Exception as error:  # the boundary: a decoder bug must not lose the post
        problem = f"{type(error).__name__}: {error}"
        unread = UNPARSEABLE.format(problem=type(error).__name__)
    # The stdlib parser recurses once per nested message/rfc822 and overflows
    # on hostile nesting; the headers alone still say who posted and when.
    body_defect = f"message body unreadable ({problem}); only the headers were read"
    try:
        return _decode(raw, headers_only=True, first_defect=body_defect, unread=unread)
    except Exception as error:  # same boundary, for the headers
        return _empty_message((f"decoder failure {type(error).__name__}: {error}",))


def _decode(
    raw: bytes, *, headers_only: bool = False, first_defect: str = "", unread: str = ""
) -> DecodedMessage:
    defects: list[str] = [first_defect] if first_defect else []
    if len(raw) > MAX_RAW_BYTES:
        defects.append(f"message of {len(raw)} bytes cut to {MAX_RAW_BYTES} before parsing")
        raw = raw[:MAX_RAW_BYTES]
    parser = BytesHeaderParser if headers_only else BytesParser
    message = parser(policy=DEFAULT_REMEMBERING).parsebytes(raw)
    headers = _header_map(message, defects)
    body = _Body("", "none", unread=unread) if headers_only else _body(message)
    defects.extend(body.defects)
    defects.extend(_parser_defects(message))
    return _assemble(message, headers, body, defects)


def _assemble(
    message: Message, headers: Mapping[str, tuple[str, ...]], body: _Body, defects: list[str]
) -> DecodedMessage:
    addressing = _address_fields(message)
    senders = _mailboxes(addressing, "from", defects)
    sender = senders[0] if senders else None
    return DecodedMessage(
        message_id=_first_id(headers, "message-id"),
        subject=" ".join(_first(headers, "subject").split()),
        from_address=sender.address if sender else None,
        from_name=_from_name(addressing, sender),
        from_problem=_from_problem(addressing, senders, defects),
        reply_to=_addresses(addressing, "reply-to", defects),
        to=_addresses(addressing, "to", defects),
        cc=_addresses(addressing, "cc", defects),
        date=parse_date(_first(headers, "date")),
        in_reply_to=_first_id(headers, "in-reply-to"),
        references=message_ids(" ".join(headers.get("references", ()))),
        headers=headers,
        body_text=body.text,
        body_source=body.source,
        defects=_summarised(defects),
        body_unread=body.unread,
    )


# --- headers first, the body when needed ------------------------------------------


@dataclass(frozen=True)
class HeadersFirst:
    """A post's headers decoded before its body is read (``decode_headers``).

    ``decoded`` has every header field and no body yet; ``with_body`` reads
    the body and gives exactly what ``decode_message`` gives, without
    decoding the headers again.  The bot's own mail, loops and mail that is
    not the list's are passed over on their headers alone (bot.pipeline),
    so their bodies are never parsed.
    """

    decoded: DecodedMessage
    body_read: bool  # True: ``decoded`` is the whole post already
    # The defects in decode_message's order: the header block's, then the
    # body's and the MIME parts' (read with the body), then the addresses'.
    header_defects: tuple[str, ...] = ()
    address_defects: tuple[str, ...] = ()
    # The header-only parse, kept when the body can be read from it as the
    # whole parse would read it (``_body_from_head``).  Kept within one
    # process only: it is not pickled (``__getstate__``), and without it
    # ``with_body`` parses the post whole.
    head: Message | None = field(default=None, compare=False, repr=False)

    def __getstate__(self) -> dict[str, object]:
        # A Message carries its policy, and with it every header remembered
        # (bot.mail.parsing_policy): not worth sending to another process.
        return {**self.__dict__, "head": None}


def decode_headers(raw: bytes) -> HeadersFirst:
    """The headers of one raw post; never raises (a post whose headers alone
    cannot be read apart is decoded whole, as ``decode_message`` does)."""
    try:
        return _decode_headers(raw)
    except Exception:  # the same boundary as decode_message, which reports it
        return HeadersFirst(decode_message(raw), body_read=True)


def _decode_headers(raw: bytes) -> HeadersFirst:
    defects: list[str] = []
    if len(raw) > MAX_RAW_BYTES:
        defects.append(f"message of {len(raw)} bytes cut to {MAX_RAW_BYTES} before parsing")
        raw = raw[:MAX_RAW_BYTES]
    message = _header_only_parse(raw)
    headers = _header_map(message, defects)
    header_count = len(defects)
    # _assemble adds the address headers' defects to the list.  Whether the
    # From parser failed is read from the list, which then lacks the body's
    # and the parts' defects; none of those names a header, so the answer
    # is the same as with them.
    decoded = _assemble(message, headers, _Body("", "none"), defects)
    return HeadersFirst(
        decoded,
        body_read=False,
        header_defects=tuple(defects[:header_count]),
        address_defects=tuple(defects[header_count:]),
        head=message if _is_single_part(message) or raw.isascii() else None,
    )


def _header_only_parse(raw: bytes) -> Message:
    """``BytesHeaderParser(policy=DEFAULT_REMEMBERING).parsebytes(raw)``, without its reading of
    every body line where ``split_header_block`` follows the parser (all but one odd shape)."""
    block = split_header_bytes(raw)
    if block is None:
        return BytesHeaderParser(policy=DEFAULT_REMEMBERING).parsebytes(raw)
    return header_only_message(block, DEFAULT_REMEMBERING)


def with_body(raw: bytes, first: HeadersFirst) -> DecodedMessage:
    """The post ``first`` read the headers of, decoded whole: ``decode_message(raw)``."""
    if first.body_read:
        return first.decoded
    try:
        if first.head is None:
            body, parts = _body_and_mime_defects(_parsed_whole(raw))
        else:
            body, parts = _body_from_head(first.head)
    except Exception:  # decode_message meets the same failure and reports it in its way
        return decode_message(raw)
    defects = [*first.header_defects, *body.defects, *parts, *first.address_defects]
    return replace(
        first.decoded,
        body_text=body.text,
        body_source=body.source,
        defects=_summarised(defects),
        body_unread=body.unread,
    )


def _parsed_whole(raw: bytes) -> Message:
    return BytesParser(policy=DEFAULT_REMEMBERING).parsebytes(raw[:MAX_RAW_BYTES])


def _body_and_mime_defects(message: Message) -> tuple[_Body, tuple[str, ...]]:
    # In this order: reading a part's body may add to its defects (base64).
    body = _body(message)
    return body, tuple(_parser_defects(message))


# The only header fields the stdlib parser reads to split a body into parts
# (email.feedparser, ``_parsegen``): the type (its boundary) and the
# transfer encoding (checked on a multipart).
SPLITTING_FIELDS = frozenset({"content-type", "content-transfer-encoding"})


def _body_from_head(head: Message) -> tuple[_Body, tuple[str, ...]]:
    """The body and MIME defects of the whole parse, from the header-only parse ``head``.

    The parser treats the header block alike in both parses, and what
    follows it alike up to the point where the whole parse looks at the
    type.  Of one part (not multipart/* or message/*), the rest of the post
    is the payload in both.  Otherwise the whole parse splits that rest
    under the post's type alone, so the payload is split again below the
    splitting fields only (instead of every header again): by
    ``split_multipart`` where it follows the parser, else by the stdlib
    parser.  The result's top part then lacks the header block's defects,
    which come first among its defects in the whole parse.
    """
    if _is_single_part(head):
        return _body_and_mime_defects(head)
    fields = [
        (name, str(value)) for name, value in head.raw_items() if name.lower() in SPLITTING_FIELDS
    ]
    # Unaltered: kept only for a post all ASCII (get_payload decodes 8-bit text).
    payload = head.get_payload()
    assert isinstance(payload, str)
    split = split_multipart(fields, payload)
    if split is None:  # a turn the split does not follow: the stdlib parser reads it
        split = _parsed_below(fields, payload)
    body, parts = _body_and_mime_defects(split)
    return body, (*_defect_texts(head), *parts)


def _parsed_below(fields: Sequence[tuple[str, str]], payload: str) -> Message:
    """``payload`` split by the stdlib parser under the header ``fields``."""
    block = "".join(f"{name}: {value}\n" for name, value in fields)
    return Parser(policy=DEFAULT_REMEMBERING).parsestr(f"{block}\n{payload}")


def _is_single_part(message: Message) -> bool:
    """Whether the whole parse reads the body as one payload, as the header-only parse does.

    The stdlib feed parser splits the body further only for a message/* or
    multipart/* type, asked as here (``get_content_maintype``); for any other
    type the rest of the post becomes the payload, as with ``headersonly``.
    """
    try:
        return message.get_content_maintype() not in {"message", "multipart"}
    except Exception:  # then the whole parse, which meets it again, says what it makes of it
        return False


def _empty_message(defects: tuple[str, ...]) -> DecodedMessage:
    return DecodedMessage(
        message_id=None,
        subject="",
        from_address=None,
        from_name="",
        from_problem="the post could not be decoded: the author cannot be identified",
        reply_to=(),
        to=(),
        cc=(),
        date=None,
        in_reply_to=None,
        references=(),
        headers=types.MappingProxyType({}),
        body_text="",
        body_source="none",
        defects=defects,
    )


# --- headers -----------------------------------------------------------------


def _header_map(message: Message, defects: list[str]) -> Mapping[str, tuple[str, ...]]:
    values: dict[str, list[str]] = {}
    for name, raw_value in message.raw_items():
        text = plain_header_text(str(raw_value))
        if text is None:
            decoded = _decoded_header(name, str(raw_value))
            defects.extend(decoded.defects)
            text = decoded.text
        values.setdefault(name.strip().lower(), []).append(text)
    return types.MappingProxyType({name: tuple(found) for name, found in values.items()})


def _decoded_header(name: str, raw_value: str) -> DecodedText:
    """``header_text``, remembered for the values that recur from post to post.

    Most header fields of a list's posts recur (the list's own fields, To,
    each author's From and mail client, a thread's Subject): seven in ten of
    bench/pipeline.py's.  ``header_text`` depends on nothing but the name and
    value, and its result is immutable, so one result serves every post that
    has the field.  A long value is decoded each time, so the memory stays
    bounded, as for the header objects (bot.mail.parsing_policy).
    """
    if len(raw_value) > MAX_REMEMBERED_CHARS:
        return header_text(name, raw_value)
    return _remembered_header_text(name, raw_value)


@functools.lru_cache(maxsize=MAX_REMEMBERED)
def _remembered_header_text(name: str, raw_value: str) -> DecodedText:
    return header_text(name, raw_value)


def _first(headers: Mapping[str, tuple[str, ...]], name: str) -> str:
    found = headers.get(name, ())
    return found[0] if found else ""


def _first_id(headers: Mapping[str, tuple[str, ...]], name: str) -> str | None:
    ids = message_ids(_first(headers, name))
    return ids[0] if ids else None


# The address fields _assemble reads, by lower-case name.
ADDRESS_FIELDS = frozenset({"from", "reply-to", "to", "cc"})
AddressFields = Mapping[str, Sequence[str]]


def _address_fields(message: Message) -> AddressFields:
    """The raw values of the address fields, in order, read in one pass over the fields."""
    found: dict[str, list[str]] = {}
    for key, value in message.raw_items():
        name = key.strip().lower()
        if name in ADDRESS_FIELDS:
            found.setdefault(name, []).append(str(value))
    return found


def _mailboxes(addressing: AddressFields, name: str, defects: list[str]) -> tuple[Mailbox, ...]:
    mailboxes: list[Mailbox] = []
    for raw_value in addressing.get(name, ()):
        found, problems = parse_mailboxes(name, raw_value)
        mailboxes.extend(found)
        defects.extend(problems)
    return tuple(mailboxes)


def _addresses(addressing: AddressFields, name: str, defects: list[str]) -> tuple[str, ...]:
    return tuple(mailbox.address for mailbox in _mailboxes(addressing, name, defects))


def _from_problem(
    addressing: AddressFields, senders: tuple[Mailbox, ...], defects: list[str]
) -> str | None:
    if any(defect.startswith("header from: address parser failed") for defect in defects):
        return (
            "the From header is malformed (a strict parser rejects it); its author is not guessed"
        )
    return mailbox_problem(senders, len(addressing.get("from", ())))


def _from_name(addressing: AddressFields, sender: Mailbox | None) -> str:
    if sender is None:
        return ""
    if sender.display_name:
        return sender.display_name
    raw = addressing.get("from", ())
    return comment_display_name(raw[0]) if raw else ""


def _parser_defects(message: Message) -> Iterator[str]:
    for part in _walk(message, include_enclosed=True):
        yield from _defect_texts(part)


def _defect_texts(part: Message) -> Iterator[str]:
    for defect in part.defects:
        detail = " ".join(str(defect).split())[:MAX_DEFECT_DETAIL]
        yield f"MIME: {type(defect).__name__}: {detail}".rstrip(": ")


def _summarised(defects: list[str]) -> tuple[str, ...]:
    unique = list(dict.fromkeys(defects))
    if len(unique) <= MAX_DEFECTS:
        return tuple(unique)
    hidden = len(unique) - MAX_DEFECTS
    return (*unique[:MAX_DEFECTS], f"... and {hidden} more defects")


# --- body ----------------------------------------------------------------------


def _walk(message: Message, *, include_enclosed: bool) -> Iterator[Message]:
    """Every part, depth first in display order, down to MAX_MIME_DEPTH."""
    stack: list[tuple[Message, int]] = [(message, 0)]
    while stack:
        part, depth = stack.pop()
        yield part
        if depth >= MAX_MIME_DEPTH:
            continue
        if part_type(part).maintype == "message" and not include_enclosed:
            continue
        stack.extend((child, depth + 1) for child in reversed(_children(part)))


def _nested_too_deep(message: Message) -> bool:
    """Whether some part lies deeper than ``_walk`` goes (MAX_MIME_DEPTH)."""
    stack: list[tuple[Message, int]] = [(message, 0)]
    while stack:
        part, depth = stack.pop()
        children = _children(part)
        if children and depth >= MAX_MIME_DEPTH:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def _children(part: Message) -> list[Message]:
    payload = part.get_payload()
    if not isinstance(payload, list):
        return []
    return [child for child in payload if isinstance(child, Message)]


def _body(message: Message) -> _Body:
    """The body: see ``_body_part`` for which part; then decoded and capped."""
    part = _body_part(message, include_enclosed=False)
    if part is None:
        # A list that wraps posts for DMARC carries the post as message/rfc822.
        part = _body_part(message, include_enclosed=True)
    if part is None and _nested_too_deep(message):
        defect = f"MIME parts nested more than {MAX_MIME_DEPTH} deep were not read"
        return _Body("", "none", (defect,), unread=TOO_DEEP)
    if part is None:
        return _unsplit_multipart_body(message)
    if part_type(part).subtype == "html":
        return _html_body(part)
    return _plain_body(part)


def _unsplit_multipart_body(message: Message) -> _Body:
    """The raw text of a multipart message whose boundary never occurs.

    Mail readers show such a body as text, and so does the referee: the
    author's words are in it.  Anything else without a text part has no body.
    """
    payload = message.get_payload()
    if part_type(message).maintype != "multipart" or not isinstance(payload, str):
        return _Body("", "none")
    data = payload.encode("utf-8", errors="surrogateescape")
    decoded = decode_bytes(data, part_type(message).charset, where="multipart body")
    text, cap_defects = _capped(decoded.text, MAX_BODY_CHARS, "text body")
    defect = "multipart body without any part; its raw text used as the body"
    return _Body(text, "plain", (defect, *decoded.defects, *cap_defects))


def _body_part(message: Message, *, include_enclosed: bool) -> Message | None:
    """The first text part a reader would see, text/plain preferred.

    Within a multipart/alternative the text/plain alternative wins over the
    HTML one.  Elsewhere the first inline text part in display order is the
    body: in particular a later text/plain part of a multipart/mixed (such as
    the footer Mailman appends to an HTML post) is not taken for the body.
    """
    for part in _walk(message, include_enclosed=include_enclosed):
        kind = part_type(part)
        if kind.attachment or kind.maintype != "text":
            continue
        if kind.subtype == "plain":
            return part
        if kind.subtype == "html":
            return _plain_alternative(message, part) or part
    return None


def _plain_alternative(message: Message, html_part: Message) -> Message | None:
    for part in _walk(message, include_enclosed=True):
        if part_type(part).content_type != "multipart/alternative":
            continue
        if any(child is html_part for child in _walk(part, include_enclosed=False)):
            plain = [child for child in _children(part) if _is_inline_plain(child)]
            return plain[0] if plain else None
    return None


def _is_inline_plain(part: Message) -> bool:
    kind = part_type(part)
    return kind.content_type == "text/plain" and not kind.attachment


def _payload_text(part: Message) -> DecodedText:
    where = f"{part_type(part).content_type} part"
    data = part.get_payload(decode=True)
    if not isinstance(data, bytes):
        return DecodedText("")
    return decode_bytes(data, part_type(part).charset, where=where)


def _plain_body(part: Message) -> _Body:
    decoded = _payload_text(part)
    text = decoded.text
    if _parameter(part, "format") == "flowed":
        text = unflow(text, delete_space=_parameter(part, "delsp") == "yes")
    text, cap_defects = _capped(text, MAX_BODY_CHARS, "text body")
    return _Body(text, "plain", (*decoded.defects, *cap_defects))


def _html_body(part: Message) -> _Body:
    decoded = _payload_text(part)
    markup, html_cap = _capped(decoded.text, MAX_HTML_CHARS, "HTML body")
    converted = convert_html(markup)
    text, text_cap = _capped(converted.text, MAX_BODY_CHARS, "text of the HTML body")
    return _Body(text, "html", (*decoded.defects, *html_cap, *converted.defects, *text_cap))


def _parameter(part: Message, name: str) -> str:
    return part_type(part).params.get(name, "").strip().lower()


def _capped(text: str, limit: int, what: str) -> tuple[str, tuple[str, ...]]:
    if len(text) <= limit:
        return text, ()
    return text[:limit], (f"{what} of {len(text)} characters cut to {limit}",)


# --- Received --------------------------------------------------------------------


def topmost_received_time(raw_or_headers: bytes | Mapping[str, Sequence[str]]) -> datetime | None:
    """When the nearest relay received the message, as aware UTC; else None.

    Takes raw message bytes or a header mapping such as
    ``DecodedMessage.headers``.  The date is what follows the last ``;`` of the
    first (topmost) Received header, RFC 5321 section 4.4.
    """
    try:
        received = _topmost_received(raw_or_headers)
    except Exception:  # same boundary as decode_message: never raise on input
        return None
    if received is None or ";" not in received:
        return None
    return parse_date(received.rsplit(";", 1)[1])


def _topmost_received(raw_or_headers: bytes | Mapping[str, Sequence[str]]) -> str | None:
    if isinstance(raw_or_headers, bytes):
        # Only the header section matters; a megabyte is far more than any.
        head = raw_or_headers[:1_000_000]
        headers = BytesHeaderParser(policy=policy.compat32).parsebytes(head)
        found = headers.get_all("received")
        return unfold(str(found[0])) if found else None
    for name, values in raw_or_headers.items():
        if name.lower() == "received" and values:
            return unfold(values[0])
    return None
