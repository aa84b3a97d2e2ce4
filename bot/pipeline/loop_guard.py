"""Stage: never act on our own posts, auto-replies, bounces or mail loops.

RFC 3834 (Auto-Submitted), the conventional Precedence values and the
bounce shapes of RFC 3464 are recognised.  ``Precedence: list`` is the
normal case for posts relayed by the list and is *not* a reason to stop;
neither is ``Precedence: bulk`` on a post a mailing list relayed, because
Majordomo, ezmlm and older Mailman stamp it on every post they distribute.
"""

from __future__ import annotations

import re
from email.utils import parseaddr

from bot.pipeline.context import PostContext

AUTOMATED_PRECEDENCE = {"bulk", "junk", "auto_reply"}
BOUNCE_SENDERS = ("mailer-daemon@", "postmaster@")
AUTORESPONDER_HEADERS = ("x-autoreply", "x-autorespond", "x-autoresponse")
OUR_MARK = "x-nomicbot-kind"
# Headers only a mailing list adds to the posts it relays (RFC 2369, RFC 2919,
# ezmlm's Mailing-List, Mailman 2's X-BeenThere).
LIST_HEADERS = ("list-id", "list-post", "mailing-list", "x-mailing-list", "x-beenthere")
# The Sender a list writes: "owner-nomic@" (Majordomo), "nomic-owner@",
# "nomic-bounces@" (Mailman), "nomic-request@".
LIST_SENDER = re.compile(r"^(?:owner-[^@]+|[^@]+-(?:owner|bounces|request))@")


def guard_loops(context: PostContext) -> None:
    decoded = context.decoded
    assert decoded is not None, "decode runs before guard_loops"
    reason = _own_post(context) or _automated(context) or _bounce(context)
    if reason:
        context.stop(reason)


def _header(context: PostContext, name: str) -> tuple[str, ...]:
    assert context.decoded is not None
    return tuple(value.strip().lower() for value in context.decoded.headers.get(name, ()))


def _own_post(context: PostContext) -> str | None:
    assert context.decoded is not None
    ours = context.settings.bot_addresses
    if _header(context, OUR_MARK):
        return "the bot's own post (X-Nomicbot-Kind), not acted on"
    if context.decoded.from_address in ours:
        return "the bot's own post (From), not acted on"
    if any(address in value for value in _header(context, "x-loop") for address in ours):
        return "mail loop: X-Loop names this bot"
    return None


def _automated(context: PostContext) -> str | None:
    auto_submitted = _header(context, "auto-submitted")
    if auto_submitted and auto_submitted[0].split(";")[0].strip() != "no":
        return f"automatic message (Auto-Submitted: {auto_submitted[0]}), not acted on"
    precedence = _header(context, "precedence")
    if precedence and _automated_precedence(context, precedence[0]):
        return f"automatic message (Precedence: {precedence[0]}), not acted on"
    if any(_header(context, name) for name in AUTORESPONDER_HEADERS):
        return "auto-responder message, not acted on"
    return None


def _automated_precedence(context: PostContext, precedence: str) -> bool:
    if precedence == "bulk" and _relayed_by_list(context):
        return False  # the list's own stamp, not the author's
    return precedence in AUTOMATED_PRECEDENCE


def _relayed_by_list(context: PostContext) -> bool:
    if any(_header(context, name) for name in LIST_HEADERS):
        return True
    senders = (parseaddr(value)[1] for value in _header(context, "sender"))
    return any(LIST_SENDER.match(sender) for sender in senders)


def _bounce(context: PostContext) -> str | None:
    assert context.decoded is not None
    content_type = _header(context, "content-type")
    if content_type and content_type[0].startswith("multipart/report"):
        return "delivery or disposition report, not acted on"
    sender = context.decoded.from_address or ""
    if sender.startswith(BOUNCE_SENDERS):
        return "bounce from a mail system, not acted on"
    if "<>" in _header(context, "return-path"):
        return "bounce (empty Return-Path), not acted on"
    return None
