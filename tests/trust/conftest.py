"""The mail world the Mailman tests share (``bot.testing.trust_world``).

It takes about 20 s to start, and its DNS server has a fixed address, so
one world serves the whole session: the forgery tests post to its
``nomic@`` and ``plain@`` lists, the archive tests play the game of its
``archive@`` list, each with a referee of its own.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.testing.fixtures import failing_when_unavailable
from bot.testing.trust_world import MailWorld, archive_history, mail_world


@pytest.fixture(scope="session")
def world() -> Iterator[MailWorld]:
    with (
        failing_when_unavailable("the mail world (DNS, Postfix, Mailman 3, Dovecot)"),
        mail_world(archive_history()) as started,
    ):
        yield started
