"""Bytes to text whatever charset a message claims, with the problems recorded.

Mail in the wild declares charsets Python does not know (``x-foo``,
``unknown-8bit``), charsets that are not text encodings at all (``base64``),
``us-ascii`` over 8-bit bytes, and raw 8-bit bytes in headers.  Nothing here
raises for such input: the text is decoded as well as it can be and each
problem is returned as a human-readable defect.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Tried in this order when the declared charset is missing, unknown or wrong.
# UTF-8 first because it almost never decodes non-UTF-8 text by accident;
# windows-1252 next because it is what "latin-1" mail usually really is;
# latin-1 last because it decodes every byte sequence.
FALLBACK_CHARSETS: tuple[str, ...] = ("utf-8", "cp1252", "latin-1")

# Labels that mean windows-1252 in practice (WHATWG Encoding Standard, "Legacy
# single-byte encodings"): mailers label cp1252 text as iso-8859-1 or ascii.
_WINDOWS_1252_LABELS = frozenset({"iso-8859-1", "iso8859-1", "latin-1", "latin1", "l1", "cp819"})
_ASCII_LABELS = frozenset({"us-ascii", "ascii", "ansi_x3.4-1968", "us", "iso646-us"})

# Charset labels seen in mail that Python's codec registry spells differently.
_CHARSET_ALIASES: dict[str, str] = {
    "ks_c_5601-1987": "cp949",
    "ks_c_5601": "cp949",
    "iso-8859-8-i": "iso-8859-8",
    "iso-8859-6-i": "iso-8859-6",
    "gb2312": "gb18030",
    "x-gbk": "gbk",
    "x-sjis": "shift_jis",
    "x-euc-jp": "euc-jp",
    "unicode-1-1-utf-7": "utf-7",
    "x-mac-roman": "mac-roman",
}

_SURROGATE_RUN = re.compile("[\udc80-\udcff]+")


@dataclass(frozen=True)
class DecodedText:
    """Text decoded from bytes, and what went wrong on the way (if anything)."""

    text: str
    defects: tuple[str, ...] = ()


def normalised_charset(charset: str | None) -> str | None:
    """Lower-case, stripped charset label with mail-specific aliases resolved."""
    if charset is None:
        return None
    label = charset.strip().strip("\"'").lower()
    if not label:
        return None
    return _CHARSET_ALIASES.get(label, label)


def text_codec(charset: str) -> str | None:
    """The charset itself if Python can decode text with it, else None.

    ``bytes.decode`` refuses bytes-to-bytes codecs such as ``base64`` or
    ``zlib`` with LookupError, so they count as unknown, as do names Python
    cannot look up at all.  (The probe is not empty: decoding ``b""``
    succeeds without looking the codec up.)
    """
    try:
        b"a".decode(charset, errors="replace")
    except (LookupError, ValueError):
        return None
    return charset


def guess_decode(data: bytes) -> tuple[str, str]:
    """Decode with the first fallback charset that accepts the bytes.

    Returns the text and the charset used; latin-1 always succeeds.
    """
    for charset in FALLBACK_CHARSETS[:-1]:
        try:
            return data.decode(charset), charset
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1"), "latin-1"


def decode_bytes(data: bytes, charset: str | None, *, where: str) -> DecodedText:
    """Decode ``data`` declared as ``charset``; ``where`` names it in defects.

    A missing charset means us-ascii (RFC 2045 section 5.2).
    """
    label = normalised_charset(charset) or "us-ascii"
    if label in _ASCII_LABELS:
        return _decode_ascii(data, where=where)
    if label in _WINDOWS_1252_LABELS:
        return _decode_windows_1252(data)
    codec = text_codec(label)
    if codec is None:
        text, used = guess_decode(data)
        return DecodedText(text, (f"unknown charset {label!r} in {where}; decoded as {used}",))
    return _decode_declared(data, codec, where=where)


def _decode_declared(data: bytes, codec: str, *, where: str) -> DecodedText:
    try:
        return DecodedText(data.decode(codec))
    except UnicodeError:
        pass
    try:
        text = data.decode(codec, errors="replace")
    except UnicodeError:
        # A few codecs (punycode) raise even when told to replace.
        text, used = guess_decode(data)
        return DecodedText(text, (f"undecodable {codec} bytes in {where}; decoded as {used}",))
    return DecodedText(text, (f"invalid {codec} bytes in {where}; replaced with U+FFFD",))


def _decode_ascii(data: bytes, *, where: str) -> DecodedText:
    if data.isascii():
        return DecodedText(data.decode("ascii"))
    text, used = guess_decode(data)
    return DecodedText(text, (f"8-bit bytes in {where} declared us-ascii; decoded as {used}",))


def _decode_windows_1252(data: bytes) -> DecodedText:
    # cp1252 leaves five bytes undefined; latin-1 maps them to C1 controls.
    try:
        return DecodedText(data.decode("cp1252"))
    except UnicodeDecodeError:
        return DecodedText(data.decode("latin-1"))


def repair_surrogates(text: str, *, where: str) -> DecodedText:
    """Replace surrogate escapes (raw 8-bit bytes) by decoded characters.

    The stdlib parser keeps undecodable header bytes as lone surrogates
    (``surrogateescape``); each run of them is decoded on its own so that
    correctly decoded characters around it are left alone.
    """
    if _SURROGATE_RUN.search(text) is None:
        return DecodedText(text)
    used_charsets: set[str] = set()

    def decode_run(match: re.Match[str]) -> str:
        run = match.group().encode("utf-8", errors="surrogateescape")
        decoded, used = guess_decode(run)
        used_charsets.add(used)
        return decoded

    repaired = _SURROGATE_RUN.sub(decode_run, text)
    charsets = ", ".join(sorted(used_charsets))
    return DecodedText(repaired, (f"raw 8-bit bytes in {where}; decoded as {charsets}",))
