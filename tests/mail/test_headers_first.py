"""Decoding the headers first, then the body, gives what one whole decode gives."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.mail.decode import decode_headers, decode_message, with_body


def test_corpus_file_headers_first(corpus_file: Path) -> None:
    raw = corpus_file.read_bytes()
    assert with_body(raw, decode_headers(raw)) == decode_message(raw)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=2000))
def test_arbitrary_bytes_headers_first(raw: bytes) -> None:
    assert with_body(raw, decode_headers(raw)) == decode_message(raw)
