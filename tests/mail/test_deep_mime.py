"""MIME nested deeper than the decoder follows: the body is unread, and it says so.

The decoder searches for a body down to ``MAX_MIME_DEPTH`` levels (hostile
input), and falls back to the headers alone when the stdlib parser itself
gives up (it recurses once per level).  Either way the body used to come
back empty with no word, and the post was answered with nothing.
"""

from __future__ import annotations

import pytest

from bot.mail.decode import MAX_MIME_DEPTH, TOO_DEEP, decode_message

BODY = b"I roll 1d6.\r\n"


def nested(depth: int, kind: str = "multipart") -> bytes:
    """A post whose text/plain body lies ``depth`` levels down."""
    inner = b"Content-Type: text/plain\r\n\r\n" + BODY
    for level in range(depth):
        if kind == "multipart":
            boundary = b"level%d" % level
            inner = (
                b'Content-Type: multipart/mixed; boundary="' + boundary + b'"\r\n\r\n'
                b"--" + boundary + b"\r\n" + inner + b"\r\n--" + boundary + b"--\r\n"
            )
        else:
            inner = b"Content-Type: message/rfc822\r\n\r\nSubject: enclosed\r\n" + inner
    headers = b"From: Alice <alice@example.test>\r\nMessage-ID: <deep@example.test>\r\n"
    return headers + b"MIME-Version: 1.0\r\n" + inner


@pytest.mark.parametrize("kind", ["multipart", "rfc822"])
def test_a_body_at_the_depth_limit_is_read(kind: str) -> None:
    decoded = decode_message(nested(MAX_MIME_DEPTH, kind))
    assert decoded.body_text.strip() == "I roll 1d6."
    assert decoded.body_unread == ""


@pytest.mark.parametrize("kind", ["multipart", "rfc822"])
def test_a_body_one_level_deeper_is_unread_and_says_why(kind: str) -> None:
    decoded = decode_message(nested(MAX_MIME_DEPTH + 1, kind))
    assert decoded.body_text == ""
    assert decoded.body_unread == TOO_DEEP
    assert "nested more than 32 MIME parts deep" in decoded.body_unread
    assert f"MIME parts nested more than {MAX_MIME_DEPTH} deep were not read" in decoded.defects


def test_nesting_that_defeats_the_parser_itself_is_unread_and_says_why() -> None:
    decoded = decode_message(nested(3000, "rfc822"))
    assert decoded.from_address == "alice@example.test"  # the headers were still read
    assert decoded.body_text == ""
    assert decoded.body_unread.startswith("The body of this post could not be read")
    assert "no action was taken from it" in decoded.body_unread


def test_a_post_without_any_body_is_not_called_unread() -> None:
    raw = b"From: Alice <alice@example.test>\r\nMessage-ID: <empty@example.test>\r\n\r\n"
    assert decode_message(raw).body_unread == ""
