"""Header values: RFC 2047 words, addresses, message ids and dates.

Unstructured values are decoded here rather than by ``policy.default``,
because the stdlib turns an encoded word in an unknown charset into U+FFFD
without telling anyone; here it is decoded with the fallback charsets of
``charsets.py`` and reported.  Address headers do use the stdlib's RFC 5322
parser, with the plain ``email.utils.getaddresses`` as a fallback should it
fail on hostile input.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from email import errors, utils

from bot.mail.charsets import DecodedText, decode_bytes, repair_surrogates
from bot.mail.parsing_policy import DEFAULT_REMEMBERING

_FOLD = re.compile(r"\r?\n(?=[ \t])")
_STRAY_LINE_BREAK = re.compile(r"[\r\n]+")
_ENCODED_WORD = re.compile(
    r"=\?(?P<charset>[^?\s*]+)(?:\*[^?\s]*)?\?(?P<encoding>[qQbB])\?(?P<payload>[^?\s]*)\?="
)
_QUOTED_BYTE = re.compile(rb"=([0-9A-Fa-f]{2})")
_NOT_BASE64 = re.compile(r"[^A-Za-z0-9+/]")
_MESSAGE_ID = re.compile(r"<\s*([^<>\s]+?)\s*>")
_WHITESPACE = re.compile(r"\s+")

# Long enough for any real header; longer values are cut before parsing so a
# hostile header cannot make the address parser crawl.
MAX_HEADER_CHARS = 16_384


@dataclass(frozen=True)
class Mailbox:
    """One address from an address header."""

    display_name: str
    address: str  # addr-spec, lower-cased


@dataclass(frozen=True)
class _Chunk:
    """A run of literal text, or the bytes of adjacent encoded words."""

    text: str = ""
    data: bytes = b""
    charset: str | None = None


def unfold(value: str) -> str:
    """Undo RFC 5322 folding: a line break before whitespace is removed."""
    return _STRAY_LINE_BREAK.sub(" ", _FOLD.sub("", value))


def header_text(name: str, raw_value: str) -> DecodedText:
    """The readable text of a raw header value (unfolded, RFC 2047 decoded)."""
    where = f"header {name}"
    defects: list[str] = []
    value = unfold(raw_value)
    if len(value) > MAX_HEADER_CHARS:
        defects.append(f"{where} longer than {MAX_HEADER_CHARS} characters; truncated")
        value = value[:MAX_HEADER_CHARS]
    repaired = repair_surrogates(value, where=where)
    decoded = decode_encoded_words(repaired.text, where=where)
    return DecodedText(decoded.text, (*defects, *repaired.defects, *decoded.defects))


def plain_header_text(raw_value: str) -> str | None:
    """``header_text(name, raw_value).text`` when it needs no decoding at all, else None.

    An ASCII value without encoded words and within the length cap is only
    unfolded, with no defect: most fields of a post, and the ones that vary
    from post to post (Received, DKIM-Signature, Message-ID, Date).
    """
    if not raw_value.isascii():
        return None
    value = unfold(raw_value) if "\n" in raw_value or "\r" in raw_value else raw_value
    if len(value) > MAX_HEADER_CHARS or "=?" in value:
        return None
    return value


def decode_encoded_words(text: str, *, where: str) -> DecodedText:
    """Decode RFC 2047 encoded words, joining adjacent words of one charset.

    Whitespace between two encoded words is not part of the text (RFC 2047
    section 6.2), and a character may be split across adjacent words, so the
    bytes of adjacent same-charset words are decoded together.
    """
    if "=?" not in text:
        return DecodedText(text)
    pieces: list[str] = []
    defects: list[str] = []
    for chunk in _chunks(text, defects, where=where):
        if chunk.charset is None:
            pieces.append(chunk.text)
            continue
        decoded = decode_bytes(chunk.data, chunk.charset, where=where)
        pieces.append(decoded.text)
        defects.extend(decoded.defects)
    return DecodedText("".join(pieces), tuple(defects))


def _chunks(text: str, defects: list[str], *, where: str) -> list[_Chunk]:
    chunks: list[_Chunk] = []
    position = 0
    for match in _ENCODED_WORD.finditer(text):
        literal = text[position : match.start()]
        position = match.end()
        charset = match.group("charset").lower()
        data = _encoded_word_bytes(match, defects, where=where)
        previous = chunks[-1] if chunks else None
        if previous is not None and previous.charset is not None and not literal.strip():
            if previous.charset == charset:
                chunks[-1] = _Chunk(data=previous.data + data, charset=charset)
                continue
            literal = ""
        if literal:
            chunks.append(_Chunk(text=literal))
        chunks.append(_Chunk(data=data, charset=charset))
    chunks.append(_Chunk(text=text[position:]))
    return chunks


def _encoded_word_bytes(match: re.Match[str], defects: list[str], *, where: str) -> bytes:
    payload = match.group("payload")
    if match.group("encoding") in "qQ":
        raw = payload.encode("utf-8").replace(b"_", b" ")
        return _QUOTED_BYTE.sub(lambda byte: bytes([int(byte.group(1), 16)]), raw)
    cleaned = _NOT_BASE64.sub("", payload)
    if len(cleaned) % 4 == 1:
        # One stray character cannot be part of any byte: drop it.
        cleaned = cleaned[:-1]
        defects.append(f"truncated base64 encoded word in {where}")
    try:
        return base64.b64decode(cleaned + "=" * (-len(cleaned) % 4))
    except (binascii.Error, ValueError):
        defects.append(f"undecodable base64 encoded word in {where}; kept as is")
        return match.group().encode("utf-8")


def parse_mailboxes(name: str, raw_value: str) -> tuple[tuple[Mailbox, ...], tuple[str, ...]]:
    """The mailboxes of an address header (groups flattened), with defects."""
    value = repair_surrogates(unfold(raw_value)[:MAX_HEADER_CHARS], where=f"header {name}")
    try:
        header = DEFAULT_REMEMBERING.header_factory(name, value.text)
        pairs = [(address.display_name, address.addr_spec) for address in header.addresses]
        # It repairs some invalid values silently ("a@b <c@d>" becomes a@b):
        # a repaired address list is not the one its writer meant.
        invalid = [d for d in header.defects if isinstance(d, errors.InvalidHeaderDefect)]
        if invalid:
            raise ValueError(str(invalid[0]))
    except Exception as error:  # the stdlib parser has crash bugs on hostile input
        defect = f"header {name}: address parser failed ({type(error).__name__}); used fallback"
        # Split first, decode the display names after: an encoded word must
        # never become an address or a separator (=?utf-8?q?a@b=0D=0A?=).
        fallback = [
            (decode_encoded_words(display, where=name).text, address)
            for display, address in utils.getaddresses([value.text])
        ]
        return _mailboxes(name, fallback), (defect,)
    # Raw 8-bit bytes were already reported when the header map was decoded.
    return _mailboxes(name, pairs), ()


def _mailboxes(name: str, pairs: list[tuple[str, str]]) -> tuple[Mailbox, ...]:
    mailboxes: list[Mailbox] = []
    for display_name, address in pairs:
        address = repair_surrogates(address, where=name).text.strip().lower()
        if not address or address == "<>" or "@" not in address:
            continue
        display = repair_surrogates(display_name, where=name).text
        mailboxes.append(Mailbox(_WHITESPACE.sub(" ", display).strip(), address))
    return tuple(mailboxes)


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_ADDRESS_LIKE = re.compile(r"[^\s<>\"'@]+@[^\s<>\"'@]+\.[^\s<>\"'@]+")


def mailbox_problem(mailboxes: tuple[Mailbox, ...], header_count: int) -> str | None:
    """Why these From mailboxes cannot name one author, or None if they can.

    Several From headers or mailboxes, a display name with a line break or
    another control character, or a display name that reads as some other
    address are refused rather than guessed at.
    """
    if header_count > 1:
        return f"the post has {header_count} From headers; its author is ambiguous"
    if not mailboxes:
        return "no usable From address: the author cannot be identified"
    if len(mailboxes) > 1:
        named = ", ".join(mailbox.address for mailbox in mailboxes)
        return f"the From header names several mailboxes ({named}); its author is ambiguous"
    mailbox = mailboxes[0]
    if _CONTROL.search(mailbox.display_name) or _CONTROL.search(mailbox.address):
        return "the From header hides a line break or control character in the sender's name"
    for shown in _ADDRESS_LIKE.findall(mailbox.display_name):
        if shown.strip(".,;:()[]").lower() != mailbox.address:
            return (
                f"the From name shows the address {shown} but the mail is from "
                f"{mailbox.address}; a name may not look like another address"
            )
    return None


def comment_display_name(raw_value: str) -> str:
    """The display name of ``addr (Name)`` style headers, which policy.default drops."""
    name, _ = utils.parseaddr(unfold(raw_value)[:MAX_HEADER_CHARS])
    return _WHITESPACE.sub(" ", decode_encoded_words(name, where="From").text).strip()


def message_ids(value: str) -> tuple[str, ...]:
    """The ids in a Message-ID, In-Reply-To or References value, brackets removed."""
    bracketed = tuple(_MESSAGE_ID.findall(value))
    if bracketed:
        return bracketed
    # Some mailers omit the brackets; take whitespace-separated tokens then.
    return tuple(token.strip("<>") for token in value.split() if token.strip("<>"))


def parse_date(value: str) -> datetime | None:
    """An RFC 5322 date as an aware UTC datetime, or None if unparsable.

    A date without zone (or with ``-0000``) is taken as UTC, the only reading
    RFC 5322 section 3.3 allows without more information.
    """
    try:
        parsed = utils.parsedate_to_datetime(value.strip())
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    try:
        return parsed.astimezone(UTC)
    except (OverflowError, ValueError):
        return None
