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

from bot.games.errors import ActionError
from bot.store.models import ActionRecord, OutboxMessage
from bot.store.models import Message as StoredMessage
from bot.trust.bot_key import BotKey
from bot.trust.keys import DnsFunction, signature_verifies

if TYPE_CHECKING:
    from bot.engine.services import Services

RECORD_TYPE = "application/vnd.nomicbot.admin-record"
RECORD_FILE = "admin-record.eml"
KIND = "admin-record"
APPLIED = "admin.record"  # the action-log row that says a record was applied
ADMIN_SOURCE = "admin"  # Message.source of a record the console queued
SIGNED_HEADERS = ("From", "To", "Subject", "Date", "Message-ID", "Content-Type")


class RecordError(ValueError):
    """An admin record that must not be applied; the message says why."""


class RecordRefused(RecordError):
    """A record that does not prove what it claims (a private vote whose reveal does
    not match its commitment): refused, as a forgery is, and listed by ``nomicbot refused``."""


@dataclass(frozen=True)
class AdminRecord:
    record_id: str  # 32 hex digits
    command: str  # a key of HANDLERS
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


def new_record(command: str, arguments: Mapping[str, Any], issued_at: datetime) -> AdminRecord:
    if command not in HANDLERS:
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
) -> tuple[str, bytes]:
    """(Message-ID, raw bytes) of the mail that carries ``record`` to the list."""
    summary = describe(record)
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


def carries_record(raw: bytes) -> bool:
    """A cheap first look: could this mail carry an admin record?"""
    return RECORD_TYPE.encode() in raw


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
    if record.command not in HANDLERS:
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
        summary = HANDLERS[record.command](session, services, record)
    except RecordRefused:
        raise
    except ActionError as error:
        rule = f" (rule {error.rule})" if error.rule else ""
        raise RecordError(f"{describe(record)}: {error.message}{rule}") from None
    except ValueError as error:
        raise RecordError(f"{describe(record)}: {error}") from None
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


def describe(record: AdminRecord) -> str:
    arguments = record.arguments
    if record.command == "ledger.credit":
        return (
            f"credit {arguments['player']} {arguments['amount']} {arguments['currency']} "
            f"({arguments['reason']})"
        )
    if record.command == "go.setup":
        return f"Go set-up stones for {arguments['player']} at {' '.join(arguments['points'])}"
    if record.command in DESCRIPTIONS:
        return DESCRIPTIONS[record.command](arguments)
    verb = "add" if record.command == "player.address.add" else "remove"
    return f"{verb} the address {arguments['address']} of {arguments['player']}"


# The acts that read best described by their arguments alone.
DESCRIPTIONS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "field.select": lambda arguments: f"the Referee selects {arguments['match']} (seed 003)",
    "field.initialize": lambda arguments: "the Referee invokes Initialize (seed 003)",
    "field.evolve": lambda arguments: "the Referee performs Evolve (seed 000)",
    "clock.switch": lambda arguments: (
        f"the Clock is turned {'On' if arguments['on'] else 'Off'} "
        f"at {arguments['effective_at']} (rule 3 A)"
    ),
    "setting.set": lambda arguments: (
        f"{arguments['setting']} becomes {arguments['value']} at {arguments['effective_at']}"
    ),
    # Rule 15 B: what may be public of a private vote before its poll concludes.
    "private.commit": lambda arguments: (
        "a private vote on "
        + ", ".join(f"poll {vote['poll']} ({vote['subject']})" for vote in arguments["votes"])
    ),
    "private.reveal": lambda arguments: (
        f"the private votes on poll {arguments['poll']} ({arguments['subject']}), revealed"
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


def _go_setup(session: Session, services: Services, record: AdminRecord) -> str:
    from bot.engine.go_admin import setup_stones

    points = [str(point) for point in record.arguments["points"]]
    return setup_stones(
        session, services, str(record.arguments["player"]), points, record.issued_at
    )


def _address_add(session: Session, services: Services, record: AdminRecord) -> str:
    from bot.engine.players import add_address

    player = add_address(session, str(record.arguments["player"]), str(record.arguments["address"]))
    return f"address added to {player.name}"


def _address_remove(session: Session, services: Services, record: AdminRecord) -> str:
    from bot.engine.players import remove_address

    name, address = str(record.arguments["player"]), str(record.arguments["address"])
    player = remove_address(session, name, address)
    return f"address removed from {player.name}"


def _field_select(session: Session, services: Services, record: AdminRecord) -> str:
    from bot.engine.games.field import referee_select

    match = str(record.arguments["match"])
    report = referee_select(session, services.at(record.issued_at), match, record.issued_at)
    return f"{report.subject}\n\n{report.text}"


def _field_turn(session: Session, services: Services, record: AdminRecord) -> str:
    from bot.engine.games.field import referee_turn

    # The Turn's draws are taken in a context named by its number, so a
    # replay that applies the record at its place draws the same.
    report = referee_turn(session, services.at(record.issued_at), record.command, record.issued_at)
    return f"{report.subject}\n\n{report.text}"


def _clock_switch(session: Session, services: Services, record: AdminRecord) -> str:
    from bot.engine.rule_changes import apply_clock_switch

    return apply_clock_switch(session, services, record)


def _setting(session: Session, services: Services, record: AdminRecord) -> str:
    from bot.engine.rule_changes import apply_setting

    return apply_setting(session, services, record)


def _private_commit(session: Session, services: Services, record: AdminRecord) -> str:
    from bot.engine.private_records import apply_commit

    return apply_commit(session, services, record)


def _private_reveal(session: Session, services: Services, record: AdminRecord) -> str:
    from bot.engine.private_records import apply_reveal

    return apply_reveal(session, services, record)


Handler = Callable[[Session, "Services", AdminRecord], str]
HANDLERS: dict[str, Handler] = {
    "ledger.credit": _ledger_credit,
    "go.setup": _go_setup,
    "player.address.add": _address_add,
    "player.address.remove": _address_remove,
    "field.select": _field_select,  # the Referee's console acts (seeds 003, 000)
    "field.initialize": _field_turn,
    "field.evolve": _field_turn,
    "clock.switch": _clock_switch,  # rule 3 A, from an instant on (bot.engine.rule_changes)
    "setting.set": _setting,  # a number the rules fix, from an instant on
    "private.commit": _private_commit,  # rule 15 B (bot.engine.private_records)
    "private.reveal": _private_reveal,
}
