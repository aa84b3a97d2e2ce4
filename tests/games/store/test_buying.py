"""The Store's Inventory, prices and buying (rule 1911), and the settings that change them.

Rule 1911: "Any player may Buy an object from the Store as a Game Action.  To do
this, e must select any type of object in the Inventory and give a quantity of
tildex equal to the price of said object to the Store.  The Store then creates an
instance of that object type and gives it to the purchasing player."
"""

from __future__ import annotations

import pytest

from bot.games.economy import Moment, Payment
from bot.games.errors import IllegalActionError
from bot.games.garden import GardenState, plant, start
from bot.games.store import (
    StoreState,
    buy,
    price_for,
    render_held,
    render_price_list,
    set_listed,
    set_price,
    state_from_json,
    state_to_json,
    welcome,
)
from bot.games.store.state import garden_target, player_target

NOW = Moment.at(0, 1)


def gardens() -> GardenState:
    """alice and bob at the game's start: Plant 1 is the Town Square's Thorn Bush."""
    return start(("alice", "bob"), Moment.nweek_start(0)).state


def test_the_price_list_is_rule_1911s_with_200_where_no_price_is_given() -> None:
    # "If an object's price isn't specified elsewhere in the rules, then it has a price of
    # 200~": the Air Jet and the Flame Thrower are listed without one.
    assert render_price_list(StoreState(), NOW) == (
        "The Store's Inventory at nweek 1, nday 2 (rule 1911)\n"
        "\n"
        "  Thorn Seed      130~\n"
        "  Fluffy Bunny    250~\n"
        "  Hungry Bunny    100~\n"
        "  Ninja Bunny     350~\n"
        "  Smoke Bomb      140~\n"
        "  Shieldkit       200~\n"
        "  Water Jet       200~  or free to New Players\n"
        "  Air Jet         200~  (no price given: rule 1911's 200~)\n"
        "  Flame Thrower   200~  (no price given: rule 1911's 200~)\n"
        "  Rock             50~\n"
    )


def test_buying_gives_the_price_to_the_store_and_an_instance_to_the_buyer() -> None:
    outcome = buy(StoreState(), gardens(), "alice", "Fluffy Bunny", NOW)
    assert [item.label() for item in outcome.store.held_by("alice")] == ["Fluffy Bunny 2"]
    assert outcome.payments == (
        Payment("alice", -250, "tildex", "1911", "buying a Fluffy Bunny"),
        Payment("the Store", 250, "tildex", "1911", "alice buying a Fluffy Bunny"),
    )
    assert [h.text for h in outcome.happenings] == [
        "alice bought a Fluffy Bunny from the Store for 250~: Fluffy Bunny 2"
    ]
    # Numbered in the Gardens' series: the next Fruit or Plant is number 3.
    assert outcome.gardens.next_number == 3


def test_buying_several_is_that_many_purchases_in_one_ruling() -> None:
    outcome = buy(StoreState(), gardens(), "bob", "smoke bombs", NOW, quantity=2)
    assert render_held(outcome.store, "bob") == "bob holds: Smoke Bomb 2, Smoke Bomb 3"
    assert [p.amount for p in outcome.payments] == [-280, 280]
    assert outcome.happenings[0].text == (
        "bob bought 2 Smoke Bombs from the Store for 280~: Smoke Bomb 2, Smoke Bomb 3"
    )
    with pytest.raises(IllegalActionError):
        buy(StoreState(), gardens(), "bob", "Rock", NOW, quantity=0)


def test_a_thorn_seed_bought_is_a_fruit_held_and_can_be_planted() -> None:
    # "Thorn Seeds: 130~ These are defined by r1909": a Fruit, planted in one's own Garden.
    outcome = buy(StoreState(), gardens(), "alice", "Thorn Seed", NOW)
    (seed,) = outcome.gardens.fruit_held_by("alice")
    assert seed.label() == "Thorn Seed 2"
    assert outcome.store.items == ()
    planted = plant(outcome.gardens, "alice", seed.number, "alice", Moment.at(0, 2)).state
    assert [p.kind for p in planted.plants_in("alice")] == ["Thorn Bush"]


def test_only_the_inventorys_types_are_bought() -> None:
    # "e must select any type of object in the Inventory"
    with pytest.raises(IllegalActionError, match="not on the Store's Inventory") as raised:
        buy(StoreState(), gardens(), "alice", "Huge Seed", NOW)
    assert raised.value.rule == "1911"
    with pytest.raises(IllegalActionError, match="no rule defines"):
        buy(StoreState(), gardens(), "alice", "Magic Beans", NOW)
    with pytest.raises(IllegalActionError, match="carol is not a player"):
        buy(StoreState(), gardens(), "carol", "Rock", NOW)


def test_prices_and_the_inventory_are_settings_an_admin_record_changes() -> None:
    store, said = set_price(StoreState(), "Rock", 75, "admin record 12")
    assert said.text == "the Store's price of a Rock is now 75~ (admin record 12)"
    assert [p.amount for p in buy(store, gardens(), "alice", "Rock", NOW).payments] == [-75, 75]
    # Unspecified again: rule 1911's default.
    store, said = set_price(store, "Rock", None, "admin record 13")
    assert said.text == "the Store's price of a Rock is now 200~ (admin record 13)"
    store, said = set_listed(store, "Smoke Bombs", False, "admin record 14")
    assert said.text == "Smoke Bombs are now off the Store's Inventory (admin record 14)"
    with pytest.raises(IllegalActionError, match="not on the Store's Inventory"):
        buy(store, gardens(), "alice", "Smoke Bomb", NOW)
    assert "Smoke Bomb" not in render_price_list(store, NOW)
    with pytest.raises(IllegalActionError, match="no price may be -1~"):
        set_price(store, "Rock", -1, "admin record 15")


def test_a_new_player_has_one_free_water_jet() -> None:
    # 1911: "Water Jet: 200~ or free to New Players"; 1912: "New Players are given a Water
    # Jet automatically".  One in all: bought free if not given, and given only once.
    store = StoreState()
    first = buy(store, gardens(), "bob", "Water Jet", NOW, new_player=True, quantity=2)
    assert [p.amount for p in first.payments] == [-200, 200]
    assert first.happenings[0].text == (
        "bob bought 2 Water Jets from the Store for 200~: Water Jet 2, Water Jet 3 "
        "(one Water Jet is free to a New Player)"
    )
    given = welcome(first.store, first.gardens, "bob", NOW)
    assert given.happenings == () and given.store == first.store
    welcomed = welcome(store, gardens(), "alice", NOW)
    assert welcomed.happenings[0].text == "alice, a New Player, is given a Water Jet: Water Jet 2"
    again = buy(welcomed.store, welcomed.gardens, "alice", "Water Jet", NOW, new_player=True)
    assert [p.amount for p in again.payments] == [-200, 200]
    water_jet = store.inventory.article("Water Jet")
    assert price_for(store, water_jet, "carol", new_player=False) == 200


def test_the_store_state_round_trips_through_json() -> None:
    outcome = buy(StoreState(), gardens(), "alice", "Ninja Bunny", NOW)
    store, _ = set_price(outcome.store, "Rock", 10, "admin record 1")
    store = store.with_target(garden_target(None), 0).with_target(player_target("bob"), 0)
    assert state_from_json(state_to_json(store)) == store
    with pytest.raises(ValueError, match="not a store/1 state"):
        state_from_json({"format": "gardens/1"})
