"""Stage: keep only the visible new text (quotes, signatures, [[comments]] go)."""

from __future__ import annotations

from bot.mail.visible import visible_text
from bot.pipeline.context import PostContext


def extract_visible_text(context: PostContext) -> None:
    assert context.decoded is not None, "decode runs before extract_visible_text"
    decoded = context.decoded
    # The sender lets the signature rules recognise a sign-off by name.
    sender = f"{decoded.from_name} <{decoded.from_address or ''}>"
    context.visible_text = visible_text(decoded.body_text, sender=sender)
