"""Headers first: a post passed over on its headers never has its body parsed,
and a post read whole is decoded exactly as ``decode_message`` decodes it."""

from __future__ import annotations

import pytest

from bot.mail import decode as decode_module
from bot.mail.decode import decode_message
from bot.pipeline import PipelineSettings, run_pipeline

SETTINGS = PipelineSettings(
    bot_addresses=frozenset({"referee@example.test"}),
    list_addresses=frozenset({"nomic@lists.example.test"}),
    required_list_id="nomic.lists.example.test",
)


def post(sender: str, *headers: str) -> bytes:
    lines = [
        f"From: {sender}",
        "To: nomic@lists.example.test",
        "Subject: Go",
        "Message-ID: <post-1@example.test>",
        "List-Id: Nomic <nomic.lists.example.test>",
        'Content-Type: multipart/alternative; boundary="b"',
        *headers,
        "",
        "--b",
        "Content-Type: text/plain; charset=utf-8",
        "",
        "I place a stone at E5.",
        "--b",
        "Content-Type: text/html; charset=utf-8",
        "",
        "<p>I place a stone at E5.</p>",
        "--b--",
        "",
    ]
    return "\r\n".join(lines).encode()


class BodyParsed(BaseException):
    """Raised by a whole parse; not an Exception, so no decoding boundary catches it."""


def refuse_full_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    class HeadersOnly(decode_module.BytesParser):
        def parsebytes(self, text: bytes, headersonly: bool = False) -> object:
            raise BodyParsed

    monkeypatch.setattr(decode_module, "BytesParser", HeadersOnly)


@pytest.mark.parametrize(
    ("sender", "headers", "reason"),
    [
        ("Referee <referee@example.test>", (), "the bot's own"),
        ("Alice <alice@example.test>", ("Auto-Submitted: auto-replied",), "automatic message"),
    ],
)
def test_a_post_passed_over_on_its_headers_is_not_parsed_whole(
    monkeypatch: pytest.MonkeyPatch, sender: str, headers: tuple[str, ...], reason: str
) -> None:
    refuse_full_parse(monkeypatch)
    context = run_pipeline(post(sender, *headers), SETTINGS)
    assert context.stop_reason is not None and reason in context.stop_reason
    assert context.decoded is not None and context.decoded.body_source == "none"


def test_a_post_with_actions_is_read_whole_once() -> None:
    raw = post("Alice <alice@example.test>")
    context = run_pipeline(raw, SETTINGS)
    assert context.stop_reason is None and context.headers_first is None
    assert context.decoded == decode_message(raw)
    assert context.parsed is not None and len(context.parsed.actions) == 1
