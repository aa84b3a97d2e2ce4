"""Stage: find the author of a post, even when the list rewrote From.

Mailman's DMARC mitigation turns ``From: Alice <alice@x>`` into
``From: Alice via Nomic <nomic@list>`` and keeps the author in Reply-To (or
Cc, depending on the list's settings); some lists add X-Original-From.
"""

from __future__ import annotations

from email.utils import getaddresses

from bot.pipeline.context import PostContext


def find_author(context: PostContext) -> None:
    decoded = context.decoded
    assert decoded is not None, "decode runs before find_author"
    author = decoded.from_address
    if author is None:
        context.stop("no usable From address: the author cannot be identified")
        return
    if _rewritten_by_list(context):
        author = _original_author(context) or author
    context.author = author
    context.author_name = decoded.from_name.split(" via ")[0].strip()


def _rewritten_by_list(context: PostContext) -> bool:
    # Only the list's own address marks a rewrite: anybody can write "X via Y"
    # as a display name, and a Reply-To naming another player would then let
    # em act as that player.
    assert context.decoded is not None
    return context.decoded.from_address in context.settings.list_addresses


def _original_author(context: PostContext) -> str | None:
    assert context.decoded is not None
    not_list = context.settings.list_addresses | context.settings.bot_addresses
    original = [value for value in context.decoded.headers.get("x-original-from", ())]
    candidates = [address for _name, address in getaddresses(original)]
    candidates += list(context.decoded.reply_to) + list(context.decoded.cc)
    for address in candidates:
        if address and address.lower() not in not_list:
            return address.lower()
    return None
