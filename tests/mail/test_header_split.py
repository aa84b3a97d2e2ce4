"""The header block split as the stdlib's header-only parse splits it (bot.mail.header_split).

Every comparison is against ``BytesHeaderParser`` with the same policy: the
fields as ``raw_items`` gives them, the envelope line, the defects (type and
text, in order) and the payload.  On every corpus file, on bench/pipeline.py's
archive, on hand-made shapes (the one shape left to the stdlib asserted to
be left to it) and on generated header blocks and bodies.
"""

from __future__ import annotations

from collections.abc import Callable
from email import policy
from email.message import Message
from email.parser import BytesHeaderParser
from email.policy import Policy
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.mail import decode as decode_module
from bot.mail.charsets import DecodedText
from bot.mail.decode import decode_headers, decode_message, with_body
from bot.mail.header_split import header_only_message, split_header_block, split_header_bytes
from bot.mail.headers import MAX_HEADER_CHARS, header_text, plain_header_text
from bot.mail.parsing_policy import DEFAULT_REMEMBERING

POLICIES = {"default": DEFAULT_REMEMBERING, "compat32": policy.compat32}


def shape(message: Message) -> tuple[object, ...]:
    return (
        type(message),
        list(message.raw_items()),
        message.get_unixfrom(),
        [(type(defect), str(defect)) for defect in message.defects],
        message.get_payload(),
    )


def assert_split_as_stdlib(raw: bytes, chosen: Policy = DEFAULT_REMEMBERING) -> bool:
    """The split equals the stdlib's header-only parse; False: it left the post to the stdlib."""
    block = split_header_bytes(raw)
    if block is None:
        return False
    expected = BytesHeaderParser(policy=chosen).parsebytes(raw)
    assert shape(header_only_message(block, chosen)) == shape(expected)
    return True


def assert_decoded_as_before(raw: bytes) -> None:
    """Headers first then the body, through the split, gives the whole decode."""
    assert with_body(raw, decode_headers(raw)) == decode_message(raw)


def test_corpus_file_split(corpus_file: Path, corpora: Path) -> None:
    raw = corpus_file.read_bytes()
    for chosen in POLICIES.values():
        assert assert_split_as_stdlib(raw, chosen)


def test_archive_split(bench_archive: Callable[[int], list[bytes]]) -> None:
    for raw in bench_archive(200):
        assert assert_split_as_stdlib(raw)


HEAD = b"From: Alice <alice@example.org>\nTo: nomic@example.org\nSubject: Go\n"
SHAPES = {
    "plain": HEAD + b"\nI place a stone at E5.\n",
    "crlf": HEAD.replace(b"\n", b"\r\n") + b"\r\nE5\r\n",
    "lone cr": HEAD.replace(b"\n", b"\r") + b"\rE5\r",
    "mixed line ends": b"From: a@b\r\nTo: c@d\rSubject: x\n\r\nE5\r",
    "no body": HEAD,
    "no blank line, no line end": HEAD.rstrip(b"\n"),
    "empty": b"",
    "only a blank line": b"\n\nbody\n",
    "folded": b"Subject: one\n two\n\tthree\nFrom: a@b\n\nE5\n",
    "folded with crlf": b"Subject: one\r\n two\r\n\r\nE5\r\n",
    "continuation first": b" folded\n" + HEAD + b"\nE5\n",
    "envelope line": b"From alice@example.org Thu Nov 26 12:00:00 2026\n" + HEAD + b"\nE5\n",
    "envelope line alone": b"From alice@example.org Thu Nov 26 12:00:00 2026",
    "misplaced envelope line": HEAD + b"From alice@example.org now\nX: y\n\nE5\n",
    "missing header name": HEAD + b": no name\n\nE5\n",
    "no separator": HEAD + b"I place a stone at E5.\nI roll 3d6.\n",
    "no separator, continuation after": HEAD + b"E5\n more\n",
    "8-bit header and body": "Subject: Gö\nFrom: a@b\n\nÇa va\n".encode(),
    "latin-1 bytes": "Subject: G\xf6\n\n\xe9\n".encode("latin-1"),
    "empty name": b"X:\n:\nY: 1\n\nE5\n",
    "space before colon": b"Subject : hi\nFrom: a@b\n\nE5\n",
    "value with colons": b"Date: Thu, 26 Nov 2026 12:00:00 +0000\n\nE5\n",
    "blank continuation": b"Subject: a\n \nFrom: a@b\n\nE5\n",
    "nul byte": b"Subject: a\x00b\n\nE5\x00\n",
}
# The feed parser puts a last "From " line back in front of the payload.
LEFT_TO_STDLIB = {
    "envelope-like last line": HEAD + b"From alice@example.org now\n\nE5\n",
    "envelope-like last line, no separator": HEAD + b"From alice now\nE5\n",
    "envelope-like last line at the end": HEAD + b"From alice now",
}


@pytest.mark.parametrize("name", sorted(SHAPES))
@pytest.mark.parametrize("policy_name", sorted(POLICIES))
def test_shapes_split_as_stdlib(name: str, policy_name: str) -> None:
    assert assert_split_as_stdlib(SHAPES[name], POLICIES[policy_name])
    assert_decoded_as_before(SHAPES[name])


@pytest.mark.parametrize("name", sorted(LEFT_TO_STDLIB))
def test_shapes_left_to_stdlib(name: str) -> None:
    assert split_header_bytes(LEFT_TO_STDLIB[name]) is None
    assert_decoded_as_before(LEFT_TO_STDLIB[name])


def test_decode_headers_takes_the_split(monkeypatch: pytest.MonkeyPatch) -> None:
    """The header-only parse of decode_headers is the split's unless it steps aside."""
    calls: list[bytes] = []

    class CountingParser(BytesHeaderParser):
        def parsebytes(self, text: bytes, headersonly: bool = True) -> Message:
            calls.append(text)
            return super().parsebytes(text)

    monkeypatch.setattr(decode_module, "BytesHeaderParser", CountingParser)
    decode_headers(SHAPES["plain"])
    assert calls == []
    decode_headers(LEFT_TO_STDLIB["envelope-like last line"])
    assert calls == [LEFT_TO_STDLIB["envelope-like last line"]]


def test_a_raising_policy_is_refused() -> None:
    block = split_header_block("Subject: a\n\nE5\n")
    assert block is not None
    with pytest.raises(ValueError):
        header_only_message(block, policy.strict)


# --- generated header blocks and bodies ---------------------------------------------

LINE_ENDS = st.sampled_from(["\n", "\r\n", "\r"])
NAMES = st.sampled_from(
    ["From", "To", "Cc", "Subject", "Reply-To", "Content-Type", "X-Spam", "From ", "", " x"]
)
# 8-bit bytes as the parser sees them (surrogate escapes) and encoded words among plain text.
VALUE_PIECES = list('abc :;<>@.=?"\t ') + ["é", "\udce9", "\udcff", "=?utf-8?q?", "=?latin-1?b?"]
VALUE_TEXT = st.lists(st.sampled_from(VALUE_PIECES), max_size=12).map("".join)


@st.composite
def header_lines(draw: st.DrawFn) -> str:
    name = draw(NAMES)
    lead = draw(st.sampled_from(["", " ", "\t", "From "]))
    first = f"{lead}{name}:{draw(VALUE_TEXT)}" if draw(st.booleans()) else f"{lead}{name}"
    folds = draw(st.lists(st.tuples(st.sampled_from([" ", "\t"]), VALUE_TEXT), max_size=2))
    text = first + "".join(draw(LINE_ENDS) + space + value for space, value in folds)
    return text + draw(LINE_ENDS)


@st.composite
def posts(draw: st.DrawFn) -> bytes:
    block = "".join(draw(st.lists(header_lines(), max_size=8)))
    separator = draw(st.sampled_from(["", "\n", "\r\n", "\r", "body first line\n"]))
    body_lines = draw(st.lists(st.tuples(VALUE_TEXT, LINE_ENDS), max_size=5))
    body = "".join(text + end for text, end in body_lines)
    return (block + separator + body).encode("utf-8", errors="surrogateescape")


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(posts())
def test_generated_posts_split_as_stdlib(raw: bytes) -> None:
    for chosen in POLICIES.values():
        assert_split_as_stdlib(raw, chosen)
    assert_decoded_as_before(raw)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_any_bytes_split_as_stdlib(raw: bytes) -> None:
    assert_split_as_stdlib(raw)
    assert_decoded_as_before(raw)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([*VALUE_PIECES, "\n ", "\r\n\t", "\r", "\n"]), max_size=20))
def test_plain_header_text_is_header_text(pieces: list[str]) -> None:
    """The shortcut for values that need no decoding gives what header_text gives."""
    value = "".join(pieces)
    plain = plain_header_text(value)
    if plain is not None:
        assert header_text("Subject", value) == DecodedText(plain)


def test_plain_header_text_steps_aside() -> None:
    assert plain_header_text("a\r\n b") == "a b"
    assert plain_header_text("Gö") is None
    assert plain_header_text("=?utf-8?q?G=C3=B6?=") is None
    assert plain_header_text("x" * (MAX_HEADER_CHARS + 1)) is None
