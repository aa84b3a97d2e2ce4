"""Property tests: decoding never raises, visible_text is total and stable."""

from __future__ import annotations

import functools
import itertools
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.mail.comments import comment_spans, strip_comments
from bot.mail.decode import decode_message, html_to_text, topmost_received_time
from bot.mail.flowed import unflow
from bot.mail.visible import visible_text

# Real messages to mutate: small enough to keep each example fast.
SEED_MESSAGES = (
    "mailman3_list_post.eml",
    "talon/tests/fixtures/standard_replies/android.eml",
    "talon/tests/fixtures/standard_replies/sparrow.eml",
    "talon/tests/fixtures/reply-quotations-share-block.eml",
    "flanker/tests/fixtures/messages/enclosed.eml",
    "flanker/tests/fixtures/messages/mailformed-headers.eml",
    "flanker/tests/fixtures/messages/from-encoding.eml",
    "flanker/tests/fixtures/messages/missing-final-boundary.eml",
    "cpython_test_email/msg_02.txt",
    "cpython_test_email/msg_12.txt",
    "mail_parser/tests/mails/mail_test_6",
)

MAILISH_LINES = (
    "I vote FOR 1234",
    "> quoted",
    ">> deeper",
    "On Mon, 2 Jan 2023 at 10:00, Bob <bob@example.test> wrote:",
    "On Mon, 2 Jan 2023, Bob",
    "<bob@example.test>",
    "wrote:",
    "-----Original Message-----",
    "From: Bob",
    "Sent: Monday",
    "To: Alice",
    "Subject: x",
    "_______________________________________________",
    "Nomic mailing list -- nomic@example.test",
    "-- ",
    "--",
    "-Alice",
    "Sent from my iPhone",
    "Thanks,",
    "Alice",
    "[[",
    "]]",
    "[[ aside ]]",
    "{{",
    "}}",
    "* * *",
    "",
    " ",
    "\r",
)

mailish_text = st.lists(
    st.one_of(st.sampled_from(MAILISH_LINES), st.text(max_size=30)), max_size=40
).map("\n".join)

HEADER_LINES = st.sampled_from(
    (
        b"From: =?utf-8?q?=C3=A9?= <a@b.example>",
        b"Subject: =?x-foo?b?////?=",
        b"To: <<@>>, ;",
        b"Content-Type: multipart/mixed; boundary=B",
        b"Content-Type: text/plain; charset=x-foo; format=flowed; delsp=yes",
        b"Content-Type: text/html; charset=base64",
        b"Content-Transfer-Encoding: base64",
        b"Content-Transfer-Encoding: quoted-printable",
        b"Content-Disposition: attachment; filename*=utf-8''%FF",
        b"Received: from x; Mon, 2 Jan 2023 03:04:05 -0500",
        b"Date: Mon, 99 Foo 2023",
        b"Message-ID: <<>>",
        b"--B",
        b"--B--",
        b"",
    )
)
structured_messages = st.tuples(
    st.lists(st.one_of(HEADER_LINES, st.binary(max_size=40)), max_size=20),
    st.binary(max_size=400),
).map(lambda parts: b"\r\n".join(parts[0]) + b"\r\n\r\n" + parts[1])

mutation = st.tuples(
    st.sampled_from(("flip", "insert", "delete", "truncate")),
    st.floats(min_value=0, max_value=1, exclude_max=True),
    st.integers(min_value=0, max_value=255),
)


def mutated(raw: bytes, mutations: list[tuple[str, float, int]]) -> bytes:
    data = bytearray(raw)
    for kind, where, value in mutations:
        position = int(where * len(data)) if data else 0
        if kind == "insert" or not data:
            data[position:position] = bytes([value])
        elif kind == "flip":
            data[position] ^= value or 1
        elif kind == "delete":
            del data[position]
        else:
            del data[position:]
    return bytes(data)


@functools.cache
def seed_bytes(corpora: Path, relative: str) -> bytes:
    return (corpora / "email" / relative).read_bytes()


def assert_decodes(raw: bytes) -> None:
    decoded = decode_message(raw)
    assert not any(defect.startswith("decoder failure") for defect in decoded.defects)
    assert isinstance(visible_text(decoded.body_text), str)
    topmost_received_time(raw)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=2000))
def test_decode_never_raises_on_arbitrary_bytes(raw: bytes) -> None:
    assert_decodes(raw)


@settings(max_examples=300, deadline=None)
@given(structured_messages)
def test_decode_never_raises_on_hostile_mime(raw: bytes) -> None:
    assert_decodes(raw)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SEED_MESSAGES), st.lists(mutation, min_size=1, max_size=8))
def test_decode_never_raises_on_mutated_real_mail(
    corpora: Path, relative: str, mutations: list[tuple[str, float, int]]
) -> None:
    assert_decodes(mutated(seed_bytes(corpora, relative), mutations))


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(), mailish_text))
def test_visible_text_is_total_and_idempotent(text: str) -> None:
    once = visible_text(text)
    assert visible_text(once) == once
    assert "\r" not in once
    assert all(line == line.rstrip() for line in once.split("\n"))


@settings(max_examples=200, deadline=None)
@given(mailish_text, st.sampled_from(("", "Alice", "Alice <alice@example.test>", "@")))
# Found by Hypothesis: cutting the copy after a dated attribution left the {{
# block open, so a second reading took the [[ ]] inside it for a comment.
@example("{{\n[[ aside ]]\nOn Mon, 2 Jan 2023 at 10:00, Bob <bob@example.test> wrote:\n}}", "")
def test_visible_text_with_a_sender_is_idempotent(text: str, sender: str) -> None:
    once = visible_text(text, sender=sender)
    assert visible_text(once, sender=sender) == once


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="[]{}ab \n", max_size=60))
def test_comment_spans_are_sorted_disjoint_and_bracketed(text: str) -> None:
    spans = comment_spans(text)
    assert all(end <= next_start for (_, end), (next_start, _) in itertools.pairwise(spans))
    assert all(text.startswith("[[", start) and text.endswith("]]", 0, end) for start, end in spans)
    assert strip_comments(strip_comments(text)) == strip_comments(text)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_html_to_text_is_total(markup: str) -> None:
    assert isinstance(html_to_text(markup), str)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab >-\r\n", max_size=80), st.booleans())
def test_unflow_only_removes_line_breaks_spaces_and_quote_marks(text: str, delsp: bool) -> None:
    result = unflow(text, delete_space=delsp)
    letters = [character for character in text if character in "ab-"]
    assert [character for character in result if character in "ab-"] == letters
