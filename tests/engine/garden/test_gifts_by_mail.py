"""Gifts by mail (rule 13) in a game with the Gardens, and the list archive replayed.

Three players join by mail (500~, 1 point and 4BW each: rules 21 A.2, 14,
212) and give: tildex in each phrasing, a point, Bandwidth, a Thorn Seed
bought from the Store (the Gardens' object, judged by the Gardens); and try
what the rules refuse: more than one holds (21), oneself (13), a name no
player bears (2, naming where the players are listed), the Store (13),
Renown (1899), a Garden and a Plant (1902 A), a Pot of Gold (1917 A), a
Huge Seed one does not hold (13, judged by the Gardens).  "Bob may pick from
my Garden this nweek" is rule 636's permission, and "I make a Bloody Harry"
follows rule 1914's Recipe (refused: no Drinks).  Then the list archive
alone, replayed into a fresh database, gives the same balances, objects and
rulings.  No IMAP here: the Gardens' by-mail worlds cover the transport.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

import pytest
from sqlalchemy import select

from bot.app import App, build_app
from bot.engine.views import game_view
from bot.outbound.transports import MaildirTransport
from bot.runner import advance_to, replay_archive
from bot.store.models import ActionRecord
from bot.testing.records import recording_app
from bot.trust.bot_key import GENERATED_RECORD
from tests.engine.garden.test_garden_by_mail import Table, day, economy, list_archive, settings

END = day(2, 12)
JOIN = "I want to become a player named {name}."
POSTS: tuple[tuple[int, int, str, str], ...] = (
    *((8, minute, name, JOIN.format(name=name)) for minute, name in ((0, "Alice"), (5, "Bob"))),
    (8, 10, "Carol", JOIN.format(name="Carol")),
    (9, 0, "Alice", "I give 50~ to Bob. I pay Carol 20~. I give Bob 1 point. I give 2BW to Carol."),
    (9, 10, "Bob", "I transfer 30 tildex to Carol. I give ~ 5 to Alice."),
    (9, 20, "Alice", "I buy a Thorn Seed. I give my Thorn Seed to Bob."),
    (
        9,
        30,
        "Carol",
        "I give 900~ to Alice. I give 5~ to Carol. I give 5~ to Zed. I give 5~ to the Store. "
        "I give 1 Temporary Honor to Alice.",
    ),
    (
        9,
        40,
        "Bob",
        "I give my Garden to Alice. I give my Vine to Alice. I give my Pot of Gold to Alice. "
        "I give my Huge Seed to Alice.",
    ),
    (9, 50, "Carol", "Bob may pick from my Garden this nweek.\nI make a Bloody Harry."),
)
# (outcome, rule, what the ruling says), in the order of the posts.
EXPECTED = [
    ("applied", "13", "Alice gave 50~ to Bob; Alice now holds 450~, Bob now holds 550~"),
    ("applied", "13", "Alice gave 20~ to Carol; Alice now holds 430~, Carol now holds 520~"),
    ("applied", "13", "Alice gave 1 point to Bob; Alice now holds 0 points, Bob now holds 2"),
    ("applied", "13", "Alice gave 2BW to Carol; Alice now holds 2BW, Carol now holds 6BW"),
    ("applied", "13", "Bob gave 30~ to Carol; Bob now holds 520~, Carol now holds 550~"),
    ("applied", "13", "Bob gave 5~ to Alice; Bob now holds 515~, Alice now holds 435~"),
    ("rejected", "21", "you hold 550~, less than the 900~ you give"),
    ("rejected", "13", "a gift to oneself moves nothing"),
    ("rejected", "2", 'no player called "Zed"; the players are listed by the roster'),
    ("rejected", "13", "the Store is not a player"),
    ("rejected", "1899", "Renown may not be given away, it must be earned"),
    ("rejected", "1902 A", "Gardens may not be given away"),
    ("rejected", "1902 A", "Plants must always be in gardens"),
    ("rejected", "1917 A", "may not give or sell it to anyone, ever"),
]


@dataclass(frozen=True)
class Gifts:
    scratch: App
    replayed: App


def records(app: App, prefix: str) -> list[tuple[str, str, str, str]]:
    with app.session_factory() as session:
        rows = session.scalars(
            select(ActionRecord)
            .where(ActionRecord.action.like(f"{prefix}%"))
            .order_by(ActionRecord.occurred_at, ActionRecord.id)
        )
        return [(r.action, r.ruling, r.rule, r.summary or r.reason) for r in rows]


def shown(app: App, name: str) -> object:
    with app.session_factory() as session:
        return game_view(session, app.services, name, at=END).data


@pytest.fixture(scope="module")
def gifts(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gifts]:
    folder = tmp_path_factory.mktemp("gifts")
    table = Table(recording_app(settings(folder / "scratch")), [])
    advance_to(table.app, day(1, 0, 1))
    for hour, minute, author, body in POSTS:
        table.post(day(1, hour, minute), author, body)
    advance_to(table.app, END)
    archive = list_archive(table.app, table.posts, folder / "list.mbox")
    fresh = settings(folder / "replay")
    published = table.app.settings.data_path / GENERATED_RECORD
    replayed = build_app(replace(fresh, trust=replace(fresh.trust, key_file=str(published))))
    replay_archive(replayed, archive, MaildirTransport(folder / "replayed"), until=END)
    yield Gifts(table.app, replayed)
    for app in (table.app, replayed):
        app.dispose()


def test_currencies_are_given_and_refused_with_their_rules(gifts: Gifts) -> None:
    judged = records(gifts.scratch, "give.")
    assert len(judged) == len(EXPECTED)
    for ruling, (wanted, cited, fragment) in zip(judged, EXPECTED, strict=True):
        assert ruling[1:3] == (wanted, cited), ruling
        assert fragment in ruling[3]


def test_the_gardens_judge_gifts_of_their_objects(gifts: Gifts) -> None:
    given, refused = records(gifts.scratch, "garden.give")
    assert given == ("garden.give", "applied", "13", "Alice gave Thorn Seed 4 to Bob")
    assert refused[1:3] == ("rejected", "13") and "you hold no Huge Seed" in refused[3]
    bobs = economy(gifts.scratch).garden.fruit_held_by("Bob")
    assert [(fruit.kind, fruit.number) for fruit in bobs] == [("Thorn Seed", 4)]


def test_a_permission_without_i_and_a_potion_made(gifts: Gifts) -> None:
    permit, make = records(gifts.scratch, "garden.permit") + records(gifts.scratch, "garden.mix")
    assert permit[1:3] == ("applied", "636")
    assert "Carol permits Bob to pick from Carol's Garden" in permit[3]
    assert make[1:3] == ("rejected", "1914 C.1")  # Bloody Harry's Recipe


def test_the_list_archive_alone_gives_the_same_balances_objects_and_rulings(gifts: Gifts) -> None:
    for view in ("holdings", "inventory", "garden", "store"):
        assert shown(gifts.replayed, view) == shown(gifts.scratch, view), view
    for prefix in ("give.", "garden."):
        assert records(gifts.replayed, prefix) == records(gifts.scratch, prefix)
