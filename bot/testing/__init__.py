"""Real servers on loopback for the test suite (after ``mailman.testing``).

Every server here is the real program, run as a private instance in a
temporary directory on 127.0.0.1, so tests exercise the same protocol stacks
the bot meets in production instead of mocks (STYLE.md, rule of thumb 9):

- :class:`~bot.testing.dovecot.DovecotServer` — Dovecot IMAP with live users;
- :class:`~bot.testing.postgres.PostgresServer` — PostgreSQL, one database;
- :class:`~bot.testing.smtp_sink.SmtpSink` — aiosmtpd capturing outgoing mail;
- :class:`~bot.testing.postfix.PostfixServer` — a Postfix MTA routing test domains;
- :class:`~bot.testing.mailman.MailmanServer` — GNU Mailman 3, set up by deploy/GUIDE.md;
- :class:`~bot.testing.dns.ZoneServer` — the test domains' DKIM and DMARC records.

``bot.testing.trust_world`` puts them together into one small mail world.

``bot.testing.fixtures`` wraps them as a pytest plugin.  Binaries come from
``scripts/install-test-servers.sh``; a missing one is an error, never a skip.
"""

from __future__ import annotations

from bot.testing.dovecot import DovecotServer, ImapAccount
from bot.testing.postgres import PostgresDatabase, PostgresServer
from bot.testing.smtp_sink import CapturedMessage, SmtpSink
from bot.testing.support import ServerError, ServerNotInstalledError, ServerStartError

__all__ = [
    "CapturedMessage",
    "DovecotServer",
    "ImapAccount",
    "PostgresDatabase",
    "PostgresServer",
    "ServerError",
    "ServerNotInstalledError",
    "ServerStartError",
    "SmtpSink",
]
