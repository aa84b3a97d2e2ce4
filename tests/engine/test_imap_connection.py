"""The IMAP poller over TLS and STARTTLS, and its reconnection with backoff."""

from __future__ import annotations

import itertools
import logging
import socket
import ssl
import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from bot.config import ImapSettings
from bot.ingress.imap import ImapPoller
from bot.testing import go_game
from bot.testing.apps import append_to_mailbox, make_app
from bot.testing.dovecot import DovecotServer, ImapAccount
from bot.testing.fixtures import failing_when_unavailable
from bot.testing.support import LOOPBACK, free_loopback_port, wait_until

_numbers = itertools.count(1)


@pytest.fixture(scope="module")
def tls_dovecot() -> Iterator[DovecotServer]:
    with failing_when_unavailable("Dovecot"), DovecotServer(tls=True) as server:
        yield server


@pytest.fixture
def account(tls_dovecot: DovecotServer) -> ImapAccount:
    user = tls_dovecot.add_user(f"tlsuser{next(_numbers)}", "tls-secret")
    append_to_mailbox(user, go_game.arrivals(go_game.SCRIPT[:1]))
    return user


def settings_for(
    server: DovecotServer, account: ImapAccount, security: str, port: int, ca_file: str
) -> ImapSettings:
    return ImapSettings(
        enabled=True,
        host=LOOPBACK,
        port=port,
        security=security,
        ca_file=ca_file,
        username=account.username,
        password=account.password,
    )


@pytest.mark.parametrize("security", ["tls", "starttls"])
def test_the_poller_reads_over_tls_and_starttls(
    tmp_path: Path, tls_dovecot: DovecotServer, account: ImapAccount, security: str
) -> None:
    assert tls_dovecot.tls is not None
    port = tls_dovecot.tls.port if security == "tls" else tls_dovecot.port
    settings = settings_for(tls_dovecot, account, security, port, str(tls_dovecot.tls.certificate))
    app = make_app(tmp_path)
    report = ImapPoller(settings, app.session_factory).poll_once()
    assert (report.fetched, report.stored) >= (1, 1)


def test_an_untrusted_certificate_is_refused(
    tmp_path: Path, tls_dovecot: DovecotServer, account: ImapAccount
) -> None:
    assert tls_dovecot.tls is not None
    settings = settings_for(tls_dovecot, account, "tls", tls_dovecot.tls.port, ca_file="")
    with pytest.raises(ssl.SSLCertVerificationError):
        ImapPoller(settings, make_app(tmp_path).session_factory).poll_once()


class Relay:
    """A loopback TCP relay that can be opened after clients start knocking."""

    def __init__(self, target_port: int) -> None:
        self.port = free_loopback_port()
        self.target_port = target_port
        self.listener: socket.socket | None = None

    def open(self) -> None:
        self.listener = socket.create_server((LOOPBACK, self.port))
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        assert self.listener is not None
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection((LOOPBACK, self.target_port))
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            sink.close()

    def close(self) -> None:
        if self.listener is not None:
            self.listener.close()


def test_the_poller_retries_with_backoff_until_the_server_answers(
    tmp_path: Path,
    tls_dovecot: DovecotServer,
    account: ImapAccount,
    caplog: pytest.LogCaptureFixture,
) -> None:
    relay = Relay(tls_dovecot.port)
    settings = settings_for(tls_dovecot, account, "plain", relay.port, ca_file="")
    app = make_app(tmp_path)
    stop = threading.Event()
    poller = ImapPoller(settings, app.session_factory, on_stored=stop.set)
    caplog.set_level(logging.WARNING, logger="bot.ingress.imap")
    thread = threading.Thread(target=poller.run, args=(stop,), daemon=True)
    thread.start()
    try:
        # Nothing listens yet: the poller waits 1 s, then 2 s, ... between tries.
        assert wait_until(lambda: "reconnecting in 2 s" in caplog.text, timeout=10)
        relay.open()
        assert wait_until(stop.is_set, timeout=15)  # connected, and stored the post
    finally:
        stop.set()
        thread.join(10)
        relay.close()
    assert "reconnecting in 1 s" in caplog.text
    assert not thread.is_alive()


def test_a_refused_login_is_reported_once_in_words_and_retried_with_backoff(
    tmp_path: Path,
    tls_dovecot: DovecotServer,
    account: ImapAccount,
    caplog: pytest.LogCaptureFixture,
) -> None:
    wrong = replace(account, password="not-the-password")
    settings = settings_for(tls_dovecot, wrong, "plain", tls_dovecot.port, ca_file="")
    app = make_app(tmp_path)
    stop = threading.Event()
    poller = ImapPoller(settings, app.session_factory, on_stored=stop.set)
    caplog.set_level(logging.DEBUG, logger="bot.ingress.imap")
    thread = threading.Thread(target=poller.run, args=(stop,), daemon=True)
    thread.start()
    try:
        # Refused at once, then after 1 s and 2 s: the retries back off.
        assert wait_until(lambda: "login refused again; retrying in 2 s" in caplog.text, 10)
        # The administrator gives the account the password the bot has.
        tls_dovecot.set_password(account.username, wrong.password)
        assert wait_until(stop.is_set, timeout=15)  # logged in, and stored the post
    finally:
        stop.set()
        thread.join(10)
    records = [r for r in caplog.records if r.name == "bot.ingress.imap"]
    errors = [r.getMessage() for r in records if r.levelno >= logging.ERROR]
    assert len(errors) == 1  # reported once, not at every retry
    assert f"the server refused to log in as '{account.username}'" in errors[0]
    assert "(it said: Authentication failed.)" in errors[0]
    assert "AUTHENTICATIONFAILED" not in caplog.text and "b'" not in caplog.text
    assert "logged in; the account works again" in caplog.text
    assert not thread.is_alive()
    app.dispose()
