"""The loopback-server fixtures serve the real protocols the bot relies on."""

from __future__ import annotations

import email
import re
import smtplib
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from email import policy
from email.message import EmailMessage
from pathlib import Path

import imapclient
import pytest
import sqlalchemy
from imapclient.exceptions import LoginError

from bot.testing import dovecot as dovecot_module
from bot.testing.dovecot import DovecotServer, ImapAccount, require_supported_series
from bot.testing.fixtures import failing_when_unavailable
from bot.testing.postgres import PostgresDatabase
from bot.testing.smtp_sink import SmtpSink
from bot.testing.support import ServerError

# Dovecot reports new mail to an IDLE client about 500 ms late (MAILSTACK.md).
IDLE_WAIT_SECONDS = 3.0
MESSAGE_TIME = datetime(2024, 3, 1, 12, 34, 56, tzinfo=timezone(timedelta(hours=1)))


def raw_message(subject: str) -> bytes:
    lines = [
        "From: Alice <alice@example.test>",
        "To: nomic@example.test",
        f"Subject: {subject}",
        f"Message-ID: <{uuid.uuid4().hex}@example.test>",
        "",
        "I move to place a stone at D4.",
        "",
    ]
    return "\r\n".join(lines).encode("ascii")


@pytest.fixture
def imap(imap_user: ImapAccount) -> Iterator[imapclient.IMAPClient]:
    """A logged-in connection to the test user's mailbox, INBOX selected."""
    with connected(imap_user) as client:
        yield client


@contextmanager
def connected(account: ImapAccount) -> Iterator[imapclient.IMAPClient]:
    client = imapclient.IMAPClient(account.host, port=account.port, ssl=False, timeout=10)
    client.normalise_times = False  # keep INTERNALDATE's zone for comparison
    client.login(account.username, account.password)
    client.select_folder("INBOX")
    try:
        yield client
    finally:
        client.logout()


def appended_uid(response: bytes) -> int:
    """The UID from an ``[APPENDUID validity uid]`` response code (UIDPLUS)."""
    match = re.search(rb"\[APPENDUID \d+ (\d+)\]", response)
    assert match is not None, response
    return int(match.group(1))


def test_append_with_internaldate_reads_back_by_uid_without_setting_seen(
    imap: imapclient.IMAPClient,
) -> None:
    message = raw_message("Move 1")
    uid = appended_uid(imap.append("INBOX", message, msg_time=MESSAGE_TIME))

    fetched = imap.fetch([uid], ["BODY.PEEK[]", "FLAGS", "INTERNALDATE"])[uid]

    assert fetched[b"BODY[]"] == message
    assert b"\\Seen" not in fetched[b"FLAGS"]
    assert fetched[b"INTERNALDATE"] == MESSAGE_TIME
    assert imap.get_flags([uid])[uid] == fetched[b"FLAGS"]


def test_idle_notices_an_append_from_a_second_connection(imap_user: ImapAccount) -> None:
    with connected(imap_user) as watching:
        watching.idle()
        with connected(imap_user) as poster:
            poster.append("INBOX", raw_message("Move 2"))
        responses = idle_responses_until_exists(watching, IDLE_WAIT_SECONDS)
        watching.idle_done()

    assert (1, b"EXISTS") in responses


def idle_responses_until_exists(
    client: imapclient.IMAPClient, timeout: float
) -> list[tuple[object, ...]]:
    deadline = time.monotonic() + timeout
    responses: list[tuple[object, ...]] = []
    while time.monotonic() < deadline and not any(b"EXISTS" in item for item in responses):
        responses += client.idle_check(timeout=max(0.0, deadline - time.monotonic()))
    return responses


def test_uidvalidity_is_stable_across_sessions_and_new_mail(imap_user: ImapAccount) -> None:
    with connected(imap_user) as first:
        before = first.folder_status("INBOX", [b"UIDVALIDITY", b"UIDNEXT"])
        first.append("INBOX", raw_message("Move 3"))
    with connected(imap_user) as second:
        after = second.folder_status("INBOX", [b"UIDVALIDITY", b"UIDNEXT"])

    assert after[b"UIDVALIDITY"] == before[b"UIDVALIDITY"]
    assert after[b"UIDNEXT"] == before[b"UIDNEXT"] + 1


def test_users_added_live_have_separate_mailboxes_and_passwords(
    dovecot: DovecotServer, imap_user: ImapAccount
) -> None:
    other = dovecot.add_user(f"{imap_user.username}-other", "another-secret")
    with connected(imap_user) as first:
        first.append("INBOX", raw_message("Only for the first user"))
    with connected(other) as second:
        assert second.search("ALL") == []
    refused = imapclient.IMAPClient(other.host, port=other.port, ssl=False, timeout=10)
    with pytest.raises(LoginError):
        refused.login(other.username, imap_user.password)
    refused.shutdown()


def test_add_user_refuses_what_a_passwd_file_cannot_hold(dovecot: DovecotServer) -> None:
    with pytest.raises(ValueError, match="password"):
        dovecot.add_user("colon-user", "pass:word")
    with pytest.raises(ValueError, match="username"):
        dovecot.add_user("Upper", "secret")


def test_smtp_sink_captures_envelope_and_raw_bytes(smtp_sink: SmtpSink) -> None:
    message = EmailMessage()
    message["From"] = "referee@example.test"
    message["To"] = "nomic@example.test"
    message["Subject"] = "Ruling on Move 4 — rejected"
    message.set_content("The point D4 is occupied.\n")
    with smtplib.SMTP(smtp_sink.host, smtp_sink.port, timeout=10) as client:
        client.send_message(message, to_addrs=["nomic@example.test", "archive@example.test"])

    (captured,) = smtp_sink.wait_for(1, timeout=5)
    parsed = email.message_from_bytes(captured.data, policy=policy.default)

    assert captured.mail_from == "referee@example.test"
    assert captured.recipients == ("nomic@example.test", "archive@example.test")
    assert b"\r\n" in captured.data and b"\n" not in captured.data.replace(b"\r\n", b"")
    assert parsed["Subject"] == "Ruling on Move 4 — rejected"
    assert parsed.get_content().splitlines() == ["The point D4 is occupied."]


def test_smtp_sink_wait_for_times_out_with_the_count(smtp_sink: SmtpSink) -> None:
    with pytest.raises(TimeoutError, match="holds 0 message"):
        smtp_sink.wait_for(1, timeout=0.1)


def test_postgres_commits_and_reads_back(postgres: PostgresDatabase) -> None:
    engine = sqlalchemy.create_engine(postgres.url)
    metadata = sqlalchemy.MetaData()
    # A unique name, so the test also runs against a shared $NOMICBOT_TEST_PG_URL.
    table = sqlalchemy.Table(
        f"rulings_{uuid.uuid4().hex[:8]}",
        metadata,
        sqlalchemy.Column("id", sqlalchemy.Integer, primary_key=True),
        sqlalchemy.Column("text", sqlalchemy.Text, nullable=False),
    )
    try:
        with engine.begin() as connection:
            metadata.create_all(connection)
            connection.execute(table.insert(), [{"text": "Move 1 applied"}])
        with engine.connect() as connection:
            rows = connection.execute(sqlalchemy.select(table.c.text)).scalars().all()
        assert engine.dialect.driver == "psycopg"
        assert rows == ["Move 1 applied"]
    finally:
        metadata.drop_all(engine)
        engine.dispose()


def test_dovecot_2_4_is_refused_with_a_clear_message() -> None:
    require_supported_series("2.3.19.1")
    with pytest.raises(ServerError, match=r"Dovecot 2\.4\.1 is installed.*2\.3"):
        require_supported_series("2.4.1")


def test_missing_server_fails_the_test_with_the_install_instruction(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Dovecot without its IMAP service is what a half-finished install leaves.
    monkeypatch.setattr(dovecot_module, "IMAP_HELPER_PATHS", (Path("/nonexistent/imap"),))
    with (
        pytest.raises(pytest.fail.Exception, match="install-test-servers.sh"),
        failing_when_unavailable("Dovecot"),
        DovecotServer(),
    ):
        pass
