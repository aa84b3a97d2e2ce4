"""Every message file of the shared email corpora through decode + visible_text.

The corpora (CPython's email tests, flanker's MIME torture set, SpamScope's
malformed spam, talon and the reply-parser fixtures, a real Mailman 3 post)
are read in place.  Each file must decode without an exception into sane
values; a few files with known content are checked in detail.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.mail.decode import MAX_BODY_CHARS, DecodedMessage, decode_message, topmost_received_time
from bot.mail.visible import visible_text


def has_surrogates(text: str) -> bool:
    return any("\ud800" <= character <= "\udfff" for character in text)


def all_texts(decoded: DecodedMessage) -> list[str]:
    headers = [value for values in decoded.headers.values() for value in values]
    return [
        decoded.subject,
        decoded.from_name,
        decoded.body_text,
        *decoded.defects,
        *decoded.headers,
        *headers,
        *decoded.to,
        *decoded.cc,
        *decoded.reply_to,
        *decoded.references,
    ]


def assert_sane(decoded: DecodedMessage) -> None:
    texts = all_texts(decoded)
    assert all(isinstance(text, str) for text in texts)
    assert not any(has_surrogates(text) for text in texts)
    assert decoded.body_source in ("plain", "html", "none")
    assert decoded.body_source != "none" or decoded.body_text == ""
    assert len(decoded.body_text) <= MAX_BODY_CHARS
    assert decoded.date is None or decoded.date.utcoffset() == timedelta(0)
    for identifier in (decoded.message_id, decoded.in_reply_to, *decoded.references):
        assert identifier is None or (identifier and identifier.strip("<> \t") == identifier)
    for address in (decoded.from_address, *decoded.to, *decoded.cc, *decoded.reply_to):
        assert address is None or (address == address.lower() and "@" in address)
    assert all(name == name.lower() for name in decoded.headers)
    assert all(isinstance(values, tuple) and values for values in decoded.headers.values())


def test_corpus_file_decodes(corpus_file: Path, corpora: Path) -> None:
    raw = corpus_file.read_bytes()
    decoded = decode_message(raw)
    assert_sane(decoded)
    assert not any(defect.startswith("decoder failure") for defect in decoded.defects)
    visible = visible_text(decoded.body_text, sender=decoded.from_address or "")
    assert not has_surrogates(visible)
    assert visible == visible_text(visible, sender=decoded.from_address or "")
    received = topmost_received_time(raw)
    assert received is None or received.tzinfo is UTC
    assert topmost_received_time(decoded.headers) == received


def test_corpus_has_all_its_messages(corpora: Path) -> None:
    files = [path for path in (corpora / "email").rglob("*") if path.is_file()]
    assert len(files) >= 200
    assert (
        corpora / "email/flanker/tests/fixtures/messages/torture.eml"
    ).stat().st_size > 1_500_000


def decode_file(corpora: Path, relative: str) -> DecodedMessage:
    return decode_message((corpora / "email" / relative).read_bytes())


def test_mailman3_post_fields(corpora: Path) -> None:
    raw = (corpora / "email/mailman3_list_post.eml").read_bytes()
    decoded = decode_message(raw)
    assert decoded.message_id == "179526824506.28033.8886480351272411110@example.test"
    assert decoded.subject == "[Nomic] Proposal 1234"
    assert (decoded.from_address, decoded.from_name) == ("alice@example.test", "")
    assert decoded.to == ("nomic@lists.example.test",)
    assert decoded.date == datetime(2026, 11, 21, 13, 37, 25, tzinfo=UTC)
    assert decoded.headers["list-id"] == ("<nomic.lists.example.test>",)
    assert decoded.headers["precedence"] == ("list",)
    assert decoded.headers["x-mailman-version"] == ("3.3.10",)
    assert len(decoded.headers["received"]) == 2
    assert topmost_received_time(raw) == datetime(2026, 11, 21, 13, 37, 27, tzinfo=UTC)
    assert decoded.defects == ()


def test_torture_test_body(corpora: Path) -> None:
    decoded = decode_file(corpora, "flanker/tests/fixtures/messages/torture.eml")
    assert decoded.subject == "Multi-media mail demonstration"
    assert decoded.body_text.startswith("This is a demonstration of multi-part mail")


@pytest.mark.parametrize(
    ("relative", "subject", "body_start"),
    [
        (
            "flanker/tests/fixtures/messages/bilingual-simple.eml",
            "Simple text. How are you? Как ты поживаешь?",
            "This line is in English\nА эта линия по-русски.",
        ),
        ("flanker/tests/fixtures/messages/text-only.eml", "Testing message parsing", "Hello,"),
        ("flanker/tests/fixtures/messages/enclosed-endless.eml", "Wow", "Hello"),
    ],
)
def test_known_bodies(corpora: Path, relative: str, subject: str, body_start: str) -> None:
    decoded = decode_file(corpora, relative)
    assert decoded.subject == subject
    assert decoded.body_text.startswith(body_start)


def test_8bit_from_header_is_decoded(corpora: Path) -> None:
    decoded = decode_file(corpora, "flanker/tests/fixtures/messages/from-encoding.eml")
    assert decoded.from_name == "Ingo Lütkebohle"
    assert "raw 8-bit bytes in header From; decoded as cp1252" in decoded.defects


def test_overlong_header_is_truncated(corpora: Path) -> None:
    decoded = decode_file(corpora, "flanker/tests/fixtures/messages/long-header.eml")
    assert decoded.subject.startswith("Die heiße Zypernsonne quälte Max und Victoria")
    assert any("longer than 16384 characters" in defect for defect in decoded.defects)


def test_non_text_messages_have_no_body(corpora: Path) -> None:
    for relative in ("outlook-express.eml", "signed.eml"):
        decoded = decode_file(corpora, f"flanker/tests/fixtures/messages/{relative}")
        assert (decoded.body_source, decoded.body_text) == ("none", "")
