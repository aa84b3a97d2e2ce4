"""Issue 15, acceptance 3: nothing private on the site before its reveal.

The site is built from the governance nweek just before its Ballot closes:
Erin's vote on proposal 100 was mailed privately to the bot (a Concealable
Ballot, rule 15 B), Alice asked privately for her digest, and every Minister
has had digests mailed to em alone.  Every built file is searched for each
private value.  After the close, the Ballot's results reveal Erin's vote,
and the same search finds it: the search would see a leak.  A game of
Cards deals hidden Cards; no Card in a Hand is named anywhere.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import select

from bot.app import App, build_app
from bot.config import DEFAULT_GAMES, GamesSettings, PlayerEntry
from bot.engine.worker import process_queue
from bot.posts import compose_post
from bot.runner import advance_to, store_message
from bot.site import build_site
from bot.store.models import OutboxMessage
from bot.testing.apps import game_settings
from bot.testing.go_game import LIST_ADDRESS
from bot.testing.governance_week import BALLOT_CLOSES, END, SECRET_WORD, week_posts
from bot.testing.site_files import document, every_file_text
from bot.testing.site_games import PlayedWeek
from bot.testing.site_privacy import (
    never_on_the_site,
    private_mail_lines,
    public_text,
    read_site,
    view_pages_text,
)

PRIVATE_VOTER = "Erin"
CARD_PLAYERS = {
    "Alice": "alice@example.test",
    "Bob": "bob@example.test",
    "Carol": "carol@example.test",
    "Dave": "dave@example.test",
}


def cards_day(number: int, hour: int = 0, minute: int = 0) -> datetime:
    """Day ``number`` of 2026 (the ntime epoch is 1 January; an nweek is ten days)."""
    return datetime(2026, 1, 1, tzinfo=UTC) + timedelta(days=number - 1, hours=hour, minutes=minute)


def cards_app(folder: Path) -> App:
    """Cards and Pooker (seed 002) enabled, Dave the Dealer (rule 386), two Packs."""
    base = game_settings(folder, games=GamesSettings(enabled=(*DEFAULT_GAMES, "cards")))
    return build_app(
        replace(
            base,
            players=tuple(PlayerEntry(name, (CARD_PLAYERS[name],)) for name in ("Carol", "Dave")),
            game_sections={"cards": {"dealer": "Dave", "packs": 2, "motion_days": 100}},
        )
    )


@dataclass
class TableOfCards:
    """Posts to the list, each judged as the daemon judges it."""

    app: App
    count: int = 0

    def post(self, at: datetime, author: str, body: str) -> None:
        self.count += 1
        raw = compose_post(
            author,
            CARD_PLAYERS[author],
            "Pooker",
            body,
            f"card-{self.count}@example.test",
            at,
            to=LIST_ADDRESS,
        )
        advance_to(self.app, at)
        store_message(self.app, raw, "smtp", at)
        process_queue(self.app.session_factory, self.app.services)


def private_values(played: PlayedWeek) -> list[str]:
    """The private posts' Message-IDs and words, and every mail the bot sent off the list."""
    posts = [post for post in week_posts() if post.private]
    values = [SECRET_WORD]
    values += [post.message_id for post in posts]
    values += [post.body.rstrip(".") for post in posts]
    list_address = played.app.settings.bot.list_address
    with played.app.session_factory() as session:
        private_mails = session.execute(
            select(OutboxMessage.message_id, OutboxMessage.recipients)
        ).all()
    values += [
        message_id for message_id, recipients in private_mails if recipients != [list_address]
    ]
    return values


def leaks(site: Path, values: list[str]) -> list[tuple[str, str]]:
    return [
        (name, value)
        for name, text in every_file_text(site).items()
        for value in values
        if value.lower() in text.lower()
    ]


def test_no_private_value_is_in_any_file_before_the_close(week_played: PlayedWeek) -> None:
    site = week_played.site_before_the_close
    values = private_values(week_played)
    assert len(values) > 10  # the secret word, two private posts, the digests and private replies
    assert leaks(site, values) == []
    ballot = document(site, "view-ballot")["data"]
    assert ballot["state"] == "open"
    for item in ballot["proposals"]:
        assert PRIVATE_VOTER not in [vote["voter"] for vote in item["votes"]]
    assert [item["withheld"] for item in ballot["proposals"]] == [1, 1]
    # The front page's next deadlines: the Ballot's two polls, once each (rule 23).
    closes = BALLOT_CLOSES.isoformat()
    assert document(site, "index")["data"]["deadlines"] == [
        {"subject": "proposal 100/0", "deadline": closes},
        {"subject": "proposal 101/1", "deadline": closes},
    ]


def test_after_the_close_the_revealed_vote_is_found_by_the_same_search(
    week_played: PlayedWeek, tmp_path: Path
) -> None:
    site = tmp_path / "site"
    build_site(week_played.app, site, at=END)
    found = leaks(site, [SECRET_WORD])
    assert ("view-ballot.html", SECRET_WORD) not in found  # the view shows the vote, not its word
    assert any(name.startswith("mail-") for name, _ in found)  # the Ballot's results reveal it


def test_no_line_of_a_mail_sent_off_the_list_is_in_any_file(
    week_played: PlayedWeek, tmp_path: Path
) -> None:
    # Each digest, private ruling and private reply, by its lines the list never carried
    # and the build's views do not show (a digest copies the views, rule 625 D).
    app = week_played.app
    public_posts = [post.raw() for post in week_posts() if not post.private]
    public = public_text(app, public_posts)
    after = tmp_path / "site"
    build_site(app, after, at=END)
    for site in (week_played.site_before_the_close, after):
        mails = private_mail_lines(app, public + "\n" + view_pages_text(site))
        assert len(mails) > 5
        assert never_on_the_site(read_site(site), mails) == {}
