"""The databases the site tests build from: the scripted governance nweek and Go game.

Both are replayed from their mbox archives (the same posts the end-to-end
tests deliver by IMAP, which give the same state: tests/engine/governance_e2e)
into SQLite files.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

from bot.app import App
from bot.config import SiteSettings
from bot.outbound.transports import MaildirTransport
from bot.posts import mbox_from_line
from bot.runner import advance_to, replay_archive
from bot.site import build_site
from bot.testing import go_game
from bot.testing.apps import make_app, write_mbox
from bot.testing.governance_week import (
    BALLOT_CLOSES,
    END,
    week_app,
    week_posts,
    write_week_mbox,
)

ARCHIVE_URL = "https://lists.example.org/archives/{message_id}"
# Every post of the nweek is in; the Ballot (with Erin's private vote) is still open.
BEFORE_THE_CLOSE = BALLOT_CLOSES - timedelta(minutes=1)


@dataclass(frozen=True)
class PlayedWeek:
    app: App
    site_before_the_close: Path


def play_week(folder: Path) -> PlayedWeek:
    """The governance nweek judged to its end, and its site as built just before the close."""
    app = week_app(folder, site=SiteSettings(archive_url=ARCHIVE_URL))
    advance_to(app, go_game.EPOCH)
    archive = write_week_mbox(folder / "week.mbox", week_posts())
    transport = MaildirTransport(folder / "out")
    replay_archive(app, archive, transport, until=BEFORE_THE_CLOSE)
    before = folder / "site-before"
    build_site(app, before, at=BEFORE_THE_CLOSE)
    advance_to(app, END)
    return PlayedWeek(app, before)


def play_go_game(folder: Path) -> App:
    """The scripted two-player Political Go game, judged to its end."""
    app = make_app(folder, site=SiteSettings(archive_url=ARCHIVE_URL))
    archive = folder / "go.mbox"
    posts = [(post.raw(), mbox_from_line(post.author[1], post.at)) for post in go_game.SCRIPT]
    write_mbox(archive, posts)
    replay_archive(app, archive, MaildirTransport(folder / "out"), until=go_game.GAME_END)
    return app
