"""The one gift of grammar/give.lark (rule 13) and how it reaches the game that owns the object.

A gift of an object whose noun an enabled game's area names (``Area.gifts``)
is read as that game's ``<namespace>.give``; any other stays ``give.object``
for the object types the games declare (``bot.engine.transfers``).  Amounts
are read as rule 21 A.2 writes tildex ("Y~, ~Y, ~ Y, or Y ~"), rule 212
Bandwidth ("XBW") and rule 1899 Renown.
"""

from __future__ import annotations

import pytest

from bot.engine import objects
from bot.engine.games import cards_deals, garden, knucklebones
from bot.games.errors import IllegalActionError
from bot.games.objects import check_currency_gift, never_transferable, type_named_by
from bot.parser import parse_post
from bot.parser.area import Area
from bot.parser.areas import AREAS
from bot.parser.areas import garden as garden_area
from bot.parser.areas.give import amount_of

WITH_GARDENS = (*AREAS, garden_area.AREA)


def read(text: str, areas: tuple[Area, ...] = AREAS) -> list[tuple[str, dict[str, object]]]:
    # With the Gardens enabled their game referees the catch-all's gifts of their objects.
    refereed = frozenset({"garden_objects"}) if garden_area.AREA in areas else frozenset()
    found = parse_post(text, areas=areas, refereed_subgames=refereed)
    assert found.not_understood == ()
    return [(action.action, dict(action.args)) for action in found.actions]


@pytest.mark.parametrize(
    ("written", "amount"),
    [
        ("50~", (50, "tildex")),
        ("~50", (50, "tildex")),
        ("~ 50", (50, "tildex")),
        ("50 ~", (50, "tildex")),
        ("50 tildex", (50, "tildex")),
        ("1 tilde", (1, "tildex")),
        ("3 points", (3, "points")),
        ("a point", (1, "points")),
        ("two points", (2, "points")),
        ("2BW", (2, "bandwidth")),
        ("2 Bandwidth Chits", (2, "bandwidth")),
        ("1 Temporary Honour", (1, "renown:Honor:temporary")),
        ("2 Permanent Wisdom", (2, "renown:Wisdom:permanent")),
        ("1 Glory", (1, "renown:Glory:temporary")),
        ("a Win", (1, "renown:Glory:permanent")),
        ("3 Renown", (3, "renown")),
    ],
)
def test_amounts_are_read_as_the_rules_write_them(written: str, amount: tuple[int, str]) -> None:
    assert amount_of(written) == amount


def test_a_gift_of_a_gardens_object_goes_to_the_gardens_only_when_they_are_enabled() -> None:
    text = "I give my Huge Seed 14 to Bob."
    routed = ("garden.give", {"kind": "Huge Seed", "number": 14, "recipient": "Bob"})
    assert read(text, WITH_GARDENS) == [routed]
    unrefereed = {"subgame": "Abstract Objects", "rule": "13", "seed": "004"}
    assert read(text) == [("unrefereed.garden_objects", unrefereed)]


@pytest.mark.parametrize(
    "noun",
    ["Thorn Seed", "Rotten Tomato", "Lemon", "Blood Spore Drink", "Thorn Drink", "Sasquash",
     "Huge Seed", "Bloody Harry", "Waterspout Concoction", "Ninja Bunny", "Flame Thrower"],
)  # fmt: skip
def test_every_object_the_gardens_keep_is_theirs_to_judge(noun: str) -> None:
    ((action, args),) = read(f"I transfer my {noun} to Carol.", WITH_GARDENS)
    assert (action, args["kind"]) == ("garden.give", noun)


@pytest.mark.parametrize("noun", ["Garden", "Vine", "Sasquash Pod", "Pot of Gold", "Handy Pack"])
def test_what_the_gardens_do_not_keep_stays_a_gift_of_a_declared_type(noun: str) -> None:
    ((action, args),) = read(f"I give my {noun} to Carol.", WITH_GARDENS)
    assert (action, args["kind"]) == ("give.object", noun)


def test_each_noun_finds_the_type_its_game_declared() -> None:
    declared = objects.declared_types()
    assert type_named_by("handy packs", declared) is knucklebones.HANDY_PACK
    assert type_named_by("Chip", declared) is knucklebones.CHIP
    assert type_named_by("Red QH", declared) is cards_deals.CARD
    assert type_named_by("queen of hearts", declared) is cards_deals.CARD
    assert type_named_by("Garden", declared) is garden.GARDEN_TYPE
    assert type_named_by("thorn bush", declared) is garden.PLANT_TYPE
    assert type_named_by("sword", declared) is None
    for refused in (cards_deals.CARD, garden.GARDEN_TYPE, garden.PLANT_TYPE):
        assert never_transferable(refused)
    assert not never_transferable(knucklebones.HANDY_PACK)


@pytest.mark.parametrize("currency", ["tildex", "points", "bandwidth"])
def test_tildex_points_and_bandwidth_may_be_given(currency: str) -> None:
    assert check_currency_gift(currency) is None  # it raises for Renown (below)


@pytest.mark.parametrize("currency", ["renown", "renown:Honor:temporary", "renown:Glory:permanent"])
def test_renown_may_not_be_given_away(currency: str) -> None:
    with pytest.raises(IllegalActionError) as refused:
        check_currency_gift(currency)
    assert (refused.value.rule, refused.value.message) == (
        "1899",
        "Renown may not be given away, it must be earned",
    )
