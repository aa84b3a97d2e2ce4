"""A game with administrators' records, played live and kept as the list's archive.

``RecordedGame`` feeds posts to an app as the daemon does (store, then judge
the queue) and issues admin records as the console does (``submit_record``,
at a chosen instant), and keeps both in the order the list would archive
them, records as the list relays them.  ``replay_into`` replays that
archive alone into a fresh database that knows only the bot's published
key, as an auditor would (docs/archive.md).
"""

from __future__ import annotations

import mailbox
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from email import message_from_bytes
from email.policy import default
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any

from sqlalchemy import select

from bot.app import App, build_app
from bot.config import Settings
from bot.engine.views import game_view
from bot.engine.worker import process_queue
from bot.outbound.transports import MaildirTransport
from bot.posts import compose_post, mbox_from_line
from bot.runner import advance_to, replay_archive, store_message, submit_record
from bot.store.models import ActionRecord, Message, OutboxMessage
from bot.testing import go_game
from bot.trust.bot_key import GENERATED_RECORD, load_bot_key

# How long the list takes to archive a record the bot mailed it.
LIST_DELAY = timedelta(seconds=30)


def recording_app(settings: Settings) -> App:
    """An app whose key exists before it is built, so it verifies its own records."""
    bot = settings.bot
    load_bot_key(bot.dkim_key_file, bot.dkim_selector, settings.bot_domain, settings.data_path)
    return build_app(settings)


def relayed_by_list(raw: bytes) -> bytes:
    """What a list does to a post: subject prefix, List-Id, a footer part, From munged."""
    mail = message_from_bytes(raw, policy=default)
    subject = str(mail["Subject"])
    del mail["Subject"]
    mail["Subject"] = f"[Nomic] {subject}"
    mail["List-Id"] = "<nomic.example.test>"
    original = str(mail["From"])
    del mail["From"]
    mail["From"] = f"nomicbot via Nomic <{go_game.LIST_ADDRESS}>"
    mail["Reply-To"] = original
    mail.add_attachment("Nomic mailing list -- unsubscribe at nomic-leave@example.test\n")
    return mail.as_bytes()


@dataclass
class RecordedGame:
    app: App
    archive: list[tuple[bytes, datetime]] = field(default_factory=list)

    def post(self, at: datetime, author: tuple[str, str], body: str) -> str:
        """``author`` posts ``body`` to the list at ``at``; the post's status."""
        message_id = f"post-{len(self.archive) + 1}@example.test"
        raw = compose_post(*author, "[Nomic] play", body, message_id, at, to=go_game.LIST_ADDRESS)
        store_message(self.app, raw, "smtp", at)
        process_queue(self.app.session_factory, self.app.services)
        self.archive.append((raw, at))
        return self.status_of(message_id)

    def act(self, at: datetime, command: str, arguments: dict[str, Any]) -> tuple[str, str]:
        """The console's act issued at ``at``: (status, reason); archived if it was mailed."""
        settings = self.app.settings
        key = load_bot_key(
            settings.bot.dkim_key_file,
            settings.bot.dkim_selector,
            settings.bot_domain,
            settings.data_path,
        )
        known = set(self._record_mails())
        status, reason = submit_record(self.app, key, command, arguments, at)
        for raw in self._record_mails():
            if raw not in known:
                self.archive.append((relayed_by_list(raw), at + LIST_DELAY))
        return status, reason

    def status_of(self, message_id: str) -> str:
        with self.app.session_factory() as session:
            query = select(Message.status).where(Message.message_id == message_id)
            return str(session.scalars(query).one())

    def _record_mails(self) -> list[bytes]:
        with self.app.session_factory() as session:
            query = select(OutboxMessage.raw).where(OutboxMessage.kind == "admin-record")
            return list(session.scalars(query.order_by(OutboxMessage.id)))

    def write_archive(self, path: Path) -> Path:
        box = mailbox.mbox(str(path), create=True)
        for raw, at in sorted(self.archive, key=lambda entry: entry[1]):
            message = mailbox.mboxMessage(raw)
            message.set_from(mbox_from_line(go_game.LIST_ADDRESS, at).removeprefix("From "))
            box.add(message)
        box.flush()
        box.close()
        return path

    def replay_into(self, settings: Settings, until: datetime) -> App:
        """A fresh app with only the bot's published key, fed this game's archive alone."""
        published = self.app.settings.data_path / GENERATED_RECORD
        trust = replace(settings.trust, key_file=str(published))
        fresh = build_app(replace(settings, trust=trust))
        archive = self.write_archive(settings.data_path / "list.mbox")
        replay_archive(
            fresh, archive, MaildirTransport(settings.data_path / "replayed"), until=until
        )
        advance_to(self.app, until)
        return fresh


def views(app: App, *names: str) -> dict[str, Any]:
    """The ``nomicbot state NAME --json`` data of each view named."""
    with app.session_factory() as session:
        return {name: game_view(session, app.services, name).data for name in names}


def rulings(app: App) -> list[tuple[str, str, str, str, str]]:
    """(action, ruling, summary or reason, ntime, instant) of every post's action, in order."""
    with app.session_factory() as session:
        rows = session.scalars(
            select(ActionRecord)
            .where(ActionRecord.action != "admin.record")
            .order_by(ActionRecord.occurred_at, ActionRecord.id)
        )
        return [
            (
                row.action,
                row.ruling,
                row.summary or row.reason,
                row.ntime,
                row.occurred_at.isoformat(),
            )
            for row in rows
        ]


def tampered(raw: bytes, old: bytes, new: bytes) -> bytes:
    """``raw`` with ``old`` replaced by ``new`` inside the record it carries (signature kept)."""
    import base64

    from bot.engine.admin_records import RECORD_TYPE

    mail = message_from_bytes(raw, policy=default)
    for part in mail.walk():
        if part.get_content_type() == RECORD_TYPE:
            payload = part.get_payload(decode=True)
            assert isinstance(payload, bytes) and old in payload
            part.set_payload(base64.encodebytes(payload.replace(old, new)).decode())
    return mail.as_bytes()


def write_list_archive(
    app: App,
    posts: list[tuple[bytes, datetime]],
    path: Path,
    delay: timedelta = timedelta(seconds=3),
) -> Path:
    """The list's archive at ``path``: the players' ``posts`` (raw, instant) and every mail
    ``app`` sent to the list, archived ``delay`` after its Date, all in time order."""
    entries: list[tuple[datetime, int, bytes, str]] = [
        (at, 0, raw, "player@example.test") for raw, at in posts
    ]
    with app.session_factory() as session:
        for row in session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)):
            if go_game.LIST_ADDRESS in row.recipients:
                mail = message_from_bytes(row.raw, policy=default)
                at = parsedate_to_datetime(str(mail["Date"])) + delay
                entries.append((at, 1, row.raw, "referee@example.test"))
    box = mailbox.mbox(str(path), create=True)
    for at, _, raw, sender in sorted(entries, key=lambda entry: entry[:2]):
        message = mailbox.mboxMessage(raw)
        message.set_from(mbox_from_line(sender, at).removeprefix("From "))
        box.add(message)
    box.flush()
    box.close()
    return path
