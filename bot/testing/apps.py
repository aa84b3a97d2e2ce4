"""Building a configured bot for tests, and reading what it did."""

from __future__ import annotations

import json
import mailbox
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import replace
from datetime import datetime
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from pathlib import Path
from typing import Any

from imapclient import IMAPClient
from sqlalchemy import select

from bot.app import App, build_app, build_services
from bot.config import (
    DEFAULT_GAMES,
    BotSettings,
    DatabaseSettings,
    GamesSettings,
    ImapSettings,
    NtimeSettings,
    OutboundSettings,
    PlayerEntry,
    Settings,
    SmtpIngressSettings,
    TrustSettings,
)
from bot.engine.views import game_view
from bot.outbound.compose import compose_report
from bot.pipeline.context import PipelineSettings
from bot.store.models import ActionRecord, Message
from bot.testing import go_game
from bot.testing.dovecot import ImapAccount

TEST_SECRET = "74657374207365637265742c206e6f7420666f722072656c20757365210a0a0a"


def game_settings(folder: Path, database_url: str = "", **sections: Any) -> Settings:
    """Settings for the scripted Alice-and-Bob game, with sections replaced as given."""
    settings = Settings(
        bot=BotSettings(
            address=go_game.BOT_ADDRESS,
            list_address=go_game.LIST_ADDRESS,
            data_dir=str(folder),
            master_secret=TEST_SECRET,
        ),
        # The default unauthenticated mode (List-Id only), behind a receiving
        # server the bot trusts for private mail (bot.posts ``vouched_by``).
        trust=TrustSettings(authserv_ids=(go_game.RECEIVING_SERVER,)),
        database=DatabaseSettings(url=database_url),
        smtp_ingress=SmtpIngressSettings(enabled=False),
        outbound=OutboundSettings(maildir=str(folder / "outbox")),
        ntime=NtimeSettings(epoch=go_game.EPOCH.isoformat()),
        players=(
            PlayerEntry(*go_game.ALICE[:1], (go_game.ALICE[1],)),
            PlayerEntry(*go_game.BOB[:1], (go_game.BOB[1],)),
        ),
    )
    return replace(settings, **sections)


def pipeline_with(folder: Path, *games: str) -> PipelineSettings:
    """The pipeline settings of the scripted game with ``games`` enabled besides the defaults."""
    enabled = GamesSettings(enabled=(*DEFAULT_GAMES, *games))
    return build_services(game_settings(folder, games=enabled)).pipeline_settings


def make_app(folder: Path, database_url: str = "", **sections: Any) -> App:
    return build_app(game_settings(folder, database_url, **sections))


def fill_outbox(app: App, count: int) -> list[str]:
    """``count`` real scheduled mails, pending in the outbox; their Message-IDs.

    They are composed as the scheduler composes a dice commitment, each with
    its own key, so each has its own derived Message-ID.
    """
    with app.session_factory.begin() as session:
        rows = [
            compose_report(
                app.services,
                "dice-commitment",
                f"outbox-{number}",
                f"[dice] Commitment {number}",
                "dice/commitment.txt.j2",
                {"nweek": number, "commitment": f"{number:064x}"},
                go_game.EPOCH,
            )
            for number in range(count)
        ]
        session.add_all(rows)
    return [row.message_id for row in rows]


def go_state(app: App) -> dict[str, Any]:
    with app.session_factory() as session:
        data: dict[str, Any] = game_view(session, app.services, "go").data
        return data


def board_text(app: App) -> str:
    with app.session_factory() as session:
        return game_view(session, app.services, "go").text


def action_log(app: App) -> list[tuple[str, str, str, str]]:
    """(Message-ID, action, ruling, rule) for every recorded action, in order."""
    with app.session_factory() as session:
        rows = session.execute(
            select(Message.message_id, ActionRecord.action, ActionRecord.ruling, ActionRecord.rule)
            .join(Message, Message.id == ActionRecord.message_pk)
            .order_by(ActionRecord.id)
        ).all()
        return [tuple(row) for row in rows]  # type: ignore[misc]


def message_statuses(app: App) -> dict[str, str]:
    with app.session_factory() as session:
        return dict(session.execute(select(Message.message_id, Message.status)).all())


def write_mbox(path: Path, posts: list[tuple[bytes, str]]) -> None:
    """An mbox archive of (raw, From_ line) pairs, in the order given."""
    box = mailbox.mbox(str(path), create=True)
    try:
        for raw, from_line in posts:
            message = mailbox.mboxMessage(raw)
            message.set_from(from_line.removeprefix("From "))
            box.add(message)
        box.flush()
    finally:
        box.close()


def maildir_mails(path: Path) -> list[EmailMessage]:
    box = mailbox.Maildir(str(path), factory=None, create=False)
    mails = []
    for key in sorted(box.iterkeys()):
        parsed = message_from_bytes(box.get_bytes(key), policy=default)
        assert isinstance(parsed, EmailMessage)
        mails.append(parsed)
    return mails


def body_of(mail: EmailMessage) -> str:
    part = mail.get_body(preferencelist=("plain",))
    return str(part.get_content()) if part is not None else ""


def write_config(folder: Path, extra: str = "") -> Path:
    """A TOML file for the scripted game's settings, plus ``extra`` TOML text."""
    settings = game_settings(folder)
    players = "\n".join(
        f'[[players]]\nname = "{p.name}"\naddresses = ["{p.addresses[0]}"]\n'
        for p in settings.players
    )
    config = folder / "nomicbot.toml"
    folder.mkdir(parents=True, exist_ok=True)
    config.write_text(
        f'[bot]\naddress = "{settings.bot.address}"\nlist_address = "{settings.bot.list_address}"\n'
        f'data_dir = "{folder}"\nmaster_secret = "{settings.bot.master_secret}"\n'
        f'[smtp_ingress]\nenabled = false\n[ntime]\nepoch = "{settings.ntime.epoch}"\n'
        f"[trust]\nauthserv_ids = {json.dumps(list(settings.trust.authserv_ids))}\n"
        + extra
        + "\n"
        + players
    )
    return config


def append_to_mailbox(account: ImapAccount, posts: Iterable[tuple[bytes, datetime]]) -> None:
    """APPEND (raw, arrival time) posts to the account's INBOX, as delivery would."""
    with IMAPClient(account.host, port=account.port, ssl=False) as client:
        client.login(account.username, account.password)
        for raw, arrival in posts:
            client.append("INBOX", raw, msg_time=arrival)


def imap_settings(account: ImapAccount) -> ImapSettings:
    return ImapSettings(
        enabled=True,
        host=account.host,
        port=account.port,
        username=account.username,
        password=account.password,
    )


def nomicbot(config: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    """``nomicbot ARGUMENTS --config CONFIG`` in a process of its own; it must succeed."""
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", *arguments, "--config", str(config)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done
