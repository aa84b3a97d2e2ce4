"""An administrator's acts are signed records in the list archive (docs/archive.md).

The console's ledger credit, Go set-up and address changes are mailed to
the list as records the bot signs; a replay of the archive alone applies
them at their place, and refuses a record whose signature does not verify.
"""

from __future__ import annotations

import base64
import json
import mailbox
import re
from datetime import UTC, datetime, timedelta
from email import message_from_bytes
from email.policy import default
from pathlib import Path

from click.testing import CliRunner
from sqlalchemy import select

from bot.app import build_app
from bot.cli import main
from bot.config import load_settings
from bot.engine import ledger
from bot.engine.admin_records import RECORD_TYPE
from bot.engine.players import find_player_by_name
from bot.engine.refusals import refused_posts
from bot.posts import compose_post, mbox_from_line
from bot.store.models import Message, OutboxMessage
from bot.testing import go_game
from bot.testing.apps import write_config
from bot.testing.records import relayed_by_list

CREDIT = ["ledger", "credit", "Alice", "30", "--reason", "opening grant"]


def console(config: Path, *arguments: str) -> str:
    result = CliRunner().invoke(main, [*arguments, "--config", str(config)])
    assert result.exit_code == 0, result.output
    return result.output


def record_mails(folder: Path) -> list[bytes]:
    """The records the bot queued for the list (its sender mails them when it runs)."""
    app = build_app(load_settings(folder / "nomicbot.toml"))
    with app.session_factory() as session:
        query = select(OutboxMessage).where(OutboxMessage.kind == "admin-record")
        return [mail.raw for mail in session.scalars(query.order_by(OutboxMessage.id))]


def write_archive(path: Path, mails: list[tuple[bytes, datetime]]) -> Path:
    box = mailbox.mbox(path)
    for raw, at in mails:
        message = mailbox.mboxMessage(raw)
        message.set_from(mbox_from_line(go_game.LIST_ADDRESS, at)[5:])
        box.add(message)
    box.flush()
    return path


def holdings(config: Path, currency: str = "points") -> int:
    app = build_app(load_settings(config))
    with app.session_factory() as session:
        player = find_player_by_name(session, "Alice")
        return ledger.balance(session, player.id, currency)


def test_a_credit_from_the_console_is_a_signed_record_mailed_to_the_list(tmp_path: Path) -> None:
    config = write_config(tmp_path / "bot")
    assert console(config, *CREDIT).strip() == "Alice now holds 30 points"
    assert holdings(config) == 30
    [record] = record_mails(tmp_path / "bot")
    mail = message_from_bytes(record, policy=default)
    assert mail["To"] == go_game.LIST_ADDRESS
    assert mail["Subject"] == "[admin] credit Alice 30 points (opening grant)"
    [part] = [p for p in mail.walk() if p.get_content_type() == RECORD_TYPE]
    inner = message_from_bytes(part.get_payload(decode=True), policy=default)
    assert inner["DKIM-Signature"] and "d=example.test" in str(inner["DKIM-Signature"])
    body = json.loads(inner.get_content())
    assert (body["command"], body["arguments"]["amount"]) == ("ledger.credit", 30)


def test_replaying_the_list_archive_alone_applies_the_records_at_their_place(
    tmp_path: Path,
) -> None:
    live = write_config(tmp_path / "live")
    console(live, *CREDIT)
    console(live, "player", "address", "add", "Alice", "alice@home.example")
    [credit, address] = sorted(record_mails(tmp_path / "live"), key=lambda raw: b"address" in raw)
    start = datetime.now(UTC) - timedelta(minutes=5)
    post = compose_post(*go_game.ALICE, "Hi", "I roll 1d6.", "p1@example.test", start)
    archive = write_archive(
        tmp_path / "list.mbox",
        [
            (post, start),
            (relayed_by_list(credit), start + timedelta(minutes=1)),
            (relayed_by_list(address), start + timedelta(minutes=2)),
        ],
    )
    # A fresh database that knows the bot's published key (as an auditor would).
    fresh = write_config(
        tmp_path / "fresh",
        f'key_file = "{tmp_path / "live" / "dkim-public.txt"}"\n',
    )
    console(fresh, "replay", str(archive), "--until", (start + timedelta(minutes=3)).isoformat())
    assert holdings(fresh) == 30
    app = build_app(load_settings(fresh))
    with app.session_factory() as session:
        statuses = sorted(
            (m.status, m.status_reason[:22]) for m in session.scalars(select(Message))
        )
        alice = find_player_by_name(session, "Alice")
    assert statuses == [
        ("processed", "1 action(s) judged"),
        ("processed", "admin record applied: "),
        ("processed", "admin record applied: "),
    ]
    assert alice is not None


def test_a_tampered_record_is_refused_by_replay_with_a_reason(tmp_path: Path) -> None:
    live = write_config(tmp_path / "live")
    console(live, *CREDIT)
    [credit] = record_mails(tmp_path / "live")
    tampered = _change_record(credit, b'"amount": 30', b'"amount": 3000')
    archive = write_archive(
        tmp_path / "list.mbox", [(relayed_by_list(tampered), datetime.now(UTC))]
    )
    fresh = write_config(
        tmp_path / "fresh", f'key_file = "{tmp_path / "live" / "dkim-public.txt"}"\n'
    )
    console(fresh, "replay", str(archive))
    assert holdings(fresh) == 0
    app = build_app(load_settings(fresh))
    with app.session_factory() as session:
        [refused] = refused_posts(session)
    assert "signature does not verify" in refused.reason


def test_a_record_is_applied_once_whatever_mail_carries_it(tmp_path: Path) -> None:
    live = write_config(tmp_path / "live")
    console(live, *CREDIT)
    [credit] = record_mails(tmp_path / "live")
    again = re.sub(rb"Message-ID: <[^>]+>", b"Message-ID: <again@example.test>", credit, count=1)
    archive = write_archive(tmp_path / "list.mbox", [(again, datetime.now(UTC))])
    console(live, "replay", str(archive))
    assert holdings(live) == 30
    app = build_app(load_settings(live))
    with app.session_factory() as session:
        row = session.scalars(
            select(Message).where(Message.message_id == "again@example.test")
        ).one()
    assert (row.status, "applied before" in row.status_reason) == ("ignored", True)


def test_a_record_signed_by_another_key_is_refused(tmp_path: Path) -> None:
    mallory = write_config(tmp_path / "mallory")
    console(mallory, *CREDIT)  # Mallory runs a bot of eir own, with eir own key
    [forged] = record_mails(tmp_path / "mallory")
    victim = write_config(tmp_path / "victim")
    console(victim, "player", "address", "add", "Bob", "bob@home.example")  # has a key of its own
    archive = write_archive(tmp_path / "list.mbox", [(forged, datetime.now(UTC))])
    console(victim, "replay", str(archive))
    assert holdings(victim) == 0


def _change_record(raw: bytes, old: bytes, new: bytes) -> bytes:
    mail = message_from_bytes(raw, policy=default)
    for part in mail.walk():
        if part.get_content_type() == RECORD_TYPE:
            payload = part.get_payload(decode=True)
            assert old in payload
            part.set_payload(base64.encodebytes(payload.replace(old, new)).decode())
    return mail.as_bytes()
