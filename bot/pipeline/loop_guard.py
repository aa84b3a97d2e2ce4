"""Stage: never act on our own posts, auto-replies, bounces or mail loops.

RFC 3834 (Auto-Submitted), the conventional Precedence values (bulk,
junk, auto_reply), auto-reply subjects ("Automatic reply:", "Out of
Office") and the bounce shapes of RFC 3464 are recognised.  ``Precedence:
list`` is the normal case for posts relayed by the list and is *not* a
reason to stop.  The bot's own mail is known by its marks and, since a list
may strip those and rewrite From, by the shape of the Message-IDs it makes
(``kind.<32 hex digits>@<the bot's domain>``), which lists keep.
"""

from __future__ import annotations

import re

from bot.pipeline.context import PostContext

AUTOMATED_PRECEDENCE = {"bulk", "junk", "auto_reply"}
BOUNCE_SENDERS = ("mailer-daemon@", "postmaster@")
AUTORESPONDER_HEADERS = ("x-autoreply", "x-autorespond", "x-autoresponse")
OUR_MARK = "x-nomicbot-kind"
# What mail clients and servers put at the start of an automatic answer's
# subject, after any list tag: Outlook, Exchange, Gmail, Thunderbird, Zimbra.
AUTO_REPLY_SUBJECT = re.compile(
    r"^(?:\[[^\]]*\]\s*)?(?:automatic\s+reply|auto(?:matic)?[- ]?(?:reply|response)|"
    r"out\s+of\s+(?:the\s+)?office|autoreply|auto:|abwesenheitsnotiz|away\s+from\s+(?:my|the)\s+)",
    re.IGNORECASE,
)
# The Message-IDs bot.outbound.compose makes: kind.<32 hex>@domain.
OWN_MESSAGE_ID = re.compile(r"^[a-z][a-z-]*\.[0-9a-f]{32}@(?P<domain>.+)$")


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
    made = OWN_MESSAGE_ID.match((context.decoded.message_id or "").lower())
    if made and made.group("domain") == context.settings.bot_domain:
        return "the bot's own post (its Message-ID), not acted on"
    return None


def _automated(context: PostContext) -> str | None:
    auto_submitted = _header(context, "auto-submitted")
    if auto_submitted and auto_submitted[0].split(";")[0].strip() != "no":
        return f"automatic message (Auto-Submitted: {auto_submitted[0]}), not acted on"
    precedence = _header(context, "precedence")
    if precedence and precedence[0] in AUTOMATED_PRECEDENCE:
        return f"automatic message (Precedence: {precedence[0]}), not acted on"
    if any(_header(context, name) for name in AUTORESPONDER_HEADERS):
        return "auto-responder message, not acted on"
    assert context.decoded is not None
    if AUTO_REPLY_SUBJECT.match(context.decoded.subject):
        return f"automatic answer (subject {context.decoded.subject[:60]!r}), not acted on"
    return None


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
