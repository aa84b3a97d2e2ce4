"""Stages: decode the raw bytes, headers first, the body when a stage needs it.

Neither raises; defects become notes.  The stages before ``decode_body``
read headers only, so a post they stop (the bot's own mail, a loop, mail
that is not the list's) never has its body parsed.
"""

from __future__ import annotations

from bot.mail.decode import DecodedMessage, decode_headers, with_body
from bot.pipeline.context import PostContext


def decode(context: PostContext) -> None:
    context.headers_first = decode_headers(context.raw)
    context.decoded = context.headers_first.decoded


def decode_body(context: PostContext) -> None:
    read_body(context)


def read_body(context: PostContext) -> DecodedMessage:
    """The post decoded whole, its body read the first time it is asked for.

    The notes and remarks of decoding are made then, as one decode of the
    whole post made them (no stage before this one makes any).
    """
    first = context.headers_first
    if first is None:
        assert context.decoded is not None, "decode runs before read_body"
        return context.decoded
    decoded = context.decoded = with_body(context.raw, first)
    context.headers_first = None
    for defect in decoded.defects:
        context.note(defect)
    if decoded.body_unread:  # nested too deep: the author must hear of it
        context.remarks = (*context.remarks, decoded.body_unread)
    return decoded
