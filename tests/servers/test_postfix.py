"""A private Postfix routes mail by LMTP into Dovecot, and nothing leaves the machine."""

from __future__ import annotations

import secrets
import smtplib
import uuid
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

import imapclient
import pytest

from bot.testing import dovecot as dovecot_module
from bot.testing import postfix as postfix_module
from bot.testing.dovecot import DovecotServer, ImapAccount
from bot.testing.fixtures import failing_when_unavailable
from bot.testing.postfix import PostfixServer, render_main_cf
from bot.testing.support import free_loopback_port, wait_until

BOT_DOMAIN = "bot.example.test"
DELIVERY_SECONDS = 5.0


@pytest.fixture(scope="module")
def lmtp_dovecot() -> Iterator[DovecotServer]:
    """A private Dovecot that also accepts mail by LMTP."""
    with failing_when_unavailable("Dovecot"), DovecotServer(lmtp=True) as server:
        yield server


@pytest.fixture(scope="module")
def postfix(lmtp_dovecot: DovecotServer) -> Iterator[PostfixServer]:
    """A private Postfix delivering the bot's domain to ``lmtp_dovecot``."""
    transports = {BOT_DOMAIN: f"lmtp:[127.0.0.1]:{lmtp_dovecot.lmtp_port}"}
    with failing_when_unavailable("Postfix"), PostfixServer(transports=transports) as server:
        yield server


def new_mailbox(dovecot: DovecotServer, address: str) -> ImapAccount:
    return dovecot.add_user(address, secrets.token_urlsafe(12))


def message_to(recipient: str, subject: str) -> EmailMessage:
    message = EmailMessage()
    message["From"] = "Alice <alice@example.test>"
    message["To"] = recipient
    message["Subject"] = subject
    message["Message-ID"] = f"<{uuid.uuid4().hex}@example.test>"
    message.set_content("I move to place a stone at D4.\n")
    return message


def send(server: PostfixServer, *messages: EmailMessage) -> None:
    with smtplib.SMTP(server.host, server.port, timeout=10) as client:
        for message in messages:
            client.send_message(message)


def inbox_message_ids(account: ImapAccount) -> list[str]:
    """The Message-ID of every mail in the account's INBOX, read without setting \\Seen."""
    client = imapclient.IMAPClient(account.host, port=account.port, ssl=False, timeout=10)
    try:
        client.login(account.username, account.password)
        client.select_folder("INBOX", readonly=True)
        uids = client.search("ALL")
        fetched = client.fetch(uids, ["BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)]"])
    finally:
        client.logout()
    headers = [item[b"BODY[HEADER.FIELDS (MESSAGE-ID)]"] for item in fetched.values()]
    return [header.decode("ascii").split(":", 1)[1].strip() for header in headers]


def test_postfix_delivers_the_bot_domain_by_lmtp_and_discards_the_rest(
    lmtp_dovecot: DovecotServer, postfix: PostfixServer
) -> None:
    referee = new_mailbox(lmtp_dovecot, f"referee@{BOT_DOMAIN}")
    for_referee = message_to(referee.username, "Move 5")
    for_elsewhere = message_to("someone@elsewhere.example", "Not for the bot")

    send(postfix, for_referee, for_elsewhere)

    assert wait_until(lambda: inbox_message_ids(referee) != [], DELIVERY_SECONDS, interval=0.1)
    postfix.wait_for_empty_queue(timeout=DELIVERY_SECONDS)
    assert inbox_message_ids(referee) == [for_referee["Message-ID"]]
    assert postfix.queue() == ()
    discarded = [
        line
        for line in postfix.log_text().splitlines()
        if "/discard[" in line and "to=<someone@elsewhere.example>" in line
    ]
    assert len(discarded) == 1 and "status=sent" in discarded[0], postfix.log_text()


def test_extra_transport_maps_join_the_own_map_and_stuck_mail_is_reported(
    lmtp_dovecot: DovecotServer,
) -> None:
    # The list domain is routed by the extra table to a port nobody listens on.
    extra = (
        "transport_maps = $nomicbot_transport_maps,"
        f" inline:{{ lists.example.test=lmtp:[127.0.0.1]:{free_loopback_port()} }}\n"
        "relay_domains = $nomicbot_relay_domains, lists.example.test\n"
    )
    transports = {BOT_DOMAIN: f"lmtp:[127.0.0.1]:{lmtp_dovecot.lmtp_port}"}
    clerk = new_mailbox(lmtp_dovecot, f"clerk@{BOT_DOMAIN}")
    for_clerk = message_to(clerk.username, "Still routed by the own map")
    with (
        failing_when_unavailable("Postfix"),
        PostfixServer(transports=transports, main_cf_extra=extra) as server,
    ):
        send(server, for_clerk, message_to("nomic@lists.example.test", "Stuck"))

        assert wait_until(lambda: inbox_message_ids(clerk) != [], DELIVERY_SECONDS, interval=0.1)
        with pytest.raises(TimeoutError, match=r"nomic@lists\.example\.test.*refused"):
            server.wait_for_empty_queue(timeout=1.5)
        # The refusal is logged before the queue manager moves the message on: on a busy
        # machine `postqueue` may still list it as incoming for a moment.
        assert wait_until(
            lambda: [message.queue_name for message in server.queue()] == ["deferred"],
            DELIVERY_SECONDS,
            interval=0.1,
        )
        (stuck,) = server.queue()

    assert inbox_message_ids(clerk) == [for_clerk["Message-ID"]]
    assert stuck.queue_name == "deferred"
    assert stuck.recipients == ("nomic@lists.example.test",)


def test_main_cf_extra_replaces_only_the_parameters_it_assigns() -> None:
    extra = "transport_maps = $nomicbot_transport_maps, hash:/m/postfix_lmtp"
    text = render_main_cf(
        Path("/r"), "mx.test.invalid", {BOT_DOMAIN: "lmtp:[127.0.0.1]:24"}, "discard:", extra
    )
    lines = text.splitlines()

    assert [line for line in lines if line.startswith("transport_maps")] == [extra]
    assert lines[-1] == extra
    assert "nomicbot_transport_maps = hash:/r/etc/transport" in lines
    assert "relay_domains = $nomicbot_relay_domains" in lines
    assert f"nomicbot_relay_domains = {BOT_DOMAIN}" in lines


def test_postfix_without_root_fails_the_test_saying_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(postfix_module, "running_as_root", lambda: False)
    with (
        pytest.raises(pytest.fail.Exception, match="needs root"),
        failing_when_unavailable("Postfix"),
        PostfixServer(),
    ):
        pass


def test_missing_dovecot_lmtp_fails_the_test_with_the_install_instruction(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(dovecot_module, "LMTP_HELPER_PATHS", (Path("/nonexistent/lmtp"),))
    with (
        pytest.raises(pytest.fail.Exception, match="dovecot-lmtpd.*install-test-servers.sh"),
        failing_when_unavailable("Dovecot"),
        DovecotServer(lmtp=True),
    ):
        pass
