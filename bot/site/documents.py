"""What the web site shows: the public documents, read from the database.

Only what is already public goes in: the state views every player can ask
for (``nomicbot state VIEW --json``, minus the views their games declare not
public, such as the Ministers' digests, which are mailed to the Ministers
alone, and minus players' addresses), the bot's mails
to the list, and the rulings on posts whose ruling went to the list.  A
post mailed privately to the bot is ruled on privately, so it and its
actions never reach the site (docs/site.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from bot.engine.game import StateView
from bot.engine.services import Services
from bot.engine.views import views_of
from bot.store.models import ActionRecord, Message, OutboxMessage, Player

# Fields of a view's document that name private things: a player's mail
# addresses are known to the bot, not published by it.
PRIVATE_FIELDS = frozenset({"addresses"})


@dataclass(frozen=True)
class PublicView:
    name: str
    description: str
    text: str
    data: Any


@dataclass(frozen=True)
class PublicMail:
    """One mail the bot sent to the list, and the post it answers, if any."""

    number: int
    message_id: str
    kind: str
    subject: str
    date: datetime
    body: str
    post_message_id: str | None


# Makes the public mail numbered N of an outbox row and the post it answers.
MailParser = Callable[[int, OutboxMessage, Message | None], PublicMail]


@dataclass(frozen=True)
class PublicAction:
    post_message_id: str
    player: str
    action: str
    text: str
    ruling: str
    summary: str
    reason: str
    rule: str
    ntime: str
    occurred_at: datetime
    effects: list[Any]


@dataclass(frozen=True)
class PublicRecord:
    """Everything the site is built from, all public."""

    at: datetime
    views: tuple[PublicView, ...]
    mails: tuple[PublicMail, ...]
    actions: tuple[PublicAction, ...] = field(default=())


def public_views(session: Session, services: Services, at: datetime) -> tuple[PublicView, ...]:
    """Every enabled game's views but those it declares not public, in the games' order.

    A game with a private view (the Ministers' digests, mailed to each
    Minister alone) says so in its own ``StateView``, so the site needs no
    list of them.
    """
    declared: dict[str, StateView] = views_of(services.games)
    views = []
    for name, view in declared.items():
        if not view.public:
            continue
        shown = view.show(session, services, at)
        views.append(PublicView(name, view.description, shown.text, without_private(shown.data)))
    return tuple(views)


def without_private(data: Any) -> Any:
    """``data`` with every ``PRIVATE_FIELDS`` key left out, at any depth."""
    if isinstance(data, dict):
        return {
            key: without_private(value) for key, value in data.items() if key not in PRIVATE_FIELDS
        }
    if isinstance(data, list | tuple):
        return [without_private(item) for item in data]
    return data


def public_mails(
    session: Session, list_address: str, parse: MailParser | None = None
) -> tuple[PublicMail, ...]:
    """The bot's mails addressed to the list, oldest first, each made by ``parse``
    (default ``public_mail``; an incremental build remembers them, bot/site/incremental.py)."""
    rows = session.execute(
        select(OutboxMessage, Message)
        .outerjoin(Message, Message.id == OutboxMessage.in_reply_to_pk)
        .order_by(OutboxMessage.id)
    ).all()
    mails: list[PublicMail] = []
    for outbox, post in rows:
        if list(outbox.recipients) != [list_address]:
            continue
        mails.append((parse or public_mail)(len(mails) + 1, outbox, post))
    return tuple(mails)


def public_mail(number: int, outbox: OutboxMessage, post: Message | None) -> PublicMail:
    parsed = message_from_bytes(outbox.raw, policy=policy.default)
    assert isinstance(parsed, EmailMessage)
    part = parsed.get_body(preferencelist=("plain",))
    body = str(part.get_content()) if part is not None else ""
    return PublicMail(
        number=number,
        message_id=outbox.message_id,
        kind=outbox.kind,
        subject=str(parsed.get("Subject", "")),
        date=_sent_at(parsed, outbox.created_at),
        body=body,
        post_message_id=None if post is None else post.message_id,
    )


def _sent_at(parsed: EmailMessage, stored: datetime) -> datetime:
    """The mail's Date: the instant it reports on, also when a replay wrote it later."""
    header = parsed.get("Date")
    moment = getattr(header, "datetime", None)
    return moment if isinstance(moment, datetime) else stored


def public_actions(session: Session, mails: Sequence[PublicMail]) -> tuple[PublicAction, ...]:
    """The actions of the posts ruled on publicly, and the administrator's acts, in order.

    An administrator's act (``nomicbot go setup``) has no post: it is a
    signed record mailed to the list (docs/archive.md), so public too.
    """
    public_posts = {mail.post_message_id for mail in mails if mail.post_message_id}
    rows = session.execute(
        select(ActionRecord, Message.message_id, Player.name)
        .outerjoin(Message, Message.id == ActionRecord.message_pk)
        .outerjoin(Player, Player.id == ActionRecord.player_id)
        .order_by(ActionRecord.id)
    ).all()
    return tuple(
        _public_action(record, message_id or "", name or "")
        for record, message_id, name in rows
        if record.message_pk is None or message_id in public_posts
    )


def _public_action(record: ActionRecord, message_id: str, player: str) -> PublicAction:
    return PublicAction(
        post_message_id=message_id,
        player=player,
        action=record.action,
        text=record.text,
        ruling=record.ruling,
        summary=record.summary,
        reason=record.reason,
        rule=record.rule,
        ntime=record.ntime,
        occurred_at=record.occurred_at,
        effects=list(record.effects),
    )


def public_record(
    session: Session, services: Services, at: datetime, parse_mail: MailParser | None = None
) -> PublicRecord:
    mails = public_mails(session, services.settings.bot.list_address, parse_mail)
    return PublicRecord(
        at=at,
        views=public_views(session, services, at),
        mails=mails,
        actions=public_actions(session, mails),
    )


def actions_by_player(actions: Iterable[PublicAction]) -> dict[str, list[PublicAction]]:
    players: dict[str, list[PublicAction]] = {}
    for action in actions:
        if action.player:
            players.setdefault(action.player, []).append(action)
    return players
