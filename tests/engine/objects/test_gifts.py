"""Gifts by mail (rule 13): currencies over the ledger, objects over the object store.

Each gift is one post judged by the real pipeline and engine on SQLite.  A
gift moves everything or nothing: every refusal below leaves every balance
and every object where it was, and cites its rule: 21 (no balance below
zero), 13 (oneself, an entity, an object one does not hold), 2 (an unknown
name, with where the players are listed), 1899 (Renown), 1902 A (Gardens
and Plants), 1917 A (Pots of Gold), 384 of seed 002 (Cards).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from sqlalchemy import func, select

from bot.engine import holdings, ledger, objects
from bot.engine.games.cards_deals import CARD
from bot.engine.games.knucklebones import CHIP, HANDY_PACK
from bot.engine.holdings import BANDWIDTH, POINTS, TILDEX
from bot.games.objects import player_holder
from bot.store.models import LedgerEntry, ObjectEvent
from bot.testing.apps import make_app
from bot.testing.go_game import ALICE, BOB, EPOCH
from tests.engine.objects.conftest import Bot
from tests.engine.objects.test_by_mail import give

if TYPE_CHECKING:
    from collections.abc import Iterator


def credit(bot: Bot, name: str, currency: str, amount: int) -> None:
    with bot.app.session_factory.begin() as session:
        holdings.gain(
            session,
            bot.player_id(name),
            currency,
            amount,
            at=EPOCH,
            rule="T",
            note="for the test",
            source="admin",
        )


def balance(bot: Bot, name: str, currency: str) -> int:
    with bot.app.session_factory() as session:
        return ledger.balance(session, bot.player_id(name), currency)


def moves(bot: Bot) -> tuple[int, int]:
    """How many ledger entries posts made, and object events: a refusal adds none.

    (The scheduler's own entries, rule 212's Bandwidth at the first instant, are not a post's.)
    """
    with bot.app.session_factory() as session:
        posted = select(func.count()).where(LedgerEntry.source == "post")
        entries = session.scalar(posted) or 0
        events = session.scalar(select(func.count()).select_from(ObjectEvent)) or 0
    return entries, events


@pytest.fixture
def rich(bot: Bot) -> Bot:
    credit(bot, "Alice", TILDEX, 100)
    credit(bot, "Alice", POINTS, 7)
    return bot


@pytest.fixture(scope="module")
def refusing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Bot]:
    """One bot for every refusal: a refusal changes nothing, so each finds the same game."""
    app = make_app(tmp_path_factory.mktemp("refusals") / "bot")
    bot = Bot(app)
    credit(bot, "Alice", TILDEX, 100)
    credit(bot, "Alice", POINTS, 7)
    yield bot
    app.dispose()


def test_tildex_move_in_one_pair_of_entries_with_one_cause(rich: Bot) -> None:
    rulings, reply = rich.post(ALICE, "I give 30~ to Bob.", rich.at(1))
    assert rulings == [
        (
            "give.currency",
            "applied",
            "13",
            "Alice gave 30~ to Bob; Alice now holds 70~, Bob now holds 30~",
        )
    ]
    assert "Alice gave 30~ to Bob" in reply
    with rich.app.session_factory() as session:
        entries = session.scalars(
            select(LedgerEntry).where(LedgerEntry.rule == "13").order_by(LedgerEntry.id)
        ).all()
    assert [(entry.amount, entry.note) for entry in entries] == [
        (-30, "given by Alice to Bob"),
        (30, "given by Alice to Bob"),
    ]
    assert len({(entry.message_pk, entry.occurred_at) for entry in entries}) == 1


def test_points_and_bandwidth_are_given_in_each_phrasing(rich: Bot) -> None:
    rulings, _ = rich.post(
        ALICE, "I transfer 3 points to Bob. I pay Bob 5~. I give Bob 2BW.", rich.at(1)
    )
    assert [ruling[1] for ruling in rulings] == ["applied", "applied", "applied"]
    assert balance(rich, "Bob", POINTS) == 3
    assert balance(rich, "Bob", TILDEX) == 5
    assert (balance(rich, "Alice", BANDWIDTH), balance(rich, "Bob", BANDWIDTH)) == (8, 12)


@pytest.mark.parametrize(
    ("body", "rule", "reason"),
    [
        ("I give 101~ to Bob.", "21", "you hold 100~, less than the 101~ you give"),
        ("I give 8 points to Bob.", "21", "you hold 7 points, less than the 8 points"),
        ("I give 5~ to Alice.", "13", "a gift to oneself moves nothing"),
        ("I give 5~ to Zed.", "2", 'there is no player called "Zed"; the players are listed'),
        ("I give 5~ to the Store.", "13", "the Store is not a player, and a gift goes to a player"),
        ("I give 1 Temporary Honor to Bob.", "1899", "Renown may not be given away"),
        ("I give 2 Renown to Bob.", "1899", "it must be earned"),
        ("I give my Garden to Bob.", "1902 A", "Gardens may not be given away"),
        ("I give my Vine to Bob.", "1902 A", "Plants must always be in gardens"),
        ("I give my Pot of Gold to Bob.", "1917 A", "may not give or sell it to anyone"),
        ("I give away my Garden.", "1902 A", "Gardens may not be given away"),
        ("I give my QH to Bob.", "384", "Cards are only transferrable"),
        ("I give my Handy Pack to Bob.", "13", "you hold no Handy Pack"),
        ("I give object 999 to Bob.", "13", "you hold no object 999"),
        ("I give my sword to Bob.", "13", 'no Object the game keeps is called "sword"'),
    ],
)
def test_each_refusal_cites_its_rule_and_moves_nothing(
    refusing: Bot, body: str, rule: str, reason: str
) -> None:
    before = moves(refusing)
    rulings, _ = refusing.post(ALICE, body, refusing.at(1 + refusing.count))
    ((_action, outcome, cited, text),) = rulings
    assert (outcome, cited) == ("rejected", rule), text
    assert reason in text
    assert moves(refusing) == before
    assert (balance(refusing, "Alice", TILDEX), balance(refusing, "Alice", POINTS)) == (100, 7)


def test_a_declared_object_is_given_by_noun_or_number_as_its_type_allows(bot: Bot) -> None:
    first = give(bot, "Alice", HANDY_PACK)
    second = give(bot, "Alice", HANDY_PACK)
    chip = give(bot, "Alice", CHIP)
    rulings, _ = bot.post(ALICE, "I give my Handy Pack to Bob.", bot.at(1))
    assert rulings == [("give.object", "applied", "13", f"Alice gave Handy Pack {first} to Bob")]
    rulings, _ = bot.post(ALICE, f"I give object {chip} to Bob.", bot.at(2))
    assert rulings == [("give.object", "applied", "13", f"Alice gave Chip {chip} to Bob")]
    rulings, _ = bot.post(BOB, f"I give Handy Pack {second} to Alice.", bot.at(3))
    assert rulings[0][1:3] == ("rejected", "13")  # Alice holds that one, not Bob
    with bot.app.session_factory() as session:
        bobs = objects.held_by(session, player_holder(bot.player_id("Bob")))
        history = objects.history(session, first)
    assert {held.id for held in bobs} == {first, chip}
    assert [change.change for change in history] == ["created", "transferred"]
    assert history[-1].rule == "13" and history[-1].message_id == "objects-001@example.test"


def test_a_card_held_is_refused_citing_rule_384_and_stays(bot: Bot) -> None:
    card = give(bot, "Alice", CARD, back="Red", number=12)
    rulings, _ = bot.post(ALICE, "I give my Card to Bob.", bot.at(1))
    assert rulings[0][1:3] == ("rejected", "384")
    with bot.app.session_factory() as session:
        found = objects.find(session, card)
    assert found is not None and found.holder == player_holder(bot.player_id("Alice"))


def test_a_lost_soul_receives_nothing(rich: Bot) -> None:
    rich.post(BOB, "I forfeit the game.", rich.at(1))
    before = moves(rich)
    rulings, _ = rich.post(ALICE, "I give 5~ to Bob.", rich.at(2))
    assert rulings[0][1:3] == ("rejected", "2")
    assert moves(rich) == before


def test_the_recipients_statement_names_the_post_and_rule(rich: Bot) -> None:
    rich.post(ALICE, "I give 1~ to Bob.", rich.at(1))
    with rich.app.session_factory() as session:
        statement = holdings.statement(session, rich.player_id("Bob"), "Bob")
    latest = statement.latest[-1]
    assert (latest.amount, latest.rule, latest.message_id) == (1, "13", "objects-001@example.test")
