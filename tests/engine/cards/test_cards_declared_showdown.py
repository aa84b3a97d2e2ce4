"""A Showdown declared by a holder of ten PCards, a rename, a failed Motion and a forfeit.

Rule 396: "if a transfer of Cards (such as by Dealing) causes one Player to
own ten or more PCards, e may declare a Showdown at any time [...] e must
show at least two PCards".  Alice votes every nweek for ten nweeks and is
dealt ten Cards (rule 391); Bob's Motion to Show Cards fails when its time
ends; Alice renames herself (rule 151), declares, is refused a showing of
one Card, then shows two; Bob, who holds none, shows nothing.  Then Bob,
dealt a Card since, forfeits (rule 14): his Card returns to the Deck.
The posts go straight to one bot (the by-mail module has the IMAP path).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from bot.app import App
from bot.config import DEFAULT_GAMES, GamesSettings, PlayerEntry, Settings
from bot.engine import inventory
from bot.engine.games.cards_state import CardsState, load_state
from bot.engine.views import game_view
from bot.engine.worker import process_queue
from bot.posts import compose_post
from bot.runner import advance_to, store_message
from bot.store.models import ActionRecord, OutboxMessage
from bot.testing.apps import game_settings
from bot.testing.go_game import LIST_ADDRESS
from bot.testing.records import recording_app

PLAYERS = {"Alice": "alice@example.test", "Bob": "bob@example.test"}


def day(number: int, hour: int = 0) -> datetime:
    return datetime(2026, 1, 1, tzinfo=UTC) + timedelta(days=number - 1, hours=hour)


def settings(folder: Path) -> Settings:
    games = GamesSettings(enabled=(*DEFAULT_GAMES, "cards"))
    return replace(
        game_settings(folder, games=games),
        players=tuple(PlayerEntry(name, (address,)) for name, address in PLAYERS.items()),
        game_sections={"cards": {"packs": 2, "motion_days": 95}},
    )


@dataclass
class Played:
    app: App
    posts: int = 0

    def post(self, at: datetime, author: str, body: str) -> str:
        self.posts += 1
        message_id = f"declared-{self.posts}@example.test"
        address = PLAYERS.get(author, PLAYERS["Alice"])
        raw = compose_post(author, address, "Pooker", body, message_id, at, to=LIST_ADDRESS)
        advance_to(self.app, at)
        store_message(self.app, raw, "smtp", at)
        process_queue(self.app.session_factory, self.app.services)
        return message_id

    def state(self) -> CardsState:
        with self.app.session_factory() as session:
            return load_state(session, 2)

    def rulings(self, action: str) -> list[tuple[str, str]]:
        with self.app.session_factory() as session:
            rows = session.scalars(
                select(ActionRecord).where(ActionRecord.action == action).order_by(ActionRecord.id)
            )
            return [(row.ruling, row.summary or row.reason) for row in rows]

    def mails(self, kind: str) -> list[str]:
        with self.app.session_factory() as session:
            query = select(OutboxMessage.raw).where(OutboxMessage.kind == kind)
            return [raw.decode() for raw in session.scalars(query.order_by(OutboxMessage.id))]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    game = Played(recording_app(settings(tmp_path_factory.mktemp("declared"))))
    advance_to(game.app, day(1, 0))
    game.post(day(1, 9), "Bob", "I move to show cards.")
    for nweek in range(10):  # Alice votes (against) every nweek: a Card each nweek after
        game.post(day(1 + 10 * nweek, 10), "Alice", "I vote no on poll 1.")
    advance_to(game.app, day(101, 1))
    game.post(day(101, 8), "Alice", "I change my name to Alicia.")
    game.post(day(101, 9), "Alicia", "I declare a Showdown.")
    cards = game.state().table.hand_of("Alicia")
    game.post(day(101, 10), "Alicia", f"I show {cards[0].short}.")
    game.post(day(101, 11), "Alicia", f"I show {cards[0].short} {cards[1].short}.")
    game.post(day(101, 12), "Bob", "I show QH.")
    advance_to(game.app, day(104, 1))
    game.post(day(104, 9), "Bob", "I forfeit the game.")
    yield game
    game.app.dispose()


def test_the_motion_fails_when_its_time_ends(played: Played) -> None:
    (failed,) = played.mails("cards-motion")
    assert "has failed" in failed
    assert played.state().motion_poll is None


def test_ten_pcards_let_their_holder_declare_and_show_two(played: Played) -> None:
    assert played.rulings("cards.declare")[0][0] == "applied"
    shows = played.rulings("cards.show")
    assert [ruling for ruling, _ in shows] == ["rejected", "applied", "rejected"]
    assert "must show at least 2 PCards" in shows[0][1]
    assert "Bob has no PCard QH" in shows[2][1]
    (result,) = played.mails("cards-showdown")
    assert "Alicia showed:" in result
    state = played.state()
    assert len(state.table.hand_of("Alicia")) == 8  # two of ten back in the Deck
    assert state.showdown is None and state.showdowns == 1


def test_a_rename_keeps_the_hand(played: Played) -> None:
    state = played.state()
    assert state.table.hand_of("Alice") == ()
    # Bob's motion was his vote in the first nweek: one Card for him too.
    assert {record.recipient for record in state.deals} == {"Alicia", "Bob"}


def test_a_forfeit_returns_the_cards_to_the_deck(played: Played) -> None:
    state = played.state()
    (bob_deal,) = [record for record in state.deals if record.recipient == "Bob"]
    assert state.table.hand_of("Bob") == ()
    assert state.table.in_deck(bob_deal.number)
    assert ("return", str(bob_deal.number)) in state.events
    assert bob_deal.due
    (forfeit,) = played.rulings("roster.forfeit")
    assert "Card(s) return to the Deck" in forfeit[1]
    assert f"hidden-v1 return card={bob_deal.number}" in forfeit[1]


def test_the_view_and_the_inventory_name_no_card(played: Played) -> None:
    state = played.state()
    with played.app.session_factory() as session:
        text = game_view(session, played.app.services, "cards").text
        listed = inventory.inventory_view(session, played.app.services).text
    assert "Alicia: 8 Card(s)" in text
    for card in state.table.hand_of("Alicia"):
        assert card.face.short not in text and card.face.name not in listed
    assert "Red back" in listed or "Blue back" in listed
