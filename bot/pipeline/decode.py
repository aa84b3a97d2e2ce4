"""Stage: decode the raw bytes (never raises; defects become notes)."""

from __future__ import annotations

from bot.mail.decode import decode_message
from bot.pipeline.context import PostContext


def decode(context: PostContext) -> None:
    context.decoded = decode_message(context.raw)
    for defect in context.decoded.defects:
        context.note(defect)
    if context.decoded.body_unread:  # nested too deep: the author must hear of it
        context.remarks = (*context.remarks, context.decoded.body_unread)
