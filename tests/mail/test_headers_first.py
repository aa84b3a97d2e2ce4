"""Decoding the headers first, then the body, gives what one whole decode gives.

The body is read from the header-only parse: a single-part post's payload
is the whole body already, and an ASCII post's payload is split into parts
below its Content-Type alone.  These tests hold that to the whole decode on
every corpus file, on the shapes of bench/pipeline.py's archive and on edge
cases, with the header-only parse kept and with it lost on the way to
another process (pickled).
"""

from __future__ import annotations

import base64
import pickle
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

# Registers how the read-only header map is pickled, as between the processes of a replay.
import bot.engine.prepare  # noqa: F401
from bot.mail import decode as decode_module
from bot.mail.decode import HeadersFirst, decode_headers, decode_message, with_body

ARCHIVE_POSTS = 200


def assert_same_as_whole(raw: bytes) -> HeadersFirst:
    """``with_body`` gives ``decode_message``, whether the header-only parse is kept or not.

    Returns the headers read first, to say which way the body was read.
    """
    whole = decode_message(raw)
    first = decode_headers(raw)
    sent = pickle.loads(pickle.dumps(first))
    assert sent.head is None  # never sent to another process
    assert with_body(raw, first) == whole
    assert with_body(raw, sent) == whole
    return first


def test_corpus_file_headers_first(corpus_file: Path) -> None:
    assert_same_as_whole(corpus_file.read_bytes())


@pytest.fixture(scope="module")
def archive_posts(bench_archive: Callable[[int], list[bytes]]) -> list[bytes]:
    return bench_archive(ARCHIVE_POSTS)


def test_archive_posts_headers_first(archive_posts: list[bytes]) -> None:
    heads = [assert_same_as_whole(raw).head for raw in archive_posts]
    single = [head is not None and head.get_content_maintype() == "text" for head in heads]
    # Both kinds are there: plain and flowed posts are one part, the others multipart.
    assert 0 < sum(single) < len(single)
    assert all(head is not None for head in heads)


HEAD = (
    b"From: Alice <alice@example.org>\r\nTo: nomic@example.org\r\nSubject: Go\r\n"
    b"Message-ID: <one@example.org>\r\nDate: Thu, 26 Nov 2026 12:00:00 +0000\r\n"
)
TEXT = "I place a stone at E5. Ça va, ½ point.\n"


def lf(raw: bytes) -> bytes:
    return raw.replace(b"\r\n", b"\n")


SINGLE_PARTS = {
    "no content-type": lf(HEAD) + b"\nI place a stone at E5.\n",
    "no content-type, no body": lf(HEAD),
    "no content-type, 8-bit body": lf(HEAD) + b"\n" + TEXT.encode("latin-1"),
    "bad charset": lf(HEAD)
    + b"Content-Type: text/plain; charset=x-no-such-charset\n\n"
    + TEXT.encode("utf-8"),
    "no blank line after the headers": lf(HEAD) + b"I place a stone at E5.\nI roll 3d6.\n",
    "crlf": HEAD + b"Content-Type: text/plain; charset=utf-8\r\n\r\n" + TEXT.encode() + b"\r\n",
    "base64": lf(HEAD)
    + b"Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\n"
    + base64.encodebytes(TEXT.encode()),
    "base64 missing its padding": lf(HEAD)
    + b"Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\n"
    + base64.b64encode(b"I place a stone at E5.").rstrip(b"=")
    + b"\n",
    "quoted-printable": lf(HEAD)
    + b"Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n"
    + b"I place a stone at E5. =C3=87a va, =C2=BD point, a soft=\n break.\n",
    "format=flowed delsp": lf(HEAD)
    + b"Content-Type: text/plain; charset=utf-8; format=flowed; delsp=yes\n\n"
    + b"I place a stone  \nat E5.\n",
    "html": lf(HEAD)
    + b"Content-Type: text/html; charset=utf-8\n\n<p>I place a stone at <b>E5</b>.</p>\n",
    "attachment only": lf(HEAD)
    + b"Content-Type: text/plain\nContent-Disposition: attachment; filename=a.txt\n\nE5\n",
    "application type": lf(HEAD) + b"Content-Type: application/pdf\n\n%PDF-1.4\n",
    "invalid content-type (read as text/plain)": lf(HEAD)
    + b"Content-Type: multipart\n\nI place a stone at E5.\n",
    "two content-types, the first one counts": lf(HEAD)
    + b'Content-Type: text/plain\nContent-Type: multipart/mixed; boundary="b"\n\n'
    + b"--b\n\nE5\n--b--\n",
    "mbox from line": b"From alice@example.org Thu Nov 26 12:00:00 2026\n" + lf(HEAD) + b"\nE5\n",
    "continuation first": b" folded\n" + lf(HEAD) + b"\nE5\n",
    "8-bit header": lf(HEAD).replace(b"Subject: Go", "Subject: Gö".encode()) + b"\nE5\n",
}
SPLIT_BELOW_THEIR_TYPE = {
    "message/rfc822": lf(HEAD)
    + b"Content-Type: message/rfc822\n\n"
    + lf(HEAD)
    + b"Content-Type: text/plain\n\nI place a stone at E5.\n",
    "message/delivery-status": lf(HEAD)
    + b"Content-Type: message/delivery-status\n\nReporting-MTA: dns; x\n\nStatus: 5.0.0\n",
    "multipart without a boundary": lf(HEAD) + b"Content-Type: multipart/mixed\n\nE5\n",
    "multipart": lf(HEAD)
    + b'Content-Type: multipart/alternative; boundary="b"\n\n--b\nContent-Type: text/plain\n\n'
    + b"E5\n--b\nContent-Type: text/html\n\n<p>E5</p>\n--b--\n",
    "multipart, crlf, folded type": HEAD
    + b'Content-Type: multipart/alternative;\r\n\tboundary="b"\r\nMIME-Version: 1.0\r\n\r\n'
    + b"preamble\r\n--b\r\nContent-Type: text/plain\r\n\r\nE5\r\n--b--\r\nepilogue\r\n",
    "multipart, bare cr": lf(HEAD).replace(b"\n", b"\r")
    + b'Content-Type: multipart/mixed; boundary="b"\r\r--b\r\rE5\r--b--\r',
    "type on a continuation line": lf(HEAD)
    + b'Content-Type:\n multipart/mixed; boundary="b"\n\n--b\n\nE5\n--b--\n',
    "multipart, then a text type": lf(HEAD)
    + b'Content-Type: multipart/mixed; boundary="b"\nContent-Type: text/plain\n\n'
    + b"--b\n\nE5\n--b--\n",
    "multipart, base64 (not allowed)": lf(HEAD)
    + b'Content-Type: multipart/mixed; boundary="b"\nContent-Transfer-Encoding: base64\n'
    + b"Content-transfer-encoding: 7bit\n\n--b\n\nE5\n--b--\n",
    "multipart, no blank line after the headers": lf(HEAD)
    + b'Content-Type: multipart/mixed; boundary="b"\n--b\n\nE5\n--b--\n',
    "multipart, headers to the end": lf(HEAD) + b'Content-Type: multipart/mixed; boundary="b"\n',
    "multipart, continuation first, misplaced envelope": b" folded\n"
    + lf(HEAD)
    + b"From alice@example.org Thu Nov 26 12:00:00 2026\n"
    + b'no colon\nContent-Type: multipart/mixed; boundary="b"\n\n--b\n\nE5\n--b--\n',
    "multipart, boundary never found": lf(HEAD)
    + b'Content-Type: multipart/mixed; boundary="b"\n\nI place a stone at E5.\n',
    "multipart, no close boundary": lf(HEAD)
    + b'Content-Type: multipart/mixed; boundary="b"\n\n--b\nContent-Type: text/plain\n\nE5\n',
    "nested multipart in a message/rfc822": lf(HEAD)
    + b'Content-Type: multipart/mixed; boundary="out"\n\n--out\nContent-Type: message/rfc822\n\n'
    + lf(HEAD)
    + b'Content-Type: multipart/alternative; boundary="in"\n\n--in\nContent-Type: text/html\n\n'
    + b"<p>E5</p>\n--in--\n--out--\n",
    "multipart, base64 part missing its padding": lf(HEAD)
    + b'Content-Type: multipart/mixed; boundary="b"\n\n--b\nContent-Type: text/plain\n'
    + b"Content-Transfer-Encoding: base64\n\n"
    + base64.b64encode(b"I place a stone at E5.").rstrip(b"=")
    + b"\n--b--\n",
}
# The payload of a post with 8-bit bytes is not read back as it was parsed
# (get_payload decodes it), so such a post is parsed whole.
PARSED_WHOLE = {
    "8-bit multipart": lf(HEAD)
    + b'Content-Type: multipart/mixed; boundary="b"\n\n--b\nContent-Type: text/plain; '
    + b"charset=utf-8\n\n"
    + TEXT.encode()
    + b"--b--\n",
    "8-bit header, multipart": lf(HEAD).replace(b"Subject: Go", "Subject: Gö".encode())
    + b'Content-Type: multipart/mixed; boundary="b"\n\n--b\n\nE5\n--b--\n',
}


@pytest.mark.parametrize("raw", SINGLE_PARTS.values(), ids=SINGLE_PARTS)
def test_single_part_body_read_from_the_header_parse(raw: bytes) -> None:
    head = assert_same_as_whole(raw).head
    assert head is not None and head.get_content_maintype() not in {"multipart", "message"}


@pytest.mark.parametrize("raw", SPLIT_BELOW_THEIR_TYPE.values(), ids=SPLIT_BELOW_THEIR_TYPE)
def test_parts_split_from_the_header_parse(raw: bytes) -> None:
    assert assert_same_as_whole(raw).head is not None


@pytest.mark.parametrize("raw", PARSED_WHOLE.values(), ids=PARSED_WHOLE)
def test_posts_with_8_bit_parts_parsed_whole(raw: bytes) -> None:
    assert assert_same_as_whole(raw).head is None


@pytest.mark.parametrize(
    "raw", [SINGLE_PARTS["crlf"], SPLIT_BELOW_THEIR_TYPE["multipart"]], ids=["single", "multipart"]
)
def test_post_over_the_size_cap(monkeypatch: pytest.MonkeyPatch, raw: bytes) -> None:
    # A small cap instead of 32 MiB: the cut is the same code, and a test
    # worker that grew by a few hundred megabytes would stay that large.
    monkeypatch.setattr(decode_module, "MAX_RAW_BYTES", len(raw) - 5)
    first = assert_same_as_whole(raw)
    assert first.head is not None
    assert f"message of {len(raw)} bytes cut to {len(raw) - 5} before parsing" in (
        first.decoded.defects
    )


def test_body_read_twice_gives_the_same() -> None:
    # Reading the body can add defects to the parsed message (a base64 body
    # missing its padding); reading it again must not change the result.
    raw = SINGLE_PARTS["base64 missing its padding"]
    first = decode_headers(raw)
    assert with_body(raw, first) == with_body(raw, first) == decode_message(raw)
    assert "MIME: InvalidBase64PaddingDefect" in decode_message(raw).defects


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=2000))
def test_arbitrary_bytes_headers_first(raw: bytes) -> None:
    assert with_body(raw, decode_headers(raw)) == decode_message(raw)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(sorted(SINGLE_PARTS) + sorted(SPLIT_BELOW_THEIR_TYPE)),
    st.binary(max_size=600),
    st.sampled_from([b"\n", b"\r\n", b"\r"]),
)
def test_single_parts_with_arbitrary_bodies(name: str, body: bytes, newline: bytes) -> None:
    head, _, _ = {**SINGLE_PARTS, **SPLIT_BELOW_THEIR_TYPE}[name].partition(b"\n\n")
    assert_same_as_whole((head + b"\n\n").replace(b"\n", newline) + body)
