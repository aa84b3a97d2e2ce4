"""The IMAP poller (imapclient): new mail by UID, IDLE when the server has it.

UIDVALIDITY and the last UID ingested are stored in the same transaction as
the messages of each batch, so a crash repeats at most the ingest of one
batch, which Message-ID deduplication absorbs.  Mail is read with
``BODY.PEEK[]``: the poller never sets \\Seen, flags or deletes mail unless
configured to.
"""

from __future__ import annotations

import logging
import re
import socket
import ssl
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientError, LoginError
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from bot.config import ImapSettings
from bot.ingress.ingest import ingest
from bot.store.models import ImapCursor

log = logging.getLogger(__name__)

NETWORK_ERRORS = (IMAPClientError, OSError, socket.timeout, ssl.SSLError)
MAX_BACKOFF_SECONDS = 300.0
IDLE_CHECK_SECONDS = 1  # how often the IDLE wait wakes to notice a stop request
RESPONSE_CODE = re.compile(r"^\[[A-Z-]+(?: [^\]]*)?\]\s*")  # RFC 3501 7.1, e.g. [ALERT]


@dataclass(frozen=True)
class PollReport:
    fetched: int
    stored: int


class ImapPoller:
    def __init__(
        self,
        settings: ImapSettings,
        session_factory: sessionmaker[Session],
        on_stored: Callable[[], None] = lambda: None,
    ) -> None:
        self.settings = settings
        self.session_factory = session_factory
        self.on_stored = on_stored
        self.account = f"{settings.username}@{settings.host}:{settings.port}/{settings.folder}"

    def connect(self) -> IMAPClient:
        settings = self.settings
        client = IMAPClient(
            settings.host,
            port=settings.port,
            ssl=settings.security == "tls",
            ssl_context=self._tls_context(),
            timeout=60,
        )
        if settings.security == "starttls":
            client.starttls(self._tls_context())
        client.normalise_times = False  # keep INTERNALDATE's own time zone
        client.login(settings.username, settings.password)
        return client

    def _tls_context(self) -> ssl.SSLContext:
        # Certificates are always verified; ca_file adds a private CA.
        return ssl.create_default_context(cafile=self.settings.ca_file or None)

    def poll_once(self) -> PollReport:
        """Connect, ingest everything new, log out."""
        client = self.connect()
        try:
            return self.fetch_new(client)
        finally:
            _logout(client)

    def fetch_new(self, client: IMAPClient) -> PollReport:
        readonly = not (self.settings.mark_seen or self.settings.delete_processed)
        selected = client.select_folder(self.settings.folder, readonly=readonly)
        last_uid = self._cursor(int(selected[b"UIDVALIDITY"]))
        uids = sorted(uid for uid in client.search(["UID", f"{last_uid + 1}:*"]) if uid > last_uid)
        fetched = stored = 0
        for start in range(0, len(uids), self.settings.batch_size):
            batch = uids[start : start + self.settings.batch_size]
            stored += self._ingest_batch(client, batch, int(selected[b"UIDVALIDITY"]))
            fetched += len(batch)
            self._after_ingest(client, batch)
        if stored:
            self.on_stored()
        return PollReport(fetched, stored)

    def _cursor(self, uidvalidity: int) -> int:
        with self.session_factory.begin() as session:
            cursor = session.scalar(select(ImapCursor).where(ImapCursor.account == self.account))
            if cursor is None:
                session.add(ImapCursor(account=self.account, uidvalidity=uidvalidity, last_uid=0))
                return 0
            if cursor.uidvalidity != uidvalidity:
                # The mailbox was recreated: UIDs mean nothing any more.  Start
                # over; Message-ID deduplication keeps old posts from repeating.
                log.warning("%s: UIDVALIDITY changed, rescanning", self.account)
                cursor.uidvalidity, cursor.last_uid = uidvalidity, 0
            return cursor.last_uid

    def _ingest_batch(self, client: IMAPClient, uids: Sequence[int], uidvalidity: int) -> int:
        response = client.fetch(list(uids), ["BODY.PEEK[]", "INTERNALDATE"])
        stored = 0
        with self.session_factory.begin() as session:
            for uid in uids:
                data = response.get(uid)
                if data is None:  # expunged between SEARCH and FETCH
                    continue
                received_at = _aware(data[b"INTERNALDATE"])
                stored += ingest(session, bytes(data[b"BODY[]"]), "imap", received_at).stored
            cursor = session.scalar(select(ImapCursor).where(ImapCursor.account == self.account))
            assert cursor is not None and cursor.uidvalidity == uidvalidity
            cursor.last_uid = max(uids)
        return stored

    def _after_ingest(self, client: IMAPClient, uids: Sequence[int]) -> None:
        if self.settings.mark_seen:
            client.add_flags(list(uids), [b"\\Seen"])
        if self.settings.delete_processed:
            client.delete_messages(list(uids))
            client.expunge()

    def run(self, stop: threading.Event) -> None:
        """Poll until ``stop`` is set, reconnecting with backoff on network errors.

        A refused login (a wrong username or password) is retried with the
        same backoff, since an administrator may fix the account without
        restarting the bot; it is reported once, in words, and again only
        after a login has succeeded in between.
        """
        backoff = 1.0
        refused = False  # a refused login was reported and has not been fixed since
        while not stop.is_set():
            try:
                client = self.connect()
                backoff = 1.0
                if refused:
                    log.warning("IMAP %s: logged in; the account works again", self.account)
                    refused = False
                try:
                    self._serve(client, stop)
                finally:
                    _logout(client)
            except LoginError as error:
                self._report_refused_login(error, backoff, already_reported=refused)
                refused = True
                stop.wait(backoff)
                backoff = min(backoff * 2, MAX_BACKOFF_SECONDS)
            except NETWORK_ERRORS as error:
                log.warning("IMAP %s: %s; reconnecting in %.0f s", self.account, error, backoff)
                stop.wait(backoff)
                backoff = min(backoff * 2, MAX_BACKOFF_SECONDS)

    def _report_refused_login(
        self, error: LoginError, backoff: float, *, already_reported: bool
    ) -> None:
        if already_reported:
            log.debug("IMAP %s: login refused again; retrying in %.0f s", self.account, backoff)
            return
        log.error(
            "IMAP %s: the server refused to log in as %r (it said: %s).  Check [imap] "
            "username and the password (NOMICBOT_IMAP_PASSWORD).  Retrying with backoff, "
            "up to every %.0f minutes; this is not reported again until a login succeeds.",
            self.account,
            self.settings.username,
            server_words(error),
            MAX_BACKOFF_SECONDS / 60,
        )

    def _serve(self, client: IMAPClient, stop: threading.Event) -> None:
        idle = b"IDLE" in client.capabilities()
        while not stop.is_set():
            self.fetch_new(client)
            if idle:
                self._idle(client, stop)
            else:
                stop.wait(self.settings.poll_seconds)
                client.noop()

    def _idle(self, client: IMAPClient, stop: threading.Event) -> None:
        # RFC 2177: re-issue IDLE well before 29 minutes; we renew at most
        # every idle_renew_seconds (at most 10 minutes; a minute by default), and
        # each renewal searches the mailbox again (see ImapSettings).
        deadline = time.monotonic() + min(self.settings.idle_renew_seconds, 600)
        client.idle()
        try:
            while not stop.is_set() and time.monotonic() < deadline:
                remaining = max(1, int(deadline - time.monotonic()))
                if client.idle_check(timeout=min(IDLE_CHECK_SECONDS, remaining)):
                    break
        finally:
            client.idle_done()


def server_words(error: IMAPClientError) -> str:
    """What the server said, as text: imapclient passes on the repr of its bytes.

    ``login failed: b'[AUTHENTICATIONFAILED] Authentication failed.'`` becomes
    ``Authentication failed.``: the response code is for programs.
    """
    text = str(error)
    text = text.partition(": ")[2] if text.startswith("login failed: ") else text
    if len(text) >= 3 and text[:2] in ("b'", 'b"') and text[-1] == text[1]:
        text = text[2:-1]
    words = RESPONSE_CODE.sub("", text).strip()
    return words or text or "no reason given"


def _aware(moment: Any) -> datetime:
    if not isinstance(moment, datetime):
        return datetime.now(UTC)
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _logout(client: IMAPClient) -> None:
    try:
        client.logout()
    except NETWORK_ERRORS:
        log.debug("IMAP logout failed; connection dropped anyway")
