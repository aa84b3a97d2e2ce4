"""The Drinks' state stored and read back exactly, forfeits, and the package's purity."""

from __future__ import annotations

import json

import pytest

from bot.games.dice import DrawSource
from bot.games.drinks import (
    BLOODY_HARRY,
    OBJECT_TYPES,
    RAINBOW_POTION,
    Category,
    DrinksState,
    drink,
    state_from_json,
    state_to_json,
)
from bot.games.economy import Moment
from bot.games.garden import start
from bot.games.objects import check_transfer, player_holder

WHEN = Moment.at(2, 4, 90)
SEED = bytes(range(32))


def lived_in() -> DrinksState:
    """A BAC, Drinks held, a Potion's effects, a Rainbow walk and a failed check's bar."""
    state = DrinksState(garden=start(("alice", "bob"), Moment.nweek_start(0)).state)
    state = state.with_items(
        (
            ("Tomato Drink", Category.DRINK),
            (BLOODY_HARRY, Category.POTION),
            (RAINBOW_POTION, Category.POTION),
        ),
        "alice",
        WHEN,
    )
    _tomato_drink, harry, rainbow = (item.number for item in state.items)
    state = drink(state, "alice", harry, WHEN, DrawSource(SEED, "a")).state
    state = drink(state, "alice", rainbow, WHEN, DrawSource(SEED, "b")).state
    state = state.with_bac("bob", 9).with_items(
        (("Thorn Seed Drink", Category.DRINK),), "bob", WHEN
    )
    for index in range(50):  # bob fails a check (with BAC 9, most rolls do)
        tried = drink(state, "bob", state.last_number(), WHEN, DrawSource(SEED, f"c{index}"))
        if not tried.performed:
            return tried.state
    raise AssertionError("no failing roll found")


def test_the_state_survives_json_exactly() -> None:
    state = lived_in()
    data = json.loads(json.dumps(state_to_json(state)))
    assert state_from_json(data) == state
    assert data["format"] == "drinks/1" and data["garden"]["format"] == "gardens/1"
    with pytest.raises(ValueError):
        state_from_json({**data, "format": "gardens/1"})
    with pytest.raises(ValueError):
        state_from_json({**data, "items": [[1, "Tomato Drink"]]})


def test_a_forfeiting_player_loses_eir_drinks_bac_and_rainbow() -> None:
    # Rule 14: a player who forfeits "loses all game defined properties".
    state = lived_in().without_player("alice")
    assert state.held_by("alice") == () and state.rainbow_walks == ()
    assert all(effect.subject != "alice" for effect in state.garden.effects.items)
    assert state.bac == (("bob", 9),) and state.players == ("bob",)


def test_drinks_potions_and_concoctions_are_given_as_rule_13_allows() -> None:
    # Rule 13: "Players are capable of possessing any Object and of transferring any Object
    # they possess"; rules 1913-1915 say nothing otherwise.
    alice, bob = player_holder(1), player_holder(2)
    for category, object_type in OBJECT_TYPES.items():
        check_transfer(object_type, {}, alice, bob, mover=alice, destination_text="bob")
        assert object_type.rule == {"Drink": "1913", "Potion": "1914 A"}.get(category.value, "1915")
