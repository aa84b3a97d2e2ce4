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
from bot.engine.games.cards_state import load_state
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


def test_no_hidden_card_is_in_any_file(tmp_path: Path) -> None:
    # A Motion to Show Cards voted down: each voter is dealt a Card at the
    # nweek's start and told it privately (rules 387, 391); the Dealer's
    # report and the inventory show Backs only (rule 390).
    app = cards_app(tmp_path)
    table = TableOfCards(app)
    advance_to(app, cards_day(1, 0, 1))
    for minute, player in ((0, "Alice"), (5, "Bob")):
        table.post(cards_day(1, 8, minute), player, f"I want to become a player named {player}.")
    table.post(cards_day(1, 9), "Alice", "I move to show cards.")
    for nweek in range(2):
        for hour, voter in ((10, "Bob"), (11, "Carol")):
            table.post(cards_day(1 + 10 * nweek, hour), voter, "I vote no on poll 1.")
    advance_to(app, cards_day(21, 1))
    with app.session_factory() as session:
        cards = [
            card for player in CARD_PLAYERS for card in load_state(session, 2).table.hand_of(player)
        ]
    assert len(cards) >= 4
    # The Cards are real private values: the deal notices mailed to their holders name them.
    with app.session_factory() as session:
        private_raw = b"".join(
            row.raw
            for row in session.scalars(select(OutboxMessage))
            if row.recipients != [LIST_ADDRESS]
        )
    assert all(card.name.encode() in private_raw for card in cards)
    site = tmp_path / "site"
    build_site(app, site, at=cards_day(21, 1))
    hidden = [card.short for card in cards] + [card.name for card in cards]
    assert (site / "view-cards.html").is_file()
    assert leaks(site, hidden) == []
    app.dispose()
