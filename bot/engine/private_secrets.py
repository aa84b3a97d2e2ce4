"""A player's secret for private mail: njudge's password, for domains without DKIM.

A player who cannot have eir private mail authenticated by eir domain
(docs/trust.md) posts "I request a secret for private mail" to the list; the
list vouches for em, and the bot mails the secret to eir registered
addresses only.  A private mail whose body holds a line ``secret: THE-SECRET``
then counts as eirs.  Each request replaces the secret before it.

The secret is never stored as such: it is derived from the bot's master
secret, the player and the Message-ID of eir latest request, so a replay of
the archive knows the same secrets.  The one copy in the database is the
outbox row of the mail that carried it (kind ``SECRET_KIND``), which the
sender needs until the mail is delivered.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.orm import Session

from bot.engine.players import player_for_address
from bot.engine.rulings import PlayerRef
from bot.outbound.compose import compose_report
from bot.store.models import ActionRecord, Message, OutboxMessage

if TYPE_CHECKING:
    from bot.engine.services import Services

SECRET_ACTION = "roster.secret"
SECRET_KIND = "secret"  # the outbox kind of the mail that carries a secret
SECRET_TEMPLATE = "roster/secret.txt.j2"
UNAUTHENTICATED_PRIVATE_MAIL = (
    "private mail from a sender who could not be authenticated: no DKIM signature of "
    "the sender's domain verifies, no trusted receiving server vouches for it, and it "
    'holds no valid "secret:" line (docs/trust.md)'
)


def derive_secret(master_secret: bytes, player_id: int, request_message_id: str) -> str:
    """The secret a request gave: 20 base32 letters, in groups of five for typing."""
    message = f"nomicbot private-mail secret\0{player_id}\0{request_message_id}".encode()
    digest = hmac.new(master_secret, message, hashlib.sha256).digest()
    letters = base64.b32encode(digest).decode("ascii").lower()[:20]
    return "-".join(letters[i : i + 5] for i in range(0, 20, 5))


def queue_secret_mail(
    session: Session,
    services: Services,
    player: PlayerRef,
    addresses: Sequence[str],
    request_message_id: str,
    at: datetime,
) -> None:
    """Queue the mail carrying the secret of ``request_message_id`` to ``addresses`` alone.

    ``addresses`` are the player's registered ones, never the list's: the
    list vouched for the request, the roster says where the answer may go.
    Once per request (a repeated request in one post gives one secret).
    Raises ValueError without addresses, since the mail would go to the list.
    """
    if not addresses:
        raise ValueError(f"{player.name} has no registered address to mail a secret to")
    mail = compose_report(
        services,
        SECRET_KIND,
        request_message_id,
        "Your secret for private mail to the referee",
        SECRET_TEMPLATE,
        {
            "player": player.name,
            "secret": derive_secret(services.master_secret, player.id, request_message_id),
            "request": request_message_id,
            "label": services.clock.reading(at).label,
            "bot_address": services.settings.bot.address,
            "list_address": services.settings.bot.list_address,
        },
        at,
        recipients=addresses,
    )
    queued = select(OutboxMessage.id).where(OutboxMessage.message_id == mail.message_id)
    if session.scalar(queued) is None:
        session.add(mail)


def secret_authentication(
    session: Session, from_address: str | None, claimed: str, master_secret: bytes
) -> str:
    """How a private mail's claimed secret authenticates its sender, or ""."""
    if not claimed:
        return ""
    player = player_for_address(session, from_address)
    if player is None:
        return ""
    request = session.scalar(
        select(Message.message_id)
        .join(ActionRecord, ActionRecord.message_pk == Message.id)
        .where(
            ActionRecord.player_id == player.id,
            ActionRecord.action == SECRET_ACTION,
            ActionRecord.ruling == "applied",
        )
        .order_by(ActionRecord.id.desc())
        .limit(1)
    )
    if request is None:
        return ""
    expected = derive_secret(master_secret, player.id, request)
    if hmac.compare_digest(_plain(expected), _plain(claimed)):
        return f"your secret for private mail (requested in <{request}>)"
    return ""


def _plain(secret: str) -> bytes:
    return secret.replace("-", "").strip().lower().encode("ascii", "replace")
