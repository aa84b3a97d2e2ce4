"""bot.ingress.header_block.arrival_fields reads what compat32's header parser reads.

Every input is compared with ``fields_of(arrival_headers(raw))``, the
compat32 ``BytesHeaderParser`` parse of the header block and ``str()`` of
its values, and every hand-made shape says which reader handles it: the
patterns, or the parser itself for a header section holding a lone CR.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st

from bot.ingress.header_block import (
    ArrivalFields,
    arrival_fields,
    arrival_headers,
    fields_of,
    header_section,
)
from bot.ingress.ingest import message_id_of
from bot.ingress.instant import list_receipt_time

PATTERNS = "patterns"
PARSER = "parser"


def compat32_fields(raw: bytes) -> ArrivalFields:
    return fields_of(arrival_headers(raw))


def reader_of(raw: bytes) -> str:
    return PARSER if header_section(raw) is None else PATTERNS


LIST_POST = b"List-Post: <mailto:nomic@lists.example.org>\n"
STAMP = b"Received: from a by lists.example.org\n\tfor <nomic@lists.example.org>; "
STAMP += b"Sun, 01 Jan 2023 01:06:10 +0000\n"

# (header block and body, the reader that handles it)
SHAPES: dict[str, tuple[bytes, str]] = {
    "empty": (b"", PATTERNS),
    "only a blank line": (b"\n", PATTERNS),
    "plain": (b"Message-ID: <a@b>\n" + LIST_POST + STAMP + b"\nbody\n", PATTERNS),
    "CRLF": (b"Message-ID: <a@b>\r\nReceived: x;\r\n y\r\n\r\nbody\r\n", PATTERNS),
    "LF and CRLF mixed": (b"Received: a\r\n b\n\tc\r\nMessage-ID: <m>\n\r\n", PATTERNS),
    "lone CR in the header section": (b"Message-ID: <a@b>\rReceived: x\n\nbody", PARSER),
    "lone CR ending the section": (b"Message-ID: <a@b>\n\r\rReceived: x\n", PATTERNS),
    "lone CR in the body only": (b"Message-ID: <a@b>\n\nbody\rmore\r", PATTERNS),
    "CR at the very end": (b"Message-ID: <a@b>\r", PARSER),
    "lone CR in a line without colon": (
        b"Received: a\nno colon\r here\nMessage-ID: <b>\n",
        PATTERNS,
    ),
    "folded values": (b"Message-ID:\n <a@b>\nReceived: a\n\tb\n  c\n\n", PATTERNS),
    "whitespace-only continuation": (b"Received: a\n \n\t\nMessage-ID: <x>\n\n", PATTERNS),
    "no space after the colon": (b"Message-ID:<a@b>\nReceived:x\n\n", PATTERNS),
    "spaces and tabs after the colon": (b"Message-ID: \t  <a@b>  \nReceived:\t\tx\n\n", PATTERNS),
    "empty values": (b"Message-ID:\nList-Post: \nReceived:\n\n", PATTERNS),
    "empty value then folding": (b"Message-ID: \n <late@b>\n\n", PATTERNS),
    "duplicate fields": (
        b"Message-ID: <first>\nMessage-ID: <second>\n" + LIST_POST + b"List-Post: other\n",
        PATTERNS,
    ),
    "every Received in order": (b"Received: 1\nX: y\nReceived: 2\n\tb\nReceived: 3\n\n", PATTERNS),
    "names in any case": (b"MESSAGE-id: <a>\nlist-POST: <mailto:l@x>\nreceived: r\n\n", PATTERNS),
    "From_ line first": (b"From someone Sun Jan 01 2023\nMessage-ID: <a>\n\n", PATTERNS),
    "From_ line in the middle": (b"Message-ID: <a>\nFrom x\n folded\nReceived: r\n\n", PATTERNS),
    "From_ line last": (b"Received: r\n more\nFrom x\n\nbody\n", PATTERNS),
    "continuation first": (b"  folded first\nMessage-ID: <a>\n\n", PATTERNS),
    "line with nothing before the colon": (b": x\n folded\nReceived: r\n\n", PATTERNS),
    "line without colon ends the section": (
        b"Received: r\nnot a field\nMessage-ID: <a>\n",
        PATTERNS,
    ),
    "space before the colon ends the section": (b"Received : r\nMessage-ID: <a>\n\n", PATTERNS),
    "8-bit byte in a name ends the section": (b"X-\xe9: y\nMessage-ID: <a>\n\n", PATTERNS),
    "8-bit bytes in values": (
        b"Message-ID: <\xe9t\xe9@b>\nReceived: from h\xff;\n\tSun, 01 Jan 2023\n\n",
        PATTERNS,
    ),
    "8-bit bytes folded": (b"List-Post: <mailto:l@x>\n \xc3\xa9\n\n", PATTERNS),
    "encoded words stay as they are": (b"Message-ID: =?utf-8?q?caf=C3=A9?=\n\n", PATTERNS),
    "a name that only starts like one": (b"Message-IDs: <a>\nX-Received: r\n\n", PATTERNS),
    "NUL and controls in values": (b"Message-ID: <a\x00b\x0bc\x0c>\n\n", PATTERNS),
    "no blank line at all": (b"Message-ID: <a>\nReceived: r", PATTERNS),
    "a huge Message-ID past 64 KiB": (b"Message-ID: <" + b"x" * 70_000 + b">\n\nbody", PATTERNS),
    "header block cut at 64 KiB": (
        b"Message-ID: <a>\n\n" + b"X" * 70_000 + b"\nReceived: not a header\n",
        PATTERNS,
    ),
    "long header section without a blank line": (b"Received: r\n" * 7000, PATTERNS),
}


@pytest.mark.parametrize(("raw", "reader"), SHAPES.values(), ids=SHAPES.keys())
def test_shapes_read_as_compat32_reads_them(raw: bytes, reader: str) -> None:
    assert reader_of(raw) == reader
    assert arrival_fields(raw) == compat32_fields(raw)


def test_what_the_fields_hold() -> None:
    fields = arrival_fields(SHAPES["folded values"][0])
    assert fields == ArrivalFields("\n <a@b>", None, ("a\n\tb\n  c",))
    assert arrival_fields(SHAPES["duplicate fields"][0]).message_id == "<first>"
    assert arrival_fields(b"Subject: x\n\n") == ArrivalFields(None, None, ())
    # A value with 8-bit bytes reads as str() of compat32's Header does.
    assert arrival_fields(b"Message-ID: <\xe9@b>\n\n").message_id == "<\ufffd@b>"


def test_the_bench_archive_is_read_by_the_patterns(
    bench_archive: Callable[[int], list[bytes]],
) -> None:
    for raw in bench_archive(200):
        assert reader_of(raw) == PATTERNS
        fields = arrival_fields(raw)
        assert fields == compat32_fields(raw)
        assert fields.message_id and fields.list_post and fields.received


def test_every_corpus_file_reads_as_compat32_reads_it(corpora: Path) -> None:
    files = sorted(path for path in corpora.rglob("*") if path.is_file())
    readers = []
    for path in files:
        raw = path.read_bytes()
        assert arrival_fields(raw) == compat32_fields(raw), path
        readers.append(reader_of(raw))
    assert readers.count(PATTERNS) > 3000


def test_the_key_and_the_instant_come_from_the_fields() -> None:
    raw = b"Message-ID: <a@b>\n" + LIST_POST + STAMP + b"\nbody\n"
    delivered = datetime(2023, 1, 1, 1, 6, 30, tzinfo=UTC)
    assert message_id_of(raw) == "a@b"
    assert list_receipt_time(raw, delivered) == datetime(2023, 1, 1, 1, 6, 10, tzinfo=UTC)
    assert list_receipt_time(raw, delivered, arrival_fields(raw)) == list_receipt_time(
        raw, delivered, compat32_fields(raw)
    )


# Lines that meet every rule of the parser's header reading.
NAMES = st.sampled_from(
    [b"Message-ID", b"message-id", b"MESSAGE-ID", b"List-Post", b"list-post", b"Received"]
    + [b"RECEIVED", b"Subject", b"X-Received", b"Message-IDs", b"", b"Bad name", b"X-\xe9"]
)
VALUES = st.lists(
    st.sampled_from(
        [b"<a@b>", b" ", b"\t", b"x", b";", b"for <l@x>", b"\xe9", b"\xff\xfe", b":", b"From "]
        + [b"=?utf-8?q?a?=", b"<mailto:l@x>", b"Sun, 01 Jan 2023 01:06:10 +0000", b"\x00"]
    ),
    max_size=6,
).map(b"".join)
# Mostly the line ends the patterns read (LF, CRLF, none: two lines glued),
# sometimes a lone CR, which sends the post to the parser.
LINE_ENDS = st.sampled_from([b"\n", b"\r\n", b"\n", b"\r\n", b"", b"\n", b"\r\n", b"\r"])
FIELD_LINES = st.tuples(NAMES, st.sampled_from([b":", b": ", b":\t ", b" :"]), VALUES).map(b"".join)
OTHER_LINES = st.sampled_from(
    [b"", b"From someone Sun Jan 01 2023", b" folded", b"\tfolded \xe9", b"no colon", b">From x"]
)
LINES = st.lists(
    st.tuples(st.one_of(FIELD_LINES, FIELD_LINES, OTHER_LINES), LINE_ENDS).map(b"".join),
    max_size=14,
).map(b"".join)


@settings(max_examples=300)
@given(LINES, st.sampled_from([b"", b"\n\nbody\n", b"\r\n\r\nbody\r\n", b"\rx"]))
@example(b"Received: a\r\n\r folded\nMessage-ID: <a>\n", b"")
@example(b"Message-ID: <a>\r", b"\n")
def test_generated_header_blocks_read_as_compat32_reads_them(lines: bytes, body: bytes) -> None:
    raw = lines + body
    event(f"read by the {reader_of(raw)}")
    assert arrival_fields(raw) == compat32_fields(raw)
