"""More Plants (seed 004, rule 1918) by mail, in a game that keeps it.

Three players over three nweeks, with ``[garden] more_plants = true``: the
game begins with a Blood Fern in the Town Square (1918 A's invariant).  In
nweek 1 Alice imports a Lemon Tree into her Garden for 60~ (1918 B), buys a
Thorn Seed and waters every Checking Period; Carol's "I plant a Huge Seed"
and her Alchemy are refused (1918 C, D).  In nweek 2 the Lemon Tree bears a
Lemon and the Fern a Blood Spore (1902 B): Alice picks and ferments both
(1913), mixes her Thorn Seed, Lemon Drink and Blood Spore Drink into a Huge
Seed (1918 D) and plants it in her Garden: a Young Sasquash Pod (1918 C).
Carol's Hungry Bunny raids the Town Square (a recorded draw; the Lemon Tree
would be safe from it, 1918 B).  In nweek 3 Bob picks the Town Square's
Blood Spore and plants it there (1918 A).  Two nweeks after its planting,
between two Checkpoints, the Pod Hatches and Alice gets a Sasquash: the
scheduler mails the event to the list.

A second game, which does not keep rule 1918, answers the same sentences
with a ruling saying so; then it turns the rule on, and its next action
brings the Blood Fern (1918 A's invariant, restored after every action and
event: without an action, the next Checkpoint would).

The posts are played against a scratch bot, then reach a second bot over
real IMAP (Dovecot); every mail to the list is pinned by a golden file; the
list archive alone, replayed into a fresh database, gives the same state
and mails, and ``verify-dice`` re-derives every draw from it.

Refresh the golden files after a deliberate change with
    NOMICBOT_UPDATE_GOLDEN=1 .venv/bin/pytest tests/engine/garden
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path

import pytest
from sqlalchemy import select

from bot.app import App
from bot.audit import verify_archive
from bot.config import DEFAULT_GAMES, GamesSettings, Settings
from bot.engine.views import views_of
from bot.runner import advance_to
from bot.store.models import Message
from bot.testing.apps import game_settings
from bot.testing.dovecot import DovecotServer
from bot.testing.goldens import check_golden
from bot.testing.records import recording_app
from tests.engine.garden.test_garden_by_mail import (
    Table,
    day,
    economy,
    every_view,
    list_mails,
    live_and_replayed,
    rulings,
)

GOLDEN = Path(__file__).parent / "golden" / "more_plants"
END = day(31, 10)  # an hour after the Pod Hatches (planted day 11, 09:00)
TURNED_ON = day(2, 9)  # when the game without rule 1918 turns it on
WATER = "I water my Garden."
SENTENCES_OF_RULE_1918 = (
    "I import a Lemon Tree into my Garden. I plant a Blood Spore in the Town Square. "
    "I plant a Huge Seed. I mix a Thorn Seed, a Lemon Drink and a Blood Spore Drink together. "
    "I ferment my Lemon. I use two Lemon Drinks on this Jet."
)
# (day, hour, minute, player, body): Checkpoints fall at 00:00 on days 4, 8, 11, 14, 18, 21...
POSTS: tuple[tuple[int, int, int, str, str], ...] = (
    *(
        (1, 8, minute, name, f"I want to become a player named {name}.")
        for minute, name in ((0, "Alice"), (5, "Bob"), (10, "Carol"))
    ),
    (
        1,
        9,
        0,
        "Alice",
        "I import a Lemon Tree into my Garden. I buy a Thorn Seed. " + WATER,
    ),
    (
        1,
        9,
        10,
        "Carol",
        "I plant a Huge Seed. I mix a Thorn Seed, a Lemon Drink and a Blood Spore Drink together.",
    ),
    (5, 9, 0, "Alice", WATER),
    (9, 9, 0, "Alice", WATER),
    # nweek 2: the Lemon Tree bears a Lemon, the Blood Fern a Blood Spore (1902 B).
    (
        11,
        9,
        0,
        "Alice",
        "I pick a Lemon from my Garden. I ferment my Lemon. "
        "I pick a Blood Spore from the Town Square. I ferment my Blood Spore. "
        "I mix a Thorn Seed, a Lemon Drink and a Blood Spore Drink together. "
        "I plant a Huge Seed in my Garden. " + WATER,
    ),
    (12, 9, 0, "Carol", "I buy a Hungry Bunny. I use my Hungry Bunny on the Town Square."),
    (15, 9, 0, "Alice", WATER),
    (19, 9, 0, "Alice", WATER),
    # nweek 3: a Blood Spore again, planted in the Town Square (1918 A).
    (
        21,
        9,
        0,
        "Bob",
        "I pick a Blood Spore from the Town Square. I plant a Blood Spore in the Town Square.",
    ),
    (21, 9, 10, "Alice", WATER),
    (25, 9, 0, "Alice", WATER),
    (29, 9, 0, "Alice", WATER),
)


def settings(folder: Path, *, more_plants: bool = True) -> Settings:
    games = GamesSettings(enabled=(*DEFAULT_GAMES, "garden"))
    base = game_settings(folder, games=games)
    # The one line that keeps rule 1918 in this game.
    return replace(base, players=(), game_sections={"garden": {"more_plants": more_plants}})


@dataclass(frozen=True)
class World:
    scratch: App
    live: App
    replayed: App
    archive: Path
    without: App  # a game that does not keep rule 1918, then does


def played(
    posts: tuple[tuple[int, int, int, str, str], ...], app: App, until: datetime = END
) -> Table:
    table = Table(app, [])
    advance_to(table.app, day(1, 0, 1))
    for number, hour, minute, author, body in posts:
        table.post(day(number, hour, minute), author, body)
    advance_to(table.app, until)
    return table


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory, dovecot: DovecotServer) -> Iterator[World]:
    folder = tmp_path_factory.mktemp("more-plants")
    table = played(POSTS, recording_app(settings(folder / "scratch")))
    live, archive, replayed = live_and_replayed(table, folder, dovecot, settings, END)
    without_posts = (POSTS[0], (1, 9, 0, "Alice", SENTENCES_OF_RULE_1918))
    without_rule = recording_app(settings(folder / "off", more_plants=False))
    off = played(without_posts, without_rule, until=TURNED_ON)
    off.app.dispose()
    # The same game turns rule 1918 on: the setting is read at each load, not stored.
    turned_on = Table(recording_app(settings(folder / "off", more_plants=True)), off.posts)
    turned_on.post(TURNED_ON, "Alice", "I import a Lemon Tree into my Garden.")
    without = turned_on.app
    yield World(table.app, live, replayed, archive, without)
    for app in (table.app, live, replayed, without):
        app.dispose()


def ruling_of(app: App, fragment: str) -> tuple[str, str, str]:
    (found,) = [ruling for ruling in rulings(app) if fragment in ruling[2]]
    return found


def test_the_game_begins_with_a_blood_fern_in_the_town_square(world: World) -> None:
    # The game begins with Alice's first action, and its reply says so (rule 1918 A).
    (begun,) = [body for _, _, body in list_mails(world.scratch) if "Gardens begin" in body]
    assert "so a Blood Fern is created in the Town Square:" in begun
    assert economy(world.scratch).garden.plant(2).kind == "Blood Fern"


def test_a_lemon_tree_imported_its_lemon_picked_and_fermented(world: World) -> None:
    imported = ruling_of(world.scratch, "to import a Lemon Tree from further south")
    assert imported[:2] == ("garden.import", "applied")
    assert "Alice paid 60~" in imported[2] and "into Alice's Garden" in imported[2]
    picked = ruling_of(world.scratch, "Alice picked Lemon")
    assert picked[:2] == ("garden.pick", "applied")
    fermented = ruling_of(world.scratch, "into Lemon Drink")
    assert fermented[:2] == ("garden.ferment", "applied")


def test_alchemy_makes_a_huge_seed_which_is_planted(world: World) -> None:
    mixed = ruling_of(world.scratch, "together: Huge Seed")
    assert mixed[:2] == ("garden.mix", "applied")
    assert "Thorn Seed 4, Lemon Drink 9, Blood Spore Drink 10" in mixed[2]
    planted = ruling_of(world.scratch, "a Young Sasquash Pod")
    assert planted[:2] == ("garden.plant_huge_seed", "applied")
    assert "in Alice's Garden" in planted[2]


def test_a_blood_spore_planted_in_the_town_square(world: World) -> None:
    planted = [r for r in rulings(world.scratch) if r[0] == "garden.plant"]
    assert [r[1] for r in planted] == ["applied"]
    assert "Bob planted Blood Spore" in planted[0][2] and "a new Blood Fern" in planted[0][2]


def test_refusals_cite_rule_1918(world: World) -> None:
    refused = [r for r in rulings(world.scratch) if r[1] == "rejected"]
    assert [r[0] for r in refused] == ["garden.plant_huge_seed", "garden.mix"]
    assert refused[0][2] == "you hold no Huge Seed"
    assert refused[1][2] == "you hold no Lemon Drink to mix"
    # The replies cite the rules that refuse: 1918 C's planting, 1918 D's Alchemy.
    (reply,) = [body for _, _, body in list_mails(world.scratch) if "Lemon Drink to mix" in body]
    assert "you hold no Huge Seed (rule 1918 C)" in reply
    assert "you hold no Lemon Drink to mix (rule 1918 D)" in reply


def test_the_pod_hatches_on_time_between_checkpoints(world: World) -> None:
    (hatching,) = [
        (subject, body)
        for kind, subject, body in list_mails(world.scratch)
        if kind == "garden-checkpoint" and "Hatches" in body
    ]
    subject, body = hatching
    # Planted at day 11, 09:00: two nweeks later, at day 31, 09:00, no Checkpoint.
    assert subject == "[gardens] The events of nweek 4, nday 1, 09:00:00", subject
    assert "Alice gets a Sasquash" in body and "(rule 1918 C)" in body
    held = [item.kind for item in economy(world.scratch).store.held_by("Alice")]
    assert held == ["Sasquash"]


def test_a_game_without_rule_1918_says_so_until_it_turns_it_on(world: World) -> None:
    *refused, imported = rulings(world.without)
    assert len(refused) == 6 and all(r[1] == "rejected" for r in refused), refused
    assert all("rule 1918 (More Plants) is not in play in this game" in r[2] for r in refused)
    # Turned on, the game's next action restores 1918 A's invariant.
    assert imported[:2] == ("garden.import", "applied")
    assert "no Blood Ferns or Blood Spores existed, so a Blood Fern is created" in imported[2]
    assert economy(world.without).garden.count_of("Blood Fern", None) == 1


def test_draws_are_verified_from_the_archive(world: World) -> None:
    raid = ruling_of(world.scratch, "raids the Town Square")
    assert "kind=choice" in raid[2]
    report = verify_archive(world.archive)
    assert report.ok, report.lines
    assert (report.checked, report.unrevealed) == (1, 0), report.summary


def test_the_bot_over_imap_rules_the_same(world: World) -> None:
    assert rulings(world.live) == rulings(world.scratch)
    assert economy(world.live) == economy(world.scratch)
    for name in views_of(world.scratch.services.games):
        assert every_view(world.live, name) == every_view(world.scratch, name), name


def test_the_list_archive_alone_gives_the_same_state_and_mails(world: World) -> None:
    with world.replayed.session_factory() as session:
        statuses = session.scalars(select(Message.status)).all()
    assert "refused" not in statuses and "shunted" not in statuses
    assert economy(world.replayed) == economy(world.scratch)
    for name in views_of(world.scratch.services.games):
        assert every_view(world.replayed, name) == every_view(world.scratch, name), name
    assert list_mails(world.replayed) == list_mails(world.scratch)


def test_golden_rulings_and_every_list_mail(world: World) -> None:
    check_golden(
        GOLDEN / "rulings.txt",
        "".join(f"{a} | {r} | {reason}\n" for a, r, reason in rulings(world.live)),
    )
    mails = [f"{kind} | {subject}\n{body}" for kind, subject, body in list_mails(world.live)]
    check_golden(GOLDEN / "mails.txt", "\n=====\n".join(mails))
    off = [f"{a} | {r} | {reason}\n" for a, r, reason in rulings(world.without)]
    check_golden(GOLDEN / "rulings_without_rule_1918_then_with_it.txt", "".join(off))
