"""Composing the mails the bot sends: rulings and scheduled reports.

Every mail is marked (X-Loop, Auto-Submitted, X-Nomicbot-Kind) so the bot
never acts on it when the list delivers it back.  Message-IDs are derived
from what the mail answers, so replaying an archive writes the same mails.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from email.charset import QP, Charset
from email.header import Header
from email.message import Message as Message_
from email.utils import format_datetime
from typing import TYPE_CHECKING, Any

from bot.engine.rulings import Outcome, Ruling
from bot.outbound.folding import direct_compat32
from bot.outbound.size import cut_ruling, shortened_quote
from bot.parser.limits import UNREAD_REASON
from bot.store.models import Message, OutboxMessage
from bot.trust.policy import unauthenticated_warning

MAX_LINE = 998  # RFC 5322 2.1.1: longer lines must be encoded
ALREADY_A_REPLY = re.compile(r"^(\[[^\]]*\]\s*)?re\s*:", re.IGNORECASE)

if TYPE_CHECKING:
    from bot.engine.services import Services
    from bot.engine.unit import PostOutcome
    from bot.pipeline import PostContext


def compose_ruling_reply(
    message: Message,
    context: PostContext,
    outcome: PostOutcome,
    services: Services,
    part: str = "",
) -> OutboxMessage:
    """The ruling on a post; ``part`` names a later ruling on the same post (its
    actions held while the Clock was Off, rule 3 B), which needs its own Message-ID."""
    variables = _ruling_variables(message, context, outcome, services)
    body = services.templates.get_template("ruling/reply.txt.j2").render(variables)
    body = cut_ruling(body, message.message_id)  # bot.outbound.size
    subject = _reply_subject(context.subject_or(message.subject))
    recipients = _recipients(context, services)
    mail = _mail(
        services,
        subject,
        recipients,
        body,
        "ruling",
        _derived_id("ruling", f"{message.message_id}{part}", services),
        outcome.effective_at,
    )
    mail["In-Reply-To"] = f"<{message.message_id}>"
    mail["References"] = _references(context, message.message_id)
    return _outbox_row(mail, "ruling", recipients, message.id)


def compose_report(
    services: Services,
    kind: str,
    key: str,
    subject: str,
    template: str,
    variables: Mapping[str, Any],
    at: datetime,
    recipients: Sequence[str] = (),
) -> OutboxMessage:
    """A scheduled post: to the list (dice commitments and reveals, reports),
    or to ``recipients`` alone (a question to the Moderator, a digest)."""
    body = services.templates.get_template(template).render(
        {**variables, "bot_name": services.settings.bot.name}
    )
    recipients = list(recipients) or [services.settings.bot.list_address]
    mail = _mail(services, subject, recipients, body, kind, _derived_id(kind, key, services), at)
    return _outbox_row(mail, kind, recipients, None)


def _ruling_variables(
    message: Message, context: PostContext, outcome: PostOutcome, services: Services
) -> dict[str, Any]:
    by_outcome = {
        kind: [_item(r) for r in outcome.rulings if r.outcome is kind] for kind in Outcome
    }
    return {
        "author": _author_label(context),
        "subject": context.subject_or(message.subject) or "(no subject)",
        "received_label": services.clock.reading(outcome.effective_at).label,
        "received_utc": outcome.effective_at.strftime("%Y-%m-%d %H:%M:%S UTC"),
        "applied": by_outcome[Outcome.APPLIED],
        "rejected": by_outcome[Outcome.REJECTED],
        "not_taken": by_outcome[Outcome.NOT_TAKEN],
        "not_understood": [{"message": item.message} for item in outcome.not_understood],
        "unread": shortened_quote(context.parsed.unread if context.parsed else ""),
        "unread_reason": UNREAD_REASON,
        "boards": [{"title": board.title, "text": board.text} for board in outcome.boards],
        "notes": list(outcome.notes),
        "bot_name": services.settings.bot.name,
        "authentication": context.authentication,
        "trust_warning": unauthenticated_warning(services.pipeline_settings.trust),
    }


def _item(ruling: Ruling) -> dict[str, Any]:
    return {
        "number": ruling.position,
        "quote": shortened_quote(ruling.text),
        "summary": ruling.summary,
        "reason": ruling.reason,
        "rule": f" ({ruling.rule_label})" if ruling.rule_label else "",
    }


def _author_label(context: PostContext) -> str:
    if context.author_name:
        return f"{context.author_name} <{context.author}>"
    return f"<{context.author}>"


def _reply_subject(subject: str) -> str:
    clean = " ".join(subject.split()) or "(no subject)"
    # "Re: x" and a list's "[Nomic] Re: x" are replies already.
    return clean if ALREADY_A_REPLY.match(clean) else f"Re: {clean}"


def _recipients(context: PostContext, services: Services) -> list[str]:
    if context.private and context.author:
        return [context.author]  # a private mail's answer stays private
    if services.settings.bot.reply_to == "sender" and context.author:
        return [context.author]
    return [services.settings.bot.list_address]


def _references(context: PostContext, message_id: str) -> str:
    earlier: Sequence[str] = context.decoded.references if context.decoded else ()
    chain = [*earlier[-10:], message_id]
    return " ".join(f"<{item}>" for item in chain)


def _derived_id(kind: str, key: str, services: Services) -> str:
    digest = hashlib.sha256(f"{kind}\0{key}".encode()).hexdigest()[:32]
    return f"{kind}.{digest}@{services.settings.bot_domain}"


def _mail(
    services: Services,
    subject: str,
    recipients: Sequence[str],
    body: str,
    kind: str,
    message_id: str,
    at: datetime,
) -> Message_:
    """The mail, built with compat32: setting a header through policy.SMTP
    parses it again, which made composing cost more than judging the post.
    Non-ASCII header text is RFC 2047-encoded explicitly.  It is written with
    ``direct_compat32``, which writes compat32's bytes without folding the
    short fields through ``email.header.Header`` (bot.outbound.folding).
    """
    settings = services.settings.bot
    mail = Message_(policy=direct_compat32)
    mail["From"] = _header_text("From", f"{settings.name} <{settings.address}>")
    mail["To"] = ", ".join(recipients)
    mail["Subject"] = _header_text("Subject", subject)
    # The Date is the instant the mail reports on (a ruling: the post's
    # arrival, rule 3 B), which makes a replayed archive write identical
    # mails; the daemon's sender moves it to when the mail is actually sent.
    mail["Date"] = format_datetime(at.astimezone(UTC))
    mail["Message-ID"] = f"<{message_id}>"
    mail["X-Loop"] = settings.address
    mail["Auto-Submitted"] = "auto-replied" if kind == "ruling" else "auto-generated"
    mail["X-Nomicbot-Kind"] = kind
    mail["MIME-Version"] = "1.0"
    _set_body(mail, body)
    return mail


def _header_text(name: str, value: str) -> str:
    if value.isascii():
        return value
    # header_name lets the first encoded word share the line with the name.
    return Header(value, "utf-8", header_name=name).encode()


def _set_body(mail: Message_, body: str) -> None:
    # Plain ASCII stays readable (7bit) in the archive; anything else is
    # quoted-printable UTF-8, which every reader decodes.
    if body.isascii() and all(len(line) <= MAX_LINE for line in body.splitlines()):
        mail.set_payload(body, "us-ascii")
        return
    charset = Charset("utf-8")
    charset.body_encoding = QP
    mail.set_payload(body, charset)


def _outbox_row(
    mail: Message_, kind: str, recipients: Sequence[str], reply_to_pk: int | None
) -> OutboxMessage:
    now = datetime.now(UTC)
    return OutboxMessage(
        message_id=str(mail["Message-ID"]).strip("<>"),
        in_reply_to_pk=reply_to_pk,
        kind=kind,
        recipients=list(recipients),
        raw=mail.as_bytes(),  # LF; transports add CRLF for SMTP
        status="pending",
        attempts=0,
        created_at=now,
        next_attempt_at=now,
    )
