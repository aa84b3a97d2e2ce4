"""Waterspouts (rule 1915, seed 004): the Concoction, pouring it, and the -8~ Watering Cost.

Rule 1915: "Waterspouts are Plants.  They have a Watering Cost of -8~; that
is, the total per-checkpoing watering and weeding costs for a Garden is
reduced by 8~ for every Waterspout in that garden.  If this results in
negative costs, the cost is treated as 0 (so the owner of a Garden
containing only Waterspouts does not gain Tildex for it)."
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.games.dice import DrawSource
from bot.games.drinks import (
    CONCOCTION,
    Category,
    DrinksState,
    concoction_ingredients,
    drink,
    mix,
    pour,
    run_timed,
)
from bot.games.economy import Moment, PossibleLaterError
from bot.games.errors import IllegalActionError
from bot.games.garden import Fruit, plant, render_gardens, start, water

NWEEK = 3
WHEN = Moment.at(NWEEK, 5)
SEED = bytes(range(32))


def mixable(*, rotten: bool = True) -> tuple[DrinksState, int, int]:
    """alice and bob; alice holds a Thorn Seed Drink and a (Rotten) Tomato; bob's Garden
    has a Vine (Plant 2) and a Thorn Bush (Plant 3); the Town Square its Thorn Bush
    (Plant 1).  Returns the state, the Drink's number and the Tomato's."""
    gardens = start(("alice", "bob"), Moment.nweek_start(0)).state
    gardens = gardens.with_plants((("Vine", "bob"), ("Thorn Bush", "bob")), Moment.at(0, 2))
    tomato = Fruit(gardens.next_number, "Tomato", Moment.nweek_start(NWEEK - 1), holder="alice")
    gardens = replace(
        gardens,
        fruits=(replace(tomato, rotten=rotten),),
        next_number=gardens.next_number + 1,
    )
    state = DrinksState(garden=gardens)
    state = state.with_items((("Thorn Seed Drink", Category.DRINK),), "alice", WHEN)
    return state, state.last_number(), tomato.number


def test_mixing_destroys_the_drink_the_tomato_and_30_tildex_into_a_concoction() -> None:
    # "Any player holding a Thorn Seed Drink, a Rotten Tomato, and at least 30~, and whose
    # Avatar is adjacent to a Cube Filled with Water, may mix the Tomato and the Tildex into
    # the Thorn Drink [...] This destroys the Drink, the Tomato, and the Tildex."
    state, thorn_drink, tomato = mixable()
    assert concoction_ingredients(state, "alice") == (thorn_drink, tomato)
    outcome = mix(state, "alice", thorn_drink, tomato, WHEN, avatar_beside_water=True)
    assert [item.label() for item in outcome.state.held_by("alice")] == [
        f"{CONCOCTION} {thorn_drink + 1}"
    ]
    assert not outcome.state.has_object(tomato) and not outcome.state.has_object(thorn_drink)
    assert [(p.holder, p.amount, p.currency, p.rule) for p in outcome.payments] == [
        ("alice", -30, "tildex", "1915")
    ]
    assert outcome.happenings[0].text == (
        f"alice mixed Rotten Tomato {tomato} and 30~ into Thorn Seed Drink {thorn_drink} and "
        f"dipped it in the Water: Waterspout Concoction {thorn_drink + 1}"
    )


def test_each_condition_of_the_mixing() -> None:
    state, thorn_drink, tomato = mixable()
    with pytest.raises(IllegalActionError) as refused:
        mix(state, "alice", thorn_drink, tomato, WHEN, avatar_beside_water=False)
    assert (refused.value.rule, str(refused.value)) == (
        "1915",
        "your Avatar must be adjacent to a Cube Filled with Water to dip the mixture in",
    )
    with pytest.raises(IllegalActionError):  # bob holds neither
        mix(state, "bob", thorn_drink, tomato, WHEN, avatar_beside_water=True)
    fresh, thorn_drink, tomato = mixable(rotten=False)
    with pytest.raises(PossibleLaterError) as not_yet:
        mix(fresh, "alice", thorn_drink, tomato, WHEN, avatar_beside_water=True)
    assert not_yet.value.possible_from == Moment.nweek_start(NWEEK)  # it rots then
    tomato_drink = state.with_items((("Tomato Drink", Category.DRINK),), "alice", WHEN)
    with pytest.raises(IllegalActionError):
        mix(
            tomato_drink,
            "alice",
            tomato_drink.last_number(),
            tomato,
            WHEN,
            avatar_beside_water=True,
        )


def concocted() -> tuple[DrinksState, int]:
    state, thorn_drink, tomato = mixable()
    state = mix(state, "alice", thorn_drink, tomato, WHEN, avatar_beside_water=True).state
    return state, state.last_number()


def test_pouring_turns_any_plant_into_a_waterspout_and_the_cost_floors_at_0() -> None:
    # "A Waterspout Concoction may be poured on any Plant to turn that Plant into a
    # Waterspout (it ceases to be whatever other type of plant it was)."
    state, concoction = concocted()
    assert state.garden.gardening_cost("bob") == 11
    outcome = pour(state, "alice", concoction, 2, WHEN)  # bob's Vine
    assert outcome.happenings[0].text == (
        f"alice poured Waterspout Concoction {concoction} on Plant 2 (Vine) in bob's Garden: "
        "it is now a Waterspout, Watering Cost -8~"
    )
    assert outcome.state.held_by("alice") == ()  # poured out
    gardens = outcome.state.garden
    assert gardens.gardening_cost("bob") == 0  # 6 - 8, treated as 0
    assert render_gardens(gardens, WHEN).splitlines()[5:8] == [
        "bob's Garden: Gardening Cost 0~, paid for watering 0~ this Checking Period",
        "  Plant 2   Waterspout -8~  planted nweek 1, nday 3   no Fruit",
        "  Plant 3   Thorn Bush 6~  planted nweek 1, nday 3   no Fruit",
    ]
    with pytest.raises(IllegalActionError) as refused:  # nothing to pay, nothing to gain
        water(gardens, "bob", "bob", WHEN)
    assert refused.value.rule == "1915"
    with pytest.raises(IllegalActionError):
        drink(outcome.state, "alice", concoction, WHEN, DrawSource(SEED, "c"))


def test_unpaid_watering_destroys_plants_until_the_floored_cost_is_paid() -> None:
    # 1902 A's settlement against the Gardening Cost as 1915 reduces it: Vine 5 + Thorn
    # Bush 6 + Waterspout -8 is 3~; unpaid, the Thorn Bush goes, and 0~ is then paid.
    state, concoction = concocted()
    gardens = state.garden.with_plants((("Vine", "bob"),), WHEN)
    state = replace(state, garden=gardens)
    state = pour(state, "alice", concoction, 2, WHEN).state
    assert state.garden.gardening_cost("bob") == 3
    outcome = run_timed(state, Moment.at(NWEEK, 7), DrawSource(SEED, "checkpoint"))
    assert [p.kind for p in outcome.state.garden.plants_in("bob")] == ["Waterspout", "Vine"]
    assert [h.text for h in outcome.happenings if h.rule == "1902 A"] == [
        "bob's Garden: 0~ paid for watering, Gardening Cost 3~: Plant 3 (Thorn Bush) is destroyed"
    ]


def test_a_waterspout_bears_water_pods_which_cannot_be_planted() -> None:
    # "Water Pods are Fruits, produced by Waterspouts."
    state, concoction = concocted()
    state = pour(state, "alice", concoction, 2, WHEN).state
    nweek_start = Moment.nweek_start(NWEEK + 1)
    gardens = run_timed(state, nweek_start, DrawSource(SEED, "nweek")).state.garden
    (pod,) = gardens.fruit_on(2)
    assert pod.kind == "Water Pod"
    gardens = gardens.with_fruit(replace(pod, plant=None, holder="bob"))
    with pytest.raises(IllegalActionError) as refused:
        plant(gardens, "bob", pod.number, "bob", nweek_start)
    assert (refused.value.rule, str(refused.value)) == (
        "1915",
        "no rule lets a Water Pod be planted",
    )


def test_turning_the_last_thorn_bush_gives_the_town_square_one() -> None:
    # 1909: "If at any time no Thorn Bushes exist, one is created in the Town Square."
    state, concoction = concocted()
    gardens = state.garden.without_objects((1,))  # only bob's Thorn Bush is left
    state = replace(state, garden=gardens)
    outcome = pour(state, "alice", concoction, 3, WHEN)
    assert [(h.rule, h.text) for h in outcome.happenings][1] == (
        "1909",
        f"no Thorn Bushes existed, so one is created in the Town Square: Plant "
        f"{outcome.state.garden.next_number - 1}",
    )
    with pytest.raises(IllegalActionError):  # a Waterspout already
        again = outcome.state.with_items(((CONCOCTION, Category.CONCOCTION),), "alice", WHEN)
        pour(again, "alice", again.last_number(), 3, WHEN)


def test_fruit_on_a_turned_plant_stays_and_neither_falls_nor_is_eaten() -> None:
    # 1908 B.1: a Tomato falls "while on a Vine"; 1909: a Thorn Seed is eaten if it
    # "stays on a Thorn Bush".  On a Waterspout, neither: the Fruit stays to be picked.
    state, concoction = concocted()
    ripe = Moment.nweek_start(NWEEK + 1)
    gardens = state.garden.with_fruit_on(state.garden.plant(2), "Tomato", 1, Moment.at(NWEEK, 0))
    gardens = gardens.with_fruit_on(gardens.plant(3), "Thorn Seed", 1, Moment.at(NWEEK, 0))
    tomato, seed = gardens.next_number - 2, gardens.next_number - 1
    state = replace(state, garden=gardens)
    state = pour(state, "alice", concoction, 2, WHEN).state
    extra = state.with_items(((CONCOCTION, Category.CONCOCTION),), "alice", WHEN)
    state = pour(extra, "alice", extra.last_number(), 3, WHEN).state
    outcome = run_timed(state, ripe, DrawSource(SEED, "nweek"))
    after = outcome.state.garden
    assert after.fruit(tomato).rotten and after.fruit(tomato).plant == 2
    assert after.fruit(seed).plant == 3
    assert f"Tomato {tomato}, on Plant 2 (Waterspout), becomes Rotten" in [
        h.text for h in outcome.happenings
    ]
