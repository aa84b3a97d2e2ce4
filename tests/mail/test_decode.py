"""Unit tests for bot.mail.decode: charsets, MIME choices, headers, caps."""

from __future__ import annotations

import base64
import time
import tracemalloc
from datetime import UTC, datetime

import pytest

from bot.mail import decode as decode_module
from bot.mail import html as html_module
from bot.mail.decode import (
    MAX_BODY_CHARS,
    MAX_HTML_CHARS,
    DecodedMessage,
    decode_message,
    html_to_text,
    topmost_received_time,
)
from bot.mail.flowed import unflow


def message(*headers: str, body: bytes = b"", header_bytes: bytes = b"") -> bytes:
    """A raw message from header lines, extra raw header bytes and a body."""
    head = "".join(f"{header}\r\n" for header in headers).encode("ascii") + header_bytes
    return head + b"\r\n" + body


def plain(body: bytes, charset: str | None = "utf-8", *headers: str) -> bytes:
    content_type = "Content-Type: text/plain" + (f"; charset={charset}" if charset else "")
    return message("From: alice@example.test", content_type, *headers, body=body)


def multipart(subtype: str, *parts: bytes) -> bytes:
    boundary = b"BOUNDARY"
    chunks = b"".join(b"--" + boundary + b"\r\n" + part + b"\r\n" for part in parts)
    body = chunks + b"--" + boundary + b"--\r\n"
    header = f'Content-Type: multipart/{subtype}; boundary="BOUNDARY"'
    return message("From: alice@example.test", "MIME-Version: 1.0", header, body=body)


def part(content_type: str, body: bytes, *headers: str) -> bytes:
    lines = "".join(f"{header}\r\n" for header in (f"Content-Type: {content_type}", *headers))
    return lines.encode("ascii") + b"\r\n" + body


# --- charsets ---------------------------------------------------------------------


def test_iso_8859_1_body() -> None:
    decoded = decode_message(plain("Café Noël".encode("iso-8859-1"), "iso-8859-1"))
    assert decoded.body_text == "Café Noël"
    assert decoded.body_source == "plain"
    assert decoded.defects == ()


def test_iso_8859_1_label_reads_windows_1252_quotes() -> None:
    # Mailers label cp1252 as latin-1; 0x93/0x94 are curly quotes there.
    decoded = decode_message(plain(b"\x93FOR\x94", "iso-8859-1"))
    assert decoded.body_text == "\u201cFOR\u201d"


@pytest.mark.parametrize("charset", ["euc-jp", "iso-2022-jp", "shift_jis"])
def test_japanese_bodies(charset: str) -> None:
    text = "日本語のメールです"
    decoded = decode_message(plain(text.encode(charset), charset))
    assert decoded.body_text == text
    assert decoded.defects == ()


def test_unknown_charset_falls_back_to_utf8_and_says_so() -> None:
    decoded = decode_message(plain("Grüße".encode(), "x-foo"))
    assert decoded.body_text == "Grüße"
    assert decoded.defects == ("unknown charset 'x-foo' in text/plain part; decoded as utf-8",)


def test_unknown_charset_with_latin_bytes_falls_back_to_cp1252() -> None:
    decoded = decode_message(plain(b"na\xefve \x80", "x-unknown"))
    assert decoded.body_text == "naïve €"
    assert "decoded as cp1252" in decoded.defects[0]


def test_bytes_codec_name_is_not_a_charset() -> None:
    # "base64" is a Python codec, but not a text encoding.
    decoded = decode_message(plain(b"plain words", "base64"))
    assert decoded.body_text == "plain words"
    assert decoded.defects == ("unknown charset 'base64' in text/plain part; decoded as utf-8",)


def test_us_ascii_with_8bit_bytes_is_guessed() -> None:
    decoded = decode_message(plain("I vote FOR — obviously".encode(), "us-ascii"))
    assert decoded.body_text == "I vote FOR — obviously"
    assert decoded.defects == (
        "8-bit bytes in text/plain part declared us-ascii; decoded as utf-8",
    )


def test_missing_charset_means_ascii() -> None:
    decoded = decode_message(plain(b"caf\xe9", None))
    assert decoded.body_text == "café"
    assert "declared us-ascii" in decoded.defects[0]


def test_invalid_utf8_is_replaced_and_reported() -> None:
    decoded = decode_message(plain(b"ok \xff\xfe end", "utf-8"))
    assert decoded.body_text == "ok \ufffd\ufffd end"
    assert decoded.defects == ("invalid utf-8 bytes in text/plain part; replaced with U+FFFD",)


def test_quoted_printable_and_base64_bodies() -> None:
    qp = plain(b"caf=C3=A9 =\r\nsoft break", "utf-8", "Content-Transfer-Encoding: quoted-printable")
    b64 = plain(base64.b64encode("Grüße".encode()), "utf-8", "Content-Transfer-Encoding: base64")
    assert decode_message(qp).body_text == "café soft break"
    assert decode_message(b64).body_text == "Grüße"


# --- headers ----------------------------------------------------------------------


def test_8bit_utf8_bytes_in_headers() -> None:
    raw = message(body=b"x", header_bytes="Subject: Grüße aus Köln\r\n".encode())
    decoded = decode_message(raw)
    assert decoded.subject == "Grüße aus Köln"
    assert decoded.defects == ("raw 8-bit bytes in header Subject; decoded as utf-8",)


def test_8bit_latin1_bytes_in_display_name() -> None:
    raw = message(body=b"x", header_bytes=b"From: Andr\xe9 Gide <Andre@Example.TEST>\r\n")
    decoded = decode_message(raw)
    assert decoded.from_name == "André Gide"
    assert decoded.from_address == "andre@example.test"
    assert decoded.headers["from"] == ("André Gide <Andre@Example.TEST>",)


def test_rfc2047_subject_words_are_joined_and_whitespace_normalised() -> None:
    raw = message(
        "Subject: =?utf-8?q?Proposal_=E2=84=96?= =?utf-8?b?MTIzNDo=?=\r\n   un   caf=C3=A9",
        body=b"",
    )
    assert decode_message(raw).subject == "Proposal №1234: un caf=C3=A9"


def test_rfc2047_character_split_across_words() -> None:
    euro = "€".encode()  # three bytes, split over two encoded words
    first = base64.b64encode(euro[:1]).decode()
    second = base64.b64encode(euro[1:]).decode()
    raw = message(f"Subject: =?utf-8?b?{first}?= =?utf-8?b?{second}?= 5", body=b"")
    assert decode_message(raw).subject == "€ 5"


def test_rfc2047_unknown_charset_is_decoded_anyway() -> None:
    raw = message("Subject: =?x-foo?q?Andr=E9?= votes", body=b"")
    decoded = decode_message(raw)
    assert decoded.subject == "André votes"
    assert decoded.defects == ("unknown charset 'x-foo' in header Subject; decoded as cp1252",)


def test_rfc2047_display_name_and_group_syntax() -> None:
    raw = message(
        "From: =?iso-8859-1?q?Ren=E9e?= <Renee@Example.TEST>",
        "To: undisclosed-recipients:;",
        "Cc: Bob <BOB@example.test>, carol@example.test",
        "Reply-To: nomic@lists.example.test",
        body=b"",
    )
    decoded = decode_message(raw)
    assert (decoded.from_name, decoded.from_address) == ("Renée", "renee@example.test")
    assert decoded.to == ()
    assert decoded.cc == ("bob@example.test", "carol@example.test")
    assert decoded.reply_to == ("nomic@lists.example.test",)


def test_comment_style_display_name() -> None:
    decoded = decode_message(message("From: doe@example.com (John Doe)", body=b""))
    assert (decoded.from_name, decoded.from_address) == ("John Doe", "doe@example.com")


def test_broken_address_header_does_not_raise() -> None:
    raw = message('From: "unterminated <x@y', "To: <<<>>>, @@, a@", body=b"x")
    decoded = decode_message(raw)
    assert decoded.to == ()
    assert decoded.body_text == "x"


def test_message_ids() -> None:
    raw = message(
        "Message-ID:   < abc.123@example.test >  ",
        "In-Reply-To: <parent@example.test> (comment)",
        "References: <root@example.test>\r\n <parent@example.test>",
        body=b"",
    )
    decoded = decode_message(raw)
    assert decoded.message_id == "abc.123@example.test"
    assert decoded.in_reply_to == "parent@example.test"
    assert decoded.references == ("root@example.test", "parent@example.test")


@pytest.mark.parametrize("header", [None, "Message-ID:", "Message-ID:    ", "Message-ID: <>"])
def test_missing_or_empty_message_id_is_none(header: str | None) -> None:
    decoded = decode_message(message(*([header] if header else []), body=b"x"))
    assert decoded.message_id is None


def test_headers_mapping_keeps_every_value_in_order_and_is_read_only() -> None:
    raw = message(
        "Received: from a by b; Sat, 21 Nov 2026 13:37:27 +0000",
        "X-Loop: nomic",
        "Received: from c by a; Sat, 21 Nov 2026 13:37:25 +0000",
        "Precedence: list",
        body=b"",
    )
    headers = decode_message(raw).headers
    assert headers["received"] == (
        "from a by b; Sat, 21 Nov 2026 13:37:27 +0000",
        "from c by a; Sat, 21 Nov 2026 13:37:25 +0000",
    )
    assert headers["x-loop"] == ("nomic",)
    assert headers["precedence"] == ("list",)
    with pytest.raises(TypeError):
        headers["x-loop"] = ("forged",)  # type: ignore[index]


@pytest.mark.parametrize(
    ("date", "expected"),
    [
        ("Sat, 21 Nov 2026 15:37:25 +0200", datetime(2026, 11, 21, 13, 37, 25, tzinfo=UTC)),
        ("Sat, 21 Nov 2026 13:37:25 -0000", datetime(2026, 11, 21, 13, 37, 25, tzinfo=UTC)),
        ("21 Nov 26 13:37 GMT", datetime(2026, 11, 21, 13, 37, tzinfo=UTC)),
        ("not a date", None),
        ("Sat, 99 Nov 2026 99:99:99 +0000", None),
    ],
)
def test_date_header_is_aware_utc(date: str, expected: datetime | None) -> None:
    assert decode_message(message(f"Date: {date}", body=b"")).date == expected


# --- Received -----------------------------------------------------------------------


RECEIVED = (
    "Received: from relay.example.test by mx.example.test (Postfix) with ESMTP id 2E2;\r\n"
    "\tSat, 21 Nov 2026 14:37:27 +0100 (CET)",
    "Received: from client by relay.example.test; Sat, 21 Nov 2026 13:30:00 +0000",
)


def test_topmost_received_time_from_raw_bytes() -> None:
    raw = message(*RECEIVED, "Date: Sat, 21 Nov 2026 13:00:00 +0000", body=b"hi")
    assert topmost_received_time(raw) == datetime(2026, 11, 21, 13, 37, 27, tzinfo=UTC)


def test_topmost_received_time_from_decoded_headers() -> None:
    decoded = decode_message(message(*RECEIVED, body=b"hi"))
    assert topmost_received_time(decoded.headers) == datetime(2026, 11, 21, 13, 37, 27, tzinfo=UTC)


@pytest.mark.parametrize(
    "headers",
    [(), ("Received: from a by b with SMTP",), ("Received: from a; yesterday-ish",)],
)
def test_topmost_received_time_absent_or_unparsable(headers: tuple[str, ...]) -> None:
    assert topmost_received_time(message(*headers, body=b"")) is None


def test_topmost_received_time_takes_text_after_the_last_semicolon() -> None:
    raw = message("Received: from a (x; y) by b; id 5; Mon, 2 Jan 2023 03:04:05 -0500", body=b"")
    assert topmost_received_time(raw) == datetime(2023, 1, 2, 8, 4, 5, tzinfo=UTC)


# --- MIME structure --------------------------------------------------------------------


def test_html_only_mail_is_converted_and_quotes_marked() -> None:
    html = (
        b"<html><head><style>p {color: red}</style></head><body>"
        b"<p>I vote <b>FOR</b> 1234</p><div>- keep this dash</div>"
        b"<blockquote>old <i>proposal</i> text</blockquote></body></html>"
    )
    decoded = decode_message(message("Content-Type: text/html; charset=utf-8", body=html))
    assert decoded.body_source == "html"
    assert decoded.body_text == "I vote FOR 1234\n\n- keep this dash\n\n> old proposal text"


def test_multipart_alternative_prefers_plain_whatever_the_order() -> None:
    html = part("text/html; charset=utf-8", b"<p>html version</p>")
    text = part("text/plain; charset=utf-8", b"plain version")
    for raw in (multipart("alternative", html, text), multipart("alternative", text, html)):
        decoded = decode_message(raw)
        assert (decoded.body_source, decoded.body_text) == ("plain", "plain version")


def test_html_post_with_mailman_footer_part_keeps_the_html_body() -> None:
    # Mailman adds its footer as a text/plain part after an HTML-only body.
    html = part("text/html; charset=utf-8", b"<p>I vote FOR 1234</p>")
    footer = part("text/plain; charset=utf-8", b"___\nNomic mailing list")
    decoded = decode_message(multipart("mixed", html, footer))
    assert (decoded.body_source, decoded.body_text) == ("html", "I vote FOR 1234")


def test_text_attachment_is_not_the_body() -> None:
    attachment = part(
        "text/plain", b"attached rules", 'Content-Disposition: attachment; filename="r.txt"'
    )
    body = part("text/plain", b"see attached")
    decoded = decode_message(multipart("mixed", attachment, body))
    assert decoded.body_text == "see attached"


def test_alternative_nested_in_mixed_with_related_html() -> None:
    related = multipart("related", part("text/html", b"<p>rich</p>"), part("image/png", b"x"))
    inner = related.split(b"\r\n", 2)[2]  # drop From/MIME-Version, keep Content-Type
    alternative = multipart("alternative", part("text/plain", b"simple"), inner)
    nested = alternative.split(b"\r\n", 2)[2]
    decoded = decode_message(multipart("mixed", nested, part("application/pdf", b"%PDF")))
    assert decoded.body_text == "simple"


def test_post_wrapped_as_message_rfc822_is_read() -> None:
    # DMARC mitigation by wrapping: the post travels as an attachment.
    inner = message("From: alice@example.test", "Content-Type: text/plain", body=b"I vote FOR 7")
    decoded = decode_message(multipart("mixed", part("message/rfc822", inner)))
    assert decoded.body_text == "I vote FOR 7"


def test_multipart_without_its_boundary_is_read_as_text() -> None:
    raw = message(
        "From: a@example.test", 'Content-Type: multipart/mixed; boundary="NEVER"', body=b"I vote"
    )
    decoded = decode_message(raw)
    assert (decoded.body_source, decoded.body_text) == ("plain", "I vote")
    assert "multipart body without any part; its raw text used as the body" in decoded.defects


def test_non_text_mail_has_no_body() -> None:
    decoded = decode_message(message("Content-Type: application/octet-stream", body=b"\x00\x01"))
    assert (decoded.body_source, decoded.body_text) == ("none", "")


def test_format_flowed_with_delsp_through_decode() -> None:
    body = b"I vote FOR propo \r\nsal 1234 and \r\nAGAINST 1235.\r\n> quoted \r\n> text\r\n-- \r\nA"
    flowed = plain(body, "utf-8; format=flowed; delsp=yes")
    fixed = plain(body, "utf-8")
    assert decode_message(flowed).body_text == (
        "I vote FOR proposal 1234 andAGAINST 1235.\n> quotedtext\n-- \nA"
    )
    assert decode_message(fixed).body_text.startswith("I vote FOR propo \r\nsal")


def test_unflow_without_delsp_keeps_the_space() -> None:
    assert unflow("one \r\ntwo \r\nthree\r\nfour") == "one two three\nfour"


def test_unflow_space_stuffing_and_quote_depth_changes() -> None:
    text = " From the top \r\n>> deep \r\n> shallow\r\n>> \r\nend"
    assert unflow(text) == "From the top \n>> deep \n> shallow\n>> \nend"


def test_unflow_signature_separator_is_fixed() -> None:
    assert unflow("text \r\n-- \r\nsig", delete_space=True) == "text-- \nsig"


# --- size caps and robustness ------------------------------------------------------------


def test_twenty_megabyte_body_is_capped_quickly_and_frugally() -> None:
    line = b"I vote FOR 1234 and AGAINST 1235, with some padding to make it long.\r\n"
    raw = plain(line * (20_000_000 // len(line)), "utf-8")
    tracemalloc.start()
    started = time.perf_counter()
    try:
        decoded = decode_message(raw)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert time.perf_counter() - started < 20
    # Measured about 8 bytes per raw byte (stdlib parser copies plus the text).
    assert peak < 15 * len(raw)
    assert len(decoded.body_text) == MAX_BODY_CHARS
    assert decoded.body_text.startswith("I vote FOR 1234")
    assert any("cut to 1000000" in defect for defect in decoded.defects)


def test_huge_html_is_capped_before_conversion() -> None:
    html = b"<p>FOR</p>" * (MAX_HTML_CHARS // 10 + 1000)
    decoded = decode_message(message("Content-Type: text/html", body=html))
    assert decoded.body_source == "html"
    assert decoded.body_text.startswith("FOR\n\nFOR")
    assert any(defect.startswith("HTML body of") for defect in decoded.defects)


def test_raw_size_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(decode_module, "MAX_RAW_BYTES", 100)
    raw = plain(b"x" * 500)
    decoded = decode_message(raw)
    assert decoded.body_text == "x" * (100 - len(plain(b"")))
    assert decoded.defects[0] == f"message of {len(raw)} bytes cut to 100 before parsing"


def test_decoder_bug_becomes_a_defect(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(raw: bytes, **options: object) -> DecodedMessage:
        raise ValueError("a bug")

    monkeypatch.setattr(decode_module, "_decode", broken)
    decoded = decode_message(b"From: a@example.test\r\n\r\nhi")
    assert decoded.defects == ("decoder failure ValueError: a bug",)
    assert (decoded.body_text, decoded.body_source, dict(decoded.headers)) == ("", "none", {})


def test_nesting_too_deep_for_the_parser_keeps_the_headers() -> None:
    nested = b"Content-Type: message/rfc822\r\n\r\n" * 3000
    raw = message("From: Mallory <m@example.test>", "Subject: deep", body=nested + b"hi")
    raw = raw.replace(b"\r\n\r\n", b"\r\nContent-Type: message/rfc822\r\n\r\n", 1)
    decoded = decode_message(raw)
    assert (decoded.from_address, decoded.subject) == ("m@example.test", "deep")
    assert (decoded.body_text, decoded.body_source) == ("", "none")
    assert decoded.defects[0].startswith("message body unreadable (RecursionError")
    assert decoded.defects[0].endswith("only the headers were read")


@pytest.mark.parametrize(
    "raw",
    [b"", b"\x00", b"\r\n\r\n", b"no headers at all", b"Subject: only a header", b"\xff" * 64],
)
def test_degenerate_input(raw: bytes) -> None:
    decoded = decode_message(raw)
    assert isinstance(decoded.body_text, str)
    assert decoded.body_source in ("plain", "html", "none")


def test_many_defects_are_summarised() -> None:
    headers = [f"Subject{index}: =?x-bad{index}?q?x?=" for index in range(80)]
    decoded = decode_message(message(*headers, body=b""))
    assert len(decoded.defects) == decode_module.MAX_DEFECTS + 1
    assert decoded.defects[-1] == "... and 30 more defects"


def test_html_to_text_keeps_typed_characters() -> None:
    # html2text would escape these as Markdown ("\\-", "1\\.", "\\\\").
    html = "<p>- item<br>1. first<br>C:\\rules\\ __Title__ [[ note ]] {{ text }}</p>"
    assert html_to_text(html) == "- item\n1. first\nC:\\rules\\ __Title__ [[ note ]] {{ text }}"


def test_html_to_text_drops_invisible_marks_and_nbsp() -> None:
    assert html_to_text("<p>F\u200bO\u200eR&nbsp;1234&#xfeff;</p>") == "FOR 1234"


def test_html_converter_crash_falls_back_to_stripping_tags(monkeypatch: pytest.MonkeyPatch) -> None:
    def crashing_converter() -> object:
        raise AssertionError("html2text bug")

    monkeypatch.setattr(html_module, "_converter", crashing_converter)
    converted = html_module.convert_html("<p>I vote &amp; <b>FOR</b></p>\n\n\n\n<br>12")
    assert converted.text == " I vote &  FOR\n\n 12"
    assert converted.defects == ("HTML converter failed (AssertionError); tags stripped instead",)


def test_a_recurring_header_is_decoded_alike_in_every_post() -> None:
    # Header fields are decoded once per distinct value and remembered: the
    # next post with the same field gets the same text and the same defects.
    subject = b"Subject: =?utf-8?q?Caf=C3=A9?= " + "déjà".encode("latin-1")
    long_subject = b"Subject: " + b"long " * 1000
    for header in (subject, long_subject):
        first, second = (decode_message(message(header_bytes=header + b"\r\n")) for _ in "ab")
        assert first == second
    decoded = decode_message(message(header_bytes=subject + b"\r\n"))
    assert decoded.subject == "Café déjà"
    assert decoded.defects == ("raw 8-bit bytes in header Subject; decoded as cp1252",)
