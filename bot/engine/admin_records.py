"""An administrator's acts as public records in the list archive, signed by the bot.

The list archive is the record of the game: replaying it must rebuild the
same state.  So an administrator's act (a ledger credit, set-up stones, a
player's address) is not written to the database from the console: it is
made into a record and mailed to the list, and it takes effect as a post
does, at its place in the stream of mail, live and in a replay alike.

The record is a small mail of its own (JSON body, ``From`` the bot),
DKIM-signed with the bot's key (``bot.trust.bot_key``) and carried
base64-encoded as the attachment ``admin-record.eml`` of the mail to the
list, so that nothing a list does to a post (subject prefix, footer, From
munging) touches what was signed.  ``read_record`` checks that signature
and the record's shape; a record whose signature does not verify is
refused with the reason, and a record is applied at most once, whatever
Message-ID the mail carrying it has.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email import message_from_bytes
from email.message import EmailMessage, Message
from email.policy import SMTP, default
from email.utils import format_datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session

# Re-exported: callers that read records find the whole of it here.
from bot.engine.admin_record_type import RECORD_TYPE as RECORD_TYPE
from bot.engine.admin_record_type import carries_record as carries_record
from bot.games.errors import ActionError
from bot.store.models import ActionRecord, OutboxMessage
from bot.store.models import Message as StoredMessage
from bot.trust.bot_key import BotKey
from bot.trust.keys import DnsFunction, signature_verifies

if TYPE_CHECKING:
    from bot.engine.game import AdminCommand
    from bot.engine.services import Services

RECORD_FILE = "admin-record.eml"
KIND = "admin-record"
APPLIED = "admin.record"  # the action-log row that says a record was applied
ADMIN_SOURCE = "admin"  # Message.source of a record the console queued
COMMAND_NAME = re.compile(r"[a-z_]+(\.[a-z_]+)+")  # "go.setup", "player.address.add"
SIGNED_HEADERS = ("From", "To", "Subject", "Date", "Message-ID", "Content-Type")


class RecordError(ValueError):
    """An admin record that must not be applied; the message says why."""


class RecordRefused(RecordError):
    """A record that does not prove what it claims (a private vote whose reveal does
    not match its commitment): refused, as a forgery is, and listed by ``nomicbot refused``."""


@dataclass(frozen=True)
class AdminRecord:
    record_id: str  # 32 hex digits
    command: str  # a key of HANDLERS, or of an enabled game's ``admin_commands``
    arguments: Mapping[str, Any] = field(default_factory=dict)
    issued_at: datetime = field(default_factory=lambda: datetime.now(UTC))

    def body(self) -> str:
        return json.dumps(
            {
                "record": self.record_id,
                "command": self.command,
                "arguments": dict(self.arguments),
                "issued_at": self.issued_at.isoformat(),
            },
            sort_keys=True,
            indent=2,
        )


def new_record(
    command: str, arguments: Mapping[str, Any], issued_at: datetime, services: Services
) -> AdminRecord:
    """Raises RecordError for a command neither the engine nor an enabled game knows."""
    if command not in HANDLERS and command not in game_commands(services):
        raise RecordError(f"no such administrative command: {command}")
    return AdminRecord(secrets.token_hex(16), command, dict(arguments), issued_at)


# -- the mail ---------------------------------------------------------------------------


def compose_record_mail(
    record: AdminRecord,
    key: BotKey,
    bot: str,
    bot_name: str,
    list_address: str,
    preamble: str = "An administrator's act, recorded for the public archive",
    services: Services | None = None,
) -> tuple[str, bytes]:
    """(Message-ID, raw bytes) of the mail that carries ``record`` to the list.

    ``services`` names the enabled games, whose own acts they describe.
    """
    summary = describe(record, services)
    inner = EmailMessage(policy=SMTP)
    inner["From"] = f"{bot_name} <{bot}>"
    inner["To"] = list_address
    inner["Subject"] = f"admin record {record.record_id}: {summary}"
    inner["Date"] = format_datetime(record.issued_at)
    inner["Message-ID"] = f"<record.{record.record_id}@{key.domain}>"
    inner.set_content(record.body() + "\n")
    signed = key.sign(inner.as_bytes(), SIGNED_HEADERS)

    message_id = f"{KIND}.{record.record_id}@{key.domain}"
    outer = EmailMessage(policy=SMTP)
    outer["From"] = f"{bot_name} <{bot}>"
    outer["To"] = list_address
    outer["Subject"] = f"[admin] {summary}"
    outer["Date"] = format_datetime(record.issued_at)
    outer["Message-ID"] = f"<{message_id}>"
    outer["X-Nomicbot-Kind"] = KIND
    outer.set_content(
        f"{preamble}:\n\n  {summary}\n\n"
        f"issued {record.issued_at.isoformat()} (record {record.record_id}).\n"
        f"The attached {RECORD_FILE} is the record itself, signed by the referee's key\n"
        f"({key.record_name}); a replay of the archive applies it here.\n"
    )
    outer.add_attachment(
        signed, maintype="application", subtype=RECORD_TYPE.partition("/")[2], filename=RECORD_FILE
    )
    return message_id, outer.as_bytes()


def record_outbox_row(message: StoredMessage, list_address: str) -> OutboxMessage:
    """The outbox row that mails the record carried by ``message`` to the list, as it is."""
    now = datetime.now(UTC)
    return OutboxMessage(
        message_id=message.message_id,
        kind=KIND,
        recipients=[list_address],
        raw=message.raw,
        status="pending",
        attempts=0,
        created_at=now,
        next_attempt_at=now,
    )


def read_record(raw: bytes, bot_domain: str, lookup: DnsFunction) -> AdminRecord:
    """The record carried by ``raw``, its signature checked.  Raises RecordError."""
    signed = _attachment(message_from_bytes(raw, policy=default))
    signature_index = _bot_signature(signed, bot_domain)
    if not signature_verifies(signed, signature_index, lookup):
        raise RecordError(
            "the admin record's signature does not verify with the referee's key: "
            "it was changed, or not made by the referee"
        )
    inner = message_from_bytes(signed, policy=default)
    if len(inner.get_all("From", [])) != 1 or not _from_domain(inner).endswith(bot_domain):
        raise RecordError("the admin record is not From the referee")
    return _parse(inner)


def _attachment(outer: Message) -> bytes:
    found = [part for part in outer.walk() if part.get_content_type() == RECORD_TYPE]
    if len(found) != 1:
        raise RecordError(f"the mail carries {len(found)} admin records; exactly one is read")
    payload = found[0].get_payload(decode=True)
    if not isinstance(payload, bytes) or not payload:
        raise RecordError("the admin record attachment is empty")
    return payload


def _bot_signature(signed: bytes, bot_domain: str) -> int:
    headers = message_from_bytes(signed, policy=default).get_all("DKIM-Signature", [])
    for index, value in enumerate(headers):
        tags = dict(
            part.strip().split("=", 1)
            for part in " ".join(str(value).split()).split(";")
            if "=" in part
        )
        if tags.get("d", "").strip().lower() == bot_domain and "l" not in tags:
            return index
    raise RecordError(f"the admin record carries no DKIM signature of {bot_domain}")


def _from_domain(inner: Message) -> str:
    address = str(inner["From"]).rpartition("<")[2].rstrip(">").strip().lower()
    return address.rpartition("@")[2]


def _parse(inner: Message) -> AdminRecord:
    body = inner.get_content() if isinstance(inner, EmailMessage) else inner.get_payload()
    try:
        document = json.loads(str(body))
        record = AdminRecord(
            str(document["record"]),
            str(document["command"]),
            dict(document["arguments"]),
            datetime.fromisoformat(str(document["issued_at"])),
        )
    except (ValueError, KeyError, TypeError) as error:
        raise RecordError(f"the admin record cannot be read: {error}") from None
    # Whether an enabled game knows the command is checked when it is applied.
    if not COMMAND_NAME.fullmatch(record.command):
        raise RecordError(f"the admin record names no known command ({record.command})")
    if len(record.record_id) != 32 or record.issued_at.tzinfo is None:
        raise RecordError("the admin record's id or instant is malformed")
    return record


# -- applying ---------------------------------------------------------------------------


def apply_record(session: Session, services: Services, record: AdminRecord, message_pk: int) -> str:
    """Carry out ``record`` once; the summary.  Raises RecordError (then nothing changed).

    The act takes effect at the record's own instant, so that a replay that
    meets it a few seconds later in the archive writes the same entries.
    """
    if _applied_before(session, record):
        raise RecordError(f"admin record {record.record_id} was applied before")
    try:
        summary = _handler(services, record.command)(session, services, record)
    except RecordRefused:
        raise
    except ActionError as error:
        rule = f" (rule {error.rule})" if error.rule else ""
        raise RecordError(f"{describe(record, services)}: {error.message}{rule}") from None
    except ValueError as error:
        raise RecordError(f"{describe(record, services)}: {error}") from None
    session.add(applied_row(record, message_pk, summary))
    return summary


def applied_row(record: AdminRecord, message_pk: int, summary: str) -> ActionRecord:
    """The action-log row that says ``record`` was applied (so it never is again)."""
    return ActionRecord(
        message_pk=message_pk,
        position=0,
        player_id=None,
        action=APPLIED,
        args={"record": record.record_id, "command": record.command, **record.arguments},
        text=record.record_id,
        ruling="applied",
        summary=summary,
        occurred_at=record.issued_at,
    )


def _applied_before(session: Session, record: AdminRecord) -> bool:
    query = select(ActionRecord.id).where(
        ActionRecord.action == APPLIED, ActionRecord.text == record.record_id
    )
    return session.scalar(query.limit(1)) is not None


def describe(record: AdminRecord, services: Services | None = None) -> str:
    """The act in words; a game's own acts are described by its declaration."""
    arguments = record.arguments
    game_command = game_commands(services).get(record.command) if services else None
    if game_command is not None:
        return game_command.describe(arguments)
    if record.command == "ledger.credit":
        return (
            f"credit {arguments['player']} {arguments['amount']} {arguments['currency']} "
            f"({arguments['reason']})"
        )
    if record.command in DESCRIPTIONS:
        return DESCRIPTIONS[record.command](arguments)
    if record.command.startswith("player.address."):
        verb = "add" if record.command == "player.address.add" else "remove"
        return f"{verb} the address {arguments['address']} of {arguments['player']}"
    return f"{record.command} {json.dumps(dict(arguments), sort_keys=True)}"  # no game named


# The acts that read best described by their arguments alone.
DESCRIPTIONS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "clock.switch": lambda arguments: (
        f"the Clock is turned {'On' if arguments['on'] else 'Off'} "
        f"at {arguments['effective_at']} (rule 3 A)"
    ),
    "setting.set": lambda arguments: (
        f"{arguments['setting']} becomes {arguments['value']} at {arguments['effective_at']}"
    ),
}


def _ledger_credit(session: Session, services: Services, record: AdminRecord) -> str:
    from bot.engine import ledger
    from bot.engine.players import find_player_by_name

    arguments = record.arguments
    player = find_player_by_name(session, str(arguments["player"]))
    ledger.record(
        session,
        player.id,
        str(arguments["currency"]),
        int(arguments["amount"]),
        occurred_at=record.issued_at,
        source="admin",
        note=str(arguments["reason"]),
    )
    balance = ledger.balance(session, player.id, str(arguments["currency"]))
    return f"{player.name} now holds {balance} {arguments['currency']}"


def _address_add(session: Session, services: Services, record: AdminRecord) -> str:
    from bot.engine.players import add_address

    player = add_address(session, str(record.arguments["player"]), str(record.arguments["address"]))
    return f"address added to {player.name}"


def _address_remove(session: Session, services: Services, record: AdminRecord) -> str:
    from bot.engine.players import remove_address

    name, address = str(record.arguments["player"]), str(record.arguments["address"])
    player = remove_address(session, name, address)
    return f"address removed from {player.name}"


def _clock_switch(session: Session, services: Services, record: AdminRecord) -> str:
    from bot.engine.rule_changes import apply_clock_switch

    return apply_clock_switch(session, services, record)


def _setting(session: Session, services: Services, record: AdminRecord) -> str:
    from bot.engine.rule_changes import apply_setting

    return apply_setting(session, services, record)


def game_commands(services: Services) -> dict[str, AdminCommand]:
    """The acts the enabled games add to the engine's own, by command name."""
    return {
        name: command for game in services.games for name, command in game.admin_commands.items()
    }


def _handler(services: Services, command: str) -> Handler:
    """Raises RecordError for a command no enabled game knows (a disabled game's record)."""
    if command in HANDLERS:
        return HANDLERS[command]
    game_command = game_commands(services).get(command)
    if game_command is None:
        raise RecordError(f"no enabled game knows the administrative command {command}")
    return game_command.apply


Handler = Callable[[Session, "Services", AdminRecord], str]
HANDLERS: dict[str, Handler] = {
    "ledger.credit": _ledger_credit,
    "player.address.add": _address_add,
    "player.address.remove": _address_remove,
    "clock.switch": _clock_switch,  # rule 3 A, from an instant on (bot.engine.rule_changes)
    "setting.set": _setting,  # a number the rules fix, from an instant on
}
