"""The site as the daemon keeps it, read over HTTP while it changes.

For tests/site/test_live_site.py and bench/site_latency.py: a game of many
players on the wall clock (its epoch yesterday, so every post falls in its
first Checking Period and each player may make one Move, rule 1639 C),
read from a Dovecot mailbox by the daemon's IMAP poller, with a ``[site]
directory``; the site served by ``nomicbot serve``'s server; a reader that
fetches pages as fast as it can and records every response that was not a
whole page; and the instants a ruling was committed and first shown.
"""

from __future__ import annotations

import json
import re
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import select

from bot.app import App
from bot.config import OutboundSettings, PlayerEntry, Settings, SiteSettings
from bot.posts import compose_post
from bot.site.serve import make_server
from bot.store.models import Message
from bot.testing import go_game
from bot.testing.apps import game_settings, imap_settings
from bot.testing.dovecot import ImapAccount

# The HTML page's "Built INSTANT from the public record" (templates/site/base.html.j2).
BUILT = re.compile(r"Built (\S+) from the public record")
# The pages the reader fetches, each round: the front page, the Go board
# (page, JSON, page again, to check the JSON is of a build between the two),
# and the history list with its JSON.
READ_PAGES = ("index.html", "history.html", "history.json")


def player(number: int) -> tuple[str, str]:
    return f"Player{number:02d}", f"player{number:02d}@example.test"


def live_settings(folder: Path, account: ImapAccount, site: Path, players: int) -> Settings:
    """The scripted game's settings with ``players`` players, IMAP from ``account``, a site."""
    today = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    settings = game_settings(
        folder, imap=imap_settings(account), site=SiteSettings(directory=str(site))
    )
    return replace(
        settings,
        ntime=replace(settings.ntime, epoch=(today - timedelta(days=1)).isoformat()),
        outbound=OutboundSettings(maildir=str(folder / "outbox")),
        players=tuple(
            PlayerEntry(player(number)[0], (player(number)[1],)) for number in range(players)
        ),
    )


def post(number: int, body: str, message_id: str) -> bytes:
    """A list post from player ``number``, dated now."""
    name, address = player(number)
    return compose_post(
        name,
        address,
        "[Nomic] Live",
        f"{body}\n\n-- \n{name}\n",
        message_id,
        datetime.now(UTC),
        to=go_game.LIST_ADDRESS,
    )


def judged_at(app: App, message_id: str) -> datetime | None:
    """When the post's unit of work judged it (set in its transaction, just before the commit);
    None until that transaction is committed."""
    with app.session_factory() as session:
        row = session.execute(
            select(Message.status, Message.processed_at).where(Message.message_id == message_id)
        ).first()
    if row is None or row.status == "queued":
        return None
    judged: datetime | None = row.processed_at
    return judged


def wait_for(condition: Any, timeout: float, interval: float = 0.005) -> Any:
    """Poll ``condition`` until it returns a true value; that value, or None after ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(interval)
    return None


def fetch(url: str) -> tuple[int, bytes]:
    """The status and body of a GET (an HTTP error's status with an empty body)."""
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, b""


@contextmanager
def served(site: Path) -> Iterator[str]:
    """Serve ``site`` with ``nomicbot serve``'s server on a free loopback port; its base URL."""
    server = make_server(site, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, name="site-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        thread.join(10)
        server.server_close()


def json_document(base: str, name: str) -> Any:
    """The page's JSON as served now, or None if it is not served whole."""
    status, body = fetch(f"{base}/{name}.json")
    if status != 200:
        return None
    try:
        return json.loads(body)
    except ValueError:
        return None


@dataclass
class PollingReader:
    """Fetches pages as fast as it can in a thread of its own; records what was wrong."""

    base: str
    view: str = "view-go"
    responses: int = 0
    problems: list[str] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)
    thread: threading.Thread | None = None

    def start(self) -> None:
        self.thread = threading.Thread(target=self._read, name="site-reader", daemon=True)
        self.thread.start()

    def finish(self) -> None:
        self.stop.set()
        if self.thread is not None:
            self.thread.join(30)

    def _read(self) -> None:
        while not self.stop.is_set():
            before = self.page(f"{self.view}.html")
            document = self.page(f"{self.view}.json")
            after = self.page(f"{self.view}.html")
            self.check_generated(before, document, after)
            for name in READ_PAGES:
                self.page(name)

    def page(self, name: str) -> Any:
        """Fetch ``name`` and check it is whole: the HTML's build instant, the parsed JSON."""
        status, body = fetch(f"{self.base}/{name}")
        self.responses += 1
        if status != 200:
            self.problems.append(f"{name}: HTTP {status}")
            return None
        text = body.decode("utf-8", errors="replace")
        if name.endswith(".json"):
            return self._document(name, text)
        if not text.rstrip().endswith("</html>"):
            self.problems.append(f"{name}: partial page ({len(body)} bytes)")
            return None
        built = BUILT.search(text)
        if built is None:
            self.problems.append(f"{name}: no build instant")
        return None if built is None else built[1]

    def _document(self, name: str, text: str) -> Any:
        try:
            document = json.loads(text)
        except ValueError:
            self.problems.append(f"{name}: not whole JSON ({len(text)} characters)")
            return None
        if document.get("page") != name.removesuffix(".json"):
            self.problems.append(f"{name}: the JSON of page {document.get('page')!r}")
        return document

    def check_generated(self, before: Any, document: Any, after: Any) -> None:
        """The JSON fetched between two fetches of its page is of a build between them:
        its "generated" is the page's, to the second, when both fetches saw one build."""
        if before is None or document is None or after is None:
            return
        generated = datetime.fromisoformat(document["generated"]).isoformat(timespec="seconds")
        if not before <= generated <= after:
            self.problems.append(
                f"{self.view}.json generated {generated}, its page {before} then {after}"
            )
